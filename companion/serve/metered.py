"""Every request the gate answers, counted by kind and status as its answer begins (a live
stream as it opens): the host's view of what the server does (``companion.metrics``).

The kinds: ``action`` (the API's actions, answered on the loop), ``stream`` (a live page's
stream, an event stream opened), ``operator`` (health, readiness, metrics), ``static``
(the pages' files), ``api`` (the rest of ``/api/``), ``page``. A connection turned away
before its request reached the gate (past its address's share, the server full, a head too
large or unreadable) is counted among the refusals (``banco_refusals``) instead.
"""

from __future__ import annotations

from .gate import Gate

OPERATOR_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class Metered:
    """The ASGI application the server runs: ``gate``, each answer counted."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.metrics = gate.metrics

    async def __call__(self, scope, receive, send) -> None:
        kind = self.kind(scope)

        async def counted(message) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                held = status == 200 and kind in ("page", "api") and _stream(message["headers"])
                self.metrics.answered("stream" if held else kind, status)
            await send(message)

        await self.gate(scope, receive, counted)

    def kind(self, scope) -> str:
        """The request's kind, by its method and address; a GET that becomes a stream is told
        apart once its answer begins."""
        path = scope["path"]
        if scope["method"] == "POST" and self.gate._action_route(path) is not None:
            return "action"
        if path in OPERATOR_PATHS:
            return "operator"
        if path.startswith("/static/"):
            return "static"
        if path.startswith("/api/"):
            return "api"
        return "page"


def _stream(headers) -> bool:
    for name, value in headers:
        if name == b"content-type":
            return value.startswith(b"text/event-stream")
    return False
