"""The feed in words: each journal entry described in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from ..core.ledger import BANK
from ..core.settings import FREE_PARKING
from .dice import describe_roll, face_label
from .squares import landing_sentence
from .templating import jail_name, money


def describe(entry, names: dict[str, str], edition) -> str:
    """One line for the feed; ``names`` maps player ids to names (markup is escaped later). An
    action that ended the game by the edition's end condition says so after what it did."""
    line = _describe(entry, names, edition)
    if (entry.params or {}).get("all_deeds_owned"):
        line += " " + _("Every deed is owned: the game is over.")
    return line


def _describe(entry, names: dict[str, str], edition) -> str:
    p = entry.params or {}
    who = lambda account: account_name(account, names)  # noqa: E731
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
    if kind == "bank_handoff":
        return _("The bank moved to another phone.")
    if kind == "start":
        line = _("The game started: %(cash)s to each player.", cash=money(p.get("cash", 0), edition))
        if p.get("dealt"):
            hands: dict[str, list[str]] = {}
            for player_id, key in p["dealt"]:
                hands.setdefault(player_id, []).append(_deed_name(edition, key))
            line += (
                " "
                + _("Dealt, each paid at its price:")
                + " "
                + "; ".join(f"{who(pid)}: {', '.join(keys)}" for pid, keys in hands.items())
                + "."
            )
        return line
    if kind == "transfer":
        reason = p.get("reason")
        if p.get("from") == BANK:
            if reason:
                return _(
                    "The bank paid %(to)s %(amount)s: %(reason)s.", amount=amount, to=who(p.get("to")), reason=reason
                )
            return _("The bank paid %(to)s %(amount)s.", amount=amount, to=who(p.get("to")))
        if reason:
            return _(
                "%(payer)s paid %(to)s %(amount)s: %(reason)s.",
                payer=who(p.get("from")),
                amount=amount,
                to=who(p.get("to")),
                reason=reason,
            )
        return _("%(payer)s paid %(to)s %(amount)s.", payer=who(p.get("from")), amount=amount, to=who(p.get("to")))
    if kind == "pay_fixed":
        payment = edition.fixed_payment(p.get("payment", ""))
        label = payment.name(_lang()) if payment else p.get("payment", "")
        if p.get("to") == FREE_PARKING:
            return _(
                "%(payer)s paid %(what)s into the Free Parking pot: %(amount)s.",
                payer=who(p.get("from")),
                amount=amount,
                what=label,
            )
        return _("%(payer)s paid %(what)s: %(amount)s.", payer=who(p.get("from")), amount=amount, what=label)
    if kind == "pot_collect":
        return _("%(name)s collected the Free Parking pot: %(amount)s.", name=who(p.get("player")), amount=amount)
    if kind == "request":
        reason = p.get("reason")
        if reason:
            return _(
                "%(asker)s asked %(payer)s for %(amount)s: %(reason)s.",
                asker=who(p.get("to")),
                payer=who(p.get("from")),
                amount=amount,
                reason=reason,
            )
        return _(
            "%(asker)s asked %(payer)s for %(amount)s.", asker=who(p.get("to")), payer=who(p.get("from")), amount=amount
        )
    if kind == "bank_request":
        return _(
            "%(name)s asked the bank for %(amount)s: waiting for the banker.", name=who(p.get("to")), amount=amount
        )
    if kind == "pending_declined":
        if p.get("from") == BANK:
            return _("The banker turned down %(name)s's request for %(amount)s.", amount=amount, name=who(p.get("to")))
        if p.get("by") == "banker":
            return _(
                "The banker cancelled the request for %(payer)s to pay %(to)s %(amount)s.",
                amount=amount,
                payer=who(p.get("from")),
                to=who(p.get("to")),
            )
        return _(
            "%(payer)s declined to pay %(to)s %(amount)s.", payer=who(p.get("from")), amount=amount, to=who(p.get("to"))
        )
    if kind == "pending_withdrawn":
        return _("%(name)s withdrew the request for %(amount)s.", name=who(p.get("asked_by")), amount=amount)
    if kind == "pending_expired":
        count = p.get("count", 1)
        if count > 1:
            return ngettext("%(num)d request lapsed unpaid.", "%(num)d requests lapsed unpaid.", count)
        return _("The request for %(payer)s to pay %(amount)s lapsed unpaid.", amount=amount, payer=who(p.get("from")))
    if kind == "pass_go":
        line = _("%(name)s passed GO and collected %(amount)s.", name=who(p.get("to")), amount=amount)
        if p.get("forfeited"):
            line += " " + _(
                "%(deeds)s went back to the bank: the mortgage was not lifted in time.",
                deeds=", ".join(_deed_name(edition, k) for k in p["forfeited"]),
            )
        return line
    if kind == "roll":
        return describe_roll(p, who)
    deed = _deed_name(edition, p.get("deed"))
    player = who(p.get("player"))
    if kind == "buy":
        return _("%(name)s bought %(deed)s for %(amount)s.", name=player, deed=deed, amount=amount)
    if kind == "pay_rent":
        return _(
            "%(payer)s paid %(to)s %(amount)s rent for %(deed)s.",
            payer=who(p.get("from")),
            amount=amount,
            deed=deed,
            to=who(p.get("to")),
        )
    if kind == "rent_request":
        return _(
            "%(owner)s asked %(payer)s for %(amount)s rent for %(deed)s.",
            owner=who(p.get("to")),
            payer=who(p.get("from")),
            amount=amount,
            deed=deed,
        )
    if kind == "rent_lapse":
        return _("The request for %(payer)s to pay the rent for %(deed)s lapsed.", deed=deed, payer=who(p.get("from")))
    if kind == "build":
        return _(
            "%(name)s built a %(building)s on %(deed)s for %(amount)s.",
            name=player,
            deed=deed,
            amount=amount,
            building=_building(edition, p.get("building")),
        )
    if kind == "sell_building":
        if p.get("broken"):
            return _(
                "%(name)s broke the %(building)s on %(deed)s into %(small)s and got %(amount)s.",
                name=player,
                building=_building(edition, "big"),
                deed=deed,
                amount=amount,
                small=edition.buildings.small_plural(_lang()),
            )
        return _(
            "%(name)s sold a %(building)s on %(deed)s back to the bank for %(amount)s.",
            name=player,
            deed=deed,
            amount=amount,
            building=_building(edition, p.get("building")),
        )
    if kind == "mortgage":
        return _("%(name)s mortgaged %(deed)s and got %(amount)s.", name=player, deed=deed, amount=amount)
    if kind == "unmortgage":
        return _("%(name)s paid %(amount)s to lift the mortgage on %(deed)s.", name=player, deed=deed, amount=amount)
    if kind == "pay_mortgage_fee":
        return _("%(name)s paid a fee of %(amount)s on the mortgaged %(deed)s.", name=player, deed=deed, amount=amount)
    if kind == "sell_to_bank":
        return _("%(name)s sold %(deed)s to the bank for %(amount)s.", name=player, deed=deed, amount=amount)
    if kind in ("auction_start", "building_auction_start"):
        if p.get("building"):
            return _(
                "The bank's last %(building)s is up for auction, opening at %(amount)s.",
                building=_building(edition, p.get("building")),
                amount=money(p.get("opening_bid", 0), edition),
            )
        line = _(
            "%(deed)s is up for auction, opening at %(amount)s.",
            deed=deed,
            amount=money(p.get("opening_bid", 0), edition),
        )
        if p.get("queued"):
            line += " " + ngettext(
                "%(num)d more deed of the bankrupt player to auction after this one.",
                "%(num)d more deeds of the bankrupt player to auction after this one.",
                p["queued"],
            )
        if p.get("decliner"):
            line += " " + _("%(name)s declined to buy it and does not bid.", name=who(p["decliner"]))
        return line
    if kind == "break_shared":
        deeds = ", ".join(_deed_name(edition, k) for k in p.get("deeds", []))
        return _(
            "Big buildings broken at once on %(deeds)s: %(each)s small ones each from the bank, and half "
            "the price of each missing one (%(amount)s in all).",
            deeds=deeds,
            each=p.get("each"),
            amount=amount,
        )
    if kind == "check":
        if p.get("card"):
            if p.get("fake"):
                return _(
                    "%(checker)s checked the Imprevisti card %(payer)s played: fake! The card is void and "
                    "%(checker)s receives %(amount)s from the bank.",
                    checker=who(p.get("by")),
                    payer=who(p.get("from")),
                    amount=amount,
                )
            return _(
                "%(checker)s checked the Imprevisti card %(payer)s played: genuine.",
                checker=who(p.get("by")),
                payer=who(p.get("from")),
            )
        face = money(p.get("face", 0), edition)
        if p.get("fake"):
            line = _(
                "%(checker)s checked a note of %(payer)s's payment: a fake %(face)s! %(checker)s keeps it and "
                "%(payer)s pays %(face)s again.",
                checker=who(p.get("by")),
                payer=who(p.get("from")),
                face=face,
            )
            if p.get("owed"):
                line += " " + _("%(payer)s cannot pay it now and owes it.", payer=who(p.get("from")))
            return line
        return _(
            "%(checker)s checked a note of %(payer)s's payment: a genuine %(face)s.",
            checker=who(p.get("by")),
            payer=who(p.get("from")),
            face=face,
        )
    if kind == "chance_draw":
        return _("%(name)s took an Imprevisti card.", name=who(p.get("player")))
    if kind == "chance_play":
        return _("%(name)s plays an Imprevisti card: read it from the box.", name=who(p.get("player")))
    if kind == "auction_queue_done":
        return _("Every deed of the bankrupt player has been auctioned or sold.")
    if kind == "bid":
        return _("%(name)s bid %(amount)s.", name=player, amount=amount)
    if kind == "auction_won":
        what = deed if p.get("deed") and not p.get("building") else _building(edition, p.get("building"))
        return _("%(name)s won %(what)s at auction for %(amount)s.", name=player, what=what, amount=amount)
    if kind == "auction_unsold":
        return _(
            "Nobody bid: the bank keeps %(what)s.",
            what=deed if p.get("deed") else _building(edition, p.get("building")),
        )
    if kind == "auction_rerun":
        return _("%(name)s cannot pay: the auction starts again without them.", name=who(p.get("excluded")))
    if kind == "trade_propose":
        return _(
            "%(from)s offered %(to)s a trade: %(give)s for %(get)s.",
            **{
                "from": who(p.get("from")),
                "to": who(p.get("to")),
                "give": trade_side(p.get("give"), edition),
                "get": trade_side(p.get("get"), edition),
            },
        )
    if kind == "trade_accept":
        return _(
            "%(to)s accepted %(from)s's trade: %(give)s for %(get)s.",
            **{
                "from": who(p.get("from")),
                "to": who(p.get("to")),
                "give": trade_side(p.get("give"), edition),
                "get": trade_side(p.get("get"), edition),
            },
        )
    if kind == "trade_reject":
        return _("%(to)s refused %(from)s's trade.", **{"from": who(p.get("from")), "to": who(p.get("to"))})
    if kind == "trade_withdraw":
        return _(
            "%(from)s withdrew the trade offered to %(to)s.", **{"from": who(p.get("from")), "to": who(p.get("to"))}
        )
    if kind == "bankrupt":
        line = _(
            "%(name)s went bankrupt owing %(creditor)s and is out of the game.",
            name=player,
            creditor=who(p.get("creditor")),
        )
        if p.get("winner"):
            line += " " + _("%(name)s is the last player left and wins: the game is over.", name=who(p["winner"]))
        return line
    if kind == "go_to_jail":
        return _("%(name)s went to jail.", name=player)
    if kind == "pay_jail_fine":
        return _("%(name)s paid %(amount)s and left jail.", name=player, amount=amount)
    if kind == "use_jail_card":
        return _("%(name)s used a get-out-of-jail card.", name=player)
    if kind == "leave_jail_on_doubles":
        return _("%(name)s rolled doubles and left jail.", name=player)
    if kind == "draw_jail_card":
        return _("%(name)s drew a get-out-of-jail card.", name=player)
    if kind == "leave_jail_after_failed_roll":
        return _("%(name)s rolled no doubles, paid %(amount)s and left jail.", name=player, amount=amount)
    if kind == "end_turn":
        if p.get("rounds_over"):
            return _("The last round is over: the game ends.")
        line = _("Now it is %(name)s's turn (round %(round)s).", name=who(p.get("to")), round=p.get("round"))
        if p.get("skipped"):
            line += " " + _("Sitting out this turn: %(names)s.", names=", ".join(who(pid) for pid in p["skipped"]))
        if p.get("released"):
            line += " " + _(
                "%(name)s has waited the turns in %(jail)s and is out for free.",
                name=who(p["released"]),
                jail=jail_name(edition),
            )
        return line
    if kind == "square":
        return landing_sentence(p, edition, player, amount, deed)
    if kind == "build_lot":
        counts = ", ".join(f"{n} × {_deed_name(edition, key)}" for key, n in (p.get("counts") or {}).items())
        return _(
            "%(name)s built %(what)s: %(counts)s, for %(amount)s.",
            name=player,
            counts=counts,
            amount=amount,
            what=edition.buildings.small_plural(_lang()),
        )
    if kind == "expropriation_start":
        what = _("the whole lot of %(deed)s", deed=deed) if p.get("whole_lot") else deed
        return _(
            "%(name)s tries to expropriate %(what)s from %(owner)s.", name=player, what=what, owner=who(p.get("owner"))
        )
    if kind in ("expropriation_roll", "expropriation_settle"):
        return _describe_expropriation(p, who, edition, amount)
    if kind == "undo":
        if "undone_params" not in p:  # an undo stored before undo kept what it undid
            return _("The banker undid change no. %(version)s.", version=p.get("undone_version"))
        undone = UndoneEntry(p.get("undone", ""), p["undone_params"])
        return _("Undid: %(what)s", what=_describe(undone, names, edition))
    if kind == "take_back":
        what, signed = take_back_parts(p.get("undone", ""), p.get("undone_params") or {}, edition)
        return _("%(name)s took back: %(what)s %(amount)s.", name=player, what=what, amount=signed)
    if kind == "end":
        return _("The banker ended the game.")
    if kind == "play_off":
        return _(
            "A tie for first place: %(names)s play %(minutes)s more minutes among themselves.",
            names=", ".join(who(pid) for pid in p.get("players", [])),
            minutes=p.get("minutes"),
        )
    if kind == "clock_pause":
        return _("The clock is paused.")
    if kind == "scan":  # a printed note or Imprevisti card checked by phone
        name = who(p.get("player"))
        if p.get("item") == "card":
            return (
                _("%(name)s checked a printed Imprevisti card: fake!", name=name)
                if p.get("fake")
                else _("%(name)s checked a printed Imprevisti card: genuine.", name=name)
            )
        return (
            _("%(name)s checked a printed note: fake!", name=name)
            if p.get("fake")
            else _("%(name)s checked a printed note: genuine.", name=name)
        )
    if kind == "clock_resume":
        return _("The clock is running again.")
    return kind


@dataclass(frozen=True)
class UndoneEntry:
    """An entry an undo reversed, as the undo keeps it: enough for ``describe`` to word it."""

    kind: str
    params: dict


def take_back_parts(kind: str, params: dict, edition) -> tuple[str, str]:
    """A player's one-tap GO or tax in a few words, as the take-back button and its feed line
    name it: what it was ("GO", "Income tax") and the amount with its sign ("+€ 200")."""
    amount = money(params.get("amount", 0), edition)
    if kind == "pass_go":
        return _("GO"), "+" + amount
    payment = edition.fixed_payment(params.get("payment", ""))
    return (payment.name(_lang()) if payment else params.get("payment", "")), "\u2212" + amount


def _describe_expropriation(p, who, edition, amount) -> str:
    die = _("yellow die") if p.get("die") == "buyer" else _("red die")
    line = _("%(name)s: %(die)s %(face)s.", name=who(p.get("player")), die=die, face=face_label(p.get("face")))
    if p.get("settle"):
        line = _("%(name)s paid what the expropriation left owed.", name=who(p.get("player")))
    ends = p.get("ends")
    if ends == "penalty":
        return (
            line
            + " "
            + _(
                "Expropriation failed: %(buyer)s pays %(owner)s a penalty of %(amount)s.",
                buyer=who(p.get("buyer")),
                owner=who(p.get("owner")),
                amount=amount,
            )
        )
    if ends == "taken":
        deeds = ", ".join(_deed_name(edition, k) for k in p.get("deeds", []))
        return (
            line
            + " "
            + _(
                "Expropriation done: %(buyer)s takes %(deeds)s for %(amount)s.",
                buyer=who(p.get("buyer")),
                deeds=deeds,
                amount=amount,
            )
        )
    if ends == "card":
        return line + " " + _("%(buyer)s draws a Vita di Castiglione card; nothing is paid.", buyer=who(p.get("buyer")))
    if p.get("owed"):
        return (
            line
            + " "
            + _(
                "%(buyer)s owes %(amount)s and must raise the cash.",
                buyer=who(p.get("buyer")),
                amount=money(p["owed"], edition),
            )
        )
    if p.get("next") == "owner":
        return line + " " + _("Now %(owner)s rolls the red die.", owner=who(p.get("owner")))
    return line + " " + _("%(buyer)s rolls the yellow die again.", buyer=who(p.get("buyer")))


def account_name(account, names: dict[str, str]) -> str:
    """An account in words: the bank, a pot, or a player's name."""
    if account == BANK:
        return _("the bank")
    if account == FREE_PARKING:
        return _("the Free Parking pot")
    return names.get(account, "?")


def _deed_name(edition, key) -> str:
    deed = edition.deed(key) if isinstance(key, str) else None
    return deed.name if deed else ""


def _building(edition, building) -> str:
    names = edition.buildings
    return (names.big if building == "big" else names.small)(_lang())


def trade_side(side, edition) -> str:
    """One side of a trade in words: cash, deeds, cards; "nothing" when empty."""
    side = side or {}
    parts = []
    if side.get("cash"):
        parts.append(money(side["cash"], edition))
    parts += [_deed_name(edition, key) for key in side.get("deeds", [])]
    if side.get("jail_cards"):
        parts.append(ngettext("%(num)d get-out-of-jail card", "%(num)d get-out-of-jail cards", side["jail_cards"]))
    return ", ".join(parts) or _("nothing")


def _lang() -> str:
    from flask_babel import get_locale

    return str(get_locale() or "en")
