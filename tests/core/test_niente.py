"""Monopoly Niente è come sembra without the counterfeits, each rule on hand-made positions:
the board, hotels only on a whole group and sold at half, double rent, deeds sold back to the
bank at their price once their hotel is sold, auctions from 10 by 10, jail, the end when every
deed is owned (and its undo) and the final count by the rents collected from the bank. Amounts
are worked out by hand from the edition file's (provisional) numbers."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import timedelta

import pytest
from conftest import EDITIONS, NOW, act, cash, give, new_state, owing, play_on, refused, set_game, set_player

from companion.core import commands, endings, pending, rules
from companion.core.changes import apply_outcome
from companion.core.editions.loading import EDITIONS_DIR, validate_edition
from companion.core.policies.valuation import breakdown, standings
from companion.core.state import BANKER, FINISHED, RUNNING

NE = EDITIONS["niente-e-come-sembra"]
BROWN = ["vicolo-storto", "vicolo-cieco"]  # 60 each; rent 10; hotel 100, rent 90 / 180
BLUE = ["viale-dei-misteri", "parco-dell-illusione"]  # 350 / 400; rent 40 / 50; hotel 400, rent 1100 / 1400


def game(players=3, cash=1500, **sections):
    return new_state("niente-e-come-sembra", cash=cash, players=players, **sections)


def all_but(state, keep, owner="b"):
    """Every deed to ``owner`` but those in ``keep``, which stay with the bank."""
    give(state, owner, *[d.key for d in NE.deeds if d.key not in keep])


# --- the board and the money -----------------------------------------------------------------


def test_the_board_has_22_streets_in_colour_groups_and_no_stations_or_utilities():
    assert len(NE.deeds) == 22
    assert {g.kind for g in NE.groups} == {"street"}
    assert sorted(len(NE.deeds_in_group(g.key)) for g in NE.groups) == [2, 2, 3, 3, 3, 3, 3, 3]
    assert NE.station_rents == () and NE.utility_multipliers == ()
    assert all(0 < d.position < 36 for d in NE.deeds) and len({d.position for d in NE.deeds}) == 22
    # The deed values are not in the rulebook: provisional on the edition and on every deed.
    assert NE.provisional and all(d.provisional for d in NE.deeds)
    # Hotels only: each street lists its base rent and its rent with a hotel.
    assert all(len(d.rents) == 2 and d.building_cost and d.mortgage == 0 for d in NE.deeds)


def test_1500_to_each_of_two_to_six_players_in_the_rulebooks_notes():
    assert (NE.min_players, NE.max_players) == (2, 6)
    assert {n: NE.starting_cash_for(n) for n in range(2, 7)} == dict.fromkeys(range(2, 7), 1500)
    assert NE.banknotes == (500, 100, 50, 20, 10)
    assert dict(NE.starting_notes) == {500: 2, 100: 3, 50: 3, 20: 1, 10: 3}
    assert 2 * 500 + 3 * 100 + 3 * 50 + 20 + 3 * 10 == 1500
    # The smallest note is 10: every amount of the board can be paid with the box's notes.
    amounts = [v for d in NE.deeds for v in (d.price, d.building_cost, *d.rents)]
    assert all(v % 10 == 0 for v in amounts)


def test_go_pays_200_but_not_in_jail():
    state = game()
    act(state, commands.pass_go(state, "a"))
    assert state.players["a"].cash == 1700
    set_player(state, "b", in_jail=True)
    refused("no_salary_in_jail", commands.pass_go, state, "b")
    # The classic board has no such rule (a player in jail does not move, but nothing refuses it).
    classic = new_state()
    set_player(classic, "a", in_jail=True)
    act(classic, commands.pass_go(classic, "a"))


# --- hotels --------------------------------------------------------------------------------


def test_a_hotel_needs_the_whole_group_and_nothing_else():
    state = game()
    give(state, "a", BROWN[0])
    refused("group_incomplete", rules.build, state, "a", BROWN[0])
    give(state, "a", BROWN[1])
    assert rules.next_building(state, state.players["a"], NE.deed(BROWN[0]), state.deeds[BROWN[0]]) == "big"
    refused("cannot_build_here", rules.build, state, "a", BROWN[0], "small")
    outcome = act(state, rules.build(state, "a", BROWN[0]))
    assert outcome.params["building"] == "big" and outcome.params["amount"] == 100
    assert state.deeds[BROWN[0]].hotel and state.deeds[BROWN[0]].houses == 0
    assert (state.bank_small, state.bank_big) == (0, 11)
    assert state.players["a"].cash == 1400
    # One hotel per deed; the other deed of the group takes its own, in any order.
    refused("fully_built", rules.build, state, "a", BROWN[0])
    act(state, rules.build(state, "a", BROWN[1]))
    assert state.bank_big == 10 and state.players["a"].cash == 1300


def test_the_bank_has_12_hotels():
    state = game(cash=10000)
    for group in ("azzurro", "rosa", "arancione", "rosso"):
        give(state, "a", *[d.key for d in NE.deeds_in_group(group)])
    built = [d.key for g in ("azzurro", "rosa", "arancione", "rosso") for d in NE.deeds_in_group(g)]
    for key in built:
        act(state, rules.build(state, "a", key))
    assert state.bank_big == 0
    give(state, "a", *BROWN)
    refused("bank_out_of_big", rules.build, state, "a", BROWN[0])


def test_a_hotel_sells_to_the_bank_at_half_and_cannot_be_broken():
    state = game()
    give(state, "a", *BLUE, hotel=True)
    refused("nothing_to_break", rules.sell_building, state, "a", BLUE[1], break_hotel=True)
    outcome = act(state, rules.sell_building(state, "a", BLUE[1]))
    assert outcome.params["amount"] == 200  # half of 400
    assert not state.deeds[BLUE[1]].hotel and state.deeds[BLUE[0]].hotel  # one by one
    assert state.players["a"].cash == 1700 and state.bank_big == 11
    refused("no_buildings", rules.sell_building, state, "a", BLUE[1])


def test_a_shortage_auction_of_the_last_hotel():
    state = game()
    give(state, "a", *BROWN)
    give(state, "b", *BLUE)
    set_game(state, bank_big=1)
    refused("bank_out_of_small", rules.building_auction_start, state, "small", [BROWN[0], BLUE[0]], NOW, 20)
    act(state, rules.building_auction_start(state, "big", [BROWN[0], BLUE[0]], NOW, 20))
    assert state.auction.opening_bid == 100  # the lower hotel price of the deeds concerned
    refused("bid_too_low", rules.bid, state, "a", 90, NOW, BROWN[0])
    act(state, rules.bid(state, "a", 100, NOW, BROWN[0]))
    act(state, rules.bid(state, "b", 110, NOW, BLUE[0]))
    act(state, rules.auction_close(state, NOW + timedelta(seconds=30)))
    assert state.deeds[BLUE[0]].hotel and state.bank_big == 0
    assert cash(state) == {"a": 1500, "b": 1390, "c": 1500}


# --- rent ----------------------------------------------------------------------------------


def test_rent_doubles_on_a_whole_unbuilt_group_and_a_hotel_asks_its_own():
    state = game()
    give(state, "a", BROWN[0])
    assert rules.rent_due(state, BROWN[0]) == 10
    give(state, "a", BROWN[1])
    assert rules.rent_due(state, BROWN[0]) == 20
    act(state, rules.build(state, "a", BROWN[1]))
    assert rules.rent_due(state, BROWN[1]) == 180
    assert rules.rent_due(state, BROWN[0]) == 20  # still doubled beside a hotel
    act(state, rules.pay_rent(state, "b", BROWN[1]))
    assert cash(state) == {"a": 1400 + 180, "b": 1320, "c": 1500}


# --- selling a deed back to the bank -------------------------------------------------------


def test_a_deed_sells_to_the_bank_at_its_price_once_its_hotel_is_sold():
    state = game()
    give(state, "a", *BLUE, hotel=True)
    error = refused("deed_sale_buildings_first", rules.sell_to_bank, state, "a", BLUE[1])
    assert "Parco dell'Illusione" in str(error)
    act(state, rules.sell_building(state, "a", BLUE[1]))  # +200, half the hotel
    outcome = act(state, rules.sell_to_bank(state, "a", BLUE[1]))
    assert outcome.kind == "sell_to_bank" and outcome.params == {"player": "a", "deed": BLUE[1], "amount": 400}
    assert state.deeds[BLUE[1]].owner is None
    assert state.players["a"].cash == 1500 + 200 + 400
    # The deed is the bank's again: anyone may buy it at its price.
    act(state, rules.buy(state, "b", BLUE[1]))
    assert state.players["b"].cash == 1100


def test_only_the_owner_sells_a_deed_and_only_while_the_game_runs():
    state = game()
    give(state, "a", BROWN[0])
    refused("not_owner", rules.sell_to_bank, state, "b", BROWN[0])
    refused("not_owner", rules.sell_to_bank, state, "b", BROWN[1])
    refused("unknown_deed", rules.sell_to_bank, state, "a", "via-roma")
    set_game(state, status=FINISHED)
    refused("game_finished", rules.sell_to_bank, state, "a", BROWN[0])


@pytest.mark.parametrize(
    "edition_id, deed", [("classic-it", "vicolo-corto"), ("campionato-2015", "vicolo-corto"), ("che-impresa", "lagora")]
)
def test_other_editions_do_not_sell_deeds_to_the_bank(edition_id, deed):
    state = new_state(edition_id)
    give(state, "a", deed)
    error = refused("no_deed_sale", rules.sell_to_bank, state, "a", deed)
    assert str(error) == "In this edition deeds cannot be sold to the bank."


def test_there_are_no_mortgages():
    state = game()
    give(state, "a", BROWN[0])
    refused("no_mortgages", rules.mortgage, state, "a", BROWN[0])


# --- auctions ------------------------------------------------------------------------------


def test_auctions_open_at_10_and_rise_by_10():
    state = game()
    act(state, rules.auction_start(state, BLUE[0], NOW, 20))
    assert (state.auction.opening_bid, state.auction.min_raise) == (10, 10)
    refused("bid_too_low", rules.bid, state, "a", 5, NOW)
    act(state, rules.bid(state, "a", 10, NOW))
    refused("bid_too_low", rules.bid, state, "b", 15, NOW)
    act(state, rules.bid(state, "b", 20, NOW))
    act(state, rules.bid(state, "c", 50, NOW))  # a player may raise by more
    act(state, rules.auction_close(state, NOW + timedelta(seconds=30)))
    assert state.deeds[BLUE[0]].owner == "c" and state.players["c"].cash == 1450


# --- jail ----------------------------------------------------------------------------------


def test_in_jail_a_player_collects_rent_bids_trades_sells_and_builds():
    state = game()
    give(state, "a", *BROWN)
    set_player(state, "a", in_jail=True)
    act(state, rules.pay_rent(state, "b", BROWN[0]))  # collects rent: 20 on the whole group
    act(state, rules.build(state, "a", BROWN[0]))  # buys a hotel
    act(state, rules.sell_building(state, "a", BROWN[0]))  # and sells it
    act(state, rules.sell_to_bank(state, "a", BROWN[0]))  # sells a deed
    act(state, rules.auction_start(state, BLUE[0], NOW, 20))
    act(state, rules.bid(state, "a", 10, NOW))  # bids
    act(state, rules.auction_close(state, NOW + timedelta(seconds=30)))
    act(
        state,
        rules.trade_propose(
            state,
            "t1",
            "a",
            "b",
            {"cash": 0, "deeds": [BLUE[0]], "jail_cards": 0},
            {"cash": 30, "deeds": [], "jail_cards": 0},
        ),
    )
    act(state, rules.trade_accept(state, "t1", "b"))  # trades
    assert state.deeds[BLUE[0]].owner == "b" and state.deeds[BROWN[0]].owner is None
    assert state.players["a"].cash == 1500 + 20 - 100 + 50 + 60 - 10 + 30


def test_jail_leaves_by_50_by_doubles_or_by_a_card():
    state = game()
    for pid in ("a", "b", "c"):
        set_player(state, pid, in_jail=True)
    act(state, rules.pay_jail_fine(state, "a"))
    assert state.players["a"].cash == 1450 and not state.players["a"].in_jail
    act(state, rules.leave_jail_on_doubles(state, "b"))
    set_player(state, "c", jail_cards=1)
    act(state, rules.use_jail_card(state, "c"))
    assert not any(p.in_jail for p in state.players.values())
    # Three tries without doubles: the rulebook's 50, the same fine (a roll never frees on its own).
    refused("failed_roll_stays", rules.leave_jail_after_failed_roll, state, "a")
    assert NE.fixed_payment("jail-fine").amount == 50


# --- the Treno squares (seed 004 lines 95-98) ---------------------------------------------
# "Avanzare alla prossima casella di proprietà libera. Dovete comprarla o metterla all'asta. Se
# passate dalla casella Inizio, raccogliete 200 euro dalla banca." The rulebook gives no board:
# the player names the deed just before their Treno square, the file's board order does the rest.
# The file's order: vicolo-storto, vicolo-cieco, via-della-zecca, viale-del-conio, ... ,
# largo-delle-sorprese, viale-dei-misteri, parco-dell-illusione.


def test_the_train_stops_on_the_next_deed_the_bank_holds():
    state = game()
    give(state, "b", "via-della-zecca", "viale-del-conio")
    outcome = act(state, rules.take_train(state, "a", "vicolo-cieco"))
    assert outcome.result == {"stops_on": "corso-della-moneta", "passed_go": False, "salary": 0}
    assert not outcome.postings and cash(state)["a"] == 1500
    # Then bought (or auctioned) as usual.
    act(state, rules.buy(state, "a", outcome.result["stops_on"]))
    assert state.deeds["corso-della-moneta"].owner == "a"
    # No deed before the square: from the first deed of the board.
    assert act(state, rules.take_train(state, "c")).result["stops_on"] == "vicolo-storto"


def test_the_train_going_round_passes_start_and_collects_200():
    state = game()
    give(state, "b", BLUE[1], BROWN[0])
    set_player(state, "a", chips=0, laps=2)
    outcome = act(state, rules.take_train(state, "a", BLUE[0]))
    assert outcome.result == {"stops_on": BROWN[1], "passed_go": True, "salary": 200}
    assert cash(state)["a"] == 1700 and state.players["a"].laps == 3
    assert state.players["a"].chips == NE.counterfeits.chips  # decoder chips green at Start (line 57)
    # A Treno square after the board's last deed passes Start before any deed.
    assert act(state, rules.take_train(state, "c", BLUE[1])).result["passed_go"] is True


def test_with_a_strict_bank_the_salary_waits_but_the_train_still_names_its_stop():
    state = game(settings={"strict_bank": True})
    give(state, "b", BLUE[1])
    outcome = act(state, pending.hold(state, rules.take_train(state, "a", BLUE[0]), "h1", "a", NOW))
    assert outcome.result["stops_on"] == BROWN[0] and outcome.result["pending"] == "h1"
    assert cash(state)["a"] == 1500 and state.players["a"].laps == 1  # the lap now, the money on a yes
    paid = act(state, pending.approve(state, "h1", BANKER, NOW))
    assert paid.kind == "train" and cash(state)["a"] == 1700


def test_the_train_skips_a_deed_being_auctioned():
    state = game()
    act(state, rules.auction_start(state, "via-della-zecca", NOW, 20))
    assert act(state, rules.take_train(state, "a", "vicolo-cieco")).result["stops_on"] == "viale-del-conio"


def test_what_the_train_refuses():
    state = game()
    refused("unknown_deed", rules.take_train, state, "a", "nowhere")
    set_player(state, "b", in_jail=True)
    refused("in_jail_no_move", rules.take_train, state, "b", BROWN[0])
    all_but(state, [])
    refused("no_free_deed", rules.take_train, state, "a", BROWN[0])
    refused("no_train", rules.take_train, new_state(), "a", "vicolo-corto")  # the classic board has none


def test_a_train_without_the_salary_is_data():
    edition = replace(NE, train=replace(NE.train, salary=False))
    state = new_state(edition=edition)
    give(state, "b", BLUE[1])
    outcome = act(state, rules.take_train(state, "a", BLUE[0]))
    assert outcome.result == {"stops_on": BROWN[0], "passed_go": True, "salary": 0} and cash(state)["a"] == 1500
    data = _raw()
    data["salary"] = {"policy": "dice_times", "dice_multiplier": 10}
    assert any("train.salary needs a fixed salary" in p for p in validate_edition(data))


# --- the end when every deed is owned ------------------------------------------------------


def test_buying_the_last_free_deed_ends_the_game_and_undo_reopens_it():
    state = game()
    all_but(state, [BLUE[1]])
    assert endings.owned_count(state) == (21, 22)
    outcome = act(state, endings.with_end(state, rules.buy(state, "a", BLUE[1])))
    assert state.status == FINISHED and state.deeds[BLUE[1]].owner == "a"
    assert outcome.params["all_deeds_owned"] and outcome.result["finished"]
    assert endings.owned_count(state) == (22, 22)
    # Undo (the banker's, as the journal runs it) reopens the game with the deed back at the bank.
    undone = commands.undo(state, outcome.kind, 9, outcome.postings, outcome.changes)
    play_on(state, apply_outcome(state, undone))
    assert state.status == RUNNING and state.deeds[BLUE[1]].owner is None and state.players["a"].cash == 1500
    act(state, rules.buy(state, "c", BLUE[1]))  # a plain buy (the service adds the end)


def test_winning_the_last_deed_at_auction_ends_the_game_and_drops_money_waiting():
    from companion.core import pending

    state = game()
    all_but(state, [BROWN[0]])
    act(state, pending.request_payment(state, "r1", "a", "b", 50, "loan", NOW))
    act(state, rules.auction_start(state, BROWN[0], NOW, 20))
    act(state, rules.bid(state, "c", 30, NOW))
    outcome = act(state, endings.with_end(state, rules.auction_close(state, NOW + timedelta(seconds=30))))
    assert outcome.kind == "auction_won" and state.status == FINISHED
    assert state.pending == {} and state.players["c"].cash == 1470


def test_what_does_not_end_the_game():
    state = game()
    all_but(state, [BROWN[0]])
    # A trade moves deeds between players: the free deed is still free.
    trade = rules.trade_propose(
        state,
        "t1",
        "b",
        "a",
        {"cash": 0, "deeds": [BLUE[0]], "jail_cards": 0},
        {"cash": 0, "deeds": [], "jail_cards": 0},
    )
    assert not endings.ends_game(state, trade)
    act(state, trade)
    assert not endings.ends_game(state, rules.trade_accept(state, "t1", "a"))
    # Selling back to the bank frees a deed; a payment touches no deed.
    assert not endings.ends_game(state, rules.sell_to_bank(state, "b", BLUE[1]))
    assert not endings.ends_game(state, commands.transfer(state, "a", "b", 10))
    # Where the edition has no such end (the classic board), the last deed bought ends nothing.
    classic = new_state()
    give(classic, "b", *[d.key for d in classic.edition.deeds if d.key != "vicolo-corto"])
    assert not endings.ends_game(classic, rules.buy(classic, "a", "vicolo-corto"))
    assert endings.with_end(classic, rules.buy(classic, "a", "vicolo-corto")).params.get("all_deeds_owned") is None


def test_every_deed_owned_is_data_of_the_edition():
    state = game(end={"all_deeds_owned": False})
    all_but(state, [BROWN[0]])
    assert not endings.ends_game(state, rules.buy(state, "a", BROWN[0]))


# --- the final count -----------------------------------------------------------------------


def counted_position(**valuation):
    """Anna: 700, both browns (a hotel on Vicolo Cieco), Via della Zecca alone; Bruno: 900,
    both blues unbuilt, Corso della Moneta alone; Carla: 1200 and nothing."""
    state = game(valuation=valuation) if valuation else game()
    set_player(state, "a", cash=700)
    set_player(state, "b", cash=900)
    set_player(state, "c", cash=1200)
    give(state, "a", BROWN[0], "via-della-zecca")
    give(state, "a", BROWN[1], hotel=True)
    give(state, "b", *BLUE, "corso-della-moneta")
    return state


def test_the_final_count_is_cash_plus_the_rents_of_deeds_and_hotels():
    state = counted_position()
    # Anna: Vicolo Storto 10 doubled on the whole group = 20, Via della Zecca 10; the hotel of
    # Vicolo Cieco 180 (in place of its own rent).
    assert breakdown(state, state.players["a"]) == {"cash": 700, "rents": 30, "hotels": 180}
    # Bruno: 40 and 50 doubled = 180, Corso della Moneta 20.
    assert breakdown(state, state.players["b"]) == {"cash": 900, "rents": 200, "hotels": 0}
    assert breakdown(state, state.players["c"]) == {"cash": 1200, "rents": 0, "hotels": 0}
    assert [(s.player, s.worth, s.place) for s in standings(state)] == [("c", 1200, 1), ("b", 1100, 2), ("a", 910, 3)]


def test_the_final_counts_open_points_are_data():
    # Single rents on a whole group, and a hotel's rent on top of its deed's own.
    state = counted_position(whole_group_doubles=False, big_rent="besides_deed_rent")
    assert breakdown(state, state.players["a"]) == {"cash": 700, "rents": 10 + 10 + 10, "hotels": 180}
    assert breakdown(state, state.players["b"]) == {"cash": 900, "rents": 40 + 50 + 20, "hotels": 0}


def test_a_bankrupt_player_leaves_with_hotels_sold_at_half_to_the_creditor():
    state = game()
    give(state, "a", *BROWN, hotel=True)
    set_player(state, "a", cash=30)
    act(state, rules.bankrupt(state, "a", "b", owing(state, "a")))
    assert state.players["b"].cash == 1500 + 30 + 2 * 50
    assert all(state.deeds[k].owner == "b" and not state.deeds[k].hotel for k in BROWN)
    assert state.bank_big == 12


# --- the edition file ----------------------------------------------------------------------


def _raw():
    return json.loads((EDITIONS_DIR / "niente-e-come-sembra.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "breaks, message",
    [
        (lambda e: e["buildings"].update(max_small=1), "buildings.max_small must be 0 with the policy big_only"),
        (lambda e: e["valuation"].pop("big_rent"), "valuation.big_rent is missing"),
        (lambda e: e["valuation"].update(big_rent="both"), "valuation.big_rent must be one of"),
        (lambda e: e["deed_sale"].pop("percent"), "deed_sale.percent is missing"),
        (lambda e: e["end"].update(all_deeds_owned="yes"), "end.all_deeds_owned must be true or false"),
        (lambda e: e["buildings"].pop("big"), "buildings.big is missing"),
    ],
)
def test_the_new_fields_are_checked(breaks, message):
    data = copy.deepcopy(_raw())
    breaks(data)
    problems = validate_edition(data)
    assert any(message in p for p in problems), problems


def test_the_edition_file_is_valid_and_carries_its_counterfeits():
    assert validate_edition(_raw()) == []
    raw = _raw()["counterfeits"]
    assert raw["chips"] == 2 and raw["chance_cards"] == 24 and raw["fake_chance_cards"] == 12
    assert raw["chance_bounty"] == 100 and 0 < raw["fake_note_share"] < 1
