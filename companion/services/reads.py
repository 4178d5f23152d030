"""The read model: a game as the API and the pages show it to one caller."""

from __future__ import annotations

import math
from dataclasses import asdict
from datetime import datetime

from sqlalchemy import select

from ..core import dice, rules, turns
from ..core.counterfeits import chance, notes, terms
from ..core.pending import is_expired
from ..core.rules.rent import rent_requests
from ..core.settings import SETTINGS
from ..core.state import GameState, PendingState
from ..store import Game, GameRecord, db, now_utc
from . import clock
from .journal import state_of
from .seats import Caller


def can_see_cash(game: GameRecord, caller: Caller | None, player_id: str) -> bool:
    """Whether ``caller`` may see that player's cash: always the banker and the player
    themselves; everyone else only when the game does not keep cash private."""
    if not game.cash_private:
        return True
    return caller is not None and (caller.is_banker or caller.player_id == player_id)


def waiting(state: GameState, now: datetime | None = None) -> list[PendingState]:
    """The money waiting for a yes that can still be approved, oldest first."""
    now = now or now_utc()
    return sorted((p for p in state.pending.values() if not is_expired(p, now)), key=lambda p: p.at)


def pending_view(p: PendingState) -> dict:
    return {
        "id": p.id,
        "from": p.payer,
        "to": p.payee,
        "amount": p.amount,
        "reason": p.params.get("reason", ""),
        "needs": p.needs,
        "asked_by": p.asked_by,
        "kind": p.kind,
        "deed": p.params.get("deed"),
        "at": p.at,
        "expires_at": p.expires_at,
    }


def checkable_view(state: GameState, now: datetime | None = None) -> list[dict]:
    """The payments and Chance cards open to a check now, without their notes: who paid whom,
    how much, until when; ``card`` when it is a Chance card played."""
    now = now or now_utc()
    return [
        {
            "id": c.id,
            "from": c.payer,
            "to": c.payee,
            "players": list(c.parties),
            "amount": c.amount,
            "what": c.kind,
            "card": c.card is not None,
            "at": c.at,
            "check_until": c.check_until,
            "seconds_left": max(0, math.ceil((datetime.fromisoformat(c.check_until) - now).total_seconds())),
        }
        for c in notes.open_checks(state, now)
    ]


def counterfeits_view(state: GameState, player_id: str | None) -> dict | None:
    """What a reader may know of the fake money (null where the edition has none): their own
    notes counted by face (``{"500": 2, ...}``, never which are fake; null for the banker),
    the Imprevisti face up and in the pile (counts), and each player's cards in hand (counts;
    the reader's own card ids in ``my_cards``)."""
    counterfeits = state.edition.counterfeits
    if counterfeits is None:  # no fake money in this edition (``notes.active``)
        return None
    deck = state.chance
    return {
        "notes": (
            {str(face): count for face, count in notes.hand_counts(state, player_id).items()} if player_id else None
        ),
        "check_seconds": terms.check_seconds(state),
        "receiver_checks": terms.receiver_checks(state),
        "chance_board": len(deck.board) if deck else min(chance.BOARD, counterfeits.chance_cards),
        "chance_pile": len(deck.pile) if deck else None,
        "chance_hands": {pid: chance.hand_size(state, pid) for pid in state.players},
        "my_cards": chance.hand_ids(state, player_id) if player_id else [],
    }


# Every kind of dice ``roll`` knows; an edition offers some of them (``dice_kinds``).
DICE_KINDS = tuple(dice.DICE)


def dice_kinds(edition) -> tuple[str, ...]:
    """The kinds of dice the server rolls for this edition (``roll``'s ``dice``), in the order
    the pages offer them."""
    return dice.kinds(edition)


def turn_view(state: GameState) -> dict | None:
    """Whose turn it is, the round and the edition's last round, as the API and the pages show
    them (``None`` where the edition does not count turns)."""
    return turns.view(state)


def time_up_view(game: GameRecord, state: GameState) -> dict | None:
    """What the time being up asks of the table, or ``None`` while it is not (no clock, time
    left, a game not running): ``ends_with_turn`` when ending the turn in play ends the game
    (``turns.ends_with_the_turn``), with that turn's ``player``; otherwise the banker ends it."""
    if game.status != "running" or not clock.is_up(game):
        return None
    ends = turns.ends_with_the_turn(state, True)
    return {"ends_with_turn": ends, "player": state.turn_player if ends else None}


def game_state(game: GameRecord, caller: Caller | None) -> dict:
    """The game as ``GET /api/v1/games/{id}`` returns it to this caller. Every field the core
    declares on a player or a deed is shown, so a new kind of state needs no edit here."""
    state = state_of(game)
    claimed = {p.id: p.claimed for p in game.players}
    seats = {p.id: p.seat for p in game.players}
    players = []
    for p in state.players.values():
        row = {"id": p.id, "name": p.name, "seat": seats[p.id], "claimed": claimed[p.id], **asdict(p)}
        row["cash"] = p.cash if can_see_cash(game, caller, p.id) else None
        players.append(row)
    deeds = []
    for key, ds in state.deeds.items():
        row = asdict(ds)
        deeds.append({"key": key, **{k: v for k, v in row.items() if k != "key"}})
    return {
        "id": game.id,
        "edition": game.edition_id,
        "status": game.status,
        "version": game.version,
        "join_code": game.join_code if caller is not None else None,
        "banker_player": game.banker_player_id,
        "cash_private": game.cash_private,
        # Every setting's value for this game: a game stored before a setting existed shows its default.
        "settings": {name: state.setting(name) for name in SETTINGS},
        "players": players,
        "deeds": deeds,
        "bank": {"houses": state.bank_small, "hotels": state.bank_big},
        "pots": dict(state.pots),
        "pending": [pending_view(p) for p in waiting(state)],
        "auction": state.auction.to_dict() if state.auction else None,
        "auction_seconds": state.setting("auction_seconds"),
        "trades": [t.to_dict() for t in state.trades.values()],
        "rent_requests": [
            {
                "id": r.id,
                "deed": r.params.get("deed"),
                "owner": r.payee,
                "payer": r.payer,
                "amount": r.amount,
                "dice": r.params.get("dice"),
                "requested_at": r.at,
                "lapses_at": r.expires_at,
            }
            for r in rent_requests(state)
        ],
        "clock": clock.view(game),
        # The dice the server rolls here, and the last roll: its faces, total and doubles.
        "dice_kinds": list(dice_kinds(state.edition)),
        "last_roll": state.last_roll,
        # Where the edition counts turns: whose turn, the round and its limit; else null.
        "turn": turn_view(state),
        # Once the time is up: whether ending the turn in play ends the game, or the banker must.
        "time_up": time_up_view(game, state),
        "expropriation": state.expropriation.to_dict() if state.expropriation else None,
        # The play-offs of a tie for first place, each the ids of its players (the last one may
        # be under way).
        "play_offs": [list(players) for players in state.play_offs],
        # Niente è come sembra: payments open to a decoder check, and the reader's own notes.
        "checkable": checkable_view(state),
        "counterfeits": counterfeits_view(state, caller.player_id if caller else None),
    }


def liquidation(game: Game, player_id: str) -> rules.Liquidation:
    """What the player could still raise by selling buildings and mortgaging or selling deeds
    to the bank (``rules.liquidation_value``), for the bankruptcy form to say before anyone
    gives up."""
    return rules.liquidation_value(state_of(game), player_id)


def debts_to(game: Game, player_id: str, creditor: str) -> list[rules.Debt]:
    """The debts the player could name going bankrupt to ``creditor`` (``rules.debts_to``), for
    the bankruptcy form to offer."""
    return rules.debts_to(state_of(game), player_id, creditor)


def current_version(game_id: str) -> int | None:
    return db.session.execute(select(Game.version).where(Game.id == game_id)).scalar_one_or_none()
