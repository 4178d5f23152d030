"""What happened to me: the journal's lines that concern one player, said to that player.

The feed tells the table everything; a notice tells one phone what touched it ("+€ 24 from
Anna: rent on Piazza Dante", "Bruno outbid you: € 120"), so the page can show it for a few
seconds and keep the last few in a short list. Only what someone else did is worth a notice:
a player knows what they tapped themselves.
"""

from __future__ import annotations

from flask import g
from flask_babel import gettext as _

from .. import services
from ..core.ledger import BANK
from . import seats, versioned
from .feed import account_name, describe, trade_side
from .templating import deed_name, money

# How many notices a phone keeps in its list.
KEPT = 8
# How far back in the journal they are looked for (a bid war makes many entries quickly).
LOOKBACK = 40


def init_app(app) -> None:
    app.jinja_env.globals["my_notices"] = my_notices


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
    "tone"}`` (tone: ``plus`` for money in, ``minus`` for money out, ``info`` otherwise).
    Empty for a caller without a seat (the banker who does not play, a stranger)."""
    if caller is None or caller.player_id is None:
        return []
    cached = g.setdefault("banco_notices", {})
    key = (game.id, game.version, caller.player_id)
    if key not in cached:
        cached[key] = _compute(game, caller)
    return cached[key]


def _compute(game, caller) -> list[dict]:
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    me = caller.player_id
    entries = list(reversed(recent_entries(game, LOOKBACK)))
    high_bidder = None  # who held the best bid of the auction under way, walking forward
    bidders: set[str | None] = set()
    out = []
    for entry in entries:
        p = entry.params or {}
        if entry.kind in ("auction_start", "building_auction_start", "auction_rerun"):
            high_bidder, bidders = None, set()
        text, tone = _about(entry, p, me, high_bidder, bidders, names, edition, _by_me(entry, game, me))
        if entry.kind == "bid":
            high_bidder = p.get("player")
            bidders.add(p.get("player"))
        if text:
            out.append({"version": entry.version, "text": text, "tone": tone})
    return list(reversed(out))[:KEPT]


def _by_me(entry, game, me) -> bool:
    # A banker who plays is the banker too: what the banker did, they did.
    return entry.actor == me or (game.banker_player_id == me and entry.actor == services.BANKER)


def _net(entry, me) -> int:
    return sum(posting.amount for posting in entry.postings if posting.account == me)


def _about(entry, p, me, high_bidder, bidders, names, edition, by_me) -> tuple[str | None, str]:
    """One entry as a notice for player ``me``, or ``(None, "")`` when it does not concern them."""
    who = lambda account: account_name(account, names)  # noqa: E731
    kind = entry.kind

    def amount() -> str:  # written only for an entry that concerns the player: most do not
        return money(p.get("amount", 0), edition)

    # Outcomes of an auction concern every bidder, whoever closed it.
    if kind == "auction_won":
        what = deed_name(p.get("deed"), edition) if p.get("deed") and not p.get("building") else _("the building")
        if p.get("player") == me:
            return _("You won %(what)s for %(amount)s.", what=what, amount=amount()), "minus"
        if me in bidders:
            return _(
                "%(name)s won %(what)s for %(amount)s.", name=who(p.get("player")), what=what, amount=amount()
            ), "info"
        return None, ""
    if by_me or kind == "start":
        return None, ""
    if kind == "bid":
        if high_bidder == me and p.get("player") != me:
            return _("%(name)s outbid you: %(amount)s.", name=who(p.get("player")), amount=amount()), "info"
        return None, ""
    if kind == "request" and p.get("from") == me:
        line = _("%(name)s asks you for %(amount)s.", name=who(p.get("to")), amount=amount())
        return (f"{line} ({p['reason']})" if p.get("reason") else line), "info"
    if kind == "rent_request" and p.get("from") == me:
        return _(
            "%(name)s asks you for %(amount)s rent on %(deed)s.",
            name=who(p.get("to")),
            amount=amount(),
            deed=deed_name(p.get("deed"), edition),
        ), "info"
    if kind == "pending_declined" and p.get("to") == me:
        if p.get("from") == BANK:
            return _("The banker declined your %(amount)s from the bank.", amount=amount()), "info"
        return _("%(name)s declined to pay you %(amount)s.", name=who(p.get("from")), amount=amount()), "info"
    if kind == "trade_propose" and p.get("to") == me:
        return _(
            "%(name)s offers you a trade: %(give)s for %(get)s.",
            name=who(p.get("from")),
            give=trade_side(p.get("give"), edition),
            get=trade_side(p.get("get"), edition),
        ), "info"
    if kind == "trade_accept" and p.get("from") == me:
        return _("%(name)s accepted your trade.", name=who(p.get("to"))), "info"
    if kind == "trade_reject" and p.get("from") == me:
        return _("%(name)s refused your trade.", name=who(p.get("to"))), "info"
    if kind == "expropriation_start" and p.get("owner") == me:
        return _(
            "%(name)s tries to expropriate %(deed)s from you.",
            name=who(p.get("player")),
            deed=deed_name(p.get("deed"), edition),
        ), "info"
    net = _net(entry, me)
    if net > 0:
        return _money_in(entry, p, net, names, edition), "plus"
    if net < 0:
        return _(
            "%(amount)s: %(what)s", amount="−" + money(-net, edition), what=describe(entry, names, edition)
        ), "minus"
    return None, ""


def _money_in(entry, p, net, names, edition) -> str:
    """Money that reached the player, said from their side: from whom and what for; what has
    no words of its own here (a trade, a bankruptcy, an undo) is told as the feed tells it."""
    who = lambda account: account_name(account, names)  # noqa: E731
    kind = entry.kind
    plus = "+" + money(net, edition)
    if kind == "pay_rent":
        return _(
            "%(amount)s from %(name)s: rent on %(deed)s.",
            amount=plus,
            name=who(p.get("from")),
            deed=deed_name(p.get("deed"), edition),
        )
    if kind == "transfer" and p.get("from") is not None:
        line = _("%(amount)s from %(name)s.", amount=plus, name=who(p.get("from")))
        return f"{line} ({p['reason']})" if p.get("reason") else line
    if kind == "pass_go":
        return _("%(amount)s: GO.", amount=plus)
    return _("%(amount)s: %(what)s", amount=plus, what=describe(entry, names, edition))
