"""Settings: defaults first, then the environment, then a test's overrides.

``SECRET_KEY`` is generated once and kept under ``instance/`` when the environment does not
set it, so signed-in phones stay signed in across restarts of the server.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import secrets
import socket
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent

# The largest request body the server reads (API JSON and forms alike); anything larger is
# refused (413) before it is read. The largest legitimate request (a trade, a new game of 8)
# is a few kilobytes; an edition file is about 12 KB.
MAX_BODY_BYTES = 64 * 1024
# The largest game file an import reads (``POST /api/v1/games/import`` and the home page's
# upload): the whole journal of a game, each entry with what it changed (docs/gamefile.md has
# the sizes measured). Only those two routes read this much.
MAX_GAME_FILE_BYTES = 32 * 1024 * 1024
# Game files one server process imports at once (BANCO_IMPORTS_AT_ONCE); another is told to come
# back (503 busy_importing): a file near the limit builds about 300 MB while it is checked.
IMPORTS_AT_ONCE = 2
# The threads that answer the app's requests; live streams take none (they wait on the event loop),
# printed sheets have their own (``serve.mount``). The app's work holds Python's lock but for
# the database's calls, and every such call hands the lock to another waiting thread: with a
# table's 10 pages fetching at once, more threads mean more switches between them for the same
# work (measured with ``bench/bench_pages.py``: docs/benchmarks.md). More threads only wait longer in turn.
THREADS = 4
# Connections the server holds at once (a club evening: 400 phones, a stream each, and their requests).
CONNECTION_LIMIT = 10000
# Of those, the connections one client address may hold (0: no limit), so one address cannot
# take them all: a browser opens at most 6 to one server, so this is dozens of devices behind
# one address (a NAT), and forty addresses to fill the server (``serve.shares``).
CONNECTIONS_PER_ADDRESS = 256
# Server processes (BANCO_WORKERS): one suits a home table; a club runs several on PostgreSQL.
WORKERS = 1
# Database connections each server process keeps open, all of them: a request waits for one
# when all are taken. Opened once and kept, never one per busy moment: a new SQLite connection
# reads the whole schema again before its first statement, a new PostgreSQL one starts a backend.
DATABASE_CONNECTIONS = 15
# New games, tournaments and editions one client address may store in 10 minutes, each kind
# counted apart (0: no limit): a table opens a game or two an evening, so only a script storing
# them by the hundred is slowed (``web.ratelimit``).
CREATIONS_PER_ADDRESS = 30
# Editions imported on this server, at most (0: no limit): a file is about 12 KB.
IMPORTED_EDITIONS_LIMIT = 100
# Live streams one client address may hold: each phone on a LAN has its own address, and a
# phone holds one per open page; past this, that address is refused (429) and the others still served.
STREAMS_PER_ADDRESS = 64
# Entries of the journal one answer of ``GET /api/v1/games/{id}/events`` holds; a client asks
# again from the last version it got while the answer says ``"more": true``.
EVENTS_PAGE = 500
EVENTS_PAGE_LEAST = 100

# How long a server told to stop serves on while ``GET /readyz`` says it is not ready
# (BANCO_DRAIN_SECONDS), so a load balancer asking every few seconds sends new phones elsewhere
# before it stops listening. None on a home table: no balancer asks, and Ctrl+C should be quick.
DRAIN_SECONDS = 0
DRAIN_SECONDS_MOST = 300
# The shortest BANCO_METRICS_TOKEN taken: the token is all that keeps the metrics from the public.
METRICS_TOKEN_LEAST = 16

# The server's own backups of a SQLite database (``companion.backups``): a copy every so many
# minutes while games change (0: none), the newest so many kept: 24 copies 10 minutes apart
# reach four hours back, a whole evening's game.
BACKUP_MINUTES = 10
BACKUPS_KEPT = 24

# On every answer, the app's (``web.site``) and those the server writes itself (``serve.gate``).
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; "
        "style-src-attr 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; "
        "form-action 'self'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
)


# On every answer to a request that came over HTTPS, or from a server whose phones come over
# HTTPS (an https public address): browsers then refuse plain http to this host for a year.
HSTS = "max-age=31536000"


def lan_address() -> str:
    """The address other devices on the LAN can reach this machine at; loopback if none.

    Opening a UDP socket sends nothing: it only asks the kernel which interface would route
    outwards, so this works with no internet at all.
    """
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                address = s.getsockname()[0]
                if not address.startswith("127."):
                    return address
        except OSError:
            continue
    return "127.0.0.1"


def loopback(host: str) -> bool:
    """Whether ``HOST`` listens on this computer alone (127.x, ``localhost``, ``::1``), where
    no phone can reach the server."""
    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def phones_cannot_reach(host: str, environ=os.environ) -> bool:
    """A loopback ``HOST`` with no ``BANCO_PUBLIC_URL`` in front of it."""
    return loopback(host) and not environ.get("BANCO_PUBLIC_URL")


def public_url(host: str, port: int, environ=os.environ) -> str:
    """The address the pages print and QR-code: ``BANCO_PUBLIC_URL`` when set; on a loopback
    ``HOST`` that same loopback address (a LAN address would be one the server does not
    answer on); else this computer's address on the LAN (``lan_address``)."""
    given = environ.get("BANCO_PUBLIC_URL")
    if given:
        return given.rstrip("/")
    if loopback(host):
        name = host.strip().strip("[]")
        return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"
    return f"http://{lan_address()}:{port}"


def start_message(host: str, url: str, environ=os.environ) -> str:
    """What the server prints on starting, before the address's QR code: where phones open
    Banco, or, on a loopback ``HOST`` with no ``BANCO_PUBLIC_URL`` (a reverse proxy on the
    same computer is the one who listens for the phones), that phones cannot reach it and how
    to fix that."""
    if not phones_cannot_reach(host, environ):
        return f"Banco is open. On every phone on this Wi-Fi, open:\n\n    {url}\n"
    return (
        f"Banco is open on this computer only: HOST={host} is a loopback address, which\n"
        "phones cannot reach. To let the phones in, stop the server (Ctrl+C) and start it with\n"
        "HOST=0.0.0.0 (every network of this computer), for example:\n\n"
        "    HOST=0.0.0.0 python app.py\n\n"
        f"Until then, only this computer can open:\n\n    {url}\n"
    )


def _secret_key(instance: Path) -> str:
    """The key kept in ``instance/secret_key``, made there the first time; refuses
    (``BadSetting``, saying why) a folder it cannot be written to."""
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    try:
        instance.mkdir(parents=True, exist_ok=True)
        # Created private from the start, so the key is never readable by others, not even briefly.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key)
    except OSError as error:
        raise BadSetting(
            f"SECRET_KEY is not set, and the key Banco keeps in {path} cannot be written "
            f"({error.strerror or error}). Make the folder writable, or set SECRET_KEY."
        ) from error
    return key


def worker_count(environ=os.environ) -> int:
    """``BANCO_WORKERS``: how many server processes to run (1 when unset); refuses (ValueError,
    saying what is expected) anything but a whole number from 1 to 64."""
    raw = environ.get("BANCO_WORKERS", "").strip() or str(WORKERS)
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 64):
        raise ValueError(f"BANCO_WORKERS must be a whole number from 1 to 64, not {raw!r}.")
    return int(raw)


def events_page(environ=os.environ) -> int:
    """``BANCO_EVENTS_PAGE``: the journal's page size (``EVENTS_PAGE`` when unset); refuses
    (``BadSetting``, which the server says before it stops) anything but a whole number from 100
    to 100000."""
    return _whole(environ, "BANCO_EVENTS_PAGE", EVENTS_PAGE, EVENTS_PAGE_LEAST, 100_000)


class BadSetting(ValueError):
    """A setting of the environment Banco cannot run with; the message says what it takes."""


def _whole(environ, name: str, default: int, lowest: int, highest: int) -> int:
    """The environment's ``name`` as a whole number from ``lowest`` to ``highest`` (``default``
    when unset); refuses (``BadSetting``) anything else, saying what is expected."""
    raw = environ.get(name, "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit() and lowest <= int(raw) <= highest):
        raise BadSetting(f"{name} must be a whole number from {lowest} to {highest}, not {raw!r}.")
    return int(raw)


def trusted_proxies(environ=os.environ) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``BANCO_TRUSTED_PROXIES``: the reverse proxies that may speak for a client
    (``companion.serve.proxies``), as addresses or networks separated by commas or spaces; none
    when unset. Refuses (``BadSetting``, naming the value) anything else."""
    found = []
    for word in environ.get("BANCO_TRUSTED_PROXIES", "").replace(",", " ").split():
        try:
            found.append(ipaddress.ip_network(word, strict=False))
        except ValueError:
            raise BadSetting(
                "BANCO_TRUSTED_PROXIES must list the reverse proxies' addresses or networks "
                f"(for example 127.0.0.1 or 10.0.0.0/8), separated by commas; {word!r} is neither."
            ) from None
    return tuple(found)


def secure_cookies(public: str, environ=os.environ) -> bool:
    """Whether every cookie is sent over HTTPS alone, whatever the request: an https
    ``BANCO_PUBLIC_URL`` says the phones come over HTTPS, so no separate setting can be forgotten;
    ``BANCO_SECURE_COOKIES`` says it of a server whose public address is not set. A request that
    came over HTTPS (from a trusted proxy) gets secure cookies by itself (``web.seats``)."""
    return public.lower().startswith("https://") or environ.get("BANCO_SECURE_COOKIES", "").strip().lower() in (
        "1",
        "true",
        "yes",
        "on",
    )


def metrics_token(environ=os.environ) -> str:
    """``BANCO_METRICS_TOKEN``: the token a scrape of ``GET /metrics`` must give as
    ``Authorization: Bearer``; empty when unset (no one may read the metrics). Refuses
    (``BadSetting``) a token with spaces or characters beyond printable ASCII, which a header
    could not carry as typed, and one shorter than 16 characters, which could be guessed."""
    token = environ.get("BANCO_METRICS_TOKEN", "").strip()
    if token and not (token.isascii() and token.isprintable() and " " not in token):
        raise BadSetting("BANCO_METRICS_TOKEN must be printable ASCII without spaces (letters and digits will do).")
    if token and len(token) < METRICS_TOKEN_LEAST:
        raise BadSetting(
            f"BANCO_METRICS_TOKEN must be at least {METRICS_TOKEN_LEAST} characters long "
            "(for example the output of: python -c 'import secrets; print(secrets.token_urlsafe())')."
        )
    return token


def backup_settings(instance: Path, environ=os.environ) -> dict:
    """Where and how often the server backs its SQLite database up (``BANCO_BACKUP_DIR``,
    ``BANCO_BACKUP_MINUTES``, ``BANCO_BACKUPS_KEPT``); refuses (``BadSetting``) numbers out of range."""
    return {
        "BACKUP_DIR": environ.get("BANCO_BACKUP_DIR", "").strip() or str(instance / "backups"),
        "BACKUP_MINUTES": _whole(environ, "BANCO_BACKUP_MINUTES", BACKUP_MINUTES, 0, 1440),
        "BACKUPS_KEPT": _whole(environ, "BANCO_BACKUPS_KEPT", BACKUPS_KEPT, 1, 10000),
    }


def from_environment(instance: Path) -> dict:
    """The settings the server runs with, read from the environment."""
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    database = os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'banco.sqlite3'}"
    if database.startswith("postgres://"):
        database = "postgresql://" + database[len("postgres://") :]
    if database.startswith("postgresql://"):
        database = "postgresql+psycopg://" + database[len("postgresql://") :]
    public = public_url(host, port)
    return {
        "HOST": host,
        "PORT": port,
        "SQLALCHEMY_DATABASE_URI": database,
        "SECRET_KEY": os.environ.get("SECRET_KEY") or _secret_key(instance),
        "PUBLIC_URL": public,
        "PHONES_CANNOT_REACH": phones_cannot_reach(host),
        "THREADS": int(os.environ.get("BANCO_THREADS", str(THREADS))),
        "CONNECTION_LIMIT": int(os.environ.get("BANCO_CONNECTION_LIMIT", str(CONNECTION_LIMIT))),
        "CONNECTIONS_PER_ADDRESS": int(os.environ.get("BANCO_CONNECTIONS_PER_ADDRESS", str(CONNECTIONS_PER_ADDRESS))),
        "STREAMS_PER_ADDRESS": int(os.environ.get("BANCO_STREAMS_PER_ADDRESS", str(STREAMS_PER_ADDRESS))),
        "CREATIONS_PER_ADDRESS": int(os.environ.get("BANCO_CREATIONS_PER_ADDRESS", str(CREATIONS_PER_ADDRESS))),
        "IMPORTED_EDITIONS_LIMIT": int(os.environ.get("BANCO_IMPORTED_EDITIONS_LIMIT", str(IMPORTED_EDITIONS_LIMIT))),
        "MAX_CONTENT_LENGTH": int(os.environ.get("BANCO_MAX_BODY_BYTES", str(MAX_BODY_BYTES))),
        "EVENTS_PAGE": events_page(),
        "MAX_GAME_FILE_BYTES": int(os.environ.get("BANCO_MAX_GAME_FILE_BYTES", str(MAX_GAME_FILE_BYTES))),
        "IMPORTS_AT_ONCE": _whole(os.environ, "BANCO_IMPORTS_AT_ONCE", IMPORTS_AT_ONCE, 1, 64),
        # Off by default: on a home LAN the server is plain http, where such cookies would be lost.
        "SECURE_COOKIES": secure_cookies(public),
        # Off by default: on a home LAN every phone is its own peer, and may not speak for another.
        "TRUSTED_PROXIES": trusted_proxies(),
        # Who may add editions (import, editor): empty, anyone who opens the home page; set, the host
        # password is asked for (a hosted server).
        "HOST_PASSWORD": os.environ.get("BANCO_HOST_PASSWORD", ""),
        "METRICS_TOKEN": metrics_token(),
        "DRAIN_SECONDS": _whole(os.environ, "BANCO_DRAIN_SECONDS", DRAIN_SECONDS, 0, DRAIN_SECONDS_MOST),
        # The templates' compiled code, kept for the next start (``web.compiled``); a test's app keeps none.
        "COMPILED_TEMPLATES": str(instance / "compiled-templates"),
        **backup_settings(instance),
    }


def engine_options(database: str) -> dict:
    """SQLAlchemy's pool for ``database``: ``DATABASE_CONNECTIONS`` kept open and no more. An
    in-memory SQLite database keeps the pool SQLAlchemy gives it (one connection shared)."""
    if database.startswith("sqlite") and (":memory:" in database or database.rstrip("/") in ("sqlite:", "sqlite:/")):
        return {}
    return {"pool_size": DATABASE_CONNECTIONS, "max_overflow": 0}


def init_app(app: Flask, test_config: dict | None = None) -> None:
    """``app``'s settings: the environment's (``from_environment``), or a test's over the
    defaults a test runs with; then what no setting may change (cookies, every body bounded)."""
    if test_config is None:
        app.config.update(from_environment(Path(app.instance_path)))
    else:
        app.config.update(
            {
                "PUBLIC_URL": "http://localhost:5000",
                "PHONES_CANNOT_REACH": False,
                "THREADS": 16,
                "CONNECTION_LIMIT": CONNECTION_LIMIT,
                "CONNECTIONS_PER_ADDRESS": CONNECTIONS_PER_ADDRESS,
                "STREAMS_PER_ADDRESS": STREAMS_PER_ADDRESS,
                # The suite's modules open hundreds of games from one address; the tests of the
                # limit set it.
                "CREATIONS_PER_ADDRESS": 0,
                "IMPORTED_EDITIONS_LIMIT": IMPORTED_EDITIONS_LIMIT,
                # A test's server backs nothing up unless the test asks, and never into the checkout.
                "BACKUP_MINUTES": 0,
                "BACKUPS_KEPT": BACKUPS_KEPT,
                "TRUSTED_PROXIES": (),
                "METRICS_TOKEN": "",
                "DRAIN_SECONDS": DRAIN_SECONDS,
            }
        )
        app.config.update(test_config)
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # every body is bounded, in tests too
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config.update(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=bool(app.config.get("SECURE_COOKIES")),  # an https public address: behind HTTPS
        PERMANENT_SESSION_LIFETIME=dt.timedelta(days=30),
        WTF_CSRF_TIME_LIMIT=None,  # a wallet page stays open all evening
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        JSON_SORT_KEYS=False,
    )
    app.config.setdefault("EVENTS_PAGE", EVENTS_PAGE)
    app.config.setdefault("METRICS_TOKEN", "")
    app.config.setdefault("DRAIN_SECONDS", DRAIN_SECONDS)
    app.config.setdefault("MAX_GAME_FILE_BYTES", MAX_GAME_FILE_BYTES)
    app.config.setdefault("IMPORTS_AT_ONCE", IMPORTS_AT_ONCE)
    app.config.setdefault("DEFAULT_EDITION", "classic-it")  # preselected on the home page
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(app.config["SQLALCHEMY_DATABASE_URI"]))
