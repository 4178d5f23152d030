"""What a host's tools ask the server (docs/operations.md), beside the pages and the API:

- ``GET /healthz``: the process is up and answers; it reads nothing.
- ``GET /readyz``: whether it can serve now: its database answers, its tables are at this
  code's revision, and it is not stopping (``services.health``); 503 with the reason when not,
  so a load balancer sends the phones elsewhere. A server still warming its templates
  (``web.warm``) is ready: it answers everything meanwhile, a little slower.
- ``GET /metrics``: the server's counters in Prometheus' text format (``companion.metrics``),
  only to a caller giving ``BANCO_METRICS_TOKEN`` as ``Authorization: Bearer``; to anyone else
  it is an address like any unknown one: 404, whatever the method.

They answer in JSON (the metrics in Prometheus' text) for programs, and are not part of the
API's document (``/api/v1``): no phone calls them.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import NotFound

from .. import services
from ..extension import banco
from ..metrics import CONTENT_TYPE
from ..services.door import bearer

bp = Blueprint("operations", __name__)

# Every method: to the public the metrics' address answers as an unknown one does, which would
# answer a POST 404 too, not 405.
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _no_store(body: dict, status: int = 200) -> Response:
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz():
    return _no_store({"status": "up"})


@bp.get("/readyz")
def readyz():
    if banco().stopping.is_set():
        return _no_store({"ready": False, "reason": "stopping"}, 503)
    found = services.readiness()
    body: dict = {"ready": found.ready}
    if not found.ready:
        body["reason"] = found.reason
    if found.reason != "database_unreachable":
        body["database_revision"] = found.database
    body["code_revision"] = found.code
    return _no_store(body, 200 if found.ready else 503)


@bp.route("/metrics", methods=ANY_METHOD, provide_automatic_options=False)
def metrics():
    if request.method not in ("GET", "HEAD") or not _scraper():
        raise NotFound()  # as an unknown address answers
    response = Response(banco().metrics.exposition(), content_type=CONTENT_TYPE)
    response.headers["Cache-Control"] = "no-store"
    return response


def _scraper() -> bool:
    """Whether the request gives the host's metrics token (none set: no one does), compared in
    constant time so its answer's timing tells nothing of the token."""
    token = current_app.config.get("METRICS_TOKEN") or ""
    given = bearer(request.headers.get("Authorization", ""))
    if not token or given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("utf-8"))
