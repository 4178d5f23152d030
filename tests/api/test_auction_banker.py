"""Who decides at the end of an auction: in the championship a deed nobody bid for goes to the
richest player, and when several are equally rich only the banker closes the auction and names
who buys. A player may still close an ordinary auction whose countdown ran out."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.store import Game, db
from tests.api.test_api import journal_matches


def owner(game, deed):
    return next(d["owner"] for d in game.state()["deeds"] if d["key"] == deed)


def countdown_over(app, game):
    """Lets the auction's countdown run out without waiting for it."""
    with app.app_context():
        g = db.session.get(Game, game.id)
        g.auction = {**g.auction, "ends_at": (dt.datetime.utcnow() - dt.timedelta(seconds=1)).isoformat()}
        db.session.commit()


def refused(answer, status, code):
    got, body = answer
    assert (got, body["error"]["code"]) == (status, code), body
    return body["error"]["message"]


def unsold_auction(app, api, edition="campionato-2015", over=True):
    game = api.new_game(edition=edition, auction_seconds=30).start()
    assert game.act("Anna", {"type": "auction_start", "deed": "via-roma"})[0] == 200
    if over:
        countdown_over(app, game)
    return game


def test_a_player_cannot_close_a_tie_for_the_richest_nor_choose_the_buyer(app, api):
    game = unsold_auction(app, api)
    before = game.state()
    for who in ("Anna", "Bruno"):
        message = refused(game.act(who, {"type": "auction_close"}), 403, "banker_decides")
        assert message == (
            "Anna, Bruno, Carla are equally rich: only the banker can close this auction and name who buys the deed."
        )
        for award_to in (game.ids[who], game.ids["Carla"]):
            message = refused(game.act(who, {"type": "auction_close", "award_to": award_to}), 403, "banker_decides")
            assert message == "Only the banker names who buys the deed."
    after = game.state()
    assert after["version"] == before["version"] and after["auction"] == before["auction"]
    assert owner(game, "via-roma") is None

    # The banker decides: the tie is named without a choice, and the choice must be a richest one.
    assert "the banker names" in refused(game.act("banker", {"type": "auction_close"}), 409, "richest_tie")
    status, body = game.act("banker", {"type": "auction_close", "award_to": game.ids["Bruno"]})
    assert status == 200 and body["result"]["winner"] == game.ids["Bruno"] and body["result"]["amount"] == 1
    assert owner(game, "via-roma") == game.ids["Bruno"] and game.state()["auction"] is None
    cash = game.cash()
    assert cash["Bruno"] == cash["Anna"] - 1 == cash["Carla"] - 1
    journal_matches(app, game)


def test_the_banker_may_close_the_tie_before_the_countdown_runs_out(app, api):
    game = unsold_auction(app, api, over=False)
    refused(game.act("Carla", {"type": "auction_close", "award_to": game.ids["Carla"]}), 403, "auction_running")
    status, _body = game.act("banker", {"type": "auction_close", "award_to": game.ids["Carla"]})
    assert status == 200 and owner(game, "via-roma") == game.ids["Carla"]


def test_a_player_still_closes_when_nobody_has_to_choose(app, api):
    # One richest player: the rule names the buyer, any player may close once time is up.
    game = api.new_game(edition="campionato-2015", auction_seconds=30).start()
    assert game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids["Carla"], "amount": 5})[0] == 200
    assert game.act("Anna", {"type": "auction_start", "deed": "via-roma"})[0] == 200
    countdown_over(app, game)
    status, body = game.act("Bruno", {"type": "auction_close"})
    assert status == 200 and body["result"]["winner"] == game.ids["Carla"]
    assert owner(game, "via-roma") == game.ids["Carla"]

    # An auction with a bid: the high bidder buys, whoever closes it after the countdown.
    assert game.act("Anna", {"type": "auction_start", "deed": "via-verdi"})[0] == 200
    assert game.act("Bruno", {"type": "bid", "amount": 40})[0] == 200
    countdown_over(app, game)
    status, body = game.act("Anna", {"type": "auction_close"})
    assert status == 200 and body["result"]["winner"] == game.ids["Bruno"] and body["result"]["amount"] == 40
    journal_matches(app, game)


@pytest.mark.parametrize("edition", ["classic-it", "campionato-2015"])
def test_award_to_is_the_bankers_in_every_edition(app, api, edition):
    game = unsold_auction(app, api, edition=edition)
    refused(game.act("Anna", {"type": "auction_close", "award_to": game.ids["Anna"]}), 403, "banker_decides")
    assert game.state()["auction"] is not None


def test_the_refusal_in_italian(app, client, api):
    game = unsold_auction(app, api)
    response = client.post(
        f"/api/v1/games/{game.id}/actions",
        json={"type": "auction_close"},
        headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Accept-Language": "it"},
    )
    assert response.status_code == 403
    assert response.get_json()["error"]["message"] == (
        "Anna, Bruno, Carla hanno gli stessi soldi: solo il banchiere può chiudere quest'asta "
        "e scegliere chi compra il contratto."
    )
    response = client.post(
        f"/api/v1/games/{game.id}/actions",
        json={"type": "auction_close", "award_to": game.ids["Anna"]},
        headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Accept-Language": "it"},
    )
    assert response.get_json()["error"]["message"] == "Solo il banchiere sceglie chi compra il contratto."
