"""The classic and championship rules the first version missed (FAQ of the 2015 championship
rulebook), each on a hand-made position."""

from __future__ import annotations

from conftest import act, give, new_state, owing, play_on, refused, set_deed, set_game, set_player

from companion.core import rules
from companion.core.rules import trade_accept, trade_propose

EMPTY = {"cash": 0, "deeds": [], "jail_cards": 0}


def test_faq_31_no_trades_once_two_players_are_left_where_the_game_says_so():
    state = new_state("campionato-2015", settings={"no_trades_two_left": True})
    give(state, "a", "vicolo-corto")
    offer = {"cash": 0, "deeds": ["vicolo-corto"], "jail_cards": 0}
    act(state, trade_propose(state, "t1", "a", "b", offer, {**EMPTY, "cash": 60}))  # three players: fine
    set_player(state, "c", bankrupt=True)
    refused("no_trades_two_left", trade_propose, state, "t2", "a", "b", offer, {**EMPTY, "cash": 70})
    refused("no_trades_two_left", trade_accept, state, "t1", "b")  # an offer made before is closed too
    other = new_state("campionato-2015")  # the setting off: the final rounds trade to the end
    give(other, "a", "vicolo-corto")
    set_player(other, "c", bankrupt=True)
    act(other, trade_propose(other, "t1", "a", "b", offer, {**EMPTY, "cash": 60}))


def test_a_bus_moves_by_one_die_so_a_utilitys_rent_takes_a_1():
    state = new_state("campionato-2015")
    give(state, "a", "societa-elettrica")
    outcome = act(state, rules.pay_rent(state, "b", "societa-elettrica", 1))  # 4 x 1
    assert outcome.params["amount"] == 4
    classic = new_state()
    give(classic, "a", "societa-elettrica")
    error = refused("invalid_dice", rules.pay_rent, classic, "b", "societa-elettrica", 1)
    assert "from 2 to 12" in str(error)


def test_deeds_back_from_a_bankruptcy_are_auctioned_one_after_another():
    from conftest import NOW

    state = new_state("classic-it")
    give(state, "c", "vicolo-corto", "via-roma", "parco-della-vittoria")
    outcome = act(state, rules.bankrupt(state, "c", "bank", owing(state, "c")))
    assert state.auction_queue == ["vicolo-corto", "via-roma", "parco-della-vittoria"]
    assert outcome.result["to_auction"] == state.auction_queue
    act(state, rules.buy(state, "a", "via-roma"))  # bought meanwhile: skipped
    first = act(state, rules.queued_auction(state, NOW, 20))
    assert state.auction.deed == "vicolo-corto" and first.params["queued"] == 1
    assert rules.queued_auction(state, NOW, 20) is None  # one auction at a time
    set_game(state, auction=None)
    act(state, rules.queued_auction(state, NOW, 20))
    assert state.auction.deed == "parco-della-vittoria" and state.auction_queue == []
    set_game(state, auction=None)
    assert rules.queued_auction(state, NOW, 20) is None


def test_the_last_player_standing_leaves_nothing_to_auction():
    state = new_state("classic-it", players=2)
    give(state, "b", "vicolo-corto")
    act(state, rules.bankrupt(state, "b", "bank", owing(state, "b")))
    assert state.status == "finished" and state.auction_queue == []


def test_faq_32_deeds_pass_as_they_were_when_the_turn_began():
    from companion.core import turns

    state = new_state("campionato-2015", cash=100)
    set_game(state, turn_player="c", turn_round=1, turn_seq=1)
    give(state, "a", "via-roma")  # Anna's, mortgaged before her turn: passes mortgaged
    give(state, "a", "corso-impero", mortgaged=False)
    set_deed(state, "via-roma", mortgaged=True)
    act(state, turns.end_turn(state, "c"))  # Anna's turn begins
    assert state.turn_start_mortgaged == ["via-roma"]
    act(state, rules.mortgage(state, "a", "corso-impero"))  # + 150 in her fatal turn
    assert state.players["a"].cash == 250
    outcome = act(state, rules.bankrupt(state, "a", "b", owing(state, "a")))
    assert not state.deeds["corso-impero"].mortgaged and state.deeds["corso-impero"].owner == "b"
    assert state.deeds["via-roma"].mortgaged and state.deeds["via-roma"].fee_due
    assert state.players["b"].cash == 100 + 250 - 150  # the mortgage money went back to the bank
    assert outcome.result["fees_due"] == ["via-roma"]


def test_faq_32_is_the_championship_s_only():
    state = new_state("classic-it", cash=100)
    give(state, "a", "corso-impero")
    act(state, rules.mortgage(state, "a", "corso-impero"))
    act(state, rules.bankrupt(state, "a", "b", owing(state, "a")))
    assert state.deeds["corso-impero"].mortgaged and state.players["b"].cash == 100 + 250


def test_faq_29_breaking_a_hotel_with_too_few_houses_in_the_bank():
    state = new_state("campionato-2015")
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)  # house 200: sold at 100
    set_game(state, bank_small=2)
    outcome = act(state, rules.sell_building(state, "a", "via-roma", break_hotel=True))
    # the hotel's own half (100) + half the price of the 2 houses the bank could not give (200)
    assert outcome.params["amount"] == 300 and outcome.params["short"] == 2
    assert state.deeds["via-roma"].houses == 2 and not state.deeds["via-roma"].hotel
    assert state.bank_small == 0 and state.players["a"].cash == 1500 + 300
    classic = new_state()
    give(classic, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    set_game(classic, bank_small=2)
    refused("bank_short_of_small", rules.sell_building, classic, "a", "via-roma", break_hotel=True)


def test_the_championship_sells_a_hotel_whole_only_where_the_group_stays_even():
    state = new_state("campionato-2015")
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    refused("uneven_selling", rules.sell_building, state, "a", "via-roma")
    set_game(state, bank_small=0)  # never stuck: even with no houses in the bank, a break raises money
    outcome = act(state, rules.sell_building(state, "a", "via-roma", break_hotel=True))
    assert outcome.params["amount"] == 100 + 4 * 100
    lone = new_state("campionato-2015")
    give(lone, "a", "via-roma", hotel=True)
    give(lone, "a", "corso-impero", "largo-augusto", houses=1)
    act(lone, rules.sell_building(lone, "a", "via-roma"))  # the others hold one house: even


def test_faq_29_two_players_breaking_at_once_share_the_houses():
    state = new_state("campionato-2015")
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)  # house 200
    give(state, "b", "viale-dei-giardini", "parco-della-vittoria", hotel=True)  # house 200
    set_game(state, bank_small=5)  # the FAQ's second example: 2 each, the fifth stays with the bank
    outcome = act(state, rules.break_shared(state, ["via-roma", "parco-della-vittoria"]))
    assert outcome.params["each"] == 2 and state.bank_small == 1
    assert state.deeds["via-roma"].houses == state.deeds["parco-della-vittoria"].houses == 2
    assert outcome.params["paid"] == {"via-roma": 100 + 2 * 100, "parco-della-vittoria": 100 + 2 * 100}
    assert state.players["a"].cash == 1500 + 300 and state.players["b"].cash == 1500 + 300
    refused("invalid_deeds", rules.break_shared, state, ["corso-impero"])
    refused("no_big_building", rules.break_shared, state, ["corso-impero", "via-roma"])
    refused("short_break_refused", rules.break_shared, new_state(), ["via-roma", "corso-impero"])


def test_faq_32_waits_for_a_table_that_marks_its_turns():
    state = new_state("campionato-2015", cash=100)
    set_game(state, turn_player="a", turn_round=1, turn_seq=1, turn_start_mortgaged=[])
    give(state, "a", "corso-impero")
    act(state, rules.mortgage(state, "a", "corso-impero"))
    act(state, rules.bankrupt(state, "a", "b", owing(state, "a")))  # nobody has ended a turn yet: no turn to go back to
    assert state.deeds["corso-impero"].mortgaged and state.players["b"].cash == 100 + 250


def test_faq_26_a_trade_closed_during_a_turn_involves_the_active_player():
    """Seed 001, FAQ 26, lines 517-528: "Gli scambi effettuati all'interno di un turno devono
    coinvolgere il giocatore attivo"; proposing (discussing) stays free, closing waits."""
    from companion.core import turns

    state = new_state("campionato-2015", players=4)
    give(state, "c", "vicolo-corto")
    set_game(state, turn_player="a", turn_round=1, turn_seq=1)
    offer = {"cash": 0, "deeds": ["vicolo-corto"], "jail_cards": 0}
    act(state, trade_propose(state, "t1", "c", "d", offer, {**EMPTY, "cash": 60}))
    act(state, trade_propose(state, "t2", "c", "d", {**EMPTY, "cash": 10}, EMPTY))
    act(state, trade_propose(state, "t3", "c", "a", offer, {**EMPTY, "cash": 80}))
    # Nobody has ended a turn yet: the table is not marking turns, any two may close.
    before = new_state("campionato-2015", players=4)
    play_on(before, state)
    act(before, trade_accept(before, "t1", "d"))
    act(state, turns.end_turn(state, None, "a"))  # the banker marks Anna's turn: turns are marked
    error = refused("trade_outside_turn", trade_accept, state, "t1", "d")
    assert "Anna" in str(error)
    act(state, trade_accept(state, "t3", "a"))  # involves Anna, whose turn it is
    act(state, turns.end_turn(state, "a"))  # Bruno's turn
    act(state, turns.end_turn(state, "b"))  # Carla's turn: her trade with Dario may close now
    assert state.turn_player == "c"
    act(state, trade_accept(state, "t2", "d"))
    classic = new_state("classic-it", players=4)  # no such rule where the edition does not say so
    give(classic, "c", "vicolo-corto")
    set_game(classic, turn_player="a", turn_round=1, turn_seq=5)
    act(classic, trade_propose(classic, "t1", "c", "d", offer, {**EMPTY, "cash": 60}))
    act(classic, trade_accept(classic, "t1", "d"))


def test_faq_6_time_up_the_active_player_finishes_the_turn_and_the_game_is_over():
    """Seed 001, FAQ 6, lines 402-406: "Quando il tempo finisce, il giocatore attivo finisce il
    proprio turno; dopodiché il gioco è concluso." Ending that turn ends the game, once the
    table marks its turns; a table that does not leaves the end to the banker."""
    from conftest import NOW

    from companion.core import pending, turns

    state = new_state("campionato-2015")
    set_game(state, turn_player="a", turn_round=1, turn_seq=1)
    unmarked = act(state, turns.end_turn(state, "a", time_up=True))  # nobody had ended a turn yet
    assert unmarked.params["to"] == "b" and state.status == "running"
    act(state, turns.end_turn(state, "b"))  # time left: the turn passes
    act(state, pending.request_payment(state, "r1", "a", "b", 50, "a deal", NOW))
    assert state.turn_player == "c" and state.pending
    # The banker's correction (who plays now) is no end of a turn: Anna finishes it instead.
    act(state, turns.end_turn(state, None, "a", time_up=True))
    assert state.turn_player == "a" and state.status == "running"
    outcome = act(state, turns.end_turn(state, "a", time_up=True))
    assert state.status == "finished" and outcome.params["time_up"] and outcome.result["finished"]
    assert state.turn_player == "a" and not state.pending  # money waiting for a yes goes with the game
    refused("game_finished", turns.end_turn, state, "b", None, True)  # nobody acts after it
    refused("game_finished", rules.buy, state, "b", "vicolo-corto")
    impresa = new_state("che-impresa")  # the banker closes at time up there: the turn passes
    set_game(impresa, turn_player="a", turn_round=1, turn_seq=2)
    act(impresa, turns.end_turn(impresa, "a", time_up=True))
    assert impresa.status == "running" and impresa.turn_player == "b"
