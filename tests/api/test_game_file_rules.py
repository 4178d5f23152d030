"""A game file is read by the rules, not only by its digests (issue 47): files a forger made
consistent again (every digest and the state remade, ``tests/api/forgery.py``) that break the
rules are refused 400 ``invalid_game_file``, naming the entry and the field, and store nothing;
and whatever is done to a real file, the answer is a game that plays to the end, or 400: never
a server error, never a game whose pages fail."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web import seats as web_seats
from tests.api.forgery import entries_of, restated
from tests.api.gamekit import ok, refusal
from tests.api.test_game_files import counts, export, import_file, played
from tests.conftest import Game

# The import writes a whole game in one transaction, its rows as each database types them.
pytestmark = pytest.mark.database


def well_played(api):
    """A classic game with something of everything the rules make again or read value by value:
    ``played``'s, then its auction closed, rent, GO, a tax, money from the bank, a lot bought and
    built on, a mortgage and a roll more."""
    game = played(api, "classic-it")
    anna = game.ids["Anna"]
    ok(game.act("banker", {"type": "auction_close"}))
    ok(game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-corto"}))
    ok(game.act("Carla", {"type": "pass_go"}))
    ok(game.act("Carla", {"type": "pay_fixed", "payment": "wealth-tax"}))
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": anna, "amount": 400}))
    for deed in ("bastioni-gran-sasso", "viale-monterosa", "viale-vesuvio"):
        ok(game.act("Anna", {"type": "buy", "deed": deed}))
    ok(game.act("Anna", {"type": "build", "deed": "bastioni-gran-sasso"}))
    ok(game.act("Bruno", {"type": "buy", "deed": "via-accademia"}))
    ok(game.act("Bruno", {"type": "mortgage", "deed": "via-accademia"}))
    ok(game.act("Carla", {"type": "roll", "dice": "2d6"}))
    return game


def seat(data, name):
    return next(s["id"] for s in data["seats"] if s["name"] == name)


# --- named hostile files: each broke an import (500) or a game (its pages) before -----------


def _hotel_x(data):
    entries_of(data, "buy")[0]["changes"].append(["deed", "vicolo-corto", "hotel", False, "x"])


def _houses_beyond_any_column(data):
    entries_of(data, "buy")[0]["changes"].append(["deed", "vicolo-corto", "houses", 0, 10**20])


def _houses_lots(data):
    entries_of(data, "buy")[0]["changes"].append(["deed", "vicolo-corto", "houses", 0, "lots"])


def _houses_below_zero(data):
    entries_of(data, "buy")[0]["changes"].append(["deed", "vicolo-corto", "houses", 0, -3])


def _in_jail_yes(data):
    entries_of(data, "buy")[0]["changes"].append(["player", seat(data, "Anna"), "in_jail", False, "yes"])


def _payment_of_2_63(data):
    entries_of(data, "transfer")[1]["postings"] = [["bank", -(2**63)], [seat(data, "Anna"), 2**63]]


def _amount_abc(data):
    entries_of(data, "transfer")[1]["params"]["amount"] = "abc"


def _owner_ghost(data):
    entries_of(data, "buy")[0]["changes"][0][4] = "ghostghost"


def _status_bogus(data):
    entries_of(data, "start")[0]["changes"][0][4] = "bogus"


def _supply_below_zero(data):
    build = entries_of(data, "build")[0]
    next(c for c in build["changes"] if c[2] == "bank_small")[4] = -5


def _format_version_float(data):
    data["format_version"] = 1.0


def _format_version_true(data):
    data["format_version"] = True


def _banker_seat_a_list(data):
    data["game"]["banker_player"] = []


def _deed_taken_in_a_pause(data):
    entries_of(data, "clock_pause")[0]["changes"].append(
        ["deed", "vicolo-corto", "owner", seat(data, "Anna"), seat(data, "Carla")]
    )


def _deed_taken_with_rent(data):
    entries_of(data, "pay_rent")[0]["changes"].append(
        ["deed", "vicolo-corto", "owner", seat(data, "Anna"), seat(data, "Bruno")]
    )


def _free_money_with_a_roll(data):
    entries_of(data, "roll")[0]["postings"] = [["bank", -500], [seat(data, "Anna"), 500]]


def _other_dice(data):
    roll = entries_of(data, "roll")[0]
    roll["changes"][1][4]["faces"] = [6, 6]
    roll["changes"][1][4]["total"] = 12
    roll["params"]["faces"] = [6, 6]


def _house_for_nothing(data):
    build = entries_of(data, "build")[0]
    build["postings"] = []


def _undo_of_another_entry(data):
    undo = entries_of(data, "undo")[0]
    undo["reverses"] = undo["reverses"] - 1


def _undo_made_undoable(data):
    entries_of(data, "undo")[0]["undoable"] = True


def _rent_as_a_request_nobody_made(data):
    entries_of(data, "pay_rent")[0]["params"]["request"] = "zzzzzzzz"


def _pending_amount_text(data):
    request = entries_of(data, "request")[-1]
    request["changes"][0][4]["amount"] = "twenty"


def _auction_ends_never(data):
    entries_of(data, "auction_start")[0]["changes"][0][4]["ends_at"] = "never"


def _trade_of_a_deed_nobody_has(data):
    entries_of(data, "trade_propose")[0]["changes"][0][4]["give"]["deeds"] = ["parco-della-vittoria-2"]


HOSTILE = [
    (_hotel_x, "Entry 8 of the game file holds a value the rules do not allow at deeds.vicolo-corto.hotel."),
    (
        _houses_beyond_any_column,
        "Entry 8 of the game file holds a value the rules do not allow at deeds.vicolo-corto.houses.",
    ),
    (_houses_lots, "Entry 8 of the game file holds a value the rules do not allow at deeds.vicolo-corto.houses."),
    (_houses_below_zero, "Entry 8 of the game file holds a value the rules do not allow at deeds.vicolo-corto.houses."),
    (_in_jail_yes, "Entry 8 of the game file holds a value the rules do not allow at players.Anna.in_jail."),
    (_payment_of_2_63, "Entry 7 of the game file holds a value the rules do not allow at postings[0]."),
    (_amount_abc, "Entry 7 of the game file holds a value the rules do not allow at params.amount."),
    (_owner_ghost, "Entry 8 of the game file holds a value the rules do not allow at deeds.vicolo-corto.owner."),
    (_status_bogus, "Entry 2 of the game file holds a value the rules do not allow at status."),
    (_supply_below_zero, "Entry 24 of the game file holds a value the rules do not allow at bank_small."),
    (_format_version_float, "This game file is of format version 1.0; this Banco reads version 1."),
    (_format_version_true, "This game file is of format version True; this Banco reads version 1."),
    (_banker_seat_a_list, "The game file's value 'game.banker_player' cannot be used."),
    (_deed_taken_in_a_pause, "Entry 12 of the game file is not what the rules make of it (at changes)."),
    (_deed_taken_with_rent, "Entry 17 of the game file is not what the rules make of it (at changes)."),
    (_free_money_with_a_roll, "Entry 3 of the game file is not what the rules make of it (at postings)."),
    (_other_dice, "Entry 3 of the game file is not what the rules make of it (at changes[1])."),
    (_house_for_nothing, "Entry 24 of the game file is not what the rules make of it (at postings)."),
    (_undo_of_another_entry, "Entry 14 of the game file is not what the rules make of it (at reverses)."),
    (_undo_made_undoable, "Entry 14 of the game file is not what the rules make of it (at undoable)."),
    (_rent_as_a_request_nobody_made, "Entry 17 of the game file is not what the rules make of it (at params.request)."),
    (_pending_amount_text, "Entry 6 of the game file holds a value the rules do not allow at pending."),
    (_auction_ends_never, "Entry 9 of the game file holds a value the rules do not allow at auction.ends_at."),
    (_trade_of_a_deed_nobody_has, "Entry 15 of the game file holds a value the rules do not allow at trade."),
]


@pytest.mark.parametrize(("forge", "message"), HOSTILE, ids=[f.__name__.strip("_") for f, _ in HOSTILE])
def test_a_consistent_file_that_breaks_the_rules_is_refused_and_nothing_is_stored(app, api, forge, message):
    game = well_played(api)
    data = export(game)
    forged = copy.deepcopy(data)
    forge(forged)
    restated(forged)
    before = counts(app)
    got = refusal(import_file(api, forged), 400, "invalid_game_file")
    assert got.replace("\u00a0", " ").startswith(message), got
    assert counts(app) == before
    ok(import_file(api, restated(copy.deepcopy(data))), 201)  # remade as it was, it still goes in


def test_the_refusal_names_the_entry_and_the_field_in_italian(api):
    data = export(well_played(api))
    _houses_lots(data)
    restated(data)
    response = api.client.post("/api/v1/games/import", json=data, headers={"Accept-Language": "it"})
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "La voce 8 del file della partita contiene un valore che le regole non ammettono in deeds.vicolo-corto.houses."
    )


# --- any change to a real file: a game that plays to the end, or 400 --------------------------


VALUES = st.one_of(
    st.sampled_from(
        [None, True, False, 0, 1, -1, 5, 10**20, 2**63, -(2**63), 1.5, "", "x", "yes", "lots", "bank", "banker"]
        + ["ghostghost", "vicolo-corto", "free_parking", "2026-12-07T17:43:38Z", [], {}, [1, 2], {"a": 1}]
    ),
    st.integers(-(10**6), 10**6),
    st.text(max_size=6),
)


def spots(*parts) -> list[tuple[object, object]]:
    """Every place a value sits in ``parts`` (objects and lists), however deep, as
    (container, key)."""
    found: list[tuple[object, object]] = []

    def walk(container):
        keys = range(len(container)) if isinstance(container, list) else list(container)
        for key in keys:
            found.append((container, key))
            if isinstance(container[key], (dict, list)):
                walk(container[key])

    for part in parts:
        walk(part)
    return found


def renumbered(journal):
    for version, entry in enumerate(journal, start=1):
        entry["version"] = version


def mutated(base, draw):
    """``base`` with one thing done to it, as a forger would, then made consistent again: a value
    put in place of another (of any kind) in an entry (its fields, params, changes, postings) or
    in the game's own part and seats, or an entry dropped, repeated or swapped with the next;
    or, last, a value of the state the journal leaves changed."""
    data = copy.deepcopy(base)
    journal = data["journal"]
    how = draw(st.sampled_from(["value", "value", "value", "value", "header", "state", "drop", "repeat", "swap"]))
    index = draw(st.integers(1, len(journal) - 2))  # the first entry opens the game: it stays
    value = st.one_of(VALUES, st.sampled_from([s["id"] for s in data["seats"]]))
    if how in ("value", "header"):
        where = spots(journal[index]) if how == "value" else spots(data["game"], data["seats"])
        container, key = draw(st.sampled_from(where))
        container[key] = draw(value)
    elif how == "state":
        restated(data)
        container, key = draw(st.sampled_from(spots(data["state"])))
        container[key] = draw(value)
        return data
    elif how == "drop":
        del journal[index]
    elif how == "repeat":
        journal.insert(index, copy.deepcopy(journal[index]))
    else:
        journal[index], journal[index + 1] = journal[index + 1], journal[index]
    renumbered(journal)
    return restated(data)


def as_banker_of(client, made):
    with client.session_transaction() as session:
        session["games"] = {made["id"]: {web_seats.BANKER: made["banker_token"]}}


def pages_answer(game, client):
    """The pages a game is read by answer, none with a server error: its state, feed and score
    through the API, and the bank's table, the public screen and the results."""
    game_id = game.id
    for path in (f"/api/v1/games/{game_id}", f"/api/v1/games/{game_id}/events", f"/api/v1/games/{game_id}/score"):
        status, body = game.api.get(path, game.banker)
        assert status == 200, (path, body)
    for path in (f"/g/{game_id}/table", f"/g/{game_id}/screen", f"/g/{game_id}/results"):
        response = client.get(path)
        assert response.status_code in (200, 302), (path, response.status_code)


def plays_to_the_end(api, made):
    """The game made from a file plays on and ends: each player rolls, buys and pays rent where
    the rules let them (a refusal is an answer too: never a server error), the banker ends it,
    and every page answers before and after."""
    game = Game(api, made)
    as_banker_of(api.client, made)
    pages_answer(game, api.client)
    if game.state()["status"] == "setup":
        assert game.act("banker", {"type": "start"})[0] < 500
    for name in game.ids:
        deeds = game.state()["deeds"]
        free = next((d["key"] for d in deeds if d["owner"] is None), None)
        owned = next((d["key"] for d in deeds if d["owner"] not in (None, game.ids[name])), None)
        for action in (
            {"type": "roll", "dice": "2d6"},
            {"type": "buy", "deed": free},
            {"type": "pay_rent", "deed": owned},
        ):
            status, body = game.act(name, action)
            assert status < 500, (action, body)
    status, body = game.act("banker", {"type": "end"})
    assert status == 200 or body["error"]["code"] == "game_finished", body
    assert game.state()["status"] == "finished"
    pages_answer(game, api.client)


def test_whatever_is_done_to_a_file_it_is_a_game_that_plays_to_the_end_or_refused(app, api):
    base = export(well_played(api))
    seen = {"made": 0, "refused": 0}

    @settings(
        max_examples=30,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def one_file(data):
        forged = mutated(base, data.draw)
        before = counts(app)
        # Sent as a forger's tool writes it: keys as they come (a key null is "null" then).
        status, body = import_file(api, None, raw=json.dumps(forged).encode())
        assert status in (201, 400), body
        if status == 400:
            assert body["error"]["code"] == "invalid_game_file", body
            assert counts(app) == before
            seen["refused"] += 1
            return
        seen["made"] += 1
        plays_to_the_end(api, body)

    one_file()
    assert seen["made"] and seen["refused"], seen  # both answers were met, not one alone
