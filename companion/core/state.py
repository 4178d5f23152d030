"""A game as the rules see it: plain dataclasses loaded by the service layer, never saved
directly. Rules read a ``GameState`` and return an ``Outcome``; the service layer applies it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .editions import Edition
from .ledger import Posting

SETUP, RUNNING, FINISHED = "setup", "running", "finished"


@dataclass
class PlayerState:
    id: str
    name: str
    cash: int = 0
    in_jail: bool = False
    bankrupt: bool = False
    jail_cards: int = 0


@dataclass
class DeedState:
    key: str
    owner: str | None = None
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False
    # Received mortgaged from another player: the owner owes the transfer fee or lifts it.
    fee_due: bool = False


@dataclass
class AuctionState:
    """The one open auction: of a deed nobody owns (``lot`` "deed"), or in a building shortage
    of one of the bank's small or big buildings (``lot`` "small" or "big") for one of
    ``deeds``, the deeds concerned. ``ends_at`` (ISO 8601) moves on by ``countdown_seconds``
    at each bid; ``excluded`` holds winners who could not pay in an earlier run."""

    id: str
    lot: str
    deed: str | None
    deeds: list[str]
    opening_bid: int
    min_raise: int
    countdown_seconds: int
    ends_at: str
    high_bid: int | None = None
    high_bidder: str | None = None
    high_deed: str | None = None
    excluded: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AuctionState":
        return cls(**{**data, "deeds": list(data["deeds"]), "excluded": list(data["excluded"])})


@dataclass
class TradeState:
    """A trade ``proposer`` offered ``recipient``, waiting for an answer. ``give`` is what the
    proposer hands over and ``get`` what they ask for, each
    ``{"cash": int, "deeds": [keys], "jail_cards": int}``."""

    id: str
    proposer: str
    recipient: str
    give: dict[str, Any]
    get: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TradeState":
        return cls(data["id"], data["proposer"], data["recipient"],
                   _side(data["give"]), _side(data["get"]))


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {"cash": side["cash"], "deeds": list(side["deeds"]), "jail_cards": side["jail_cards"]}


@dataclass
class RentRequestState:
    """An owner's request that ``payer`` pay ``amount`` of rent on ``deed``, waiting for the
    payer to confirm. ``lapses_at`` (ISO 8601) is ``None`` when only a person can lapse it."""

    id: str
    deed: str
    owner: str
    payer: str
    amount: int
    dice: int | None
    requested_at: str
    lapses_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RentRequestState":
        return cls(**data)


@dataclass
class GameState:
    edition: Edition
    status: str
    players: dict[str, PlayerState]  # in seat order
    deeds: dict[str, DeedState] = field(default_factory=dict)
    bank_small: int | None = None
    bank_big: int | None = None
    auction: AuctionState | None = None
    trades: dict[str, TradeState] = field(default_factory=dict)
    rent_requests: dict[str, RentRequestState] = field(default_factory=dict)
    auctions_held: int = 0

    def player(self, player_id: str) -> PlayerState | None:
        return self.players.get(player_id)

    def active_players(self) -> list[PlayerState]:
        return [p for p in self.players.values() if not p.bankrupt]


@dataclass(frozen=True)
class Change:
    """One field of the state going from ``before`` to ``after``; undo swaps the two.

    ``target`` is ``"game"``, ``"player"`` or ``"deed"``; ``ref`` the player id or deed key
    (``None`` for the game itself). The targets ``"auction"`` (ref ``None``), ``"trade"`` (ref
    the trade id) and ``"rent_request"`` (ref the request id) have the one field ``"state"``:
    the object's ``to_dict()``, or ``None`` when there is none.
    """

    target: str
    ref: str | None
    field: str
    before: Any
    after: Any

    def inverse(self) -> "Change":
        return Change(self.target, self.ref, self.field, self.after, self.before)


@dataclass(frozen=True)
class Outcome:
    """What a command does: the money it moves, the state it changes, and how the feed
    describes it (``kind`` plus ``params``, turned into words by the page in the reader's
    language). ``undoable`` is false for changes the banker cannot take back (a player
    joining)."""

    kind: str
    postings: tuple[Posting, ...] = ()
    changes: tuple[Change, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    undoable: bool = True
