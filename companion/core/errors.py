"""The two ways the core says no.

Messages are English source strings with ``%(name)s`` placeholders; the web layer translates
them (they are marked for extraction with ``N_``, or ``Np_`` with a plural) and fills in
``params``. The core never imports the translation machinery, so it stays plain Python.
"""

from typing import Any


def N_(message: str) -> str:
    """Marks a message for translation without translating it (Babel extracts ``N_``)."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message that goes by a number, its singular and its plural, for translation
    without translating it (Babel extracts ``Np_`` as one entry with both forms)."""
    return singular, plural


class Money(int):
    """An amount of money in a refusal's message: worded with the edition's currency (``€ 1.500``)
    where the refusal knows it (``BancoError.currency``), else as the number alone."""

    __slots__ = ()


class BancoError(Exception):
    """Base of every refusal: a stable ``code`` for programs, a message for people. Its
    ``currency`` is the symbol of the edition the refusal was judged in, set by whoever ran the
    rules (they judge one game's state), so that its ``Money`` params are worded as money."""

    status = 400
    currency: str | None = None

    def __init__(self, code: str, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.code = code
        self.message = message
        self.params = params


class BadInput(BancoError):
    """The request itself is malformed or out of range (HTTP 400)."""

    status = 400


class RuleViolation(BancoError):
    """The request is well formed but the rules refuse it now (HTTP 409)."""

    status = 409


class NotFound(BancoError):
    """An unknown game, player, deed or trade (HTTP 404)."""

    status = 404


class Forbidden(BancoError):
    """The caller is known but may not do this (HTTP 403)."""

    status = 403


class Unauthorized(BancoError):
    """No credentials, or credentials that belong to no one in this game (HTTP 401)."""

    status = 401
