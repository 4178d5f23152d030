"""Moves sent by the page's script (``static/js/outbox.js``) rather than by the browser.

The script posts the very form the browser would, to the same address, through the same door
(``forms.run``): the move is judged, done or refused, and its words flashed as for any form.
Only the answer differs: where the browser would be redirected, the script is told where the
page goes next (``{"location", "said"}``, JSON), so it updates the page in place and a lost
connection never leaves the player on the browser's error page. A move that waited offline
is sent again with its key: the door answers a repeated key with its first answer.

Before it asks "Pay Carla €50?", the script asks whether the move can happen at all
(``check``): the rules judge it on the game as it stands, writing nothing, and a refusal is
named under the form instead of confirmed and then refused.
"""

from __future__ import annotations

from babel.numbers import format_decimal
from flask import Blueprint, Flask, Response, abort, jsonify, request, session

from .. import services
from ..core.errors import BancoError
from . import forms, seats
from .errors import translate
from .speaking import gettext as _
from .templating import lang

bp = Blueprint("sent", __name__)

SENT = "X-Banco-Sent"  # the header the script's posts carry
LATE = "X-Banco-Late"  # a move sent once the Wi-Fi came back: the script shows what it did itself
REDIRECTS = (301, 302, 303, 307, 308)


def answered(response: Response) -> Response:
    """A redirect answering a post the script sent, as JSON: ``location``, where the page goes
    next, and ``said``, the last words flashed for it (``{"tone", "text"}``: what the move did,
    or why nothing happened), left in the session for the next page to show as well. Any other
    answer goes as it is."""
    if request.method != "POST" or request.headers.get(SENT) != "1" or response.status_code not in REDIRECTS:
        return response
    # A late move's words are the script's to show, beside the move that waited; a move sent
    # at once has them shown by the page it leads to, as the form's post would.
    flashed = (session.pop("_flashes", None) if request.headers.get(LATE) == "1" else session.get("_flashes")) or []
    said = {"tone": flashed[-1][0], "text": flashed[-1][1]} if flashed else None
    answer = jsonify({"location": response.location, "said": said})
    answer.headers["Cache-Control"] = "no-store"
    for name in ("Set-Cookie", "Vary"):  # the seat's cookie, and what the redirect varied by
        for value in response.headers.getlist(name):
            answer.headers.add(name, value)
    return answer


@bp.post("/g/<game_id>/check")
def check(game_id):
    """Whether the move a form would post (its fields, read as the form's post reads them) can
    happen now: ``{"ok": true}``, or ``{"ok": false, "error": {"code", "message"}}`` in the
    reader's language, the rules' own refusal, with the edition's currency. Nothing is written.
    A move the rules cannot judge ahead (the journal's, the clock's) is ``{"ok": true,
    "checked": false}``: only sending it tells. Judged for the seat the form posts as: the
    banker's (``?seat=banker``, the table's forms), else this phone's player first, as the
    wallet's and the deeds' forms are. Refuses (403) a phone with no such seat in the game."""
    game, caller = seats.seated(game_id)
    if request.args.get("seat") == "banker":
        caller = seats.caller(game.id, seats.BANKER)
    if caller is None:
        abort(403)
    data = forms.payload()
    if data.get("type") not in services.ACTIONS:
        return _no_store({"ok": True, "checked": False})
    try:
        with services.reading():
            services.preview(game, caller, data)
    except BancoError as error:
        return _no_store({"ok": False, "error": {"code": error.code, "message": translate(error)}})
    return _no_store({"ok": True, "checked": True})


def words(edition=None) -> dict:
    """What the script says by itself, in the reader's language (``base.html`` holds it as
    JSON): the marks of a page that lost the bank, the moves waiting for the Wi-Fi, and the
    amounts it refuses before any confirmation, in ``edition``'s money (its currency, its
    largest payment) where the page is a game's."""
    said: dict[str, str | int] = {
        "stale": _("not up to date"),
        "waiting": _("Waiting for the Wi-Fi: sent as soon as the bank can be reached."),
        "withdraw": _("Withdraw"),
        "withdrawn": _("Withdrawn, nothing was sent: %(what)s"),
        "sending": _("Sending…"),
        "sentLate": _("Sent now that the connection is back: %(said)s"),
        "refusedLate": _("Sent now that the connection is back, and refused: %(said)s"),
        "notSent": _("Not sent: %(why)s"),
        "empty": _("Enter an amount."),
        "digits": _("Enter the amount in digits only, in whole units."),
        "decimals": _("Amounts are whole units: no decimals."),
        "positive": _("The amount must be more than zero."),
        "most": _("One payment can be at most %(max)s."),
        "short": _("You have %(cash)s: %(missing)s missing."),
        "pick": _("Choose one of these first."),
        "group": format_decimal(1000, locale=lang())[1:2],
    }
    currency, most = getattr(edition, "currency_symbol", None), getattr(edition, "max_amount", None)
    if isinstance(currency, str) and isinstance(most, int):  # a game's edition (not the editor's draft)
        said.update(currency=currency, max=most)
    return said


def _no_store(body: dict) -> Response:
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.after_request(answered)
    app.jinja_env.globals["outbox_words"] = words
