"""The phone's "Where did I land?": the board in board order, found by typing part of a name,
and one square's sheet with the move that applies there and its amount, worked out by the
rules from the edition's data (``services.board`` places the squares; a deed's moves are the
deed page's own previews, a computed square's its policy's offer). The sheet names the move and
its amount: tapping it is the confirmation, so buying or paying rent takes three taps from the
wallet."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from .. import services
from ..core.errors import N_, NotFound
from . import forms, seats
from .deeds import deed_actions, holdings_by_deed, searchable
from .dice import roll_total_for
from .errors import translate
from .pages import game_view
from .regions import Lazy, once, render
from .speaking import gettext as _
from .templating import jail_name, lang, money
from .wallet_bar import wallet_bar

bp = Blueprint("landing", __name__)

NO_COLOUR = "#8f8774"  # a square of no colour group: the fields' edge grey


def _player(game_id):
    """The game and the caller's seat as a player, or ``None`` for anyone else."""
    game = services.get_game(game_id)
    caller = seats.caller(game.id, seats.PLAYER)
    return game, caller


@bp.get("/g/<game_id>/land")
def board(game_id):
    with services.reading():  # owners and cash of one instant
        return _board(game_id)


def _board(game_id):
    game, caller = _player(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    query = request.args.get("q", "").strip()[:40]
    return render(
        "landing.html",
        game.version,
        game=game,
        edition=edition,
        caller=caller,
        query=query,
        rows=Lazy(lambda: _rows(game, edition, {**names, caller.player_id: _("Yours")}, query)),
        placed=services.board_is_placed(edition),
        wallet_bar=Lazy(lambda: wallet_bar(game, caller)),
    )


def _rows(game, edition, names, query) -> list[dict]:
    """Each square of the board for the list: its name and colour, a line of what is there (a
    deed's price or owner, a tax's amount), the words the search reads, and ``hidden`` when it
    does not match ``query``."""
    holdings = holdings_by_deed(game)
    wanted = searchable(query)
    out = []
    for space in services.board_spaces(edition):
        name, colour, note, group = _label(edition, space), NO_COLOUR, "", ""
        if space.deed is not None:
            holding, found = holdings[space.key], edition.group(space.deed.group)
            colour, group = found.color, found.name(lang())
            owner = names.get(holding.owner_id, "")
            note = owner or _("For sale · %(amount)s", amount=money(space.deed.price, edition))
            if holding.mortgaged:
                note = _("%(owner)s · mortgaged", owner=owner)
        elif space.payment is not None:
            note = money(space.payment.amount, edition)
        words = searchable(" ".join((name, group, note)))
        out.append(
            {
                "space": space,
                "name": name,
                "colour": colour,
                "note": note,
                "search": words,
                "hidden": bool(wanted) and wanted not in words,
            }
        )
    return out


def _label(edition, space) -> str:
    """A square's name as the board prints it, in the reader's language."""
    if space.deed is not None:
        return space.deed.name
    if space.payment is not None:
        return space.payment.name(lang())
    if space.square is not None:
        return space.square.name(lang())
    if space.card is not None:
        return space.card.name(lang())
    if space.kind == "free_parking":
        return _("Free Parking")
    if space.kind == "train":
        return edition.train.name(lang())
    if space.kind == "start":
        return _("GO")
    if space.kind == "jail":
        return _("%(jail)s, or just visiting", jail=jail_name(edition).capitalize())
    return _("Go to %(jail)s", jail=jail_name(edition))


@bp.get("/g/<game_id>/land/<kind>/<key>")
def square(game_id, kind, key):
    with services.reading():  # the square, its owner and what the player can afford of one instant
        return _square(game_id, kind, key)


def _square(game_id, kind, key):
    game, caller = _player(game_id)
    if caller is None:
        return redirect(url_for("pages.join", code=game.join_code))
    edition = services.edition_of(game)
    space = services.board_space(edition, kind, key)
    if space is None:
        raise NotFound("unknown_square", N_("There is no such square on this board."))
    names = {p.id: p.name for p in game.players}
    view = game_view(game, caller)
    state = once(lambda: services.state_of(game))
    holding = holdings_by_deed(game).get(key) if space.deed is not None else None
    me = next(p for p in game.players if p.id == caller.player_id)
    group = edition.group(space.deed.group) if space.deed is not None else None
    return render(
        "landing_square.html",
        game.version,
        **view,
        me=me,
        space=space,
        name=_label(edition, space),
        colour=group.color if group else NO_COLOUR,
        group=group,
        holding=holding,
        moves=Lazy(lambda: _deed_moves(game, caller, space, holding, state(), names)),
        entry=Lazy(lambda: _square_offer(game, caller, space, state())),
        roll_total=Lazy(lambda: roll_total_for(state(), caller.player_id)),
        wallet_bar=Lazy(lambda: wallet_bar(game, caller)),
    )


def _deed_moves(game, caller, space, holding, state, names) -> list[dict]:
    """What landing on this deed asks of the caller now, previewed as on the deed's page: the
    moves whose offer is a landing's (``core.actions.Offer.landing``: buy or auction a free deed,
    pay the rent of another's, by the dice where the rent goes by them, then try to take it where
    the edition has expropriations), or why not; nothing on the caller's own deed. The deed's
    other moves stay on its own page."""
    if space.deed is None or game.status != "running" or holding.owner_id == caller.player_id:
        return []
    moves = deed_actions(game, caller, space.deed, holding, state, names)
    return [m for m in moves if m["landing"]]


def _square_offer(game, caller, space, state) -> dict | None:
    """A computed square's offer for the caller now, as the wallet's squares list has it."""
    if space.square is None or game.status != "running":
        return None
    offer = next(o for o in services.square_offers(game, caller, state) if o.square.key == space.key)
    return {
        "square": offer.square,
        "amount": offer.amount,
        "refusal": translate(offer.refused) if offer.refused else None,
        "deeds": offer.deeds,
    }


@bp.post("/g/<game_id>/land/<kind>/<key>")
def square_action(game_id, kind, key):
    """The move tapped on a square's sheet: done, the wallet again (a train ride, the sheet of
    the deed it stopped on, to buy or auction it); refused, the sheet again with the reason."""
    game, caller = _player(game_id)
    if caller is None:
        abort(403)
    reply = forms.run(game.id, caller, forms.payload())
    if reply is None:
        return redirect(url_for("landing.square", game_id=game.id, kind=kind, key=key))
    stops_on = reply["result"].get("stops_on")
    if stops_on:
        return redirect(url_for("landing.square", game_id=game.id, kind="deed", key=stops_on))
    return redirect(url_for("pages.wallet", game_id=game.id))
