"""The one place that changes games: load the state, ask the core, persist the outcome, in one
transaction. Pages and the API both call these functions and nothing else commits.

Every change takes the game's write lock first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ...
FOR UPDATE`` on PostgreSQL), so two phones acting at the same instant are serialised: both
land, or the second is refused by the rules on the state the first left. Never a lost update.
"""
from __future__ import annotations

import contextvars
import datetime as dt
import hashlib
import re
import secrets
import threading
import unicodedata
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Callable

from flask import current_app
from sqlalchemy import select

from .core import commands, rules
from .core.editions import Edition
from .core.errors import N_, BadInput, Forbidden, NotFound, RuleViolation, Unauthorized
from .core.ledger import BANK, balanced
from .core.ledger import Posting as CorePosting
from .core.rules.common import is_past
from .core.state import (RUNNING, SETUP, AuctionState, Change, DeedState, GameState, Outcome,
                         PlayerState, RentRequestState, TradeState)
from .models import Entry, Game, Holding, Player, Posting, Request, db, now_utc

_SQLITE_WRITERS = threading.Lock()
_TO_PUBLISH = "banco_to_publish"

# Read by the SQLite "begin" hook in companion/__init__.py: a write transaction starts with
# BEGIN IMMEDIATE so it holds the write lock from its first statement.
WRITE_INTENT: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_write_intent", default=False)

BANKER = "banker"
MAX_NAME = 40
MAX_KEY = 100
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed safely
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
REJOIN_MINUTES = 15
DEFAULT_AUCTION_SECONDS = 20


@dataclass(frozen=True)
class Caller:
    """Who is asking: the banker (who may also hold a seat) or one player."""

    game_id: str
    is_banker: bool
    player_id: str | None

    @property
    def actor(self) -> str:
        return BANKER if self.is_banker else self.player_id


# --- helpers ---------------------------------------------------------------------------------

def editions() -> dict[str, Edition]:
    return current_app.extensions["banco"]["editions"]


def edition_of(game: Game) -> Edition:
    return editions()[game.edition_id]


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _random(alphabet: str, length: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def normalise_join_code(code) -> str:
    if not isinstance(code, str):
        return ""
    return re.sub(r"[\s-]", "", code).upper()


def clean_name(name) -> str:
    """A player's name, trimmed; refuses non-text, empty names, control characters and names
    longer than 40 characters. Markup is allowed: it is only ever shown escaped."""
    if not isinstance(name, str):
        raise BadInput("invalid_name", N_("A name must be text."))
    name = " ".join(name.split())
    if not name:
        raise BadInput("invalid_name", N_("Enter a name."))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in name):
        raise BadInput("invalid_name", N_("A name cannot hold control characters."))
    if len(name) > MAX_NAME:
        raise BadInput("invalid_name", N_("A name can be at most %(max)s characters."), max=MAX_NAME)
    return name


@contextmanager
def writing():
    """One write transaction: commits on success, rolls back on any refusal or error.

    On SQLite the writers of this process also queue on one lock before asking for the
    database's: SQLite makes a blocked writer sleep and retry with growing pauses, so without
    a queue an unlucky phone could wait seconds while others keep winning the lock.
    """
    db.session.rollback()  # end the read transaction the request may have begun
    queue = _SQLITE_WRITERS if db.engine.dialect.name == "sqlite" else nullcontext()
    with queue:
        token = WRITE_INTENT.set(True)
        try:
            yield
            db.session.commit()
        except BaseException:
            db.session.info.pop(_TO_PUBLISH, None)
            db.session.rollback()
            raise
        finally:
            WRITE_INTENT.reset(token)
    # Announced only once committed, so no phone is told of a version it cannot read yet.
    broker = current_app.extensions["banco"]["broker"]
    for game_id, version in db.session.info.pop(_TO_PUBLISH, {}).items():
        broker.publish(game_id, version)


def _lock_game(game_id) -> Game:
    if not _plausible_id(game_id):
        raise NotFound("unknown_game", N_("There is no such game."))
    game = db.session.execute(select(Game).where(Game.id == game_id).with_for_update()).scalar_one_or_none()
    if game is None:
        raise NotFound("unknown_game", N_("There is no such game."))
    return game


_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def _plausible_id(value) -> bool:
    """Whether ``value`` could be one of our ids at all: anything else (a NUL byte, a page of
    text) is answered "not found" before it reaches the database."""
    return isinstance(value, str) and _SAFE_ID.match(value) is not None


def find_game(game_id) -> Game | None:
    return db.session.get(Game, game_id) if _plausible_id(game_id) else None


def get_game(game_id) -> Game:
    """The game with this id; refuses an unknown id (404)."""
    game = find_game(game_id)
    if game is None:
        raise NotFound("unknown_game", N_("There is no such game."))
    return game


def game_by_join_code(code) -> Game:
    """The game whose join code this is; refuses an unknown code (404)."""
    code = normalise_join_code(code)
    game = (db.session.execute(select(Game).where(Game.join_code == code)).scalar_one_or_none()
            if _plausible_id(code) else None)
    if game is None:
        raise NotFound("unknown_join_code", N_("No game has this code. Check it with the banker."))
    return game


def _new_entry(game: Game, outcome: Outcome, actor: str) -> Entry:
    game.version += 1
    db.session.info.setdefault(_TO_PUBLISH, {})[game.id] = game.version
    entry = Entry(game_id=game.id, version=game.version, kind=outcome.kind, actor=actor,
                  params=outcome.params, undoable=outcome.undoable,
                  changes=[[c.target, c.ref, c.field, c.before, c.after] for c in outcome.changes])
    db.session.add(entry)
    return entry


def _persist(game: Game, outcome: Outcome, actor: str) -> Entry:
    """Writes ``outcome``: the journal entry, its postings, cash and the changed fields."""
    entry = _new_entry(game, outcome, actor)
    players = {p.id: p for p in game.players}
    for posting in balanced(outcome.postings) if outcome.postings else ():
        entry.postings.append(Posting(game_id=game.id, account=posting.account, amount=posting.amount))
        if posting.account != BANK:
            players[posting.account].cash += posting.amount
    holdings = None
    for change in outcome.changes:
        if change.target == "game":
            setattr(game, change.field, change.after)
        elif change.target == "player":
            setattr(players[change.ref], change.field, change.after)
        elif change.target == "deed":
            if holdings is None:
                holdings = {h.deed_key: h for h in game.holdings}
            column = "owner_id" if change.field == "owner" else change.field
            setattr(holdings[change.ref], column, change.after)
        elif change.target == "auction":
            game.auction = change.after
        elif change.target in ("trade", "rent_request"):
            column = "trades" if change.target == "trade" else "rent_requests"
            documents = dict(getattr(game, column) or {})  # a new dict, so the JSON column is saved
            if change.after is None:
                documents.pop(change.ref, None)
            else:
                documents[change.ref] = change.after
            setattr(game, column, documents)
        else:
            raise ValueError(f"unknown change target {change.target!r}")
    return entry


def load_state(game: Game, deeds: bool = True) -> GameState:
    """The core's view of a game, read from its rows; without ``deeds`` the board is left out
    (money-only commands never read it, and it is most of the rows)."""
    return GameState(
        edition=edition_of(game),
        status=game.status,
        players={p.id: PlayerState(p.id, p.name, p.cash, p.in_jail, p.bankrupt, p.jail_cards)
                 for p in game.players},
        deeds={h.deed_key: DeedState(h.deed_key, h.owner_id, h.mortgaged, h.houses, h.hotel, h.fee_due)
               for h in game.holdings} if deeds else {},
        bank_small=game.bank_small,
        bank_big=game.bank_big,
        auction=AuctionState.from_dict(game.auction) if game.auction else None,
        trades={k: TradeState.from_dict(v) for k, v in (game.trades or {}).items()},
        rent_requests={k: RentRequestState.from_dict(v) for k, v in (game.rent_requests or {}).items()},
        auctions_held=game.auctions_held,
    )


# --- games and people ------------------------------------------------------------------------

def create_game(edition_id, names, time_limit_minutes=None, seed=None, *, auction_seconds=None,
                hand_out_tokens=True, banker_seat: int | None = None) -> dict:
    """Opens a game in ``setup`` with the named players and returns its secrets.

    With ``hand_out_tokens`` every player gets a token now (API clients); without, players
    claim their seats from their phones. ``banker_seat`` gives the host that seat too.
    Refuses: an unknown edition, a list of names that is not a list, more names than the
    edition seats, a bad or repeated name, a time limit that is not 1 to 1440 minutes, a
    seed that is not a whole number, an auction countdown that is not 5 to 600 seconds.
    """
    edition = editions().get(edition_id) if isinstance(edition_id, str) else None
    if edition is None:
        raise BadInput("unknown_edition", N_("There is no such edition."))
    if not isinstance(names, list):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    names = [clean_name(n) for n in names]
    if len(names) > edition.max_players:
        raise BadInput("too_many_players", N_("This game takes at most %(max)s players."), max=edition.max_players)
    if len({n.casefold() for n in names}) != len(names):
        raise BadInput("duplicate_name", N_("Two players cannot have the same name."))
    if time_limit_minutes is not None and (isinstance(time_limit_minutes, bool)
                                           or not isinstance(time_limit_minutes, int)
                                           or not 1 <= time_limit_minutes <= 1440):
        raise BadInput("invalid_time_limit", N_("The time limit must be 1 to 1440 minutes."))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 2**62):
        raise BadInput("invalid_seed", N_("The seed must be a whole number."))
    if auction_seconds is None:
        auction_seconds = DEFAULT_AUCTION_SECONDS
    elif isinstance(auction_seconds, bool) or not isinstance(auction_seconds, int) or not 5 <= auction_seconds <= 600:
        raise BadInput("invalid_auction_seconds", N_("The auction countdown must be 5 to 600 seconds."))
    if banker_seat is not None and not 0 <= banker_seat < len(names):
        raise BadInput("invalid_player", N_("There is no such player in this game."))

    with writing():
        banker_token = secrets.token_urlsafe(24)
        game = Game(id=_random(ID_ALPHABET, 10), edition_id=edition.id, status=SETUP, version=0,
                    join_code=_unused_join_code(), banker_token_hash=hash_secret(banker_token),
                    seed=seed, cash_private=edition.cash_private, auction_seconds=auction_seconds,
                    time_limit_seconds=time_limit_minutes * 60 if time_limit_minutes else None,
                    bank_small=edition.buildings.supply_small, bank_big=edition.buildings.supply_big)
        db.session.add(game)
        players = []
        for seat, name in enumerate(names):
            token = secrets.token_urlsafe(24) if hand_out_tokens or seat == banker_seat else None
            player = Player(id=_random(ID_ALPHABET, 8), game_id=game.id, seat=seat, name=name,
                            token_hash=hash_secret(token) if token else None)
            db.session.add(player)
            players.append((player, token))
        for deed in edition.deeds:
            db.session.add(Holding(game_id=game.id, deed_key=deed.key, position=deed.position))
        if banker_seat is not None:
            game.banker_player_id = players[banker_seat][0].id
        db.session.flush()
        _new_entry(game, Outcome("created", params={"players": len(names)}, undoable=False), BANKER)
    result = {"id": game.id, "join_code": game.join_code, "banker_token": banker_token,
              "players": [{"id": p.id, "name": p.name, "token": t} for p, t in players if t]}
    return result


def _unused_join_code() -> str:
    while True:
        code = _random(JOIN_ALPHABET, 6)
        if db.session.execute(select(Game.id).where(Game.join_code == code)).first() is None:
            return code


def join(game_id, join_code, name) -> dict:
    """Adds a player who joins with the game's code while it is in setup; returns their token.

    Refuses: an unknown game (404), a wrong code (403), a game already started (409), a full
    table (409), a bad name or one already taken (400/409).
    """
    name = clean_name(name)
    with writing():
        game = _lock_game(game_id)
        if not secrets.compare_digest(normalise_join_code(join_code), game.join_code):
            raise Forbidden("wrong_join_code", N_("That join code is not this game's."))
        if game.status != SETUP:
            raise RuleViolation("already_started", N_("The game has already started."))
        edition = edition_of(game)
        if len(game.players) >= edition.max_players:
            raise RuleViolation("table_full", N_("The table is full: at most %(max)s players."),
                                max=edition.max_players)
        if any(p.name.casefold() == name.casefold() for p in game.players):
            raise RuleViolation("name_taken", N_("%(name)s is already at this table."), name=name)
        token = secrets.token_urlsafe(24)
        player = Player(id=_random(ID_ALPHABET, 8), game_id=game.id, name=name, token_hash=hash_secret(token),
                        seat=max((p.seat for p in game.players), default=-1) + 1)
        db.session.add(player)
        db.session.flush()
        _new_entry(game, Outcome("join", params={"player": player.id}, undoable=False), player.id)
    return {"id": player.id, "name": player.name, "token": token}


def claim_seat(game_id, player_id) -> str:
    """Gives a phone the seat of a named player nobody holds yet; returns the new token.

    Refuses an unknown game or player (404) and a seat already held (409): a lost phone is
    replaced through the banker's rejoin code instead.
    """
    with writing():
        game = _lock_game(game_id)
        player = next((p for p in game.players if p.id == player_id), None)
        if player is None:
            raise NotFound("unknown_player", N_("There is no such player in this game."))
        if player.claimed:
            raise RuleViolation("seat_taken", N_("%(name)s is already playing on another phone. "
                                                 "Ask the banker for a rejoin code."), name=player.name)
        token = secrets.token_urlsafe(24)
        player.token_hash = hash_secret(token)
        _new_entry(game, Outcome("claim", params={"player": player.id}, undoable=False), player.id)
    return token


def issue_rejoin(game_id, player_id, minutes: int | None = REJOIN_MINUTES) -> str:
    """Makes a one-time rejoin secret for a player whose phone was lost or went flat; the
    banker shows it as a QR (valid 15 minutes) or prints it on a rejoin card (``minutes=None``:
    valid until used). A new secret replaces the player's previous one. Refuses an unknown
    player (404)."""
    with writing():
        game = _lock_game(game_id)
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
    with writing():
        player = db.session.execute(
            select(Player).where(Player.rejoin_hash == hash_secret(secret)).with_for_update()).scalar_one_or_none()
        if player is None or player.rejoin_expires is None or player.rejoin_expires < now_utc():
            raise Forbidden("invalid_rejoin", N_("This rejoin code is not valid. Ask the banker for a new one."))
        game = _lock_game(player.game_id)
        token = secrets.token_urlsafe(24)
        player.token_hash = hash_secret(token)
        player.rejoin_hash = None
        player.rejoin_expires = None
        _new_entry(game, Outcome("rejoin", params={"player": player.id}, undoable=False), player.id)
    return game.id, player.id, token


def authenticate(game_id, token) -> Caller:
    """Who holds this token in this game. Refuses a missing token, and a token of another game
    or of nobody, alike (401): a token is worth nothing outside its own game."""
    return _identify(get_game(game_id), token)


def _identify(game: Game, token) -> Caller:
    if not isinstance(token, str) or not token or len(token) > 200:
        raise Unauthorized("missing_token", N_("Sign in to this game first."))
    digest = hash_secret(token)
    if secrets.compare_digest(digest, game.banker_token_hash):
        return Caller(game.id, True, game.banker_player_id)
    player = next((p for p in game.players if p.token_hash == digest), None)
    if player is None:
        raise Unauthorized("invalid_token", N_("This sign-in is not valid for this game."))
    return Caller(game.id, False, player.id)


# --- actions ---------------------------------------------------------------------------------

def _acting_player(caller: Caller, payload: dict) -> str:
    requested = payload.get("player")
    if caller.is_banker:
        pid = requested if requested is not None else caller.player_id
        if pid is None:
            raise BadInput("player_required", N_("Choose the player the banker is acting for."))
        return pid
    if requested is not None and requested != caller.player_id:
        raise Forbidden("not_your_account", N_("You can only act for yourself."))
    return caller.player_id


def _banker_only(caller: Caller) -> None:
    if not caller.is_banker:
        raise Forbidden("banker_only", N_("Only the banker can do this."))


def _do_start(state, caller, payload, game):
    _banker_only(caller)
    return commands.start(state)


def _do_transfer(state, caller, payload, game):
    if "from" in payload:
        payer = payload["from"]
        if not caller.is_banker and payer != caller.player_id:
            raise Forbidden("not_your_account", N_("You can only pay with your own money."))
    else:
        payer = _acting_player(caller, payload)
    if "to" not in payload:
        raise BadInput("missing_field", N_("Say who receives the money."))
    return commands.transfer(state, payer, payload["to"], payload.get("amount"), payload.get("reason"))


def _do_collect(state, caller, payload, game):
    return commands.transfer(state, BANK, _acting_player(caller, payload), payload.get("amount"),
                             payload.get("reason"))


def _do_pay_fixed(state, caller, payload, game):
    return commands.pay_fixed(state, _acting_player(caller, payload), payload.get("payment"))


def _do_pass_go(state, caller, payload, game):
    return commands.pass_go(state, _acting_player(caller, payload), payload.get("dice"))


def _do_end(state, caller, payload, game):
    _banker_only(caller)
    return commands.end(state)


def _deed_action(rule):
    """An action on one deed by the acting player: ``buy``, ``build``, ``mortgage``..."""
    return lambda state, caller, payload, game: rule(state, _acting_player(caller, payload), payload.get("deed"))


def _player_action(rule):
    """An action of the acting player alone: the jail's."""
    return lambda state, caller, payload, game: rule(state, _acting_player(caller, payload))


def _do_sell_building(state, caller, payload, game):
    return rules.sell_building(state, _acting_player(caller, payload), payload.get("deed"),
                               break_hotel=payload.get("break_hotel") is True)


def _do_pay_rent(state, caller, payload, game):
    return rules.pay_rent(state, _acting_player(caller, payload), payload.get("deed"), payload.get("dice"))


def _do_rent_request(state, caller, payload, game):
    return rules.rent_request(state, _random(ID_ALPHABET, 8), _acting_player(caller, payload),
                              payload.get("payer"), payload.get("deed"), now_utc(), payload.get("dice"))


def _do_rent_confirm(state, caller, payload, game):
    return rules.rent_confirm(state, payload.get("request"), _acting_player(caller, payload), now_utc())


def _do_rent_lapse(state, caller, payload, game):
    by = None if caller.is_banker else caller.player_id
    return rules.rent_lapse(state, payload.get("request"), by, now_utc())


def _do_auction_start(state, caller, payload, game):
    return rules.auction_start(state, payload.get("deed"), now_utc(), game.auction_seconds)


def _do_building_auction_start(state, caller, payload, game):
    _banker_only(caller)
    return rules.building_auction_start(state, payload.get("building"), payload.get("deeds"), now_utc(),
                                        game.auction_seconds)


def _do_bid(state, caller, payload, game):
    return rules.bid(state, _acting_player(caller, payload), payload.get("amount"), now_utc(), payload.get("deed"))


def _do_auction_close(state, caller, payload, game):
    """The banker closes an auction at any time; anyone may once its countdown has run out."""
    auction = state.auction
    if not caller.is_banker and auction is not None and not is_past(now_utc(), auction.ends_at):
        raise Forbidden("auction_running", N_("The auction is still running: only the banker can close it now."))
    return rules.auction_close(state, now_utc(), payload.get("award_to"))


def _do_trade_propose(state, caller, payload, game):
    return rules.trade_propose(state, _random(ID_ALPHABET, 8), _acting_player(caller, payload), payload.get("to"),
                               payload.get("give"), payload.get("get"))


def _do_trade_accept(state, caller, payload, game):
    return rules.trade_accept(state, payload.get("trade"), _acting_player(caller, payload))


def _do_trade_reject(state, caller, payload, game):
    return rules.trade_reject(state, payload.get("trade"), _acting_player(caller, payload))


def _do_bankrupt(state, caller, payload, game):
    return rules.bankrupt(state, _acting_player(caller, payload), payload.get("creditor"))


ACTIONS: dict[str, Callable[[GameState, Caller, dict, Game], Outcome]] = {
    "start": _do_start,
    "transfer": _do_transfer,
    "collect": _do_collect,
    "pay_fixed": _do_pay_fixed,
    "pass_go": _do_pass_go,
    "end": _do_end,
    "buy": _deed_action(rules.buy),
    "pay_rent": _do_pay_rent,
    "rent_request": _do_rent_request,
    "rent_confirm": _do_rent_confirm,
    "rent_lapse": _do_rent_lapse,
    "build": _deed_action(rules.build),
    "sell_building": _do_sell_building,
    "mortgage": _deed_action(rules.mortgage),
    "unmortgage": _deed_action(rules.unmortgage),
    "pay_mortgage_fee": _deed_action(rules.pay_mortgage_fee),
    "auction_start": _do_auction_start,
    "building_auction_start": _do_building_auction_start,
    "bid": _do_bid,
    "auction_close": _do_auction_close,
    "trade_propose": _do_trade_propose,
    "trade_accept": _do_trade_accept,
    "trade_reject": _do_trade_reject,
    "bankrupt": _do_bankrupt,
    "go_to_jail": _player_action(rules.go_to_jail),
    "pay_jail_fine": _player_action(rules.pay_jail_fine),
    "use_jail_card": _player_action(rules.use_jail_card),
    "leave_jail_on_doubles": _player_action(rules.leave_jail_on_doubles),
    "draw_jail_card": _player_action(rules.draw_jail_card),
}
CLOCK_ACTIONS = ("clock_pause", "clock_resume")
MONEY_ACTIONS = frozenset({"start", "transfer", "collect", "pay_fixed", "pass_go", "end"})


def act(game_id, caller: Caller | None, payload, token: str | None = None) -> dict:
    """Runs one action for ``caller`` (or for whoever holds ``token``, checked inside the same
    transaction) and returns ``{"version", "result"}``.

    The same ``key`` from the same caller returns the first answer again and changes
    nothing. Refuses: a payload that is not an object, an unknown type, a key that is not
    text of at most 100 characters, and whatever the action itself refuses; a refusal
    changes nothing and is not remembered, so a corrected retry with the same key is judged
    afresh.
    """
    if not isinstance(payload, dict):
        raise BadInput("invalid_json", N_("Send a JSON object."))
    kind = payload.get("type")
    if not isinstance(kind, str) or (kind not in ACTIONS and kind != "undo" and kind not in CLOCK_ACTIONS):
        raise BadInput("unknown_action", N_("Unknown action."))
    key = payload.get("key")
    if key is not None and (not isinstance(key, str) or not key or len(key) > MAX_KEY or not key.isprintable()):
        raise BadInput("invalid_key", N_("The request key must be printable text of at most 100 characters."))
    with writing():
        game = _lock_game(game_id)
        if caller is None:
            caller = _identify(game, token)
        if game.id != caller.game_id:
            raise Unauthorized("invalid_token", N_("This sign-in is not valid for this game."))
        if key is not None:
            seen = db.session.execute(select(Request).where(
                Request.game_id == game.id, Request.actor == caller.actor, Request.key == key)).scalar_one_or_none()
            if seen is not None:
                return seen.response
        if caller.player_id and not caller.is_banker:
            me = next(p for p in game.players if p.id == caller.player_id)
            if me.bankrupt:
                raise Forbidden("spectator", N_("You are out of the game and can only watch."))
        if kind == "undo":
            _banker_only(caller)
            entry = _undo(game)
        elif kind in CLOCK_ACTIONS:
            _banker_only(caller)
            entry = _clock(game, kind)
        else:
            state = load_state(game, deeds=kind not in MONEY_ACTIONS)
            outcome = ACTIONS[kind](state, caller, payload, game)
            entry = _persist(game, outcome, caller.actor)
            if kind == "start":
                _clock_reset(game)
            elif kind == "end":
                _clock_stop(game)
            if outcome.result:
                entry.params = {**entry.params, **{"result": outcome.result}}
        response = {"version": game.version, "result": _result(game, caller, entry)}
        if key is not None:
            db.session.add(Request(game_id=game.id, actor=caller.actor, key=key, response=response))
    return response


def preview(game: Game, caller: Caller, payload: dict, state: GameState | None = None) -> Outcome:
    """What ``payload`` would do now, computed by the same rules and written nowhere: the pages
    show the amount and the payee before anyone confirms, and offer only what the rules allow.
    Rules never change the state they read, so a page previewing several actions passes one
    ``state`` for all. Refuses exactly as ``act`` would."""
    kind = payload.get("type")
    if kind not in ACTIONS:
        raise BadInput("unknown_action", N_("Unknown action."))
    return ACTIONS[kind](state or load_state(game), caller, payload, game)


def _result(game: Game, caller: Caller, entry: Entry) -> dict:
    result = {"entry": entry.version, "type": entry.kind}
    result.update(entry.params.get("result", {}))
    if caller.player_id:
        me = next(p for p in game.players if p.id == caller.player_id)
        result["cash"] = me.cash
    return result


def undo_target(game: Game) -> Entry | None:
    """The entry the next undo would reverse: the newest one not yet reversed."""
    return db.session.execute(
        select(Entry).where(Entry.game_id == game.id, Entry.undoable.is_(True), Entry.reversed_by.is_(None))
        .order_by(Entry.version.desc()).limit(1)).scalar_one_or_none()


def _undo(game: Game) -> Entry:
    target = undo_target(game)
    if target is None:
        raise RuleViolation("nothing_to_undo", N_("There is nothing left to undo."))
    state = load_state(game)
    outcome = commands.undo(state, target.kind, target.version,
                            [CorePosting(p.account, p.amount) for p in target.postings],
                            [Change(*c) for c in target.changes])
    entry = _persist(game, outcome, BANKER)
    db.session.flush()
    entry.reverses = target.id
    target.reversed_by = entry.id
    # An undone end leaves the clock paused where the end stopped it: the banker resumes it.
    return entry


def _clock_reset(game: Game) -> None:
    game.clock_elapsed_seconds = 0.0
    game.clock_running_since = now_utc() if game.time_limit_seconds else None


def _clock_stop(game: Game) -> None:
    if game.clock_running_since is not None:
        game.clock_elapsed_seconds += (now_utc() - game.clock_running_since).total_seconds()
        game.clock_running_since = None


def _clock(game: Game, kind: str) -> Entry:
    if not game.time_limit_seconds:
        raise RuleViolation("no_clock", N_("This game has no time limit."))
    if game.status != RUNNING:
        raise RuleViolation("game_not_running", N_("The clock runs only while the game is on."))
    if kind == "clock_pause":
        if game.clock_running_since is None:
            raise RuleViolation("clock_paused", N_("The clock is already paused."))
        _clock_stop(game)
    else:
        if game.clock_running_since is not None:
            raise RuleViolation("clock_running", N_("The clock is already running."))
        game.clock_running_since = now_utc()
    return _persist(game, Outcome(kind, undoable=False), BANKER)


def clock_view(game: Game) -> dict | None:
    """The clock as the API shows it, or ``None`` for a game without a time limit."""
    if not game.time_limit_seconds:
        return None
    elapsed = game.clock_elapsed_seconds
    running = game.status == RUNNING and game.clock_running_since is not None
    if running:
        elapsed += (now_utc() - game.clock_running_since).total_seconds()
    return {"limit_seconds": game.time_limit_seconds,
            "remaining_seconds": max(0, int(game.time_limit_seconds - elapsed)),
            "running": running}


# --- reading ---------------------------------------------------------------------------------

def can_see_cash(game: Game, caller: Caller | None, player_id: str) -> bool:
    """Whether ``caller`` may see that player's cash: always the banker and the player
    themselves; everyone else only when the game does not keep cash private."""
    if not game.cash_private:
        return True
    return caller is not None and (caller.is_banker or caller.player_id == player_id)


def game_state(game: Game, caller: Caller | None) -> dict:
    """The game as ``GET /api/v1/games/{id}`` returns it to this caller."""
    return {
        "id": game.id,
        "edition": game.edition_id,
        "status": game.status,
        "version": game.version,
        "join_code": game.join_code if caller is not None else None,
        "banker_player": game.banker_player_id,
        "cash_private": game.cash_private,
        "players": [{"id": p.id, "name": p.name, "seat": p.seat, "claimed": p.claimed,
                     "cash": p.cash if can_see_cash(game, caller, p.id) else None,
                     "in_jail": p.in_jail, "bankrupt": p.bankrupt, "jail_cards": p.jail_cards}
                    for p in game.players],
        "deeds": [{"key": h.deed_key, "owner": h.owner_id, "mortgaged": h.mortgaged,
                   "houses": h.houses, "hotel": h.hotel, "fee_due": h.fee_due} for h in game.holdings],
        "bank": {"houses": game.bank_small, "hotels": game.bank_big},
        "auction": game.auction,
        "auction_seconds": game.auction_seconds,
        "trades": list((game.trades or {}).values()),
        "rent_requests": list((game.rent_requests or {}).values()),
        "clock": clock_view(game),
    }


def entries_since(game: Game, since=0, limit: int = 500) -> list[Entry]:
    """The journal after version ``since``, oldest first; refuses a ``since`` that is not a
    whole number of zero or more."""
    if isinstance(since, str):
        if not since.isdigit():
            raise BadInput("invalid_since", N_("since must be a whole number."))
        since = int(since)
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise BadInput("invalid_since", N_("since must be a whole number."))
    return list(db.session.execute(
        select(Entry).where(Entry.game_id == game.id, Entry.version > since)
        .order_by(Entry.version).limit(limit)).scalars())


def entry_at(game: Game, version: int) -> Entry:
    return db.session.execute(select(Entry).where(Entry.game_id == game.id, Entry.version == version)).scalar_one()


def recent_entries(game: Game, count: int = 30) -> list[Entry]:
    """The newest ``count`` entries, newest first (the feed)."""
    return list(db.session.execute(
        select(Entry).where(Entry.game_id == game.id).order_by(Entry.version.desc()).limit(count)).scalars())


def journal_balances(game: Game) -> dict[str, int]:
    """Each account's balance summed from the journal (the check that cash matches it)."""
    rows = db.session.execute(
        select(Posting.account, db.func.sum(Posting.amount)).where(Posting.game_id == game.id)
        .group_by(Posting.account)).all()
    return {account: int(total) for account, total in rows}


def current_version(game_id: str) -> int | None:
    return db.session.execute(select(Game.version).where(Game.id == game_id)).scalar_one_or_none()
