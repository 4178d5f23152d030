"""The decoder chips of Niente è come sembra: green at the start and again at GO, one turned red
by each check, none while in jail, none in editions without fake money."""

from __future__ import annotations

import pytest
from conftest import act, new_state, set_player

from companion.core import commands
from companion.core.counterfeits.chips import require_chip, spent_chip
from companion.core.editions.loading import load_editions
from companion.core.errors import BancoError
from companion.core.state import SETUP, DeedState, GameState, PlayerState

NECS = load_editions().editions["niente-e-come-sembra"]


def started() -> GameState:
    state = GameState(
        NECS,
        SETUP,
        {i: PlayerState(i, i.upper()) for i in ("a", "b", "c")},
        {d.key: DeedState(d.key) for d in NECS.deeds},
        NECS.buildings.supply_small,
        NECS.buildings.supply_big,
        seed=3,
    )
    act(state, commands.start(state))
    return state


def test_every_player_starts_with_two_green_chips():
    state = started()
    assert [p.chips for p in state.players.values()] == [2, 2, 2]
    assert new_state().players["a"].chips is None  # the classic game has no decoder


def test_a_check_turns_one_chip_red_and_go_turns_them_green():
    state = started()
    require_chip(state, state.players["a"])
    set_player(state, "a", chips=0)
    with pytest.raises(BancoError) as info:
        require_chip(state, state.players["a"])
    assert info.value.code == "no_green_chip"
    act(state, commands.pass_go(state, "a"))
    assert state.players["a"].chips == 2
    assert spent_chip(state.players["a"]).after == 1


def test_no_decoder_in_jail_nor_where_there_is_no_fake_money():
    state = started()
    set_player(state, "b", in_jail=True)
    with pytest.raises(BancoError) as info:
        require_chip(state, state.players["b"])
    assert info.value.code == "decoder_in_jail"
    classic = new_state()
    with pytest.raises(BancoError) as info:
        require_chip(classic, classic.players["a"])
    assert info.value.code == "no_counterfeits"
