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
    from waitress import serve

    from companion.web.qr import qr_terminal

    url = app.config["PUBLIC_URL"] + "/"
    print(f"\nBanco is open. On every phone on this Wi-Fi, open:\n\n    {url}\n")
    print(qr_terminal(url))
    print("Stop the server with Ctrl+C.\n", flush=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    serve(app, host=app.config["HOST"], port=app.config["PORT"], threads=app.config["THREADS"],
          connection_limit=app.config["CONNECTION_LIMIT"], channel_timeout=120, ident="Banco")


if __name__ == "__main__":
    main()
