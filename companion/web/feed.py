"""The feed in words: each journal entry described in the reader's language."""
from __future__ import annotations

from flask_babel import gettext as _

from ..core.ledger import BANK
from .templating import money


def describe(entry, names: dict[str, str], edition) -> str:
    """One line for the feed; ``names`` maps player ids to names (markup is escaped later)."""
    p = entry.params or {}
    who = lambda account: _("the bank") if account == BANK else names.get(account, "?")  # noqa: E731
    amount = money(p.get("amount", 0), edition)
    kind = entry.kind
    if kind == "created":
        return _("The table is open.")
    if kind == "join":
        return _("%(name)s joined the game.", name=who(p.get("player")))
    if kind == "claim":
        return _("%(name)s sat down at the table.", name=who(p.get("player")))
    if kind == "rejoin":
        return _("%(name)s is back on a new phone.", name=who(p.get("player")))
    if kind == "start":
        return _("The game started: %(cash)s to each player.", cash=money(p.get("cash", 0), edition))
    if kind == "transfer":
        reason = p.get("reason")
        if p.get("from") == BANK:
            line = _("The bank paid %(amount)s to %(to)s.", amount=amount, to=who(p.get("to")))
        else:
            line = _("%(payer)s paid %(amount)s to %(to)s.", payer=who(p.get("from")), amount=amount,
                     to=who(p.get("to")))
        return f"{line} ({reason})" if reason else line
    if kind == "pay_fixed":
        payment = edition.fixed_payment(p.get("payment", ""))
        label = payment.name(_lang()) if payment else p.get("payment", "")
        return _("%(payer)s paid %(amount)s: %(what)s.", payer=who(p.get("from")), amount=amount, what=label)
    if kind == "pass_go":
        return _("%(name)s passed GO and collected %(amount)s.", name=who(p.get("to")), amount=amount)
    if kind == "undo":
        return _("The banker undid change no. %(version)s.", version=p.get("undone_version"))
    if kind == "end":
        return _("The banker ended the game.")
    if kind == "clock_pause":
        return _("The clock is paused.")
    if kind == "clock_resume":
        return _("The clock is running again.")
    return kind


def _lang() -> str:
    from flask_babel import get_locale
    return str(get_locale() or "en")
