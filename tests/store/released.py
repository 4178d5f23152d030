"""A database as the last release before migrations left it, written row by row in plain SQL:
a running classic-it game with two players, a deed bought, a rent request asked and paid,
another open, and its journal, so the upgrade is tested on data no code of this version
wrote."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from sqlalchemy import create_engine, text

from companion.store import migrations
from tests.conftest import empty_database

EDITION = Path(__file__).resolve().parents[2] / "companion" / "editions" / "classic-it.json"
BANKER_TOKEN, ANNA_TOKEN, BRUNO_TOKEN = "banker-secret-1", "anna-secret-1", "bruno-secret-1"
GAME, ANNA, BRUNO = "oldgame001", "anna0001", "bruno001"
PAID, REQUEST = "req00000", "req00001"  # a rent request asked and paid; one still open
AT = dt.datetime(2026, 11, 29, 20, 0, 0)


def rent_request(request_id: str) -> dict:
    """A rent request as the release stored it (``RentRequestState``)."""
    return {
        "id": request_id,
        "deed": "vicolo-corto",
        "owner": ANNA,
        "payer": BRUNO,
        "amount": 2,
        "dice": None,
        "requested_at": f"2026-11-29T20:0{request_id[-1]}:00",
        "lapses_at": None,
    }


def pending_rent_request(request_id: str) -> dict:
    """The same rent request as the ``pending`` document the upgrade makes of it."""
    return {
        "id": request_id,
        "payer": BRUNO,
        "payee": ANNA,
        "amount": 2,
        "needs": "payer",
        "asked_by": ANNA,
        "kind": "pay_rent",
        "params": {"from": BRUNO, "to": ANNA, "deed": "vicolo-corto", "amount": 2, "dice": None},
        "at": f"2026-11-29T20:0{request_id[-1]}:00",
        "expires_at": None,
    }


def run_sql(url: str, *statements) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement, params in statements:
            conn.execute(text(statement), params)
    engine.dispose()


def at_revision(url: str, revision: str) -> None:
    """An empty database brought to ``revision`` by the migrations alone."""
    empty_database(url)
    engine = create_engine(url)
    with migrations.schema_transaction(engine) as conn:
        migrations.upgrade(conn, revision)
    engine.dispose()


def sha(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _entry(entry_id, version, kind, actor, params, changes=(), undoable=True):
    return (
        "INSERT INTO entry (id, game_id, version, kind, actor, params, changes, undoable, at) VALUES "
        "(:id, :game, :version, :kind, :actor, :params, :changes, :undoable, :at)",
        {
            "id": entry_id,
            "game": GAME,
            "version": version,
            "kind": kind,
            "actor": actor,
            "params": json.dumps(params),
            "changes": json.dumps(list(changes)),
            "undoable": undoable,
            "at": AT + dt.timedelta(minutes=version),
        },
    )


def _posting(posting_id, entry_id, account, amount):
    return (
        "INSERT INTO posting (id, entry_id, game_id, account, amount) VALUES (:id, :entry, :game, :account, :amount)",
        {"id": posting_id, "entry": entry_id, "game": GAME, "account": account, "amount": amount},
    )


def released_game(url: str, stamped: bool = False) -> None:
    """Writes the released tables (revision 1) with one game in play. The release never had
    Alembic: ``alembic_version`` goes unless ``stamped``."""
    at_revision(url, migrations.RELEASED)
    deeds = json.loads(EDITION.read_text(encoding="utf-8"))["deeds"]
    rows = [
        (
            "INSERT INTO game (id, edition_id, status, version, join_code, banker_token_hash, seed, cash_private, "
            "clock_elapsed_seconds, clock_running_since, bank_small, bank_big, auction_seconds, auctions_held, auction, "
            "trades, rent_requests, created_at) VALUES (:id, 'classic-it', 'running', 6, 'OLDGM2', :banker, NULL, "
            ":false, 120.0, :at, 32, 12, 30, 0, NULL, '{}', :requests, :at)",
            {
                "id": GAME,
                "banker": sha(BANKER_TOKEN),
                "false": False,
                "at": AT,
                "requests": json.dumps({REQUEST: rent_request(REQUEST)}),
            },
        ),
    ]
    for seat, (player_id, name, token, cash) in enumerate(
        ((ANNA, "Anna", ANNA_TOKEN, 1442), (BRUNO, "Bruno", BRUNO_TOKEN, 1498))
    ):
        rows.append(
            (
                "INSERT INTO player (id, game_id, seat, name, token_hash, cash, in_jail, bankrupt, jail_cards) "
                "VALUES (:id, :game, :seat, :name, :token, :cash, :false, :false, 0)",
                {
                    "id": player_id,
                    "game": GAME,
                    "seat": seat,
                    "name": name,
                    "token": sha(token),
                    "cash": cash,
                    "false": False,
                },
            )
        )
    for deed in deeds:
        rows.append(
            (
                "INSERT INTO holding (game_id, deed_key, position, owner_id, mortgaged, houses, hotel, fee_due) "
                "VALUES (:game, :key, :position, :owner, :false, 0, :false, :false)",
                {
                    "game": GAME,
                    "key": deed["key"],
                    "position": deed["position"],
                    "false": False,
                    "owner": ANNA if deed["key"] == "vicolo-corto" else None,
                },
            )
        )
    rows += [
        _entry(1, 1, "created", "banker", {"players": 2}, undoable=False),
        _entry(2, 2, "start", "banker", {"cash": 1500, "players": 2}, [["game", None, "status", "setup", "running"]]),
        _posting(1, 2, "bank", -1500),
        _posting(2, 2, ANNA, 1500),
        _posting(3, 2, "bank", -1500),
        _posting(4, 2, BRUNO, 1500),
        _entry(
            3,
            3,
            "buy",
            ANNA,
            {"player": ANNA, "deed": "vicolo-corto", "amount": 60},
            [["deed", "vicolo-corto", "owner", None, ANNA]],
        ),
        _posting(5, 3, ANNA, -60),
        _posting(6, 3, "bank", 60),
    ]
    rent = {"from": BRUNO, "to": ANNA, "deed": "vicolo-corto", "amount": 2, "dice": None}
    rows += [
        _entry(4, 4, "rent_request", ANNA, rent, [["rent_request", PAID, "state", None, rent_request(PAID)]]),
        _entry(
            5,
            5,
            "pay_rent",
            BRUNO,
            {**rent, "request": PAID},
            [["rent_request", PAID, "state", rent_request(PAID), None]],
        ),
        _posting(7, 5, BRUNO, -2),
        _posting(8, 5, ANNA, 2),
        _entry(6, 6, "rent_request", ANNA, rent, [["rent_request", REQUEST, "state", None, rent_request(REQUEST)]]),
    ]
    if not stamped:
        rows.append(("DROP TABLE alembic_version", {}))
    run_sql(url, *rows)
    if url.startswith("postgresql"):
        # Rows written with their ids, as the release's own sequences would have given them.
        run_sql(url, ("SELECT setval('entry_id_seq', 6)", {}), ("SELECT setval('posting_id_seq', 8)", {}))
