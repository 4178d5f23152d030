"""Seats and sign-in: tokens, claiming a seat from a phone, rejoin codes for a lost phone.
Tokens and rejoin secrets are stored only as their SHA-256."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy import select

from ..core.errors import N_, Forbidden, NotFound, RuleViolation, Unauthorized
from ..core.state import Outcome
from ..store import GameRecord, Player, db, now_utc
from .journal import BANKER, new_entry
from .tx import get_game, lock_game, writing

REJOIN_MINUTES = 15


@dataclass(frozen=True)
class Caller:
    """Who is asking: the banker (who may also hold a seat) or one player."""

    game_id: str
    is_banker: bool
    player_id: str | None

    @property
    def actor(self) -> str:
        if self.is_banker:
            return BANKER
        assert self.player_id is not None  # a caller is the banker or one player
        return self.player_id


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def claim_seat(game_id, player_id) -> str:
    """Gives a phone the seat of a named player nobody holds yet; returns the new token.

    Refuses an unknown game or player (404) and a seat already held (409): a lost phone is
    replaced through the banker's rejoin code instead.
    """
    with writing():
        game = lock_game(game_id)
        player = next((p for p in game.players if p.id == player_id), None)
        if player is None:
            raise NotFound("unknown_player", N_("There is no such player in this game."))
        if player.claimed:
            raise RuleViolation(
                "seat_taken",
                N_("%(name)s is already playing on another phone. Ask the banker for a rejoin code."),
                name=player.name,
            )
        token = secrets.token_urlsafe(24)
        player.token_hash = hash_secret(token)
        new_entry(game, Outcome("claim", params={"player": player.id}, undoable=False), player.id)
    return token


def issue_rejoin(game_id, player_id, minutes: int | None = REJOIN_MINUTES) -> str:
    """Makes a one-time rejoin secret for a player whose phone was lost or went flat; the
    banker shows it as a QR (valid 15 minutes) or prints it on a rejoin card (``minutes=None``:
    valid until used). A new secret replaces the player's previous one. Refuses an unknown
    player (404)."""
    with writing():
        game = lock_game(game_id)
        player = next((p for p in game.players if p.id == player_id), None)
        if player is None:
            raise NotFound("unknown_player", N_("There is no such player in this game."))
        secret = secrets.token_urlsafe(18)
        player.rejoin_hash = hash_secret(secret)
        player.rejoin_expires = now_utc() + dt.timedelta(minutes=minutes or 60 * 24 * 365)
    return secret


def redeem_rejoin(secret) -> tuple[str, str, str]:
    """Swaps a rejoin secret for a fresh player token and voids the old one (the lost phone
    can no longer spend). Returns (game id, player id, token). Refuses an unknown, used or
    expired secret (403)."""
    if not isinstance(secret, str) or not secret or len(secret) > 64:
        raise Forbidden("invalid_rejoin", N_("This rejoin code is not valid. Ask the banker for a new one."))
    digest = hash_secret(secret)
    with writing():
        # The game's lock first, as every write takes it (see tx), then the player read again
        # under it: locking the player's row first would deadlock against a payment to that
        # player on PostgreSQL, which holds the game and waits for the player. Read again,
        # the secret may be gone (redeemed, or replaced by a new one, in the meantime).
        game_id = db.session.execute(select(Player.game_id).where(Player.rejoin_hash == digest)).scalar_one_or_none()
        game = lock_game(game_id) if game_id is not None else None
        player = None
        if game is not None:
            player = db.session.execute(
                select(Player)
                .where(Player.game_id == game.id, Player.rejoin_hash == digest)
                .execution_options(populate_existing=True)
            ).scalar_one_or_none()
        if game is None or player is None or player.rejoin_expires is None or player.rejoin_expires < now_utc():
            raise Forbidden("invalid_rejoin", N_("This rejoin code is not valid. Ask the banker for a new one."))
        token = secrets.token_urlsafe(24)
        player.token_hash = hash_secret(token)
        player.rejoin_hash = None
        player.rejoin_expires = None
        new_entry(game, Outcome("rejoin", params={"player": player.id}, undoable=False), player.id)
    return game.id, player.id, token


# The bank's one-time hand-off secret lives in the game row's ``extra``, as the serial secret
# does (services/serials.py): it is no field of the core's ``GameState``, so neither the read
# model, the journal nor the API ever carries it.
HANDOFF_KEY = "bank_handoff"
HANDOFF_MINUTES = REJOIN_MINUTES


def issue_bank_handoff(game_id) -> str:
    """Makes a one-time secret that moves the banker role to the phone that redeems it (shown
    as a QR on the banker's device, valid 15 minutes). A new secret replaces the previous one.
    Refuses an unknown game (404)."""
    with writing():
        game = lock_game(game_id)
        secret = secrets.token_urlsafe(18)
        expires = now_utc() + dt.timedelta(minutes=HANDOFF_MINUTES)
        game.extra = {**(game.extra or {}), HANDOFF_KEY: {"hash": hash_secret(secret), "expires": expires.isoformat()}}
    return secret


def redeem_bank_handoff(game_id, secret) -> str:
    """Swaps a hand-off secret for a new banker token and voids the old one: the device that
    held the bank is signed out of it (a player seat it holds stays where it is). Returns the
    new token. Refuses an unknown game (404) and an unknown, used or expired secret (403)."""
    refusal = Forbidden(
        "invalid_handoff", N_("This code to take over the bank is not valid: ask the banker for a new one.")
    )
    if not isinstance(secret, str) or not secret or len(secret) > 64:
        raise refusal
    with writing():
        game = lock_game(game_id)
        handoff = (game.extra or {}).get(HANDOFF_KEY)
        if not isinstance(handoff, dict) or not secrets.compare_digest(handoff.get("hash", ""), hash_secret(secret)):
            raise refusal
        if dt.datetime.fromisoformat(handoff["expires"]) < now_utc():
            raise refusal
        token = secrets.token_urlsafe(24)
        game.banker_token_hash = hash_secret(token)
        game.extra = {k: v for k, v in game.extra.items() if k != HANDOFF_KEY}
        new_entry(game, Outcome("bank_handoff", undoable=False), BANKER)
    return token


def authenticate(game_id, token) -> Caller:
    """Who holds this token in this game. Refuses a missing token, and a token of another game
    or of nobody, alike (401): a token is worth nothing outside its own game."""
    return identify(get_game(game_id), token)


def identify(game: GameRecord, token) -> Caller:
    if not isinstance(token, str) or not token or len(token) > 200:
        raise Unauthorized("missing_token", N_("Sign in to this game first."))
    digest = hash_secret(token)
    if secrets.compare_digest(digest, game.banker_token_hash):
        return Caller(game.id, True, game.banker_player_id)
    player = next((p for p in game.players if p.token_hash == digest), None)
    if player is None:
        raise Unauthorized("invalid_token", N_("This sign-in is not valid for this game."))
    return Caller(game.id, False, player.id)
