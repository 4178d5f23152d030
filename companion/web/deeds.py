"""The deed cards on the phone: my deeds, every deed of the board, one deed with what I can do
with it now, auctions and trades. What a page offers is what the rules allow at this moment:
each candidate action is previewed by the same rules that will run it."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

import printables

from .. import services
from ..core.actions import NOBODYS, OFFERS, OTHERS, OWN
from ..core.errors import N_, BancoError, NotFound
from ..core.parts import cash_of
from . import calculator, forms, seats
from .dice import roll_total_for
from .errors import translate
from .feed import say, trade_side
from .regions import Lazy, once, render
from .speaking import gettext as _
from .templating import lang
from .wallet_bar import wallet_bar

bp = Blueprint("deeds", __name__)


def holdings_by_deed(game) -> dict:
    return {h.deed_key: h for h in game.holdings}


def _groups(game, edition, owner_id=None) -> list[dict]:
    """The board by colour group: each deed with its holding; ``complete`` when one player
    owns the whole group."""
    holdings = holdings_by_deed(game)
    out = []
    for group in edition.groups:
        deeds = [(d, holdings[d.key]) for d in edition.deeds_in_group(group.key)]
        owners = {h.owner_id for _, h in deeds}
        if owner_id is not None and owner_id not in owners:
            continue
        out.append(
            {
                "group": group,
                "deeds": deeds,
                "complete": len(owners) == 1 and None not in owners,
                "owner": next(iter(owners)) if len(owners) == 1 else None,
            }
        )
    return out


def _try(game, caller, payload, state, why=(), unsaid=()):
    """The preview of an action on ``state`` (the game, loaded once per page), or the refusal
    in words; with ``why``, the refusal only for those codes, and never for the ``unsaid``
    ones (``None`` for the others)."""
    try:
        return services.preview(game, caller, payload, state), None
    except BancoError as error:
        said = (not why or error.code in why) and error.code not in unsaid
        return None, (translate(error) if said else None)


def deed_actions(game, caller, deed, holding, state, names) -> list[dict]:
    """The actions on this deed the rules allow this caller now, each with what it moves, as
    the actions declare them (``core.actions.OFFERS``); the first is the one that applies when
    landing here (buy it, pay its rent)."""
    if caller is None or caller.player_id is None or game.status != "running":
        return []  # the banker acts on deeds for a player from the table
    owner = holding.owner_id
    whose = NOBODYS if owner is None else OWN if owner == caller.player_id else OTHERS
    edition = services.edition_of(game)
    out = []
    for kind, offer in OFFERS:
        if offer.whose != whose:
            continue
        for fields in offer.each(edition):
            shown = _offered(game, caller, deed, state, names, kind, offer, dict(fields))
            if shown is not None:
                out.append(shown)
    return out


def _offered(game, caller, deed, state, names, kind, offer, fields) -> dict | None:
    """One button of the deed's page, as previewed now: what it moves, in the offer's words;
    a refusal worth saying (the offer's ``closed``); or ``None``, not shown."""
    edition = services.edition_of(game)
    payload = {"type": kind, "deed": deed.key, **fields}
    outcome, refusal = _try(game, caller, payload, state, offer.why, offer.unsaid)
    needs_dice = refusal is not None and offer.by_dice and _needs_dice(game, caller, deed, state)
    if outcome is None and not needs_dice:
        if offer.closed is None or refusal is None:
            return None
        return {
            "kind": kind,
            "text": say(offer.closed, {}, names, edition),
            "refusal": refusal,
            "landing": offer.landing,
        }
    amount = max((abs(p.amount) for p in outcome.postings), default=0) if outcome else 0
    params = {**(outcome.params if outcome else {}), **fields, "amount": amount}
    sentence = offer.said(params, edition)
    return {
        "kind": kind,
        "text": say(sentence, params, names, edition),
        "amount": amount,
        "extra": fields,
        "needs_dice": needs_dice,
        "refusal": None,
        "shows_amount": "amount" in sentence.words,
        "landing": offer.landing,
    }


def _needs_dice(game, caller, deed, state) -> bool:
    _outcome, refusal = _try(game, caller, {"type": "pay_rent", "deed": deed.key, "dice": 7}, state)
    return refusal is None


def _lot(game, edition, deed, player_id) -> dict | None:
    """The lot-building form's data, where the edition builds a whole lot at once and the
    player owns every deed of this one's lot that takes buildings; ``None`` otherwise."""
    if edition.buildings.placement != "by_visit" or not deed.buildable or game.status != "running" or not player_id:
        return None
    holdings = holdings_by_deed(game)
    members = [d for d in edition.deeds_in_group(deed.group) if d.buildable]
    if any(holdings[d.key].owner_id != player_id for d in members):
        return None
    pairs = [(d, holdings[d.key].houses) for d in members]
    return {"group": deed.group, "members": pairs, "first": all(h == 0 for _, h in pairs)}


@bp.get("/g/<game_id>/deeds")
def board(game_id):
    with services.reading():  # owners, buildings and cash of one instant
        return _board(game_id)


def _board(game_id):
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    # A typed code is five characters; a page of text is cut short, not echoed whole (into the
    # session cookie that carries the message).
    code = request.args.get("code", "").strip()[:20]
    if code:
        key = printables.deed_key_for_code(dict(edition.raw), code)
        if key is not None:
            return redirect(url_for("deeds.deed_page", game_id=game.id, deed_key=key))
        flash(_("No deed of this game has the code %(code)s.", code=code.upper()), "error")
    names = {p.id: p.name for p in game.players}
    query = request.args.get("q", "").strip()[:40]
    return render(
        "deeds.html",
        game.version,
        game=game,
        edition=edition,
        caller=caller,
        names=names,
        mine=Lazy(lambda: _groups(game, edition, caller.player_id) if caller.player_id else []),
        tiles=Lazy(lambda: _tiles(game, edition, names, query)),
        query=query,
        wallet_bar=Lazy(lambda: wallet_bar(game, caller)),
    )


def searchable(text: str) -> str:
    """``text`` as the deed search compares it: without accents, case folded (static/js/deeds.js
    does the same, so a search typed with or without JavaScript finds the same deeds)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _tiles(game, edition, names, query="") -> list[dict]:
    """Every deed of the board in board order (the edition's ``position``), each with its
    holding, its group, whether its owner holds the whole group, and the text the search box
    reads (the deed's name, its group's and its owner's); ``hidden`` when it does not match
    ``query``."""
    holdings = holdings_by_deed(game)
    whole = {row["group"].key for row in _groups(game, edition) if row["complete"]}
    wanted = searchable(query)
    out = []
    for deed in sorted(edition.deeds, key=lambda d: d.position):
        holding, group = holdings[deed.key], edition.group(deed.group)
        words = searchable(" ".join((deed.name, group.name(lang()), names.get(holding.owner_id, ""))))
        out.append(
            {
                "deed": deed,
                "holding": holding,
                "group": group,
                "search": words,
                "whole_group": holding.owner_id is not None and group.key in whole,
                "hidden": bool(wanted) and wanted not in words,
            }
        )
    return out


@bp.get("/g/<game_id>/deeds/<deed_key>")
def deed_page(game_id, deed_key):
    with services.reading():  # the deed, its owner and what they can afford of one instant
        return _deed_page(game_id, deed_key)


def _deed_page(game_id, deed_key):
    game, caller = seats.seated(game_id)
    if caller is None:
        return redirect(url_for("deeds.card", edition_id=game.edition_id, deed_key=deed_key))
    edition = services.edition_of(game)
    deed = edition.deed(deed_key)
    if deed is None:
        raise NotFound("unknown_deed", N_("There is no such deed in this edition."))
    holding = holdings_by_deed(game)[deed.key]
    names = {p.id: p.name for p in game.players}
    others = [p for p in game.players if p.id != holding.owner_id and not p.bankrupt]
    viewer = caller  # the wallet bar is the viewer's own, whoever the banker acts for
    acting_for = None
    if caller.is_banker:
        # The banker acts on a deed for any player still in the game, chosen on the page.
        chosen = request.args.get("as") or caller.player_id
        if any(p.id == chosen and not p.bankrupt for p in game.players):
            acting_for = chosen
            caller = services.Caller(game.id, True, chosen)
    state = once(lambda: services.state_of(game))
    return render(
        "deed.html",
        game.version,
        game=game,
        edition=edition,
        deed=deed,
        holding=holding,
        names=names,
        lot=Lazy(lambda: _lot(game, edition, deed, acting_for or caller.player_id)),
        expropriation=Lazy(lambda: state().expropriation),
        settings=Lazy(lambda: state().settings),
        wallet_bar=Lazy(lambda: wallet_bar(game, viewer)),
        rent_now=Lazy(lambda: services.rent_line(state(), deed.key)),
        caller=caller,
        actions=Lazy(lambda: deed_actions(game, caller, deed, holding, state(), names)),
        acting_for=acting_for,
        deed_cash_parts=_cash_parts(caller.player_id, holding.owner_id),
        players=[p for p in game.players if not p.bankrupt],
        group=edition.group(deed.group),
        lift=Lazy(lambda: services.lift_cost(edition, deed)),
        others=others,
        can_request_rent=edition.rent.request.enabled,
        laps_left=Lazy(lambda: _laps_left(game, deed)),
        # The last roll, offered as the dice of a utility's rent.
        last_roll=Lazy(lambda: state().last_roll),
        roll_total=Lazy(lambda: roll_total_for(state(), caller.player_id)),
    )


def _cash_parts(acting: str | None, owner: str | None) -> str:
    """The parts (``core.parts``) of the cash the deed's actions are previewed from: the acting
    player's (what they can afford) and the owner's, each followed by a space; none when nobody
    acts here (a banker who does not play, acting for nobody, is shown no actions)."""
    return "".join(f"{cash_of(account)} " for account in dict.fromkeys((acting, owner)) if account)


def _laps_left(game, deed) -> int | None:
    """The laps the owner of this mortgaged deed has left to lift it, where the edition sets
    a deadline in laps (``None`` otherwise)."""
    if game.status != "running" or not holdings_by_deed(game)[deed.key].mortgaged:
        return None
    return services.laps_left(services.state_of(game), deed.key)


@bp.post("/g/<game_id>/deeds/<deed_key>")
def deed_action(game_id, deed_key):
    game, caller = seats.seated(game_id)
    if caller is None:
        abort(403)
    data = forms.payload()
    if forms.run(game.id, caller, data) is not None and data.get("type") == "auction_start":
        # Bidding happens on the wallet (and the table), where the auction is shown live.
        target = "pages.table" if caller.is_banker else "pages.wallet"
        return redirect(url_for(target, game_id=game.id))
    back = {"as": data["player"]} if caller.is_banker and data.get("player") else {}
    return redirect(url_for("deeds.deed_page", game_id=game.id, deed_key=deed_key, **back))


@bp.get("/card/<edition_id>/<deed_key>")
def card(edition_id, deed_key):
    """A printed card's QR: in a game of this edition on this phone, that deed in that game;
    otherwise the deed itself and how to join a game."""
    edition = services.editions().get(edition_id)
    deed = edition.deed(deed_key) if edition else None
    if edition is None or deed is None:
        raise NotFound("unknown_deed", N_("There is no such deed in this edition."))
    for game_id in reversed(seats.known_games()):
        game = services.find_game(game_id)
        if (
            game is not None
            and game.edition_id == edition.id
            and game.status != "finished"
            and (seats.caller(game.id, seats.PLAYER) or seats.caller(game.id, seats.BANKER))
        ):
            return redirect(url_for("deeds.deed_page", game_id=game.id, deed_key=deed.key))
    return render_template(
        "card.html",
        edition=edition,
        deed=deed,
        group=edition.group(deed.group),
        lift=services.lift_cost(edition, deed),
        code=printables.deed_code(edition.id, deed.key),
        calculator=calculator.card_offer(edition, deed),
    )


@bp.get("/g/<game_id>/trade")
def trade_form(game_id):
    game, caller = seats.seated(game_id)
    if caller is None or caller.player_id is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    holdings = holdings_by_deed(game)
    me = next(p for p in game.players if p.id == caller.player_id)
    partners = [p for p in game.players if p.id != me.id and not p.bankrupt]
    state = services.state_of(game)
    closed = services.deed_trades_closed(state)
    sides = {p.id: _tradable(state, p.id) if closed is None else {"deeds": [], "kept": []} for p in [me, *partners]}
    return render_template(
        "trade.html",
        game=game,
        edition=edition,
        me=me,
        partners=partners,
        sides=sides,
        deeds_closed=translate(closed) if closed is not None else None,
        holdings=holdings,
        chosen=request.args.get("with"),
        wallet_bar=wallet_bar(game, caller),
    )


def _tradable(state, player_id) -> dict:
    """The deeds of this player, in board order: ``deeds`` they can hand over, and ``kept``,
    each that cannot go with the reason in words (``services.tradable``)."""
    deeds, kept = services.tradable(state, player_id)
    return {"deeds": deeds, "kept": [(deed, translate(error)) for deed, error in kept]}


@bp.post("/g/<game_id>/trade")
def trade_action(game_id):
    game, caller = seats.seated(game_id)
    if caller is None:
        abort(403)
    response = forms.run(game.id, caller, forms.payload())
    if response is None and request.form.get("type") == "trade_propose":
        partner: dict[str, Any] = {"with": request.form.get("to", "")}  # a keyword Python reserves
        return redirect(url_for("deeds.trade_form", game_id=game.id, **partner))
    if caller.is_banker and request.form.get("back") == "table":
        return redirect(url_for("pages.table", game_id=game.id))
    return redirect(url_for("pages.wallet", game_id=game.id))


def auction_view(game, edition) -> dict | None:
    """The open auction for the pages: the lot, the bid to beat and the seconds left."""
    auction = game.auction
    if not auction:
        return None
    left, over = services.auction_clock(auction["ends_at"])
    high = auction.get("high_bid")
    next_bid = auction["opening_bid"] if high is None else high + auction["min_raise"]
    deed = edition.deed(auction["deed"]) if auction.get("deed") else None
    return {
        **auction,
        "deed_obj": deed,
        "seconds_left": left,
        "next_bid": next_bid,
        "over": over,
    }


QUICK_RAISE_TIMES = (1, 5, 10)


def raise_steps(edition) -> tuple[int, ...]:
    """The quick raises an auction offers besides a typed bid: 1, 5 and 10 times a unit scaled
    to the edition's money. The unit is a fifth of the cheapest deed's price rounded down to a
    round amount (1, 2 or 5 times a power of ten), and never below the auction's minimum raise,
    rounded up to a multiple of it: 10 on the classic board, whose deeds start at 60 (raises of
    10, 50 and 100); 50 for Motopolis (from 300); 50,000 for Petropolis, whose deeds start at
    100,000 and whose bids rise by at least 50,000."""
    fifth = max(min((d.price for d in edition.deeds), default=5) // 5, 1)
    power = 10 ** (len(str(fifth)) - 1)
    unit = max(m * power for m in (1, 2, 5) if m * power <= fifth)
    least = max(edition.auction.min_raise, 1)
    unit = -(-max(unit, least) // least) * least
    return tuple(unit * times for times in QUICK_RAISE_TIMES)


def quick_bids(game, edition, player_id) -> list[dict]:
    """The quick raises this player can bid now in the open auction: each ``{"step",
    "amount", "deed"}``, the amount being the high bid (or the opening bid, before any) plus the
    step. Each is previewed by the bid's own rules, so a raise they refuse (above the player's
    cash where the edition refuses that, the player already holding the high bid, the time up)
    is not offered. In a building auction a raise needs the bidder's deed: offered only when
    one of the player's deeds is concerned."""
    auction = game.auction
    if not auction or not player_id or game.status != "running":
        return []
    deed = None
    if auction["lot"] != "deed":
        holdings = holdings_by_deed(game)
        mine = [key for key in auction["deeds"] if holdings[key].owner_id == player_id]
        if len(mine) != 1:
            return []
        deed = mine[0]
    base = auction["opening_bid"] if auction.get("high_bid") is None else auction["high_bid"]
    state = services.state_of(game)
    caller = services.Caller(game.id, False, player_id)
    out = []
    for step in raise_steps(edition):
        payload = {"type": "bid", "amount": base + step, **({"deed": deed} if deed else {})}
        try:
            services.preview(game, caller, payload, state)
        except BancoError:
            continue  # not offered; no words needed (news draws the raises with no request)
        out.append({"step": step, "amount": base + step, "deed": deed})
    return out


def init_app(app) -> None:
    app.jinja_env.globals["auction_view"] = auction_view
    app.jinja_env.globals["quick_bids"] = quick_bids
    app.jinja_env.globals["trade_side"] = trade_side
