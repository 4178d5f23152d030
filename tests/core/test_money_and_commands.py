"""The bank's own core, with no database: amounts, the journal, editions and the money commands."""

from __future__ import annotations

import copy
import json

import pytest

from companion.core import commands
from companion.core.changes import apply_outcome
from companion.core.editions.edition import EditionError
from companion.core.editions.loading import EDITIONS_DIR, load_editions, parse_edition
from companion.core.errors import BadInput, NotFound, RuleViolation
from companion.core.ledger import BANK, LedgerError, Posting, balanced, balances, move, reverse
from companion.core.money import parse_amount, percent_up
from companion.core.state import FINISHED, RUNNING, SETUP, GameState, PlayerState

EDITIONS = load_editions().editions
CLASSIC = EDITIONS["classic-it"]


@pytest.mark.parametrize(
    "amount, percent, expected",
    [
        (75, 10, 8),
        (30, 10, 3),
        (31, 10, 4),
        (100, 10, 10),
        (1, 10, 1),
        (0, 10, 0),
        (150, 20, 30),
        (55, 50, 28),
    ],
)
def test_percentages_round_up_to_a_whole_unit(amount, percent, expected):
    assert percent_up(amount, percent) == expected


@pytest.mark.parametrize("raw, expected", [(1, 1), (250, 250), (100000, 100000)])
def test_amounts_are_json_integers(raw, expected):
    assert parse_amount(raw, 100000) == expected


@pytest.mark.parametrize(
    "raw, code",
    [
        (0, "invalid_amount"),
        (-1, "invalid_amount"),
        ("-1", "invalid_amount"),
        (1.5, "invalid_amount"),
        ("1,5", "invalid_amount"),
        ("abc", "invalid_amount"),
        (True, "invalid_amount"),
        (None, "invalid_amount"),
        ([1], "invalid_amount"),
        (float("inf"), "invalid_amount"),
        (100001, "amount_too_large"),
        ("9" * 16, "invalid_amount"),
        ("100", "invalid_amount"),
        (" 42 ", "invalid_amount"),
        (7.0, "invalid_amount"),
    ],
)
def test_amounts_refused(raw, code):
    with pytest.raises(BadInput) as refused:
        parse_amount(raw, 100000)
    assert refused.value.code == code


def test_the_journal_balances_by_construction():
    postings = move(BANK, "p1", 1500) + move("p1", "p2", 200)
    assert balances(postings) == {BANK: -1500, "p1": 1300, "p2": 200}
    assert sum(balances(postings + reverse(postings)).values()) == 0
    assert all(v == 0 for v in balances(postings + reverse(postings)).values())


@pytest.mark.parametrize(
    "postings",
    [
        [Posting("a", 10), Posting("b", -9)],
        [Posting("a", 0)],
        [Posting("a", 1.5), Posting("b", -1.5)],
        [Posting("a", True), Posting("b", -1)],
    ],
)
def test_the_journal_refuses_money_made_or_lost(postings):
    with pytest.raises(LedgerError):
        balanced(postings)
    with pytest.raises(LedgerError):
        move("a", "a", 5)


def test_every_built_in_edition_validates():
    assert {"classic-it", "campionato-2015"} <= set(EDITIONS)
    for edition in EDITIONS.values():
        assert edition.deeds and all(edition.group(d.group) for d in edition.deeds)


def _raw(edition_id="classic-it"):
    return json.loads((EDITIONS_DIR / f"{edition_id}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "breaks, message",
    [
        (lambda e: e["start"].pop("cash"), "start.cash is missing"),
        (lambda e: e["deeds"][0].update(price="60"), r"deeds\[0\].price must be a whole number"),
        (lambda e: e["deeds"][0].update(group="purple"), "is not one of the edition's groups"),
        (lambda e: e["deeds"][1].update(key=e["deeds"][0]["key"]), "repeated key"),
        (lambda e: e["deeds"][0].update(rents=[2, 10]), "rents needs 6 values"),
        (lambda e: e["players"].update(max=9), "players.max must be at most 8"),
        (lambda e: e["players"].update(min=5, max=4), "players must be a range"),
        (lambda e: e["start"]["cash"].pop("5"), "start.cash has no amount for 5 players"),
        (lambda e: e["salary"].update(dice_multiplier=10), "salary.dice_multiplier does not go with the policy fixed"),
        (lambda e: e["name"].pop("en"), "name.en is missing"),
    ],
)
def test_a_broken_edition_file_is_refused_naming_the_field(breaks, message):
    data = _raw()
    breaks(data)
    with pytest.raises(EditionError, match=message):
        parse_edition(data)


def game(status=RUNNING, cash=1500):
    players = {pid: PlayerState(pid, name, cash) for pid, name in (("a", "Anna"), ("b", "Bruno"))}
    return GameState(CLASSIC, status, players)


def test_start_pays_everyone_from_the_bank():
    state = game(SETUP, 0)
    outcome = commands.start(state)
    state = apply_outcome(state, outcome)
    assert state.status == RUNNING and [p.cash for p in state.players.values()] == [1500, 1500]
    assert balances(outcome.postings)[BANK] == -3000


def test_start_refuses_a_table_too_small_or_already_playing():
    lonely = GameState(CLASSIC, SETUP, {"a": PlayerState("a", "Anna")})
    with pytest.raises(RuleViolation, match="at least 2"):
        commands.start(lonely)
    with pytest.raises(RuleViolation):
        commands.start(game())


def test_transfer_and_its_refusals():
    state = game()
    state = apply_outcome(state, commands.transfer(state, "a", "b", 300, "rent"))
    assert state.players["a"].cash == 1200 and state.players["b"].cash == 1800
    with pytest.raises(RuleViolation) as short:
        commands.transfer(state, "a", "b", 1300)
    assert short.value.code == "insufficient_cash" and short.value.params["missing"] == 100
    with pytest.raises(NotFound):
        commands.transfer(state, "a", "zed", 1)
    with pytest.raises(BadInput):
        commands.transfer(state, "a", "a", 1)
    with pytest.raises(BadInput):
        commands.transfer(state, "a", BANK, 1, "x" * 81)
    with pytest.raises(RuleViolation, match="not started"):
        commands.transfer(game(SETUP), "a", "b", 1)
    with pytest.raises(RuleViolation, match="over"):
        commands.transfer(game(FINISHED), "a", "b", 1)


def test_go_and_fixed_payments_read_the_edition():
    state = game()
    state = apply_outcome(state, commands.pass_go(state, "a"))
    state = apply_outcome(state, commands.pay_fixed(state, "b", "luxury-tax"))
    assert state.players["a"].cash == 1700 and state.players["b"].cash == 1400
    with pytest.raises(NotFound):
        commands.pay_fixed(state, "b", "no-such-tax")


def test_undo_restores_the_state_and_refuses_a_stale_one():
    state = game(SETUP, 0)
    before = (state.status, copy.deepcopy(state.players))
    started = commands.start(state)
    state = apply_outcome(state, started)
    state = apply_outcome(state, commands.undo(state, "start", 1, started.postings, started.changes))
    assert (state.status, state.players) == before
    state = apply_outcome(state, started)
    state = apply_outcome(state, commands.end(state))
    with pytest.raises(RuleViolation):
        commands.undo(state, "start", 1, started.postings, started.changes)  # the game is over
    with pytest.raises(RuleViolation, match="later changes"):
        ended = commands.end(game())
        commands.undo(game(SETUP), "end", 2, (), ended.changes)
