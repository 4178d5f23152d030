"""The engine under every rule: the one interpreter of outcomes, conservation of money with
pots, money that waits for a yes, the strict bank's hold, and the game settings. Pure and fast:
no database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import NOW, act, cash, give, new_state, owing, play_on, refused, set_game, set_player, snapshot
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.core import commands, pending, rules
from companion.core.changes import apply_outcome, check_postings
from companion.core.errors import BadInput, BancoError
from companion.core.ledger import BANK, LedgerError, Posting, balances, move
from companion.core.settings import FREE_PARKING, SETTINGS, clean_settings, pots_for
from companion.core.state import BANKER, PAYER, SETUP, Change, Outcome, document_change

POT = {"free_parking_pot": True}


# --- the applier: whatever rule made the outcome --------------------------------------------------


def _deed_change(state, key="vicolo-corto", owner="a"):
    return Change("deed", key, "owner", state.deeds[key].owner, owner)


@pytest.mark.parametrize(
    "postings, code",
    [
        (move("a", "nobody", 10), "unknown_account"),
        (move(BANK, "nobody", 10), "unknown_account"),
        (move(BANK, FREE_PARKING, 10), "unknown_account"),  # a game without the pot
        (move("a", "b", 1501), "insufficient_cash"),
        (move("a", BANK, 1501), "insufficient_cash"),
        (move("a", "b", 1000) + move("a", "c", 501), "insufficient_cash"),
    ],
)
def test_the_applier_refuses_before_changing_anything(postings, code):
    """Unknown accounts and negative balances are refused by the applier itself, so no rule
    (present or future) can produce them; the changes of the same outcome are not written."""
    state = new_state()
    outcome = Outcome("hand_made", postings, (_deed_change(state),))
    refused(code, apply_outcome, state, outcome)
    refused(code, check_postings, state, postings)


def test_the_applier_refuses_emptying_a_pot_below_zero():
    state = new_state(settings=POT)
    act(state, commands.transfer(state, "a", FREE_PARKING, 50))
    error = refused("pot_too_small", apply_outcome, state, Outcome("hand_made", move(FREE_PARKING, "b", 51)))
    assert error.status == 409 and "50" in str(error)
    act(state, Outcome("hand_made", move(FREE_PARKING, "b", 50)))
    assert state.pots == {FREE_PARKING: 0} and cash(state) == {"a": 1450, "b": 1550, "c": 1500}


def test_the_applier_names_what_is_missing():
    state = new_state(cash=30)
    error = refused("insufficient_cash", apply_outcome, state, Outcome("hand_made", move("b", BANK, 100)))
    assert error.status == 409
    assert str(error) == "Bruno has 30: 70 missing to pay 100."


@pytest.mark.parametrize("account", [None, 7, "", "Bank", "a "])
def test_an_account_that_is_not_one_of_the_games_is_404(account):
    state = new_state()
    error = refused(
        "unknown_account", apply_outcome, state, Outcome("hand_made", (Posting("a", -5), Posting(account, 5)))
    )
    assert error.status == 404


def test_only_the_final_balance_counts():
    """A player may pass money on within one outcome: only what it leaves must be whole."""
    state = new_state()
    set_player(state, "b", cash=0)
    act(state, Outcome("hand_made", move("a", "b", 100) + move("b", "c", 100)))
    assert cash(state) == {"a": 1400, "b": 0, "c": 1600}


def test_the_applier_refuses_money_made_or_lost_and_undeclared_fields():
    state = new_state()
    before = snapshot(state)
    with pytest.raises(LedgerError):
        play_on(
            state,
            apply_outcome(state, Outcome("hand_made", (Posting("a", -10), Posting("b", 9)), (_deed_change(state),))),
        )
    for change in (
        Change("player", "a", "cash", 1500, 9999),
        Change("player", "zz", "in_jail", False, True),
        Change("deed", "nowhere", "owner", None, "a"),
        Change("game", None, "pots", {}, {"x": 1}),
        Change("game", None, "settings", {}, {}),
        Change("nonsense", None, "state", None, None),
    ):
        with pytest.raises(ValueError):
            play_on(
                state, apply_outcome(state, Outcome("hand_made", move("a", "b", 10), (_deed_change(state), change)))
            )
    assert state == before


def test_a_refused_outcome_leaves_the_pending_documents_too():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 100, "", NOW))
    outcome = Outcome("hand_made", move("c", "a", 5000), (document_change("pending", "p1", state.pending["p1"], None),))
    refused("insufficient_cash", apply_outcome, state, outcome)
    assert "p1" in state.pending


# --- conservation with pots -----------------------------------------------------------------------


def test_taxes_go_into_the_pot_only_when_the_game_has_it():
    state = new_state()
    act(state, commands.pay_fixed(state, "a", "luxury-tax"))
    assert state.pots == {} and cash(state)["a"] == 1400
    state = new_state(settings=POT)
    outcome = act(state, commands.pay_fixed(state, "a", "luxury-tax"))
    assert outcome.params["to"] == FREE_PARKING
    act(state, commands.pay_fixed(state, "b", "wealth-tax"))
    assert state.pots == {FREE_PARKING: 300}
    assert cash(state) == {"a": 1400, "b": 1300, "c": 1500}


def test_a_transfer_to_the_pot_and_the_pot_collected():
    state = new_state(settings=POT)
    act(state, commands.transfer(state, "a", FREE_PARKING, 150, "fine"))
    act(state, commands.pay_fixed(state, "b", "jail-fine"))
    outcome = act(state, commands.pot_collect(state, "c", FREE_PARKING))
    assert outcome.result == {"amount": 200}
    assert state.pots == {FREE_PARKING: 0}
    assert cash(state) == {"a": 1350, "b": 1450, "c": 1700}
    refused("pot_empty", commands.pot_collect, state, "a", FREE_PARKING)


def test_pot_refusals():
    state = new_state(settings=POT)
    act(state, commands.transfer(state, "a", FREE_PARKING, 10))
    refused("unknown_pot", commands.pot_collect, state, "a", "jackpot")
    refused("unknown_pot", commands.pot_collect, state, "a", None)
    refused("unknown_pot", commands.pot_collect, state, "a", ["free_parking"])
    refused("unknown_player", commands.pot_collect, state, "zz", FREE_PARKING)
    refused("unknown_player", commands.transfer, state, "a", "jackpot", 10)
    refused("insufficient_cash", commands.transfer, state, "a", FREE_PARKING, 1491)
    set_player(state, "b", bankrupt=True)
    refused("player_bankrupt", commands.pot_collect, state, "b", FREE_PARKING)
    plain = new_state()
    refused("unknown_pot", commands.pot_collect, plain, "a", FREE_PARKING)
    refused("unknown_player", commands.transfer, plain, "a", FREE_PARKING, 10)
    set_game(state, status=SETUP)
    refused("game_not_started", commands.pot_collect, state, "a", FREE_PARKING)


def test_undo_of_each_restores_the_pot():
    state = new_state(settings=POT)
    start = snapshot(state)
    done = []
    for make in (
        lambda: commands.pay_fixed(state, "a", "luxury-tax"),
        lambda: commands.transfer(state, "b", FREE_PARKING, 40),
        lambda: commands.pot_collect(state, "c", FREE_PARKING),
    ):
        done.append((snapshot(state), act(state, make())))
    assert state.pots == {FREE_PARKING: 0} and cash(state)["c"] == 1640
    for before, outcome in reversed(done):
        play_on(state, apply_outcome(state, commands.undo(state, outcome.kind, 1, outcome.postings, outcome.changes)))
        assert state == before
    assert state == start


def test_undo_out_of_order_cannot_leave_a_pot_or_a_player_negative():
    state = new_state(settings=POT)
    tax = act(state, commands.pay_fixed(state, "a", "luxury-tax"))
    collected = act(state, commands.pot_collect(state, "b", FREE_PARKING))
    act(state, commands.transfer(state, "b", "c", 1600))
    refused("pot_too_small", apply_outcome, state, commands.undo(state, tax.kind, 1, tax.postings, tax.changes))
    refused(
        "insufficient_cash",
        apply_outcome,
        state,
        commands.undo(state, collected.kind, 2, collected.postings, collected.changes),
    )


# --- money that waits for a yes -------------------------------------------------------------------


def test_a_request_moves_nothing_and_its_approval_moves_it_once():
    state = new_state()
    outcome = act(state, pending.request_payment(state, "p1", "a", "b", 120, "  the  deal ", NOW))
    assert outcome.kind == "request" and outcome.result == {"pending": "p1"}
    assert cash(state) == {"a": 1500, "b": 1500, "c": 1500}
    p = state.pending["p1"]
    assert (p.payer, p.payee, p.amount, p.needs, p.asked_by, p.kind) == ("b", "a", 120, PAYER, "a", "transfer")
    assert p.params["reason"] == "the deal" and p.expires_at is None
    paid = act(state, pending.approve(state, "p1", "b", NOW))
    assert paid.kind == "transfer" and paid.params["from"] == "b" and paid.params["pending"] == "p1"
    assert cash(state) == {"a": 1620, "b": 1380, "c": 1500}
    assert state.pending == {}
    refused("unknown_pending", pending.approve, state, "p1", "b", NOW)
    refused("unknown_pending", pending.decline, state, "p1", "b", NOW)
    assert cash(state) == {"a": 1620, "b": 1380, "c": 1500}


@pytest.mark.parametrize(
    "by, kind", [("b", "pending_declined"), (BANKER, "pending_declined"), ("a", "pending_withdrawn")]
)
def test_declined_or_withdrawn_moves_nothing(by, kind):
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    outcome = act(state, pending.decline(state, "p1", by, NOW))
    assert outcome.kind == kind and outcome.postings == ()
    assert outcome.params["from"] == "b" and outcome.params["asked_by"] == "a"
    assert state.pending == {} and cash(state) == {"a": 1500, "b": 1500, "c": 1500}


def test_only_the_payer_approves_and_a_third_player_cannot_close_it():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    for who in ("a", "c", BANKER, "zz", None):
        assert refused("not_your_request", pending.approve, state, "p1", who, NOW).status == 403
    refused("not_your_request", pending.decline, state, "p1", "c", NOW)
    for bad in (None, 5, "p2", ["p1"]):
        refused("unknown_pending", pending.approve, state, bad, "b", NOW)


def test_an_expired_request_cannot_be_approved_and_anyone_may_clear_it():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW, expires_seconds=60))
    assert state.pending["p1"].expires_at == (NOW + timedelta(seconds=60)).isoformat()
    in_time = snapshot(state)
    act(in_time, pending.approve(in_time, "p1", "b", NOW + timedelta(seconds=59)))
    assert cash(in_time)["b"] == 1380
    late = NOW + timedelta(seconds=60)
    refused("pending_expired", pending.approve, state, "p1", "b", late)
    refused("not_your_request", pending.decline, state, "p1", "c", NOW + timedelta(seconds=59))
    outcome = act(state, pending.decline(state, "p1", "c", late))
    assert outcome.kind == "pending_expired" and state.pending == {}
    assert cash(state) == {"a": 1500, "b": 1500, "c": 1500}


def test_expire_due_clears_only_the_lapsed_ones():
    state = new_state()
    act(state, pending.request_payment(state, "short", "a", "b", 10, None, NOW, expires_seconds=30))
    act(state, pending.request_payment(state, "long", "a", "c", 20, None, NOW, expires_seconds=300))
    act(state, pending.request_payment(state, "open", "b", "c", 30, None, NOW))
    assert pending.expire_due(state, NOW + timedelta(seconds=29)) is None
    outcome = act(state, pending.expire_due(state, NOW + timedelta(seconds=30)))
    assert outcome.kind == "pending_expired" and outcome.params["count"] == 1 and outcome.postings == ()
    assert set(state.pending) == {"long", "open"}
    outcome = act(state, pending.expire_due(state, NOW + timedelta(days=1)))
    assert outcome.params["count"] == 1 and set(state.pending) == {"open"}
    assert pending.expire_due(state, NOW + timedelta(days=365)) is None
    assert cash(state) == {"a": 1500, "b": 1500, "c": 1500}


def test_approval_needs_the_cash_and_changes_nothing_without_it():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    set_player(state, "b", cash=100)
    error = refused("insufficient_cash", pending.approve, state, "p1", "b", NOW)
    assert error.status == 409
    assert "p1" in state.pending
    set_player(state, "b", cash=120)
    act(state, pending.approve(state, "p1", "b", NOW))
    assert cash(state) == {"a": 1620, "b": 0, "c": 1500}


def test_approval_refused_when_the_game_or_a_party_is_out():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    set_player(state, "a", bankrupt=True)
    refused("player_bankrupt", pending.approve, state, "p1", "b", NOW)
    set_player(state, "a", bankrupt=False)
    set_game(state, status="finished")
    refused("game_finished", pending.approve, state, "p1", "b", NOW)
    refused("game_finished", pending.decline, state, "p1", "b", NOW)


def test_a_bankrupt_player_takes_their_requests_away():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    act(state, pending.request_payment(state, "p2", "c", "a", 50, None, NOW))
    act(state, pending.request_payment(state, "p3", "c", "b", 70, None, NOW))
    act(state, rules.bankrupt(state, "a", BANK, owing(state, "a")))
    assert set(state.pending) == {"p3"}


def test_propose_refusals():
    state = new_state()
    act(state, pending.request_payment(state, "p1", "a", "b", 120, None, NOW))
    refused("pending_exists", pending.request_payment, state, "p1", "a", "c", 10, None, NOW)
    refused("invalid_pending_id", pending.request_payment, state, "p 2", "a", "c", 10, None, NOW)
    refused("invalid_pending_id", pending.request_payment, state, "", "a", "c", 10, None, NOW)
    with pytest.raises(ValueError):
        pending.propose(
            state,
            "p9",
            payer="a",
            payee="b",
            amount=5,
            needs="anyone",
            asked_by="b",
            kind="transfer",
            params={},
            now=NOW,
        )
    with pytest.raises(ValueError):
        pending.propose(
            state, "p9", payer="a", payee="a", amount=5, needs=PAYER, asked_by="a", kind="transfer", params={}, now=NOW
        )


@pytest.mark.parametrize(
    "payer, amount, reason, code",
    [
        ("a", 100, None, "same_account"),
        ("zz", 100, None, "unknown_player"),
        (BANK, 100, None, "unknown_player"),
        (None, 100, None, "missing_field"),
        (7, 100, None, "unknown_player"),
        ("b", 0, None, "invalid_amount"),
        ("b", -5, None, "invalid_amount"),
        ("b", "abc", None, "invalid_amount"),
        ("b", "100", None, "invalid_amount"),
        ("b", 100.0, None, "invalid_amount"),
        ("b", 1.5, None, "invalid_amount"),
        ("b", True, None, "invalid_amount"),
        ("b", None, None, "invalid_amount"),
        ("b", [100], None, "invalid_amount"),
        ("b", 100001, None, "amount_too_large"),
        ("b", 100, 42, "invalid_reason"),
        ("b", 100, "x" * 81, "invalid_reason"),
        ("b", 100, "tab\x00", "invalid_reason"),
    ],
)
def test_request_payment_refusals(payer, amount, reason, code):
    state = new_state()
    refused(code, pending.request_payment, state, "p1", "a", payer, amount, reason, NOW)


def test_request_payment_refused_from_or_to_someone_out_of_the_game():
    state = new_state()
    set_player(state, "b", bankrupt=True)
    refused("player_bankrupt", pending.request_payment, state, "p1", "a", "b", 10, None, NOW)
    refused("player_bankrupt", pending.request_payment, state, "p1", "b", "a", 10, None, NOW)
    refused("unknown_player", pending.request_payment, state, "p1", "zz", "a", 10, None, NOW)
    set_game(state, status=SETUP)
    refused("game_not_started", pending.request_payment, state, "p1", "a", "c", 10, None, NOW)


def test_a_request_is_not_refused_for_the_payers_cash_now():
    """The payer's cash is checked when they pay: they may raise it in the meantime."""
    state = new_state(cash=50)
    act(state, pending.request_payment(state, "p1", "a", "b", 500, None, NOW))
    refused("insufficient_cash", pending.approve, state, "p1", "b", NOW)


# --- the strict bank's hold -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, amount",
    [
        (lambda s: commands.pass_go(s, "a"), 200),
        (lambda s: commands.transfer(s, BANK, "a", 75, "prize"), 75),
    ],
)
def test_money_asked_from_the_bank_waits_for_the_banker(make, amount):
    state = new_state(settings={"strict_bank": True})
    original = make(state)
    outcome = act(state, pending.hold(state, original, "h1", "a", NOW))
    assert outcome.kind == "bank_request" and outcome.postings == ()
    assert outcome.params["original"] == original.kind and outcome.result == {**original.result, "pending": "h1"}
    held = state.pending["h1"]
    assert (held.payer, held.payee, held.amount, held.needs, held.kind) == (BANK, "a", amount, BANKER, original.kind)
    assert cash(state)["a"] == 1500
    for who in ("a", "b"):
        refused("banker_only", pending.approve, state, "h1", who, NOW)
    refused("not_your_request", pending.decline, state, "h1", "b", NOW)
    approved = snapshot(state)
    paid = act(approved, pending.approve(approved, "h1", BANKER, NOW))
    assert paid.kind == original.kind and paid.postings == original.postings
    assert cash(approved)["a"] == 1500 + amount and approved.pending == {}
    declined = snapshot(state)
    assert act(declined, pending.decline(declined, "h1", BANKER, NOW)).kind == "pending_declined"
    withdrawn = snapshot(state)
    assert act(withdrawn, pending.decline(withdrawn, "h1", "a", NOW)).kind == "pending_withdrawn"
    assert cash(declined) == cash(withdrawn) == cash(state)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: rules.buy(s, "a", "vicolo-corto"),  # pays the bank for a deed
        lambda s: commands.transfer(s, "a", "b", 10),  # not from the bank
        lambda s: commands.transfer(s, "a", BANK, 10),  # to the bank
        lambda s: commands.pay_fixed(s, "a", "luxury-tax"),
    ],
)
def test_only_a_payment_from_the_bank_can_be_held(make):
    state = new_state(settings={"strict_bank": True})
    before = snapshot(state)
    with pytest.raises(ValueError):
        pending.hold(state, make(state), "h1", "a", NOW)
    assert state == before


# --- settings -----------------------------------------------------------------------------------------


def test_settings_take_their_defaults():
    defaults = {
        "strict_bank": False,
        "free_parking_pot": False,
        "auction_seconds": 20,
        "request_seconds": 0,
        "no_trades_two_left": False,
        "house_sizes": False,
        "last_minutes": 0,
        "buyer_die": None,
        "owner_die": None,
        "supply_small": None,
        "supply_big": None,
        "fake_note_share": None,
        "check_seconds": None,
        "receiver_checks": None,
    }
    assert clean_settings(None) == clean_settings({}) == defaults
    assert set(SETTINGS) == set(defaults)
    chosen = clean_settings({"free_parking_pot": True, "auction_seconds": 5, "request_seconds": 3600})
    assert chosen == {**defaults, "free_parking_pot": True, "auction_seconds": 5, "request_seconds": 3600}
    assert pots_for(chosen) == {FREE_PARKING: 0} and pots_for(defaults) == {}
    state = new_state(settings={"strict_bank": True})
    assert state.setting("strict_bank") is True and state.setting("auction_seconds") == 20
    set_game(state, settings={})
    assert state.setting("request_seconds") == 0


def test_an_unknown_setting_is_named():
    with pytest.raises(BadInput) as info:
        clean_settings({"strict_bank": True, "free_parkin_pot": True})
    assert info.value.code == "unknown_setting" and info.value.status == 400
    assert "free_parkin_pot" in str(info.value)


@pytest.mark.parametrize(
    "name, value",
    [
        ("strict_bank", "yes"),
        ("strict_bank", 1),
        ("strict_bank", None),
        ("free_parking_pot", "true"),
        ("free_parking_pot", 0),
        ("auction_seconds", "20"),
        ("auction_seconds", 20.0),
        ("auction_seconds", True),
        ("auction_seconds", 4),
        ("auction_seconds", 601),
        ("auction_seconds", None),
        ("request_seconds", -1),
        ("request_seconds", 3601),
        ("request_seconds", 1.5),
        ("request_seconds", [10]),
    ],
)
def test_a_setting_of_the_wrong_type_or_range_is_refused(name, value):
    with pytest.raises(BadInput) as info:
        clean_settings({name: value})
    assert info.value.code == "invalid_setting" and name in str(info.value)


@pytest.mark.parametrize("raw", [[], "strict_bank", 1, True, [["strict_bank", True]]])
def test_settings_must_be_an_object(raw):
    with pytest.raises(BadInput) as info:
        clean_settings(raw)
    assert info.value.code == "invalid_settings"


# --- a property: any sequence of moves keeps the money whole ---------------------------------------

PLAYERS = ("a", "b", "c")
ACCOUNTS = (*PLAYERS, BANK, FREE_PARKING, "nobody")
# Two small groups and a station: buys complete groups often enough for building to happen.
DEEDS = ("vicolo-corto", "vicolo-stretto", "viale-dei-giardini", "parco-della-vittoria", "stazione-sud")
PAYMENTS = ("luxury-tax", "wealth-tax", "jail-fine")
# "needed" and "asker" stand for the party a request needs and the one who made it, and
# "owner" for a deed's owner, so that the steps that can succeed do so often enough.
APPROVERS = ("needed", "needed", "asker", *PLAYERS, BANKER)
OWNERS = ("owner", "owner", "owner", *PLAYERS)

amounts = st.one_of(st.integers(1, 400), st.integers(401, 3000), st.sampled_from([0, -1, "100", 1.5]))
steps = st.one_of(
    st.tuples(st.just("transfer"), st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS), amounts),
    st.tuples(st.just("pay_fixed"), st.sampled_from(PLAYERS), st.sampled_from(PAYMENTS)),
    st.tuples(st.just("pot_collect"), st.sampled_from(PLAYERS)),
    st.tuples(
        st.just("request"), st.sampled_from(PLAYERS), st.sampled_from(ACCOUNTS), amounts, st.sampled_from([None, 60])
    ),
    st.tuples(st.just("ask_bank"), st.sampled_from(PLAYERS), st.integers(1, 500)),
    st.tuples(st.just("approve"), st.integers(0, 5), st.sampled_from(APPROVERS)),
    st.tuples(st.just("decline"), st.integers(0, 5), st.sampled_from(APPROVERS)),
    st.tuples(st.just("buy"), st.sampled_from(OWNERS), st.sampled_from(DEEDS)),
    st.tuples(st.just("build"), st.sampled_from(OWNERS), st.sampled_from(DEEDS)),
    st.tuples(st.just("mortgage"), st.sampled_from(OWNERS), st.sampled_from(DEEDS)),
    st.tuples(st.just("unmortgage"), st.sampled_from(OWNERS), st.sampled_from(DEEDS)),
    st.tuples(st.just("wait"), st.integers(1, 90)),
    st.tuples(st.just("undo")),
)


def _outcome(state, step, now, serial):
    """The outcome one random step asks for (or the refusal it raises)."""
    kind, *args = step
    waiting = sorted(state.pending)
    if kind == "transfer":
        return commands.transfer(state, *args)
    if kind == "pay_fixed":
        return commands.pay_fixed(state, *args)
    if kind == "pot_collect":
        return commands.pot_collect(state, args[0], FREE_PARKING)
    if kind == "request":
        asker, payer, amount, seconds = args
        return pending.request_payment(state, f"p{serial}", asker, payer, amount, "deal", now, seconds)
    if kind == "ask_bank":
        return pending.hold(state, commands.transfer(state, BANK, args[0], args[1]), f"p{serial}", args[0], now)
    if kind in ("approve", "decline"):
        pending_id = waiting[args[0] % len(waiting)] if waiting else "none"
        by = args[1]
        if pending_id in state.pending and by in ("needed", "asker"):
            p = state.pending[pending_id]
            by = p.asked_by if by == "asker" else p.payer if p.needs == PAYER else BANKER
        return getattr(pending, kind)(state, pending_id, by, now)
    player, deed = args
    if player == "owner":  # buying: whoever holds the rest of the group
        group = state.edition.deed(deed).group
        player = next(
            (ds.owner for key, ds in state.deeds.items() if ds.owner and state.edition.deed(key).group == group), "a"
        )
    if kind == "buy":
        return rules.buy(state, player, deed)
    return {"build": rules.build, "mortgage": rules.mortgage, "unmortgage": rules.unmortgage}[kind](state, player, deed)


def _money_is_whole(state, journal):
    held = {p.id: p.cash for p in state.players.values()} | dict(state.pots)
    assert all(amount >= 0 for amount in held.values()), held
    ledger = balances(journal)
    assert ledger.get(BANK, 0) == -sum(held.values())
    for account, amount in held.items():
        assert ledger.get(account, 0) == amount


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=5, max_size=60))
def test_any_sequence_keeps_money_whole_and_undo_restores(sequence):
    """Random transfers, taxes, pot collections, requests and their answers, money asked from
    the bank, buying, building, mortgages and undo on a classic game with the Free Parking pot:
    after every step no balance is negative, cash + pots + bank sum to zero, a refusal changes
    nothing, and undoing newest first always succeeds and gives back the state exactly."""
    state = new_state(cash=0, settings={**POT, "strict_bank": True})
    set_game(state, status=SETUP)
    journal = list(act(state, commands.start(state)).postings)
    give(state, "a", "vicolo-corto", "vicolo-stretto")  # one whole group already, to build on
    history = []  # (state before, outcome), newest last
    now = NOW
    for serial, step in enumerate(sequence):
        if step[0] == "wait":
            now += timedelta(seconds=step[1])
            lapsed = pending.expire_due(state, now)
            if lapsed is None:
                continue
            before, outcome = snapshot(state), act(state, lapsed)
        elif step[0] == "undo":
            if not history:
                continue
            before, done = history.pop()
            undo = commands.undo(state, done.kind, 1, done.postings, done.changes)
            play_on(state, apply_outcome(state, undo))
            journal += undo.postings
            assert state == before
            _money_is_whole(state, journal)
            event(f"undo of {done.kind} done")
            continue
        else:
            before = snapshot(state)
            try:
                outcome = _outcome(state, step, now, serial)
            except BancoError as error:
                assert state == before
                event(f"{step[0]} refused: {error.code}")
                continue
            act(state, outcome)
        event(f"{step[0]} done")
        if step[0] in ("request", "ask_bank", "decline", "wait"):
            assert outcome.postings == ()  # money waiting, or closed unpaid, never moves
        if step[0] == "approve":  # exactly the amount waiting, once: the request is gone
            [closed] = [c.ref for c in outcome.changes if c.target == "pending"]
            waited = before.pending[closed]
            assert outcome.postings == move(waited.payer, waited.payee, waited.amount)
            assert closed not in state.pending
        journal += outcome.postings
        history.append((before, outcome))
        _money_is_whole(state, journal)
    while history:
        before, done = history.pop()
        play_on(state, apply_outcome(state, commands.undo(state, done.kind, 1, done.postings, done.changes)))
        assert state == before
