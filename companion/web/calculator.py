"""The score calculator for games played with paper money: on one phone, pick the edition and
type the players' names, then each player's cash and each deed's owner, buildings and
mortgage (or scan the printed deed cards one after another), and get the final count by the
same code as a game: valuation part by part, ranking, tiebreak and tournament points.

No game is created: the calculation lives in this browser's signed session cookie, compactly
(``KEY``), and only entries the core accepts are ever stored there, so a reload shows them
again and a refused entry changes nothing. With JavaScript the entry page saves itself at each
change (``/calculator/save``), so scanning a card in between loses nothing typed.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, NamedTuple

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, session, url_for

import printables

from .. import services
from ..core.errors import N_, BadInput, BancoError
from ..services import calculator as calc
from .errors import translate
from .results import part_name
from .speaking import gettext as _
from .templating import text

bp = Blueprint("calculator", __name__)

# session[KEY] = {"e": edition id, "p": [[name, cash or null], ...],
#                 "d": {deed key: [owner index, small, big 0/1, mortgaged 0/1]} (owned deeds only),
#                 "v": version (one more at each store), "l": the player last chosen on a card}
KEY = "calculator"


class Calculation(NamedTuple):
    edition: Any  # the core's Edition, which the web layer knows only through services
    players: list  # [name, cash or None]
    deeds: dict  # deed key -> (owner, small, big, mortgaged)
    version: int
    last: int | None

    @property
    def names(self) -> list[str]:
        return [p[0] for p in self.players]

    @property
    def complete(self) -> bool:
        return all(p[1] is not None for p in self.players)

    def entries(self) -> list[tuple]:
        return [(key, *values) for key, values in self.deeds.items()]


def _deeds_of(stored: dict) -> dict:
    return {key: (v[0], v[1], bool(v[2]), bool(v[3])) for key, v in stored.items()}


def load() -> Calculation | None:
    """This browser's calculation, or ``None``. One the core no longer accepts (its edition
    gone or changed) is forgotten."""
    data = session.get(KEY)
    if not data:
        return None
    try:
        edition = services.editions()[data["e"]]
        found = Calculation(
            edition, [list(p) for p in data["p"]], _deeds_of(data["d"]), int(data.get("v", 0)), data.get("l")
        )
        calc.check(edition, [tuple(p) for p in found.players], found.entries())
    except (BancoError, KeyError, TypeError, ValueError, IndexError, AttributeError):
        session.pop(KEY, None)
        return None
    return found


KEEP = object()


def store(edition, players, deeds, previous: Calculation | None, last=KEEP) -> int:
    """Keeps entries the core accepted (``last``: the player a card went to); returns the new
    version."""
    version = (previous.version if previous else 0) + 1
    if last is KEEP:
        last = previous.last if previous else None
    session[KEY] = {
        "e": edition.id,
        "p": [[name, cash] for name, cash in players],
        "d": {
            key: [owner, small, int(big), int(mortgaged)]
            for key, owner, small, big, mortgaged in deeds
            if owner is not None
        },
        "v": version,
        "l": last,
    }
    session.permanent = True
    return version


def say(error: BancoError) -> str:
    """The refusal in the reader's language, the edition's building names in it too."""
    error.params = {k: text(v) if callable(v) else v for k, v in error.params.items()}
    return translate(error)


# --- reading the entry form ------------------------------------------------------------------

GROUPED = re.compile(r"\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+")


def parse_cash(raw: str):
    """A typed cash: a whole number (thousands may be grouped: 1.500, 1,500), ``None`` when
    empty; anything else is handed on as typed, for the core to refuse by name."""
    typed = (raw or "").strip()
    if not typed:
        return None
    if re.fullmatch(r"[+-]?\d{1,15}", typed):
        return int(typed)
    if GROUPED.fullmatch(typed):
        return int(re.sub(r"\D", "", typed))
    return typed


def parse_owner(raw: str):
    if raw == "":
        return None
    return int(raw) if re.fullmatch(r"\d{1,2}", raw) else raw


def parse_building(raw: str):
    """``(small, big)`` from the buildings select: ``"3"``, ``"big"``."""
    if raw in ("", "0"):
        return 0, False
    if raw == "big":
        return 0, True
    return (int(raw), False) if re.fullmatch(r"\d{1,3}", raw) else (raw, False)


FIELD = re.compile(r"(owner|build|mortgaged)-(.+)")


def read_form(edition, names: list[str]):
    """The entries as typed: ``players`` (name, cash) and ``deeds`` for the core, and ``typed``
    to show them again. A deed whose owner field comes twice is entered twice (and refused)."""
    form = request.form
    typed: dict[str, Any] = {
        "cash": [form.get(f"cash-{i}", "") for i in range(len(names))],
        "owner": {},
        "build": {},
        "mortgaged": {},
    }
    players = [(name, parse_cash(typed["cash"][i])) for i, name in enumerate(names)]
    keys = [d.key for d in edition.deeds]
    keys += list(dict.fromkeys(m.group(2) for f in form if (m := FIELD.fullmatch(f)) and m.group(2) not in keys))
    deeds = []
    for key in keys:
        owners = form.getlist(f"owner-{key}") or [""]
        build = form.get(f"build-{key}", "0")
        mortgaged = form.get(f"mortgaged-{key}") == "1"
        typed["owner"][key], typed["build"][key], typed["mortgaged"][key] = owners[0], build, mortgaged
        small, big = parse_building(build)
        for owner in owners:
            owner = parse_owner(owner)
            if owner is not None or small or big or mortgaged or len(owners) > 1:
                deeds.append((key, owner, small, big, mortgaged))
    return players, deeds, typed


def typed_from(found: Calculation) -> dict:
    """The stored entries as the form shows them."""
    typed: dict[str, Any] = {
        "cash": ["" if cash is None else str(cash) for _, cash in found.players],
        "owner": {},
        "build": {},
        "mortgaged": {},
    }
    for key, (owner, small, big, mortgaged) in found.deeds.items():
        typed["owner"][key] = str(owner)
        typed["build"][key] = "big" if big else str(small)
        typed["mortgaged"][key] = mortgaged
    return typed


def building_options(edition) -> list[tuple[str, str]]:
    """The buildings select: none, each count of small ones, the big one."""
    b = edition.buildings
    options = [(str(n), f"{n} {text(b.small if n == 1 else b.small_plural)}") for n in range(0, b.max_small + 1)]
    if b.max_small == 0:
        options = [("0", _("nothing"))]  # no small buildings at all: none, or the big one
    if b.big is not None and calc.builds_big(edition):
        options.append(("big", text(b.big)))
    return options


def _groups(edition) -> list[dict]:
    out = []
    for group in edition.groups:
        deeds = []
        for deed in edition.deeds_in_group(group.key):
            deeds.append(
                {
                    "deed": deed,
                    "buildable": group.kind == "street" and deed.buildable and deed.building_cost is not None,
                    "mortgageable": calc.mortgageable(edition, deed),
                }
            )
        out.append({"group": group, "deeds": deeds})
    return out


def problems_of(error: BancoError) -> list[dict]:
    """Each wrong entry a refusal names, in words: ``{"message", "code", "key", "player"}``
    (``key`` a deed's, ``player`` an index in the entries; either may be ``None``). The core
    names every wrong entry at once (``WrongEntries.problems``); any other refusal is one."""
    problems = getattr(error, "problems", None) or [error]
    return [
        {"message": say(p), "code": p.code, "key": p.params.get("key"), "player": p.params.get("player")}
        for p in problems
    ]


def _entries_page(found: Calculation, typed: dict, error: BancoError | None = None, status: int = 200):
    problems = problems_of(error) if error is not None else []
    return render_template(
        "calculator_entries.html",
        found=found,
        edition=found.edition,
        typed=typed,
        groups=_groups(found.edition),
        options=building_options(found.edition),
        errors=[p["message"] for p in problems],
        wrong_keys={p["key"] for p in problems if p["key"] is not None},
        wrong_players={p["player"] for p in problems if p["player"] is not None},
    ), status


# --- the pages -------------------------------------------------------------------------------


@bp.get("/calculator")
def start():
    found = load()
    default = found.edition.id if found else current_app.config["DEFAULT_EDITION"]
    return render_template(
        "calculator.html",
        found=found,
        editions=list(services.editions().values()),
        chosen=default,
        names=[],
        error=None,
    )


@bp.post("/calculator")
def start_new():
    found = load()
    names = [n for n in request.form.getlist("name") if n.strip()][:20]
    edition_id = request.form.get("edition", "")
    edition = services.editions().get(edition_id)
    try:
        if edition is None:
            raise BadInput("unknown_edition", N_("There is no such edition."))
        names = calc.check_names(edition, names)
    except BancoError as error:
        return render_template(
            "calculator.html",
            found=found,
            editions=list(services.editions().values()),
            chosen=edition_id,
            names=names,
            error=say(error),
        ), 400
    store(edition, [(name, None) for name in names], [], found, last=None)
    return redirect(url_for("calculator.entries"), code=303)


@bp.get("/calculator/entries")
def entries():
    found = load()
    if found is None:
        return redirect(url_for("calculator.start"))
    code = request.args.get("code", "").strip()
    if code:
        key = printables.deed_key_for_code(dict(found.edition.raw), code)
        if key is not None:
            return redirect(url_for("deeds.card", edition_id=found.edition.id, deed_key=key))
        flash(_("No deed of this game has the code %(code)s.", code=code.upper()[:12]), "error")
    return _entries_page(found, typed_from(found))


@bp.post("/calculator/entries")
def count():
    """Counts the entries as typed: stored and shown as a ranking, or refused, naming the entry,
    and shown again as typed with nothing stored."""
    found = load()
    if found is None:
        return redirect(url_for("calculator.start"), code=303)
    players, deeds, typed = read_form(found.edition, found.names)
    try:
        calc.count(found.edition, players, deeds)
    except BancoError as error:
        return _entries_page(found, typed, error, 400)
    store(found.edition, players, deeds, found)
    return redirect(url_for("calculator.result"), code=303)


@bp.post("/calculator/save")
def save():
    """The entry page saving itself at each change (JavaScript): the whole form, stored if the
    core accepts it (a cash not typed yet is fine), else refused with nothing stored: ``error``,
    ``key`` and ``player`` say the first wrong entry, ``errors`` every one."""
    found = load()
    if found is None:
        return jsonify({"error": _("This phone has no calculation open."), "version": None}), 409
    players, deeds, _typed = read_form(found.edition, found.names)
    try:
        calc.check(found.edition, players, deeds)
    except BancoError as error:
        problems = problems_of(error)
        return jsonify(
            {
                "error": problems[0]["message"],
                "key": problems[0]["key"],
                "player": problems[0]["player"],
                "errors": problems,
                "version": found.version,
            }
        ), 400
    return jsonify({"version": store(found.edition, players, deeds, found)})


@bp.get("/calculator/version")
def version():
    """Which version of the entries this browser holds: a page drawn from an older one (a card
    was added on another tab) draws itself again."""
    found = load()
    response = jsonify({"version": found.version if found else None})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/calculator/result")
def result():
    found = load()
    if found is None:
        return redirect(url_for("calculator.start"))
    if not found.complete:
        return redirect(url_for("calculator.entries"))
    score = calc.count(found.edition, [tuple(p) for p in found.players], found.entries())
    rows = score["standings"]
    winners = [r for r in rows if r["rank"] == 1]
    tied = [(a, b) for a, b in itertools.pairwise(rows) if a["total"] == b["total"]]
    return render_template(
        "calculator_result.html",
        found=found,
        edition=found.edition,
        score=score,
        winners=winners,
        part_name=part_name,
        broken=[(a["name"], b["name"]) for a, b in tied if a["rank"] != b["rank"]],
        shared=[(a["name"], b["name"]) for a, b in tied if a["rank"] == b["rank"]],
    )


@bp.post("/calculator/card/<edition_id>/<deed_key>")
def add_card(edition_id, deed_key):
    """A scanned deed card given to a player: that deed's owner set, everything else kept; back
    to the card, ready for the next one."""
    found = load()
    edition = services.editions().get(edition_id)
    deed = edition.deed(deed_key) if edition else None
    if edition is None or deed is None:
        abort(404)
    back = redirect(url_for("deeds.card", edition_id=edition.id, deed_key=deed.key), code=303)
    if found is None or found.edition.id != edition.id:
        flash(_("This phone has no calculation open for %(edition)s.", edition=text(edition.name)), "error")
        return back
    owner = parse_owner(request.form.get("owner", ""))
    current = found.deeds.get(deed.key)
    if current is not None and current[0] == owner:
        return back  # the same tap twice
    deeds = found.entries() + [(deed.key, owner, 0, False, False)]
    try:
        if owner is None:
            raise BadInput(
                "invalid_owner", N_("The owner of %(deed)s is not one of the players."), deed=deed.name, key=deed.key
            )
        calc.check(found.edition, [tuple(p) for p in found.players], deeds)
    except BancoError as error:
        flash(say(error), "error")
        return back
    store(found.edition, found.players, deeds, found, last=owner)
    flash(_("%(deed)s goes to %(name)s in the calculation.", deed=deed.name, name=found.names[owner]), "ok")
    return back


def card_offer(edition, deed) -> dict | None:
    """What a deed card's page offers when this browser has a calculation of its edition: the
    players to give the deed to (the last one chosen first in line), or its owner already."""
    found = load()
    if found is None or found.edition.id != edition.id:
        return None
    owner = found.deeds.get(deed.key, (None,))[0]
    return {
        "players": list(enumerate(found.names)),
        "owner": None if owner is None else found.names[owner],
        "last": found.last,
        "complete": found.complete,
    }
