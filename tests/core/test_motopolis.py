"""Motopolis' rules, each on hand-made positions: deeds dealt by the number of players, GO 1000,
service stations and dealerships, mortgages repaid within three laps or lost and reaching the
land alone (line 73, as written), half the rent of a
mortgaged deed to the bank, the board's squares, Attesa ricambi, the sosta bisognino, auctions
opening at 50, bankruptcy paying the creditor half, and the end after 40 rounds. Amounts are
worked out by hand from the edition file's numbers (its deed values are provisional)."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import NOW, act, cash, give, new_state, owing, refused, set_deed, set_game, set_player

from companion.core import commands, rules, turns
from companion.core.editions.loading import EDITIONS_DIR, load_editions, validate_edition
from companion.core.editions.schema import load_schema
from companion.core.guards import plays_size
from companion.core.policies import squares as square_policies
from companion.core.policies.mortgage import laps_left
from companion.core.policies.start import dealt
from companion.core.policies.valuation import breakdown
from companion.core.state import FINISHED, SETUP, DeedState, GameState, PlayerState

MP = load_editions().editions["motopolis"]

# The deeds the tests use, as the edition file prints them:
#   Garelli  300, mortgage 150, rents 10/50/150/450/800/1250, each building 250 (brown)
#   Benelli  300, mortgage 150, rents 20/100/300/900/1600/2250, each building 250 (brown)
#   Gilera, Moto Morini 500, Malaguti 600, each building 250 (light blue)
#   Harley-Davidson 1750, rent 175 (dark blue)
BROWN = ["garelli", "benelli"]
LIGHT_BLUE = ["gilera", "moto-morini", "malaguti"]


def game(players=3, cash=5000) -> GameState:
    """A running Motopolis game in round 1, Anna's turn."""
    state = new_state("motopolis", cash=cash, players=players, edition=MP)
    set_game(state, seed=7, turn_player="a", turn_round=1, turn_seq=1)
    return state


def end_turns(state, *who):
    for pid in who:
        act(state, turns.end_turn(state, pid))


def test_the_edition_is_marked_provisional_deed_by_deed():
    assert MP.provisional and all(d.provisional for d in MP.deeds)
    assert len(MP.deeds) == 28 and all(d.mortgage * 2 == d.price for d in MP.deeds)


# --- the start --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,each,cash_each", [(2, 6, 10000), (3, 5, 9000), (4, 4, 8500), (5, 3, 8000), (6, 2, 7500), (7, 1, 7000)]
)
def test_deeds_are_dealt_by_the_number_of_players_and_charged_at_their_price(n, each, cash_each):
    state = table(n, house_sizes=n == 7)  # 7: the file's own values, a house rule (see below)
    ids = list(state.players)
    outcome = act(state, commands.start(state))
    for pid in ids:
        mine = [d for d in MP.deeds if state.deeds[d.key].owner == pid]
        assert len(mine) == each
        assert state.players[pid].cash == cash_each - sum(d.price for d in mine)
    assert len(outcome.params["dealt"]) == n * each
    assert (state.turn_player, state.turn_round) == ("p0", 1)


def table(n, **settings) -> GameState:
    """A Motopolis table of ``n`` in setup."""
    ids = [f"p{i}" for i in range(n)]
    return GameState(
        MP,
        SETUP,
        {i: PlayerState(i, i.upper()) for i in ids},
        {d.key: DeedState(d.key) for d in MP.deeds},
        32,
        12,
        seed=42,
        settings=settings,
    )


def test_seven_players_are_a_house_rule_the_game_must_choose():
    # Seed 002 line 11 allows seven ("anche sette, quando chi fa da banchiere non partecipa"),
    # but the table of lines 18-23 stops at six: 7000 and 1 deed are the file's own values.
    assert MP.house_sizes == (7,) and (MP.start.cash[7], MP.start.deeds[7]) == (7000, 1)
    error = refused("house_size_not_chosen", commands.start, table(7))
    assert "7" in str(error)
    assert not plays_size(MP, 7, False) and plays_size(MP, 7, True) and plays_size(MP, 6, False)
    state = table(7, house_sizes=True)
    act(state, commands.start(state))
    assert state.players["p6"].cash == 7000 - sum(d.price for d in MP.deeds if state.deeds[d.key].owner == "p6")
    classic = load_editions().editions["classic-it"]
    assert classic.house_sizes == () and plays_size(classic, 8, False)


def test_the_same_seed_deals_the_same_hands():
    ids = ["a", "b", "c"]
    assert dealt(MP, ids, 42) == dealt(MP, ids, 42)
    assert len({tuple(dealt(MP, ids, seed)) for seed in range(20)}) > 15


def test_seven_players_only_when_the_banker_does_not_play():
    assert (MP.min_players, MP.max_players, MP.max_players_with_banker) == (2, 7, 6)


def test_go_pays_1000():
    state = game()
    outcome = act(state, commands.pass_go(state, "a"))
    assert outcome.params["amount"] == 1000 and state.players["a"].cash == 6000
    assert state.players["a"].laps == 1


# --- service stations and dealerships --------------------------------------------------------


def test_a_dealership_needs_three_stations_on_every_deed_of_the_group():
    state = game()
    give(state, "a", *LIGHT_BLUE, houses=2)
    refused("cannot_build_here", rules.build, state, "a", "gilera", "big")
    act(state, rules.build(state, "a", "gilera"))
    act(state, rules.build(state, "a", "moto-morini"))
    # Malaguti has 2: Gilera's dealership waits, and building goes evenly.
    refused("uneven_building", rules.build, state, "a", "gilera", "big")
    act(state, rules.build(state, "a", "malaguti"))
    assert state.bank_small == 32 - 9
    outcome = act(state, rules.build(state, "a", "gilera", "big"))
    assert outcome.params["amount"] == 250 and state.players["a"].cash == 5000 - 3 * 250 - 250
    assert (state.deeds["gilera"].houses, state.deeds["gilera"].hotel) == (0, True)
    assert (state.bank_small, state.bank_big) == (32 - 9 + 3, 11)  # the three stations go back


def test_a_deed_with_four_stations_sells_one_before_its_dealership():
    state = game()
    give(state, "a", *BROWN, houses=4)
    refused("too_many_small", rules.build, state, "a", "garelli", "big")


def test_four_stations_at_most_and_one_dealership_per_deed():
    state = game()
    give(state, "a", *BROWN, houses=4)
    set_deed(state, "garelli", houses=0, hotel=True)
    refused("fully_built", rules.build, state, "a", "garelli")


def test_the_dealership_asks_its_rent_and_is_worth_five_stations():
    state = game()
    give(state, "a", *BROWN, hotel=True)
    act(state, rules.pay_rent(state, "b", "garelli"))
    assert cash(state)["b"] == 5000 - 1250
    # The final count: the dealership at 5 stations' cost (5 x 250), the deeds at their price.
    parts = breakdown(state, state.players["a"])
    assert parts == {"cash": 5000 + 1250, "deeds": 600, "buildings": 2 * 5 * 250}
    # Sold whole to the bank: 5 stations at half (125 each).
    outcome = act(state, rules.sell_building(state, "a", "garelli"))
    assert outcome.params["amount"] == 625
    # Broken instead: the three stations come back, the bank pays the other two at half.
    outcome = act(state, rules.sell_building(state, "a", "benelli", break_hotel=True))
    assert outcome.params["amount"] == 250 and state.deeds["benelli"].houses == 3


def test_stations_sell_to_the_bank_at_half():
    state = game()
    give(state, "a", *BROWN, houses=1)
    assert act(state, rules.sell_building(state, "a", "garelli")).params["amount"] == 125


def test_rent_doubles_on_a_whole_group_only_unbuilt_and_unmortgaged():
    state = game()
    give(state, "a", *BROWN)
    assert rules.rent_due(state, "benelli") == 40
    set_deed(state, "garelli", houses=1)
    assert rules.rent_due(state, "benelli") == 20
    set_deed(state, "garelli", houses=0, mortgaged=True)
    assert rules.rent_due(state, "benelli") == 20


# --- mortgages --------------------------------------------------------------------------------


def test_a_mortgage_is_half_the_price_and_lifted_without_interest():
    state = game()
    give(state, "a", "garelli")
    assert act(state, rules.mortgage(state, "a", "garelli")).params["amount"] == 150
    assert act(state, rules.unmortgage(state, "a", "garelli")).params["amount"] == 150
    assert cash(state)["a"] == 5000


def test_a_mortgage_needs_only_the_land_itself_unbuilt():
    # Seed 002 line 73, as written: "Un terreno può essere ipotecato soltanto se è privo di
    # costruzioni" (the land, not its group; the classic rule asks the whole group unbuilt).
    state = game()
    give(state, "a", *LIGHT_BLUE)
    set_deed(state, "gilera", houses=1)
    refused("deed_has_buildings", rules.mortgage, state, "a", "gilera")
    assert act(state, rules.mortgage(state, "a", "malaguti")).params["amount"] == 300
    classic = new_state()
    give(classic, "a", "vicolo-corto", "vicolo-stretto")
    set_deed(classic, "vicolo-corto", houses=1)
    refused("group_has_buildings", rules.mortgage, classic, "a", "vicolo-stretto")


def test_building_is_refused_only_on_the_mortgaged_land_itself():
    # Line 73: "Su terreni ipotecati non è possibile costruire" (on the mortgaged land: its
    # groupmates still build, evenly among themselves, line 61).
    state = game()
    give(state, "a", *LIGHT_BLUE)
    set_deed(state, "malaguti", mortgaged=True)
    refused("deed_mortgaged_no_building", rules.build, state, "a", "malaguti")
    for key in ("gilera", "moto-morini", "gilera"):
        act(state, rules.build(state, "a", key))
    refused("uneven_building", rules.build, state, "a", "gilera")
    assert (state.deeds["gilera"].houses, state.deeds["moto-morini"].houses) == (2, 1)
    classic = new_state()
    give(classic, "a", "vicolo-corto", "vicolo-stretto")
    set_deed(classic, "vicolo-corto", mortgaged=True)
    refused("group_mortgaged", rules.build, classic, "a", "vicolo-stretto")


def test_a_dealership_still_needs_three_stations_on_every_land_a_mortgaged_one_too():
    # Line 66: no dealership "a meno che non si siano prima costruite 3 stazioni di servizio per
    # ognuno dei territori ... dello stesso colore": a mortgaged land holds none.
    state = game()
    give(state, "a", *LIGHT_BLUE, houses=3)
    set_deed(state, "malaguti", houses=0, mortgaged=True)
    refused("cannot_build_here", rules.build, state, "a", "gilera", "big")
    act(state, rules.unmortgage(state, "a", "malaguti"))
    refused("uneven_building", rules.build, state, "a", "gilera")  # lifted, it catches up first
    for _ in range(3):
        act(state, rules.build(state, "a", "malaguti"))
    act(state, rules.build(state, "a", "gilera", "big"))


def test_a_mortgage_not_lifted_within_three_laps_goes_back_to_the_bank():
    state = game()
    give(state, "a", "garelli", "gilera")
    act(state, rules.mortgage(state, "a", "garelli"))
    assert laps_left(state, state.deeds["garelli"]) == 3
    act(state, commands.pass_go(state, "a"))
    act(state, rules.mortgage(state, "a", "gilera"))  # mortgaged one lap later
    act(state, commands.pass_go(state, "a"))
    assert laps_left(state, state.deeds["garelli"]) == 1 and laps_left(state, state.deeds["gilera"]) == 2
    outcome = act(state, commands.pass_go(state, "a"))  # the third lap since Garelli was mortgaged
    assert outcome.result["forfeited"] == ["garelli"]
    assert (state.deeds["garelli"].owner, state.deeds["garelli"].mortgaged) == (None, False)
    assert state.deeds["gilera"].owner == "a"
    assert cash(state)["a"] == 5000 + 150 + 250 + 3 * 1000


def test_a_mortgaged_deed_pays_half_its_rent_to_the_bank_and_nothing_to_its_owner():
    state = game()
    give(state, "a", "harley-davidson", mortgaged=True)
    outcome = act(state, rules.pay_rent(state, "b", "harley-davidson"))  # 175 at half, rounded up
    assert (outcome.params["to"], outcome.params["amount"]) == ("bank", 88)
    assert cash(state) == {"a": 5000, "b": 5000 - 88, "c": 5000}
    give(state, "a", *BROWN)
    set_deed(state, "garelli", mortgaged=True)
    act(state, rules.pay_rent(state, "c", "garelli"))  # 10, not doubled: half is 5
    assert cash(state)["c"] == 4995


def test_a_mortgaged_deed_cannot_be_sold_to_another_player():
    state = game()
    give(state, "a", "garelli", mortgaged=True)
    give(state, "b", "gilera", mortgaged=True)
    refused("mortgaged_not_tradable", rules.trade_propose, state, "t1", "a", "b", {"deeds": ["garelli"]}, {"cash": 500})
    refused("mortgaged_not_tradable", rules.trade_propose, state, "t1", "a", "b", {"cash": 500}, {"deeds": ["gilera"]})
    act(state, rules.unmortgage(state, "a", "garelli"))
    act(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["garelli"]}, {"cash": 500}))


def test_a_land_is_traded_once_it_is_unbuilt_itself_whatever_its_groupmates_hold():
    # Seed 002 line 70: "Un terreno sul quale sono state edificate Stazioni di Servizio o
    # Concessionarie non può essere venduto o scambiato" (the land itself; line 69: "I terreni
    # senza Stazioni [...] possono essere [...] scambiati o venduti liberamente"). The classic
    # rule keeps a deed out of trades while any deed of its group is built on.
    state = game()
    give(state, "a", *LIGHT_BLUE)
    set_deed(state, "gilera", houses=2)
    set_deed(state, "moto-morini", houses=1)
    refused("deed_has_buildings", rules.trade_propose, state, "t1", "a", "b", {"deeds": ["gilera"]}, {"cash": 900})
    act(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["malaguti"]}, {"cash": 900}))
    set_deed(state, "malaguti", houses=1)  # built on after the offer: it cannot go any more
    refused("deed_has_buildings", rules.trade_accept, state, "t1", "b")
    set_deed(state, "malaguti", houses=0)
    act(state, rules.trade_accept(state, "t1", "b"))
    assert state.deeds["malaguti"].owner == "b" and state.deeds["gilera"].houses == 2
    refused("group_incomplete", rules.build, state, "a", "moto-morini")  # the colour is split now
    classic = new_state()
    give(classic, "a", "vicolo-corto", "vicolo-stretto")
    set_deed(classic, "vicolo-corto", houses=1)
    refused(
        "group_has_buildings", rules.trade_propose, classic, "t1", "a", "b", {"deeds": ["vicolo-stretto"]}, {"cash": 1}
    )


def test_a_trade_offered_before_the_mortgage_cannot_be_accepted_after_it():
    state = game()
    give(state, "a", "garelli")
    act(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["garelli"]}, {"cash": 500}))
    act(state, rules.mortgage(state, "a", "garelli"))
    refused("mortgaged_not_tradable", rules.trade_accept, state, "t1", "b")


# --- the board's squares ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "key,amount", [("casello", 10), ("assicurazione", 100), ("revisione", 50), ("cordolo", 50), ("tassa-di-lusso", 100)]
)
def test_fixed_payments(key, amount):
    state = game()
    act(state, commands.pay_fixed(state, "a", key))
    assert cash(state)["a"] == 5000 - amount


@pytest.mark.parametrize("dice,paid", [(5, 20), (6, 15), (7, 15), (8, 15), (9, 20), (12, 20)])
def test_benzinaio_pays_20_and_a_roll_of_6_7_or_8_gets_5_back(dice, paid):
    state = game()
    outcome = act(state, rules.land_on_square(state, "a", "benzinaio", dice))
    assert cash(state)["a"] == 5000 - paid
    assert outcome.params["won"] == (paid == 15)


def test_benzinaio_needs_the_dice_and_the_20():
    refused("invalid_dice", rules.land_on_square, game(), "a", "benzinaio", None)
    refused("insufficient_cash", rules.land_on_square, game(cash=19), "a", "benzinaio", 7)


def test_asi_pays_100_and_takes_50_back():
    state = game(cash=0)
    outcome = act(state, rules.land_on_square(state, "a", "asi"))
    assert cash(state)["a"] == 50 and (outcome.params["amount"], outcome.params["back"]) == (100, 50)


def test_posto_di_blocco_sends_to_attesa_ricambi_unless_6_7_or_8():
    state = game()
    act(state, rules.land_on_square(state, "a", "posto-di-blocco", 7))
    assert not state.players["a"].in_jail
    outcome = act(state, rules.land_on_square(state, "a", "posto-di-blocco", 4))
    assert state.players["a"].in_jail and outcome.params["jailed"] and cash(state)["a"] == 5000
    refused("already_in_jail", rules.land_on_square, state, "a", "posto-di-blocco", 4)


def test_sosta_bisognino_skips_the_next_turn_and_stops_trading_until_then():
    state = game()
    give(state, "b", "garelli")
    act(state, rules.land_on_square(state, "b", "sosta-bisognino"))
    assert (state.players["b"].skip_turns, state.players["b"].no_trades) == (1, True)
    refused("already_sitting_out", rules.land_on_square, state, "b", "sosta-bisognino")
    refused("no_trades_now", rules.trade_propose, state, "t1", "a", "b", {"cash": 100}, {"deeds": ["garelli"]})
    refused("no_trades_now", rules.trade_propose, state, "t1", "b", "a", {"deeds": ["garelli"]}, {"cash": 100})
    outcome = act(state, turns.end_turn(state, "a"))  # Bruno's turn is passed over
    assert state.turn_player == "c" and outcome.params["skipped"] == ["b"]
    assert (state.players["b"].skip_turns, state.players["b"].no_trades) == (0, False)
    act(state, rules.trade_propose(state, "t1", "a", "b", {"cash": 100}, {"deeds": ["garelli"]}))
    end_turns(state, "c", "a")
    assert state.turn_player == "b"


def test_a_skipped_turn_at_the_end_of_the_table_still_starts_the_next_round():
    state = game()
    set_player(state, "c", skip_turns=1)
    act(state, turns.end_turn(state, "a"))
    act(state, turns.end_turn(state, "b"))
    assert (state.turn_player, state.turn_round) == ("a", 2)


def test_squares_refusals():
    refused("unknown_square", rules.land_on_square, game(), "a", "treno")


# --- Attesa ricambi ---------------------------------------------------------------------------


def test_attesa_ricambi_is_left_only_from_the_next_turn_by_500_a_card_or_doubles():
    state = game()
    set_player(state, "a", jail_cards=1)
    act(state, rules.go_to_jail(state, "a"))
    for leave in (rules.pay_jail_fine, rules.use_jail_card, rules.leave_jail_on_doubles):
        refused("jail_next_turn", leave, state, "a")
    end_turns(state, "a", "b", "c")  # Anna's next turn
    assert state.players["a"].jail_turns == 1
    act(state, rules.pay_jail_fine(state, "a"))
    assert cash(state)["a"] == 4500 and not state.players["a"].in_jail
    act(state, rules.go_to_jail(state, "a"))
    end_turns(state, "a", "b", "c")
    act(state, rules.use_jail_card(state, "a"))
    act(state, rules.go_to_jail(state, "a"))
    end_turns(state, "a", "b", "c")
    act(state, rules.leave_jail_on_doubles(state, "a"))
    assert state.players["a"].jail_turns == 0


def test_after_three_turns_in_attesa_ricambi_the_player_is_out_for_free():
    state = game()
    act(state, rules.go_to_jail(state, "a"))
    for waited in (1, 2, 3):
        end_turns(state, "a", "b", "c")
        assert state.players["a"].in_jail and state.players["a"].jail_turns == waited
    end_turns(state, "a", "b")
    outcome = act(state, turns.end_turn(state, "c"))  # the fourth turn: out
    assert outcome.params["released"] == "a" and not state.players["a"].in_jail
    assert cash(state)["a"] == 5000


def test_in_attesa_ricambi_no_building_and_no_auctions_but_rent_is_collected():
    state = game()
    give(state, "a", *BROWN, houses=1)
    set_player(state, "a", in_jail=True)
    refused("builder_in_jail", rules.build, state, "a", "garelli")
    act(state, rules.pay_rent(state, "b", "garelli"))  # the rulebook does not stop the rent
    act(state, rules.auction_start(state, "gilera", NOW, 20))
    refused("bidder_in_jail", rules.bid, state, "a", 50, NOW)
    act(state, rules.sell_building(state, "a", "garelli"))  # selling back is allowed


# --- auctions ---------------------------------------------------------------------------------


def test_auctions_open_at_50_for_every_deed():
    state = game()
    outcome = act(state, rules.auction_start(state, "ducati", NOW, 20))
    assert outcome.params["opening_bid"] == 50
    refused("bid_too_low", rules.bid, state, "a", 49, NOW)
    act(state, rules.bid(state, "a", 50, NOW))
    act(state, rules.bid(state, "b", 51, NOW))


def test_a_station_shortage_auction_opens_at_50():
    state = game()
    give(state, "a", *BROWN)
    give(state, "b", *LIGHT_BLUE)
    set_game(state, bank_small=1)
    outcome = act(state, rules.building_auction_start(state, "small", ["garelli", "gilera"], NOW, 20))
    assert outcome.params["opening_bid"] == 50  # not the lowest station price (250)
    refused("bid_too_low", rules.bid, state, "a", 49, NOW, "garelli")
    act(state, rules.bid(state, "a", 50, NOW, "garelli"))
    set_player(state, "b", in_jail=True)
    refused("bidder_in_jail", rules.bid, state, "b", 60, NOW, "gilera")


# --- bankruptcy and the end ---------------------------------------------------------------------


def test_bankruptcy_goes_to_the_bank_which_pays_the_creditor_half():
    state = game(cash=100)
    give(state, "a", *BROWN, houses=2)
    give(state, "a", "gilera", mortgaged=True)
    # Line 74: owing more than the cash, the stations sold at half and the free deeds at their
    # mortgage value: 100 + 4 stations at 125 + 2 deeds at 150 = 900 (gilera is mortgaged).
    refused("can_still_pay", rules.bankrupt, state, "a", "b", 900)
    debt = owing(state, "a")
    assert debt == 901
    outcome = act(state, rules.bankrupt(state, "a", "b", debt))
    assert outcome.result["creditor_paid"] == 451  # half of 901, rounded up
    assert cash(state) == {"a": 0, "b": 100 + 451, "c": 100}
    for key in BROWN + ["gilera"]:
        ds = state.deeds[key]
        assert (ds.owner, ds.houses, ds.mortgaged) == (None, 0, False)
    assert state.bank_small == 32  # the stations stay with the bank
    assert sorted(outcome.result["to_auction"]) == sorted(BROWN + ["gilera"])


def test_bankruptcy_to_the_bank_pays_nobody():
    state = game(cash=100)
    act(state, rules.bankrupt(state, "a", "bank", owing(state, "a")))
    assert cash(state) == {"a": 0, "b": 100, "c": 100}


def test_the_game_ends_after_the_fortieth_round():
    state = game(players=2)
    assert state.edition.turns.limit == 40
    set_game(state, turn_round=39)
    end_turns(state, "a")
    act(state, turns.end_turn(state, "b"))
    assert (state.turn_round, state.status) == (40, "running")
    act(state, turns.end_turn(state, "a"))
    outcome = act(state, turns.end_turn(state, "b"))
    assert state.status == FINISHED and outcome.params["rounds_over"] and state.turn_round == 40


def test_the_final_count_counts_mortgaged_deeds_at_half():
    state = game(cash=1000)
    give(state, "a", "garelli", mortgaged=True)
    give(state, "a", "gilera", houses=0)
    assert breakdown(state, state.players["a"]) == {"cash": 1000, "deeds": 150 + 500, "buildings": 0}
    assert MP.valuation.chosen_by_edition


# --- the edition file ---------------------------------------------------------------------------


def test_the_schema_names_exactly_the_square_policies_the_core_has():
    enum = load_schema()["properties"]["squares"]["items"]["properties"]["policy"]["enum"]
    assert enum == list(square_policies.POLICIES)


def _motopolis_file() -> dict:
    return json.loads((EDITIONS_DIR / "motopolis.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "breaks, message",
    [
        (lambda e: e["turns"].update(counted=False), "motopolis: jail.from_next_turn needs turns.counted"),
        (lambda e: e["turns"].update(counted=False), "motopolis: squares[3] (sit_out) needs turns.counted"),
        (
            lambda e: e["squares"][0].update(totals=[6, 13]),
            "motopolis: squares[0].totals must be at most dice.max_total (12)",
        ),
        (
            lambda e: e["players"].update(max_with_playing_banker=8),
            "motopolis: players.max_with_playing_banker must be within players.min..players.max",
        ),
        (
            lambda e: e["players"].update(house_sizes=[8]),
            "motopolis: players.house_sizes: 8 is not within players.min..players.max",
        ),
        (lambda e: e["squares"][0].pop("prize"), "motopolis: squares[0].prize is missing"),
        (lambda e: e["squares"][3].pop("turns"), "motopolis: squares[3].turns is missing"),
        (
            lambda e: e["buildings"].update(shortage_opening_bid=0),
            "motopolis: buildings.shortage_opening_bid must be at least 1",
        ),
    ],
)
def test_the_edition_file_is_checked(breaks, message):
    data = copy.deepcopy(_motopolis_file())
    breaks(data)
    assert message in validate_edition(data)


def test_a_jail_without_these_rules_is_left_at_once_and_builds():
    classic = new_state()
    give(classic, "a", "vicolo-corto", "vicolo-stretto")
    act(classic, rules.go_to_jail(classic, "a"))
    act(classic, rules.build(classic, "a", "vicolo-corto"))
    act(classic, rules.pay_jail_fine(classic, "a"))  # no waiting for the next turn


def test_with_the_free_parking_pot_taxes_go_to_the_pot_but_fuel_is_bought_from_the_bank():
    state = new_state("motopolis", cash=5000, edition=MP, settings={"free_parking_pot": True})
    set_game(state, turn_player="a", turn_round=1, turn_seq=1)
    act(state, rules.land_on_square(state, "a", "benzinaio", 5))
    act(state, rules.land_on_square(state, "a", "asi"))
    assert state.pots["free_parking"] == 0 and cash(state)["a"] == 5000 - 20 + 50
    act(state, commands.pay_fixed(state, "a", "casello"))
    assert state.pots["free_parking"] == 10
