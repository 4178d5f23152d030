"""Petropolis' rules, each on hand-made positions: three deeds dealt at random (never Saudi
Arabia), GO at 500,000, towers and platforms at fixed prices, the building supply as a game
setting, mortgages on unbuilt groups only and lifted at +20%, no double rent with a mortgaged
deed, auctions at the printed price among the other players, the International Court, a
bankruptcy to the creditor, the final count without deeds and the play-off of a tie.
Amounts are worked out by hand from the edition file's numbers (all provisional but the
rulebook's: 2,000,000 to start, 500,000 at GO, towers 200,000, platforms 800,000)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import NOW, act, give, new_state, owing, refused, set_deed, set_game, set_player

from companion.core import commands, play_off, rules
from companion.core.editions.loading import load_editions
from companion.core.errors import BadInput
from companion.core.policies.mortgage import lift_cost
from companion.core.policies.start import dealt
from companion.core.policies.valuation import breakdown
from companion.core.score import standings
from companion.core.settings import building_supply, clean_settings
from companion.core.state import FINISHED, RUNNING, SETUP, DeedState, GameState, PlayerState

PP = load_editions().editions["petropolis"]
SAUDI = "arabia-saudita"


def game(players=3, cash=2_000_000, **kwargs) -> GameState:
    return new_state("petropolis", cash=cash, players=players, edition=PP, **kwargs)


def group(key):
    return [d.key for d in PP.deeds_in_group(key)]


# --- the edition's data -----------------------------------------------------------------------


def test_the_rulebook_numbers_and_provisional_deed_values():
    assert PP.currency_symbol == "P$" and (PP.min_players, PP.max_players) == (2, 6)
    assert all(PP.start.cash[n] == 2_000_000 and PP.start.deeds[n] == 3 for n in range(2, 7))
    assert len(PP.deeds) == 27 and PP.provisional and all(d.provisional for d in PP.deeds)
    assert {d.key for d in PP.deeds if not d.dealable} == {SAUDI}
    assert set(group("nero")) == {"iran", SAUDI} and set(group("verde")) == {"stati-uniti", "canada", "messico"}
    assert all(d.mortgage * 2 == d.price and d.building_cost == 200_000 for d in PP.deeds)
    # The box's notes: 1 of 1,000,000, 4 of 100,000, 6 of 50,000, 6 of 20,000, 12 of 10,000,
    # 10 of 5,000 and 10 of 1,000 make the 2,000,000 each player starts with.
    assert sum(v * n for v, n in PP.starting_notes.items()) == 2_000_000
    assert PP.time_limit_minutes == 60 and PP.max_amount >= 26_000_000


# --- the start: three deeds each, never Saudi Arabia --------------------------------------------


@pytest.mark.parametrize("n", range(2, 7))
def test_three_deeds_are_dealt_to_each_and_charged_never_saudi_arabia(n):
    ids = [f"p{i}" for i in range(n)]
    for seed in range(40):
        state = GameState(
            PP,
            SETUP,
            {i: PlayerState(i, i.upper()) for i in ids},
            {d.key: DeedState(d.key) for d in PP.deeds},
            32,
            12,
            seed=seed,
        )
        act(state, commands.start(state))
        assert state.deeds[SAUDI].owner is None
        for pid in ids:
            mine = [d for d in PP.deeds if state.deeds[d.key].owner == pid]
            assert len(mine) == 3
            assert state.players[pid].cash == 2_000_000 - sum(d.price for d in mine)


def test_saudi_arabia_is_never_in_any_hand():
    hands = [dealt(PP, ["a", "b", "c", "d", "e", "f"], seed) for seed in range(300)]
    assert all(SAUDI not in {key for _, key in hand} for hand in hands)
    assert len({tuple(hand) for hand in hands}) == 300  # and the hands do differ


# --- GO ----------------------------------------------------------------------------------------


def test_go_pays_500_000_landing_or_flying_over():
    state = game()
    outcome = act(state, commands.pass_go(state, "a"))
    assert outcome.params["amount"] == 500_000 and state.players["a"].cash == 2_500_000


# --- towers and platforms ------------------------------------------------------------------------


def test_towers_cost_200_000_and_go_up_evenly_three_a_deed():
    state = game(cash=3_000_000)
    iran, saudi = group("nero")
    give(state, "a", iran, saudi)
    act(state, rules.build(state, "a", iran))
    refused("uneven_building", rules.build, state, "a", iran)
    for key in (saudi, iran, saudi, iran, saudi):
        act(state, rules.build(state, "a", key))
    assert state.players["a"].cash == 3_000_000 - 6 * 200_000
    assert [state.deeds[k].houses for k in (iran, saudi)] == [3, 3] and state.bank_small == 32 - 6
    assert rules.rent_due(state, iran) == 1_800_000  # the rent with three towers


def test_a_platform_returns_three_towers_and_costs_the_difference_of_200_000():
    state = game(cash=1_000_000)
    iran, saudi = group("nero")
    give(state, "a", iran, saudi, houses=3)
    outcome = act(state, rules.build(state, "a", iran))
    # The platform is worth 4 towers, 800,000: 3 towers given back (600,000) + 200,000 paid.
    assert outcome.params["building"] == "big" and outcome.params["amount"] == 200_000
    assert state.players["a"].cash == 1_000_000 - 200_000
    assert state.deeds[iran].hotel and state.deeds[iran].houses == 0
    assert (state.bank_small, state.bank_big) == (32 - 6 + 3, 12 - 1)
    assert rules.rent_due(state, iran) == 2_600_000
    refused("fully_built", rules.build, state, "a", iran)  # one platform a deed


def test_a_platform_needs_three_towers_on_every_deed_of_the_group():
    state = game()
    iran, saudi = group("nero")
    give(state, "a", iran, houses=3)
    give(state, "a", saudi, houses=2)
    refused("uneven_building", rules.build, state, "a", iran)
    assert rules.next_building(state, state.players["a"], PP.deed(saudi), state.deeds[saudi]) == "small"


def test_towers_and_platforms_sell_to_the_bank_at_half():
    state = game(cash=0)
    iran, saudi = group("nero")
    give(state, "a", iran, saudi, hotel=True)
    # Whole, a platform fetches half its 800,000 (with the group's other: 2 x 400,000); broken,
    # 3 towers come back and the bank pays half of the fourth.
    outcome = act(state, rules.sell_building(state, "a", iran))
    assert outcome.params["amount"] == 2 * 400_000 and outcome.params["deeds"] == [iran, saudi]
    give(state, "a", saudi, houses=1)
    assert act(state, rules.sell_building(state, "a", saudi)).params["amount"] == 100_000
    state = game(cash=0)
    give(state, "a", iran, hotel=True)
    give(state, "a", saudi, houses=3)
    act(state, rules.sell_building(state, "a", iran, break_hotel=True))
    assert state.players["a"].cash == 100_000 and state.deeds[iran].houses == 3


def test_a_platform_sells_only_as_a_homogeneous_sale_of_the_group():
    """Seed 003 line 45: "anche questi realizzi devono avvenire in modo omogeneo, per esempio su
    9 torri che il giocatore possiede su tre concessioni, può venderne 3, cioè una per
    concessione" (and line 16: platforms sold back to the bank at half). A platform counts as a
    step above three towers (line 46: worth four): sold whole beside towers it would leave 0/3/3,
    so it is broken into its towers instead; the platforms of a group go whole together, one per
    concession."""
    state = game(cash=0)
    keys = group("verde")
    give(state, "a", keys[0], hotel=True)
    give(state, "a", *keys[1:], houses=3)
    before = (state.bank_small, state.bank_big)
    refused("hotels_sold_together", rules.sell_building, state, "a", keys[0])  # not 0/3/3
    refused("uneven_selling", rules.sell_building, state, "a", keys[1])  # the platform first
    assert (state.bank_small, state.bank_big, state.players["a"].cash) == (*before, 0)
    act(state, rules.sell_building(state, "a", keys[0], break_hotel=True))
    assert [state.deeds[k].houses for k in keys] == [3, 3, 3] and state.players["a"].cash == 100_000
    state = game(cash=0)
    give(state, "a", *keys, hotel=True)
    outcome = act(state, rules.sell_building(state, "a", keys[1]))
    assert outcome.params["amount"] == 3 * 400_000
    assert [(state.deeds[k].houses, state.deeds[k].hotel) for k in keys] == [(0, False)] * 3


def test_the_bank_supply_is_a_game_setting():
    assert clean_settings({})["supply_small"] is None and clean_settings({})["supply_big"] is None
    chosen = clean_settings({"supply_small": 20, "supply_big": 6})
    assert building_supply(chosen, PP.buildings.supply_small, PP.buildings.supply_big) == (20, 6)
    assert building_supply(clean_settings({}), PP.buildings.supply_small, PP.buildings.supply_big) == (32, 12)
    assert building_supply(clean_settings({"supply_big": 0}), 32, 12) == (32, 0)
    for bad in ({"supply_small": -1}, {"supply_big": 501}, {"supply_small": "20"}, {"supply_small": 2.0}):
        with pytest.raises(BadInput):
            clean_settings(bad)
    # With the box's counts used up, the bank has nothing to sell: players wait.
    state = game()
    set_game(state, bank_small=0)
    give(state, "a", *group("marrone"))
    refused("bank_out_of_small", rules.build, state, "a", "gabon")


# --- mortgages ----------------------------------------------------------------------------------


def test_a_deed_is_mortgaged_at_half_its_price_only_when_its_group_has_no_buildings():
    state = game(cash=0)
    egitto, tunisia, siria = group("azzurro")
    give(state, "a", egitto, tunisia, siria, houses=1)
    refused("group_has_buildings", rules.mortgage, state, "a", egitto)
    for key in (siria, tunisia, egitto):
        act(state, rules.sell_building(state, "a", key))
    outcome = act(state, rules.mortgage(state, "a", egitto))
    assert outcome.params["amount"] == 70_000 and state.players["a"].cash == 3 * 100_000 + 70_000


def test_lifting_costs_the_value_plus_20_percent_rounded_up():
    state = game()
    give(state, "a", "iran", mortgaged=True)
    outcome = act(state, rules.unmortgage(state, "a", "iran"))
    assert outcome.params["amount"] == 240_000 + 48_000 and state.players["a"].cash == 2_000_000 - 288_000
    assert lift_cost(PP, replace(PP.deed("iran"), mortgage=50_001)) == 50_001 + 10_001  # 10,000.2 up


def test_no_double_rent_while_a_deed_of_the_group_is_mortgaged():
    state = game()
    egitto, tunisia, siria = group("azzurro")
    give(state, "a", egitto, tunisia, siria)
    assert rules.rent_due(state, egitto) == 2 * 12_000
    set_deed(state, siria, mortgaged=True)
    assert rules.rent_due(state, egitto) == 12_000
    refused("deed_mortgaged", rules.pay_rent, state, "b", siria)
    act(state, rules.pay_rent(state, "b", egitto))
    assert state.players["a"].cash == 2_000_000 + 12_000


# --- trades: deeds only once the bank has sold them all ----------------------------------------


def test_deeds_are_traded_only_once_the_bank_has_sold_every_one():
    # Seed 003 line 35: "Allorchè la Banca del Mondo avrà venduto tutte le concessioni
    # petrolifere, i petrolieri potranno scambiarsele tra loro".
    state = game()
    give(state, "a", "iran")
    give(state, "b", "canada")
    error = refused(
        "deeds_not_all_sold", rules.trade_propose, state, "t1", "a", "b", {"deeds": ["iran"]}, {"cash": 100_000}
    )
    assert error.params["n"] == len(PP.deeds) - 2
    refused("deeds_not_all_sold", rules.trade_propose, state, "t1", "a", "b", {"cash": 100_000}, {"deeds": ["canada"]})
    others = [d.key for d in PP.deeds if d.key not in ("iran", "canada", SAUDI)]
    give(state, "c", *others)
    refused("deeds_not_all_sold", rules.trade_propose, state, "t1", "a", "b", {"deeds": ["iran"]}, {})
    give(state, "c", SAUDI)
    act(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["iran"]}, {"cash": 100_000}))
    act(state, rules.trade_accept(state, "t1", "b"))
    assert state.deeds["iran"].owner == "b" and state.players["a"].cash == 2_100_000


def test_a_deed_back_with_the_bank_closes_deed_trades_until_it_is_sold_again():
    state = game()
    give(state, "c", *[d.key for d in PP.deeds])
    act(state, rules.trade_propose(state, "t1", "c", "a", {"deeds": ["iran"]}, {"cash": 100_000}))
    set_deed(state, "canada", owner=None)  # back with the bank (a bankruptcy to it)
    refused("deeds_not_all_sold", rules.trade_accept, state, "t1", "a")


def test_cards_and_cash_alone_change_hands_before_every_deed_is_sold():
    # Line 37: the court card "può anche essere venduta da un giocatore all'altro al miglior
    # prezzo ottenibile", with no word of waiting.
    state = game()
    set_player(state, "a", jail_cards=1)
    act(state, rules.trade_propose(state, "t1", "a", "b", {"jail_cards": 1}, {"cash": 300_000}))
    act(state, rules.trade_accept(state, "t1", "b"))
    assert state.players["b"].jail_cards == 1


def test_in_the_classic_game_deeds_are_traded_while_the_bank_holds_others():
    state = new_state("classic-it")
    give(state, "a", "vicolo-corto")
    act(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["vicolo-corto"]}, {"cash": 10}))


# --- auctions -----------------------------------------------------------------------------------


def test_an_auction_opens_at_the_printed_price_among_the_other_players_raising_by_50_000():
    state = game()
    outcome = act(state, rules.auction_start(state, "libia", NOW, 20, decliner="a"))
    assert outcome.params == {"deed": "libia", "opening_bid": 280_000, "decliner": "a", "auction": "1"}
    assert state.auction.min_raise == 50_000
    error = refused("decliner_does_not_bid", rules.bid, state, "a", 500_000, NOW)
    assert "Anna" in str(error)
    refused("bid_too_low", rules.bid, state, "b", 279_000, NOW)
    act(state, rules.bid(state, "b", 280_000, NOW))
    refused("bid_too_low", rules.bid, state, "c", 329_000, NOW)
    act(state, rules.bid(state, "c", 330_000, NOW))
    act(state, rules.bid(state, "b", 380_000, NOW))
    won = act(state, rules.auction_close(state, NOW))
    assert won.params["player"] == "b" and won.params["amount"] == 380_000
    assert state.deeds["libia"].owner == "b" and state.players["b"].cash == 2_000_000 - 380_000


def test_an_auction_the_banker_opens_without_a_decliner_is_open_to_everyone():
    state = game()
    outcome = act(state, rules.auction_start(state, "gabon", NOW, 20))
    assert "decliner" not in outcome.params
    act(state, rules.bid(state, "a", 100_000, NOW))
    refused("unknown_player", rules.auction_start, game(), "gabon", NOW, 20, decliner="zed")


def test_in_the_classic_game_the_player_who_declined_may_bid():
    state = new_state()
    outcome = act(state, rules.auction_start(state, "via-roma", NOW, 20, decliner="a"))
    assert "decliner" not in outcome.params and state.auction.decliner == "a"
    act(state, rules.bid(state, "a", 10, NOW))


# --- the International Court --------------------------------------------------------------------


def test_the_court_is_left_by_500_000_a_card_or_doubles_and_keeps_its_inmate_in_business():
    assert PP.jail.name("it") == "Corte internazionale" and PP.jail.pay_after_rounds == 3
    state = game(players=3)
    for pid in ("a", "b", "c"):
        act(state, rules.go_to_jail(state, pid))
    assert act(state, rules.pay_jail_fine(state, "a")).params["amount"] == 500_000
    assert state.players["a"].cash == 1_500_000 and not state.players["a"].in_jail
    act(state, rules.draw_jail_card(state, "b"))
    refused("no_jail_cards_left", rules.draw_jail_card, state, "c")  # one such card in the telex deck
    act(state, rules.use_jail_card(state, "b"))
    act(state, rules.leave_jail_on_doubles(state, "c"))
    refused("failed_roll_stays", rules.leave_jail_after_failed_roll, state, "c")
    # In court a player still collects rent, builds and bids.
    act(state, rules.go_to_jail(state, "a"))
    give(state, "a", *group("marrone"))
    act(state, rules.pay_rent(state, "b", "gabon"))
    assert state.players["a"].cash == 1_500_000 + 16_000
    act(state, rules.build(state, "a", "gabon"))
    act(state, rules.auction_start(state, "iran", NOW, 20, decliner="b"))
    act(state, rules.bid(state, "a", 480_000, NOW))


# --- bankruptcy ----------------------------------------------------------------------------------


def test_bankruptcy_hands_everything_to_the_creditor_the_buildings_sold_at_half_for_them():
    state = game(cash=1_000_000)
    iran, saudi = group("nero")
    give(state, "b", iran, hotel=True)
    give(state, "b", saudi, houses=3)
    give(state, "b", "gabon", mortgaged=True)
    set_player(state, "b", cash=50_000, jail_cards=1)
    outcome = act(state, rules.bankrupt(state, "b", "a", owing(state, "b")))
    # Platform 400,000 + three towers 300,000, sold to the bank, plus the cash: all to Anna.
    assert outcome.params["cash"] == 50_000 + 700_000
    assert state.players["a"].cash == 1_000_000 + 750_000 and state.players["b"].cash == 0
    assert all(state.deeds[k].owner == "a" for k in (iran, saudi, "gabon"))
    assert not any(state.deeds[k].houses or state.deeds[k].hotel for k in (iran, saudi))
    assert state.deeds["gabon"].mortgaged and not state.deeds["gabon"].fee_due  # no fee in this rulebook
    assert (state.bank_small, state.bank_big) == (32, 12) and state.players["a"].jail_cards == 1
    assert state.players["b"].bankrupt and state.status == RUNNING


# --- the final count and its ties ------------------------------------------------------------------


def test_the_final_count_is_cash_and_buildings_at_their_price_deeds_do_not_count():
    state = game(cash=1_000_000)
    iran, saudi = group("nero")
    give(state, "a", iran, hotel=True)
    give(state, "a", saudi, houses=3)
    give(state, "a", "gabon", mortgaged=True)
    give(state, "b", "kuwait")
    # A platform counts at its 800,000 (four towers), each tower at 200,000.
    assert breakdown(state, state.players["a"]) == {"cash": 1_000_000, "deeds": 0, "buildings": 800_000 + 600_000}
    assert breakdown(state, state.players["b"]) == {"cash": 1_000_000, "deeds": 0, "buildings": 0}


def tied_game():
    """Over, Anna and Bruno tied for first at 2,000,000, Carla third."""
    state = game()
    set_player(state, "c", cash=1_000_000)
    act(state, commands.end(state))
    return state


def test_a_tie_for_first_plays_ten_more_minutes_among_the_tied():
    assert (PP.end.tie, PP.end.play_off_minutes) == ("play_off", 10)
    state = game()
    set_player(state, "c", cash=1_000_000)
    refused("game_not_over", play_off.play_off_start, state)
    act(state, commands.end(state))
    assert [(r.player, r.rank) for r in standings(state)] == [("a", 1), ("b", 1), ("c", 3)]
    assert play_off.due(state) == ["a", "b"]
    outcome = act(state, play_off.play_off_start(state))
    assert outcome.params == {"players": ["a", "b"], "minutes": 10}
    assert state.status == RUNNING and state.play_offs == [["a", "b"]] and play_off.due(state) == []
    # During the play-off Bruno pays Carla rent and falls below her; Carla keeps her place.
    give(state, "c", "kuwait")
    set_player(state, "b", cash=500_000)
    act(state, commands.end(state))
    assert state.status == FINISHED
    assert [(r.player, r.rank) for r in standings(state)] == [("a", 1), ("b", 2), ("c", 3)]
    refused("no_tie", play_off.play_off_start, state)


def test_a_play_off_still_tied_can_be_played_again_among_those_still_tied():
    state = tied_game()
    act(state, play_off.play_off_start(state))
    act(state, commands.end(state))
    assert play_off.due(state) == ["a", "b"]
    act(state, play_off.play_off_start(state))
    assert state.play_offs == [["a", "b"], ["a", "b"]]


def test_a_classic_tie_is_shared_and_plays_no_play_off():
    state = new_state(players=2)
    act(state, commands.end(state))
    assert [r.rank for r in standings(state)] == [1, 1] and play_off.due(state) == []
    refused("no_play_off", play_off.play_off_start, state)


def test_a_player_out_of_the_game_does_not_play_off():
    state = game()
    set_player(state, "c", bankrupt=True, cash=0)
    act(state, commands.end(state))
    assert play_off.due(state) == ["a", "b"]
