"""The signed session cookie, read once and kept (``web.seats.SeatCookie``): a live page sends
the same cookie at every fetch. What is kept must never be more than what checking it again
would give: the same seats, nothing a request changed, nothing expired, nothing forged."""

from __future__ import annotations

import time

from companion.web import seats


def _open(app, cookie: str):
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        from flask import request

        return app.session_interface.open_session(app, request)


def _signed(app, data: dict) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


def test_a_cookie_read_again_is_read_from_memory_as_it_was_signed(app, monkeypatch):
    cookie = _signed(app, {"games": {"g1": {"p": "secret"}}, "_permanent": True})
    first = _open(app, cookie)
    checked = []
    real = seats.SeatCookie.get_signing_serializer
    monkeypatch.setattr(seats.SeatCookie, "get_signing_serializer", lambda self, a: checked.append(1) or real(self, a))
    again = _open(app, cookie)
    assert dict(again) == dict(first) == {"games": {"g1": {"p": "secret"}}, "_permanent": True}
    assert checked == []  # not checked nor decoded again
    again["games"]["g1"]["p"] = "changed by one request"
    again["games"]["g2"] = {"b": "x"}
    assert dict(_open(app, cookie)) == {"games": {"g1": {"p": "secret"}}, "_permanent": True}


def test_a_kept_cookie_past_the_sessions_lifetime_is_refused(app, monkeypatch):
    cookie = _signed(app, {"games": {"g1": {"p": "secret"}}})
    assert dict(_open(app, cookie)) == {"games": {"g1": {"p": "secret"}}}
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert dict(_open(app, cookie)) == {}


def test_a_forged_or_foreign_cookie_is_never_kept(app):
    cookie = _signed(app, {"games": {"g1": {"p": "secret"}}})
    payload, _, signature = cookie.rpartition(".")
    forged = f"{payload}.{'A' * len(signature)}"
    assert dict(_open(app, forged)) == {} and dict(_open(app, forged)) == {}
    secret = app.secret_key
    app.secret_key = "another key"
    try:
        assert dict(_open(app, cookie)) == {}  # kept under the key that checked it, not this one
    finally:
        app.secret_key = secret
