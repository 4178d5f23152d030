"""The print side: sheets to print, cut and play, from the ``printables`` package.

``/print`` is for anyone: an edition's deed cards (with the QR codes that lead to
``/card/<edition>/<deed>``) and its paper money, previewed as PNG, downloaded as PDF. A game's
own sheets are the banker's: the table poster (join QR and code) and the rejoin cards, whose
printing issues fresh rejoin secrets and so is a POST with a CSRF token.

Refusals are the core's: an unknown edition or game is a 404 page, a bad paper size, language
or table size a 400, in the reader's language. Drawing a deed set takes a few tenths of a
second, so the edition sheets (immutable while the server runs) are kept in memory once drawn.
"""

from __future__ import annotations

import copy
from functools import lru_cache

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

import printables

from .. import services
from ..core.errors import N_, BadInput, NotFound
from . import seats
from .templating import lang as page_lang

bp = Blueprint("printing", __name__)

PAPERS = ("a4", "letter")
SHEET_LANGUAGES = ("it", "en")
DEFAULT_PLAYERS = 4
PREVIEW_WIDTH = 600


# --- reading the request -------------------------------------------------------------------


def _edition(edition_id):
    edition = services.editions().get(edition_id)
    if edition is None:
        raise NotFound("unknown_edition", N_("There is no such edition."))
    return edition


def _paper(value) -> str:
    """``a4`` (the default) or ``letter``; refuses anything else (400)."""
    paper = (value or "a4").strip().lower()
    if paper not in PAPERS:
        raise BadInput("unknown_paper", N_("Unknown paper size: choose A4 or US Letter."))
    return paper


def _sheet_lang(value) -> str:
    """The language printed on the sheets: ``it``, ``en``, or by default the page's."""
    if not value:
        return page_lang() if page_lang() in SHEET_LANGUAGES else "en"
    if value not in SHEET_LANGUAGES:
        raise BadInput("unknown_language", N_("Unknown language: choose Italian or English."))
    return value


def _count(value) -> int | None:
    """A small count typed in the address (ASCII digits, at most three), else ``None``:
    ``"²"`` is a digit to ``isdigit()`` but not a number to ``int()``, which also refuses
    thousands of digits."""
    if value and value.isascii() and value.isdigit() and len(value) <= 3:
        return int(value)
    return None


def _players(edition, value) -> int:
    """How many players the money is for: 4 by default (within the edition's range);
    refuses a number outside the edition's range (400)."""
    if value is None or value == "":
        return min(max(DEFAULT_PLAYERS, edition.min_players), edition.max_players)
    if _count(value) is None or not edition.min_players <= int(value) <= edition.max_players:
        raise BadInput(
            "bad_players",
            N_("This game takes %(min)s to %(max)s players."),
            min=edition.min_players,
            max=edition.max_players,
        )
    return int(value)


def _ink_saver(value) -> bool:
    """How the money is printed: ``saver`` (the default: outlines and a light tint, for home
    printers) or ``full`` colour; refuses anything else (400)."""
    if value in (None, "", "saver"):
        return True
    if value == "full":
        return False
    raise BadInput("unknown_ink", N_("Unknown ink choice: choose the ink saver or full colour."))


def _page_players(edition, value) -> int:
    """The print page is forgiving where the sheet addresses are not: a table size the newly
    chosen edition lacks is brought into its range instead of refused."""
    wanted = _count(value)
    if wanted is None:
        wanted = DEFAULT_PLAYERS
    return min(max(wanted, edition.min_players), edition.max_players)


def _base_url() -> str:
    return current_app.config["PUBLIC_URL"]


def _banker_game(game_id):
    """The game, if this browser is its banker; 404 for an unknown game, else 403."""
    game = services.get_game(game_id)
    if seats.caller(game.id, seats.BANKER) is None:
        abort(403)
    return game


# --- drawing, with the edition sheets kept once drawn ---------------------------------------


def _edition_data(edition_id: str) -> dict:
    """The edition as the plain dict of its file, which is what ``printables`` reads."""
    return copy.deepcopy(dict(services.editions()[edition_id].raw))


@lru_cache(maxsize=8)
def _deeds_pdf(edition_id: str, paper: str, lang: str, base_url: str) -> bytes:
    return printables.deed_cards_pdf(_edition_data(edition_id), base_url, paper, lang)


@lru_cache(maxsize=8)
def _deeds_png(edition_id: str, paper: str, lang: str, base_url: str) -> bytes:
    return printables.deed_cards_png(_edition_data(edition_id), base_url, paper, lang, width=PREVIEW_WIDTH)


@lru_cache(maxsize=8)
def _money_pdf(edition_id: str, players: int, paper: str, lang: str, ink_saver: bool = True) -> bytes:
    return printables.money_pdf(_edition_data(edition_id), players, paper, lang, ink_saver=ink_saver)


@lru_cache(maxsize=16)
def _money_png(edition_id: str, players: int, paper: str, lang: str, ink_saver: bool = True) -> bytes:
    return printables.money_png(
        _edition_data(edition_id), players, paper, lang, width=PREVIEW_WIDTH, ink_saver=ink_saver
    )


def _pdf(data: bytes, filename: str, private: bool = False) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store" if private else "public, max-age=3600"
    return response


def _png(data: bytes, private: bool = False) -> Response:
    response = Response(data, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store" if private else "public, max-age=3600"
    return response


# --- the print page and the edition sheets --------------------------------------------------


@bp.get("/print")
def print_page():
    """Choose an edition, paper, language and table size; see and download the sheets."""
    edition = _edition(request.args.get("edition") or current_app.config["DEFAULT_EDITION"])
    paper = _paper(request.args.get("paper"))
    sheet_lang = _sheet_lang(request.args.get("lang"))
    players = _page_players(edition, request.args.get("players"))
    games = []
    for game_id in seats.known_games():
        game = services.find_game(game_id)
        if game is not None and seats.caller(game_id, seats.BANKER) is not None:
            games.append({"game": game, "edition": services.edition_of(game)})
    editions = list(services.editions().values())
    return render_template(
        "print.html",
        editions=editions,
        edition=edition,
        paper=paper,
        sheet_lang=sheet_lang,
        players=players,
        games=games,
        ink="full" if request.args.get("ink") == "full" else "saver",
        table_sizes=range(min(e.min_players for e in editions), max(e.max_players for e in editions) + 1),
    )


@bp.get("/print/<edition_id>/deeds.pdf")
def deeds_pdf(edition_id):
    edition = _edition(edition_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    pdf = _deeds_pdf(edition.id, paper, lang, _base_url())
    services.record_printing("deeds", _base_url())
    return _pdf(pdf, f"banco-{edition.id}-deeds-{paper}-{lang}.pdf")


@bp.get("/print/<edition_id>/deeds.png")
def deeds_png(edition_id):
    edition = _edition(edition_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    return _png(_deeds_png(edition.id, paper, lang, _base_url()))


@bp.get("/print/<edition_id>/money.pdf")
def money_pdf(edition_id):
    edition = _edition(edition_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    players = _players(edition, request.args.get("players"))
    ink_saver = _ink_saver(request.args.get("ink"))
    return _pdf(
        _money_pdf(edition.id, players, paper, lang, ink_saver),
        f"banco-{edition.id}-money-{players}-players-{paper}-{lang}{'' if ink_saver else '-full-colour'}.pdf",
    )


@bp.get("/print/<edition_id>/money.png")
def money_png(edition_id):
    edition = _edition(edition_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    players = _players(edition, request.args.get("players"))
    return _png(_money_png(edition.id, players, paper, lang, _ink_saver(request.args.get("ink"))))


# --- a game's own sheets: the banker's --------------------------------------------------------


def _poster_args(game, lang: str) -> tuple[str, str, str]:
    join_url = _base_url() + url_for("pages.join", code=game.join_code)
    return join_url, game.join_code, services.edition_of(game).name(lang)


@bp.get("/g/<game_id>/print")
def game_print(game_id):
    """The banker's page for this game's sheets: the poster and the rejoin cards."""
    game = _banker_game(game_id)
    return render_template(
        "print_game.html",
        game=game,
        edition=services.edition_of(game),
        paper=_paper(request.args.get("paper")),
        sheet_lang=_sheet_lang(request.args.get("lang")),
    )


@bp.get("/g/<game_id>/print/poster.pdf")
def poster_pdf(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    return _pdf(
        printables.poster_pdf(*_poster_args(game, lang), paper, lang),
        f"banco-poster-{game.join_code}-{paper}.pdf",
        private=True,
    )


@bp.get("/g/<game_id>/print/poster.png")
def poster_png(game_id):
    game = _banker_game(game_id)
    paper, lang = _paper(request.args.get("paper")), _sheet_lang(request.args.get("lang"))
    return _png(printables.poster_png(*_poster_args(game, lang), paper, lang, width=PREVIEW_WIDTH), private=True)


@bp.post("/g/<game_id>/print/rejoin.pdf")
def rejoin_pdf(game_id):
    """A rejoin card for every player, each with a fresh secret valid until used. Printing
    replaces every player's earlier rejoin code, printed or on screen."""
    game = _banker_game(game_id)
    paper, lang = _paper(request.form.get("paper")), _sheet_lang(request.form.get("lang"))
    game_id, join_code = game.id, game.join_code
    seated = [(p.id, p.name) for p in game.players]  # read before issuing: each issue commits
    cards = []
    for player_id, name in seated:
        secret = services.issue_rejoin(game_id, player_id, minutes=None)
        cards.append({"name": name, "url": _base_url() + url_for("pages.rejoin", secret=secret)})
    return _pdf(
        printables.rejoin_cards_pdf(cards, paper, lang), f"banco-rejoin-cards-{join_code}-{paper}.pdf", private=True
    )
