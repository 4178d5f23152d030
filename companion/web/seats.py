"""Which games this browser holds a seat in: the signed session cookie keeps each game's
player and banker secrets, so a phone stays signed in without any account."""

from __future__ import annotations

import copy
import time

from flask import request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from .. import services
from ..core.errors import BancoError

PLAYER, BANKER = "p", "b"
# Not a secret: the mark of a browser that gave the bank to a phone and goes on as the table screen.
SCREEN = "s"


class SeatCookie(SecureCookieSessionInterface):
    """Flask's signed cookie, not signed and sent again on a live page's own fetches (``banco.js``
    marks them ``X-Banco-Live``) unless they changed it: a table's pages fetch after every
    action, and the cookie's 30 days are renewed by any page the phone opens.

    The same cookie then comes back at every fetch: the last ``KEPT`` cookies whose signature
    held are kept read, with the moment they were signed, so a cookie read again is not checked
    and decoded again (a twentieth of a live fetch). Only a cookie that passed the check is
    kept, under the key that checked it, and one older than the session's lifetime is refused
    as Flask refuses it. Each request gets its own copy to change."""

    KEPT = 4096

    def __init__(self) -> None:
        self._read: dict[tuple, tuple[dict, float]] = {}

    def open_session(self, app, request):
        value = request.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, request)
        key = (app.secret_key, value)
        held = self._read.get(key)
        lifetime = app.permanent_session_lifetime.total_seconds()
        if held is not None and time.time() - held[1] <= lifetime:
            return self.session_class(copy.deepcopy(held[0]))
        serializer = self.get_signing_serializer(app)
        assert serializer is not None  # there is one wherever the app has a secret key
        try:
            data, signed = serializer.loads(value, max_age=int(lifetime), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if len(self._read) >= self.KEPT:
            self._read.clear()
        self._read[key] = (copy.deepcopy(data), signed.timestamp())
        return self.session_class(data)

    def get_cookie_secure(self, app) -> bool:
        """Secure wherever the server's phones come over HTTPS (``SESSION_COOKIE_SECURE``), and on
        any request that came over HTTPS itself (a trusted proxy's word: ``serve.proxies``)."""
        return super().get_cookie_secure(app) or request.is_secure

    def should_set_cookie(self, app, session) -> bool:
        if not session.modified and request.headers.get("X-Banco-Live"):
            return False
        return super().should_set_cookie(app, session)


def _games() -> dict:
    return session.get("games", {})


def remember(game_id: str, role: str, token: str, opened_with: str = "") -> None:
    """Keeps this browser's secret for ``game_id``; ``opened_with`` is the key of the form that
    opened the game, so the same form sent again leads back to it instead of a second game."""
    games = dict(_games())
    games[game_id] = {**games.get(game_id, {}), role: token}
    if opened_with:
        games[game_id]["k"] = opened_with[:100]
    session["games"] = games
    session.permanent = True


def is_screen(game_id: str) -> bool:
    """Whether this browser gave the bank of ``game_id`` to a phone (it is the table screen now)."""
    return SCREEN in _games().get(game_id, {})


def opened_with(key: str) -> str | None:
    """The game this browser opened with the form key ``key``, if any."""
    if not key:
        return None
    return next((game_id for game_id, seat in _games().items() if seat.get("k") == key), None)


def forget(game_id: str, role: str) -> None:
    games = dict(_games())
    seat = dict(games.get(game_id, {}))
    seat.pop(role, None)
    if seat:
        games[game_id] = seat
    else:
        games.pop(game_id, None)
    session["games"] = games


def caller(game_id: str, role: str):
    """The ``Caller`` this browser is in ``game_id`` as ``role``, or ``None``. A secret that
    no longer works (replaced by a rejoin, or the bank handed to a phone) is forgotten; a
    browser whose bank moved to a phone is marked as the table screen."""
    token = _games().get(game_id, {}).get(role)
    if token is None:
        return None
    try:
        who = services.authenticate(game_id, token)
    except BancoError:
        forget(game_id, role)
        if role == BANKER:
            remember(game_id, SCREEN, "1")
        return None
    if (role == BANKER) != who.is_banker:
        return None
    return who


def known_games() -> list[str]:
    return list(_games())


def seated(game_id):
    """The game and this browser's caller in it (its player first, else its banker); the
    caller is ``None`` for a stranger, whom the pages send to join."""
    game = services.get_game(game_id)
    return game, caller(game.id, PLAYER) or caller(game.id, BANKER)
