"""Edition files: one JSON file per rule set, checked against ``editions.schema.json`` and
loaded into frozen dataclasses.

The rules are one section per concern (``start``, ``salary``, ``rent``, ``mortgaged_rent``,
``buildings``, ``mortgage``, ``auction``, ``jail``, ``bankruptcy``, ``valuation``,
``tiebreak``), each naming a ``policy``: a small function of ``core.policies`` picked by name.
The numbers stay data. Rules read these values (``edition.mortgage.interest_percent``), never
the edition's id.

An edition that does not validate is refused as a whole (``EditionError`` listing every bad
field), so a hand-edited file cannot start a game with half its numbers missing; the server
reports a bad file at start and offers the others (``load_editions``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from .edition_schema import SCHEMA_FILE, edition_problems
from .edition_upgrade import upgrade_layout

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "editions"


class EditionError(ValueError):
    """An edition file is missing a field or holds a value the rules cannot use; ``problems``
    lists each one, naming the field."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Text:
    """A name in each language Banco speaks; falls back to Italian, the rulebooks' language."""

    it: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.it


@dataclass(frozen=True)
class Group:
    key: str
    name: Text
    color: str
    kind: str  # street | station | utility


@dataclass(frozen=True)
class Deed:
    key: str
    name: str
    group: str
    position: int
    price: int
    mortgage: int
    rents: tuple[int, ...] = ()
    building_cost: int | None = None
    provisional: bool = False
    # False for a deed that takes no buildings in a street group (Che Impresa!'s restaurants).
    buildable: bool = True
    # False for a deed never dealt at the start (Petropolis's Saudi Arabia).
    dealable: bool = True
    # What a failed expropriation costs the buyer: of this deed alone, of its whole lot.
    penalty: int | None = None
    lot_penalty: int | None = None


@dataclass(frozen=True)
class FixedPayment:
    """A one-tap payment to the bank printed on the board (a tax, the jail fine)."""

    key: str
    name: Text
    amount: int


@dataclass(frozen=True)
class Dice:
    """``max_total``: the largest dice total a player can enter (12 with two dice, 15 with the
    Speed Die)."""

    max_total: int = 12


@dataclass(frozen=True)
class Start:
    """``cash``: what each player gets from the bank, by the number of players. ``policy``: how
    deeds are dealt at the start (``none``: every deed stays with the bank; ``dealt_at_random``:
    ``deeds[n]`` each at a table of n, at random from the dealable ones)."""

    policy: str
    cash: Mapping[int, int]
    deeds: Mapping[int, int] | None = None


@dataclass(frozen=True)
class Salary:
    """What passing GO pays: ``fixed`` pays ``amount``, ``dice_times`` pays ``dice_multiplier``
    times the dice total of that move."""

    policy: str
    amount: int | None = None
    dice_multiplier: int | None = None


@dataclass(frozen=True)
class RentRequest:
    """The owner asks for rent and the lander confirms, instead of the lander paying unasked.

    The rulebooks let the owner ask only "before the second player to the owner's left rolls";
    the app cannot see the dice or the turns, so the window is a setting: ``lapse_seconds``
    after the request the lander can no longer confirm it (``None``: no clock, the owner or
    the banker marks a request lapsed by hand).
    """

    enabled: bool = False
    lapse_seconds: int | None = None


@dataclass(frozen=True)
class Rent:
    """``policy``: when the base rent of an unbuilt street doubles because its owner holds the
    whole group. ``sets_count_mortgaged``: a mortgaged station or utility still counts towards
    the number its owner holds. ``request``: rent asked for by the owner."""

    policy: str
    sets_count_mortgaged: bool = True
    request: RentRequest = RentRequest()


@dataclass(frozen=True)
class MortgagedRent:
    """What a lander owes on a mortgaged deed: ``none``, or ``share_to_bank``: ``share_percent``
    of the rent the deed would ask, paid to the bank (the owner gets nothing)."""

    policy: str
    share_percent: int | None = None


@dataclass(frozen=True)
class Buildings:
    """``policy``: the shape of the big building (``houses_then_hotel``,
    ``big_replaces_small``, ``small_only``). ``small_per_big``: the small buildings a big one
    needs on each deed of its group and gives back to the bank; ``big_worth``: what a big one
    is worth, counted in small ones. ``big_sale``: a big building is sold together with the
    group's others or one by one. ``shortage_auction``: the banker may auction the bank's last
    buildings."""

    policy: str
    small: Text
    small_plural: Text
    max_small: int
    sell_percent: int
    big_sale: str
    shortage_auction: bool = False
    supply_small: int | None = None
    supply_big: int | None = None
    big: Text | None = None
    big_plural: Text | None = None
    small_per_big: int | None = None
    big_worth: int | None = None
    # Breaking a big building the bank lacks the small ones for: ``refused`` or, as the
    # championship's FAQ 29 says, ``missing_at_half`` (the ones it has, half price for the rest).
    short_break: str = "refused"
    placement: str = "one_at_a_time"
    per_visit: Mapping[str, int] | None = None
    first_build_each: int | None = None
    # Where a shortage auction opens; ``None``: the lowest building price among its deeds.
    shortage_opening_bid: int | None = None


@dataclass(frozen=True)
class Mortgage:
    """``policy``: ``interest`` (lifting costs the value plus ``interest_percent``),
    ``lap_deadline`` (lift within ``laps`` of the owner's laps, else the deed goes back to the
    bank) or ``none``. ``transfer_fee_percent``: what a player receiving a mortgaged deed pays at
    once unless they lift it."""

    policy: str
    interest_percent: int = 0
    laps: int | None = None
    transfer_fee_percent: int = 0
    # False: a mortgaged deed cannot go to another player in a trade (Motopolis).
    tradable: bool = True


@dataclass(frozen=True)
class Auction:
    """``policy``: where a deed's auction opens (``fixed_opening`` at ``opening_bid``,
    ``printed_price``). ``no_bids`` and ``winner_cannot_pay``: how an auction ends without a
    paying winner."""

    policy: str
    min_raise: int
    no_bids: str
    winner_cannot_pay: str
    opening_bid: int | None = None
    # A bid may be above the bidder's cash: the winner then raises it (the championship).
    bids_above_cash: bool = False
    # False: the player who landed on the deed and declined to buy it does not bid (Petropolis).
    decliner_bids: bool = True


@dataclass(frozen=True)
class Jail:
    """``fine``: what leaving jail costs; ``card_max_price``: the most a get-out-of-jail card
    sells for between players; ``cards_total``: how many such cards the decks hold."""

    policy: str
    fine: int
    card_max_price: int | None = None
    cards_total: int = 2
    failed_roll_fine: int | None = None
    collects_rent: bool = True
    bids: bool = True
    # False: a player in jail cannot build (Motopolis).
    builds: bool = True
    # Leaving (fine, card, doubles) only from the player's next turn on; free after ``turns``
    # of their turns spent there (``None``: never by waiting). Both need counted turns.
    from_next_turn: bool = False
    turns: int | None = None
    # What the board calls jail (Motopolis: Attesa ricambi); ``None``: jail.
    name: Text | None = None
    # False: a player in jail collects no GO salary (Niente è come sembra).
    salary: bool = True
    # After this many rounds in jail the player must pay the fine and leave (Petropolis: 3);
    # a reminder on the phone where the bank does not count turns.
    pay_after_rounds: int | None = None


@dataclass(frozen=True)
class Bankruptcy:
    """``policy``: ``to_creditor`` (everything goes to whoever the debt is owed to) or
    ``bank_pays_creditor_share`` (everything goes to the bank, which pays the creditor
    ``share_percent`` of the debt)."""

    policy: str
    share_percent: int | None = None
    # A creditor player gets the deeds as they were when the debtor's turn began (FAQ 32).
    turn_start_state: bool = False


@dataclass(frozen=True)
class Valuation:
    """What a player is worth in the final count: ``cash_deeds_buildings`` counts cash, deeds
    at ``deed_percent`` of their price (``mortgaged_deed_percent`` when mortgaged) and buildings
    at ``building_percent`` of their cost."""

    policy: str
    deed_percent: int = 100
    mortgaged_deed_percent: int = 50
    building_percent: int = 100
    # cash_and_rents (Niente è come sembra): an unbuilt deed of a whole group counts its rent
    # doubled as the rent policy says; a big building's rent counts instead of the deed's rent
    # (``instead_of_deed_rent``) or on top of it (``besides_deed_rent``).
    whole_group_doubles: bool = True
    big_rent: str = "instead_of_deed_rent"
    # The rulebook does not give the formula: the numbers are the edition file's choice (Motopolis).
    chosen_by_edition: bool = False


@dataclass(frozen=True)
class DeedSale:
    """A deed sold back to the bank by its owner at ``percent`` of its price, rounded up, once
    it has no buildings (Niente è come sembra, where there are no mortgages: 100)."""

    percent: int


@dataclass(frozen=True)
class Tiebreak:
    """Who goes first among players worth the same: ``shared`` (nobody) or
    ``unmortgaged_deeds_value`` (the higher price of their unmortgaged deeds)."""

    policy: str


@dataclass(frozen=True)
class End:
    """How a game ends besides the last player standing: at the clock's zero the banker closes
    it (``banker_closes``), or the active player first finishes the turn
    (``active_player_finishes_turn``)."""

    time_up: str = "banker_closes"
    # The game ends by itself right after the action that leaves every deed owned (Niente è
    # come sembra).
    all_deeds_owned: bool = False
    # Players tied for first at the final count: ``shared`` (they share the place) or
    # ``play_off`` (the game goes on ``play_off_minutes`` more among them alone; Petropolis).
    tie: str = "shared"
    play_off_minutes: int | None = None


@dataclass(frozen=True)
class Turns:
    """``counted``: the bank keeps whose turn it is and the round number; ``limit``: the game
    ends after that many rounds."""

    counted: bool = False
    limit: int | None = None


@dataclass(frozen=True)
class Square:
    """A square of the board whose amount the bank computes (``policy`` names how, from the
    numbers beside it): a one-tap button on the phone."""

    key: str
    name: Text
    policy: str
    per_deed: int | None = None
    per_small: int | None = None
    multiplier: int | None = None
    percent: int | None = None
    expropriation: bool = False
    amount: int | None = None
    prize: int | None = None
    collect: int | None = None
    totals: tuple[int, ...] = ()
    turns: int | None = None
    trades: bool = True


@dataclass(frozen=True)
class Counterfeits:
    """Fake money and the decoder (Niente è come sembra): each player's ``chips`` (green again
    at every GO), the share of the bank's notes that are fake (``fake_note_share``, the
    game's default: the rulebook does not print it), the seconds a payment stays open to a
    check (``check_seconds``), whether its receiver may check too (``receiver_checks``: the
    rulebook reads both ways), and the Chance cards: ``chance_cards`` in all, ``fake_chance_cards``
    of them fake, ``chance_bounty`` paid by the bank to whoever catches one."""

    chips: int
    fake_note_share: float
    check_seconds: int
    receiver_checks: bool = False
    chance_cards: int = 0
    fake_chance_cards: int = 0
    chance_bounty: int = 0


@dataclass(frozen=True)
class Expropriation:
    """The two special dice of an expropriation, one entry per face (``si``, ``no``, ``vita``
    on the buyer's; ``no``, ``doppio``, ``meta``, ``ritira``, ``vita`` on the owner's), and what
    the buyer pays on ``doppio`` and ``meta``, in percent of the value."""

    buyer_die: tuple[str, ...]
    owner_die: tuple[str, ...]
    double_percent: int
    half_percent: int


@dataclass(frozen=True)
class TournamentPoints:
    """Tournament points by place at the table and by how many players are left at the end
    (``by_players_left[n][place - 1]``); players out of the game score 0. Beyond the table's
    last row (more players left than it has), the last row counts and places past its length
    score 0: the rulebook says nothing there, and the app says so."""

    by_players_left: Mapping[int, tuple[int, ...]]

    def points(self, place: int, players_left: int) -> int:
        rows = self.by_players_left
        row = rows.get(players_left) or rows[max(rows)] if rows else ()
        return row[place - 1] if 0 < place <= len(row) else 0

    @property
    def beyond(self) -> int:
        """The most players left the rulebook's table speaks of."""
        return max(self.by_players_left, default=0)


@dataclass(frozen=True)
class Edition:
    id: str
    name: Text
    rulebook: str
    currency_symbol: str
    currency_name: Text
    min_players: int
    max_players: int
    cash_private: bool
    banknotes: tuple[int, ...]
    starting_notes: Mapping[int, int]
    fixed_payments: tuple[FixedPayment, ...]
    groups: tuple[Group, ...]
    deeds: tuple[Deed, ...]
    station_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    time_limit_minutes: int | None
    max_amount: int
    dice: Dice
    start: Start
    salary: Salary
    rent: Rent
    mortgaged_rent: MortgagedRent
    buildings: Buildings
    mortgage: Mortgage
    auction: Auction
    jail: Jail
    bankruptcy: Bankruptcy
    valuation: Valuation
    tiebreak: Tiebreak
    tournament_points: TournamentPoints | None = None
    end: End = End()
    turns: Turns = Turns()
    squares: tuple[Square, ...] = ()
    expropriation: Expropriation | None = None
    counterfeits: Counterfeits | None = None
    provisional: bool = False
    deed_sale: DeedSale | None = None
    # The most players when the banker plays too (``None``: ``max_players``).
    max_players_with_banker: int | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def deed(self, key: str) -> Deed | None:
        return self._deeds_by_key().get(key)

    def group(self, key: str) -> Group | None:
        return next((g for g in self.groups if g.key == key), None)

    def deeds_in_group(self, group_key: str) -> tuple[Deed, ...]:
        return tuple(d for d in self.deeds if d.group == group_key)

    def fixed_payment(self, key: str) -> FixedPayment | None:
        return next((p for p in self.fixed_payments if p.key == key), None)

    def square(self, key: str) -> Square | None:
        return next((q for q in self.squares if q.key == key), None)

    def starting_cash_for(self, player_count: int) -> int:
        """The cash each player starts with at this table size; refuses a size the edition lacks."""
        try:
            return self.start.cash[player_count]
        except KeyError:
            raise EditionError([f"{self.id}: no starting cash for {player_count} players"]) from None

    def _deeds_by_key(self) -> dict[str, Deed]:
        cache = self.__dict__.get("_by_key")
        if cache is None:
            cache = {d.key: d for d in self.deeds}
            object.__setattr__(self, "_by_key", cache)
        return cache


# --- reading a valid file ---------------------------------------------------------------


def _text(value) -> Text | None:
    if value is None:
        return None
    return Text(value, value) if isinstance(value, str) else Text(value["it"], value["en"])


def _counts(value: Mapping) -> Mapping[int, int]:
    return MappingProxyType({int(k): v for k, v in value.items()})


def _section(kind, data: Mapping, **read):
    """A section's dataclass from its JSON object: plain fields as they are, ``read`` for the
    ones that need converting."""
    plain = {k: v for k, v in data.items() if k not in read}
    return kind(**plain, **{k: convert(data[k]) for k, convert in read.items() if k in data})


def _buildings(data: Mapping) -> Buildings:
    texts = ("small", "small_plural", "big", "big_plural")
    return _section(Buildings, data, per_visit=lambda v: MappingProxyType(dict(v)), **dict.fromkeys(texts, _text))


def _deed(data: Mapping) -> Deed:
    return _section(Deed, data, rents=tuple)


def validate_edition(data: Any) -> list[str]:
    """Every problem of an edition's data, each naming its field
    (``classic-it: deeds[3].price must be a whole number``); empty when the data is a valid
    edition. The edition file layout of before rule policies is read in today's layout."""
    return edition_problems(upgrade_layout(data))


def parse_edition(data: Mapping[str, Any]) -> Edition:
    """Validates one edition's data and returns it frozen.

    Refuses (``EditionError``, every problem listed) what ``editions.schema.json`` refuses (a
    missing field, a non-integer amount, a policy that does not exist, a number its policy
    needs and lacks...) and what a schema cannot see: a deed in an unknown group, a repeated
    key, a street whose rents do not cover every building step, a player range the starting
    cash does not cover.
    """
    layout = upgrade_layout(data)
    problems = edition_problems(layout)
    if problems:
        raise EditionError(problems)
    d = layout
    return Edition(
        id=d["id"],
        name=_text(d["name"]),
        rulebook=d["rulebook"],
        currency_symbol=d["currency"]["symbol"],
        currency_name=_text(d["currency"]["name"]),
        min_players=d["players"]["min"],
        max_players=d["players"]["max"],
        cash_private=d["cash_private"],
        banknotes=tuple(sorted(d["banknotes"], reverse=True)),
        starting_notes=_counts(d["starting_notes"]),
        fixed_payments=tuple(FixedPayment(p["key"], _text(p["name"]), p["amount"]) for p in d["fixed_payments"]),
        groups=tuple(Group(g["key"], _text(g["name"]), g["color"], g["kind"]) for g in d["groups"]),
        deeds=tuple(_deed(x) for x in d["deeds"]),
        station_rents=tuple(d.get("station_rents") or ()),
        utility_multipliers=tuple(d.get("utility_multipliers") or ()),
        time_limit_minutes=d.get("time_limit_minutes"),
        max_amount=d["max_amount"],
        dice=_section(Dice, d["dice"]),
        start=_section(Start, d["start"], cash=_counts, deeds=_counts),
        salary=_section(Salary, d["salary"]),
        rent=_section(Rent, d["rent"], request=lambda r: _section(RentRequest, r)),
        mortgaged_rent=_section(MortgagedRent, d["mortgaged_rent"]),
        buildings=_buildings(d["buildings"]),
        mortgage=_section(Mortgage, d["mortgage"]),
        auction=_section(Auction, d["auction"]),
        jail=_section(Jail, d["jail"], name=_text),
        bankruptcy=_section(Bankruptcy, d["bankruptcy"]),
        valuation=_section(Valuation, d["valuation"]),
        tiebreak=_section(Tiebreak, d["tiebreak"]),
        tournament_points=_tournament_points(d.get("tournament_points")),
        end=_section(End, d["end"]) if "end" in d else End(),
        turns=_section(Turns, d["turns"]) if "turns" in d else Turns(),
        squares=tuple(_section(Square, q, name=_text, totals=tuple) for q in d.get("squares", ())),
        expropriation=(
            _section(Expropriation, d["expropriation"], buyer_die=tuple, owner_die=tuple)
            if "expropriation" in d
            else None
        ),
        counterfeits=_section(Counterfeits, d["counterfeits"]) if "counterfeits" in d else None,
        provisional=d.get("provisional", False),
        deed_sale=_section(DeedSale, d["deed_sale"]) if "deed_sale" in d else None,
        max_players_with_banker=d["players"].get("max_with_playing_banker"),
        raw=MappingProxyType(dict(data)),
    )


def _tournament_points(section) -> TournamentPoints | None:
    if section is None:
        return None
    return TournamentPoints(MappingProxyType({int(k): tuple(v) for k, v in section["by_players_left"].items()}))


class LoadedEditions(NamedTuple):
    """The editions that loaded, by id, and one message for each file that did not."""

    editions: dict[str, Edition]
    problems: list[str]


def edition_files(directory: Path = EDITIONS_DIR) -> list[Path]:
    """The edition files in ``directory``: every ``*.json`` but the schema."""
    return sorted(p for p in directory.glob("*.json") if p.name != SCHEMA_FILE.name)


def load_editions(directory: Path = EDITIONS_DIR) -> LoadedEditions:
    """Loads every edition file in ``directory``. A file that is not JSON, does not validate or
    whose ``id`` is not its file name is left out and reported in ``problems``; it never stops
    the others from loading."""
    editions, problems = {}, []
    for path in edition_files(directory):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems.append(f"{path.name}: not a readable JSON file ({exc})")
            continue
        try:
            edition = parse_edition(data)
        except EditionError as exc:
            problems += [f"{path.name}: {p}" for p in exc.problems]
            continue
        if edition.id != path.stem:
            problems.append(f"{path.name}: the id {edition.id!r} must match the file name")
            continue
        editions[edition.id] = edition
    return LoadedEditions(editions, problems)
