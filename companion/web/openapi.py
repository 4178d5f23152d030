"""The API described as OpenAPI 3.1, served at ``/api/openapi.json``."""

from __future__ import annotations

from ..core.actions import ACTIONS, Field
from ..core.take_back import TAKE_BACK_SECONDS
from ..services import DICE_KINDS, editions

ACTION_TYPES = sorted(ACTIONS)


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict:
    return {str(code): {"description": "Refused; nothing changed.", **_json(_ref("Error"))} for code in codes}


def _field_schema(field: Field) -> dict:
    schema = dict(field.kind.schema)
    if field.choices:
        schema = {"enum": list(field.choices)}
    return schema


def action_schema() -> dict:
    """The actions' payload, from their declarations (``core.actions``): each field with its
    kind (every kind it has in some action) and what it means in each action that takes it.
    A field an action does not declare is refused (400), so none is left open."""
    uses: dict[str, list[tuple[str, Field]]] = {}
    for name, action in sorted(ACTIONS.items()):
        for field in action.fields:
            uses.setdefault(field.name, []).append((name, field))
    properties: dict[str, dict] = {
        "type": {
            "enum": ACTION_TYPES,
            "description": " ".join(f"`{name}`: {action.about}" for name, action in sorted(ACTIONS.items()))
            + f" A player takes back within {TAKE_BACK_SECONDS} seconds; the banker undoes anything else.",
        },
        "key": {
            "type": "string",
            "maxLength": 100,
            "description": "Idempotency key: the same key from the same token returns the "
            "first answer and changes nothing.",
        },
    }
    for field_name, used in uses.items():
        said: dict[str, list[str]] = {}  # what the field means, and the actions where it means that
        schemas: list[dict] = []
        for action_name, field in used:
            said.setdefault(field.about, []).append(action_name)
            schema = _field_schema(field)
            if schema not in schemas:
                schemas.append(schema)
        description = " ".join(f"{', '.join(names)}: {about}" for about, names in said.items())
        properties[field_name] = (
            {**schemas[0], "description": description}
            if len(schemas) == 1
            else {"anyOf": schemas, "description": description}
        )
    return {"type": "object", "required": ["type"], "additionalProperties": False, "properties": properties}


_CANNOT_SAVE = {
    "description": "The server's database cannot save now (a full disk, a read-only file): "
    "storage_unavailable, nothing changed; try again later.",
    **_json(_ref("Error")),
}


def document() -> dict:
    """The OpenAPI document; every write may also answer 503 ``storage_unavailable``."""
    described = _document()
    for operations in described["paths"].values():
        for method, operation in operations.items():
            if method in ("post", "put", "patch", "delete"):
                operation["responses"].setdefault("503", _CANNOT_SAVE)
    return described


def _document() -> dict:
    bearer: list[dict[str, list[str]]] = [{"bearer": []}]
    offered = editions()
    edition_ids = sorted(offered)
    most_players = max((e.max_players for e in offered.values()), default=8)
    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    # A new game's secrets: POST /api/v1/games and POST /api/v1/games/import answer alike.
    created = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "join_code": {"type": "string"},
            "banker_token": {"type": "string"},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "token": {"type": "string"}},
                },
            },
        },
    }
    tournament_id = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Banco API",
            "version": "1",
            "description": "The bank of a board game played on a real table. Money is whole units "
            "(integers). Every state change takes an optional idempotency `key`.",
        },
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {
                            "type": "object",
                            "required": ["code", "message"],
                            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                        }
                    },
                },
                "EditionSummary": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "currency": {"type": "string"},
                        "min_players": {"type": "integer"},
                        "max_players": {"type": "integer"},
                    },
                },
                "Deed": {
                    "type": "object",
                    "properties": {
                        "key": {"type": "string"},
                        "name": {"type": "string"},
                        "group": {"type": "string"},
                        "price": {"type": "integer"},
                        "mortgage": {"type": "integer"},
                        "rents": {"type": "array", "items": {"type": "integer"}},
                        "building_cost": {"type": ["integer", "null"]},
                        "provisional": {"type": "boolean"},
                    },
                },
                "Player": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "seat": {"type": "integer"},
                        "claimed": {"type": "boolean"},
                        "cash": {
                            "type": ["integer", "null"],
                            "description": "null when the edition keeps cash private from this caller",
                        },
                        "in_jail": {"type": "boolean"},
                        "bankrupt": {"type": "boolean"},
                        "jail_cards": {"type": "integer"},
                        "laps": {
                            "type": "integer",
                            "description": "Times round the board (each pass_go): a "
                            "mortgage with a lap deadline counts them.",
                        },
                        "skip_turns": {
                            "type": "integer",
                            "description": "Turns the player still sits out (a "
                            "square such as Sosta bisognino); "
                            "end_turn passes over them.",
                        },
                        "no_trades": {
                            "type": "boolean",
                            "description": "The player may not trade until the turns they sit out have passed.",
                        },
                        "jail_turns": {
                            "type": "integer",
                            "description": "The player's turns begun in jail, where the edition's jail counts them.",
                        },
                    },
                },
                "Game": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "edition": {"type": "string"},
                        "status": {"enum": ["setup", "running", "finished"]},
                        "version": {"type": "integer"},
                        "join_code": {"type": ["string", "null"]},
                        "banker_player": {"type": ["string", "null"]},
                        "cash_private": {"type": "boolean"},
                        "settings": _ref("Settings"),
                        "pots": {
                            "type": "object",
                            "additionalProperties": {"type": "integer"},
                            "description": "Accounts other than the bank and the players, e.g. "
                            '{"free_parking": 300}; empty when the game has none.',
                        },
                        "pending": {
                            "type": "array",
                            "items": _ref("Pending"),
                            "description": "Money waiting for a yes, oldest first.",
                        },
                        "players": {"type": "array", "items": _ref("Player")},
                        "deeds": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "key": {"type": "string"},
                                    "owner": {"type": ["string", "null"]},
                                    "mortgaged": {"type": "boolean"},
                                    "houses": {"type": "integer"},
                                    "hotel": {"type": "boolean"},
                                },
                            },
                        },
                        "bank": {
                            "type": "object",
                            "properties": {
                                "houses": {"type": ["integer", "null"]},
                                "hotels": {"type": ["integer", "null"]},
                            },
                        },
                        "auction": {
                            "type": ["object", "null"],
                            "properties": {
                                "id": {"type": "string"},
                                "lot": {"enum": ["deed", "small", "big"]},
                                "deed": {"type": ["string", "null"]},
                                "high_bid": {"type": ["integer", "null"]},
                                "high_bidder": {"type": ["string", "null"]},
                                "opening_bid": {"type": "integer"},
                                "min_raise": {"type": "integer"},
                                "ends_at": {"type": "string"},
                                "excluded": {"type": "array", "items": {"type": "string"}},
                                "decliner": {
                                    "type": ["string", "null"],
                                    "description": "The player who declined to buy the deed and opened its "
                                    "auction; where the edition says so (Petropolis) they do "
                                    "not bid.",
                                },
                            },
                        },
                        "auction_seconds": {"type": "integer"},
                        "trades": {"type": "array", "items": {"type": "object"}},
                        "rent_requests": {"type": "array", "items": {"type": "object"}},
                        "clock": {
                            "type": ["object", "null"],
                            "properties": {
                                "limit_seconds": {"type": "integer"},
                                "remaining_seconds": {"type": "integer"},
                                "running": {"type": "boolean"},
                                "last_minutes": {
                                    "type": "integer",
                                    "description": "The game's `last_minutes` setting.",
                                },
                                "closing": {"type": "boolean", "description": "The game is in its last minutes now."},
                            },
                        },
                        "dice_kinds": {
                            "type": "array",
                            "items": {"enum": list(DICE_KINDS)},
                            "description": "The dice `roll` takes in this game's edition.",
                        },
                        "last_roll": {
                            "oneOf": [{"type": "null"}, _ref("Roll")],
                            "description": "The last dice the server rolled in this game.",
                        },
                        "turn": {
                            "type": ["object", "null"],
                            "description": "Where the edition counts turns: "
                            "whose turn it is, the round number and the rounds the game lasts (null: no "
                            "limit); null where it does not.",
                            "properties": {
                                "player": {"type": ["string", "null"]},
                                "number": {"type": "integer"},
                                "limit": {"type": ["integer", "null"]},
                                "marked": {
                                    "type": "boolean",
                                    "description": "The table marks its turns: a turn has been ended once.",
                                },
                            },
                        },
                        "time_up": {
                            "type": ["object", "null"],
                            "description": "Null until the game's time is up; then `ends_with_turn`: ending the "
                            "turn in play ends the game (the championship, turns marked), its `player`; false: the "
                            "banker ends the game.",
                            "properties": {
                                "ends_with_turn": {"type": "boolean"},
                                "player": {"type": ["string", "null"]},
                            },
                        },
                        "expropriation": {
                            "type": ["object", "null"],
                            "description": "An expropriation under way "
                            "(Che Impresa!): buyer, owner, deeds, whole_lot, value, penalty, stage "
                            '("buyer", "owner" or "settle"), rolls, owed.',
                        },
                        "checkable": {
                            "type": "array",
                            "description": "Niente è come sembra: payments and "
                            "Imprevisti cards open to a check now (action check), oldest first; never their "
                            "notes.",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string"},
                                    "from": {"type": "string"},
                                    "to": {"type": "string"},
                                    "players": {"type": "array", "items": {"type": "string"}},
                                    "amount": {"type": "integer"},
                                    "what": {"type": "string"},
                                    "card": {"type": "boolean"},
                                    "at": {"type": "string"},
                                    "check_until": {"type": "string"},
                                    "seconds_left": {"type": "integer"},
                                },
                            },
                        },
                        "counterfeits": {
                            "type": ["object", "null"],
                            "description": "Niente è come sembra (null "
                            "elsewhere): the reader's notes counted by face (never which are fake), "
                            "check_seconds, receiver_checks, the Imprevisti face up, in the pile and in "
                            "each hand (counts), and the reader's own cards (my_cards).",
                        },
                        "play_offs": {
                            "type": "array",
                            "items": {"type": "array", "items": {"type": "string"}},
                            "description": "The play-offs of a tie for first place (Petropolis), each "
                            "the ids of its players; the last may be under way.",
                        },
                    },
                },
                "Roll": {
                    "type": "object",
                    "required": ["player", "dice", "faces", "total", "doubles"],
                    "properties": {
                        "player": {"type": "string"},
                        "dice": {"enum": list(DICE_KINDS)},
                        "faces": {
                            "type": "array",
                            "items": {"type": ["integer", "string"]},
                            "description": "2d6: two numbers 1-6; speed: the same, then the Speedy die "
                            '(1, 2, 3, "bus" or "mr_monopoly"); expropriation: the '
                            "buyer's (yellow) face, then the owner's (red).",
                        },
                        "total": {
                            "type": ["integer", "null"],
                            "description": "The numbered dice's sum, plus the Speedy die's 1-3 (Bus and "
                            "Mr. Monopoly add 0); null for the expropriation dice.",
                        },
                        "doubles": {"type": "boolean", "description": "The two numbered dice match."},
                    },
                },
                "Action": action_schema(),
                "Settings": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "strict_bank": {
                            "type": "boolean",
                            "default": False,
                            "description": "Money a player asks from the bank (collect, pass_go, a "
                            'transfer from "bank") waits for the banker\'s approve.',
                        },
                        "free_parking_pot": {
                            "type": "boolean",
                            "default": False,
                            "description": "Taxes and fines (pay_fixed) and transfers to "
                            '"free_parking" go into a pot; pot_collect takes it.',
                        },
                        "auction_seconds": {
                            "type": "integer",
                            "minimum": 5,
                            "maximum": 600,
                            "default": 20,
                            "description": "Seconds an auction runs after each bid.",
                        },
                        "request_seconds": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": 3600,
                            "default": 0,
                            "description": "Seconds a payment request waits before it lapses (0: until answered).",
                        },
                        "no_trades_two_left": {
                            "type": "boolean",
                            "default": False,
                            "description": "The championship's preliminary rounds (FAQ 31): "
                            "no trades once only two players are left.",
                        },
                        "house_sizes": {
                            "type": "boolean",
                            "default": False,
                            "description": "House rule: play at a table size the rulebook gives no "
                            "starting values for (the edition's house_sizes: Motopolis' 7), at the "
                            "edition file's own values; without it such a table is refused at "
                            "creation, join and start.",
                        },
                        "last_minutes": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": 60,
                            "default": 0,
                            "description": "Minutes before the clock runs out from which the table and "
                            "the phones say the game is in its last minutes (0: never).",
                        },
                        "buyer_die": {
                            "type": ["array", "null"],
                            "minItems": 2,
                            "maxItems": 12,
                            "items": {"enum": ["si", "no", "vita"]},
                            "description": "Che Impresa!: the buyer's (yellow) special die, one entry per "
                            "face, as counted on the group's box (null: the edition's).",
                        },
                        "owner_die": {
                            "type": ["array", "null"],
                            "minItems": 2,
                            "maxItems": 12,
                            "items": {"enum": ["no", "doppio", "meta", "ritira", "vita"]},
                            "description": "Che Impresa!: the owner's (red) special die, likewise.",
                        },
                        "supply_small": {
                            "type": ["integer", "null"],
                            "minimum": 0,
                            "maximum": 500,
                            "default": None,
                            "description": "The bank's small buildings (houses, towers...) as counted "
                            "in the group's box, where its printing differs (null: the "
                            "edition's).",
                        },
                        "supply_big": {
                            "type": ["integer", "null"],
                            "minimum": 0,
                            "maximum": 500,
                            "default": None,
                            "description": "The bank's big buildings (hotels, platforms...), likewise.",
                        },
                        "fake_note_share": {
                            "type": ["number", "null"],
                            "minimum": 0,
                            "maximum": 1,
                            "default": None,
                            "description": "Niente è come sembra: the share of the bank's notes that "
                            "are fake (null: the edition's).",
                        },
                        "check_seconds": {
                            "type": ["integer", "null"],
                            "minimum": 1,
                            "maximum": 120,
                            "default": None,
                            "description": "Niente è come sembra: seconds a payment stays open to a "
                            "check (null: the edition's).",
                        },
                        "receiver_checks": {
                            "type": ["boolean", "null"],
                            "default": None,
                            "description": "Niente è come sembra: whether a payment's receiver may "
                            "check it too (null: the edition's).",
                        },
                    },
                    "description": "The game's settings, fixed at creation; an unknown name is refused (400).",
                },
                "Pending": {
                    "type": "object",
                    "description": "Money waiting for a yes: nothing has moved yet.",
                    "properties": {
                        "id": {"type": "string"},
                        "from": {"type": "string", "description": 'The payer: a player id or "bank".'},
                        "to": {"type": "string"},
                        "amount": {"type": "integer"},
                        "reason": {"type": "string"},
                        "needs": {"enum": ["payer", "banker"], "description": "Who approves or declines it."},
                        "asked_by": {
                            "type": "string",
                            "description": 'A player id or "banker"; may withdraw it with decline.',
                        },
                        "kind": {
                            "type": "string",
                            "description": "What the payment is once approved (transfer, pay_rent, pass_go...).",
                        },
                        "deed": {"type": ["string", "null"]},
                        "at": {"type": "string", "format": "date-time"},
                        "expires_at": {"type": ["string", "null"], "format": "date-time"},
                    },
                },
                "TradeSide": {
                    "type": "object",
                    "properties": {
                        "cash": {"type": "integer", "minimum": 0},
                        "deeds": {"type": "array", "items": {"type": "string"}},
                        "jail_cards": {"type": "integer", "minimum": 0},
                    },
                },
                "Score": {
                    "type": "object",
                    "properties": {
                        "final": {"type": "boolean"},
                        "currency": {"type": "string"},
                        "points_table_rows": {"type": ["integer", "null"]},
                        "hidden": {"type": "boolean", "description": "Others' counts are left out (null)."},
                        "standings": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "player": {"type": "string"},
                                    "name": {"type": "string"},
                                    "rank": {"type": ["integer", "null"]},
                                    "total": {"type": ["integer", "null"]},
                                    "breakdown": {
                                        "type": ["object", "null"],
                                        "additionalProperties": {"type": "integer"},
                                    },
                                    "out": {"type": "boolean"},
                                    "tournament_points": {"type": ["integer", "null"]},
                                },
                            },
                        },
                        "tie_rule": {
                            "enum": ["shared", "play_off"],
                            "description": "Players tied for first at the final count share the place, or "
                            "play off (action `play_off`, banker).",
                        },
                        "play_off_minutes": {"type": ["integer", "null"]},
                        "play_off_due": {
                            "type": ["array", "null"],
                            "items": {"type": "string"},
                            "description": "At a final count tied for first, where ties play off: the "
                            "players who would play off now.",
                        },
                        "play_offs": {
                            "type": "array",
                            "items": {"type": "array", "items": {"type": "string"}},
                            "description": "The play-offs played or under way, each its players; they go "
                            "first in the count.",
                        },
                    },
                },
                "Event": {
                    "type": "object",
                    "properties": {
                        "version": {"type": "integer"},
                        "type": {"type": "string"},
                        "actor": {"type": "string"},
                        "summary": {"type": "string"},
                        "params": {"type": "object"},
                        "reverses": {"type": ["integer", "null"]},
                        "reversed": {"type": "boolean"},
                        "at": {"type": "string", "format": "date-time"},
                    },
                },
            },
        },
        "paths": {
            "/api/v1/editions": {
                "get": {
                    "summary": "The editions this bank runs",
                    "responses": {
                        "200": {
                            "description": "OK",
                            **_json(
                                {
                                    "type": "object",
                                    "properties": {"editions": {"type": "array", "items": _ref("EditionSummary")}},
                                }
                            ),
                        }
                    },
                },
                "post": {
                    "summary": "Import an edition file",
                    "description": "The file is checked whole against editions.schema.json: any problem refuses "
                    "it (400 invalid_edition, the error's `problems` naming each field) and "
                    "nothing is stored. The id of a built-in edition is refused (409 "
                    "edition_exists); an id imported before gets the new content (`replaced`), "
                    "games already opened keep theirs. A new id past the server's "
                    "BANCO_IMPORTED_EDITIONS_LIMIT is refused (409 too_many_editions). One address "
                    "stores at most BANCO_CREATIONS_PER_ADDRESS editions in 10 minutes (429 "
                    "too_many_created, with Retry-After). With BANCO_HOST_PASSWORD set, send it "
                    "as the bearer token.",
                    "security": [{}, {"bearer": []}],
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["id"],
                                "description": "An edition file.",
                                "properties": {"id": {"type": "string"}},
                            }
                        ),
                    },
                    "responses": {
                        "201": {
                            "description": "Imported",
                            **_json(
                                {
                                    "type": "object",
                                    "required": ["id", "replaced"],
                                    "properties": {"id": {"type": "string"}, "replaced": {"type": "boolean"}},
                                }
                            ),
                        },
                        **_errors(400, 401, 409, 429),
                    },
                },
            },
            "/api/v1/editions/{edition}": {
                "get": {
                    "summary": "One edition with its deeds",
                    "parameters": [
                        {
                            "name": "edition",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "enum": edition_ids},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "OK",
                            **_json(
                                {
                                    "type": "object",
                                    "properties": {
                                        "deeds": {"type": "array", "items": _ref("Deed")},
                                        "starting_notes": {
                                            "type": "object",
                                            "description": "By the number of players: the notes each "
                                            "player starts with, {face: count}.",
                                            "additionalProperties": {
                                                "type": "object",
                                                "additionalProperties": {"type": "integer"},
                                            },
                                        },
                                    },
                                }
                            ),
                        },
                        **_errors(404),
                    },
                }
            },
            "/api/v1/editions/{edition}/file": {
                "get": {
                    "summary": "The edition's file, as POST /api/v1/editions takes it back",
                    "parameters": [
                        {
                            "name": "edition",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "enum": edition_ids},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "The edition file (editions.schema.json)",
                            **_json({"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}),
                        },
                        **_errors(404),
                    },
                }
            },
            "/api/v1/games": {
                "post": {
                    "summary": "Open a game in setup",
                    "description": "One address opens at most BANCO_CREATIONS_PER_ADDRESS games in 10 minutes "
                    "(429 too_many_created, with Retry-After).",
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["edition"],
                                "properties": {
                                    "edition": {"enum": edition_ids, "description": "An id from /api/v1/editions."},
                                    "players": {
                                        "type": "array",
                                        "maxItems": most_players,
                                        "items": {"type": "string", "minLength": 1, "maxLength": 40},
                                        "description": "Names, each once (without regard to case), without control "
                                        "characters; as many as the edition seats.",
                                    },
                                    "time_limit_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 1440},
                                    "seed": {"type": ["integer", "null"]},
                                    "auction_seconds": {"type": ["integer", "null"], "minimum": 5, "maximum": 600},
                                    "settings": _ref("Settings"),
                                },
                            }
                        ),
                    },
                    "responses": {
                        "201": {
                            "description": "Created",
                            **_json(created),
                        },
                        **_errors(400, 429),
                    },
                }
            },
            "/api/v1/games/import": {
                "post": {
                    "summary": "Carry on a game from its file: a new game at the file's version",
                    "description": "The body is a game file as `GET /api/v1/games/{game_id}/export` gives it "
                    "(docs/gamefile.md). Every entry is checked on the way in (its digest, version, "
                    "balance and the values it changes from, replayed through the rules) and the "
                    "state it leads to must be the file's; the edition is taken from the file by its "
                    "hash. A file that does not check out is refused (400 `invalid_game_file`, naming "
                    "the first wrong entry) and nothing is stored. The new game has new ids, a new join "
                    "code and new tokens. Bodies up to BANCO_MAX_GAME_FILE_BYTES. One address imports "
                    "at most BANCO_CREATIONS_PER_ADDRESS games in 10 minutes (429 too_many_created, "
                    "with Retry-After).",
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": [
                                    "format",
                                    "format_version",
                                    "game",
                                    "edition",
                                    "seats",
                                    "state",
                                    "journal",
                                ],
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
                            }
                        ),
                    },
                    "responses": {
                        "201": {"description": "Created, as POST /api/v1/games answers", **_json(created)},
                        **_errors(400, 413, 429),
                    },
                }
            },
            "/api/v1/games/{game_id}/export": {
                "get": {
                    "summary": "The game as a file (banker only)",
                    "description": '`{"format": "banco-game", "format_version": 1, ...}`: the whole journal '
                    "(each entry chained to the one before by a SHA-256 digest), the edition the game "
                    "is pinned to (its content and hash), the seats (ids and names), the game's seed, "
                    "clock and state. No token, join code or other secret. Sent as an attachment.",
                    "security": bearer,
                    "parameters": [game_id],
                    "responses": {
                        "200": {
                            "description": "The game file",
                            **_json(
                                {
                                    "type": "object",
                                    "required": [
                                        "format",
                                        "format_version",
                                        "game",
                                        "edition",
                                        "seats",
                                        "state",
                                        "journal",
                                    ],
                                }
                            ),
                        },
                        **_errors(401, 403, 404),
                    },
                }
            },
            "/api/v1/games/{game_id}/join": {
                "post": {
                    "summary": "Join a game in setup with its code",
                    "parameters": [game_id],
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["join_code", "name"],
                                "properties": {"join_code": {"type": "string"}, "name": {"type": "string"}},
                            }
                        ),
                    },
                    "responses": {
                        "201": {
                            "description": "Joined",
                            **_json(
                                {
                                    "type": "object",
                                    "properties": {
                                        "id": {"type": "string"},
                                        "name": {"type": "string"},
                                        "token": {"type": "string"},
                                    },
                                }
                            ),
                        },
                        **_errors(400, 403, 404, 409, 429),
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "summary": "The game's state as this token may see it",
                    "security": bearer,
                    "parameters": [game_id],
                    "responses": {"200": {"description": "OK", **_json(_ref("Game"))}, **_errors(401, 404)},
                }
            },
            "/api/v1/games/{game_id}/actions": {
                "post": {
                    "summary": "Do one action",
                    "security": bearer,
                    "parameters": [game_id],
                    "requestBody": {"required": True, **_json(_ref("Action"))},
                    "responses": {
                        "200": {
                            "description": "Done",
                            **_json(
                                {
                                    "type": "object",
                                    "properties": {"version": {"type": "integer"}, "result": {"type": "object"}},
                                }
                            ),
                        },
                        "202": {
                            "description": "Money asked from a strict bank: held for the banker, nothing moved "
                            "yet; `result.pending` is the id to approve or decline.",
                            **_json(
                                {
                                    "type": "object",
                                    "properties": {
                                        "version": {"type": "integer"},
                                        "result": {
                                            "type": "object",
                                            "properties": {"pending": {"type": "string"}, "held": {"const": True}},
                                        },
                                    },
                                }
                            ),
                        },
                        **_errors(400, 401, 403, 404, 409),
                    },
                }
            },
            "/api/v1/games/{game_id}/events": {
                "get": {
                    "summary": "The journal after a version, a page at a time",
                    "description": "At most the server's page size of entries (BANCO_EVENTS_PAGE, at least "
                    "100); `more` is true when more follow: ask again with `since` set to the last "
                    "version received.",
                    "security": bearer,
                    "parameters": [
                        game_id,
                        {"name": "since", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    "responses": {
                        "200": {
                            "description": "OK",
                            **_json(
                                {
                                    "type": "object",
                                    "required": ["events", "more"],
                                    "properties": {
                                        "events": {"type": "array", "items": _ref("Event")},
                                        "more": {"type": "boolean"},
                                    },
                                }
                            ),
                        },
                        **_errors(400, 401, 404),
                    },
                }
            },
            "/api/v1/tournaments": {
                "post": {
                    "summary": "Open a tournament: an edition with tournament points, its players, the table size "
                    "and each round's minutes",
                    "description": "One address opens at most BANCO_CREATIONS_PER_ADDRESS tournaments in 10 "
                    "minutes (429 too_many_created, with Retry-After); the rounds' games are not counted.",
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["name", "edition", "players"],
                                "properties": {
                                    "name": {"type": "string", "maxLength": 80},
                                    "edition": {"type": "string", "enum": edition_ids},
                                    "players": {"type": "array", "items": {"type": "string", "maxLength": 40}},
                                    "table_size": {"type": "integer", "minimum": 2, "maximum": 8, "default": 4},
                                    "round_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 1440},
                                    "seed": {"type": ["integer", "null"]},
                                    "last_minutes": {
                                        "type": ["integer", "null"],
                                        "minimum": 0,
                                        "maximum": 60,
                                        "description": "When every table warns that the round is "
                                        "ending (default 10; none for rounds of 20 "
                                        "minutes or less); shorter than a round.",
                                    },
                                    "preliminary_rounds": {
                                        "type": ["integer", "null"],
                                        "minimum": 1,
                                        "maximum": 20,
                                        "description": "How many preliminary rounds come before the "
                                        "semi-finals (default 2): the desk puts the next step by it; "
                                        "another round may still be drawn.",
                                    },
                                    "finals": {
                                        "type": "object",
                                        "description": (
                                            "The semi-finals and the final: the rulebook does not say how many go on "
                                            "or how, so the tournament sets it. Defaults: two semi-final tables of the "
                                            "table size, a final of the table size, filled by places."
                                        ),
                                        "properties": {
                                            "semi_finalists": {
                                                "type": "integer",
                                                "minimum": 0,
                                                "maximum": 64,
                                                "description": "The best of the standings who "
                                                "play the semi-finals (0: none, the "
                                                "final is drawn from the standings).",
                                            },
                                            "semi_final_tables": {"type": "integer", "minimum": 0, "maximum": 64},
                                            "final_players": {"type": "integer", "minimum": 2, "maximum": 8},
                                            "finalists_by": {
                                                "enum": ["places", "points"],
                                                "description": (
                                                    "places: every semi-final table's winner, then every second, and "
                                                    "so on; points: the most tournament points at the semi-finals."
                                                ),
                                            },
                                        },
                                    },
                                },
                            }
                        ),
                    },
                    "responses": {
                        "201": {
                            "description": "Created: the id, the director's token, the players' ids",
                            **_json({"type": "object"}),
                        },
                        **_errors(400, 429),
                    },
                }
            },
            "/api/v1/tournaments/{tournament_id}": {
                "get": {
                    "summary": "The rounds, each table's game and status, and the general standings",
                    "description": "Points are the sum of each finished preliminary game's tournament points; "
                    "equal points are ranked by tables won, then by the sum of the final counts (the "
                    "rulebook gives no tiebreak). Each round has its `stage` (`round`, `semi_final`, "
                    "`final`) and each finished table its `results` (place and points); the "
                    "semi-finals and the final rank their own tables and are not added to the "
                    "standings. `finals` holds the tournament's settings for them and the "
                    "`champion` once the final is over.",
                    "parameters": [tournament_id],
                    "responses": {"200": {"description": "OK", **_json({"type": "object"})}, **_errors(404)},
                }
            },
            "/api/v1/tournaments/{tournament_id}/rounds": {
                "post": {
                    "summary": "Draw the next round (director): one game per table, created and ready to start",
                    "description": "A preliminary `round` (the default) is refused (409) while tables of the "
                    'previous round still play, naming them, unless the body says {"force": true}. '
                    "`semi_final` seeds the best of the standings to the semi-final tables (two "
                    "tables: 1-4-5-8 and 2-3-6-7); `final` fills the final from the semi-finals (or "
                    "the standings where there are none); both are refused while any table still "
                    "plays, and out of turn. Preliminary games have `no_trades_two_left` on, the "
                    "semi-finals and the final off (FAQ 31).",
                    "security": bearer,
                    "parameters": [tournament_id],
                    "requestBody": {
                        "required": False,
                        **_json(
                            {
                                "type": "object",
                                "properties": {
                                    "force": {"type": "boolean"},
                                    "stage": {"enum": ["round", "semi_final", "final"], "default": "round"},
                                },
                            }
                        ),
                    },
                    "responses": {
                        "201": {"description": "The round and its tables", **_json({"type": "object"})},
                        **_errors(400, 401, 403, 404, 409),
                    },
                }
            },
            "/api/v1/tournaments/{tournament_id}/referee": {
                "post": {
                    "summary": "A new referee's token (director); the one before stops working",
                    "security": bearer,
                    "parameters": [tournament_id],
                    "responses": {
                        "201": {
                            "description": '`{"referee_token"}`',
                            **_json({"type": "object", "properties": {"referee_token": {"type": "string"}}}),
                        },
                        **_errors(401, 403, 404),
                    },
                }
            },
            "/api/v1/tournaments/{tournament_id}/tables": {
                "get": {
                    "summary": "Every table in play (director or referee): clock, players, status, what it waits on",
                    "description": "`waiting_on` lists `{kind, who, name, deed}`: kind `auction` (its bidders, "
                    "who null), `auction_over` and `auction_queue` (the banker), `expropriation`, "
                    '`trade` and `request` (the player who must answer, or "banker").',
                    "security": bearer,
                    "parameters": [tournament_id],
                    "responses": {
                        "200": {"description": "The rounds in play and their tables", **_json({"type": "object"})},
                        **_errors(401, 403, 404),
                    },
                }
            },
            "/api/v1/tournaments/{tournament_id}/players": {
                "post": {
                    "summary": "Register a late arrival (director), drawn from the next round on",
                    "security": bearer,
                    "parameters": [tournament_id],
                    "requestBody": {
                        "required": True,
                        **_json(
                            {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string", "maxLength": 40}},
                            }
                        ),
                    },
                    "responses": {
                        "201": {"description": "The player", **_json({"type": "object"})},
                        **_errors(400, 401, 403, 404),
                    },
                }
            },
            "/api/v1/tournaments/{tournament_id}/players/{player_id}/withdraw": {
                "post": {
                    "summary": "A player withdraws (director): no later table; their points stay",
                    "security": bearer,
                    "parameters": [
                        tournament_id,
                        {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}},
                    ],
                    "responses": {
                        "200": {"description": "The player", **_json({"type": "object"})},
                        **_errors(401, 403, 404, 409),
                    },
                }
            },
            "/api/v1/games/{game_id}/score": {
                "get": {
                    "summary": "The standings by the edition's own final count",
                    "description": "Live during play, `final` after the end. In an edition that keeps cash private, "
                    "during play a player sees only their own count (`hidden`); the banker sees all.",
                    "security": bearer,
                    "parameters": [game_id],
                    "responses": {"200": {"description": "OK", **_json(_ref("Score"))}, **_errors(401, 404)},
                }
            },
            "/api/v1/games/{game_id}/print/money.pdf": {
                "get": {
                    "summary": "The game's printed notes and Imprevisti cards (Niente è come sembra), banker only",
                    "description": "Each note and card carries a QR code of `<public URL>/s/<serial>` and its serial; "
                    "some are fake, and nothing on the paper or in the code tells which: `scan` "
                    "answers. 404 for an edition without counterfeits.",
                    "security": bearer,
                    "parameters": [
                        game_id,
                        {"name": "paper", "in": "query", "schema": {"enum": ["a4", "letter"]}},
                        {"name": "lang", "in": "query", "schema": {"enum": ["it", "en"]}},
                    ],
                    "responses": {
                        "200": {
                            "description": "A vector PDF",
                            "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
                        },
                        **_errors(400, 401, 403, 404),
                    },
                }
            },
            "/api/v1/games/{game_id}/stream": {
                "get": {
                    "summary": "Server-Sent Events: one `version` event per change",
                    "description": "Each event's id and data carry the new version, and the data the parts of the "
                    "game that changed since the stream's last event (`null` when the server "
                    "cannot tell: read the whole state); `cash:<account>` names each account "
                    "(a player's id, `bank`, a pot) whose cash moved. Fetch the state or the events "
                    "to see what changed. Resume with `Last-Event-ID` or `?since=`.",
                    "security": bearer,
                    "parameters": [game_id, {"name": "since", "in": "query", "schema": {"type": "integer"}}],
                    "responses": {
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
                                                "description": 'version: {"version": n, "parts": '
                                                '["cash", "cash:<account>", "feed", ...] or null}; '
                                                'storage: {"cannot_save": true | false}, when the '
                                                "server's database cannot save (a full disk), and "
                                                "once it saves again",
                                            },
                                            "retry": {"type": "integer"},
                                        },
                                    }
                                }
                            },
                        },
                        **_errors(401, 404),
                    },
                }
            },
        },
    }
