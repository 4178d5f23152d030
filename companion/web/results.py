"""The results of a game: the winner, the ranking with each player's count part by part, a
chart of every player's worth through the game, and the count as CSV and JSON. During play
the same page shows the standings so far (keeping private cash private)."""
from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, jsonify, redirect, render_template, url_for
from flask_babel import gettext as _

from .. import services
from . import seats
from .charts import PALETTE, worth_chart
from .templating import money

bp = Blueprint("results", __name__)

PARTS = {"cash": lambda: _("Cash"), "deeds": lambda: _("Deeds"), "buildings": lambda: _("Buildings")}


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
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    score = visible_score(game, caller)
    chart = None
    if not score.get("hidden"):
        players = [(p.id, p.name) for p in game.players]
        chart = worth_chart(services.worth_points(game), players, _("Worth of each player through the game"),
                            lambda amount: money(amount, edition))
    winners = [r for r in score["standings"] if r["rank"] == 1] if score["final"] else []
    back = (url_for("pages.table", game_id=game.id) if caller.is_banker and not caller.player_id
            else url_for("pages.wallet", game_id=game.id))
    return render_template("results.html", game=game, edition=edition, score=score, chart=chart,
                           winners=winners, part_name=part_name, back=back, palette=PALETTE)


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
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_("Rank"), _("Player"), *[part_name(p) for p in parts], _("Total"), _("Tournament points"),
                     _("Out of the game")])
    for r in score["standings"]:
        breakdown = r["breakdown"] or {}
        writer.writerow([r["rank"] if r["rank"] is not None else "", r["name"],
                         *[breakdown.get(p, "") for p in parts], "" if r["total"] is None else r["total"],
                         "" if r["tournament_points"] is None else r["tournament_points"],
                         _("yes") if r["out"] else ""])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="banco-{game.id}.csv"'})
