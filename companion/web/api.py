"""The JSON API of ../shared/API.md, version 1: a thin layer over the services."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request

from .. import services
from ..core.errors import N_, Forbidden, NotFound, Unauthorized
from ..live.routes import reader, stream_response
from ..services import door
from ..services.bodies import parse_json
from ..services.door import bearer
from . import hosting, openapi
from .errors import translate
from .feed import describe
from .ratelimit import count_attempt, count_created, may_create
from .results import visible_score

bp = Blueprint("api", __name__, url_prefix="/api")


def _body() -> dict:
    """The request's JSON object (``services.bodies.parse_json``); a body over the app's size
    limit is refused (413) before it is read."""
    return parse_json(request.get_data(cache=True))


def _token() -> str | None:
    return bearer(request.headers.get("Authorization", ""))


def _caller(game_id: str) -> services.Caller:
    token = _token()
    if token is None:
        services.get_game(game_id)  # an unknown game is 404 before a missing token is 401
        raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
    return services.authenticate(game_id, token)


@bp.get("/openapi.json")
def openapi_document():
    return jsonify(openapi.document())


@bp.get("/v1/editions")
def list_editions():
    return jsonify(
        {
            "editions": [
                {
                    "id": e.id,
                    "name": e.name(_lang()),
                    "currency": e.currency_symbol,
                    "min_players": e.min_players,
                    "max_players": e.max_players,
                }
                for e in services.editions().values()
            ]
        }
    )


@bp.get("/v1/editions/<edition_id>")
def show_edition(edition_id):
    edition = services.editions().get(edition_id)
    if edition is None:
        raise NotFound("unknown_edition", N_("There is no such edition."))
    return jsonify(
        {
            "id": edition.id,
            "name": edition.name(_lang()),
            "currency": edition.currency_symbol,
            "min_players": edition.min_players,
            "max_players": edition.max_players,
            "house_sizes": list(edition.house_sizes),
            "starting_cash": {str(k): v for k, v in edition.start.cash.items()},
            "starting_notes": {
                str(n): {str(face): count for face, count in edition.starting_notes_for(n).items()}
                for n in range(edition.min_players, edition.max_players + 1)
            },
            "cash_private": edition.cash_private,
            "salary": {"amount": edition.salary.amount, "dice_multiplier": edition.salary.dice_multiplier},
            "fixed_payments": [
                {"key": p.key, "name": p.name(_lang()), "amount": p.amount} for p in edition.fixed_payments
            ],
            "groups": [
                {"key": g.key, "name": g.name(_lang()), "color": g.color, "kind": g.kind} for g in edition.groups
            ],
            "deeds": [
                {
                    "key": d.key,
                    "name": d.name,
                    "group": d.group,
                    "price": d.price,
                    "mortgage": d.mortgage,
                    "rents": list(d.rents),
                    "building_cost": d.building_cost,
                    "provisional": d.provisional,
                }
                for d in edition.deeds
            ],
            "max_amount": edition.max_amount,
        }
    )


@bp.get("/v1/editions/<edition_id>/file")
def edition_file(edition_id):
    """The edition's file, as ``POST /api/v1/editions`` takes it back."""
    data = services.edition_file(edition_id)
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, indent=2) + "\n", mimetype="application/json"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{data["id"]}.json"'
    return response


@bp.post("/v1/editions")
def import_edition():
    """Imports an edition file: 201 ``{"id", "replaced"}``; a file with problems is refused
    whole (400 ``invalid_edition``, ``problems`` naming each field), a built-in id too (409)."""
    hosting.require_host(_token())
    may_create("edition")
    body = _body()
    try:
        result = services.import_edition(body, most=current_app.config["IMPORTED_EDITIONS_LIMIT"])
    except services.EditionRefused as refused:
        services.rollback()
        response = jsonify(
            {"error": {"code": refused.code, "message": translate(refused), "problems": refused.problems}}
        )
        response.status_code = 400
        return response
    count_created("edition")
    return jsonify(result), 201


@bp.post("/v1/games")
def create_game():
    may_create("game")
    body = _body()
    # Leaving time_limit_minutes out gives the edition's own clock; null gives none.
    minutes = body.get("time_limit_minutes", services.EDITION_CLOCK)
    result = services.create_game(
        body.get("edition"),
        body.get("players", []),
        minutes,
        body.get("seed"),
        auction_seconds=body.get("auction_seconds"),
        settings=body.get("settings"),
    )
    count_created("game")
    return jsonify(result), 201


@bp.post("/v1/games/import")
def import_game():
    """A new game from a game file (the body): 201 as ``POST /v1/games`` answers; a file that
    does not check out is refused (400 ``invalid_game_file``, naming the first wrong entry)."""
    may_create("game")  # a new game, as POST /v1/games makes one: the same share
    data = services.read_game_file(request.get_data(cache=True))
    made = services.import_game(data)
    count_created("game")
    return jsonify(made), 201


@bp.get("/v1/games/<game_id>/export")
def export_game(game_id):
    """The game as a file (banker): ``{"format": "banco-game", "format_version": 1, ...}``."""
    if not _caller(game_id).is_banker:
        raise Forbidden("banker_only", N_("Only the banker can do this."))
    return game_file_response(services.export_game(game_id))


def game_file_response(data: dict):
    """The game file as a download."""
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", mimetype="application/json"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{services.game_file_name(data)}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/v1/games/<game_id>/join")
def join_game(game_id):
    count_attempt()
    body = _body()
    return jsonify(services.join(game_id, body.get("join_code"), body.get("name"))), 201


@bp.get("/v1/games/<game_id>")
def game_state(game_id):
    with services.reading():  # one snapshot: the cash shown is the cash at the version shown
        caller = _caller(game_id)
        return jsonify(services.game_state(services.get_game(game_id), caller))


@bp.post("/v1/games/<game_id>/actions")
def act(game_id):
    """The door's answer (``services.door``), as the server's loop gives it without this route."""
    reply = door.of(current_app).answer(game_id, _token(), request.get_data(cache=True), _lang())
    response = jsonify(reply.body)
    response.status_code = reply.status
    response.headers.extend(reply.headers)
    return response


@bp.get("/v1/games/<game_id>/events")
def events(game_id):
    with services.reading():  # one snapshot: the journal and the names of one instant
        return _events(game_id)


def _events(game_id):
    _caller(game_id)
    game = services.get_game(game_id)
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    entries, more = services.journal_page(game, request.args.get("since", "0"), current_app.config["EVENTS_PAGE"])
    return jsonify(
        {
            "events": [
                {
                    "version": e.version,
                    "type": e.kind,
                    "actor": e.actor,
                    "summary": describe(e, names, edition),
                    "params": e.params,
                    "reverses": e.params.get("undone_version"),
                    "reversed": e.reversed_by is not None,
                    "at": e.at.isoformat() + "Z",
                }
                for e in entries
            ],
            "more": more,
        }
    )


@bp.get("/v1/games/<game_id>/stream")
def stream(game_id):
    caller = _caller(game_id)
    told = reader(services.get_game(game_id), caller.player_id, caller.is_banker)
    # A reconnecting client's Last-Event-ID is newer than the ?since= it first opened with.
    return stream_response(game_id, request.headers.get("Last-Event-ID") or request.args.get("since"), told)


def _lang() -> str:
    from .templating import lang

    return lang()


@bp.post("/v1/tournaments")
def create_tournament():
    may_create("tournament")
    body = _body()
    minutes = body.get("round_minutes", services.EDITION_CLOCK)
    result = services.create_tournament(
        body.get("name"),
        body.get("edition"),
        body.get("players", []),
        body.get("table_size", 4),
        minutes,
        body.get("seed"),
        body.get("finals"),
        body.get("last_minutes"),
        body.get("preliminary_rounds"),
    )
    count_created("tournament")
    return jsonify(result), 201


@bp.get("/v1/tournaments/<tournament_id>")
def show_tournament(tournament_id):
    with services.reading():
        return jsonify(services.tournament_view(tournament_id))


@bp.post("/v1/tournaments/<tournament_id>/rounds")
def draw_round(tournament_id):
    body = _body() if request.get_data(cache=True) else {}
    return jsonify(
        services.draw_round(tournament_id, _token(), force=body.get("force") is True, stage=body.get("stage", "round"))
    ), 201


@bp.post("/v1/tournaments/<tournament_id>/referee")
def referee_token(tournament_id):
    return jsonify(services.issue_referee_token(tournament_id, _token())), 201


@bp.get("/v1/tournaments/<tournament_id>/tables")
def referee_tables(tournament_id):
    with services.reading():
        return jsonify(services.referee_view(tournament_id, _token()))


@bp.post("/v1/tournaments/<tournament_id>/players")
def register_player(tournament_id):
    return jsonify(services.register(tournament_id, _token(), _body().get("name"))), 201


@bp.post("/v1/tournaments/<tournament_id>/players/<player_id>/withdraw")
def withdraw_player(tournament_id, player_id):
    return jsonify(services.withdraw(tournament_id, _token(), player_id))


@bp.get("/v1/games/<game_id>/score")
def score(game_id):
    """The standings by the edition's own final count: live during play, ``final`` after the
    end. In an edition that keeps cash private, during play each player sees only their own
    count (the banker sees all)."""
    with services.reading():  # one snapshot: the cash and the deeds counted are of one instant
        caller = _caller(game_id)
        return jsonify(visible_score(services.get_game(game_id), caller))
