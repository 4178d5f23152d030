"""What an action is, declared once: the payload it reads, the rule it runs, what it touches.

A declaration (``Action``) names the payload's fields with their kinds, read strictly: a
field the action does not know is refused naming it, a value of the wrong kind is refused
naming the field and what it must be. The handler gets the fields as read (``Asked``), with
the few things the table gives every action: who asks, the time, a fresh id, the game's
serial secret and its clock's limit. Everything else an action is (the parts of the pages it
changes, its line in the feed, its notice, its form) is read from the same declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import N_, BadInput, BancoError, Forbidden, NotFound
from ..money import whole_units
from ..state import BANKER, GameState, Outcome
from .lines import Line, Say, Tell

if TYPE_CHECKING:
    from ..editions.edition import Edition

# The part of the pages that shows the game's clock (``core.parts`` names them all; it reads the
# declarations, so they name its parts by their words).
CLOCK_PART = "clock"


@dataclass(frozen=True)
class Step:
    """Work that no rule of the core does, on what the core never sees (the journal's own
    entries, the game's clock): named by the declarations that need it, carried out by the
    services' function of that name (``services.steps``)."""

    name: str


# How the actions that no rule runs are carried out (an action's ``step``).
UNDO = Step("undo")  # the newest entry not yet reversed, reversed by a new one
TAKE_BACK = Step("take_back")  # the acting player's own one-tap GO or tax, while it is the newest entry
PAUSE_CLOCK = Step("pause_clock")
RESUME_CLOCK = Step("resume_clock")
# What the game's clock does once an action's entry is written (its ``clock``) or undone (its
# ``clock_undone``); after any other action, a game that is over has its clock stopped.
CLOCK_FROM_ZERO = Step("clock_from_zero")  # from zero, running where the game has a time limit
PLAY_OFF_CLOCK = Step("play_off_clock")  # the play-off's minutes more, from where it stopped
CLOCK_AT_THE_END = Step("clock_at_the_end")  # back to the game's end: stopped, with the limit it had
CLOCK_OF_THE_UNDONE = Step("clock_of_the_undone")  # what the undone entry's action says of its undo

# The fields every action takes: its type, and the client's idempotency key (checked by the
# door before the action is read).
COMMON = ("type", "key")


class Who(Protocol):
    """Who asks: the banker (who may also hold a seat), or one player."""

    @property
    def is_banker(self) -> bool: ...

    @property
    def player_id(self) -> str | None: ...


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# The error and code a field's rule answers a value it does not know (a deed, a player, a
# trade...): a value of the wrong kind is one, and is answered alike, its message naming the
# field and its kind.
Refusal = tuple[type[BancoError], str]


@dataclass(frozen=True)
class Kind:
    """What a field's value must be: its JSON schema, the test, and the refusal of anything
    else (``code``, and a message naming the field as ``%(field)s`` and what it must be)."""

    schema: Mapping[str, Any]
    test: Callable[[object], bool]
    message: str
    code: str = "invalid_field"

    def check(self, field: Field, value: object) -> None:
        """Refuses ``value`` for ``field`` unless it is of this kind: with the field's
        ``refusal`` (the error and code its rule gives a value it does not know) when it has
        one, else 400 with the kind's code; the message names the field, and its choices when
        only some texts make sense."""
        if not self.test(value):
            error, code = field.refusal or (BadInput, self.code)
            if field.choices:
                raise error(
                    code,
                    N_("The field %(field)s must be one of %(choices)s."),
                    field=field.name,
                    choices=", ".join(field.choices),
                )
            raise error(code, self.message, field=field.name)


class _Amount(Kind):
    """An amount: whole units, refused as every amount is (``money.whole_units``)."""

    def check(self, field: Field, value: object) -> None:
        whole_units(value)


TEXT = Kind({"type": "string"}, lambda value: isinstance(value, str), N_("The field %(field)s must be text."))
# A payment's reason: text the rule keeps to 80 characters.
REASON_TEXT = Kind(
    {"type": "string", "maxLength": 80}, lambda value: isinstance(value, str), N_("The field %(field)s must be text.")
)
FLAG = Kind(
    {"type": "boolean"}, lambda value: isinstance(value, bool), N_("The field %(field)s must be true or false.")
)
TEXTS = Kind({"type": "array", "items": {"type": "string"}}, _texts, N_("The field %(field)s must be a list of texts."))
AMOUNT = _Amount({"type": "integer", "minimum": 1}, _whole, N_("Enter an amount in whole units."), "invalid_amount")
# A dice total typed by a player (the rule says which totals the edition's dice allow).
DICE_TOTAL = Kind(
    {"type": "integer", "minimum": 1}, _whole, N_("The field %(field)s must be a whole number."), "invalid_dice"
)
COUNTS = Kind(
    {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
    lambda value: isinstance(value, dict),
    N_("The field %(field)s must be an object."),
    "invalid_counts",
)
TRADE_SIDE = Kind(
    {"$ref": "#/components/schemas/TradeSide"},
    lambda value: isinstance(value, dict),
    N_("The field %(field)s must be an object."),
    "invalid_trade",
)


@dataclass(frozen=True)
class Field:
    """One field of a payload: its name, its kind, and what it means for the action (the
    OpenAPI document's words; ``choices`` when only some texts make sense there); ``refusal``
    the error and code the rule answers a value it does not know, and so one of the wrong
    kind."""

    name: str
    kind: Kind
    about: str = ""
    choices: tuple[str, ...] = ()
    refusal: Refusal | None = None


@dataclass(frozen=True)
class Asked:
    """One action as asked: who asks, the payload's fields as read, and what the table gives
    every action (the time, a fresh id, the game's serial secret, its clock's limit, and
    whether its time is up)."""

    by: Who
    fields: Mapping[str, Any]
    now: datetime
    new_id: Callable[[], str]
    secret: str | None = None
    clock_limit: int | None = None
    time_up: bool = False

    def get(self, name: str, default: Any = None) -> Any:
        """A field's value as read, or ``default`` when left out."""
        return self.fields.get(name, default)

    def player(self) -> str:
        """The acting player (``acting_player``)."""
        return acting_player(self.by, self.fields)

    def approver(self) -> str:
        """Who says yes or no to money waiting: the banker as the bank (unless acting for a
        named player), else the acting player."""
        if self.by.is_banker and self.fields.get("player") is None:
            return BANKER
        return self.player()


def acting_player(by: Who, fields: Mapping[str, Any]) -> str:
    """The player an action is for: the caller's own, or the one the banker names as
    ``player``. Refuses a banker without a seat who names nobody (400) and a player who names
    another (403)."""
    requested = fields.get("player")
    if by.is_banker:
        pid = requested if requested is not None else by.player_id
        if pid is None:
            raise BadInput("player_required", N_("Choose the player the banker is acting for."))
        return str(pid)
    if by.player_id is None or (requested is not None and requested != by.player_id):
        raise Forbidden("not_your_account", N_("You can only act for yourself."))
    return by.player_id


Handler = Callable[[GameState, Asked], Outcome]

UNKNOWN_PLAYER: Refusal = (NotFound, "unknown_player")
UNKNOWN_DEED: Refusal = (NotFound, "unknown_deed")
INVALID_BUILDING: Refusal = (BadInput, "invalid_building")
# The banker acting for a player: the field of every action a player does.
PLAYER = Field("player", TEXT, "The banker acting for this player.", refusal=UNKNOWN_PLAYER)


# Whose deed a deed's page offers an action on, as the player looking at it sees it.
NOBODYS, OTHERS, OWN = "nobody's", "another's", "own"


def _once(edition: Edition) -> Iterable[Mapping[str, Any]]:
    return ({},)


@dataclass(frozen=True)
class Offer:
    """One button of a deed's page: the action on that deed, previewed by its own rule before
    it is shown (``web/deeds.py``), the page's buttons in the order of the declarations.

    ``whose`` the deed it is offered on (``NOBODYS``, ``OTHERS``, ``OWN``); ``says`` its words,
    the first that holds, worded from the preview's params, the fields and ``amount`` (the most
    money the preview moves); ``each`` the fields of each such button the edition has (one with
    none, by default; none where the edition has no such move). A refused offer is shown only
    with ``closed``, the words before the reason, and only for the refusals ``why`` names (any,
    without it) and never for ``unsaid``'s. ``by_dice``: a refusal that a dice total lifts
    means the amount goes by the dice (a utility's rent), so it is offered asking for them.
    ``landing``: landing on the deed asks it, so the square's sheet offers it too."""

    whose: str
    says: tuple[Say, ...]
    each: Callable[[Edition], Iterable[Mapping[str, Any]]] = _once
    closed: Say | None = None
    why: tuple[str, ...] = ()
    unsaid: tuple[str, ...] = ()
    by_dice: bool = False
    landing: bool = False

    def said(self, params: Mapping[str, Any], edition: Edition) -> Say:
        """The words of the button for ``params``: the first of ``says`` that holds."""
        return next(say for say in self.says if say.holds(params, edition))


# How an action's entries follow an auction's bidders (whom ``BIDDER`` and ``OUTBID`` notices
# reach): its entry opens the bidding afresh, or its ``player`` bids.
OPENS_BIDDING, BIDS = "opens", "bids"


@dataclass(frozen=True)
class Action:
    """One action type, declared once.

    ``handler`` calls the rule (``run`` runs it, checking who asks first); ``step``, for an
    action no rule runs (``handler`` is ``None``), the services' work that carries it out (the
    journal's undo, the clock's pause); ``banker_only`` when nobody but the banker may ask it
    (refused 403 ``banker_only`` before the rule or the step); ``clock`` what the game's clock
    does once its entry is written, and ``clock_undone`` once that entry is undone;
    ``fields`` the payload it reads besides ``type`` and ``key``; ``reads_deeds`` whether the
    rule reads the board (an action that does not is given a state whose deeds are
    ``NotLoaded``, so a rule reading them anyway fails loudly); ``asks_bank`` money the acting
    player asks of the bank, held for the banker where the game plays with a strict bank;
    ``parts`` what its entry changes besides its postings and changes (``core.parts``);
    ``line`` its entry in the feed's words (``lines``); ``told`` what it tells the player it
    concerns when someone else did it, ``received`` how money it brings a player is told
    (else as the feed says it), ``quiet`` when it tells nothing but its ``told`` (a start
    everyone saw, a bid that moves no money);
    ``offers`` the buttons a deed's page offers it with (``Offer``); ``bidding`` how its entry
    follows an auction's bidders (``OPENS_BIDDING``, ``BIDS``);
    ``about`` the OpenAPI document's words for it."""

    name: str
    handler: Handler | None
    fields: tuple[Field, ...] = ()
    step: Step | None = None
    banker_only: bool = False
    clock: Step | None = None
    clock_undone: Step | None = None
    reads_deeds: bool = True
    asks_bank: bool = False
    parts: frozenset[str] = frozenset()
    line: Line | None = None
    told: tuple[Tell, ...] = ()
    received: Say | None = None
    quiet: bool = False
    offers: tuple[Offer, ...] = ()
    bidding: str | None = None
    about: str = ""

    def allows(self, by: Who) -> None:
        """Refuses anyone but the banker (403) where the action is the banker's alone."""
        if self.banker_only and not by.is_banker:
            raise Forbidden("banker_only", N_("Only the banker can do this."))

    def run(self, state: GameState, asked: Asked) -> Outcome:
        """What the action's rule makes of ``state``, as ``asked``: whoever runs an action by
        its declaration (the table, its previews, a game file played again) checks who may
        ask it. Refuses whom ``allows`` refuses, then whatever the rule refuses; an action no
        rule runs is the services' step (``LookupError``, a programming error)."""
        self.allows(asked.by)
        if self.handler is None:
            raise LookupError(f"{self.name} is carried out by a step of the services, not by a rule")
        return self.handler(state, asked)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def read(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The payload's fields as this action declares them; a field sent as null reaches the
        handler as ``None``, which the rule takes as left out or refuses. Refuses a field the action does not know (400 ``unknown_field``) and a value
        of the wrong kind (400, naming the field and what it must be)."""
        fields: dict[str, Any] = {}
        for name, value in payload.items():
            if name in COMMON:
                continue
            declared = self.field(name)
            if declared is None:
                raise BadInput("unknown_field", N_("This action has no field %(field)s."), field=name)
            if value is not None:  # null is as the rule takes a field left out, or refuses it
                declared.kind.check(declared, value)
            fields[name] = value
        return fields
