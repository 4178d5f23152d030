"""Banco's server: ``python app.py`` serves the bank on the local network.

It prints the address phones should open, and the same address as a QR code, then serves
with uvicorn (an event-loop server in pure Python, the Flask app mounted in it: see
``companion.serve``) until stopped with Ctrl+C. With ``BANCO_WORKERS`` above 1 (a club, on
PostgreSQL) it binds the address once and serves it with that many worker processes
(``companion.serve.workers``), each importing this module afresh.

The app is made on import, which also brings the database's tables up to date, so the Flask
command line works from here too: ``flask --app app banco verify``, ``flask --app app db ...``.
"""

from __future__ import annotations

import contextlib
import logging
import sys

from companion import config, create_app, database
from companion.backups import Locked
from companion.config import BadSetting
from companion.database import DatabaseUnwritable, SchemaMismatch

try:
    app = create_app()
except (SchemaMismatch, DatabaseUnwritable, BadSetting) as error:
    sys.exit(f"Banco cannot start: {error}")

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def main() -> None:
    from companion.serve import create_server, raise_file_limit
    from companion.web.qr import qr_terminal
    from companion.web.warm import warm_in_background

    try:
        workers = config.worker_count()
    except ValueError as error:
        sys.exit(f"Banco cannot start: {error}")
    if workers > 1 and not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        sys.exit(
            f"Banco cannot start: BANCO_WORKERS={workers} needs PostgreSQL (DATABASE_URL=postgresql://...). "
            "On SQLite a live update made in one worker process could not reach the phones of the "
            "others. Leave BANCO_WORKERS unset (one process serves a home table), or use PostgreSQL."
        )
    try:
        with app.app_context():
            database.check_writable()  # never serve a database that cannot save: say why now
    except DatabaseUnwritable as error:
        sys.exit(f"Banco cannot start: {error}")
    server = None
    if workers == 1:
        # Warmed once it listens: the first phone is answered at once, the first move stays fast.
        server = create_server(app, app.config["HOST"], app.config["PORT"], on_started=lambda: warm_in_background(app))
        try:
            if server.keeping is not None:
                server.keeping.start()  # the database's lock, taken before anyone is told to come
        except Locked as error:
            sys.exit(f"Banco cannot start: {error}")
    url = app.config["PUBLIC_URL"] + "/"
    print("\n" + config.start_message(app.config["HOST"], url))
    if not app.config.get("PHONES_CANNOT_REACH"):
        print(qr_terminal(url))  # no code for phones to scan where phones cannot come
    print("Stop the server with Ctrl+C.\n", flush=True)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    raise_file_limit()  # one open file per phone's connection: thousands of them
    serving = f"Serving on http://{app.config['HOST']}:{app.config['PORT']}"
    if workers > 1:
        from companion.serve.workers import bind, serve_workers

        try:
            sock = bind(app.config["HOST"], app.config["PORT"])
        except OSError as error:
            sys.exit(
                f"Banco cannot start: it cannot listen on {app.config['HOST']}:{app.config['PORT']} "
                f"({error.strerror or error}). Is another server using that port?"
            )
        print(f"{serving} with {workers} worker processes", flush=True)
        failed = serve_workers(
            workers, sock, serve_worker, say=lambda line: print(line, flush=True), drain=app.config["DRAIN_SECONDS"]
        )
        print("Banco has stopped.", flush=True)
        sys.exit(failed)
    assert server is not None
    print(serving, flush=True)
    # uvicorn stops gracefully on Ctrl+C, then passes the signal on
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    print("Banco has stopped.")


def serve_worker(sock, number: int, count: int, on_started) -> None:
    """One of ``BANCO_WORKERS`` processes: serves the socket the parent bound, with the app
    this process made when it imported this module."""
    from companion.serve import create_server, raise_file_limit
    from companion.web.warm import warm_in_background

    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    raise_file_limit()
    app.config["WORKER"] = number  # named on each stream's answer (X-Banco-Worker)

    def started() -> None:
        on_started()
        warm_in_background(app)

    server = create_server(app, app.config["HOST"], app.config["PORT"], workers=count, on_started=started)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])


if __name__ == "__main__":
    main()
