"""What happened to me: the journal's lines that concern one player, said to that player.

The feed tells the table everything; a notice tells one phone what touched it ("+€ 24 from
Anna: rent on Piazza Dante", "Bruno outbid you: € 120"), so the page can show it for a few
seconds and keep the last few in a short list. Only what someone else did is worth a notice:
a player knows what they tapped themselves.

A notice of something that still waits for the player's answer carries it: money asked of
them (``asks``: Pay and Decline, as the wallet's request card offers them) or a trade offered
to them (``offer``: the trade's id, which the notice opens).
"""

from __future__ import annotations

from flask import g

from .. import services
from ..core.actions import ACTIONS, BIDDING, BIDS, OPENS_BIDDING, TOLD
from ..core.actions.lines import BIDDER, MINUS, OUTBID, PLUS, Tell
from ..live.news import NOTICES
from . import seats, versioned
from .feed import describe, say
from .speaking import gettext as _
from .templating import money

# How many notices a phone keeps in its list (an event's news carries no more).
KEPT = NOTICES
# How far back in the journal they are looked for (a bid war makes many entries quickly).
LOOKBACK = 40
# The param a notice of money received gives its sentence: the money, with its sign.
NET = "@net"


def init_app(app) -> None:
    app.jinja_env.globals.update(my_notices=my_notices, notices_kept=KEPT)


def recent_entries(game, count: int) -> list:
    """The game's newest ``count`` entries (at most ``LOOKBACK``), newest first, with their
    postings (``services.recent_lines``): read once per version for the notices and the feed
    of every page (``versioned``)."""
    lines = versioned.once(("recent", game.id, game.version), lambda: services.recent_lines(game, LOOKBACK))
    return lines[:count]


def my_notices(game) -> list[dict]:
    """The notices of the player this browser is seated as in ``game`` (none for others)."""
    return notices_for(game, seats.caller(game.id, seats.PLAYER))


def notices_for(game, caller) -> list[dict]:
    """The newest notices for ``caller``'s player, newest first, each ``{"version", "text",
    "tone"}`` (tone: ``plus`` for money in, ``minus`` for money out, ``info`` otherwise), with
    ``asks`` or ``offer`` while what it tells of still waits for the player (``_answerable``).
    Empty for a caller without a seat (the banker who does not play, a stranger)."""
    if caller is None or caller.player_id is None:
        return []
    cached = g.setdefault("banco_notices", {})
    key = (game.id, game.version, caller.player_id)
    if key not in cached:
        cached[key] = _compute(game, caller.player_id)
    return cached[key]


def may_tell_anyone(kind: str) -> bool:
    """Whether an entry of ``kind`` may have a notice for a player it neither names nor moves
    money of: an auction's bidders (who bid is read from the entries before it)."""
    return any(tell.to in (BIDDER, OUTBID) for tell in TOLD.get(kind, ()))


def news_for(game, player_id: str, versions, entries) -> list[dict] | None:
    """The notices of ``versions`` (the game's newest) for ``player_id``, newest first, in the
    current language, read from ``entries`` (the game's newest lines, newest first: these
    versions' own, and before them as many as an auction's bidders need); ``None`` when one of
    them waits for their answer (its Pay and Decline are forms drawn with the reader's session,
    which only their page can draw)."""
    fresh = _compute(game, player_id, only=versions, entries=entries)
    if any("asks" in n or "offer" in n for n in fresh):
        return None
    return fresh


def _compute(game, me: str, only=None, entries=None) -> list[dict]:
    """``me``'s notices among the game's newest entries (``entries``, newest first, else the
    journal's ``LOOKBACK``), of ``only``'s versions alone when given: the others are walked for
    the auction's bidders, not worded."""
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    entries = list(reversed(entries if entries is not None else recent_entries(game, LOOKBACK)))
    high_bidder = None  # who held the best bid of the auction under way, walking forward
    bidders: set[str | None] = set()
    out = []
    for entry in entries:
        p = entry.params or {}
        bidding = BIDDING.get(entry.kind)
        if bidding == OPENS_BIDDING:
            high_bidder, bidders = None, set()
        text, tone = (
            _about(entry, p, me, high_bidder, bidders, names, edition, _by_me(entry, game, me))
            if only is None or entry.version in only
            else (None, "")
        )
        if bidding == BIDS:
            high_bidder = p.get("player")
            bidders.add(p.get("player"))
        if text:
            out.append({"version": entry.version, "text": text, "tone": tone, "refs": _refs(p)})
    return _answerable(game, me, list(reversed(out))[:KEPT])


def _refs(p) -> tuple[str | None, str | None]:
    """The money waiting for a yes and the trade an entry names: a request names its id
    ``pending``, a rent request ``request``, a trade offer ``trade``."""
    return p.get("pending") or p.get("request"), p.get("trade")


def _answerable(game, me, notices: list[dict]) -> list[dict]:
    """``notices`` with what still waits for ``me``'s answer: ``asks`` on a notice of money
    asked of them that is still waiting (``{"id", "rent", "amount", "payee", "missing"}``:
    ``rent`` when it is a rent request, which is paid and never declined; ``missing`` what
    their cash lacks to pay it, 0 when it is enough), ``offer`` (its id) on a notice of a trade
    still offered to them. Money that waits for the banker, or for someone else, asks nothing
    of them."""
    refs = [n.pop("refs") for n in notices]
    if not any(pending or trade for pending, trade in refs):
        return notices
    state = services.state_of(game, deeds=False)
    waiting = {p.id: p for p in services.waiting(state)}
    rents = {p.id for p in services.rent_requests(state)}  # paid by their own action, never declined
    trades = game.trades or {}
    for notice, (pending_id, trade_id) in zip(notices, refs, strict=True):
        asked = waiting.get(pending_id) if pending_id else None
        if asked is not None and asked.payer == me and asked.needs == "payer":
            notice["asks"] = _asks(game, me, asked, asked.id in rents)
        trade = trades.get(trade_id) if trade_id else None
        if trade is not None and trade.get("recipient") == me:
            notice["offer"] = trade_id
    return notices


def _asks(game, me, asked, rent: bool) -> dict:
    """Money ``asked`` of ``me``, as their notice offers to pay it: ``missing`` what their cash
    lacks to pay it, ``None`` when it is enough."""
    cash = next((p.cash for p in game.players if p.id == me), 0)
    edition = services.edition_of(game)
    missing = max(0, asked.amount - cash)
    return {
        "id": asked.id,
        "rent": rent,
        "amount": money(asked.amount, edition),
        "payee": asked.payee,
        "payee_name": next((p.name for p in game.players if p.id == asked.payee), None) or _("the bank"),
        "cash": money(cash, edition),
        "missing": money(missing, edition) if missing else None,
    }


def _by_me(entry, game, me) -> bool:
    # A banker who plays is the banker too: what the banker did, they did.
    return entry.actor == me or (game.banker_player_id == me and entry.actor == services.BANKER)


def _net(entry, me) -> int:
    return sum(posting.amount for posting in entry.postings if posting.account == me)


def _about(entry, p, me, high_bidder, bidders, names, edition, by_me) -> tuple[str | None, str]:
    """One entry as a notice for player ``me``, or ``(None, "")`` when it does not concern
    them: what its kind tells the player it concerns (``core.actions.TOLD``), else the money
    that reached them or left them."""
    tells = TOLD.get(entry.kind, ())
    readers = {
        BIDDER: me if me in bidders else None,
        OUTBID: me if high_bidder == me and p.get("player") != me else None,
    }

    def told(tell: Tell) -> bool:
        reader = readers[tell.to] if tell.to in readers else p.get(tell.to)
        return reader == me and tell.say.holds(p, edition)

    early = [tell for tell in tells if tell.even_mine]
    if early:  # said even to the player who did it, and nothing else
        tell = next((tell for tell in early if told(tell)), None)
        return (say(tell.say, p, names, edition), tell.tone) if tell else (None, "")
    if by_me:
        return None, ""
    tell = next((tell for tell in tells if told(tell)), None)
    if tell is not None:
        return say(tell.say, p, names, edition), tell.tone
    return _money_told(entry, p, me, names, edition)


def _money_told(entry, p, me, names, edition) -> tuple[str | None, str]:
    """The money an entry someone else made moved for ``me``, as a notice: in its action's
    words for money received (``received``) where it has them, else as the feed says it; none
    for a quiet action (a bid) or an entry that moved none of ``me``'s money."""
    action = ACTIONS.get(entry.kind)
    if action is not None and action.quiet:
        return None, ""
    net = _net(entry, me)
    if net > 0:
        received = action.received if action is not None else None
        worded = {**p, NET: "+" + money(net, edition)}
        if received is not None and received.holds(p, edition):
            return say(received, worded, names, edition), PLUS
        return _("%(amount)s: %(what)s", amount=worded[NET], what=describe(entry, names, edition)), PLUS
    if net < 0:
        return _("%(amount)s: %(what)s", amount="−" + money(-net, edition), what=describe(entry, names, edition)), MINUS
    return None, ""
