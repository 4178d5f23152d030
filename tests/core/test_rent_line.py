"""The rent line that applies now (what the deed page marks in the title deed's table) names the
printed amount ``rent_due`` asks, in every edition; which deeds a trade can take; a break asked
of a deed that has no big building."""

from __future__ import annotations

import pytest
from conftest import EDITIONS, give, give_group, new_state, refused

from companion.core.rules import rent_due, rent_line, require_tradable, sell_building

ALL = sorted(EDITIONS)


def printed(edition, deed, line: str, dice: int = 7) -> int:
    """The amount the title deed prints on ``line``."""
    kind = edition.group(deed.group).kind
    name, _, count = line.rpartition("_")
    if line == "base":
        return deed.rents[0]
    if line == "whole_group":
        return deed.rents[0] * 2
    if line == "big":
        return deed.rents[-1]
    if name == "small":
        return deed.rents[int(count)]
    if kind == "station":
        return edition.station_rents[int(count) - 1]
    return edition.utility_multipliers[int(count) - 1] * dice


def streets(edition):
    return [d for d in edition.deeds if edition.group(d.group).kind == "street"]


@pytest.mark.parametrize("edition_id", ALL)
def test_each_street_line_is_the_rent_asked(edition_id):
    edition = EDITIONS[edition_id]
    for deed in streets(edition):
        state = new_state(edition_id, players=2)
        assert rent_line(state, deed.key) is None  # nobody owns it
        give(state, "a", deed.key)
        assert printed(edition, deed, rent_line(state, deed.key)) == rent_due(state, deed.key)
        group = give_group(state, "a", deed.group)
        assert printed(edition, deed, rent_line(state, deed.key)) == rent_due(state, deed.key)
        if not deed.buildable or deed.building_cost is None:
            continue
        for houses in range(1, edition.buildings.max_small + 1):
            give(state, "a", *group, houses=houses)
            assert rent_line(state, deed.key) == f"small_{houses}"
            assert printed(edition, deed, f"small_{houses}") == rent_due(state, deed.key)
        if edition.buildings.big:
            give(state, "a", *group, hotel=True)
            assert rent_line(state, deed.key) == "big" and deed.rents[-1] == rent_due(state, deed.key)


@pytest.mark.parametrize("edition_id", [e for e in ALL if any(g.kind != "street" for g in EDITIONS[e].groups)])
def test_stations_and_utilities_count_the_ones_held(edition_id):
    edition = EDITIONS[edition_id]
    for group in (g for g in edition.groups if g.kind != "street"):
        deeds = edition.deeds_in_group(group.key)
        state = new_state(edition_id, players=2)
        for held, deed in enumerate(deeds, start=1):
            give(state, "a", deed.key)
            line = rent_line(state, deeds[0].key)
            table = edition.station_rents if group.kind == "station" else edition.utility_multipliers
            assert line == f"held_{min(held, len(table))}"
            assert printed(edition, deeds[0], line) == rent_due(state, deeds[0].key, dice=7)


def test_a_mortgaged_deed_marks_a_line_only_where_it_still_asks_rent():
    classic = new_state("classic-it")
    give(classic, "a", "via-roma", mortgaged=True)
    assert rent_due(classic, "via-roma") == 0 and rent_line(classic, "via-roma") is None
    motopolis = new_state("motopolis")
    key = streets(motopolis.edition)[0].key
    give(motopolis, "a", key, mortgaged=True)
    assert motopolis.edition.mortgaged_rent.share_percent
    assert rent_due(motopolis, key) > 0 and rent_line(motopolis, key) == "base"


def test_a_deed_a_trade_cannot_take_is_named_with_the_reason():
    state = new_state("classic-it")
    give(state, "a", "vicolo-corto", houses=1)
    give(state, "a", "vicolo-stretto")
    give(state, "a", "via-roma", mortgaged=True)
    refused("group_has_buildings", require_tradable, state, state.players["a"], "vicolo-stretto")
    refused("not_owner", require_tradable, state, state.players["b"], "via-roma")
    require_tradable(state, state.players["a"], "via-roma")  # mortgaged deeds trade in the classic rules
    motopolis = new_state("motopolis")
    key = streets(motopolis.edition)[0].key
    give(motopolis, "a", key, mortgaged=True)
    refused("mortgaged_not_tradable", require_tradable, motopolis, motopolis.players["a"], key)


def test_breaking_a_big_building_on_a_deed_with_only_small_ones_is_refused():
    state = new_state("classic-it")
    give_group(state, "a", "brown", houses=2)
    error = refused("no_big_building", sell_building, state, "a", "vicolo-corto", break_hotel=True)
    assert "Vicolo Corto" in str(error)
