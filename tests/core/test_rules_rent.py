"""Rent: the printed tables, double rent on whole groups, stations, utilities, requests."""

from datetime import timedelta

import pytest
from conftest import (
    EDITION_IDS,
    EDITIONS,
    NOW,
    act,
    cash,
    give,
    give_group,
    new_state,
    refused,
    set_deed,
    set_game,
    set_player,
    street_groups,
)

from companion.core.editions.edition import RentRequest
from companion.core.rules import pay_rent, rent_confirm, rent_due, rent_lapse, rent_request

STREETS = [(e, d.key) for e in EDITION_IDS for d in EDITIONS[e].deeds if EDITIONS[e].group(d.group).kind == "street"]
GROUPS = [(e, g) for e in EDITION_IDS for g in street_groups(e)]


@pytest.mark.parametrize("edition_id,deed_key", STREETS)
def test_an_unbuilt_street_alone_pays_its_base_rent(edition_id, deed_key):
    state = new_state(edition_id)
    give(state, "a", deed_key)
    deed = state.edition.deed(deed_key)
    group_size = len(state.edition.deeds_in_group(deed.group))
    assert rent_due(state, deed_key) == (deed.rents[0] if group_size > 1 else 2 * deed.rents[0])


@pytest.mark.parametrize("houses", [1, 2, 3, 4])
@pytest.mark.parametrize("edition_id,deed_key", STREETS)
def test_a_built_street_pays_the_printed_rent_for_its_houses(edition_id, deed_key, houses):
    state = new_state(edition_id)
    give_group(state, "a", state.edition.deed(deed_key).group, houses=houses)
    assert rent_due(state, deed_key) == state.edition.deed(deed_key).rents[houses]


@pytest.mark.parametrize("edition_id,deed_key", STREETS)
def test_a_hotel_pays_the_last_printed_rent(edition_id, deed_key):
    state = new_state(edition_id)
    give_group(state, "a", state.edition.deed(deed_key).group, hotel=True)
    assert rent_due(state, deed_key) == state.edition.deed(deed_key).rents[5]


@pytest.mark.parametrize("edition_id,group", GROUPS)
def test_a_whole_unbuilt_group_pays_double(edition_id, group):
    state = new_state(edition_id)
    for key in give_group(state, "a", group):
        assert rent_due(state, key) == 2 * state.edition.deed(key).rents[0]


@pytest.mark.parametrize("edition_id,group", GROUPS)
def test_double_rent_holds_on_unmortgaged_deeds_when_another_is_mortgaged(edition_id, group):
    # Campionato says so explicitly; the Hasbro rules say the same for the classic board.
    state = new_state(edition_id)
    first, *others = give_group(state, "a", group)
    set_deed(state, first, mortgaged=True)
    assert rent_due(state, first) == 0
    for key in others:
        assert rent_due(state, key) == 2 * state.edition.deed(key).rents[0]


@pytest.mark.parametrize("edition_id,group", GROUPS)
def test_an_unbuilt_deed_of_a_partly_built_group_pays_double(edition_id, group):
    state = new_state(edition_id)
    first, *others = give_group(state, "a", group)
    set_deed(state, first, houses=1)
    set_game(state, bank_small=state.bank_small - 1)
    assert rent_due(state, first) == state.edition.deed(first).rents[1]
    for key in others:
        assert rent_due(state, key) == 2 * state.edition.deed(key).rents[0]


def test_a_group_split_between_owners_pays_single_rent():
    state = new_state()
    give(state, "a", "via-roma", "corso-impero")
    give(state, "b", "largo-augusto")
    assert rent_due(state, "via-roma") == 26


@pytest.mark.parametrize(
    "rule,mortgaged,built,expected",
    [
        ("double_if_none_mortgaged", True, False, 22),
        ("double_if_none_mortgaged", False, True, 44),
        ("double_if_none_mortgaged", False, False, 44),
        ("double_if_none_mortgaged_or_built", False, True, 22),
        ("double_if_none_mortgaged_or_built", True, False, 22),
        ("double_if_none_mortgaged_or_built", False, False, 44),
        ("never_double", False, False, 22),
    ],
)
def test_other_double_rent_variants(rule, mortgaged, built, expected):
    state = new_state(rent={"policy": rule})
    give(state, "a", "viale-costantino", "viale-traiano", "piazza-giulio-cesare")
    set_deed(state, "piazza-giulio-cesare", mortgaged=mortgaged)
    if built:
        set_deed(state, "viale-traiano", houses=1)
        set_game(state, bank_small=state.bank_small - 1)
    assert rent_due(state, "viale-costantino") == expected


STATIONS = ["stazione-sud", "stazione-ovest", "stazione-nord", "stazione-est"]


@pytest.mark.parametrize("edition_id", EDITION_IDS)
@pytest.mark.parametrize("count,rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_station_rent_goes_by_how_many_the_owner_holds(edition_id, count, rent):
    state = new_state(edition_id)
    give(state, "a", *STATIONS[:count])
    give(state, "b", *STATIONS[count:])
    for key in STATIONS[:count]:
        assert rent_due(state, key) == rent


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_mortgaged_stations_still_count_towards_the_set(edition_id):
    state = new_state(edition_id)
    give(state, "a", *STATIONS)
    set_deed(state, "stazione-est", mortgaged=True)
    assert rent_due(state, "stazione-sud") == 200
    assert rent_due(state, "stazione-est") == 0


def test_a_setting_can_leave_mortgaged_stations_out_of_the_set():
    state = new_state(rent={"sets_count_mortgaged": False})
    give(state, "a", *STATIONS)
    set_deed(state, "stazione-est", mortgaged=True)
    assert rent_due(state, "stazione-sud") == 100


UTILITIES = ["societa-elettrica", "societa-acqua-potabile"]


@pytest.mark.parametrize("edition_id", EDITION_IDS)
@pytest.mark.parametrize("dice", range(2, 13))
def test_utility_rent_is_4_or_10_times_the_dice(edition_id, dice):
    state = new_state(edition_id)
    give(state, "a", "societa-elettrica")
    give(state, "b", "societa-acqua-potabile")
    assert rent_due(state, "societa-elettrica", dice) == 4 * dice
    give(state, "a", "societa-acqua-potabile")
    for key in UTILITIES:
        assert rent_due(state, key, dice) == 10 * dice


@pytest.mark.parametrize("dice", [13, 14, 15])
def test_the_speed_die_counts_in_campionato_utility_rent(dice):
    state = new_state("campionato-2015")
    give(state, "a", "societa-elettrica")
    assert rent_due(state, "societa-elettrica", dice) == 4 * dice


@pytest.mark.parametrize(
    "edition_id,dice",
    [
        ("classic-it", 13),
        ("classic-it", 1),
        ("classic-it", None),
        ("classic-it", True),
        ("classic-it", "7"),
        ("campionato-2015", 16),
        ("campionato-2015", 0),
    ],
)
def test_utility_rent_refuses_impossible_dice(edition_id, dice):
    state = new_state(edition_id)
    give(state, "a", "societa-elettrica")
    refused("invalid_dice", rent_due, state, "societa-elettrica", dice)
    refused("invalid_dice", pay_rent, state, "b", "societa-elettrica", dice)


def test_nobody_owns_it_no_rent():
    state = new_state()
    assert rent_due(state, "via-roma") == 0


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_paying_rent_moves_the_rent_to_the_owner(edition_id):
    state = new_state(edition_id)
    give(state, "a", "parco-della-vittoria", "viale-dei-giardini", houses=2)
    outcome = act(state, pay_rent(state, "b", "parco-della-vittoria"))
    assert cash(state) == {"a": 2100, "b": 900, "c": 1500}
    assert outcome.result == {"amount": 600, "to": "a"}


def test_paying_utility_rent_with_dice():
    state = new_state()
    give(state, "a", *UTILITIES)
    act(state, pay_rent(state, "c", "societa-acqua-potabile", 9))
    assert cash(state) == {"a": 1590, "b": 1500, "c": 1410}


def test_rent_refusals_change_nothing():
    state = new_state()
    give(state, "a", "via-verdi")
    give(state, "b", "corso-raffaello", mortgaged=True)
    refused("own_deed", pay_rent, state, "a", "via-verdi")
    refused("deed_not_owned", pay_rent, state, "a", "piazza-dante")
    refused("deed_mortgaged", pay_rent, state, "a", "corso-raffaello")
    refused("unknown_deed", pay_rent, state, "b", "boardwalk")
    refused("unknown_player", pay_rent, state, "z", "via-verdi")
    set_player(state, "c", cash=13)
    refused("insufficient_cash", pay_rent, state, "c", "via-verdi")
    set_player(state, "b", bankrupt=True)
    refused("player_bankrupt", pay_rent, state, "b", "via-verdi")
    set_game(state, status="setup")
    refused("game_not_started", pay_rent, state, "c", "via-verdi")


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_the_owner_requests_rent_and_the_lander_confirms(edition_id):
    state = new_state(edition_id)
    give(state, "a", "via-verdi", "corso-raffaello", "piazza-dante")
    act(state, rent_request(state, "r1", "a", "b", "via-verdi", NOW))
    assert state.pending["r1"].amount == 28
    assert cash(state)["b"] == 1500
    refused("rent_already_requested", rent_request, state, "r2", "a", "b", "via-verdi", NOW)
    refused("pending_exists", rent_request, state, "r1", "a", "c", "via-verdi", NOW)
    refused("not_your_rent_request", rent_confirm, state, "r1", "c", NOW)
    refused("not_your_rent_request", rent_lapse, state, "r1", "b", NOW)
    act(state, rent_confirm(state, "r1", "b", NOW + timedelta(hours=1)))
    assert cash(state) == {"a": 1528, "b": 1472, "c": 1500}
    assert state.pending == {}


def test_the_owner_or_the_banker_lapses_a_request():
    state = new_state("campionato-2015")
    give(state, "a", "via-verdi")
    act(state, rent_request(state, "r1", "a", "b", "via-verdi", NOW))
    act(state, rent_lapse(state, "r1", "a", NOW))
    refused("unknown_rent_request", rent_confirm, state, "r1", "b", NOW)
    act(state, rent_request(state, "r2", "a", "b", "via-verdi", NOW))
    act(state, rent_lapse(state, "r2", None, NOW))
    assert state.pending == {}


def test_a_request_lapses_by_itself_after_the_set_seconds():
    state = new_state("campionato-2015", rent={"request": RentRequest(enabled=True, lapse_seconds=90)})
    give(state, "a", "via-verdi")
    act(state, rent_request(state, "r1", "a", "b", "via-verdi", NOW))
    late = NOW + timedelta(seconds=90)
    refused("rent_request_lapsed", rent_confirm, state, "r1", "b", late)
    refused("not_your_rent_request", rent_lapse, state, "r1", "b", NOW + timedelta(seconds=89))
    act(state, rent_lapse(state, "r1", "b", late))
    assert cash(state)["b"] == 1500


def test_rent_request_refusals():
    state = new_state("campionato-2015", rent={"request": RentRequest(enabled=False)})
    give(state, "a", "via-verdi")
    refused("rent_requests_off", rent_request, state, "r1", "a", "b", "via-verdi", NOW)
    state = new_state("campionato-2015")
    give(state, "a", "via-verdi")
    refused("not_owner", rent_request, state, "r1", "c", "b", "via-verdi", NOW)
    refused("own_deed", rent_request, state, "r1", "a", "a", "via-verdi", NOW)
    refused("invalid_request_id", rent_request, state, "r 1", "a", "b", "via-verdi", NOW)
    set_deed(state, "via-verdi", mortgaged=True)
    refused("deed_mortgaged", rent_request, state, "r1", "a", "b", "via-verdi", NOW)


def test_a_request_is_confirmed_only_with_the_cash():
    state = new_state("campionato-2015")
    give(state, "a", "via-verdi")
    act(state, rent_request(state, "r1", "a", "b", "via-verdi", NOW))
    set_player(state, "b", cash=5)
    refused("insufficient_cash", rent_confirm, state, "r1", "b", NOW)
