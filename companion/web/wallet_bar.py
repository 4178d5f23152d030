"""The slim bar on a game's pages away from the wallet (deeds, a deed, a trade, the results, a
note's check): the viewer's own cash and the way back to their wallet. The views of those pages
pass ``wallet_bar=wallet_bar(game, caller)``; ``templates/base.html`` draws it under the top bar."""

from __future__ import annotations

from flask import url_for

from .. import services
from .templating import money


def wallet_bar(game, caller) -> dict | None:
    """The viewer's name, cash (in the edition's currency) and wallet address; ``None`` for
    whoever holds no player's seat in this game (a stranger, the banker who does not play), who
    has no wallet to go back to. A player's own cash is always theirs to see, even where the
    edition keeps cash private."""
    if game is None or caller is None or caller.player_id is None:
        return None
    me = next((p for p in game.players if p.id == caller.player_id), None)
    if me is None:
        return None
    return {
        "player": me.id,
        "name": me.name,
        "cash": me.cash,
        "cash_text": money(me.cash, services.edition_of(game)),
        "url": url_for("pages.wallet", game_id=game.id),
    }
