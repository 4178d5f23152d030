"""What a player could still raise before going bankrupt, by each edition's own numbers, and
that it is exactly what selling and mortgaging through the rules would pay."""

from __future__ import annotations

from conftest import give, new_state, play_on, set_deed, set_game

from companion.core import rules
from companion.core.changes import apply_outcome
from companion.core.errors import BancoError
from companion.core.rules import Liquidation, liquidation_value


def _raise_through_the_rules(state, player_id) -> int:
    """Sells every building and then mortgages (or sells back) every deed through the rules,
    returning the cash it brought: the figure ``liquidation_value`` must predict."""
    start = state.players[player_id].cash
    sold_something = True
    while sold_something:
        sold_something = False
        for key, ds in state.deeds.items():
            if ds.owner == player_id and (ds.houses or ds.hotel):
                try:
                    play_on(state, apply_outcome(state, rules.sell_building(state, player_id, key)))
                except BancoError:  # sold whole only with the group: break it instead
                    play_on(state, apply_outcome(state, rules.sell_building(state, player_id, key, break_hotel=True)))
                sold_something = True
    for key, ds in list(state.deeds.items()):
        if ds.owner == player_id and not ds.mortgaged:
            if state.edition.deed_sale is not None:
                play_on(state, apply_outcome(state, rules.sell_to_bank(state, player_id, key)))
            elif state.edition.mortgage.policy != "none" and state.edition.deed(key).mortgage:
                play_on(state, apply_outcome(state, rules.mortgage(state, player_id, key)))
    return state.players[player_id].cash - start


def test_classic_buildings_then_mortgages():
    state = new_state("classic-it")
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=4)
    set_deed(state, "vicolo-corto", houses=0, hotel=True)
    set_game(state, bank_small=state.bank_small + 4)  # the hotel took its four houses back
    give(state, "a", "stazione-sud", mortgaged=True)  # already mortgaged: nothing more
    # By hand: a house of the brown group costs 50 and sells at 25; a hotel is worth 5 houses:
    # 5 × 25 + 4 × 25 = 225; then the two brown deeds mortgage at 30 each.
    assert liquidation_value(state, "a") == Liquidation(buildings=225, mortgages=60, cash=1500)
    assert liquidation_value(state, "a").payable == 1500 + 285
    assert liquidation_value(state, "a").total == _raise_through_the_rules(state, "a") == 285


def test_without_mortgages_the_bank_raises_only_the_buildings_and_the_free_lands_count():
    """Che Impresa!: deeds cannot be mortgaged; its businesses sell back at half (all the bank
    pays), and lines 283-287 count "i terreni liberi" in what a player has, at no stated value:
    the edition file counts them at their price (``bankruptcy.free_deeds_percent``)."""
    state = new_state("che-impresa", cash=0)
    give(state, "a", "lagora", "cavanicce")
    lands = sum(state.edition.deed(k).price for k in ("lagora", "cavanicce"))
    assert liquidation_value(state, "a") == Liquidation(free_deeds=lands)
    set_deed(state, "lagora", houses=2)
    assert liquidation_value(state, "a") == Liquidation(buildings=50, free_deeds=lands)  # 2 × half of 50
    assert _raise_through_the_rules(state, "a") == 50


def test_where_the_bank_buys_deeds_back_they_count_at_the_sale_price():
    """Niente è come sembra: no mortgages, but the bank buys a deed back at its price."""
    state = new_state("niente-e-come-sembra")
    give(state, "a", "vicolo-storto", "vicolo-cieco")
    set_deed(state, "vicolo-storto", hotel=True)
    assert liquidation_value(state, "a") == Liquidation(buildings=50, deed_sales=120, cash=1500)
    assert _raise_through_the_rules(state, "a") == 170


def test_nothing_owned_nothing_to_raise():
    state = new_state()
    assert liquidation_value(state, "a").total == 0
    assert liquidation_value(state, "nobody").total == 0
