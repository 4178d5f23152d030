"""The tournament desk: the director's page (players, rounds, the semi-finals and the final,
tables, standings), the referee's view of every table, the big-screen standings anyone may
open, and the printed seating plan and standings.

The director's token is kept in this browser's signed session cookie, as the banker's is for
a game; each drawn table's banker token is kept there too (``seats.remember``), so the
director's device opens any table's page as its banker. A referee's device keeps the
referee's token there (signed in from the code the desk shows): it sees every table and opens
their table screens, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import format_date

from printables.seating import seating_plan_pdf
from printables.standings import standings_pdf

from .. import services
from ..core.errors import BancoError
from ..core.tournament import FINAL, ROUND, SEMI_FINAL
from ..services import door
from . import seats
from .errors import count_refusal, refusal_headers, translate
from .printing import _paper
from .qr import qr_svg
from .ratelimit import TooManyAttempts, count_created, may_create
from .speaking import gettext as _
from .speaking import ngettext
from .templating import lang as page_lang
from .templating import text

bp = Blueprint("tournaments", __name__)

# Big-screen and referee pages reload themselves this often (seconds).
REFRESH_SECONDS = 10


def _directed() -> dict:
    return session.get("tournaments", {})


def _remember_director(tournament_id: str, token: str) -> None:
    directed = dict(_directed())
    directed[tournament_id] = token
    session["tournaments"] = directed
    session.permanent = True


def _director_token(tournament_id: str) -> str | None:
    """This browser's director token for the tournament, if it still works."""
    token = _directed().get(tournament_id)
    return token if token and services.is_director(tournament_id, token) else None


def _require_director(tournament_id: str) -> str:
    services.get_tournament(tournament_id)  # an unknown tournament: 404
    token = _director_token(tournament_id)
    if token is None:
        abort(403)
    return token


def _referee_token(tournament_id: str) -> str | None:
    """This browser's referee token for the tournament, if it still works."""
    token = session.get("refereeing", {}).get(tournament_id)
    return token if token and services.is_referee(tournament_id, token) else None


def stage_title(stage: str, number: int) -> str:
    """A round's name on the desk, the wall pages and the printed sheets."""
    if stage == SEMI_FINAL:
        return _("Semi-finals")
    if stage == FINAL:
        return _("Final")
    return _("Round %(n)s", n=number)


def _next_stages(view: dict) -> list[str]:
    """What the director may draw next, by the tournament's stages so far and its settings
    (the service refuses the rest, with the reason)."""
    drawn = {rnd["stage"] for rnd in view["rounds"]}
    if FINAL in drawn:
        return []
    if SEMI_FINAL in drawn:
        return [FINAL]
    if ROUND not in drawn:
        return [ROUND]
    return [ROUND, SEMI_FINAL if view["finals"]["semi_finalists"] else FINAL]


def _suggested(view: dict, stages: list[str]) -> str | None:
    """Of ``stages``, the one the tournament puts next: another preliminary round until its
    planned ones are drawn, then the semi-finals (or the final)."""
    played = sum(1 for rnd in view["rounds"] if rnd["stage"] == ROUND)
    if ROUND in stages and played < view["preliminary_rounds"]:
        return ROUND
    return next((stage for stage in stages if stage != ROUND), stages[0] if stages else None)


def _championships() -> list:
    return [e for e in services.editions().values() if e.tournament_points is not None]


def _tables(view: dict) -> list[dict]:
    """Every round's tables, the last round first, each with its game's players (with their
    places once it is over), status and clock and whether this browser holds the table's
    banker seat."""
    names = {p["id"]: p["name"] for p in view["players"]}
    rounds = []
    for rnd in reversed(view["rounds"]):
        tables = []
        for table in rnd["tables"]:
            game = services.find_game(table["game"])
            tables.append(
                {
                    "number": table["number"],
                    "game": table["game"],
                    "status": table["status"],
                    "players": [names[pid] for pid in table["players"]],
                    "results": [{**r, "name": names[r["player"]]} for r in table["results"]],
                    "clock": services.clock_view(game) if game is not None else None,
                    "banker": seats.caller(table["game"], seats.BANKER) is not None,
                }
            )
        rounds.append(
            {
                "round": rnd["round"],
                "stage": rnd["stage"],
                "title": stage_title(rnd["stage"], rnd["round"]),
                "tables": tables,
            }
        )
    return rounds


# --- the desk --------------------------------------------------------------------------------


@bp.get("/t")
def start():
    directed = []
    for tournament_id in _directed():
        try:
            directed.append(services.get_tournament(tournament_id))
        except BancoError:
            continue
    return render_template("tournament_new.html", editions=_championships(), directed=directed)


@bp.post("/t")
def create():
    key = request.form.get("key", "")[:100]
    opened = session.get("tournament_opened_with")
    if key and opened and opened[0] == key:  # the same form sent again: that tournament
        return redirect(url_for("tournaments.desk", tournament_id=opened[1]))
    names = [line.strip() for line in request.form.get("players", "").splitlines() if line.strip()]
    edition_id = request.form.get("edition", "")
    minutes = request.form.get("round_minutes", "").strip()
    try:
        may_create("tournament")
        table_size = _whole(request.form.get("table_size", ""))
        round_minutes = services.EDITION_CLOCK
        if minutes == "0":
            round_minutes = None
        elif minutes:
            round_minutes = _whole(minutes)
        finals = {
            field: _whole(request.form.get(field, ""))
            for field in ("semi_finalists", "semi_final_tables", "final_players")
            if request.form.get(field, "").strip()
        }
        if request.form.get("finalists_by"):
            finals["finalists_by"] = request.form["finalists_by"]
        warning = request.form.get("last_minutes", "").strip()
        planned = request.form.get("preliminary_rounds", "").strip()
        created = services.create_tournament(
            request.form.get("name", ""),
            edition_id,
            names,
            table_size,
            round_minutes,
            finals=finals,
            last_minutes=_whole(warning) if warning else None,
            preliminary_rounds=_whole(planned) if planned else None,
        )
    except BancoError as error:
        flash(translate(error), "error")  # the form again, as it was typed
        page = render_template("tournament_new.html", editions=_championships(), directed=[], form=request.form)
        count_refusal(error)
        return page, 429 if isinstance(error, TooManyAttempts) else 400, refusal_headers(error)
    count_created("tournament")
    _remember_director(created["id"], created["director_token"])
    session["tournament_opened_with"] = [key, created["id"]]
    return redirect(url_for("tournaments.desk", tournament_id=created["id"]))


def _whole(text: str):
    """A form's whole number, or the text as typed (the service refuses it by name)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else text


@bp.get("/t/<tournament_id>")
def desk(tournament_id):
    services.get_tournament(tournament_id)
    if _director_token(tournament_id) is None:
        return redirect(url_for("tournaments.standings", tournament_id=tournament_id))
    return _desk(tournament_id)


def _desk(tournament_id, force_offer: str | None = None, status: int = 200):
    with services.reading():
        view = services.tournament_view(tournament_id)
        rounds = _tables(view)
    edition = services.editions().get(view["edition"])
    names = {p["id"]: p["name"] for p in view["players"]}
    startable = bool(rounds) and any(t["status"] == "setup" for t in rounds[0]["tables"])
    return render_template(
        "tournament_desk.html",
        t=view,
        edition=edition,
        rounds=rounds,
        names=names,
        startable=startable,
        force_offer=force_offer,
        withdrawn=_withdrawn(view),
        next_stages=_next_stages(view),
        suggested=_suggested(view, _next_stages(view)),
        champion=_champion(view),
    ), status


def _withdrawn(view: dict) -> dict:
    return {p["id"]: p["withdrawn"] for p in view["players"]}


@bp.post("/t/<tournament_id>/players")
def register(tournament_id):
    token = _require_director(tournament_id)
    try:
        added = services.register(tournament_id, token, request.form.get("name", ""))
        flash(_("%(name)s joins from the next round.", name=added["name"]), "ok")
    except BancoError as error:
        flash(translate(error), "error")
    return redirect(url_for("tournaments.desk", tournament_id=tournament_id))


@bp.post("/t/<tournament_id>/players/<player_id>/withdraw")
def withdraw(tournament_id, player_id):
    token = _require_director(tournament_id)
    try:
        gone = services.withdraw(tournament_id, token, player_id)
        flash(_("%(name)s has withdrawn: their points stay in the standings.", name=gone["name"]), "ok")
    except BancoError as error:
        flash(translate(error), "error")
    return redirect(url_for("tournaments.desk", tournament_id=tournament_id))


@bp.post("/t/<tournament_id>/rounds")
def draw(tournament_id):
    token = _require_director(tournament_id)
    expected = request.form.get("round", "")
    if expected and expected != str(len(services.tournament_view(tournament_id)["rounds"]) + 1):
        # The same button sent twice (a double tap on "Draw anyway"): that round is drawn already.
        return redirect(url_for("tournaments.desk", tournament_id=tournament_id))
    stage = request.form.get("stage", ROUND)
    try:
        drawn = services.draw_round(tournament_id, token, force=request.form.get("force") == "1", stage=stage)
    except BancoError as error:
        if error.code == "tables_still_playing" and stage == ROUND:
            return _desk(tournament_id, force_offer=translate(error), status=409)
        flash(translate(error), "error")
        return redirect(url_for("tournaments.desk", tournament_id=tournament_id))
    _forget_finished_tables(tournament_id)
    for table in drawn["tables"]:
        seats.remember(table["game"]["id"], seats.BANKER, table["game"]["banker_token"])
    if drawn["stage"] == ROUND:
        flash(_("Round %(n)s is drawn.", n=drawn["round"]), "ok")
    else:
        flash(_("%(stage)s drawn from the standings.", stage=stage_title(drawn["stage"], drawn["round"])), "ok")
    return redirect(url_for("tournaments.desk", tournament_id=tournament_id))


def _forget_finished_tables(tournament_id: str) -> None:
    """The cookie holds at most about 4 KB: the banker seats of tables already finished are
    let go at each draw (their results stay in the standings)."""
    view = services.tournament_view(tournament_id)
    for rnd in view["rounds"]:
        for table in rnd["tables"]:
            if table["status"] == "finished":
                seats.forget(table["game"], seats.BANKER)


@bp.post("/t/<tournament_id>/start")
def start_all(tournament_id):
    """Starts every table of the last round still setting up, together, so the clocks run
    from the same moment."""
    _require_director(tournament_id)
    view = services.tournament_view(tournament_id)
    if not view["rounds"]:
        return redirect(url_for("tournaments.desk", tournament_id=tournament_id))
    started = 0
    for table in view["rounds"][-1]["tables"]:
        if table["status"] != "setup":
            continue
        banker = seats.caller(table["game"], seats.BANKER)
        if banker is None:
            flash(_("Table %(n)s: this device is not its banker.", n=table["number"]), "error")
            continue
        start = {"type": "start", "key": f"tournament-start-{table['game']}"}
        reply = door.of(current_app).answer(table["game"], banker, start, page_lang())
        if reply.status >= 400:
            flash(_("Table %(n)s: %(why)s", n=table["number"], why=reply.body["error"]["message"]), "error")
        else:
            started += 1
    if started:
        flash(
            ngettext(
                "%(num)d table started: its clock is running.",
                "%(num)d tables started: their clocks are running.",
                started,
            ),
            "ok",
        )
    return redirect(url_for("tournaments.desk", tournament_id=tournament_id))


# --- the referee and the big screen ----------------------------------------------------------


def _in_play(rounds: list[dict]) -> list[dict]:
    """The last round, and any earlier round with a table still playing (a forced draw)."""
    return [
        rnd for i, rnd in enumerate(rounds) if i == 0 or any(table["status"] != "finished" for table in rnd["tables"])
    ]


@bp.get("/t/<tournament_id>/referee")
def referee(tournament_id):
    """Every table in play at a glance (clock, players, running, over or waiting on someone),
    for the director's device and the referees'; anyone else is refused (403)."""
    services.get_tournament(tournament_id)
    director = _director_token(tournament_id)
    token = director or _referee_token(tournament_id)
    if token is None:
        abort(403)
    with services.reading():
        seen = services.referee_view(tournament_id, token)
    for rnd in seen["rounds"]:
        rnd["title"] = stage_title(rnd["stage"], rnd["round"])
        for table in rnd["tables"]:
            table["banker"] = director is not None and seats.caller(table["game"], seats.BANKER) is not None
    return render_template(
        "tournament_referee.html",
        t=seen,
        rounds=list(reversed(seen["rounds"])),
        director=director is not None,
        refresh=REFRESH_SECONDS,
    )


@bp.post("/t/<tournament_id>/referee/code")
def referee_code(tournament_id):
    """A new referee's code, shown as a QR and an address for the referees' phones; the code
    shown before stops working."""
    token = _require_director(tournament_id)
    issued = services.issue_referee_token(tournament_id, token)
    view = services.tournament_view(tournament_id)
    url = current_app.config["PUBLIC_URL"] + url_for(
        "tournaments.referee_sign_in", tournament_id=tournament_id, secret=issued["referee_token"]
    )
    return render_template(
        "tournament_referee_code.html", t=view, url=url, qr=qr_svg(url, _("QR code of the referee's sign-in"))
    )


@bp.get("/t/<tournament_id>/referee/sign-in/<secret>")
def referee_sign_in(tournament_id, secret):
    """A referee's phone opens the code the desk showed: it keeps the referee's token and goes
    to the referee's view. A code replaced since is refused (403), saying to ask for the new one."""
    services.get_tournament(tournament_id)
    if not services.is_referee(tournament_id, secret):
        return render_template("tournament_referee_refused.html", tournament_id=tournament_id), 403
    refereeing = dict(session.get("refereeing", {}))
    refereeing[tournament_id] = secret
    session["refereeing"] = refereeing
    session.permanent = True
    return redirect(url_for("tournaments.referee", tournament_id=tournament_id))


def _finals(rounds: list[dict]) -> list[dict]:
    """The semi-final and final rounds, the final first."""
    return [rnd for rnd in rounds if rnd["stage"] != ROUND]


@bp.get("/t/<tournament_id>/standings")
def standings(tournament_id):
    with services.reading():
        view = services.tournament_view(tournament_id)
        rounds = _tables(view)
    return render_template(
        "tournament_standings.html",
        t=view,
        rounds=_in_play(rounds),
        finals=_finals(rounds),
        refresh=REFRESH_SECONDS,
        withdrawn=_withdrawn(view),
        champion=_champion(view),
    )


def _champion(view: dict) -> str | None:
    winner = view["finals"]["champion"]
    return next((p["name"] for p in view["players"] if p["id"] == winner), None) if winner else None


@bp.get("/t/<tournament_id>/standings.pdf")
def standings_sheet(tournament_id):
    """The standings to print (anyone, as the big screen): the champion and the finals' tables
    once played, then the general standings, in the page's language, on A4 or ``?paper=letter``."""
    paper = _paper(request.args.get("paper"))
    with services.reading():
        view = services.tournament_view(tournament_id)
        rounds = _tables(view)
    edition = services.editions().get(view["edition"])
    played = [rnd for rnd in rounds if rnd["stage"] == ROUND]
    if champion := _champion(view):
        status = _("Final standings")
    elif played and all(t["status"] == "finished" for t in played[0]["tables"]):
        status = _("Standings after round %(n)s", n=played[0]["round"])
    else:
        status = _("Standings so far")
    withdrawn = _withdrawn(view)
    sheet = {
        "title": view["name"],
        "status": status,
        "details": " · ".join(
            filter(None, [(text(edition.name) if edition else view["edition"]), format_date(format="long")])
        ),
        "champion": {"label": _("Champion"), "name": champion} if champion else None,
        "stages": [
            {
                "title": rnd["title"]
                if len(rnd["tables"]) == 1
                else _("%(stage)s, table %(n)s", stage=rnd["title"], n=table["number"]),
                "rows": [[str(r["place"] or ""), r["name"], str(r["points"])] for r in table["results"]],
            }
            for rnd in _finals(rounds)
            for table in rnd["tables"]
            if table["results"]
        ],
        "columns": ["#", _("Player"), _("Points"), _("Played"), _("Won")],
        "rows": [
            {
                "cells": [str(row["rank"]), row["name"], str(row["points"]), str(row["played"]), str(row["wins"])],
                "muted": withdrawn[row["player"]],
                "tag": _("withdrawn"),
            }
            for row in view["standings"]
        ],
        "notes": [
            _(
                "Equal points are ranked by tables won, then by the sum of the final counts: the rulebook "
                "gives no tiebreak."
            ),
            _("The semi-finals and the final rank their own tables: their points are not added to the standings."),
        ],
    }
    data = standings_pdf(sheet, paper, page_lang() if page_lang() in ("it", "en") else "en")
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="banco-standings-{tournament_id}.pdf"',
            "Cache-Control": "no-store",
        },
    )


# --- the printed seating plan ----------------------------------------------------------------


@bp.post("/t/<tournament_id>/seating.pdf")
def seating_pdf(tournament_id):
    """The last round's seating plan: each table's seats, and a slip per player whose QR gives
    their phone their seat (a rejoin code valid until used: the round's games hold a token
    for every seat, so the join code cannot seat phones). Printing replaces each player's
    earlier rejoin code, so a plan printed before stops working."""
    _require_director(tournament_id)
    view = services.tournament_view(tournament_id)
    if not view["rounds"]:
        abort(404)
    last = view["rounds"][-1]
    paper = request.form.get("paper", "")
    paper = paper if paper in ("a4", "letter") else "a4"
    sheet_lang = request.form.get("lang") if request.form.get("lang") in ("it", "en") else page_lang()
    sheet_lang = sheet_lang if sheet_lang in ("it", "en") else "en"
    seated = []
    for table in last["tables"]:
        game = services.get_game(table["game"])
        by_seat: list[Any] = sorted(game.players, key=lambda p: p.seat)  # the ORM's players or rows
        seated.append((table["number"], game.id, [(p.id, p.name) for p in by_seat]))
    tables = []
    for number, game_id, players in seated:  # read before issuing: each issue commits
        seats_out = []
        for player_id, name in players:
            secret = services.issue_rejoin(game_id, player_id, minutes=None)
            seats_out.append(
                {"name": name, "url": current_app.config["PUBLIC_URL"] + url_for("pages.rejoin", secret=secret)}
            )
        tables.append({"number": number, "seats": seats_out})
    data = seating_plan_pdf(view["name"], last["round"], tables, paper, sheet_lang, stage=last["stage"])
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="banco-seating-{tournament_id}-round-{last["round"]}-{paper}.pdf"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response
