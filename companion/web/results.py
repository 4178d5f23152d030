"""The results of a game: the winner, the ranking with each player's count part by part, a
chart of every player's worth through the game, and the count as CSV, JSON and a printable
score sheet (PDF). During play the same page shows the standings so far (keeping private cash
private)."""

from __future__ import annotations

import datetime as dt
import itertools

from flask import Blueprint, Response, jsonify, redirect, request, url_for
from flask_babel import format_date

from printables.score_sheet import score_sheet_pdf

from .. import services
from . import seats
from .charts import PALETTE, worth_chart
from .printing import SHEET_LANGUAGES, _ink_saver, _paper
from .regions import Lazy, once, render
from .speaking import gettext as _
from .spreadsheet import csv_text
from .templating import lang, money, text
from .wallet_bar import wallet_bar

bp = Blueprint("results", __name__)

PARTS = {
    "cash": lambda: _("Cash"),
    "deeds": lambda: _("Deeds"),
    "buildings": lambda: _("Buildings"),
    # The count by rents collected from the bank (Niente è come sembra).
    "rents": lambda: _("Deed rents"),
    "hotels": lambda: _("Hotel rents"),
}


def part_name(part: str) -> str:
    return PARTS[part]() if part in PARTS else part


def visible_score(game, caller) -> dict:
    """The score as this caller may see it: everything once the game is over; during play, in
    an edition that keeps cash private, only the caller's own count (and the banker's, all)."""
    score = services.score(game)
    if score["final"] or not game.cash_private or (caller is not None and caller.is_banker):
        return score
    mine = caller.player_id if caller else None
    for row in score["standings"]:
        if row["player"] != mine:
            row.update(rank=None, total=None, breakdown=None, tournament_points=None)
    score["hidden"] = True
    return score


@bp.get("/g/<game_id>/results")
def results(game_id):
    with services.reading():  # the count, the chart and the cash of one instant
        return _results(game_id)


def _results(game_id):
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    score = once(lambda: visible_score(game, caller))

    def chart():
        if score().get("hidden"):
            return None
        players = [(p.id, p.name) for p in game.players]
        return worth_chart(
            services.worth_points(game),
            players,
            _("Worth of each player through the game"),
            lambda amount: money(amount, edition),
        )

    back = (
        url_for("pages.table", game_id=game.id)
        if caller.is_banker and not caller.player_id
        else url_for("pages.wallet", game_id=game.id)
    )
    return render(
        "results.html",
        game.version,
        game=game,
        edition=edition,
        score=Lazy(score),
        chart=Lazy(chart),
        chart_span=services.chart_span(game.version),
        winners=Lazy(lambda: [r for r in score()["standings"] if r["rank"] == 1] if score()["final"] else []),
        part_name=part_name,
        back=back,
        palette=PALETTE,
        wallet_bar=Lazy(lambda: wallet_bar(game, caller)),
        tie_notes=Lazy(lambda: [n for n in (play_off_note(score()),) if n] + tie_notes(score())),
    )


def tie_notes(score: dict) -> list[str]:
    """What the tiebreak did: for two players in a row who count the same, whether the rules'
    tiebreak put one first or they share the place (players out of the game aside); where a
    tie for first place plays off (Petropolis), who plays it."""
    rows = [r for r in score["standings"] if not r["out"] and r["total"] is not None]
    due = set(score.get("play_off_due") or ())
    played = {pid for players in score.get("play_offs") or () for pid in players}
    notes = []
    if due:
        notes.append(
            _(
                "%(names)s are tied for first place: the rules play %(minutes)s more minutes among them. "
                "The banker starts the play-off from the table.",
                names=", ".join(r["name"] for r in rows if r["player"] in due),
                minutes=score["play_off_minutes"],
            )
        )
    for a, b in itertools.pairwise(rows):
        if a["total"] != b["total"] or (a["player"] in due and b["player"] in due):
            continue
        if a["rank"] != b["rank"] and (a["player"] in played) != (b["player"] in played):
            notes.append(
                _(
                    "%(first)s and %(second)s count the same, but %(first)s played the play-off for first "
                    "place and goes first.",
                    first=a["name"],
                    second=b["name"],
                )
            )
        elif a["rank"] != b["rank"]:
            notes.append(
                _(
                    "%(first)s and %(second)s count the same: the rules' tiebreak puts %(first)s first.",
                    first=a["name"],
                    second=b["name"],
                )
            )
        else:
            notes.append(
                _(
                    "%(first)s and %(second)s count the same and the rules do not separate them: they share the place.",
                    first=a["name"],
                    second=b["name"],
                )
            )
    return notes


def play_off_note(score: dict) -> str | None:
    """During the play-off of a tie for first place: who plays it, and that the others keep their
    places."""
    if score["final"] or not score.get("play_offs"):
        return None
    names = {r["player"]: r["name"] for r in score["standings"]}
    return _(
        "Play-off for first place: %(names)s play %(minutes)s more minutes among themselves; the others keep "
        "their places behind them.",
        names=", ".join(names[pid] for pid in score["play_offs"][-1]),
        minutes=score["play_off_minutes"],
    )


def points_note(score: dict) -> str | None:
    """The championship's points table, as ``_points_note.html`` says it on the page."""
    if not score["points_table_rows"]:
        return None
    return _(
        "Tournament points by place and by players left at the end, as the rulebook's table gives them; "
        "players out of the game score 0. The table stops at %(n)s players left: with more, its last row "
        "counts and places past its fifth score 0.",
        n=score["points_table_rows"],
    )


@bp.get("/g/<game_id>/results.json")
def results_json(game_id):
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    return jsonify({"game": game.id, "edition": game.edition_id, **visible_score(game, caller)})


@bp.get("/g/<game_id>/results.csv")
def results_csv(game_id):
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    score = visible_score(game, caller)
    parts = list(next((r["breakdown"] for r in score["standings"] if r["breakdown"]), {}))
    header = [
        _("Rank"),
        _("Player"),
        *[part_name(p) for p in parts],
        _("Total"),
        _("Tournament points"),
        _("Out of the game"),
    ]
    rows = [
        [
            r["rank"] if r["rank"] is not None else "",
            r["name"],
            *[(r["breakdown"] or {}).get(p, "") for p in parts],
            "" if r["total"] is None else r["total"],
            "" if r["tournament_points"] is None else r["tournament_points"],
            _("yes") if r["out"] else "",
        ]
        for r in score["standings"]
    ]
    return Response(
        csv_text([header, *rows]),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="banco-{game.id}.csv"'},
    )


def _game_date(game) -> str:
    """The day the table was opened, on the server's clock (the table's), in the reader's words."""
    opened = game.created_at.replace(tzinfo=dt.UTC).astimezone()
    return format_date(opened.date(), "long")


def score_sheet(game, edition, score: dict) -> dict:
    """The score as ``printables.score_sheet`` draws it: every word in the reader's language,
    money as the pages write it."""
    rows = score["standings"]
    parts = list(next((r["breakdown"] for r in rows if r["breakdown"]), {}))
    with_points = score["points_table_rows"] is not None
    return {
        "title": _("Score sheet"),
        "edition": text(edition.name),
        "details": [_game_date(game), _("Game %(id)s", id=game.id)],
        "status": _("Final count") if score["final"] else _("Standings so far"),
        "winner": _sheet_winner(score, edition),
        "columns": {
            "rank": _("Rank"),
            "player": _("Player"),
            "parts": [part_name(p) for p in parts],
            "total": _("Total"),
            "points": _("Tournament points") if with_points else None,
        },
        "rows": [_sheet_row(r, parts, score["final"], edition) for r in rows],
        "notes": _sheet_notes(score),
    }


def _sheet_winner(score: dict, edition) -> dict | None:
    """The score sheet's winner (or winners, tied): ``None`` before the final count."""
    winners = [r for r in score["standings"] if r["rank"] == 1] if score["final"] else []
    if not winners:
        return None
    return {
        "label": _("The winner") if len(winners) == 1 else _("A tie for first place"),
        "name": " · ".join(r["name"] for r in winners),
        "total": money(winners[0]["total"], edition),
    }


def _sheet_row(r: dict, parts: list, final: bool, edition) -> dict:
    """One player's row of the score sheet, in words."""
    return {
        "rank": "·" if r["rank"] is None else str(r["rank"]),
        "player": r["name"],
        "parts": [money(r["breakdown"][p], edition) if r["breakdown"] else "—" for p in parts],
        "total": _("private") if r["total"] is None else money(r["total"], edition),
        "points": None if r["tournament_points"] is None else str(r["tournament_points"]),
        "first": bool(final and r["rank"] == 1),
        "out": r["out"],
        "tag": _("out"),
    }


def _sheet_notes(score: dict) -> list[str]:
    """What the score sheet says under the count: a count that is not final yet (and private
    cash), the tournament points, a play-off, the ties."""
    notes = []
    if not score["final"]:
        notes.append(
            _(
                "The count as it would be if the game ended now. It becomes the final count when the banker "
                "ends the game."
            )
        )
        if score.get("hidden"):
            notes.append(_("In this game cash is private: until the end you see only your own count."))
    return notes + [n for n in (points_note(score), play_off_note(score)) if n] + tie_notes(score)


@bp.get("/g/<game_id>/results.pdf")
def results_pdf(game_id):
    """The score sheet to print: the count as this caller may see it (as on the page), on A4 by
    default (``?paper=letter``), ink saver by default (``?ink=full``), in the reader's language."""
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    paper, ink_saver = _paper(request.args.get("paper")), _ink_saver(request.args.get("ink"))
    edition = services.edition_of(game)
    sheet = score_sheet(game, edition, visible_score(game, caller))
    pdf = score_sheet_pdf(sheet, paper, lang() if lang() in SHEET_LANGUAGES else "en", ink_saver=ink_saver)
    return Response(
        pdf,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="banco-{game.id}-score-sheet.pdf"',
            "Cache-Control": "no-store",
        },
    )
