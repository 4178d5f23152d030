"""Che Impresa!'s rules, each on hand-made positions: dealt lands, GO by the dice, the squares,
activities built by the lot, jail, expropriation through every face of both dice, bankruptcy
and the final count. Amounts are worked out by hand from the edition file's numbers."""

from __future__ import annotations

import json

import pytest
from conftest import act, cash, give, new_state, owing, refused, set_deed, set_game, set_player

from companion.core import commands, rules, turns
from companion.core.editions.loading import EDITIONS_DIR, load_editions, validate_edition
from companion.core.policies.start import dealt
from companion.core.policies.valuation import worth
from companion.core.state import FINISHED, SETUP, DeedState, GameState, PlayerState

CI = load_editions().editions["che-impresa"]


def game(players=3, cash=2000) -> GameState:
    """A running Che Impresa! game in round 1, Anna's turn."""
    state = new_state("che-impresa", cash=cash, players=players, edition=CI)
    set_game(state, seed=7, turn_player="a", turn_round=1, turn_seq=1)
    return state


def lot(key):
    return [d.key for d in CI.deeds_in_group(key)]


# --- start and turns ---------------------------------------------------------------------


@pytest.mark.parametrize("n,each,cash_each", [(2, 7, 3200), (3, 6, 2700), (4, 5, 2200), (5, 4, 1700), (6, 3, 1200)])
def test_lands_are_dealt_by_the_number_of_players_and_charged_at_their_price(n, each, cash_each):
    ids = [f"p{i}" for i in range(n)]
    state = GameState(
        CI,
        SETUP,
        {i: PlayerState(i, i.upper()) for i in ids},
        {d.key: DeedState(d.key) for d in CI.deeds},
        75,
        None,
        seed=42,
    )
    outcome = act(state, commands.start(state))
    for pid in ids:
        mine = [d for d in CI.deeds if state.deeds[d.key].owner == pid]
        assert len(mine) == each
        assert state.players[pid].cash == cash_each - sum(d.price for d in mine)
    assert len(outcome.params["dealt"]) == n * each
    assert (state.turn_player, state.turn_round, state.turn_seq) == ("p0", 1, 1)


@pytest.mark.parametrize("n,fives", [(2, 5), (3, 4), (4, 3), (5, 2), (6, 1)])
def test_the_starting_notes_follow_the_number_of_players(n, fives):
    # Seed 000 lines 77-87 (700 in small notes each) and lines 92-115, table n°1: five, four,
    # three, two or one 500-note for two to six players (3,200 to 1,200 baiocchi).
    split = CI.starting_notes_for(n)
    assert dict(split) == {500: fives, 100: 5, 20: 7, 5: 10, 1: 10}
    assert sum(face * count for face, count in split.items()) == CI.start.cash[n] == 700 + 500 * fives


def test_starting_notes_that_do_not_make_the_cash_are_refused_by_the_file_checks():
    data = json.loads((EDITIONS_DIR / "che-impresa.json").read_text(encoding="utf-8"))
    data["start"]["notes"]["3"]["500"] = 5
    data["start"]["notes"]["4"]["50"] = 1
    problems = validate_edition(data)
    assert "che-impresa: start.notes[3] adds up to 3200, not the starting cash 2700" in problems
    assert "che-impresa: start.notes[4] holds notes the edition does not print: [50]" in problems


def test_the_same_seed_deals_the_same_hands_and_another_seed_others():
    ids = ["a", "b", "c"]
    assert dealt(CI, ids, 42) == dealt(CI, ids, 42)
    hands = {tuple(dealt(CI, ids, seed)) for seed in range(20)}
    assert len(hands) > 15


def test_end_turn_passes_round_the_table_skipping_the_bankrupt_and_counts_rounds():
    state = game()
    set_player(state, "b", bankrupt=True)
    act(state, turns.end_turn(state, "a"))
    assert (state.turn_player, state.turn_round, state.turn_seq) == ("c", 1, 2)
    refused("not_your_turn", turns.end_turn, state, "a")
    act(state, turns.end_turn(state, "c"))
    assert (state.turn_player, state.turn_round, state.turn_seq) == ("a", 2, 3)
    refused("banker_only_turn", turns.end_turn, state, "a", "c")
    act(state, turns.end_turn(state, None, "c"))  # the banker hands the turn over
    assert (state.turn_player, state.turn_round) == ("c", 2)


def test_a_limit_of_rounds_ends_the_game_after_the_last_turn():
    from dataclasses import replace

    state = game(players=2)
    set_game(state, edition=replace(CI, turns=replace(CI.turns, limit=2)))
    act(state, turns.end_turn(state, "a"))
    act(state, turns.end_turn(state, "b"))
    assert state.turn_round == 2
    act(state, turns.end_turn(state, "a"))
    outcome = act(state, turns.end_turn(state, "b"))
    assert state.status == FINISHED and outcome.params["rounds_over"]


def test_classic_does_not_count_turns():
    refused("turns_not_counted", turns.end_turn, new_state(), "a")


# --- GO, squares, mortgages -----------------------------------------------------------------


def test_go_pays_ten_times_the_dice_of_that_move():
    state = game()
    outcome = act(state, commands.pass_go(state, "a", 8))
    assert outcome.params["amount"] == 80 and state.players["a"].cash == 2080
    refused("invalid_dice", commands.pass_go, state, "a", None)
    refused("invalid_dice", commands.pass_go, state, "a", 13)


def test_imu_is_one_per_deed_and_five_per_activity():
    state = game()
    give(state, "a", *lot("azzurro"), houses=2)  # 3 lands, 6 activities
    give(state, "a", "bar")
    outcome = act(state, rules.land_on_square(state, "a", "imu"))
    assert outcome.params["amount"] == 4 * 1 + 6 * 5
    assert state.players["a"].cash == 2000 - 34
    refused("nothing_owed", rules.land_on_square, state, "b", "imu")


def test_banca_pays_ten_times_the_dice():
    state = game()
    act(state, rules.land_on_square(state, "b", "banca", 9))
    assert state.players["b"].cash == 2090
    refused("invalid_dice", rules.land_on_square, state, "b", "banca", None)


def test_the_estate_agency_sells_a_free_deed_at_150_percent():
    state = game()
    act(state, rules.land_on_square(state, "a", "agenzia-immobiliare", deed_key="lagora"))  # 60 -> 90
    assert state.deeds["lagora"].owner == "a" and state.players["a"].cash == 2000 - 90
    act(state, rules.land_on_square(state, "b", "agenzia-immobiliare", deed_key="via-bologna"))  # 280 -> 420
    assert state.players["b"].cash == 2000 - 420
    refused("deed_owned", rules.land_on_square, state, "c", "agenzia-immobiliare", deed_key="lagora")
    refused("deed_required", rules.land_on_square, state, "c", "agenzia-immobiliare")
    refused("unknown_square", rules.land_on_square, state, "c", "vita")


def test_there_are_no_mortgages():
    state = game()
    give(state, "a", "lagora")
    error = refused("no_mortgages", rules.mortgage, state, "a", "lagora")
    assert "mortgaged" in str(error)


# --- activities, built by the lot -----------------------------------------------------------


def test_the_first_build_puts_at_least_one_on_every_land_of_the_lot():
    state = game()
    keys = give_lot(state, "a", "azzurro")  # sparvo, creda, rasora: 50 each
    refused("first_build_each", rules.build_lot, state, "a", "azzurro", {keys[0]: 2, keys[1]: 2}, "on_group")
    refused("end_of_turn_unbuilt", rules.build_lot, state, "a", "azzurro", {keys[0]: 1}, "end_of_turn")
    outcome = act(state, rules.build_lot(state, "a", "azzurro", {keys[0]: 2, keys[1]: 1, keys[2]: 1}, "on_group"))
    assert outcome.params["amount"] == 4 * 50 and state.players["a"].cash == 2000 - 200
    assert [state.deeds[k].houses for k in keys] == [2, 1, 1] and state.bank_small == 75 - 4


def give_lot(state, owner, group):
    keys = lot(group)
    give(state, owner, *keys)
    return keys


def test_at_most_two_per_land_on_the_lot_and_one_from_the_square():
    state = game()
    keys = give_lot(state, "a", "azzurro")
    refused("too_many_at_once", rules.build_lot, state, "a", "azzurro", dict.fromkeys(keys, 3), "on_group")
    refused(
        "too_many_at_once", rules.build_lot, state, "a", "azzurro", {keys[0]: 2, keys[1]: 1, keys[2]: 1}, "from_square"
    )
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "from_square"))


def test_building_stays_even_and_stops_at_five():
    state = game(cash=5000)
    keys = give_lot(state, "a", "azzurro")
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 2), "on_group"))
    refused("uneven_building", rules.build_lot, state, "a", "azzurro", {keys[0]: 2}, "on_group")
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 2), "on_group"))
    refused("fully_built", rules.build_lot, state, "a", "azzurro", dict.fromkeys(keys, 2), "on_group")
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group"))
    assert [state.deeds[k].houses for k in keys] == [5, 5, 5]


def test_one_at_the_end_of_a_turn_only_without_building_in_it():
    state = game()
    keys = give_lot(state, "a", "azzurro")
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group"))
    refused("built_this_turn", rules.build_lot, state, "a", "azzurro", {keys[0]: 1}, "end_of_turn")
    for who in ("a", "b", "c"):
        act(state, turns.end_turn(state, who))
    refused("too_many_at_once", rules.build_lot, state, "a", "azzurro", {keys[0]: 1, keys[1]: 1}, "end_of_turn")
    act(state, rules.build_lot(state, "a", "azzurro", {keys[0]: 1}, "end_of_turn"))


def test_lot_building_refusals():
    state = game()
    keys = give_lot(state, "a", "azzurro")
    refused("not_your_turn", rules.build_lot, state, "b", "azzurro", {keys[0]: 1}, "on_group")
    refused("not_owner", rules.build_lot, state, "a", "verde", {"via-toscana": 1}, "on_group")
    refused("not_buildable", rules.build_lot, state, "a", "ristorazione", {"bar": 1}, "on_group")
    refused("deed_not_in_lot", rules.build_lot, state, "a", "azzurro", {"lagora": 1}, "on_group")
    refused("invalid_place", rules.build_lot, state, "a", "azzurro", {keys[0]: 1}, "somewhere")
    refused("invalid_counts", rules.build_lot, state, "a", "azzurro", {keys[0]: -1}, "on_group")
    refused("build_by_lot", rules.build, state, "a", keys[0])
    set_game(state, bank_small=2)
    refused("bank_out_of_small", rules.build_lot, state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group")


def test_activities_sell_to_the_bank_at_half():
    state = game()
    keys = give_lot(state, "a", "azzurro")
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group"))
    outcome = act(state, rules.sell_building(state, "a", keys[0]))
    assert outcome.params["amount"] == 25


# --- jail -----------------------------------------------------------------------------------


def test_jail_leaves_by_20_before_rolling_or_50_after_a_roll_without_doubles():
    state = game()
    set_player(state, "a", in_jail=True, jail_turns=1)
    set_player(state, "b", in_jail=True, jail_turns=1)
    act(state, rules.pay_jail_fine(state, "a"))
    act(state, rules.leave_jail_after_failed_roll(state, "b"))
    assert cash(state) == {"a": 1980, "b": 1950, "c": 2000}
    assert not state.players["b"].in_jail
    refused("failed_roll_stays", rules.leave_jail_after_failed_roll, new_state(), "a")


def test_a_player_jailed_in_her_turn_leaves_only_when_she_is_again_the_one_to_play():
    """Seed 000 lines 172-176: "Il giocatore rimarrà in prigione un solo turno [...] Finito il
    turno, quando il giocatore tornerà ad essere di mano dovrà uscire di prigione, e potrà farlo
    in 2 modi: pagando subito 20 Baiocchi, oppure tentando un tiro di dadi doppio." Read as: the
    rest of the turn she went in is the turn she stays; her next one is when she leaves."""
    assert CI.jail.from_next_turn  # the edition's data, not its name
    state = game()
    act(state, rules.go_to_jail(state, "a"))  # in Anna's own turn
    for leave in (rules.pay_jail_fine, rules.leave_jail_on_doubles, rules.leave_jail_after_failed_roll):
        refused("jail_next_turn", leave, state, "a")
    assert cash(state)["a"] == 2000 and state.players["a"].in_jail
    act(state, turns.end_turn(state, "a"))
    act(state, rules.go_to_jail(state, "b"))  # Bruno too, in his turn
    act(state, turns.end_turn(state, "b"))
    refused("jail_next_turn", rules.pay_jail_fine, state, "b")  # Carla's turn: not his yet
    act(state, turns.end_turn(state, "c"))  # Anna is again the one to play
    act(state, rules.pay_jail_fine(state, "a"))
    assert cash(state)["a"] == 1980 and not state.players["a"].in_jail
    act(state, turns.end_turn(state, "a"))
    act(state, rules.leave_jail_after_failed_roll(state, "b"))
    assert cash(state)["b"] == 1950 and not state.players["b"].in_jail


def test_in_jail_no_rent_is_collected_and_no_bids_are_made():
    from conftest import NOW

    state = game()
    give(state, "a", "lagora")
    set_player(state, "a", in_jail=True)
    refused("owner_in_jail", rules.pay_rent, state, "b", "lagora")
    act(state, rules.auction_start(state, "via-roma", NOW, 20))
    refused("bidder_in_jail", rules.bid, state, "a", 25, NOW)
    refused("bid_too_low", rules.bid, state, "b", 24, NOW)  # auctions open at 25
    act(state, rules.bid(state, "b", 25, NOW))


# --- expropriation ----------------------------------------------------------------------------


def attempt(state, buyer="a", deed="lagora", owner="b"):
    """``buyer`` lands on ``owner``'s deed, pays the rent and starts an attempt on it."""
    if state.deeds[deed].owner is None:
        give(state, owner, deed)
    act(state, rules.pay_rent(state, buyer, deed))
    return act(state, rules.expropriation_start(state, "x1", buyer, deed))


def test_buyer_no_pays_the_single_land_penalty():
    state = game()
    attempt(state)  # Lagora: price 60, rent 2, penalty 15
    outcome = act(state, rules.expropriation_roll(state, "a", "no"))
    assert outcome.params["ends"] == "penalty" and outcome.params["amount"] == 15
    assert cash(state) == {"a": 2000 - 2 - 15, "b": 2000 + 2 + 15, "c": 2000}
    assert state.expropriation is None and state.deeds["lagora"].owner == "b"


def test_buyer_vita_ends_with_nothing_paid():
    state = game()
    attempt(state)
    outcome = act(state, rules.expropriation_roll(state, "a", "vita"))
    assert outcome.params["ends"] == "card" and state.expropriation is None
    assert cash(state)["a"] == 1998


@pytest.mark.parametrize(
    "face,paid,taken", [("doppio", 120, True), ("meta", 30, True), ("no", 15, False), ("vita", 0, False)]
)
def test_owner_die_outcomes(face, paid, taken):
    state = game()
    attempt(state)
    refused("not_your_die", rules.expropriation_roll, state, "b", "no")
    act(state, rules.expropriation_roll(state, "a", "si"))
    assert state.expropriation.stage == "owner"
    refused("not_your_die", rules.expropriation_roll, state, "a", "no")
    refused("invalid_face", rules.expropriation_roll, state, "b", "si")
    act(state, rules.expropriation_roll(state, "b", face))
    assert state.expropriation is None
    assert state.deeds["lagora"].owner == ("a" if taken else "b")
    assert cash(state)["a"] == 1998 - paid and cash(state)["b"] == 2002 + paid
    if taken:
        assert state.deeds["lagora"].taken_turn == state.turn_seq


def test_ritira_goes_back_to_the_buyer():
    state = game()
    attempt(state)
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "ritira"))
    assert state.expropriation.stage == "buyer" and len(state.expropriation.rolls) == 2


def test_a_whole_lot_goes_together_at_its_value_and_lot_penalty():
    state = game()
    keys = give_lot(state, "b", "azzurro")  # 100 + 100 + 120 = 320; lot penalty 160
    outcome = attempt(state, deed="creda")
    assert outcome.params["whole_lot"] and outcome.params["value"] == 320 and outcome.params["penalty"] == 160
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "meta"))
    assert all(state.deeds[k].owner == "a" for k in keys)
    assert cash(state)["a"] == 2000 - 6 - 160


def test_an_attempt_on_a_restaurant_covers_it_alone_even_when_its_owner_holds_all_four():
    # Seed 000 lines 33-35: a lot is "un lotto di terreni dello stesso colore"; lines 182-183:
    # the restaurants are "come per i terreni" but take no activities. Lines 206-207 (the whole
    # lot) then never reach them: Bar, Pasticceria, Ristorante and Albergo are no lot.
    state = game()
    restaurants = give_lot(state, "b", "ristorazione")
    assert len(restaurants) == 4 and not CI.group("ristorazione").lot
    outcome = attempt(state, deed="bar")
    assert not outcome.params["whole_lot"] and outcome.params["value"] == CI.deed("bar").price
    assert outcome.params["penalty"] == CI.deed("bar").penalty
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "meta"))
    assert [state.deeds[k].owner for k in restaurants] == ["a", "b", "b", "b"]


def test_the_new_owner_cannot_build_that_turn():
    state = game()
    keys = give_lot(state, "b", "azzurro")
    attempt(state, deed="creda")
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "doppio"))  # 640
    refused("taken_this_turn", rules.build_lot, state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group")
    for who in ("a", "b", "c"):
        act(state, turns.end_turn(state, who))
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group"))


def test_expropriation_refusals():
    state = game()
    give(state, "b", "lagora", "cavanicce")
    refused("rent_first", rules.expropriation_start, state, "x1", "a", "lagora")
    give(state, "c", "sparvo", houses=1)
    act(state, rules.pay_rent(state, "a", "sparvo"))
    refused("expropriation_built", rules.expropriation_start, state, "x1", "a", "sparvo")
    refused("deed_not_owned", rules.expropriation_start, state, "x1", "a", "creda")
    refused("not_your_turn", rules.expropriation_start, state, "x1", "b", "sparvo")
    act(state, rules.pay_rent(state, "a", "lagora"))  # b holds the whole lot: double? never
    act(state, rules.expropriation_start(state, "x1", "a", "lagora"))
    refused("expropriation_open", rules.expropriation_start, state, "x2", "a", "lagora")
    act(state, rules.expropriation_roll(state, "a", "vita"))
    refused("expropriation_once_per_turn", rules.expropriation_start, state, "x2", "a", "lagora")
    refused("no_expropriation_open", rules.expropriation_roll, state, "a", "si")
    refused("no_expropriation", rules.expropriation_start, new_state(), "x1", "a", "vicolo-corto")


def test_the_estate_agency_allows_an_attempt_anywhere_without_rent():
    state = game()
    give(state, "c", "via-roma")
    act(state, rules.expropriation_start(state, "x1", "a", "via-roma", "agenzia-immobiliare"))
    other = game()
    give(other, "c", "via-roma")
    refused("invalid_via", rules.expropriation_start, other, "x1", "a", "via-roma", "banca")


def test_a_payment_the_buyer_cannot_make_waits_and_the_face_still_counts():
    state = game(cash=200)
    give(state, "b", *lot("blu"))  # 350 + 400 = 750: doppio costs 1500
    act(state, rules.pay_rent(state, "a", "via-del-lago"))
    act(state, rules.expropriation_start(state, "x1", "a", "via-del-lago"))
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "doppio"))
    assert state.expropriation.stage == "settle" and state.expropriation.owed["amount"] == 1500
    refused("expropriation_owed", rules.expropriation_roll, state, "b", "no")
    refused("insufficient_cash", rules.expropriation_settle, state, "a")
    set_player(state, "a", cash=state.players["a"].cash + 2000)  # raised from the bank in the test
    act(state, rules.expropriation_settle(state, "a"))
    assert state.deeds["via-del-lago"].owner == "a" and state.expropriation is None


def test_bankruptcy_of_the_buyer_ends_the_attempt():
    state = game(cash=200)
    give(state, "b", *lot("blu"))
    act(state, rules.pay_rent(state, "a", "via-del-lago"))
    act(state, rules.expropriation_start(state, "x1", "a", "via-del-lago"))
    act(state, rules.expropriation_roll(state, "a", "si"))
    act(state, rules.expropriation_roll(state, "b", "doppio"))
    act(state, rules.bankrupt(state, "a", "b", 1500))
    assert state.expropriation is None


def test_virtual_dice_are_drawn_from_the_edition_faces_and_the_seed():
    state = game()
    attempt(state)
    first = rules.expropriation_roll(state, "a")
    again = rules.expropriation_roll(state, "a")
    assert first.params["face"] == again.params["face"] and first.params["face"] in CI.expropriation.buyer_die
    assert first.params["virtual"]


# --- bankruptcy and the final count ---------------------------------------------------------


def test_bankruptcy_to_a_player_goes_to_the_bank_which_pays_the_debt_in_full():
    state = game(cash=100)
    keys = give_lot(
        state,
        "a",
        "azzurro",
    )
    for key in keys[:3]:
        set_deed(state, key, houses=1)
    set_game(state, bank_small=state.bank_small - 3)
    # Lines 283-287: the debt exceeds the cash, the activities at half and the free lands (at
    # their price: the edition's choice); the bank pays it in full.
    means = rules.liquidation_value(state, "a")
    assert (means.cash, means.free_deeds) == (100, sum(CI.deed(k).price for k in keys))
    refused("can_still_pay", rules.bankrupt, state, "a", "b", means.payable)
    outcome = act(state, rules.bankrupt(state, "a", "b", means.payable + 1))
    assert cash(state)["b"] == 100 + means.payable + 1
    assert outcome.params["creditor_paid"] == means.payable + 1 and outcome.params["heir"] == "bank"
    assert all(state.deeds[k].owner is None and state.deeds[k].houses == 0 for k in keys)
    assert state.bank_small == 75 and outcome.result["to_auction"] == keys


def test_final_count_is_cash_deeds_at_value_and_activities_at_half():
    state = game(cash=500)
    keys = give_lot(state, "a", "azzurro")  # 320
    for k in keys:
        set_deed(state, k, houses=2)  # 6 x 50, at half: 150
    give(state, "a", "bar")  # 150
    assert worth(state, state.players["a"]) == 500 + 320 + 150 + 150


def test_the_special_dice_faces_are_a_setting_of_the_game():
    from companion.core.errors import BancoError
    from companion.core.settings import clean_settings

    chosen = clean_settings({"buyer_die": ["si", "no"], "owner_die": ["meta"] * 6})
    state = game()
    set_game(state, settings=chosen)
    attempt(state)
    refused("invalid_face", rules.expropriation_roll, state, "a", "vita")  # not on this box's die
    assert {rules.expropriation.virtual_face(state, state.expropriation, "buyer") for _ in range(3)} <= {"si", "no"}
    act(state, rules.expropriation_roll(state, "a", "si"))
    assert rules.expropriation_roll(state, "b").params["face"] == "meta"  # every face of the red die
    for bad in (["si"], ["si"] * 13, ["maybe", "si"], "si,no", [1, 2]):
        with pytest.raises(BancoError) as info:
            clean_settings({"buyer_die": bad})
        assert info.value.code == "invalid_setting"
    with pytest.raises(BancoError):
        clean_settings({"owner_die": ["si", "no"]})  # SÌ is on the buyer's die only


def test_a_deed_bought_traded_or_won_this_turn_takes_no_activity_until_the_next():
    state = game()
    keys = lot("azzurro")
    give(state, "a", keys[0], keys[1])
    act(state, rules.buy(state, "a", keys[2]))
    assert state.deeds[keys[2]].taken_turn == state.turn_seq
    refused("taken_this_turn", rules.build_lot, state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group")
    for who in ("a", "b", "c"):
        act(state, turns.end_turn(state, who))
    act(state, rules.build_lot(state, "a", "azzurro", dict.fromkeys(keys, 1), "on_group"))


def test_going_bankrupt_in_ones_turn_hands_it_on():
    state = game()
    act(state, turns.end_turn(state, "a"))
    act(state, turns.end_turn(state, "b"))  # Carla's turn, round 1
    act(state, rules.bankrupt(state, "c", "bank", owing(state, "c")))
    assert (state.turn_player, state.turn_round) == ("a", 2)
    other = game()
    act(other, rules.bankrupt(other, "b", "bank", owing(other, "b")))  # not in turn: the turn stays
    assert other.turn_player == "a"
