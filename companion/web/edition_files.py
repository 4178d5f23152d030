"""Editions as files on the home page: import an edition file (checked whole, every problem
named by its field and line, nothing stored on any), and download any edition's file."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, request, url_for

from .. import services
from ..core.errors import BancoError
from .errors import translate
from .hosting import password_required, require_host
from .ratelimit import count_created, may_create
from .speaking import gettext as _
from .templating import lang

bp = Blueprint("edition_files", __name__)

MAX_PROBLEMS_SHOWN = 20


@bp.post("/editions/import")
def import_file():
    try:
        require_host(request.form.get("password") or None)
    except BancoError as error:
        flash(translate(error), "error")
        return redirect(url_for("pages.home") + "#editions")
    may_create("edition")  # past this address's share: the error page, 429, says when to come back
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        flash(_("Choose an edition file to import."), "error")
        return redirect(url_for("pages.home") + "#editions")
    raw = upload.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        flash(_("This file is not an edition file: it is not text in UTF-8."), "error")
        return redirect(url_for("pages.home") + "#editions")
    try:
        result = services.import_edition_text(text, most=current_app.config["IMPORTED_EDITIONS_LIMIT"])
    except services.EditionRefused as refused:
        services.rollback()
        flash(_("The edition file was refused and nothing was stored."), "error")
        for problem in refused.problems[:MAX_PROBLEMS_SHOWN]:
            flash(problem, "error")
        if len(refused.problems) > MAX_PROBLEMS_SHOWN:
            flash(_("… and %(count)s more problems.", count=len(refused.problems) - MAX_PROBLEMS_SHOWN), "error")
        return redirect(url_for("pages.home") + "#editions")
    except BancoError as error:  # an id of a built-in edition
        services.rollback()
        flash(translate(error), "error")
        return redirect(url_for("pages.home") + "#editions")
    count_created("edition")
    edition = services.editions()[result["id"]]
    if result["replaced"]:
        flash(
            _(
                "Edition %(name)s updated: new games use the new file, games already opened keep theirs.",
                name=edition.name(lang()),
            ),
            "ok",
        )
    else:
        flash(_("Edition %(name)s imported: pick it when you open a table.", name=edition.name(lang())), "ok")
    return redirect(url_for("pages.home") + "#editions")


def init_app(app) -> None:
    app.add_template_global(password_required, "host_password_required")
    app.add_template_global(services.is_imported, "is_imported_edition")
