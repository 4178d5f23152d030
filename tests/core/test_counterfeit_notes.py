"""Niente è come sembra's electronic notes: the starting split, the fakes drawn from the seed,
which notes a payment hands over (with change), conservation (notes add up to cash), the check
window and every chip rule, the fake caught, and the Imprevisti cards."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from conftest import EDITIONS, NAMES, NOW, act, set_player, snapshot

from companion.core import commands
from companion.core.counterfeits import chance, notes
from companion.core.errors import BancoError
from companion.core.ledger import BANK
from companion.core.settings import clean_settings
from companion.core.state import SETUP, GameState, PlayerState

NE = EDITIONS["niente-e-come-sembra"]


def started(seed=1, players=3, **settings) -> GameState:
    ids = list(NAMES)[:players]
    state = GameState(
        NE, SETUP, {i: PlayerState(i, NAMES[i]) for i in ids}, settings=clean_settings(settings), seed=seed
    )
    act(state, notes.follow(state, commands.start(state), "start", NOW))
    return state


def run(state, outcome, payment_id="p", now=NOW):
    """Follows the outcome's notes and applies it (proving undo), then checks conservation."""
    outcome = notes.follow(state, outcome, payment_id, now)
    act(state, outcome)
    assert notes.conserved(state) == []
    return outcome


def refused(state, call, code):
    before = snapshot(state)
    with pytest.raises(BancoError) as error:
        call()
    assert error.value.code == code
    assert state == before


def test_the_starting_notes_are_the_rulebook_split():
    state = started()
    for pid in state.players:
        assert notes.hand_counts(state, pid) == {500: 2, 100: 3, 50: 3, 20: 1, 10: 3}
        assert state.players[pid].chips == 2
    assert state.notes.drawn == 36
    assert notes.conserved(state) == []


def test_the_fakes_come_from_the_seed():
    def fakes(seed, share=None):
        state = started(seed=seed, **({"fake_note_share": share} if share is not None else {}))
        return [n["fake"] for pid in state.players for n in state.notes.hands[pid]]

    assert fakes(7) == fakes(7)
    assert fakes(7) != fakes(8) or fakes(7) != fakes(9)
    assert not any(fakes(3, 0.0)) and all(fakes(3, 1.0))
    # About a tenth of the bank's notes are fake (the edition's share), over many games.
    drawn = [f for seed in range(100) for f in fakes(seed)]
    assert 0.07 < sum(drawn) / len(drawn) < 0.13
    drawn = [f for seed in range(100) for f in fakes(seed, 0.5)]
    assert 0.45 < sum(drawn) / len(drawn) < 0.55


def test_a_payment_hands_over_the_largest_notes_that_make_it():
    state = started()
    out = run(state, commands.transfer(state, "a", "b", 560))
    handed = state.checkable[out.result["payment"]].notes
    assert sorted((n["face"] for n in handed), reverse=True) == [500, 50, 10]
    assert notes.hand_counts(state, "a") == {500: 1, 100: 3, 50: 2, 20: 1, 10: 2}
    assert notes.hand_counts(state, "b") == {500: 3, 100: 3, 50: 4, 20: 1, 10: 4}


def test_the_bank_makes_change_when_the_notes_cannot_make_the_amount():
    state = started()
    bank = notes._Bank(state, 100)
    hand = [{"id": "x", "face": 500, "fake": True}, {"id": "y", "face": 20, "fake": False}]
    # 500 changed into 5 x 100, one 100 into 2 x 50, one 50 into 20 + 20 + 10.
    handed = notes.hand_over(hand, 490, bank)
    assert sorted((n["face"] for n in handed), reverse=True) == [100, 100, 100, 100, 50, 20, 20]
    assert sorted(n["face"] for n in hand) == [10, 20]
    assert all(n["id"] != "x" for n in handed + hand) and bank.drawn == 100 + 5 + 2 + 3
    # Through a payment: a single 20 pays 10.
    run(state, commands.transfer(state, "a", "b", 1490), "p1")
    run(state, commands.transfer(state, BANK, "a", 10), "p2")
    run(state, commands.transfer(state, "a", "b", 10), "p3")
    assert sum(n["face"] for n in state.notes.hands["a"]) == 10 == state.players["a"].cash


def test_amounts_the_notes_cannot_make_are_refused():
    state = started()
    refused(state, lambda: notes.follow(state, commands.transfer(state, "a", "b", 15), "p", NOW), "not_in_notes")


def test_notes_add_up_to_cash_through_many_payments():
    import random

    rng = random.Random(4)
    state = started(seed=4, fake_note_share=0.5)
    ids = list(state.players)
    for i in range(200):
        payer, payee = rng.sample(ids + [BANK], 2)
        if payer == BANK:
            outcome = commands.transfer(state, BANK, payee, rng.randrange(1, 30) * 10)
        else:
            cash = state.players[payer].cash
            if cash < 10:
                continue
            outcome = commands.transfer(state, payer, payee, rng.randrange(1, cash // 10 + 1) * 10)
        run(state, outcome, f"p{i}")
        total_notes = sum(n["face"] for hand in state.notes.hands.values() for n in hand)
        assert total_notes == sum(p.cash for p in state.players.values())


def test_bank_payouts_are_never_open_to_a_check():
    state = started()
    out = run(state, commands.pass_go(state, "a"))
    assert "payment" not in out.result and state.checkable == {}
    out = run(state, commands.transfer(state, BANK, "b", 50))
    assert "payment" not in out.result


def test_the_check_rules():
    state = started(fake_note_share=0.0)
    out = run(state, commands.transfer(state, "a", "b", 100), "p1")
    until = out.result["check_until"]
    assert until == (NOW + timedelta(seconds=8)).isoformat()
    # Not one's own money, not the receiver (by default), not too late.
    refused(state, lambda: notes.check(state, "a", "p1", NOW, "o"), "own_money")
    refused(state, lambda: notes.check(state, "b", "p1", NOW, "o"), "receiver_cannot_check")
    refused(state, lambda: notes.check(state, "c", "p1", NOW + timedelta(seconds=8), "o"), "check_closed")
    refused(state, lambda: notes.check(state, "c", "nope", NOW, "o"), "unknown_payment")
    # Not in jail.
    set_player(state, "c", in_jail=True)
    refused(state, lambda: notes.check(state, "c", "p1", NOW, "o"), "decoder_in_jail")
    set_player(state, "c", in_jail=False)
    out = run(state, notes.check(state, "c", "p1", NOW, "o"))
    assert out.result == {"fake": False, "face": 100} and state.players["c"].chips == 1
    assert state.players["a"].cash == 1400 and state.players["b"].cash == 1600
    # One check per payment.
    refused(state, lambda: notes.check(state, "c", "p1", NOW, "o"), "already_checked")
    # Two chips per lap: the third check is refused until GO.
    run(state, commands.transfer(state, "a", "b", 100), "p2")
    run(state, notes.check(state, "c", "p2", NOW, "o"))
    run(state, commands.transfer(state, "a", "b", 100), "p3")
    refused(state, lambda: notes.check(state, "c", "p3", NOW, "o"), "no_green_chip")
    run(state, commands.pass_go(state, "c"))
    assert state.players["c"].chips == 2
    run(state, notes.check(state, "c", "p3", NOW, "o"))


def test_the_receiver_checks_where_the_setting_says():
    state = started(receiver_checks=True)
    run(state, commands.transfer(state, "a", "b", 100), "p1")
    run(state, notes.check(state, "b", "p1", NOW, "o"))
    assert state.players["b"].chips == 1


def test_a_fake_goes_to_the_checker_and_the_payer_pays_again():
    state = started(fake_note_share=1.0)
    run(state, commands.transfer(state, "a", "b", 50), "p1")
    out = run(state, notes.check(state, "c", "p1", NOW, "o"))
    assert out.result == {"fake": True, "face": 50}
    assert {p.id: p.cash for p in state.players.values()} == {"a": 1400, "b": 1550, "c": 1550}
    assert notes.hand_counts(state, "c")[50] == 4
    assert state.pending == {}


def test_a_payer_without_the_money_owes_it():
    state = started(fake_note_share=1.0)
    run(state, commands.transfer(state, "a", "b", 1500), "p1")
    out = run(state, notes.check(state, "c", "p1", NOW, "owed"))
    face = out.result["face"]
    assert state.players["a"].cash == 0
    assert state.players["b"].cash == 3000 - face and state.players["c"].cash == 1500 + face
    owed = state.pending["owed"]
    assert (owed.payer, owed.payee, owed.amount, owed.needs) == ("a", "b", face, "payer")


def test_a_payment_to_the_bank_is_open_and_a_fake_in_it_is_paid_again():
    state = started(fake_note_share=1.0)
    out = run(state, commands.pay_fixed(state, "a", "jail-fine"), "p1")
    assert state.checkable["p1"].payee == BANK
    out = run(state, notes.check(state, "b", "p1", NOW, "o"))
    assert out.result["fake"] is True
    assert state.players["a"].cash == 1500 - 50 - out.result["face"]
    assert state.players["b"].cash == 1500 + out.result["face"]


def test_closed_windows_are_dropped_by_the_next_payment():
    state = started()
    run(state, commands.transfer(state, "a", "b", 100), "p1")
    run(state, commands.transfer(state, "a", "b", 100), "p2", now=NOW + timedelta(seconds=9))
    assert list(state.checkable) == ["p2"]
    assert [c.id for c in notes.open_checks(state, NOW + timedelta(seconds=9))] == ["p2"]


def test_other_editions_are_untouched():
    classic = replace(started(), edition=EDITIONS["classic-it"])
    outcome = commands.transfer(classic, "a", "b", 15)
    assert notes.follow(classic, outcome, "p", NOW) is outcome


def test_chance_cards():
    state = started(seed=2)
    deck = chance.new_deck(state)
    cards = deck.pile + deck.board
    assert len(cards) == 24 and sum(c["fake"] for c in cards) == 12 and len(deck.board) == 3
    out = chance.chance_draw(state, "a", None, NOW)
    act(state, out)
    card = out.result["card"]
    assert chance.hand_ids(state, "a") == [card] and len(state.chance.board) == 3 and len(state.chance.pile) == 20
    refused(state, lambda: chance.chance_play(state, "b", card, "play", NOW), "unknown_card")
    out = chance.chance_play(state, "a", card, "play", NOW)
    act(state, out)
    assert out.result["payment"] == "play" and chance.hand_ids(state, "a") == []
    refused(state, lambda: notes.check(state, "a", "play", NOW, "o"), "own_money")
    fake = state.checkable["play"].notes[0]["fake"]
    out = run(state, notes.check(state, "b", "play", NOW, "o"))
    assert out.result["fake"] is fake
    assert state.players["b"].cash == 1500 + (100 if fake else 0)
    assert state.chance.pile[-1]["id"] == card and state.players["b"].chips == 1


def test_an_unchecked_card_goes_back_under_the_pile():
    state = started(seed=2)
    out = chance.chance_draw(state, "a", None, NOW)
    act(state, out)
    act(state, chance.chance_play(state, "a", out.result["card"], "play", NOW))
    act(state, chance.chance_draw(state, "b", None, NOW + timedelta(seconds=9)))
    assert "play" not in state.checkable and state.chance.pile[-1]["id"] == out.result["card"]


def test_a_fake_passed_on_is_replaced_for_whoever_holds_it_now():
    state = started(players=4, fake_note_share=1.0)
    run(state, commands.transfer(state, "b", BANK, 1500), "p0")
    run(state, commands.transfer(state, "a", "b", 50), "p1")
    run(state, commands.transfer(state, "b", "c", 50), "p2")  # the very note Anna gave
    out = run(state, notes.check(state, "d", "p1", NOW, "o"))
    assert out.result == {"fake": True, "face": 50}
    assert {p.id: p.cash for p in state.players.values()} == {"a": 1400, "b": 0, "c": 1550, "d": 1550}
    handed = {n["id"] for n in state.checkable["p1"].notes}
    assert handed <= {n["id"] for n in state.notes.hands["d"]}
