"""Banco's server: ``python app.py`` serves the bank on the local network.

It prints the address phones should open, and the same address as a QR code, then serves
with waitress (a production WSGI server in pure Python) until stopped with Ctrl+C.

The app is made on import, which also brings the database's tables up to date, so the Flask
command line works from here too: ``flask --app app banco verify``, ``flask --app app db ...``.
"""
from __future__ import annotations

import logging
import sys

from companion import SchemaMismatch, create_app

try:
    app = create_app()
except SchemaMismatch as error:
    sys.exit(f"Banco cannot start: {error}")


def main() -> None:
    from companion.web.errors import create_server
    from companion.web.qr import qr_terminal

    url = app.config["PUBLIC_URL"] + "/"
    print(f"\nBanco is open. On every phone on this Wi-Fi, open:\n\n    {url}\n")
    print(qr_terminal(url))
    print("Stop the server with Ctrl+C.\n", flush=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # waitress, reading no body over the app's limit (BANCO_MAX_BODY_BYTES, chunked or not) and
    # answering what it refuses itself in the app's words (413 as the usual error body).
    server = create_server(app, host=app.config["HOST"], port=app.config["PORT"], threads=app.config["THREADS"],
                           connection_limit=app.config["CONNECTION_LIMIT"], channel_timeout=120, ident="Banco",
                           max_request_body_size=app.config["MAX_CONTENT_LENGTH"] + 1)
    server.print_listen("Serving on http://{}:{}")
    server.run()


if __name__ == "__main__":
    main()
