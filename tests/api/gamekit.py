"""What the API games of the rule sets share: an answer that must succeed, a refusal that must
name its code, who owns each deed, and a journal that balances."""

from __future__ import annotations

from companion import services


def ok(result, status=200):
    """The action's ``result`` (or the whole body) of an answer that must have ``status``."""
    code, body = result
    assert code == status, body
    return body.get("result", body)


def refusal(result, status, code):
    """The message of an answer that must be refused with ``status`` and ``code``."""
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body
    assert body["error"]["message"]
    return body["error"]["message"]


def owners(game) -> dict:
    return {d["key"]: d["owner"] for d in game.state()["deeds"]}


def balanced(app, game) -> None:
    """The game's money equals its journal, entry by entry."""
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []
