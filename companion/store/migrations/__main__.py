"""``python -m companion.store.migrations URL [REVISION]``: brings the database at URL to
REVISION (the newest by default) by replaying the migrations alone, never from the models.

The server builds a new database from the models instead, so this is how to get a database
as the previous code left it, to autogenerate the next revision against (docs/migrations.md).
"""

from __future__ import annotations

import sys

from sqlalchemy import create_engine

from . import schema_transaction, upgrade


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__, file=sys.stderr)
        return 2
    url = argv[0]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    engine = create_engine(url)
    with schema_transaction(engine) as connection:
        upgrade(connection, argv[1] if len(argv) == 2 else "head")
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
