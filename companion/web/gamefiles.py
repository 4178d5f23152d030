"""A game as a file on the pages: the Bank saves its game (download), and the home page carries
a saved game on (upload), checked whole as the API checks it (``services.import_game``)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for

from .. import services
from ..core.errors import BancoError
from . import seats
from .api import game_file_response
from .errors import places, translate
from .ratelimit import count_created, may_create
from .speaking import gettext as _

bp = Blueprint("gamefiles", __name__)


@bp.get("/g/<game_id>/game-file")
def export_file(game_id):
    """The Bank's download of its game as a file; 403 to anyone but the banker's browser."""
    game = services.get_game(game_id)
    if seats.caller(game.id, seats.BANKER) is None:
        abort(403)
    return game_file_response(game.id)


@bp.post("/games/import")
def import_file():
    """A saved game carried on here: a new game at the file's version, whose players sit down
    again with its new join code; this browser holds its bank. A file refused, or one past what
    this process imports at once (``services.carry_on``), is said in a flash on the home page."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        flash(_("Choose a game file to carry on."), "error")
        return redirect(url_for("pages.home"))
    may_create("game")  # a new game, as the home page's form opens one: the same share (429 page)
    try:
        made = services.carry_on(
            places(), upload.read(), current_app.config["MAX_GAME_FILE_BYTES"], hand_out_tokens=False
        )
    except services.BusyImporting as busy:  # the file is fine: only its turn has not come
        flash(translate(busy), "error")
        return redirect(url_for("pages.home"))
    except BancoError as error:
        services.rollback()
        flash(_("The game file was refused and nothing was stored."), "error")
        flash(translate(error), "error")
        return redirect(url_for("pages.home"))
    count_created("game")
    seats.remember(made["id"], seats.BANKER, made["banker_token"])
    game = services.get_game(made["id"])
    flash(
        _(
            "The game goes on from version %(version)s. Players sit down again with the new join code %(code)s.",
            version=game.version,
            code=made["join_code"],
        ),
        "ok",
    )
    return redirect(url_for("pages.table", game_id=made["id"]))
