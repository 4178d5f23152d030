"""Editions: the ones this server offers, and the exact content each game started with.

A game is pinned to its edition's content by hash when it is created, so editing an edition
file later never changes the rules of a game in progress.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..core.editions.edition import Edition, EditionError
from ..core.editions.loading import parse_edition
from ..extension import banco
from ..store import CustomEdition, EditionContent, GameRecord, db


def editions() -> dict[str, Edition]:
    """The editions new games can use, by id: the built-in files, then the editions imported
    on this server (``custom_edition``; never under a built-in id)."""
    built_in = banco().editions
    imported = imported_editions()
    if not imported:
        return built_in
    return {**built_in, **{k: e for k, e in imported.items() if k not in built_in}}


def built_in_editions() -> dict[str, Edition]:
    """The editions of the files shipped with Banco, by id."""
    return banco().editions


def imported_editions() -> dict[str, Edition]:
    """The editions imported on this server, by id, in the order they were first imported;
    each parsed once per process (by its content's hash)."""
    rows = db.session.execute(
        select(CustomEdition.id, CustomEdition.edition_hash).order_by(CustomEdition.created_at, CustomEdition.id)
    ).all()
    offered = {}
    for row in rows:
        try:
            offered[row.id] = _content(row.edition_hash)
        except EditionError as exc:  # checked at import; a later Banco may check more
            current_app.logger.warning("imported edition skipped: %s", "; ".join(exc.problems))
    return offered


def know_built_in() -> None:
    """Each built-in edition kept under its content's hash too, so a game pinned to a file's
    current content is never parsed again (parsing and checking one against the schema is slow,
    and would be paid by the first page of each game after a restart)."""
    cache = banco().pinned
    for edition in banco().editions.values():
        cache.setdefault(content_hash(edition.raw), edition)


def _content(digest: str) -> Edition:
    """The edition stored under ``digest`` in ``edition_content``, parsed once per process."""
    cache = banco().pinned
    edition = cache.get(digest)
    if edition is None:
        row = db.session.get(EditionContent, digest)
        assert row is not None  # a game pins only content that was stored with it
        edition = cache[digest] = parse_edition(row.data)
    return edition


def content_hash(data: Mapping[str, Any]) -> str:
    """The SHA-256 of an edition's content in canonical JSON (key order and spacing do not
    count)."""
    canonical = json.dumps(plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def pin(edition: Edition) -> str:
    """Stores the edition's content (once per hash) and returns the hash a game keeps."""
    digest = content_hash(edition.raw)
    if db.session.get(EditionContent, digest) is None:
        try:
            # In a savepoint: a game opened at the same instant may store the same content first
            # (PostgreSQL then refuses this row as a duplicate, and the one stored is the same).
            with db.session.begin_nested():
                db.session.add(EditionContent(hash=digest, edition_id=edition.id, data=plain(edition.raw)))
        except IntegrityError:
            pass
    return digest


def edition_of(game: GameRecord) -> Edition:
    """The edition a game plays: the content it was pinned to, parsed once per process."""
    if game.edition_hash is None:
        return editions()[game.edition_id]
    return _content(game.edition_hash)


def plain(value):
    """The edition's raw data as plain dicts and lists (it is frozen in mapping proxies)."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
