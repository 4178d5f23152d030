"""An edition's data checked against ``editions.schema.json`` (JSON Schema, draft 2020-12),
then for what a schema cannot see; every problem as a sentence that names its field.

The schema is the one description of the edition file: the loader, the import of a group's
own edition and an editor's hints all read it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend

SCHEMA_FILE = Path(__file__).resolve().parent.parent.parent / "editions" / "editions.schema.json"

# JSON Schema counts 100.0 as an integer; an amount of money written with a decimal point is
# refused, as the API refuses it.
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)
)
_Validator = extend(Draft202012Validator, type_checker=_TYPES)  # type: ignore[no-untyped-call]  # unannotated in its stubs

# The schema marks every amount of money ``x-amount``: a schema cannot compare a value with
# another field's (the edition's own ``max_amount``), so this validator reports each amount with
# its path, and ``cross_problems`` compares them.
AMOUNT = "x-amount"


def _each_amount(validator: Any, marked: Any, instance: Any, schema: Any) -> Iterable[ValidationError]:
    if marked and isinstance(instance, int) and not isinstance(instance, bool):
        yield ValidationError("an amount", validator=AMOUNT, instance=instance)


_AmountFinder = extend(_Validator, validators={AMOUNT: _each_amount})  # type: ignore[no-untyped-call]  # as above

_TYPE_WORDS = {
    "integer": "a whole number",
    "string": "text",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}


def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema


@lru_cache(maxsize=1)
def _validator() -> Validator:
    # The schema ships with this code: the tests check it against JSON Schema's own
    # (tests/core/test_edition_schema.py), not every start of the server.
    validator: Validator = _Validator(load_schema())
    return validator


@lru_cache(maxsize=1)
def _amount_finder() -> Validator:
    finder: Validator = _AmountFinder(load_schema())
    return finder


def field_path(path: Iterable[str | int]) -> str:
    """``["deeds", 3, "price"]`` as ``deeds[3].price``; keys that are numbers (a player count,
    a banknote) in brackets too."""
    out = ""
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _words(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _missing(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    return [f"{_join(where, name)} is missing" for name in expected if name not in instance]


def _unknown_fields(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    known = set(schema.get("properties", {}))
    return [f"{_join(where, name)} is not a known field" for name in instance if name not in known]


def _wrong_type(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    kinds = [expected] if isinstance(expected, str) else expected
    return [f"{where or 'the edition'} must be {' or '.join(_TYPE_WORDS.get(k, k) for k in kinds)}"]


def _not_one_of(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    return [f"{where or 'the edition'} must be one of {', '.join(map(str, expected))}, not {_words(instance)}"]


def _too_few(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    return [f"{where or 'the edition'} needs at least {expected} {'value' if expected == 1 else 'values'}"]


def _not_allowed(where: str, expected: Any, instance: Any, schema: Any) -> list[str]:
    """A ``not`` of the schema: the fields the object's policy does not go with, or the value."""
    fields = expected.get("required", []) if isinstance(expected, dict) else []
    policy = instance.get("policy") if isinstance(instance, dict) else None
    return [f"{_join(where, name)} does not go with the policy {policy}" for name in fields] or [
        f"{where or 'the edition'} is not allowed here"
    ]


# The kinds of schema error said in one sentence: ``subject`` is the field (or the edition),
# ``expected`` what the schema asks (``expected_json`` as JSON), ``means`` what a pattern means.
_SAID = {
    "const": "{subject} must be {expected_json}",
    "minimum": "{subject} must be at least {expected}",
    "maximum": "{subject} must be at most {expected}",
    "minLength": "{subject} must not be empty",
    "maxLength": "{subject} must be at most {expected} characters",
    "uniqueItems": "{subject} has a repeated value",
    "pattern": "{subject} {means}",
}

# The kinds said field by field or from what the file holds: from the field's path, what the
# schema asks, what the file holds and the schema's part that refused it.
_SAID_BY: dict[str, Callable[[str, Any, Any, Any], list[str]]] = {
    "required": _missing,
    "additionalProperties": _unknown_fields,
    "type": _wrong_type,
    "enum": _not_one_of,
    "minItems": _too_few,
    "not": _not_allowed,
}


def _sentence(error: ValidationError) -> list[str]:
    """jsonschema's error as sentences about the edition's fields (a kind the tables do not
    word, as the field and jsonschema's own message)."""
    where = field_path(error.absolute_path)
    kind = error.validator if isinstance(error.validator, str) else ""
    # What the schema asked and what the file holds: JSON values of any shape.
    expected: Any = error.validator_value
    instance: Any = error.instance
    schema: Any = error.schema
    subject = where or "the edition"
    means = schema.get("x-pattern-means", "has the wrong form") if isinstance(schema, dict) else ""
    if "propertyNames" in error.schema_path:
        return [f"{subject} key {_words(instance)} {means}"]
    if kind in _SAID:
        return [_SAID[kind].format(subject=subject, expected=expected, expected_json=_words(expected), means=means)]
    if kind in _SAID_BY:
        return _SAID_BY[kind](where, expected, instance, schema)
    return [f"{subject}: {error.message}"]


def _by_field(error: ValidationError) -> list[str]:
    """An error's place in the file, list items by their index."""
    return [f"{p:09d}" if isinstance(p, int) else str(p) for p in error.absolute_path]


def schema_problems(data: Any) -> list[str]:
    """What the schema refuses in ``data``, one sentence per problem, sorted by field (list
    items by their index)."""
    errors = sorted(_validator().iter_errors(data), key=_by_field)
    sentences = [s for e in errors for s in _sentence(e)]
    return list(dict.fromkeys(sentences))


def _repeated(items: list[Mapping[str, Any]], where: str) -> list[str]:
    seen, problems = set(), []
    for i, item in enumerate(items):
        if item["key"] in seen:
            problems.append(f"{where}[{i}].key {item['key']!r} is a repeated key")
        seen.add(item["key"])
    return problems


def _rents_needed(data: Mapping[str, Any], deed: Mapping[str, Any]) -> int:
    """How many rents a street deed lists: one, or one with no building, one per small building
    and one for the big building when the edition has one."""
    if not deed.get("buildable", True):
        return 1
    buildings = data["buildings"]
    max_small: int = buildings["max_small"]
    return max_small + 1 + (0 if buildings["policy"] == "small_only" else 1)


def cross_problems(data: Mapping[str, Any]) -> list[str]:
    """What a schema cannot see, in data the schema accepts: a player range the starting cash
    (or the dealt deeds) does not cover, more deeds dealt than can be, repeated keys, a deed in an unknown group, starting
    notes by table size that are not the edition's notes or do not add up to that size's cash, a lot
    penalty on a deed of a group that is no lot, a street whose rents do not
    cover every building step, a big building needing more small ones than a deed takes, an
    amount over the edition's own ``max_amount``."""
    return [
        *_player_problems(data),
        *_dealt_problems(data),
        *_start_note_problems(data),
        *_key_problems(data),
        *_deed_problems(data),
        *_building_problems(data["buildings"]),
        *_turn_problems(data),
        *_amount_problems(data),
    ]


def _player_sizes(data: Mapping[str, Any]) -> range:
    """Every table size the edition is played at."""
    return range(data["players"]["min"], data["players"]["max"] + 1)


def _player_problems(data: Mapping[str, Any]) -> list[str]:
    """A player range upside down, and a table size with no starting cash."""
    players, cash = data["players"], data["start"]["cash"]
    problems = ["players must be a range within 2..8 (min at most max)"] if players["min"] > players["max"] else []
    return problems + [f"start.cash has no amount for {n} players" for n in _player_sizes(data) if str(n) not in cash]


def _dealt_problems(data: Mapping[str, Any]) -> list[str]:
    """Where deeds are dealt at the start: a table size with no count, and one dealt more deeds
    than can be dealt."""
    dealt = data["start"].get("deeds")
    if dealt is None:
        return []
    dealable = sum(1 for deed in data["deeds"] if deed.get("dealable", True))
    problems = []
    for n in _player_sizes(data):
        if str(n) not in dealt:
            problems.append(f"start.deeds has no count for {n} players")
        elif n * dealt[str(n)] > dealable:
            problems.append(f"start.deeds deals {n} × {dealt[str(n)]} deeds but only {dealable} can be dealt")
    return problems


def _start_note_problems(data: Mapping[str, Any]) -> list[str]:
    """Starting notes by table size that the edition does not print, or that do not add up to
    that size's starting cash."""
    notes, cash = set(data["banknotes"]), data["start"]["cash"]
    problems = []
    for n, split in (data["start"].get("notes") or {}).items():
        faces = {int(face) for face in split}
        if not faces <= notes:
            problems.append(f"start.notes[{n}] holds notes the edition does not print: {sorted(faces - notes)}")
        total = sum(int(face) * count for face, count in split.items())
        if n in cash and total != cash[n]:
            problems.append(f"start.notes[{n}] adds up to {total}, not the starting cash {cash[n]}")
    return problems


def _key_problems(data: Mapping[str, Any]) -> list[str]:
    """A key repeated among the groups, the deeds, the fixed payments or the squares."""
    problems = [p for section in ("groups", "deeds", "fixed_payments") for p in _repeated(data[section], section)]
    return problems + _repeated(data.get("squares", []), "squares")


def _deed_problems(data: Mapping[str, Any]) -> list[str]:
    """Deed by deed: a lot penalty in a group that is no lot, a group the edition does not have,
    and a street's rents that do not cover every building step."""
    kinds = {g["key"]: g["kind"] for g in data["groups"]}
    no_lot = {g["key"] for g in data["groups"] if not g.get("lot", True)}
    problems = []
    for i, deed in enumerate(data["deeds"]):
        where = f"deeds[{i}]"
        if deed["group"] in no_lot and deed.get("lot_penalty") is not None:
            problems.append(f"{where}.lot_penalty: its group {deed['group']!r} is no lot")
        if deed["group"] not in kinds:
            problems.append(f"{where}.group {deed['group']!r} is not one of the edition's groups")
        elif kinds[deed["group"]] == "street":
            problems += _rent_problems(data, deed, where)
    return problems


def _rent_problems(data: Mapping[str, Any], deed: Mapping[str, Any], where: str) -> list[str]:
    """A street whose rents are not one per building step (``_rents_needed``)."""
    needed = _rents_needed(data, deed)
    if len(deed.get("rents", [])) == needed:
        return []
    if needed == 1:
        steps = "the base rent"
    else:
        steps = "no building, each small building" + (
            ", the big one" if needed == data["buildings"]["max_small"] + 2 else ""
        )
    return [f"{where}.rents needs {needed} values ({steps})"]


def _building_problems(buildings: Mapping[str, Any]) -> list[str]:
    """Building numbers that contradict the policy: a big building needing more small ones than a
    deed takes, or worth fewer; small ones where only big ones go up."""
    problems = []
    if buildings["policy"] == "big_replaces_small":
        if buildings["small_per_big"] > buildings["max_small"]:
            problems.append("buildings.small_per_big must be at most buildings.max_small")
        if buildings["big_worth"] < buildings["small_per_big"]:
            problems.append("buildings.big_worth must be at least buildings.small_per_big")
    if buildings["policy"] == "big_only" and buildings["max_small"] != 0:
        problems.append("buildings.max_small must be 0 with the policy big_only")
    return problems


def _amount_problems(data: Mapping[str, Any]) -> list[str]:
    """Amounts over the edition's own ``max_amount`` (a price, a rent, a fee, the starting
    cash, a banknote...), and a multiplier of the dice that pays more than it at the dice's
    highest total: the bank meets no payment it was not told it could hold."""
    most = data["max_amount"]
    problems = []
    found = (e for e in _amount_finder().iter_errors(data) if e.validator == AMOUNT)
    for error in sorted(found, key=_by_field):
        if error.instance > most:
            problems.append(f"{field_path(error.absolute_path)} must be at most max_amount ({most})")
    top = data["dice"]["max_total"]
    multipliers = [(f"utility_multipliers[{i}]", m) for i, m in enumerate(data.get("utility_multipliers") or [])]
    if "dice_multiplier" in data["salary"]:
        multipliers.append(("salary.dice_multiplier", data["salary"]["dice_multiplier"]))
    multipliers += [
        (f"squares[{i}].multiplier", q["multiplier"])
        for i, q in enumerate(data.get("squares", []))
        if "multiplier" in q
    ]
    for where, multiplier in multipliers:
        if multiplier * top > most:
            problems.append(f"{where} times dice.max_total ({top}) must be at most max_amount ({most})")
    notes = set(data["banknotes"])
    faces = {int(face) for face in data["starting_notes"]}
    if not faces <= notes:
        problems.append(f"starting_notes holds notes the edition does not print: {sorted(faces - notes)}")
    return problems


def _turn_problems(data: Mapping[str, Any]) -> list[str]:
    """What needs the bank to keep the turns, or fits the dice and the table: a jail left by
    turns, a square that makes a player sit out, trades bound to the player in turn, winning
    dice totals the dice cannot roll, then what must fit the table (``_table_problems``)."""
    problems = []
    counted = (data.get("turns") or {}).get("counted", False)
    if (data.get("turns") or {}).get("trades_with_active") and not counted:
        problems.append("turns.trades_with_active needs turns.counted")
    jail = data["jail"]
    for name in ("from_next_turn", "turns"):
        if jail.get(name) and not counted:
            problems.append(f"jail.{name} needs turns.counted")
    top = data["dice"]["max_total"]
    for i, square in enumerate(data.get("squares", [])):
        if square["policy"] == "sit_out" and not counted:
            problems.append(f"squares[{i}] (sit_out) needs turns.counted")
        if any(total > top for total in square.get("totals", [])):
            problems.append(f"squares[{i}].totals must be at most dice.max_total ({top})")
    return problems + _table_problems(data)


def _table_problems(data: Mapping[str, Any]) -> list[str]:
    """What must fit the table: a seat limit with a playing banker, or a house's table size,
    outside the player range, and a train's salary where the salary goes by the dice."""
    problems = []
    players = data["players"]
    with_banker = players.get("max_with_playing_banker")
    if with_banker is not None and not players["min"] <= with_banker <= players["max"]:
        problems.append("players.max_with_playing_banker must be within players.min..players.max")
    train = data.get("train")
    if train is not None and train.get("salary", True) and data["salary"]["policy"] != "fixed":
        problems.append("train.salary needs a fixed salary (the move has no dice total to pay by)")
    for size in players.get("house_sizes", ()):
        if not players["min"] <= size <= players["max"]:
            problems.append(f"players.house_sizes: {size} is not within players.min..players.max")
    return problems


def edition_problems(data: Any) -> list[str]:
    """Every problem of an edition's data, each starting with the edition's id
    (``classic-it: deeds[3].price must be a whole number``); empty when it is valid."""
    eid = data.get("id") if isinstance(data, Mapping) else None
    prefix = eid if isinstance(eid, str) and eid else "edition"
    problems = schema_problems(data)
    if not problems:
        problems = cross_problems(data)
    return [f"{prefix}: {p}" for p in problems]
