"""Editions as files: every edition exports as its file, and a file imports as an edition of
this server (``custom_edition``), beside the built-in ones.

An import is validated whole by the same schema as the built-in files (``core.editions``): a
file with any problem is refused with every problem named by its field, and nothing is
stored. An id of a built-in edition is refused (409 ``edition_exists``): an import never
replaces a built-in edition. Importing an id this server imported before points that id at
the new content; the games already opened keep the content they were pinned to. A server keeps
at most the host's number of imported editions (``BANCO_IMPORTED_EDITIONS_LIMIT``): past it, a
new id is refused (409 ``too_many_editions``), and an id imported before may still be replaced.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from ..core.editions.edition import EditionError
from ..core.editions.lines import with_lines
from ..core.editions.loading import parse_edition, validate_edition
from ..core.errors import N_, BadInput, NotFound, RuleViolation
from ..store import CustomEdition, db, now_utc
from .catalog import built_in_editions, editions, imported_editions, pin, plain
from .tx import writing


class EditionRefused(BadInput):
    """An edition file with problems; ``problems`` names each field."""

    def __init__(self, problems: list[str]):
        super().__init__(
            "invalid_edition",
            N_("The edition file was refused and nothing was stored: %(problems)s"),
            problems="; ".join(problems),
        )
        self.problems = list(problems)


def edition_file(edition_id: Any) -> dict:
    """The file of an edition this server offers (built in or imported), as ``import_edition``
    takes it back."""
    edition = editions().get(edition_id) if isinstance(edition_id, str) else None
    if edition is None:
        raise NotFound("unknown_edition", N_("There is no such edition."))
    return plain(edition.raw)


def is_imported(edition_id: str) -> bool:
    """Whether an edition was imported on this server (not one of Banco's files)."""
    return edition_id not in built_in_editions() and edition_id in imported_editions()


def check_edition(data: Any) -> list[str]:
    """Every problem of an edition's data (the editor's check as values are typed): the checks
    an import runs, and an id of a built-in edition."""
    problems = validate_edition(data)
    eid = data.get("id") if isinstance(data, Mapping) else None
    if isinstance(eid, str) and eid in built_in_editions():
        problems.append(f"{eid}: id is a built-in edition's: give the new edition another id")
    return problems


def import_edition_text(text: str, *, most: int) -> dict:
    """Imports an edition file's text (an upload): as ``import_edition``, each problem preceded
    by the line of the field it names, and text that is not JSON refused with its line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EditionRefused([f"line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"]) from None
    except (ValueError, RecursionError):
        raise EditionRefused(["edition: not valid JSON"]) from None
    try:
        return import_edition(data, most=most)
    except EditionRefused as refused:
        raise EditionRefused(with_lines(refused.problems, text)) from None


def import_edition(data: Any, *, most: int) -> dict:
    """Stores an edition file; returns ``{"id", "replaced"}`` (``replaced``: the id was imported
    before and now has this content). Refuses, storing nothing, a file with any problem
    (``EditionRefused``, every field named), the id of a built-in edition (409) and a new id
    when the server keeps ``most`` imported editions already (409; ``most`` 0: no limit)."""
    if not isinstance(data, Mapping):
        raise EditionRefused(["edition: must be an object"])
    problems = validate_edition(data)
    if problems:
        raise EditionRefused(problems)
    try:
        edition = parse_edition(data)
    except EditionError as exc:  # validate_edition and parse_edition read the same checks
        raise EditionRefused(exc.problems) from None
    if edition.id in built_in_editions():
        raise RuleViolation(
            "edition_exists",
            N_("The edition %(id)s is built into Banco and cannot be replaced: give the file another id."),
            id=edition.id,
        )
    for attempt in (1, 2):
        try:
            with writing():
                row = db.session.get(CustomEdition, edition.id)
                replaced = row is not None
                if row is None and most:
                    _refuse_past(most)
                digest = pin(edition)
                if row is None:
                    db.session.add(CustomEdition(id=edition.id, edition_hash=digest))
                else:
                    row.edition_hash, row.updated_at = digest, now_utc()
            return {"id": edition.id, "replaced": replaced}
        except IntegrityError:  # the same new id imported at the same instant: try once more
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _refuse_past(most: int) -> None:
    """Refuses (409 ``too_many_editions``) a new edition when the server keeps ``most``. On
    PostgreSQL the count is taken under a lock that imports of other processes wait on (SQLite's
    writers already take turns), so two new ids at the same instant cannot both pass it."""
    if db.engine.dialect.name == "postgresql":
        db.session.execute(text("LOCK TABLE custom_edition IN SHARE ROW EXCLUSIVE MODE"))
    kept = db.session.scalar(select(func.count()).select_from(CustomEdition)) or 0
    if kept >= most:
        raise RuleViolation(
            "too_many_editions",
            N_(
                "This bank keeps %(most)s imported editions, as many as its host allows: "
                "import a file with the id of one of them to replace it."
            ),
            most=most,
        )
