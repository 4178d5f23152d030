"""Whether this server can serve (``GET /readyz``): its database answers, and its tables are at
the revision this code's migrations end with (``store.migrations``). A server that upgraded
at start is; another process's newer Banco, or a restore of an older database behind its
back, would leave it reading tables it does not know."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from ..store import db, migrations

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Readiness:
    """Ready, or why not: ``reason`` (``database_unreachable``, ``migrations_behind``,
    ``migrations_unknown``), and the revisions found and expected where they were read."""

    reason: str | None = None
    database: str | None = None
    code: str | None = None

    @property
    def ready(self) -> bool:
        return self.reason is None


@functools.cache
def code_revision() -> str:
    """The revision this code's migrations end with: read once (it parses every revision's file)."""
    return migrations.head()


def readiness() -> Readiness:
    """Reads the database's revision, on a connection of the app's pool; refuses nothing: a
    database that does not answer is said (``database_unreachable``), and logged, with why."""
    code = code_revision()
    try:
        with db.engine.connect() as connection:
            found = migrations.stamped(connection)
    except SQLAlchemyError as error:
        log.warning("not ready: the database does not answer (%s)", str(error).strip().splitlines()[0])
        return Readiness("database_unreachable", code=code)
    if found == code:
        return Readiness(database=found, code=code)
    # Behind: another process has not upgraded it yet (each server upgrades at start), or an
    # older backup came back. Unknown: a newer Banco upgraded it past this one.
    reason = "migrations_behind" if found is None or migrations.known(found) else "migrations_unknown"
    return Readiness(reason, database=found, code=code)
