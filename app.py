"""Banco's server: ``python app.py`` serves the bank on the local network.

It prints the address phones should open, and the same address as a QR code, then serves
with uvicorn (an event-loop server in pure Python, the Flask app mounted in it: see
``companion.serve``) until stopped with Ctrl+C.

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
    from companion.serve import create_server, raise_file_limit
    from companion.web.qr import qr_terminal

    url = app.config["PUBLIC_URL"] + "/"
    print(f"\nBanco is open. On every phone on this Wi-Fi, open:\n\n    {url}\n")
    print(qr_terminal(url))
    print("Stop the server with Ctrl+C.\n", flush=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    raise_file_limit()  # one open file per phone's connection: thousands of them
    server = create_server(app, app.config["HOST"], app.config["PORT"])
    print(f"Serving on http://{app.config['HOST']}:{app.config['PORT']}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl+C, then passes the signal on
        pass
    print("Banco has stopped.")


if __name__ == "__main__":
    main()
