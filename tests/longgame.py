"""A long game made fast: a started game's journal lengthened by many payments between its
players, written straight into its tables (as the journal writes them) rather than played one
action at a time, so that the tests and ``bench/bench_long_game.py`` can read a game of
thousands of entries in seconds."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import Connection, select, update

from companion.store import Entry, Game, Player, Posting

BATCH = 2000  # entries written per statement: few round trips, bounded memory


def lengthen(connection: Connection, game_id: str, entries: int, seed: int = 1) -> int:
    """Adds ``entries`` transfers between the players of the running game ``game_id`` after its
    last version, each as the API's ``transfer`` journals it (one payment, no change), every
    balance staying at or above zero, and sets each player's cash and the game's version to
    match; returns the new version. Refuses (``ValueError``) a game whose players hold no cash."""
    rng = random.Random(seed)
    version, at = connection.execute(select(Game.version, Game.created_at).where(Game.id == game_id)).one()
    seated = select(Player.id, Player.cash).where(Player.game_id == game_id).order_by(Player.seat)
    cash = dict(connection.execute(seated).all())
    if not any(cash.values()):
        raise ValueError("a long game needs players who hold cash")
    players = list(cash)  # in seat order: the same payments for the same seed, whatever the ids
    made = 0
    while made < entries:
        batch = []
        for _ in range(min(BATCH, entries - made)):
            payer = rng.choice([p for p in players if cash[p]])
            payee = rng.choice([p for p in players if p != payer])
            amount = rng.randint(1, min(200, cash[payer]))
            cash[payer] -= amount
            cash[payee] += amount
            made += 1
            batch.append((version + made, payer, payee, amount))
        _write(connection, game_id, batch, at)
    connection.execute(update(Game).where(Game.id == game_id).values(version=version + made))
    for player, amount in cash.items():
        connection.execute(update(Player).where(Player.id == player).values(cash=amount))
    return version + made


def _write(connection: Connection, game_id: str, batch: list[tuple[int, str, str, int]], at: dt.datetime) -> None:
    """One batch of transfers: their entries, then their postings (which name the entries' ids)."""
    connection.execute(
        Entry.__table__.insert(),
        [
            {
                "game_id": game_id,
                "version": v,
                "kind": "transfer",
                "actor": "banker",
                "params": {"from": payer, "to": payee, "amount": amount, "reason": ""},
                "changes": [],
                "undoable": True,
                "at": at + dt.timedelta(seconds=v),
            }
            for v, payer, payee, amount in batch
        ],
    )
    ids = dict(
        connection.execute(
            select(Entry.version, Entry.id).where(Entry.game_id == game_id, Entry.version >= batch[0][0])
        ).all()
    )
    connection.execute(
        Posting.__table__.insert(),
        [
            {"entry_id": ids[v], "game_id": game_id, "account": account, "amount": amount}
            for v, payer, payee, amount in batch
            for account, amount in ((payer, -amount), (payee, amount))
        ],
    )
