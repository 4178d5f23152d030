"""Forms to actions: the same payload the API takes, read from a posted form."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, request

from .. import services
from ..core.actions import ACTIONS, Field
from ..core.actions.action import AMOUNT, COUNTS, DICE_TOTAL, FLAG, TEXTS, TRADE_SIDE
from ..services import door
from .feed import describe
from .templating import lang

# The kinds a form's text becomes, besides text: digits typed by a person become the number the
# API takes ("dice" is a total for pass_go and pay_rent, the kind of dice for roll: each action's
# declaration says which); a checkbox is "1"; a list is the form's repeated field.
NUMBERS = (AMOUNT, DICE_TOTAL)


def _number(raw: str) -> int | str:
    """Digits typed by a person become the number the API takes; anything else stays text for
    the rules to refuse with a message (a decimal point, a letter)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else raw


def payload() -> dict:
    """The action a form posts: the fields its action declares (``core.actions``), as the API
    would receive them; the form's other inputs are the page's own. Numbers typed by a person
    stay text unless they are digits, so the rules refuse them with a clear message."""
    form = request.form
    data: dict[str, Any] = {name: form[name] for name in ("type", "key") if form.get(name, "") != ""}
    action = ACTIONS.get(data.get("type", ""))
    for field in action.fields if action is not None else ():
        data.update(_field(form, field))
    return data


def _field(form, field: Field) -> dict:
    """One declared field as its form carries it: nothing when the form leaves it out."""
    name, kind = field.name, field.kind
    if kind is FLAG:
        return {name: True} if form.get(name) == "1" else {}
    if kind is TEXTS:
        return {name: form.getlist(name)} if form.getlist(name) else {}
    if kind is COUNTS:
        counts = {key[len("count_") :]: _number(form[key].strip() or "0") for key in form if key.startswith("count_")}
        return {name: counts} if counts else {}
    if kind is TRADE_SIDE:
        return {
            name: {
                "cash": _number(form.get(f"{name}_cash", "").strip() or "0"),
                "deeds": form.getlist(f"{name}_deeds"),
                "jail_cards": _number(form.get(f"{name}_cards", "").strip() or "0"),
            }
        }
    if form.get(name, "") == "":
        return {}
    return {name: _number(form[name].strip())} if kind in NUMBERS else {name: form[name]}


def run(game_id: str, caller, data: dict) -> dict | None:
    """Runs a form's action through the actions' door (``services.door``, as the API's) and
    tells the person what happened, or why nothing did; returns the API's answer, or ``None``
    when refused."""
    reply = door.of(current_app).answer(game_id, caller, data, lang())
    if reply.status >= 400:
        flash(reply.body["error"]["message"], "error")
        return None
    game = services.get_game(game_id)
    entry = services.entry_at(game, reply.body["result"]["entry"])
    flash(describe(entry, {p.id: p.name for p in game.players}, services.edition_of(game)), "ok")
    return reply.body
