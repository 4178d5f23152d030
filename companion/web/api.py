"""The JSON API of ../shared/API.md, version 1: a thin layer over the services. Each route is
declared beside it (``declared``): its words, the body it reads (through ``declared.body``,
strictly) and its answers, which the OpenAPI document prints (``openapi``)."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request, stream_with_context

from .. import services
from ..core.errors import N_, Forbidden, NotFound, Unauthorized
from ..services import door
from ..services.door import bearer
from . import hosting, openapi
from .declared import BEARER, Body, Operation, body, closed, declare, ref, refusals, reply
from .errors import places, translate
from .feed import describe
from .live import reader, stream_response
from .ratelimit import count_attempt, count_created, may_create
from .results import visible_score
from .schemas import CREATED, EDITION_IDS, MOST_PLAYERS

bp = Blueprint("api", __name__, url_prefix="/api")

_EDITION = {"type": "string", "enum": EDITION_IDS}
_GAME_FILE_PARTS = ("format", "format_version", "game", "edition", "seats", "state", "journal")


def _token() -> str | None:
    return bearer(request.headers.get("Authorization", ""))


def _caller(game_id: str) -> services.Caller:
    token = _token()
    if token is None:
        services.get_game(game_id)  # an unknown game is 404 before a missing token is 401
        raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
    return services.authenticate(game_id, token)


@bp.get("/openapi.json")
@declare(
    Operation(
        "This document: the whole API, printed from each endpoint's declaration",
        {"200": reply("The OpenAPI 3.1 document", {"type": "object", "required": ["openapi", "info", "paths"]})},
    )
)
def openapi_document():
    return jsonify(openapi.document())


@bp.get("/v1/editions")
@declare(
    Operation(
        "The editions this bank runs",
        {
            "200": reply(
                "OK",
                {"type": "object", "properties": {"editions": {"type": "array", "items": ref("EditionSummary")}}},
            )
        },
    )
)
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


@bp.get("/v1/editions/<edition>")
@declare(
    Operation(
        "One edition with its deeds",
        {
            "200": reply(
                "OK",
                {
                    "type": "object",
                    "properties": {
                        "deeds": {"type": "array", "items": ref("Deed")},
                        "starting_notes": {
                            "type": "object",
                            "description": "By the number of players: the notes each player starts with, "
                            "{face: count}.",
                            "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}},
                        },
                    },
                },
            ),
            **refusals(404),
        },
        path={"edition": _EDITION},
    )
)
def show_edition(edition):
    edition = services.editions().get(edition)
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


@bp.get("/v1/editions/<edition>/file")
@declare(
    Operation(
        "The edition's file, as POST /api/v1/editions takes it back",
        {
            "200": reply(
                "The edition file (editions.schema.json)",
                {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
            ),
            **refusals(404),
        },
        path={"edition": _EDITION},
    )
)
def edition_file(edition):
    """The edition's file, as ``POST /api/v1/editions`` takes it back."""
    data = services.edition_file(edition)
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, indent=2) + "\n", mimetype="application/json"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{data["id"]}.json"'
    return response


@bp.post("/v1/editions")
@declare(
    Operation(
        "Import an edition file",
        {
            "201": reply(
                "Imported",
                {
                    "type": "object",
                    "required": ["id", "replaced"],
                    "properties": {"id": {"type": "string"}, "replaced": {"type": "boolean"}},
                },
            ),
            **refusals(400, 401, 409, 429),
        },
        "The file is checked whole against editions.schema.json: any problem refuses it (400 "
        "invalid_edition, the error's `problems` naming each field) and nothing is stored. The id of a built-in edition is refused (409 edition_exists); an "
        "id imported before gets the new content (`replaced`), games already opened keep theirs. A "
        "new id past the server's BANCO_IMPORTED_EDITIONS_LIMIT is refused (409 too_many_editions). "
        "One address stores at most BANCO_CREATIONS_PER_ADDRESS editions in 10 minutes (429 "
        "too_many_created, with Retry-After). With BANCO_HOST_PASSWORD set, send it as the bearer token. A field "
        "the file does not know is one of its problems; a key given twice is refused (400 duplicate_key).",
        # The file's own schema (editions.schema.json) refuses a field it does not know, among its problems.
        body=Body(
            {
                "type": "object",
                "required": ["id"],
                "description": "An edition file.",
                "properties": {"id": {"type": "string"}},
            },
            {"id": "my-edition"},
            unknown_code="invalid_edition",
        ),
        security=({}, {"bearer": []}),
    )
)
def import_edition():
    """Imports an edition file: 201 ``{"id", "replaced"}``; a file with problems is refused
    whole (400 ``invalid_edition``, ``problems`` naming each field), a built-in id too (409)."""
    hosting.require_host(_token())
    may_create("edition")
    data = body()
    try:
        result = services.import_edition(data, most=current_app.config["IMPORTED_EDITIONS_LIMIT"])
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
@declare(
    Operation(
        "Open a game in setup",
        {"201": reply("Created", CREATED), **refusals(400, 429)},
        "One address opens at most BANCO_CREATIONS_PER_ADDRESS games in 10 minutes "
        "(429 too_many_created, with Retry-After).",
        body=Body(
            closed(
                {
                    "edition": {"enum": EDITION_IDS, "description": "An id from /api/v1/editions."},
                    "players": {
                        "type": "array",
                        "maxItems": MOST_PLAYERS,
                        "items": {"type": "string", "minLength": 1, "maxLength": 40},
                        "description": "Names, each once (without regard to case), without control "
                        "characters; as many as the edition seats.",
                    },
                    "time_limit_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 1440},
                    "seed": {"type": ["integer", "null"]},
                    "auction_seconds": {"type": ["integer", "null"], "minimum": 5, "maximum": 600},
                    "settings": ref("Settings"),
                },
                required=("edition",),
            ),
            {"edition": "classic-it", "players": ["Anna", "Bruno"]},
        ),
    )
)
def create_game():
    may_create("game")
    data = body()
    # Leaving time_limit_minutes out gives the edition's own clock; null gives none.
    minutes = data.get("time_limit_minutes", services.EDITION_CLOCK)
    result = services.create_game(
        data.get("edition"),
        data.get("players", []),
        minutes,
        data.get("seed"),
        auction_seconds=data.get("auction_seconds"),
        settings=data.get("settings"),
    )
    count_created("game")
    return jsonify(result), 201


@bp.post("/v1/games/import")
@declare(
    Operation(
        "Carry on a game from its file: a new game at the file's version",
        {"201": reply("Created, as POST /api/v1/games answers", CREATED), **refusals(400, 413, 429, 503)},
        "The body is a game file as `GET /api/v1/games/{game_id}/export` gives it (docs/gamefile.md). "
        "Every entry is checked on the way in (its digest, version, balance and the values it changes "
        "from, replayed through the rules) and the state it leads to must be the file's; the edition is "
        "taken from the file by its hash. A file that does not check out is refused (400 "
        "`invalid_game_file`, naming the first wrong entry) and nothing is stored. The new game has new ids, a new join code and new tokens. "
        "Bodies up to BANCO_MAX_GAME_FILE_BYTES, holding at most one object or array for every 24 of "
        "those bytes and one value for every 6 (400 `invalid_game_file`, checked before the file is read). "
        "A server process imports BANCO_IMPORTS_AT_ONCE files at once: another is refused (503 "
        "busy_importing, with Retry-After) and nothing is stored. One address imports at most "
        "BANCO_CREATIONS_PER_ADDRESS games in 10 minutes (429 too_many_created, with Retry-After). A part the file does not know, or a key given twice, "
        "is refused likewise (400 `invalid_game_file`, naming it).",
        # A game file has a reader of its own (services.gamefiles), which refuses with its own code.
        body=Body(
            {
                "type": "object",
                "required": list(_GAME_FILE_PARTS),
                "properties": {
                    "format": {"const": "banco-game"},
                    "format_version": {"const": 1},
                    "exported_at": {"type": "string"},
                    "game": {"type": "object"},
                    "edition": {"type": "object"},
                    "seats": {"type": "array", "items": {"type": "object"}},
                    "state": {"type": "object"},
                    "journal": {"type": "array", "items": {"type": "object"}},
                },
                "additionalProperties": False,
            },
            {
                "format": "banco-game",
                "format_version": 1,
                "exported_at": "2026-12-07T20:30:00Z",
                "game": {},
                "edition": {},
                "seats": [],
                "state": {},
                "journal": [],
            },
            unknown_code="invalid_game_file",
            twice_code="invalid_game_file",
        ),
    )
)
def import_game():
    """A new game from a game file (the body): 201 as ``POST /v1/games`` answers; a file that
    does not check out is refused (400 ``invalid_game_file``, naming the first wrong entry), one
    past what this process imports at once told to come back (503 ``busy_importing``)."""
    may_create("game")  # a new game, as POST /v1/games makes one: the same share
    made = services.carry_on(places(), request.get_data(cache=True), current_app.config["MAX_GAME_FILE_BYTES"])
    count_created("game")
    return jsonify(made), 201


@bp.get("/v1/games/<game_id>/export")
@declare(
    Operation(
        "The game as a file (banker only)",
        {
            "200": reply("The game file", {"type": "object", "required": list(_GAME_FILE_PARTS)}),
            **refusals(401, 403, 404),
        },
        '`{"format": "banco-game", "format_version": 1, ...}`: the whole journal (each entry chained '
        "to the one before by a SHA-256 digest), the edition the game is pinned to (its content and "
        "hash), the seats (ids and names), the game's seed, clock and state. No token, join code or "
        "other secret. Sent as an attachment.",
        security=BEARER,
    )
)
def export_game(game_id):
    """The game as a file (banker): ``{"format": "banco-game", "format_version": 1, ...}``."""
    if not _caller(game_id).is_banker:
        raise Forbidden("banker_only", N_("Only the banker can do this."))
    return game_file_response(game_id)


def game_file_response(game_id: str):
    """The game file of ``game_id`` as a download, sent as it is written: however long the
    journal, the server holds a batch of it at a time (``services.export_game``)."""
    file = services.export_game(game_id)
    response = current_app.response_class(stream_with_context(file.pieces), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{file.name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/v1/games/<game_id>/join")
@declare(
    Operation(
        "Join a game in setup with its code",
        {
            "201": reply(
                "Joined",
                {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "token": {"type": "string"}},
                },
            ),
            **refusals(400, 403, 404, 409, 429),
        },
        body=Body(
            closed({"join_code": {"type": "string"}, "name": {"type": "string"}}, required=("join_code", "name")),
            {"join_code": "ABC123", "name": "Carla"},
        ),
    )
)
def join_game(game_id):
    count_attempt()
    data = body()
    return jsonify(services.join(game_id, data.get("join_code"), data.get("name"))), 201


@bp.get("/v1/games/<game_id>")
@declare(
    Operation(
        "The game's state as this token may see it",
        {"200": reply("OK", ref("Game")), **refusals(401, 404)},
        security=BEARER,
    )
)
def game_state(game_id):
    with services.reading():  # one snapshot: the cash shown is the cash at the version shown
        caller = _caller(game_id)
        return jsonify(services.game_state(services.get_game(game_id), caller))


@bp.post("/v1/games/<game_id>/actions")
@declare(
    Operation(
        "Do one action",
        {
            "200": reply(
                "Done",
                {"type": "object", "properties": {"version": {"type": "integer"}, "result": {"type": "object"}}},
            ),
            "202": reply(
                "Money asked from a strict bank: held for the banker, nothing moved yet; `result.pending` is "
                "the id to approve or decline.",
                {
                    "type": "object",
                    "properties": {
                        "version": {"type": "integer"},
                        "result": {
                            "type": "object",
                            "properties": {"pending": {"type": "string"}, "held": {"const": True}},
                        },
                    },
                },
            ),
            **refusals(400, 401, 403, 404, 409),
        },
        # The door (services.door) reads it, by the actions' own declarations (core.actions).
        body=Body(ref("Action"), {"type": "end_turn"}),
        security=BEARER,
    )
)
def act(game_id):
    """The door's answer (``services.door``), as the server's loop gives it without this route."""
    reply = door.of(current_app).answer(game_id, _token(), request.get_data(cache=True), _lang())
    response = jsonify(reply.body)
    response.status_code = reply.status
    response.headers.extend(reply.headers)
    return response


@bp.get("/v1/games/<game_id>/events")
@declare(
    Operation(
        "The journal after a version, a page at a time",
        {
            "200": reply(
                "OK",
                {
                    "type": "object",
                    "required": ["events", "more"],
                    "properties": {"events": {"type": "array", "items": ref("Event")}, "more": {"type": "boolean"}},
                },
            ),
            **refusals(400, 401, 404),
        },
        "At most the server's page size of entries (BANCO_EVENTS_PAGE, at least 100); `more` is true "
        "when more follow: ask again with `since` set to the last version received.",
        query=({"name": "since", "in": "query", "schema": {"type": "integer", "minimum": 0}},),
        security=BEARER,
    )
)
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
@declare(
    Operation(
        "Server-Sent Events: one `version` event per change",
        {
            "200": {
                "description": "An event stream",
                "content": {
                    "text/event-stream": {
                        "schema": {
                            "type": "object",
                            "description": "One event of the stream.",
                            "properties": {
                                "event": {"enum": ["version", "storage"]},
                                "id": {"type": "string"},
                                "data": {
                                    "type": "string",
                                    "contentMediaType": "application/json",
                                    "description": 'version: {"version": n, "parts": ["cash", "cash:<account>", '
                                    '"feed", ...] or null}; storage: {"cannot_save": true | false}, when the '
                                    "server's database cannot save (a full disk), and once it saves again",
                                },
                                "retry": {"type": "integer"},
                            },
                        }
                    }
                },
            },
            **refusals(401, 404),
        },
        "Each event's id and data carry the new version, and the data the parts of the game that "
        "changed since the stream's last event (`null` when the server cannot tell: read the whole "
        "state); `cash:<account>` names each account (a player's id, `bank`, a pot) whose cash moved. "
        "Fetch the state or the events to see what changed. Resume with `Last-Event-ID` or `?since=`.",
        query=({"name": "since", "in": "query", "schema": {"type": "integer"}},),
        security=BEARER,
    )
)
def stream(game_id):
    caller = _caller(game_id)
    told = reader(services.get_game(game_id), caller.player_id, caller.is_banker)
    # A reconnecting client's Last-Event-ID is newer than the ?since= it first opened with.
    return stream_response(game_id, request.headers.get("Last-Event-ID") or request.args.get("since"), told)


def _lang() -> str:
    from .templating import lang

    return lang()


_FINALS = closed(
    {
        "semi_finalists": {
            "type": "integer",
            "minimum": 0,
            "maximum": 64,
            "description": "The best of the standings who play the semi-finals (0: none, the final is drawn "
            "from the standings).",
        },
        "semi_final_tables": {"type": "integer", "minimum": 0, "maximum": 64},
        "final_players": {"type": "integer", "minimum": 2, "maximum": 8},
        "finalists_by": {
            "enum": ["places", "points"],
            "description": "places: every semi-final table's winner, then every second, and so on; points: "
            "the most tournament points at the semi-finals.",
        },
    },
    description="The semi-finals and the final: the rulebook does not say how many go on or how, so the "
    "tournament sets it. Defaults: two semi-final tables of the table size, a final of the table size, "
    "filled by places.",
)


@bp.post("/v1/tournaments")
@declare(
    Operation(
        "Open a tournament: an edition with tournament points, its players, the table size and each round's minutes",
        {
            "201": reply("Created: the id, the director's token, the players' ids", ref("TournamentCreated")),
            **refusals(400, 429),
        },
        "One address opens at most BANCO_CREATIONS_PER_ADDRESS tournaments in 10 minutes (429 "
        "too_many_created, with Retry-After); the rounds' games are not counted.",
        body=Body(
            closed(
                {
                    "name": {"type": "string", "maxLength": 80},
                    "edition": _EDITION,
                    "players": {"type": "array", "items": {"type": "string", "maxLength": 40}},
                    "table_size": {"type": "integer", "minimum": 2, "maximum": 8, "default": 4},
                    "round_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 1440},
                    "seed": {"type": ["integer", "null"]},
                    "last_minutes": {
                        "type": ["integer", "null"],
                        "minimum": 0,
                        "maximum": 60,
                        "description": "When every table warns that the round is ending (default 10; none "
                        "for rounds of 20 minutes or less); shorter than a round.",
                    },
                    "preliminary_rounds": {
                        "type": ["integer", "null"],
                        "minimum": 1,
                        "maximum": 20,
                        "description": "How many preliminary rounds come before the semi-finals (default "
                        "2): the desk puts the next step by it; another round may still be drawn.",
                    },
                    "finals": _FINALS,
                },
                required=("name", "edition", "players"),
            ),
            {"name": "Club", "edition": "campionato-2015", "players": ["Anna", "Bruno", "Carla", "Dario"]},
        ),
    )
)
def create_tournament():
    may_create("tournament")
    data = body()
    minutes = data.get("round_minutes", services.EDITION_CLOCK)
    result = services.create_tournament(
        data.get("name"),
        data.get("edition"),
        data.get("players", []),
        data.get("table_size", 4),
        minutes,
        data.get("seed"),
        data.get("finals"),
        data.get("last_minutes"),
        data.get("preliminary_rounds"),
    )
    count_created("tournament")
    return jsonify(result), 201


@bp.get("/v1/tournaments/<tournament_id>")
@declare(
    Operation(
        "The rounds, each table's game and status, and the general standings",
        {"200": reply("OK", ref("Tournament")), **refusals(404)},
        "Points are the sum of each finished preliminary game's tournament points; equal points are "
        "ranked by tables won, then by the sum of the final counts (the rulebook gives no tiebreak). "
        "Each round has its `stage` (`round`, `semi_final`, `final`) and each finished table its "
        "`results` (place and points); the semi-finals and the final rank their own tables and are not "
        "added to the standings. `finals` holds the tournament's settings for them and the `champion` "
        "once the final is over.",
    )
)
def show_tournament(tournament_id):
    with services.reading():
        return jsonify(services.tournament_view(tournament_id))


@bp.post("/v1/tournaments/<tournament_id>/rounds")
@declare(
    Operation(
        "Draw the next round (director): one game per table, created and ready to start",
        {"201": reply("The round and its tables", ref("DrawnRound")), **refusals(400, 401, 403, 404, 409)},
        "A preliminary `round` (the default) is refused (409) while tables of the previous round still "
        'play, naming them, unless the body says {"force": true}. `semi_final` seeds the best of the '
        "standings to the semi-final tables (two tables: 1-4-5-8 and 2-3-6-7); `final` fills the final "
        "from the semi-finals (or the standings where there are none); both are refused while any table "
        "still plays, and out of turn. Preliminary games have `no_trades_two_left` on, the semi-finals "
        "and the final off (FAQ 31).",
        body=Body(
            closed(
                {"force": {"type": "boolean"}, "stage": {"enum": ["round", "semi_final", "final"], "default": "round"}}
            ),
            {"stage": "round"},
            required=False,
        ),
        security=BEARER,
    )
)
def draw_round(tournament_id):
    data = body()
    return jsonify(
        services.draw_round(tournament_id, _token(), force=data.get("force") is True, stage=data.get("stage", "round"))
    ), 201


@bp.post("/v1/tournaments/<tournament_id>/referee")
@declare(
    Operation(
        "A new referee's token (director); the one before stops working",
        {
            "201": reply(
                '`{"referee_token"}`', {"type": "object", "properties": {"referee_token": {"type": "string"}}}
            ),
            **refusals(400, 401, 403, 404),
        },
        # It takes no fields; a body that names one is refused, as everywhere.
        body=Body(closed({}), {}, required=False),
        security=BEARER,
    )
)
def referee_token(tournament_id):
    body()
    return jsonify(services.issue_referee_token(tournament_id, _token())), 201


@bp.get("/v1/tournaments/<tournament_id>/tables")
@declare(
    Operation(
        "Every table in play (director or referee): clock, players, status, what it waits on",
        {"200": reply("The rounds in play and their tables", ref("TournamentTables")), **refusals(401, 403, 404)},
        "`waiting_on` lists `{kind, who, name, deed}`: kind `auction` (its bidders, who null), "
        "`auction_over` and `auction_queue` (the banker), `expropriation`, `trade` and `request` (the "
        'player who must answer, or "banker").',
        security=BEARER,
    )
)
def referee_tables(tournament_id):
    with services.reading():
        return jsonify(services.referee_view(tournament_id, _token()))


@bp.post("/v1/tournaments/<tournament_id>/players")
@declare(
    Operation(
        "Register a late arrival (director), drawn from the next round on",
        {"201": reply("The player", ref("TournamentPlayer")), **refusals(400, 401, 403, 404)},
        body=Body(closed({"name": {"type": "string", "maxLength": 40}}, required=("name",)), {"name": "Elena"}),
        security=BEARER,
    )
)
def register_player(tournament_id):
    return jsonify(services.register(tournament_id, _token(), body().get("name"))), 201


@bp.post("/v1/tournaments/<tournament_id>/players/<player_id>/withdraw")
@declare(
    Operation(
        "A player withdraws (director): no later table; their points stay",
        {"200": reply("The player", ref("TournamentPlayer")), **refusals(400, 401, 403, 404, 409)},
        body=Body(closed({}), {}, required=False),
        security=BEARER,
    )
)
def withdraw_player(tournament_id, player_id):
    body()
    return jsonify(services.withdraw(tournament_id, _token(), player_id))


@bp.get("/v1/games/<game_id>/score")
@declare(
    Operation(
        "The standings by the edition's own final count",
        {"200": reply("OK", ref("Score")), **refusals(401, 404)},
        "Live during play, `final` after the end. In an edition that keeps cash private, during play a "
        "player sees only their own count (`hidden`); the banker sees all.",
        security=BEARER,
    )
)
def score(game_id):
    """The standings by the edition's own final count: live during play, ``final`` after the
    end. In an edition that keeps cash private, during play each player sees only their own
    count (the banker sees all)."""
    with services.reading():  # one snapshot: the cash and the deeds counted are of one instant
        caller = _caller(game_id)
        return jsonify(visible_score(services.get_game(game_id), caller))
