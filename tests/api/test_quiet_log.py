"""A phone leaving is not worth a log line: the server stays quiet when live pages go away."""
from __future__ import annotations

import json
import logging
import socket
import urllib.request

from companion.web.errors import QuietDisconnects


def _post(url, path, body, token=None):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def _open_stream(port, game_id, token) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(f"GET /api/v1/games/{game_id}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                 f"Accept: text/event-stream\r\n\r\n".encode())
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    return sock


def test_phones_that_leave_their_live_page_leave_no_line_in_the_log(live_server, caplog):
    game = _post(live_server.url, "/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Bruno"]})
    banker = game["banker_token"]
    broker = live_server.app.extensions["banco"]["broker"]
    streams = [_open_stream(live_server.port, game["id"], banker) for _ in range(5)]
    for sock in streams:  # five phones go to sleep at once, without a goodbye
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()
    caplog.set_level(logging.DEBUG)
    _post(live_server.url, f"/api/v1/games/{game['id']}/actions", {"type": "start"}, banker)
    # Each stream notices its phone is gone when it next writes: every change makes it write.
    for _ in range(50):
        if broker.open_streams == 0:
            break
        _post(live_server.url, f"/api/v1/games/{game['id']}/actions",
              {"type": "transfer", "from": "bank", "to": game["players"][0]["id"], "amount": 1}, banker)
    assert broker.open_streams == 0, "the streams of the phones that left never ended"
    noisy = [r.getMessage() for r in caplog.records if r.name.startswith("waitress")]
    assert noisy == []


def test_the_filter_drops_only_the_disconnect_line():
    quiet = QuietDisconnects()

    def record(message):
        return logging.LogRecord("waitress", logging.INFO, __file__, 1, message, (), None)

    assert not quiet.filter(record("Client disconnected while serving /g/abc/stream"))
    assert quiet.filter(record("Serving on http://0.0.0.0:5000"))
    assert quiet.filter(record("Exception while serving /api/v1/games"))
