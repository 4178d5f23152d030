"""The server's dice: faces, totals, doubles, which editions have which dice, rolls repeatable
from the game's seed, undo, and refusals."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import pytest
from conftest import EDITIONS, act, new_state, play_on, refused, set_game, set_player, snapshot

from companion.core import commands, dice
from companion.core.changes import apply_outcome
from companion.core.state import FINISHED, SETUP

BUYER_DIE = ("si", "si", "si", "no", "no", "vita")
OWNER_DIE = ("no", "no", "doppio", "meta", "ritira", "vita")


def seeded(edition_id="classic-it", seed=42, **kwargs):
    state = new_state(edition_id, **kwargs)
    set_game(state, seed=seed)
    return state


def with_expropriation(edition_id="classic-it"):
    """A made-up edition with the two expropriation dice, as Che Impresa! has them."""
    edition = replace(EDITIONS[edition_id], expropriation=SimpleNamespace(buyer_die=BUYER_DIE, owner_die=OWNER_DIE))
    state = new_state(edition=edition)
    set_game(state, seed=7)
    return state


def rolled(state, kind="2d6", player="a", times=1):
    """Rolls ``times`` and returns every outcome's faces, the state moving on with each."""
    return [act(state, dice.roll(state, player, kind)).result["faces"] for _ in range(times)]


# --- faces, totals, doubles ------------------------------------------------------------------


def test_two_dice_are_two_numbers_from_1_to_6_with_their_sum():
    state = seeded()
    for _ in range(300):
        outcome = act(state, dice.roll(state, "a", "2d6"))
        faces = outcome.result["faces"]
        assert len(faces) == 2 and all(isinstance(f, int) and 1 <= f <= 6 for f in faces)
        assert outcome.result["total"] == sum(faces)
        assert outcome.result["doubles"] == (faces[0] == faces[1])
    assert state.rolls == 300


def test_every_face_comes_up_and_doubles_about_one_roll_in_six():
    state = seeded(seed=3)
    faces = rolled(state, times=600)
    assert Counter(f for pair in faces for f in pair).keys() == {1, 2, 3, 4, 5, 6}
    share = sum(a == b for a, b in faces) / len(faces)
    assert 0.1 < share < 0.25


def test_the_speedy_die_adds_1_2_or_3_and_bus_or_mr_monopoly_add_nothing():
    state = seeded("campionato-2015", seed=5)
    seen = Counter()
    for _ in range(600):
        outcome = act(state, dice.roll(state, "a", "speed"))
        first, second, speedy = outcome.result["faces"]
        assert 1 <= first <= 6 and 1 <= second <= 6
        assert speedy in (1, 2, 3, "bus", "mr_monopoly")
        seen[speedy] += 1
        extra = speedy if isinstance(speedy, int) else 0
        assert outcome.result["total"] == first + second + extra <= state.edition.dice.max_total
        assert outcome.result["doubles"] == (first == second)
    # The real die: Mr. Monopoly on two faces, the Bus on one.
    assert set(seen) == {1, 2, 3, "bus", "mr_monopoly"}
    assert seen["mr_monopoly"] > seen["bus"]


@pytest.mark.parametrize(
    "kind, faces, total, doubles",
    [
        ("2d6", [3, 4], 7, False),
        ("2d6", [6, 6], 12, True),
        ("speed", [3, 4, 2], 9, False),
        ("speed", [5, 5, "bus"], 10, True),
        ("speed", [1, 2, "mr_monopoly"], 3, False),
        ("speed", [6, 6, 3], 15, True),
        ("expropriation", ["si", "meta"], None, False),
    ],
)
def test_totals_and_doubles(kind, faces, total, doubles):
    assert dice.total(kind, faces) == total
    assert dice.doubles(kind, faces) is doubles


def test_the_expropriation_dice_are_the_buyers_face_then_the_owners():
    state = with_expropriation()
    seen_buyer, seen_owner = set(), set()
    for _ in range(300):
        outcome = act(state, dice.roll(state, "b", "expropriation"))
        buyer, owner = outcome.result["faces"]
        assert buyer in BUYER_DIE and owner in OWNER_DIE
        assert outcome.result["total"] is None and outcome.result["doubles"] is False
        seen_buyer.add(buyer)
        seen_owner.add(owner)
    assert seen_buyer == set(BUYER_DIE) and seen_owner == set(OWNER_DIE)


def test_the_outcome_says_who_rolled_what_and_becomes_the_last_roll():
    state = seeded()
    outcome = act(state, dice.roll(state, "b", "2d6"))
    assert outcome.kind == "roll"
    assert outcome.postings == ()
    faces = outcome.result["faces"]
    expected = {"player": "b", "dice": "2d6", "faces": faces, "total": sum(faces), "doubles": faces[0] == faces[1]}
    assert outcome.params == expected
    assert set(outcome.result) == {"faces", "total", "doubles"}
    assert state.last_roll == expected
    assert state.rolls == 1


def test_no_dice_named_means_the_two_dice():
    state = seeded()
    assert len(act(state, dice.roll(state, "a", None)).result["faces"]) == 2
    assert state.last_roll["dice"] == "2d6"


# --- which editions have which dice ----------------------------------------------------------


def test_the_kinds_each_edition_offers_come_from_its_data():
    assert dice.kinds(EDITIONS["classic-it"]) == ("2d6",)
    assert dice.kinds(EDITIONS["campionato-2015"]) == ("2d6", "speed")
    # Read from the data, never the edition's id: a classic board with a 15 top plays the Speedy die.
    fast = replace(EDITIONS["classic-it"], dice=replace(EDITIONS["classic-it"].dice, max_total=15))
    assert dice.kinds(fast) == ("2d6", "speed")
    assert dice.kinds(with_expropriation().edition) == ("2d6", "expropriation")


@pytest.mark.skipif("che-impresa" not in EDITIONS, reason="Che Impresa! is not in the editions yet")
def test_che_impresa_rolls_its_own_expropriation_dice():
    edition = EDITIONS["che-impresa"]
    assert dice.kinds(edition) == ("2d6", "expropriation")
    state = new_state(edition=edition)
    set_game(state, seed=11)
    buyer, owner = act(state, dice.roll(state, "a", "expropriation")).result["faces"]
    assert buyer in edition.expropriation.buyer_die and owner in edition.expropriation.owner_die


def test_the_speedy_die_only_where_the_edition_has_it():
    state = seeded("classic-it")
    error = refused("no_speed_die", dice.roll, state, "a", "speed")
    assert error.status == 409
    state = seeded("campionato-2015")
    assert len(act(state, dice.roll(state, "a", "speed")).result["faces"]) == 3


def test_the_expropriation_dice_only_where_the_edition_has_them():
    for edition_id in ("classic-it", "campionato-2015"):
        error = refused("no_expropriation_dice", dice.roll, seeded(edition_id), "a", "expropriation")
        assert error.status == 409
        assert str(error) == "This edition has no expropriation dice."


# --- the seed ---------------------------------------------------------------------------------


def test_the_same_seed_rolls_the_same_dice_in_the_same_order():
    kinds = ["2d6", "2d6", "speed", "2d6"]
    one, two = seeded("campionato-2015", seed=1234), seeded("campionato-2015", seed=1234)
    first = [act(one, dice.roll(one, "a", k)).result["faces"] for k in kinds]
    second = [act(two, dice.roll(two, "b", k)).result["faces"] for k in kinds]
    assert first == second


def test_another_seed_rolls_other_dice():
    assert rolled(seeded(seed=1), times=20) != rolled(seeded(seed=2), times=20)


def test_each_roll_number_draws_afresh():
    """Roll n draws from the seed and n: over many rolls the pairs spread over the 36 outcomes
    instead of repeating one."""
    faces = rolled(seeded(seed=99), times=360)
    counts = Counter(tuple(f) for f in faces)
    assert len(counts) == 36
    assert max(counts.values()) < 30
    assert [dice.rng_for(99, n).random() for n in range(3)] == [dice.rng_for(99, n).random() for n in range(3)]
    assert len({dice.rng_for(99, n).random() for n in range(100)}) == 100


def test_a_roll_undone_and_rolled_again_falls_the_same_way():
    state = seeded(seed=8)
    first = dice.roll(state, "a", "2d6")
    play_on(state, apply_outcome(state, first))
    play_on(state, apply_outcome(state, commands.undo(state, "roll", 1, first.postings, first.changes)))
    assert state.rolls == 0 and state.last_roll is None
    assert dice.roll(state, "a", "2d6").result == first.result


def test_a_generator_passed_in_is_used_when_the_game_has_no_seed():
    import random

    state = new_state()
    assert state.seed is None
    outcome = act(state, dice.roll(state, "a", "2d6", random.Random(5)))
    assert outcome.result["faces"] == dice._two_dice(state, random.Random(5))


# --- undo --------------------------------------------------------------------------------------


def test_undo_restores_the_count_and_the_last_roll():
    state = seeded()
    act(state, dice.roll(state, "a", "2d6"))
    before = snapshot(state)
    outcome = dice.roll(state, "b", "2d6")
    play_on(state, apply_outcome(state, outcome))
    assert state.rolls == 2 and state.last_roll["player"] == "b"
    play_on(state, apply_outcome(state, commands.undo(state, "roll", 2, outcome.postings, outcome.changes)))
    assert state == before
    assert state.rolls == 1 and state.last_roll["player"] == "a"


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["3d6", "", "SPEED", 7, ["2d6"], {"dice": "2d6"}, True])
def test_an_unknown_kind_of_dice_is_refused_naming_the_kinds(kind):
    error = refused("unknown_dice", dice.roll, seeded(), "a", kind)
    assert error.status == 400
    for name in ("2d6", "speed", "expropriation"):
        assert name in str(error)


def test_a_game_not_running_refuses_the_dice():
    state = seeded()
    set_game(state, status=SETUP)
    refused("game_not_started", dice.roll, state, "a", "2d6")
    set_game(state, status=FINISHED)
    refused("game_finished", dice.roll, state, "a", "2d6")


def test_an_unknown_or_bankrupt_player_cannot_roll():
    state = seeded()
    refused("unknown_player", dice.roll, state, "zz", "2d6")
    refused("unknown_player", dice.roll, state, None, "2d6")
    set_player(state, "c", bankrupt=True)
    refused("player_bankrupt", dice.roll, state, "c", "2d6")
