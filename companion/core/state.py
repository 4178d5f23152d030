"""A game as the rules see it: frozen dataclasses loaded by the service layer, never saved
directly. Rules read a ``GameState`` and return an ``Outcome``; ``changes.apply_outcome`` is the
one place that turns an outcome into a new state, for persistence, undo and the tests alike.

A state never changes once made: its fields cannot be set, and its dicts and lists are
``frozen.FrozenDict`` and ``FrozenList``, so a rule that writes to what it read fails at once.
That is what lets one state be shared, between the requests reading one version and between
the actions of one table, with no copy.

Per-game state is declared here once. A plain field of ``GameState``, ``PlayerState`` or
``DeedState`` with a JSON default (a lap count, a chip count) is changed by ``Change("game" |
"player" | "deed", ...)`` and stored without any other edit. A *document* (an open auction, a
trade, money waiting for a yes) is a field made with ``document`` or ``documents``: its
``target`` names it in Changes, and the whole object is replaced at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NoReturn, Self

from .editions.edition import Edition
from .frozen import THAWED, freeze, thaw
from .ledger import Posting

SETUP, RUNNING, FINISHED = "setup", "running", "finished"


def _freeze_fields(obj: object) -> None:
    """Makes the dicts and lists a frozen dataclass was given frozen ones (a dataclass's
    ``__post_init__``): whoever built it keeps no way to change it."""
    held = obj.__dict__
    for name, value in held.items():
        if type(value) in THAWED:
            held[name] = freeze(value)


class Document:
    """A small object the rules replace whole; stored as its ``to_dict()``."""

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def to_dict(self) -> dict[str, Any]:
        """The document as plain JSON values: new dicts and lists, the caller's to change."""
        return {name: thaw(value) for name, value in self.__dict__.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(**data)


@dataclass(frozen=True)
class PlayerState:
    id: str
    name: str
    cash: int = 0
    in_jail: bool = False
    bankrupt: bool = False
    jail_cards: int = 0
    # Times round the board (each GO): a mortgage with a lap deadline counts in them.
    laps: int = 0
    # The order players left the game in (1 for the first out): leaving later is a better place.
    out_order: int | None = None
    # The turn (``GameState.turn_seq``) in which the player last built, and last tried an
    # expropriation: rules that allow something once per turn read them.
    # Green decoder chips left (Niente è come sembra); ``None`` where the edition has none.
    chips: int | None = None
    built_turn: int | None = None
    expropriation_turn: int | None = None
    # Turns the player still has to sit out (a square such as Motopolis' Sosta bisognino), and
    # whether they may not trade until then; ``core.turns`` skips them and clears both.
    skip_turns: int = 0
    no_trades: bool = False
    # The player's own turns begun in jail, where the edition's jail counts them (leaving only
    # from the next turn, free after a number of turns).
    jail_turns: int = 0


@dataclass(frozen=True)
class DeedState:
    key: str
    owner: str | None = None
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False
    # Received mortgaged from another player: the owner owes the transfer fee or lifts it.
    fee_due: bool = False
    # The owner's lap count when it was mortgaged, under a mortgage with a lap deadline.
    mortgage_lap: int | None = None
    # The turn (``GameState.turn_seq``) in which it changed hands by expropriation: no building on
    # it until the next.
    taken_turn: int | None = None


@dataclass(frozen=True)
class AuctionState(Document):
    """The one open auction: of a deed nobody owns (``lot`` "deed"), or in a building shortage
    of one of the bank's small or big buildings (``lot`` "small" or "big") for one of
    ``deeds``, the deeds concerned. ``ends_at`` (ISO 8601) moves on by ``countdown_seconds``
    at each bid; ``excluded`` holds winners who could not pay in an earlier run; ``decliner``
    is the player who landed on the deed, declined to buy it and opened its auction (where the
    edition says so, they do not bid)."""

    id: str
    lot: str
    deed: str | None
    deeds: Sequence[str]
    opening_bid: int
    min_raise: int
    countdown_seconds: int
    ends_at: str
    high_bid: int | None = None
    high_bidder: str | None = None
    high_deed: str | None = None
    excluded: Sequence[str] = field(default_factory=list)
    decliner: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuctionState:
        return cls(**{**data, "deeds": list(data["deeds"]), "excluded": list(data["excluded"])})


@dataclass(frozen=True)
class TradeState(Document):
    """A trade ``proposer`` offered ``recipient``, waiting for an answer. ``give`` is what the
    proposer hands over and ``get`` what they ask for, each
    ``{"cash": int, "deeds": [keys], "jail_cards": int}``."""

    id: str
    proposer: str
    recipient: str
    give: Mapping[str, Any]
    get: Mapping[str, Any]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TradeState:
        return cls(data["id"], data["proposer"], data["recipient"], _side(data["give"]), _side(data["get"]))


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {"cash": side["cash"], "deeds": list(side["deeds"]), "jail_cards": side["jail_cards"]}


PAYER, BANKER = "payer", "banker"


@dataclass(frozen=True)
class PendingState(Document):
    """Money that waits for a yes: ``amount`` from ``payer`` to ``payee`` (accounts), moved only
    when whoever it ``needs`` (the payer, or the banker) approves it.

    ``asked_by`` is who proposed it (a player id, or ``"banker"``) and may withdraw it.
    ``kind`` and ``params`` are the journal entry the approval writes (``"pay_rent"`` with its
    deed, ``"transfer"`` with its reason...), so an approved payment reads in the feed as what
    it is. ``expires_at`` (ISO 8601), when set, is the moment after which it can no longer be
    approved.
    """

    id: str
    payer: str
    payee: str
    amount: int
    needs: str
    asked_by: str
    kind: str
    params: Mapping[str, Any]
    at: str
    expires_at: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PendingState:
        return cls(**{**data, "params": dict(data["params"])})


@dataclass(frozen=True)
class ExpropriationState(Document):
    """An expropriation under way (Che Impresa!): ``buyer`` tries to take ``deeds`` (one land,
    or its whole lot when ``owner`` holds all of it) from ``owner``. ``stage`` is whose die
    rolls next (``"buyer"``, ``"owner"``), or ``"settle"`` when a roll's ``owed`` amount waits
    for the buyer's cash; ``value`` is the deeds' price, ``penalty`` what a NO costs; ``rolls``
    lists every face so far, ``{"by", "face", "virtual"}``; ``via`` says what allowed it
    (``"rent"`` just paid on the deed, or a square's key)."""

    id: str
    buyer: str
    owner: str
    deed: str
    deeds: Sequence[str]
    whole_lot: bool
    value: int
    penalty: int
    via: str
    stage: str
    rolls: Sequence[Mapping[str, Any]] = field(default_factory=list)
    owed: Mapping[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExpropriationState:
        return cls(
            **{
                **data,
                "deeds": list(data["deeds"]),
                "rolls": [dict(r) for r in data["rolls"]],
                "owed": dict(data["owed"]) if data.get("owed") else None,
            }
        )


@dataclass(frozen=True)
class NotesState(Document):
    """The electronic notes of a game with fake money (Niente è come sembra, ``core.counterfeits.notes``):
    each player's notes in hand, ``hands[player] = [{"id", "face", "fake"}]``, whose faces
    always sum to the player's cash, and how many notes the bank has handed out so far
    (``drawn``: note n is fake or not by the game's seed and n). Never shown as it is: the
    read model shows a player only their own counts by face."""

    drawn: int = 0
    hands: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NotesState:
        return cls(data["drawn"], {k: [dict(n) for n in v] for k, v in data["hands"].items()})


@dataclass(frozen=True)
class CheckableState(Document):
    """A payment (or a Chance card played) open to a decoder check until ``check_until``
    (ISO 8601): ``payer`` handed ``notes`` (``[{"id", "face", "fake"}]``, never shown) to
    ``payee`` (a player id or ``"bank"``) in the entry of ``kind``; ``parties`` are the players
    in it. ``card`` is the Chance card played instead of notes. ``checked`` is the one check
    it took: ``{"by", "fake", "face"}``."""

    id: str
    payer: str
    payee: str
    parties: Sequence[str]
    amount: int
    notes: Sequence[Mapping[str, Any]]
    kind: str
    at: str
    check_until: str
    card: str | None = None
    checked: Mapping[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckableState:
        return cls(
            **{
                **data,
                "parties": list(data["parties"]),
                "notes": [dict(n) for n in data["notes"]],
                "checked": dict(data["checked"]) if data.get("checked") else None,
            }
        )


@dataclass(frozen=True)
class ChanceState(Document):
    """The Imprevisti deck (Niente è come sembra): ``pile`` the cards face down, top first;
    ``board`` the three face up; ``hands[player]`` the cards a player drew and keeps until
    played. A card is ``{"id", "fake"}``: never shown whether it is fake."""

    pile: Sequence[Mapping[str, Any]] = field(default_factory=list)
    board: Sequence[Mapping[str, Any]] = field(default_factory=list)
    hands: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChanceState:
        return cls(
            [dict(c) for c in data["pile"]],
            [dict(c) for c in data["board"]],
            {k: [dict(c) for c in v] for k, v in data["hands"].items()},
        )


def document(target: str, kind: type[Document]) -> Any:
    """A field holding at most one document, changed by ``Change(target, None, "state", ...)``."""
    return field(default=None, metadata={"target": target, "document": kind, "many": False})


def documents(target: str, kind: type[Document]) -> Any:
    """A field holding documents by id, each changed by ``Change(target, id, "state", ...)``."""
    return field(default_factory=dict, metadata={"target": target, "document": kind, "many": True})


class NotLoaded(Mapping[str, Any]):
    """Stands for a part of the state the action did not declare it reads: any use of it is a
    programming error, raised at once, never an empty board seen in silence."""

    def __init__(self, part: str) -> None:
        self.part = part

    def _refuse(self) -> NoReturn:
        raise LookupError(f"the {self.part} were not loaded: declare that the action reads them")

    def __getitem__(self, key: str) -> NoReturn:
        self._refuse()

    def __iter__(self) -> Iterator[str]:
        self._refuse()

    def __len__(self) -> int:
        self._refuse()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NotLoaded) and other.part == self.part

    def __repr__(self) -> str:
        return f"NotLoaded({self.part!r})"

    def get(self, key: str, default: Any = None) -> NoReturn:
        self._refuse()


@dataclass(frozen=True)
class GameState:
    """``settings`` are the game's own choices made at creation (``core.settings``); ``pots``
    the balances of the accounts that are neither the bank nor a player (the Free Parking
    pot), changed only by postings."""

    edition: Edition
    status: str
    players: Mapping[str, PlayerState]  # in seat order
    deeds: Mapping[str, DeedState] = field(default_factory=dict)
    bank_small: int | None = None
    bank_big: int | None = None
    auctions_held: int = 0
    settings: Mapping[str, Any] = field(default_factory=dict)
    pots: Mapping[str, int] = field(default_factory=dict)
    # Fixed at creation: every random part of the game (dealt deeds, the server's dice) is
    # drawn from it, so the same seed plays out the same.
    seed: int | None = None
    # Where the edition counts turns (``core.turns``): whose turn, the round, and every turn so far.
    turn_player: str | None = None
    turn_round: int = 0
    turn_seq: int = 0
    # The last rent paid, where a rule needs it (an expropriation follows the rent of that turn).
    last_rent: Mapping[str, Any] | None = None
    # The deeds the player in turn had mortgaged when the turn began: a bankruptcy in that turn
    # hands deeds over as they were then (the championship's FAQ 32).
    turn_start_mortgaged: Sequence[str] | None = None
    # Deeds that came back to the bank from a bankruptcy, auctioned one after another.
    auction_queue: Sequence[str] = field(default_factory=list)
    # The play-offs of a tie for first place (``core.play_off``), each the ids of the players
    # who played it, in order: they go before the others in the final count.
    play_offs: Sequence[Sequence[str]] = field(default_factory=list)
    # The dice the server rolled (``core.dice``): how many rolls so far (roll n draws from the
    # seed and n), and the last one, ``{"player", "dice", "faces", "total", "doubles"}``.
    rolls: int = 0
    last_roll: Mapping[str, Any] | None = None
    auction: AuctionState | None = document("auction", AuctionState)
    trades: Mapping[str, TradeState] = documents("trade", TradeState)
    pending: Mapping[str, PendingState] = documents("pending", PendingState)
    expropriation: ExpropriationState | None = document("expropriation", ExpropriationState)
    # Niente è come sembra's fake money (``core.counterfeits.notes``): the notes in hand, the payments open
    # to a check, the Imprevisti deck.
    notes: NotesState | None = document("notes", NotesState)
    checkable: Mapping[str, CheckableState] = documents("checkable", CheckableState)
    chance: ChanceState | None = document("chance", ChanceState)

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def player(self, player_id: str) -> PlayerState | None:
        return self.players.get(player_id)

    def active_players(self) -> list[PlayerState]:
        return [p for p in self.players.values() if not p.bankrupt]

    def setting(self, name: str) -> Any:
        """The game's value of a setting, or the setting's default."""
        from .settings import default_of

        return self.settings.get(name, default_of(name))


@dataclass(frozen=True)
class DocumentField:
    attr: str
    kind: type[Document]
    many: bool


# The declarations above, read once: target name -> where its documents live.
DOCUMENT_FIELDS: dict[str, DocumentField] = {
    f.metadata["target"]: DocumentField(f.name, f.metadata["document"], f.metadata["many"])
    for f in fields(GameState)
    if "target" in f.metadata
}
# Fields of GameState that a Change("game", None, name, ...) may set.
GAME_SCALARS = frozenset(
    f.name
    for f in fields(GameState)
    if "target" not in f.metadata and f.name not in ("edition", "players", "deeds", "settings", "pots", "seed")
)


@dataclass(frozen=True)
class Change:
    """One field of the state going from ``before`` to ``after``; undo swaps the two.

    ``target`` is ``"game"``, ``"player"`` or ``"deed"``, with ``ref`` the player id or deed
    key (``None`` for the game itself); or a document's target (``"auction"``, ``"trade"``,
    ``"pending"``...), with ``ref`` the document's id (``None`` for a single one), the one
    field ``"state"``, and the document's ``to_dict()`` or ``None`` when there is none.
    """

    target: str
    ref: str | None
    field: str
    before: Any
    after: Any

    def inverse(self) -> Change:
        return Change(self.target, self.ref, self.field, self.after, self.before)


def document_change(target: str, ref: str | None, before: Document | None, after: Document | None) -> Change:
    """The Change that replaces one document (``None`` for none)."""
    return Change(target, ref, "state", before.to_dict() if before else None, after.to_dict() if after else None)


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
