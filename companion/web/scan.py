"""Printed money checked by phone (Niente è come sembra on paper).

The banker prints the game's notes and Imprevisti cards, each with a QR code of
``/s/<serial>`` (``printables.counterfeit_money``), and a sheet of decoder chips. A phone
seated in the game opens a code and sees a big *Check* button: a check spends one of the
player's chips, so it happens only on the POST of that tap, never on opening the page. The
answer is GENUINE or FAKE in big type; on paper no money moves in the app.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request, url_for

import printables

from .. import services
from ..core.errors import N_, Forbidden, NotFound
from ..services import door
from ..services import serials as serial_service
from . import seats
from .api import _caller as api_caller
from .declared import BEARER, Operation, declare, refusals
from .errors import translate
from .printing import PREVIEW_WIDTH, _paper, _pdf, _players, _png, _sheet_lang
from .templating import lang as page_lang
from .wallet_bar import wallet_bar

bp = Blueprint("scan", __name__)


# --- printing: the game's money and the decoder chips ---------------------------------------


def _money_pdf(game_id: str, paper: str, lang: str, ink_saver: bool = True) -> tuple[bytes, str]:
    game, items = serial_service.printed_items(game_id)
    edition = services.edition_of(game)
    pdf = printables.counterfeit_money_pdf(
        dict(edition.raw), items, current_app.config["PUBLIC_URL"], game.join_code, paper, lang, ink_saver=ink_saver
    )
    return pdf, f"banco-money-{game.join_code}-{paper}-{lang}.pdf"


@bp.get("/api/v1/games/<game_id>/print/money.pdf")
@declare(
    Operation(
        "The game's printed notes and Imprevisti cards (Niente è come sembra), banker only",
        {
            "200": {
                "description": "A vector PDF",
                "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
            },
            **refusals(400, 401, 403, 404),
        },
        "Each note and card carries a QR code of `<public URL>/s/<serial>` and its serial; some are fake, "
        "and nothing on the paper or in the code tells which: `scan` answers. 404 for an edition without "
        "counterfeits.",
        query=(
            {"name": "paper", "in": "query", "schema": {"enum": ["a4", "letter"]}},
            {"name": "lang", "in": "query", "schema": {"enum": ["it", "en"]}},
        ),
        security=BEARER,
    )
)
def api_money_pdf(game_id):
    """The game's notes and Imprevisti cards with their serials: the banker's token only."""
    caller = api_caller(game_id)
    if not caller.is_banker:
        raise Forbidden("banker_only", N_("Only the banker can do this."))
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    pdf, name = _money_pdf(game_id, paper, lang)
    return _pdf(pdf, name, private=True)


def _banker_game(game_id):
    game = services.get_game(game_id)
    if seats.caller(game.id, seats.BANKER) is None:
        abort(403)
    return game


@bp.get("/g/<game_id>/print/money-serials.pdf")
def money_pdf(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    pdf, name = _money_pdf(game.id, paper, lang, request.args.get("ink") != "full")
    return _pdf(pdf, name, private=True)


@bp.get("/g/<game_id>/print/money-serials.png")
def money_png(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    game, items = serial_service.printed_items(game.id)
    png = printables.counterfeit_money_png(
        dict(services.edition_of(game).raw),
        items,
        current_app.config["PUBLIC_URL"],
        game.join_code,
        paper,
        lang,
        width=PREVIEW_WIDTH,
    )
    return _png(png, private=True)


def _chips_args(game):
    edition = services.edition_of(game)
    if edition.counterfeits is None:
        raise NotFound("no_printed_money", N_("This edition has no money to check: there is nothing to print."))
    players = len([p for p in game.players if not p.bankrupt]) or edition.min_players
    return dict(edition.raw), _players(edition, str(players))


@bp.get("/g/<game_id>/print/decoder-chips.pdf")
def chips_pdf(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    edition, players = _chips_args(game)
    return _pdf(
        printables.decoder_chips_pdf(edition, players, paper, lang),
        f"banco-decoder-chips-{game.join_code}-{paper}-{lang}.pdf",
        private=True,
    )


@bp.get("/g/<game_id>/print/decoder-chips.png")
def chips_png(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    edition, players = _chips_args(game)
    return _png(printables.decoder_chips_png(edition, players, paper, lang, width=PREVIEW_WIDTH), private=True)


# --- scanning ---------------------------------------------------------------------------------


def _seated_games():
    """The running or waiting games with counterfeits this phone holds a seat in, newest first,
    each with its caller."""
    out = []
    for game_id in reversed(seats.known_games()):
        game = services.find_game(game_id)
        if game is None or game.status == "finished" or services.edition_of(game).counterfeits is None:
            continue
        caller = seats.caller(game.id, seats.PLAYER) or seats.caller(game.id, seats.BANKER)
        if caller is not None:
            out.append((game, caller))
    return out


def _page(game, caller, serial="", answer=None, refusal=None, status=200):
    players = [p for p in game.players if not p.bankrupt] if caller is not None and caller.is_banker else []
    me = next((p for p in game.players if caller is not None and p.id == caller.player_id), None)
    chips = services.state_of(game, deeds=False).players[me.id].chips if me is not None else None
    return render_template(
        "scan.html",
        game=game,
        caller=caller,
        serial=serial,
        answer=answer,
        refusal=refusal,
        players=players,
        me=me,
        chips=chips,
        edition=services.edition_of(game),
        wallet_bar=wallet_bar(game, caller),
    ), status


@bp.get("/s/<serial>")
def printed(serial):
    """A printed note's or card's QR code: on a phone seated in the game it belongs to, the page
    to check it (nothing is spent by opening it); anywhere else, why nothing can be said."""
    seated = _seated_games()
    for game, caller in seated:
        if serial_service.game_of_serial(game, serial):
            return _page(game, caller, serial)
    return render_template(
        "scan.html",
        game=None,
        caller=None,
        serial=serial,
        answer=None,
        players=[],
        me=None,
        chips=None,
        edition=None,
        refusal=translate(NotFound("unknown_serial", N_("This is not a note of this game."))) if seated else None,
    ), 404 if seated else 200


@bp.get("/g/<game_id>/scan")
def scan_form(game_id):
    """The typed-serial form of a game's phone (linked from the wallet)."""
    game, caller = seats.seated(game_id)
    if caller is None:
        abort(403)
    if services.edition_of(game).counterfeits is None:
        raise NotFound("no_printed_money", N_("This edition has no money to check: there is nothing to print."))
    return _page(game, caller, request.args.get("serial", "")[:40])


@bp.post("/g/<game_id>/scan")
def scan(game_id):
    """The tap on *Check*: one chip spent, the answer shown big."""
    game, caller = seats.seated(game_id)
    if caller is None:
        abort(403)
    data = {"type": "scan", "serial": request.form.get("serial", "")[:40]}
    if caller.is_banker and request.form.get("player"):
        data["player"] = request.form["player"]
    reply = door.of(current_app).answer(game.id, caller, data, page_lang())
    if reply.status >= 400:
        refusal = reply.body["error"]["message"]
        return _page(services.get_game(game.id), caller, data["serial"], refusal=refusal, status=reply.status)
    # The field is emptied after an answer: tapping again must not spend a chip on the same note.
    return _page(services.get_game(game.id), caller, "", answer=reply.body["result"]["fake"])


def wallet_link(game) -> str | None:
    """The wallet's typed-serial form, in a game whose money was printed (a table that plays
    with the phones' own notes has no use for it)."""
    if services.edition_of(game).counterfeits is None or serial_service.secret_of(game) is None:
        return None
    return url_for("scan.scan_form", game_id=game.id)


def init_app(app) -> None:
    app.jinja_env.globals["scan_link"] = wallet_link
