"""Edition files: one JSON file per rule set, checked against ``editions.schema.json``
(``schema``, after ``upgrade`` has read an older layout in today's) and loaded into the frozen
dataclasses of ``edition``.

An edition that does not validate is refused as a whole (``EditionError`` listing every bad
field), so a hand-edited file cannot start a game with half its numbers missing; the server
reports a bad file at start and offers the others (``load_editions``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar, overload

from .edition import (
    Auction,
    Bankruptcy,
    Buildings,
    CardSquare,
    Corners,
    Counterfeits,
    Deed,
    DeedSale,
    Dice,
    Edition,
    EditionError,
    End,
    Expropriation,
    FixedPayment,
    Group,
    Jail,
    Mortgage,
    MortgagedRent,
    Rent,
    RentRequest,
    Salary,
    Square,
    Start,
    Text,
    Tiebreak,
    TournamentPoints,
    Trades,
    Train,
    Turns,
    Valuation,
)
from .schema import SCHEMA_FILE, edition_problems
from .upgrade import upgrade_layout

T = TypeVar("T")

EDITIONS_DIR = Path(__file__).resolve().parent.parent.parent / "editions"


@overload
def _text(value: None) -> None: ...
@overload
def _text(value: str | Mapping[str, str]) -> Text: ...
def _text(value: str | Mapping[str, str] | None) -> Text | None:
    if value is None:
        return None
    return Text(value, value) if isinstance(value, str) else Text(value["it"], value["en"])


def _counts(value: Mapping[str, int]) -> Mapping[int, int]:
    return MappingProxyType({int(k): v for k, v in value.items()})


def _section(kind: type[T], data: Mapping[str, Any], **read: Callable[[Any], Any]) -> T:
    """A section's dataclass from its JSON object: plain fields as they are, ``read`` for the
    ones that need converting."""
    plain = {k: v for k, v in data.items() if k not in read}
    return kind(**plain, **{k: convert(data[k]) for k, convert in read.items() if k in data})


def _buildings(data: Mapping[str, Any]) -> Buildings:
    texts = ("small", "small_plural", "big", "big_plural")
    return _section(Buildings, data, per_visit=lambda v: MappingProxyType(dict(v)), **dict.fromkeys(texts, _text))


def _deed(data: Mapping[str, Any]) -> Deed:
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
        fixed_payments=tuple(
            FixedPayment(p["key"], _text(p["name"]), p["amount"], p.get("position"), p.get("square", True))
            for p in d["fixed_payments"]
        ),
        groups=tuple(Group(g["key"], _text(g["name"]), g["color"], g["kind"], g.get("lot", True)) for g in d["groups"]),
        deeds=tuple(_deed(x) for x in d["deeds"]),
        station_rents=tuple(d.get("station_rents") or ()),
        utility_multipliers=tuple(d.get("utility_multipliers") or ()),
        time_limit_minutes=d.get("time_limit_minutes"),
        max_amount=d["max_amount"],
        dice=_section(Dice, d["dice"]),
        start=_section(
            Start,
            d["start"],
            cash=_counts,
            deeds=_counts,
            notes=lambda v: MappingProxyType({int(n): _counts(split) for n, split in v.items()}),
        ),
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
        trades=_section(Trades, d["trades"]) if "trades" in d else Trades(),
        train=_section(Train, d["train"], name=_text) if "train" in d else None,
        max_players_with_banker=d["players"].get("max_with_playing_banker"),
        house_sizes=tuple(d["players"].get("house_sizes", ())),
        corners=_section(Corners, d["corners"]) if "corners" in d else Corners(),
        card_squares=tuple(_section(CardSquare, q, name=_text, positions=tuple) for q in d.get("card_squares", ())),
        raw=MappingProxyType(dict(data)),
    )


def _tournament_points(section: Mapping[str, Any] | None) -> TournamentPoints | None:
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
