"""The edition editor: start from any edition, change any value, save as an edition of this
server. Every value of the edition's file is a field named by its path (``f:deeds[3].price``);
the values are checked as they are typed by the same checks as an import (``/editions/check``),
and saving is an import (``services.import_edition``): a built-in edition is never replaced.

The file's shape stays the starting edition's (the same deeds, groups and squares): adding or
removing some is done in the file (download, edit, import).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for

from .. import services
from ..core.errors import BancoError
from .editor_labels import field_label, section_label
from .errors import count_refusal, refusal_headers, translate
from .hosting import require_host
from .ratelimit import count_created, may_create
from .speaking import gettext as _
from .templating import lang

bp = Blueprint("editor", __name__)

PREFIX = "f:"
_WHOLE = re.compile(r"^-?\d+$")
HIDDEN = ("$schema",)


def path_name(path: tuple) -> str:
    """``("deeds", 3, "price")`` as ``deeds[3].price``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _scalar_list(value) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)


def leaves(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every value a field edits, with its path: scalars, and lists of scalars (one field)."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if not path and key in HIDDEN:
                continue
            yield from leaves(value, path + (key,))
    elif isinstance(data, list) and not _scalar_list(data):
        for i, value in enumerate(data):
            yield from leaves(value, path + (i,))
    else:
        yield path, data


def shown(value: Any) -> str:
    """A value as its field shows it."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value)
    return str(value)


def _read(text: str, like: Any) -> Any:
    """The typed text as the kind of value the starting edition has there (a number stays text
    when it is none, so the check names the field)."""
    text = text.strip()
    if isinstance(like, bool):
        return text == "1"
    if isinstance(like, list):
        inner = like[0] if like else 0
        return [_read(part, inner) for part in text.split(",") if part.strip()] if text else []
    if isinstance(like, int) or like is None:
        if like is None and text == "":
            return None
        if _WHOLE.match(text):
            return int(text)
        return text if like is None or text else None
    if isinstance(like, float):
        try:
            return float(text)
        except ValueError:
            return text
    return text


def edited(base: Mapping, form: Mapping[str, str]) -> dict:
    """The starting edition's file with the form's values in their places."""
    data = copy.deepcopy(dict(base))
    for path, like in leaves(base):
        name = PREFIX + path_name(path)
        if isinstance(like, bool):
            value = form.get(name) == "1"
        elif name in form:
            value = _read(form[name], like)
        else:
            continue
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return data


def fields(data: Mapping) -> list[dict]:
    """The editor's fields, section by section: ``[{"name", "fields": [{"path", "name", "kind",
    "value", "label"}]}]``."""
    sections: dict[str, list] = {}
    for path, value in leaves(data):
        kind = (
            "bool"
            if isinstance(value, bool)
            else "list"
            if isinstance(value, list)
            else "number"
            if isinstance(value, (int, float)) or value is None
            else "text"
        )
        sections.setdefault(str(path[0]), []).append(
            {
                "path": path_name(path),
                "name": PREFIX + path_name(path),
                "kind": kind,
                "value": value if kind == "bool" else shown(value),
                "label": field_label(path, data),
                "provisional": path[-1] == "provisional",
            }
        )
    return [{"name": section_label(name), "fields": items} for name, items in sections.items()]


def _problem_fields(problems: list[str]) -> list[str]:
    """The field each problem names (``deeds[3].price``), as the editor's paths."""
    out = []
    for problem in problems:
        match = re.match(r"^(?:line \d+: )?[^:]*: ([A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*)", problem)
        if match:
            out.append(match.group(1))
    return out


def _base(edition_id: str) -> dict:
    try:
        return services.edition_file(edition_id)
    except BancoError:
        abort(404)


def _suggested_id(edition_id: str) -> str:
    return edition_id if services.is_imported(edition_id) else f"{edition_id}-custom"[:64]


def _page(base_id: str, data: Mapping, problems: list[str], status: int = 200, refusal: str | None = None):
    """The editor on ``data``: its ``problems`` (values to correct), or the ``refusal`` of a save
    whose values were not the matter (a host password, too many editions)."""
    return render_template(
        "editor.html",
        base_id=base_id,
        sections=fields(data),
        problems=problems,
        refusal=refusal,
        wrong=_problem_fields(problems),
        base_name=services.editions()[base_id].name(lang()),
    ), status


@bp.get("/editions/edit")
def edit():
    base_id = request.args.get("from", "")
    data = _base(base_id)
    data["id"] = _suggested_id(base_id)
    return _page(base_id, data, [])


@bp.post("/editions/check")
def check():
    base_id = request.form.get("from", "")
    data = edited(_base(base_id), request.form)
    problems = services.check_edition(data)
    return jsonify({"problems": problems, "fields": _problem_fields(problems)})


@bp.post("/editions/save")
def save():
    base_id = request.form.get("from", "")
    data = edited(_base(base_id), request.form)
    try:
        require_host(request.form.get("password") or None)
        may_create("edition")
        result = services.import_edition(data, most=current_app.config["IMPORTED_EDITIONS_LIMIT"])
    except services.EditionRefused as refused:
        services.rollback()
        return _page(base_id, data, refused.problems, 400)
    except BancoError as error:  # the edits stay on the page, with what refused them
        services.rollback()
        count_refusal(error)
        page, status = _page(base_id, data, [], error.status, refusal=translate(error))
        return page, status, refusal_headers(error)
    count_created("edition")
    name = services.editions()[result["id"]].name(lang())
    if result["replaced"]:
        flash(
            _("Edition %(name)s updated: new games use the new file, games already opened keep theirs.", name=name),
            "ok",
        )
    else:
        flash(_("Edition %(name)s saved: pick it when you open a table.", name=name), "ok")
    return redirect(url_for("pages.home") + "#editions")
