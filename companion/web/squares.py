"""What the feed says of a landing on one of the board's computed squares, in the words of the
square's policy: each policy brings its sentence here, found by its name, as it brings its part
of the phone's page (``templates/policies/squares/<name>.html``). A test holds every square
policy to a sentence."""

from __future__ import annotations

from collections.abc import Callable

from .speaking import gettext as _
from .speaking import ngettext
from .templating import jail_name, lang, money


def landing_sentence(p: dict, edition, player: str, amount: str, deed: str) -> str:
    """The feed's line for the landing recorded in ``p`` (the entry's params); ``player``,
    ``amount`` and ``deed`` are already in words. A square the edition no longer has is told
    from what was recorded."""
    square = edition.square(p.get("square", ""))
    label = square.name(lang()) if square else p.get("square", "")
    told = SENTENCES[square.policy] if square else by_what_moved
    return told(p, edition, player, amount, deed, label)


def by_what_moved(p, edition, player, amount, deed, label) -> str:
    """A deed bought, a sum collected by the dice, or a sum paid."""
    if p.get("deed"):
        return _(
            "%(name)s bought %(deed)s at %(what)s for %(amount)s.", name=player, deed=deed, what=label, amount=amount
        )
    if "dice" in p:
        return _(
            "%(name)s collected %(amount)s at %(what)s (dice %(dice)s).",
            name=player,
            amount=amount,
            what=label,
            dice=p.get("dice"),
        )
    return _("%(name)s paid %(amount)s: %(what)s.", name=player, amount=amount, what=label)


def pay_then_prize_on_dice(p, edition, player, amount, deed, label) -> str:
    if p.get("won"):
        return _(
            "%(name)s paid %(amount)s at %(what)s, rolled %(dice)s and got %(prize)s back.",
            name=player,
            amount=amount,
            what=label,
            dice=p.get("dice"),
            prize=money(p.get("back", 0), edition),
        )
    return _(
        "%(name)s paid %(amount)s at %(what)s and rolled %(dice)s: no prize.",
        name=player,
        amount=amount,
        what=label,
        dice=p.get("dice"),
    )


def collect_then_pay(p, edition, player, amount, deed, label) -> str:
    return _(
        "%(name)s collected %(amount)s at %(what)s and paid back %(back)s.",
        name=player,
        amount=amount,
        what=label,
        back=money(p.get("back", 0), edition),
    )


def jail_unless_dice(p, edition, player, amount, deed, label) -> str:
    if p.get("jailed"):
        return _(
            "%(name)s rolled %(dice)s at %(what)s and goes to %(jail)s.",
            name=player,
            dice=p.get("dice"),
            what=label,
            jail=jail_name(edition),
        )
    return _("%(name)s rolled %(dice)s at %(what)s and rides on.", name=player, dice=p.get("dice"), what=label)


def sit_out(p, edition, player, amount, deed, label) -> str:
    if p.get("trades") is False:
        return ngettext(
            "%(name)s stops at %(what)s: sits out %(num)d turn, with no trades until then.",
            "%(name)s stops at %(what)s: sits out the next %(num)d turns, with no trades until then.",
            p.get("turns", 1),
            name=player,
            what=label,
        )
    return ngettext(
        "%(name)s stops at %(what)s: sits out %(num)d turn.",
        "%(name)s stops at %(what)s: sits out the next %(num)d turns.",
        p.get("turns", 1),
        name=player,
        what=label,
    )


# Each square policy's sentence; a tax, a prize by the dice and a deed bought say what moved.
SENTENCES: dict[str, Callable[..., str]] = {
    "pay_per_holding": by_what_moved,
    "collect_dice_times": by_what_moved,
    "buy_free_deed": by_what_moved,
    "pay_then_prize_on_dice": pay_then_prize_on_dice,
    "collect_then_pay": collect_then_pay,
    "jail_unless_dice": jail_unless_dice,
    "sit_out": sit_out,
}
