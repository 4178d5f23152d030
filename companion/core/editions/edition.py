"""An edition as the rules read it: frozen dataclasses, one section per concern (``start``,
``salary``, ``rent``, ``mortgaged_rent``, ``buildings``, ``mortgage``, ``auction``, ``jail``,
``bankruptcy``, ``valuation``, ``tiebreak``), each naming a ``policy``: a small function of
``core.policies`` picked by name. The numbers stay data. Rules read these values
(``edition.mortgage.interest_percent``), never the edition's id.

Made only by ``loading.parse_edition``, from a file the schema has accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


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
    # False: its deeds share a colour on the board but are no lot (Che Impresa!'s restaurants,
    # seed 000 lines 33-35 and 182-183): holding them all makes no whole lot to expropriate.
    lot: bool = True


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
    # Its square on the board, counted from GO; ``None`` where the rulebook prints no board
    position: int | None = None
    # False for a payment that is no square of the board (the jail fine).
    square: bool = True


@dataclass(frozen=True)
class Corners:
    """Where GO, jail and the square that sends there are on the board, counted from GO, where
    the rulebook prints the board; ``None`` for a corner it does not place."""

    start: int | None = None
    jail: int | None = None
    free_parking: int | None = None
    go_to_jail: int | None = None


@dataclass(frozen=True)
class CardSquare:
    """Squares where a card of one deck is drawn (Probabilità, Imprevisti), at ``positions``
    on the board (none where the rulebook prints no board)."""

    key: str
    name: Text
    positions: tuple[int, ...] = ()


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
    # The notes each player starts with, by the number of players, where they differ by table
    # size (Che Impresa!'s five, four, three, two or one 500-note, seed 000 lines 92-115);
    # a size left out takes the edition's ``starting_notes``.
    notes: Mapping[int, Mapping[int, int]] | None = None


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
    # ``group`` (the classic rule): a deed is mortgaged only while its whole group is unbuilt,
    # and a mortgaged deed stops building on its whole group. ``deed`` (Motopolis, seed 002
    # line 73, as written): only the deed itself must be unbuilt, and only it takes no building.
    reach: str = "group"


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
    # Where the edition neither mortgages deeds nor buys them back, what each deed counts for
    # in what a player could still pay, in percent of its price (Che Impresa! counts "i terreni
    # liberi" without a value: its file says 100); None: nothing.
    free_deeds_percent: int | None = None


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
class Train:
    """Squares that move the pawn forward to the next deed the bank still holds, to be bought
    or auctioned there (Niente è come sembra's Treno, seed 004 lines 95-98). ``name``: what
    the board calls them. ``salary``: passing Start on the way pays the GO salary (line 98).
    Where they stand is not data: the rulebook gives no board, so the player names the deed
    just before theirs, and the deeds' ``position`` gives the way forward."""

    name: Text
    salary: bool = True


@dataclass(frozen=True)
class Trades:
    """When players may trade deeds among themselves (``deeds_tradable``): ``always``, or
    ``once_every_deed_sold``: not while the bank still holds a deed (Petropolis, seed 003
    line 35). Cards and cash alone change hands at any time. ``unbuilt``: what buildings keep
    a deed out of a trade."""

    deeds_tradable: str = "always"
    # What must be free of buildings for a deed to change hands: ``group`` (the classic rule:
    # its whole group) or ``deed`` (Motopolis, seed 002 line 70: the land itself).
    unbuilt: str = "group"


@dataclass(frozen=True)
class Tiebreak:
    """Who goes first among players worth the same: ``shared`` (nobody),
    ``unmortgaged_deeds_value`` (the higher printed price of their unmortgaged deeds) or
    ``unmortgaged_property_value`` (the higher value of their unmortgaged deeds with their
    buildings, as the final count takes them)."""

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
    ends after that many rounds; ``trades_with_active``: once the table marks its turns, a
    trade closed during a turn must involve the player whose turn it is (the championship's
    FAQ 26)."""

    counted: bool = False
    limit: int | None = None
    trades_with_active: bool = False


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
    # Its square on the board, counted from GO; ``None`` where the rulebook prints no board.
    position: int | None = None


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
    trades: Trades = Trades()
    train: Train | None = None
    # The most players when the banker plays too (``None``: ``max_players``).
    max_players_with_banker: int | None = None
    # Table sizes the rulebook allows but gives no starting values for (Motopolis: 7, seed 002
    # lines 11 and 18-23): the file's own values for them are a house rule, played only where
    # the game ticks it (the ``house_sizes`` setting).
    house_sizes: tuple[int, ...] = ()
    corners: Corners = Corners()
    card_squares: tuple[CardSquare, ...] = ()
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

    def starting_notes_for(self, player_count: int) -> Mapping[int, int]:
        """The notes each player starts with at this table size, ``{face: count}``: the start's
        own for that size where the edition gives them, else the edition's ``starting_notes``."""
        by_size = self.start.notes or {}
        return by_size.get(player_count, self.starting_notes)

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
