"""Who may add editions to this server (import a file, save from the editor).

By default anyone who can open the home page: the server is on the home network. A hosted
server sets ``BANCO_HOST_PASSWORD`` (``HOST_PASSWORD``): then the API asks for it as
``Authorization: Bearer <password>`` and the home page's import form asks for it.
"""

from __future__ import annotations

import hmac

from flask import current_app

from ..core.errors import N_, Unauthorized
from .ratelimit import count_attempt


def password_required() -> bool:
    return bool(current_app.config.get("HOST_PASSWORD"))


def require_host(given: str | None) -> None:
    """Refuses (401 ``host_password_required``) when the server has a host password and
    ``given`` is not it."""
    expected = current_app.config.get("HOST_PASSWORD")
    if not expected:
        return
    count_attempt()  # a password can be guessed: as many tries as join codes
    if given is None or not hmac.compare_digest(given.encode("utf-8"), str(expected).encode("utf-8")):
        raise Unauthorized("host_password_required", N_("This server asks for the host password to add editions."))
