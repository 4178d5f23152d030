"""The schemas the API's endpoints share, declared once: the document prints them among its
components and the endpoints' declarations (``declared``) refer to them by name."""

from __future__ import annotations

from ..core.actions import ACTIONS, Field
from ..core.take_back import TAKE_BACK_SECONDS
from ..services import DICE_KINDS, editions
from .declared import Later, ref

ACTION_TYPES = sorted(ACTIONS)


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


def _edition_ids() -> list[str]:
    return sorted(editions())


def _most_players() -> int:
    return max((e.max_players for e in editions().values()), default=8)


# The editions this bank offers, and the most players any of them seats: known once the app runs.
EDITION_IDS = Later(_edition_ids)
MOST_PLAYERS = Later(_most_players)

# A new game's secrets: POST /api/v1/games, POST /api/v1/games/import and a tournament's tables.
CREATED = {
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

COMPONENTS = {
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
                "description": "Times round the board (each pass_go): a mortgage with a lap deadline counts them.",
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
            "settings": ref("Settings"),
            "pots": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "Accounts other than the bank and the players, e.g. "
                '{"free_parking": 300}; empty when the game has none.',
            },
            "pending": {
                "type": "array",
                "items": ref("Pending"),
                "description": "Money waiting for a yes, oldest first.",
            },
            "players": {"type": "array", "items": ref("Player")},
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
                "oneOf": [{"type": "null"}, ref("Roll")],
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
                "description": "Niente è come sembra: seconds a payment stays open to a check (null: the edition's).",
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
                "description": "The play-offs played or under way, each its players; they go first in the count.",
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
}

# A tournament's players, as registered: their ids are not those of the games they sit at.
_TOURNAMENT_PLAYER = {
    "type": "object",
    "required": ["id", "name"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "withdrawn": {"type": "boolean", "description": "Drawn at no later table; their points stay."},
    },
}
_STAGE = {"enum": ["round", "semi_final", "final"]}
_STATUS = {"enum": ["setup", "running", "finished"]}


def _objects(properties: dict) -> dict:
    """An array of objects with these ``properties``."""
    return {"type": "array", "items": {"type": "object", "properties": properties}}


def _rounds(table: dict) -> dict:
    """A tournament's rounds, each with its tables: every table's number, game and status, and
    what ``table`` adds (the tournament's answer and the referee's desk show a table apart)."""
    tables = _objects({"number": {"type": "integer"}, "game": {"type": "string"}, "status": _STATUS, **table})
    return _objects({"round": {"type": "integer"}, "stage": _STAGE, "tables": tables})


COMPONENTS.update(
    {
        "TournamentPlayer": _TOURNAMENT_PLAYER,
        "TournamentCreated": {
            "type": "object",
            "required": ["id", "director_token", "players"],
            "properties": {
                "id": {"type": "string"},
                "director_token": {"type": "string"},
                "players": {"type": "array", "items": ref("TournamentPlayer")},
            },
        },
        "DrawnRound": {
            "type": "object",
            "required": ["round", "stage", "tables"],
            "properties": {
                "round": {"type": "integer"},
                "stage": _STAGE,
                "tables": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "number": {"type": "integer"},
                            "game": {**CREATED, "description": "The table's game, created and ready to start."},
                            "players": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "The tournament's ids of the players at the table.",
                            },
                        },
                    },
                },
            },
        },
        "Tournament": {
            "type": "object",
            "required": ["id", "name", "rounds", "standings"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "edition": {"type": "string"},
                "table_size": {"type": "integer"},
                "round_minutes": {"type": ["integer", "null"]},
                "last_minutes": {"type": "integer"},
                "preliminary_rounds": {"type": "integer"},
                "finals": {
                    "type": "object",
                    "properties": {
                        "semi_finalists": {"type": "integer"},
                        "semi_final_tables": {"type": "integer"},
                        "final_players": {"type": "integer"},
                        "finalists_by": {"enum": ["places", "points"]},
                        "champion": {"type": ["string", "null"]},
                    },
                },
                "players": {"type": "array", "items": ref("TournamentPlayer")},
                "rounds": _rounds(
                    {
                        "players": {"type": "array", "items": {"type": "string"}},
                        "results": _objects(
                            {
                                "player": {"type": "string"},
                                "place": {"type": ["integer", "null"]},
                                "points": {"type": "integer"},
                            }
                        ),
                    }
                ),
                "standings": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "player": {"type": "string"},
                            "name": {"type": "string"},
                            "points": {"type": "integer"},
                            "played": {"type": "integer"},
                            "wins": {"type": "integer"},
                            "worth": {"type": "integer"},
                            "rank": {"type": "integer"},
                        },
                    },
                },
            },
        },
        "TournamentTables": {
            "type": "object",
            "required": ["id", "name", "rounds"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "rounds": _rounds(
                    {
                        "clock": {"type": ["object", "null"]},
                        "players": {"type": "array", "items": ref("TournamentPlayer")},
                        "waiting_on": _objects(
                            {
                                "kind": {"type": "string"},
                                "who": {"type": ["string", "null"]},
                                "name": {"type": ["string", "null"]},
                                "deed": {"type": ["string", "null"]},
                            }
                        ),
                    }
                ),
            },
        },
    }
)
