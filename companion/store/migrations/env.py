"""Alembic's environment for Banco's tables.

Two callers: the server's start-up (``companion.database.prepare_schema``) and the tests hand over a
connection already in a locked transaction (``config.attributes["connection"]``), and
everything runs inside it; ``flask --app app db ...`` gives none, and this opens its own on the
app's database. Logging is left as the caller set it (no ``fileConfig``): the server's start
must not reconfigure the server's logs.
"""

from __future__ import annotations

import logging
from typing import Any

from alembic import context

from companion.store.models import db

config = context.config
OPTIONS: dict[str, Any] = {
    "target_metadata": db.metadata,
    "compare_type": True,
    # SQLite cannot drop or alter most columns in place: batch mode rebuilds the table.
    "render_as_batch": True,
}


def run_on(connection) -> None:
    context.configure(connection=connection, **OPTIONS)
    with context.begin_transaction():
        context.run_migrations()


def run_from_cli() -> None:
    """``flask db upgrade``, ``flask db migrate``...: the app's own database, under the same
    lock the server takes at start."""
    from flask import current_app

    from companion.store.migrations import schema_transaction

    logging.getLogger("alembic").setLevel(logging.INFO)
    if not logging.getLogger().handlers:
        logging.basicConfig(format="%(levelname)-5.5s [%(name)s] %(message)s")

    def skip_empty(_context, _revision, directives):
        # `flask db migrate` with nothing changed writes no empty revision.
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logging.getLogger("alembic").info("No change in the tables.")

    OPTIONS["process_revision_directives"] = skip_empty
    with schema_transaction(current_app.extensions["migrate"].db.engine) as connection:
        run_on(connection)


if context.is_offline_mode():  # `flask db upgrade --sql`: prints the SQL, runs nothing
    from flask import current_app

    context.configure(url=current_app.extensions["migrate"].db.engine.url, literal_binds=True, **OPTIONS)
    with context.begin_transaction():
        context.run_migrations()
elif config.attributes.get("connection") is not None:
    run_on(config.attributes["connection"])
else:
    run_from_cli()
