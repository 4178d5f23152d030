"""The edition file's JSON Schema: it describes the built-in editions, names the field of each
problem, agrees with the policy registries, and a bad file is reported and skipped."""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from companion.core.editions.edition import EditionError
from companion.core.editions.loading import EDITIONS_DIR, edition_files, load_editions, parse_edition, validate_edition
from companion.core.editions.schema import field_path, load_schema
from companion.core.editions.upgrade import is_first_layout, upgrade_layout
from companion.core.policies import (
    auction,
    bankruptcy,
    buildings,
    jail,
    mortgage,
    mortgaged_rent,
    rent,
    salary,
    start,
    tiebreak,
    valuation,
)

SCHEMA = load_schema()
FILES = edition_files()


def _raw(name="classic-it"):
    return json.loads((EDITIONS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_the_schema_is_draft_2020_12_and_every_built_in_edition_follows_it():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {p.stem for p in FILES} >= {"classic-it", "campionato-2015"}
    assert all(p.name != "editions.schema.json" for p in FILES)
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert list(Draft202012Validator(SCHEMA).iter_errors(data)) == []
        assert validate_edition(data) == []


@pytest.mark.parametrize(
    "section, field, registry",
    [
        ("start", "policy", start.POLICIES),
        ("salary", "policy", salary.POLICIES),
        ("rent", "policy", rent.POLICIES),
        ("mortgaged_rent", "policy", mortgaged_rent.POLICIES),
        ("buildings", "policy", buildings.POLICIES),
        ("buildings", "big_sale", buildings.BIG_SALES),
        ("mortgage", "policy", mortgage.POLICIES),
        ("auction", "policy", auction.POLICIES),
        ("auction", "no_bids", auction.NO_BIDS),
        ("auction", "winner_cannot_pay", auction.WINNER_CANNOT_PAY),
        ("jail", "policy", jail.POLICIES),
        ("bankruptcy", "policy", bankruptcy.POLICIES),
        ("valuation", "policy", valuation.POLICIES),
        ("tiebreak", "policy", tiebreak.POLICIES),
        ("end", "tie", tiebreak.TIES),
    ],
)
def test_the_schema_names_exactly_the_policies_the_core_has(section, field, registry):
    assert SCHEMA["properties"][section]["properties"][field]["enum"] == list(registry)


@pytest.mark.parametrize(
    "path, text",
    [
        (["deeds", 3, "price"], "deeds[3].price"),
        (["start", "cash", "5"], "start.cash[5]"),
        (["buildings", "big", "en"], "buildings.big.en"),
        ([], ""),
    ],
)
def test_a_field_path_reads_like_the_file(path, text):
    assert field_path(path) == text


@pytest.mark.parametrize(
    "breaks, message",
    [
        (lambda e: e["deeds"][3].update(price=1.5), "classic-it: deeds[3].price must be a whole number"),
        (lambda e: e["deeds"][3].update(price=100.0), "classic-it: deeds[3].price must be a whole number"),
        (lambda e: e["deeds"][3].update(price=0), "classic-it: deeds[3].price must be at least 1"),
        (lambda e: e["deeds"][3].pop("mortgage"), "classic-it: deeds[3].mortgage is missing"),
        (lambda e: e["deeds"][3].update(morgage=3), "classic-it: deeds[3].morgage is not a known field"),
        (
            lambda e: e["start"]["cash"].update({"9": 1500}),
            'classic-it: start.cash key "9" must be a number of players',
        ),
        (lambda e: e["start"]["cash"].update({"3": "1500"}), "classic-it: start.cash[3] must be a whole number"),
        (lambda e: e["mortgage"].update(policy="lap_deadline"), "classic-it: mortgage.laps is missing"),
        (
            lambda e: e["mortgage"].update(policy="sometimes"),
            "classic-it: mortgage.policy must be one of interest, lap_deadline, none",
        ),
        (
            lambda e: e["mortgaged_rent"].update(policy="share_to_bank"),
            "classic-it: mortgaged_rent.share_percent is missing",
        ),
        (
            lambda e: e["bankruptcy"].update(policy="bank_pays_creditor_share"),
            "classic-it: bankruptcy.share_percent is missing",
        ),
        (
            lambda e: e["buildings"].update(policy="big_replaces_small", small_per_big=3),
            "classic-it: buildings.big_worth is missing",
        ),
        (
            lambda e: e["buildings"].update(policy="big_replaces_small", small_per_big=5, big_worth=6),
            "classic-it: buildings.small_per_big must be at most buildings.max_small",
        ),
        (lambda e: e["buildings"].update(policy="small_only"), "classic-it: deeds[0].rents needs 5 values"),
        (lambda e: e["salary"].update(policy="dice_times"), "classic-it: salary.dice_multiplier is missing"),
        (lambda e: e["groups"][0].update(color="brown"), "classic-it: groups[0].color must be a colour"),
        (
            lambda e: e["groups"][1].update(key=e["groups"][0]["key"]),
            "classic-it: groups[1].key 'brown' is a repeated key",
        ),
        (
            lambda e: (e["groups"][0].update(lot=False), e["deeds"][0].update(lot_penalty=10)),
            "classic-it: deeds[0].lot_penalty: its group 'brown' is no lot",
        ),
        (lambda e: e["groups"][0].update(lot="no"), "classic-it: groups[0].lot must be true or false"),
        (lambda e: e["fixed_payments"][0].update(amount=-5), "classic-it: fixed_payments[0].amount must be at least 1"),
        (lambda e: e["currency"]["name"].update(it=""), "classic-it: currency.name.it must not be empty"),
        (lambda e: e.update(rules={}), "classic-it: rules is not a known field"),
        (lambda e: e.update(id="Classic IT"), "Classic IT: id must be 1 to 64 lower-case letters"),
    ],
)
def test_each_problem_names_its_field(breaks, message):
    data = _raw()
    breaks(data)
    problems = validate_edition(data)
    assert any(p.startswith(message) for p in problems), problems
    with pytest.raises(EditionError) as refused:
        parse_edition(data)
    assert refused.value.problems == problems


def test_every_problem_is_listed_not_just_the_first():
    data = _raw()
    data["deeds"][0]["price"] = "60"
    del data["jail"]["fine"]
    data["players"]["min"] = 1
    assert validate_edition(data) == [
        "classic-it: deeds[0].price must be a whole number",
        "classic-it: jail.fine is missing",
        "classic-it: players.min must be at least 2",
    ]


def test_anything_but_an_object_is_refused_in_words():
    assert validate_edition([]) == ["edition: the edition must be an object"]
    assert "edition: id is missing" in validate_edition({})


def test_a_file_in_the_layout_before_policies_still_loads_as_the_same_game():
    new = _raw()
    old = copy.deepcopy(new)
    for name in ("$schema", "mortgaged_rent", "bankruptcy", "valuation", "tiebreak"):
        old.pop(name)
    old["starting_cash"] = old.pop("start")["cash"]
    old["salary"] = {"amount": old["salary"]["amount"]}
    rent_rules, buildings_rules = old.pop("rent"), old["buildings"]
    old["rules"] = {
        "double_rent_on_group": "unmortgaged_deeds",
        "sets_count_mortgaged": rent_rules["sets_count_mortgaged"],
        "rent_request": rent_rules["request"],
        "dice_max": old.pop("dice")["max_total"],
        "hotel_sale": "group",
        "building_shortage_auction": buildings_rules.pop("shortage_auction"),
        "mortgaged_transfer_fee_percent": old["mortgage"].pop("transfer_fee_percent"),
        "auction_no_bids": old["auction"].pop("no_bids"),
        "auction_winner_cannot_pay": old["auction"].pop("winner_cannot_pay"),
        "jail_cards_total": old["jail"].pop("cards_total"),
    }
    for section in ("buildings", "mortgage", "auction", "jail"):
        old[section].pop("policy")
    buildings_rules.pop("big_sale")
    assert is_first_layout(old) and not is_first_layout(new)
    assert parse_edition(old) == parse_edition(new)
    assert parse_edition(old).raw == old  # a pinned game's content keeps its hash
    assert upgrade_layout(new) is new


def test_a_bad_file_is_reported_and_the_others_load(tmp_path):
    good = _raw()
    (tmp_path / "classic-it.json").write_text(json.dumps(good), encoding="utf-8")
    bad = dict(_raw(), id="broken")
    bad["deeds"][3]["price"] = "cheap"
    (tmp_path / "broken.json").write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "torn.json").write_text('{"id": "torn", ', encoding="utf-8")
    (tmp_path / "misnamed.json").write_text(json.dumps(dict(good, id="other")), encoding="utf-8")
    (tmp_path / "editions.schema.json").write_text("{}", encoding="utf-8")
    loaded = load_editions(tmp_path)
    assert list(loaded.editions) == ["classic-it"]
    assert loaded.problems[0] == "broken.json: broken: deeds[3].price must be a whole number"
    assert loaded.problems[1] == "misnamed.json: the id 'other' must match the file name"
    assert loaded.problems[2].startswith("torn.json: not a readable JSON file")
    assert len(loaded.problems) == 3


def _integers(node, path=""):
    """Every place of the schema that holds a whole number, with the schema that bounds it."""
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        target = SCHEMA["$defs"].get(ref.rsplit("/", 1)[-1], {}) if ref.startswith("#/$defs/") else {}
        kinds = node.get("type", target.get("type"))
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            yield path, {**target, **node}
        for key, value in node.items():
            if key != "$defs":
                yield from _integers(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integers(value, f"{path}[{i}]")


def test_every_whole_number_of_the_schema_has_a_range_and_every_list_a_length():
    integers = list(_integers(SCHEMA))
    assert len(integers) > 60
    unbounded = [path for path, bound in integers if "minimum" not in bound or "maximum" not in bound]
    assert unbounded == []
    # Whatever the bank adds up of amounts within max_amount (eight players' cash, a lifetime
    # of salaries) stays far inside a 64-bit signed column and a phone's exact numbers (2^53).
    assert SCHEMA["properties"]["max_amount"]["maximum"] * 1000 < 2**53 < 2**63
    amounts = [path for path, bound in integers if bound.get("x-amount")]
    assert {
        "/properties/deeds/items/properties/price",
        "/properties/start/properties/cash/additionalProperties",
    } <= set(amounts)
    for path, bound in integers:
        if bound.get("x-amount"):
            assert bound["maximum"] == SCHEMA["properties"]["max_amount"]["maximum"], path
    big_lists = ["deeds", "groups", "squares", "fixed_payments", "banknotes", "card_squares"]
    assert all("maxItems" in SCHEMA["properties"][name] for name in big_lists)


@pytest.mark.parametrize(
    "breaks, message",
    [
        (lambda e: e["deeds"][0].update(price=10**30), "deeds[0].price must be at most 1000000000000"),
        (lambda e: e["deeds"][0].update(price=100_001), "deeds[0].price must be at most max_amount (100000)"),
        (lambda e: e["deeds"][0]["rents"].__setitem__(0, -2), "deeds[0].rents[0] must be at least 0"),
        (lambda e: e["station_rents"].__setitem__(3, 10**6), "station_rents[3] must be at most max_amount (100000)"),
        (lambda e: e["salary"].update(amount=10**6), "salary.amount must be at most max_amount (100000)"),
        (lambda e: e["auction"].update(min_raise=10**6), "auction.min_raise must be at most max_amount (100000)"),
        (lambda e: e["jail"].update(card_max_price=10**6), "jail.card_max_price must be at most max_amount (100000)"),
        (lambda e: e.update(banknotes=[10**6, 1]), "banknotes[0] must be at most max_amount (100000)"),
        (lambda e: e.update(max_amount=2**63), "max_amount must be at most 1000000000000"),
        (lambda e: e["buildings"].update(supply_big=10**9), "buildings.supply_big must be at most 10000"),
        (lambda e: e["buildings"].update(max_small=10**9), "buildings.max_small must be at most 20"),
        (lambda e: e["starting_notes"].update({"500": 10**9}), "starting_notes[500] must be at most 1000"),
        (lambda e: e["starting_notes"].update({"7": 1}), "starting_notes holds notes the edition does not print: [7]"),
        (
            lambda e: e.update(utility_multipliers=[4, 900], max_amount=10_000),
            "utility_multipliers[1] times dice.max_total (12) must be at most max_amount (10000)",
        ),
    ],
)
def test_every_number_is_within_its_range(breaks, message):
    data = _raw()
    breaks(data)
    problems = validate_edition(data)
    assert f"classic-it: {message}" in problems, problems
    with pytest.raises(EditionError):
        parse_edition(data)


def test_the_built_in_editions_are_within_every_range():
    loaded = load_editions()
    assert loaded.problems == [] and sorted(loaded.editions) == sorted(p.stem for p in FILES)
