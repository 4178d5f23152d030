"""Edition files: one JSON file per rule set, validated at load into frozen dataclasses.

Rules read these values (``edition.mortgage.interest_percent``), never the edition's id.
An edition file that does not validate is refused as a whole with ``EditionError`` naming the
first bad field, so a hand-edited file cannot start a game with half its numbers missing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "editions"
LANGUAGES = ("it", "en")


class EditionError(ValueError):
    """An edition file is missing a field or holds a value the rules cannot use."""


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


@dataclass(frozen=True)
class FixedPayment:
    """A one-tap payment to the bank printed on the board (a tax, the jail fine)."""

    key: str
    name: Text
    amount: int


@dataclass(frozen=True)
class Salary:
    """What passing GO pays: a flat ``amount``, or ``dice_multiplier`` times the dice."""

    amount: int | None
    dice_multiplier: int | None


@dataclass(frozen=True)
class Buildings:
    small: Text
    small_plural: Text
    big: Text
    big_plural: Text
    max_small: int
    supply_small: int | None
    supply_big: int | None
    sell_percent: int


@dataclass(frozen=True)
class Mortgage:
    interest_percent: int


@dataclass(frozen=True)
class Auction:
    opening_bid: int
    min_raise: int


@dataclass(frozen=True)
class Jail:
    fine: int
    card_max_price: int | None


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


DOUBLE_RENT = ("unmortgaged_deeds", "none_mortgaged", "none_mortgaged_or_built", "never")
AUCTION_NO_BIDS = ("deed_stays_with_bank", "richest_buys_at_opening_bid")
AUCTION_WINNER_CANNOT_PAY = ("winner_raises_cash", "rerun_without_winner")
HOTEL_SALE = ("group", "deed")


@dataclass(frozen=True)
class Rules:
    """Rule variants that are data. The defaults are the standard Hasbro rules.

    ``double_rent_on_group``: base rent of a street whose owner holds the whole group is
    doubled on each unbuilt deed: ``unmortgaged_deeds`` even when another deed of the group is
    mortgaged or built, ``none_mortgaged`` only while no deed of the group is mortgaged,
    ``none_mortgaged_or_built`` only while none is mortgaged and none built, ``never``.
    ``sets_count_mortgaged``: a mortgaged station or utility still counts towards the number
    the owner holds. ``dice_max``: the largest dice total a player can enter (12 with two
    dice, 15 with the Speed Die). ``auction_no_bids``: the deed stays with the bank, or the
    richest player buys it at the opening bid. ``auction_winner_cannot_pay``: the auction waits
    for the winner to raise the cash, or runs again without them.
    ``mortgaged_transfer_fee_percent``: what a player receiving a mortgaged deed pays at once
    unless they lift the mortgage. ``hotel_sale``: a big building is sold whole together with
    every other one of its group (``group``) or on its own (``deed``); either way it can also be
    broken into small buildings. ``building_shortage_auction``: the banker may auction the
    bank's last buildings, opening at the lowest building price among the deeds concerned.
    ``jail_cards_total``: how many get-out-of-jail cards the decks hold.
    """

    double_rent_on_group: str = "unmortgaged_deeds"
    sets_count_mortgaged: bool = True
    dice_max: int = 12
    auction_no_bids: str = "deed_stays_with_bank"
    auction_winner_cannot_pay: str = "winner_raises_cash"
    mortgaged_transfer_fee_percent: int = 10
    hotel_sale: str = "group"
    building_shortage_auction: bool = False
    rent_request: RentRequest = RentRequest()
    jail_cards_total: int = 2


@dataclass(frozen=True)
class Edition:
    id: str
    name: Text
    rulebook: str
    currency_symbol: str
    currency_name: Text
    min_players: int
    max_players: int
    starting_cash: Mapping[int, int]
    cash_private: bool
    salary: Salary
    banknotes: tuple[int, ...]
    starting_notes: Mapping[int, int]
    fixed_payments: tuple[FixedPayment, ...]
    groups: tuple[Group, ...]
    deeds: tuple[Deed, ...]
    station_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    buildings: Buildings
    mortgage: Mortgage
    auction: Auction
    jail: Jail
    time_limit_minutes: int | None
    max_amount: int
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    rules: Rules = Rules()

    def deed(self, key: str) -> Deed | None:
        return self._deeds_by_key().get(key)

    def group(self, key: str) -> Group | None:
        return next((g for g in self.groups if g.key == key), None)

    def deeds_in_group(self, group_key: str) -> tuple[Deed, ...]:
        return tuple(d for d in self.deeds if d.group == group_key)

    def fixed_payment(self, key: str) -> FixedPayment | None:
        return next((p for p in self.fixed_payments if p.key == key), None)

    def starting_cash_for(self, player_count: int) -> int:
        """The cash each player starts with at this table size; refuses a size the edition lacks."""
        try:
            return self.starting_cash[player_count]
        except KeyError:
            raise EditionError(f"{self.id}: no starting cash for {player_count} players") from None

    def _deeds_by_key(self) -> dict[str, Deed]:
        cache = self.__dict__.get("_by_key")
        if cache is None:
            cache = {d.key: d for d in self.deeds}
            object.__setattr__(self, "_by_key", cache)
        return cache


# --- validation -------------------------------------------------------------------------

def _get(data: Mapping, name: str, kind, where: str, *, optional=False):
    if name not in data or data[name] is None:
        if optional:
            return None
        raise EditionError(f"{where}.{name} is missing")
    value = data[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise EditionError(f"{where}.{name} must be a whole number, not {value!r}")
    if kind is not int and not isinstance(value, kind):
        raise EditionError(f"{where}.{name} has the wrong type ({type(value).__name__})")
    return value


def _positive(data, name, where, *, optional=False, zero=False):
    value = _get(data, name, int, where, optional=optional)
    if value is not None and (value < 0 or (value == 0 and not zero)):
        raise EditionError(f"{where}.{name} must be {'zero or more' if zero else 'positive'}")
    return value


def _text(data, name, where) -> Text:
    value = _get(data, name, (dict, str), where)
    if isinstance(value, str):
        return Text(value, value)
    for lang in LANGUAGES:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            raise EditionError(f"{where}.{name}.{lang} is missing")
    return Text(value["it"], value["en"])


def _int_map(data, name, where) -> Mapping[int, int]:
    value = _get(data, name, dict, where)
    try:
        out = {int(k): v for k, v in value.items()}
    except ValueError:
        raise EditionError(f"{where}.{name} keys must be whole numbers") from None
    for k, v in out.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise EditionError(f"{where}.{name}[{k}] must be a whole number")
    return MappingProxyType(out)


def _choice(data, name, where, choices, default):
    value = data.get(name, default)
    if value not in choices:
        raise EditionError(f"{where}.{name} must be one of {', '.join(choices)}")
    return value


def _flag(data, name, where, default):
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise EditionError(f"{where}.{name} must be true or false")
    return value


def _parse_rules(data: Mapping, where: str) -> Rules:
    rules = _get(data, "rules", dict, where, optional=True) or {}
    rw = f"{where}.rules"
    defaults = Rules()
    request = _get(rules, "rent_request", dict, rw, optional=True) or {}
    qw = f"{rw}.rent_request"
    dice_max = _positive(rules, "dice_max", rw, optional=True)
    if dice_max is not None and dice_max < 2:
        raise EditionError(f"{rw}.dice_max must be at least 2")
    fee = _positive(rules, "mortgaged_transfer_fee_percent", rw, optional=True, zero=True)
    cards = _positive(rules, "jail_cards_total", rw, optional=True, zero=True)
    return Rules(
        double_rent_on_group=_choice(rules, "double_rent_on_group", rw, DOUBLE_RENT,
                                     defaults.double_rent_on_group),
        sets_count_mortgaged=_flag(rules, "sets_count_mortgaged", rw, defaults.sets_count_mortgaged),
        dice_max=defaults.dice_max if dice_max is None else dice_max,
        auction_no_bids=_choice(rules, "auction_no_bids", rw, AUCTION_NO_BIDS, defaults.auction_no_bids),
        auction_winner_cannot_pay=_choice(rules, "auction_winner_cannot_pay", rw, AUCTION_WINNER_CANNOT_PAY,
                                          defaults.auction_winner_cannot_pay),
        mortgaged_transfer_fee_percent=defaults.mortgaged_transfer_fee_percent if fee is None else fee,
        hotel_sale=_choice(rules, "hotel_sale", rw, HOTEL_SALE, defaults.hotel_sale),
        building_shortage_auction=_flag(rules, "building_shortage_auction", rw,
                                        defaults.building_shortage_auction),
        rent_request=RentRequest(_flag(request, "enabled", qw, False),
                                 _positive(request, "lapse_seconds", qw, optional=True)),
        jail_cards_total=defaults.jail_cards_total if cards is None else cards,
    )


def parse_edition(data: Mapping[str, Any]) -> Edition:
    """Validates one edition's data and returns it frozen.

    Refuses (``EditionError``) a missing field, a non-integer amount, a deed in an unknown
    group, a repeated deed key, a street whose rents do not cover every building step, a
    player range the starting cash does not cover, and a ``rules`` value outside its choices.
    """
    if not isinstance(data, Mapping):
        raise EditionError("an edition must be a JSON object")
    eid = _get(data, "id", str, "edition")
    where = eid
    players = _get(data, "players", dict, where)
    min_players = _positive(players, "min", f"{where}.players")
    max_players = _positive(players, "max", f"{where}.players")
    if not 2 <= min_players <= max_players <= 8:
        raise EditionError(f"{where}.players must be a range within 2..8")
    currency = _get(data, "currency", dict, where)
    starting_cash = _int_map(data, "starting_cash", where)
    for n in range(min_players, max_players + 1):
        if n not in starting_cash:
            raise EditionError(f"{where}.starting_cash has no amount for {n} players")

    salary_raw = _get(data, "salary", dict, where)
    salary = Salary(_positive(salary_raw, "amount", f"{where}.salary", optional=True, zero=True),
                    _positive(salary_raw, "dice_multiplier", f"{where}.salary", optional=True))
    if (salary.amount is None) == (salary.dice_multiplier is None):
        raise EditionError(f"{where}.salary needs exactly one of amount or dice_multiplier")

    groups = []
    for i, g in enumerate(_get(data, "groups", list, where)):
        gw = f"{where}.groups[{i}]"
        kind = _get(g, "kind", str, gw)
        if kind not in ("street", "station", "utility"):
            raise EditionError(f"{gw}.kind must be street, station or utility")
        groups.append(Group(_get(g, "key", str, gw), _text(g, "name", gw), _get(g, "color", str, gw), kind))
    group_kinds = {g.key: g.kind for g in groups}
    if len(group_kinds) != len(groups):
        raise EditionError(f"{where}.groups has a repeated key")

    b = _get(data, "buildings", dict, where)
    bw = f"{where}.buildings"
    buildings = Buildings(_text(b, "small", bw), _text(b, "small_plural", bw), _text(b, "big", bw),
                          _text(b, "big_plural", bw), _positive(b, "max_small", bw, zero=True),
                          _positive(b, "supply_small", bw, optional=True, zero=True),
                          _positive(b, "supply_big", bw, optional=True, zero=True),
                          _positive(b, "sell_percent", bw))

    deeds = []
    for i, d in enumerate(_get(data, "deeds", list, where)):
        dw = f"{where}.deeds[{i}]"
        group = _get(d, "group", str, dw)
        if group not in group_kinds:
            raise EditionError(f"{dw}.group {group!r} is not one of the edition's groups")
        rents = tuple(_get(d, "rents", list, dw, optional=True) or ())
        if any(isinstance(r, bool) or not isinstance(r, int) or r < 0 for r in rents):
            raise EditionError(f"{dw}.rents must be whole numbers")
        if group_kinds[group] == "street" and len(rents) != buildings.max_small + 2:
            raise EditionError(f"{dw}.rents needs {buildings.max_small + 2} values "
                               "(no building, each small building, the big one)")
        deeds.append(Deed(_get(d, "key", str, dw), _get(d, "name", str, dw), group,
                          _positive(d, "position", dw, zero=True), _positive(d, "price", dw),
                          _positive(d, "mortgage", dw, zero=True), rents,
                          _positive(d, "building_cost", dw, optional=True),
                          bool(d.get("provisional", False))))
    if len({d.key for d in deeds}) != len(deeds):
        raise EditionError(f"{where}.deeds has a repeated key")

    fixed = []
    for i, p in enumerate(_get(data, "fixed_payments", list, where)):
        pw = f"{where}.fixed_payments[{i}]"
        fixed.append(FixedPayment(_get(p, "key", str, pw), _text(p, "name", pw), _positive(p, "amount", pw)))

    mortgage = _get(data, "mortgage", dict, where)
    auction = _get(data, "auction", dict, where)
    jail = _get(data, "jail", dict, where)
    return Edition(
        id=eid,
        name=_text(data, "name", where),
        rulebook=_get(data, "rulebook", str, where),
        currency_symbol=_get(currency, "symbol", str, f"{where}.currency"),
        currency_name=_text(currency, "name", f"{where}.currency"),
        min_players=min_players,
        max_players=max_players,
        starting_cash=starting_cash,
        cash_private=bool(_get(data, "cash_private", bool, where)),
        salary=salary,
        banknotes=tuple(sorted(_get(data, "banknotes", list, where), reverse=True)),
        starting_notes=_int_map(data, "starting_notes", where),
        fixed_payments=tuple(fixed),
        groups=tuple(groups),
        deeds=tuple(deeds),
        station_rents=tuple(_get(data, "station_rents", list, where, optional=True) or ()),
        utility_multipliers=tuple(_get(data, "utility_multipliers", list, where, optional=True) or ()),
        buildings=buildings,
        mortgage=Mortgage(_positive(mortgage, "interest_percent", f"{where}.mortgage", zero=True)),
        auction=Auction(_positive(auction, "opening_bid", f"{where}.auction"),
                        _positive(auction, "min_raise", f"{where}.auction")),
        jail=Jail(_positive(jail, "fine", f"{where}.jail", zero=True),
                  _positive(jail, "card_max_price", f"{where}.jail", optional=True)),
        time_limit_minutes=_positive(data, "time_limit_minutes", where, optional=True),
        max_amount=_positive(data, "max_amount", where),
        raw=MappingProxyType(dict(data)),
        rules=_parse_rules(data, where),
    )


def load_editions(directory: Path = EDITIONS_DIR) -> dict[str, Edition]:
    """Loads every ``*.json`` edition in ``directory``; refuses the lot if any file is bad."""
    editions = {}
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise EditionError(f"{path.name}: not valid JSON ({exc})") from None
        edition = parse_edition(data)
        if edition.id != path.stem:
            raise EditionError(f"{path.name}: the id {edition.id!r} must match the file name")
        editions[edition.id] = edition
    return editions
