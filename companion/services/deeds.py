"""What a deed's pages read of the rules: what lifting its mortgage costs, the line of its rent
table that applies now, the laps left to lift it, which of a player's deeds can go in a trade (and
why none can, when none can),
and the clock of an open auction. Reads only: nothing here changes a game."""

from __future__ import annotations

import datetime as dt

from ..core import rules
from ..core.editions.edition import Deed, Edition
from ..core.errors import BancoError
from ..core.policies import mortgage
from ..core.rules.common import is_past
from ..core.state import GameState
from ..store import now_utc


def lift_cost(edition: Edition, deed: Deed) -> int | None:
    """What lifting the mortgage on ``deed`` costs, or ``None`` in an edition without mortgages."""
    try:
        return rules.lift_cost(edition, deed)
    except BancoError:
        return None


def rent_line(state: GameState, deed_key: str) -> str | None:
    """The line of the deed's printed rent table that applies now (``rules.rent_line``), marked
    on its title deed; ``None`` where no line applies."""
    return rules.rent_line(state, deed_key)


def laps_left(state: GameState, deed_key: str) -> int | None:
    """The laps the owner of this mortgaged deed has left to lift it, where the edition sets a
    deadline in laps (``None`` otherwise)."""
    return mortgage.laps_left(state, state.deeds[deed_key])


def tradable(state: GameState, player_id: str) -> tuple[list[Deed], list[tuple[Deed, BancoError]]]:
    """The player's deeds in board order, split as the trade rules judge them now: those they
    can hand over, and each that cannot go with the rule's refusal (its group built on,
    mortgaged where the edition keeps those out of trades, a fee unpaid)."""
    giver = state.players[player_id]
    deeds, kept = [], []
    for deed in sorted(state.edition.deeds, key=lambda d: d.position):
        if state.deeds[deed.key].owner != player_id:
            continue
        try:
            rules.require_tradable(state, giver, deed.key)
            deeds.append(deed)
        except BancoError as error:
            kept.append((deed, error))
    return deeds, kept


def deed_trades_closed(state: GameState) -> BancoError | None:
    """Why no deed can change hands between players now, whoever holds it (Petropolis: not
    while the bank still holds a deed), or ``None``."""
    try:
        rules.require_deeds_tradable(state)
    except BancoError as error:
        return error
    return None


def auction_clock(ends_at: str, now: dt.datetime | None = None) -> tuple[int, bool]:
    """The whole seconds left in an auction ending at ``ends_at`` (rounded up, never below
    zero), and whether its time is over by the rules' own clock (a bid then is refused)."""
    now = now or now_utc()
    left = (dt.datetime.fromisoformat(ends_at) - now).total_seconds()
    return max(0, int(left + 0.999)), is_past(now, ends_at)
