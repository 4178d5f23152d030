"""Forms to actions: the same payload the API takes, read from a posted form."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, request

from .. import services
from ..services import door
from .feed import describe
from .templating import lang

FIELDS = (
    "type",
    "key",
    "to",
    "from",
    "reason",
    "payment",
    "player",
    "deed",
    "payer",
    "request",
    "trade",
    "creditor",
    "building",
    "award_to",
    "pending",
    "pot",
    "square",
    "group",
    "place",
    "via",
    "face",
    "card",
)
# "dice" is a total (pass_go, pay_rent) or, for roll, the kind of dice ("2d6", "speed",
# "expropriation"): text that is not digits stays text, so both arrive as the API takes them.
NUMBERS = ("dice", "amount")


def _number(raw: str):
    """Digits typed by a person become the number the API takes; anything else stays text for
    the rules to refuse with a message (a decimal point, a letter)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else raw


def payload() -> dict:
    """The action a form posts: its fields as the API would receive them. Numbers typed by a
    person stay text unless they are digits, so the rules refuse them with a clear message."""
    form = request.form
    data: dict[str, Any] = {name: form[name] for name in FIELDS if form.get(name, "") != ""}
    for name in NUMBERS:
        if form.get(name, "") != "":
            data[name] = _number(form[name].strip())
    if form.get("break_hotel") == "1":
        data["break_hotel"] = True
    if form.get("rerun") == "1":
        data["rerun"] = True
    if form.getlist("deeds"):
        data["deeds"] = form.getlist("deeds")
    counts = {name[len("count_") :]: _number(form[name].strip() or "0") for name in form if name.startswith("count_")}
    if counts:
        data["counts"] = counts
    if data.get("type") == "trade_propose":
        data["give"] = _trade_side("give")
        data["get"] = _trade_side("get")
    return data


def _trade_side(side: str) -> dict:
    form = request.form
    return {
        "cash": _number(form.get(f"{side}_cash", "").strip() or "0"),
        "deeds": form.getlist(f"{side}_deeds"),
        "jail_cards": _number(form.get(f"{side}_cards", "").strip() or "0"),
    }


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
