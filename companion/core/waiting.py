"""What a running game waits on, and on whom: what a referee walking between tables needs to see
("table 3 is stuck: the trade waits on Bruno"). Pure: read from the game's state."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .pending import is_expired
from .rules.common import is_past
from .state import BANKER, PAYER, RUNNING, GameState

# Kinds of wait, each named for what holds the table.
AUCTION, AUCTION_OVER, AUCTION_QUEUE = "auction", "auction_over", "auction_queue"
TRADE, REQUEST, EXPROPRIATION = "trade", "request", "expropriation"


@dataclass(frozen=True)
class Wait:
    """``kind`` of wait, on ``who`` (a player's id, or ``"banker"``; ``None`` for everyone at
    the table, as an auction's bidders), about ``deed`` where one is named."""

    kind: str
    who: str | None
    deed: str | None = None


def waiting_on(state: GameState, now: datetime) -> list[Wait]:
    """Everything the game waits on now, the most pressing first: an auction (on its bidders
    while its countdown runs, on the banker to close it once over), deeds queued for auction
    (the banker), an expropriation (the player whose die rolls next, or the buyer paying),
    trades (their recipients) and money waiting for a yes (the payer or the banker). A game
    that is not running waits on nothing here (its status says it)."""
    if state.status != RUNNING:
        return []
    out: list[Wait] = []
    auction = state.auction
    if auction is not None:
        over = is_past(now, auction.ends_at)
        out.append(Wait(AUCTION_OVER if over else AUCTION, BANKER if over else None, auction.deed))
    if state.auction_queue and auction is None:
        out.append(Wait(AUCTION_QUEUE, BANKER, state.auction_queue[0]))
    ex = state.expropriation
    if ex is not None:
        out.append(Wait(EXPROPRIATION, ex.owner if ex.stage == "owner" else ex.buyer, ex.deed))
    for trade in state.trades.values():
        out.append(Wait(TRADE, trade.recipient))
    for pending in sorted(state.pending.values(), key=lambda p: p.at):
        if not is_expired(pending, now):
            out.append(Wait(REQUEST, pending.payer if pending.needs == PAYER else BANKER, pending.params.get("deed")))
    return out
