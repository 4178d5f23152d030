"""Editions: the ones this server offers, and the exact content each game started with.

A game is pinned to its edition's content by hash when it is created, so editing an edition
file later never changes the rules of a game in progress.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

from flask import current_app
from sqlalchemy.exc import IntegrityError

from ..core.editions import Edition, parse_edition
from ..store import EditionContent, Game, db


def editions() -> dict[str, Edition]:
    """The editions new games can use, by id."""
    return current_app.extensions["banco"]["editions"]


def content_hash(data: Mapping[str, Any]) -> str:
    """The SHA-256 of an edition's content in canonical JSON (key order and spacing do not
    count)."""
    canonical = json.dumps(_plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def pin(edition: Edition) -> str:
    """Stores the edition's content (once per hash) and returns the hash a game keeps."""
    digest = content_hash(edition.raw)
    if db.session.get(EditionContent, digest) is None:
        try:
            # In a savepoint: a game opened at the same instant may store the same content first
            # (PostgreSQL then refuses this row as a duplicate, and the one stored is the same).
            with db.session.begin_nested():
                db.session.add(EditionContent(hash=digest, edition_id=edition.id, data=_plain(edition.raw)))
        except IntegrityError:
            pass
    return digest


def edition_of(game: Game) -> Edition:
    """The edition a game plays: the content it was pinned to, parsed once per process."""
    if game.edition_hash is None:
        return editions()[game.edition_id]
    cache = current_app.extensions["banco"].setdefault("pinned", {})
    edition = cache.get(game.edition_hash)
    if edition is None:
        row = db.session.get(EditionContent, game.edition_hash)
        edition = cache[game.edition_hash] = parse_edition(row.data)
    return edition


def _plain(value):
    """The edition's raw data as plain dicts and lists (it is frozen in mapping proxies)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
