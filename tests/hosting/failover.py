"""A host's evening with one machine lost: two Banco servers behind a proxy (nginx or Caddy), one
killed mid-game; and Caddy's active health check, seen from the servers.

The pieces are the hosting guide's own files (``docs/hosting/``), run as they are:

- the servers are started as ``banco@.service`` starts them, with its ``Environment=`` lines
  (the port is the instance) and the settings of ``banco.env``, each ``python app.py`` its own
  process on its own port, all on one PostgreSQL database;
- nginx runs ``nginx/banco.conf`` and includes ``nginx/banco-proxy.conf`` in place, under a
  temporary prefix with a self-signed certificate (``Nginx``);
- or caddy runs ``Caddyfile`` (``caddy run --adapter caddyfile``), with a temporary HOME and XDG
  folders and the same kind of certificate (``Caddy``).

Only what belongs to this machine is changed, each by an exact replacement that fails loudly
when the file no longer holds what it replaces: the ports, the certificate's paths and the
snippet's path in the nginx file; the upstream ports, a ``tls`` line with the certificate, and
a global options block (the ports, no admin endpoint, loopback only, the system's trust store
untouched) in the Caddyfile; ``DATABASE_URL``, ``BANCO_PUBLIC_URL``, the working directory and
the Python of the unit. Everything else (the upstream and its health checks, the headers, the
timeouts, the buffering, what is passed to the other server) is the file's.

Then a table of 8 phones pays, all 8 at once every 0.3 s (each payment with its own
idempotency key, sent again with that key on a connection error, 502, 503 or 504 until
answered), 10 live pages read the game's stream through the proxy (reconnecting with
``Last-Event-ID`` after the ``retry`` the stream gave, as a browser's EventSource does), and one
server is killed with SIGKILL (its PID alone) 10 ms after a round is tapped, while that round's
payments are on their way: those it held are answered 502 by the proxy, which does not send a
POST again, and the phones send them again. ``run_evening`` measures it all;
``tests/hosting/test_failover.py`` holds it to the issue's bar, ``bench/bench_failover.py``
repeats it. ``run_drain`` tells one server to stop, as ``systemctl stop`` does, and counts, by
each server's own ``/metrics``, where Caddy sends the requests once its ``/readyz`` says no.
Everything listens and connects on 127.0.0.1, every loop and wait is bounded.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
HOSTING = ROOT / "docs" / "hosting"
NGINX_SITE = HOSTING / "nginx" / "banco.conf"
NGINX_SNIPPET = HOSTING / "nginx" / "banco-proxy.conf"
UNIT = HOSTING / "systemd" / "banco@.service"
ENV_FILE = HOSTING / "systemd" / "banco.env"
CADDYFILE = HOSTING / "Caddyfile"

# The name the guide's files serve; the certificate made here holds it, and every request asks for it.
SITE_NAME = "banco.example.org"
START_CASH = 1500  # what the classic game's start pays each player


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def caddy_binary() -> str | None:
    return shutil.which("caddy")


def proxy_binary(name: str) -> str | None:
    """Where the proxy ``name`` (``nginx`` or ``caddy``) is installed; None where it is not."""
    return {"nginx": nginx_binary, "caddy": caddy_binary}[name]()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM to ``proc`` (its PID alone), which ends its own workers; SIGKILL after 15 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def replaced(content: str, replacements: dict[str, str], name: str) -> str:
    """``content`` with each key replaced by its value; refuses (AssertionError) a key the file
    no longer holds, so the test never runs a file other than the one it claims to."""
    for old, new in replacements.items():
        assert old in content, f"{name} no longer holds {old!r}: update tests/hosting/failover.py with it"
        content = content.replace(old, new)
    return content


# --- the servers, as the unit starts them -------------------------------------------------------


def unit_environment(port: int, database_url: str, public_url: str) -> dict[str, str]:
    """The environment ``banco@<port>.service`` gives ``python app.py``: ``banco.env``'s
    settings, then the unit's ``Environment=`` lines (which the unit file says win), with this
    machine's database and public address in place of the example's."""
    unit = UNIT.read_text()
    assert "EnvironmentFile=/etc/banco/banco.env" in unit, "the unit no longer reads banco.env"
    assert re.search(r"^ExecStart=/opt/banco/\.venv/bin/python app\.py$", unit, re.M), "the unit's command changed"
    settings = {}
    for line in ENV_FILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            settings[name.strip()] = value.strip()
    for name in ("DATABASE_URL", "BANCO_PUBLIC_URL"):
        assert name in settings, f"banco.env no longer sets {name}"
    settings.update(DATABASE_URL=database_url, BANCO_PUBLIC_URL=public_url)
    for name, value in re.findall(r"^Environment=(\w+)=(.*)$", unit, re.M):
        settings[name] = value.replace("%i", str(port))
    assert settings.get("PORT") == str(port), "the unit no longer listens on the instance's port"
    return settings


class BancoServer:
    """``python app.py`` on ``port`` with the unit's environment; its output in ``log``."""

    def __init__(self, port: int, settings: dict[str, str], log: Path) -> None:
        self.port = port
        self.settings = settings
        self.log = log
        with open(log, "wb") as out:
            # The unit's WorkingDirectory is the clone (here: this one), its Python the clone's venv.
            self.proc = subprocess.Popen(
                [sys.executable, "app.py"],
                cwd=ROOT,
                env={**os.environ, **settings},
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_until_serving(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                assert self.proc.poll() is None, f"app.py on {self.port} exited:\n{self.output()[-2000:]}"
                assert time.monotonic() < deadline, f"app.py on {self.port} did not start:\n{self.output()[-2000:]}"
                time.sleep(0.1)

    def tell_to_stop(self) -> None:
        """``systemctl stop``: the unit's KillSignal (SIGINT) once; the server says it is not
        ready and serves on for its ``BANCO_DRAIN_SECONDS``."""
        os.kill(self.proc.pid, signal.SIGINT)

    def answered(self, kind: str) -> int:
        """How many requests of ``kind`` this server has answered 200, by its own ``/metrics``
        (asked directly, with the host's token), so the proxy's choice is seen from the servers."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {self.settings['BANCO_METRICS_TOKEN']}"})
            answer = conn.getresponse()
            text = answer.read().decode()
            assert answer.status == 200, f"/metrics on {self.port} answered {answer.status}"
        finally:
            conn.close()
        return int(
            sum(
                sample.value
                for family in text_string_to_metric_families(text)
                for sample in family.samples
                if sample.name == "banco_requests_total" and sample.labels == {"kind": kind, "status": "200"}
            )
        )

    def kill(self) -> None:
        """A machine lost: SIGKILL to this server's process alone."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Ctrl+C twice: the unit's KillSignal, then a second one, which cuts the drain
        (``BANCO_DRAIN_SECONDS``) short, as the test has no balancer to wait for; SIGKILL after 30 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            time.sleep(0.05)  # the first one handled: a second one is what cuts the drain short
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


# --- nginx, with the guide's files --------------------------------------------------------------


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``SITE_NAME`` and 127.0.0.1, valid for two days."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        + ["-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={SITE_NAME}"]
        + ["-addext", f"subjectAltName=DNS:{SITE_NAME},IP:127.0.0.1"],
        check=True,
        capture_output=True,
        timeout=30,
    )
    return cert, key


class Proxy:
    """A proxy in the foreground, its PID alone, serving the guide's site on ``https_port``
    (TLS, with the certificate ``cert``, which the client trusts) and ``http_port`` (plain
    http, which moves a page to https). ``name`` says which in a failure's words."""

    name = "proxy"
    moved = 301  # the status of the plain http block's answer
    https_port: int
    http_port: int
    cert: Path
    log: Path
    proc: subprocess.Popen

    def wait_until_listening(self, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=0.2).close()
                return
            except OSError:
                assert self.proc.poll() is None, f"{self.name} exited:\n{self.log.read_text()[-2000:]}"
                assert time.monotonic() < deadline, f"{self.name} did not start:\n{self.log.read_text()[-2000:]}"
                time.sleep(0.05)

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def connection(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection("127.0.0.1", self.https_port, timeout=10, context=self.tls())

    def moved_to(self) -> str:
        """Where the plain http block sends ``/g/abc/screen`` asked for ``SITE_NAME``, with
        the answer's status: ``"301 https://..."``."""
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=10)
        try:
            conn.request("GET", "/g/abc/screen", headers={"Host": SITE_NAME})
            answer = conn.getresponse()
            return f"{answer.status} {answer.getheader('Location')}"
        finally:
            conn.close()

    def redirects(self) -> bool:
        """Whether the plain http block sends a page to the same path on https, with the
        proxy's own status for it (``moved``)."""
        return self.moved_to() == f"{self.moved} https://{SITE_NAME}/g/abc/screen"

    def stop(self) -> None:
        """SIGTERM to the proxy's process (its PID alone); SIGKILL after 15 s."""
        stop_process(self.proc)


class Nginx(Proxy):
    """nginx in the foreground under ``prefix``, serving ``banco.conf`` (which includes the
    snippet) on ``https_port`` (its TLS block) and ``http_port`` (its redirect), in front of
    ``upstream_ports``, with a self-signed certificate. SIGTERM to its master ends its worker."""

    name = "nginx"

    def __init__(self, prefix: Path, upstream_ports: tuple[int, int], https_port: int, http_port: int) -> None:
        self.binary = nginx_binary()
        assert self.binary, "nginx is not installed"
        self.prefix = prefix
        self.https_port, self.http_port = https_port, http_port
        prefix.mkdir(parents=True, exist_ok=True)
        self.cert, key = make_certificate(prefix)
        site = replaced(
            NGINX_SITE.read_text(),
            {
                "server 127.0.0.1:8001 ": f"server 127.0.0.1:{upstream_ports[0]} ",
                "server 127.0.0.1:8002 ": f"server 127.0.0.1:{upstream_ports[1]} ",
                "listen 80;": f"listen 127.0.0.1:{http_port};",
                "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
                f"/etc/letsencrypt/live/{SITE_NAME}/fullchain.pem": str(self.cert),
                f"/etc/letsencrypt/live/{SITE_NAME}/privkey.pem": str(key),
                "/etc/nginx/snippets/banco-proxy.conf": str(NGINX_SNIPPET),
            },
            "docs/hosting/nginx/banco.conf",
        )
        (prefix / "banco.conf").write_text(site)
        # The distribution's nginx.conf, reduced to what this machine needs: the site is included whole.
        # As root, nginx's worker would be nobody, who cannot enter the test's folder for its
        # temporary files (a large answer, a large upload): here it stays this user.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\nerror_log stderr warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n  access_log off;\n"
            + "".join(f"  {kind}_temp_path {prefix / kind};\n" for kind in ("client_body", "proxy"))
            + "".join(f"  {kind}_temp_path {prefix / kind};\n" for kind in ("fastcgi", "uwsgi", "scgi"))
            + f"  include {prefix / 'banco.conf'};\n}}\n"
        )
        self.log = prefix / "nginx.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [self.binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.wait_until_listening()


class Caddy(Proxy):
    """``caddy run`` with the guide's Caddyfile, in front of ``upstream_ports``, under
    ``prefix``: its HOME and XDG folders, so it keeps its state there and nowhere else.

    Changed for this machine, each by an exact replacement or a check that fails loudly: a global
    options block put first (the guide's file must have none of its own)
    (``admin off``: no admin endpoint on port 2019, which another Caddy may hold; ``http_port``
    and ``https_port``: this test's ports, so the site keeps the guide's name and no port;
    ``default_bind 127.0.0.1``; ``skip_install_trust``: the system's trust store untouched);
    ``tls <cert> <key>`` first in the site block, a self-signed certificate, since Let's
    Encrypt cannot be reached from here (the guide's Caddy gets one by itself); and the
    upstream ports 8001 and 8002. Caddy's automatic redirect to https (308) is the plain http
    block. SIGTERM ends it."""

    name = "caddy"
    moved = 308

    def __init__(self, prefix: Path, upstream_ports: tuple[int, int], https_port: int, http_port: int) -> None:
        binary = caddy_binary()
        assert binary, "caddy is not installed"
        self.prefix = prefix
        self.https_port, self.http_port = https_port, http_port
        prefix.mkdir(parents=True, exist_ok=True)
        self.cert, key = make_certificate(prefix)
        site = replaced(
            CADDYFILE.read_text(),
            {
                f"\n{SITE_NAME} {{\n": f"\n{SITE_NAME} {{\n\ttls {self.cert} {key}\n",
                "reverse_proxy 127.0.0.1:8001 127.0.0.1:8002 {": (
                    f"reverse_proxy 127.0.0.1:{upstream_ports[0]} 127.0.0.1:{upstream_ports[1]} {{"
                ),
            },
            "docs/hosting/Caddyfile",
        )
        first = next(line for line in site.splitlines() if line.strip() and not line.startswith("#"))
        assert first.strip() != "{", "docs/hosting/Caddyfile has a global options block: merge this test's into it"
        options = (
            f"{{\n\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
            "\tdefault_bind 127.0.0.1\n\tskip_install_trust\n}\n\n"
        )
        (prefix / "Caddyfile").write_text(options + site)
        self.log = prefix / "caddy.log"
        folders = {"HOME": prefix, "XDG_DATA_HOME": prefix / "data", "XDG_CONFIG_HOME": prefix / "config"}
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [binary, "run", "--config", str(prefix / "Caddyfile"), "--adapter", "caddyfile"],
                env={**os.environ, **{name: str(folder) for name, folder in folders.items()}},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.wait_until_listening()


PROXIES: dict[str, type[Proxy]] = {"nginx": Nginx, "caddy": Caddy}


def request(proxy: Proxy, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    """One request through nginx's TLS block, asking for ``SITE_NAME``."""
    conn = proxy.connection()
    try:
        headers = {"Host": SITE_NAME, "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        conn.close()


def through_https(proxy: Proxy) -> list[str]:
    """What is wrong with what a phone is told through the proxy's TLS block: each server is
    ready (``/readyz``), and the answers are marked for HTTPS (``Strict-Transport-Security``
    and a ``Secure`` cookie), as the guide's https public address and the proxy's
    ``X-Forwarded-Proto`` from a trusted proxy each say (``tests/api/test_proxies.py`` holds
    the two apart)."""
    problems = []
    # least_conn: nginx alternates between the two idle servers, Caddy picks one of them at random.
    for _ in range(4):
        status, ready = request(proxy, "GET", "/readyz")
        if status != 200:
            problems.append(f"/readyz through {proxy.name} answered {status}: {ready}")
    conn = proxy.connection()
    try:
        conn.request("GET", "/lang/en", headers={"Host": SITE_NAME})
        answer = conn.getresponse()
        answer.read()
        if "max-age=" not in (answer.getheader("Strict-Transport-Security") or ""):
            problems.append(f"no Strict-Transport-Security through {proxy.name}'s https")
        if "secure" not in (answer.getheader("Set-Cookie") or "").lower():
            problems.append(f"a cookie without Secure through {proxy.name}'s https: {answer.getheader('Set-Cookie')}")
    finally:
        conn.close()
    return problems


# --- the phones ----------------------------------------------------------------------------------

GONE = {502, 503, 504}  # the proxy's words for a server lost, busy or slow: the phone tries again


@dataclass
class Payment:
    payer: dict
    to: dict
    amount: int
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    status: int | None = None
    tries: int = 0


class Phone(threading.Thread):
    """A player's phone over one kept connection: its payments tapped one a round (the
    table's rounds start every ``period`` from ``start``), each sent again with its key until
    answered (or ``deadline``)."""

    def __init__(self, proxy: Proxy, game_id: str, payments: list[Payment], start: float, period: float, deadline):
        super().__init__(daemon=True)
        self.proxy, self.path = proxy, f"/api/v1/games/{game_id}/actions"
        self.payments, self.start_at, self.period, self.deadline = payments, start, period, deadline
        self.conn: http.client.HTTPSConnection | None = None

    def send(self, payment: Payment) -> int | None:
        body = json.dumps({"type": "transfer", "to": payment.to["id"], "amount": payment.amount, "key": payment.key})
        headers = {
            "Host": SITE_NAME,
            "Content-Type": "application/json",
            "Authorization": f"Bearer {payment.payer['token']}",
        }
        payment.tries += 1
        try:
            if self.conn is None:
                self.conn = self.proxy.connection()
            self.conn.request("POST", self.path, body, headers)
            answer = self.conn.getresponse()
            answer.read()
            return answer.status
        except (OSError, http.client.HTTPException):
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return None

    def run(self) -> None:
        for n, payment in enumerate(self.payments):
            time.sleep(max(0.0, self.start_at + n * self.period - time.monotonic()))
            while time.monotonic() < self.deadline:
                status = self.send(payment)
                if status is not None and status not in GONE:
                    payment.status = status
                    break
                time.sleep(0.1)
        if self.conn is not None:
            self.conn.close()


# --- the live pages ------------------------------------------------------------------------------


class Page(threading.Thread):
    """A live page reading the game's stream through proxy, as a browser's EventSource does:
    on a cut (or the stream's end, or a refusal) it opens it again after the stream's
    ``retry``, with ``Last-Event-ID``. Notes when each version came, and each (re)opening."""

    def __init__(self, proxy: Proxy, game_id: str, token: str, until: threading.Event) -> None:
        super().__init__(daemon=True)
        self.proxy, self.game_id, self.token, self.until = proxy, game_id, token, until
        self.last = 0
        self.retry = 3.0  # EventSource's own delay until the stream says its own
        self.seen: list[tuple[float, int]] = []  # (time, version), versions only growing
        self.opened: list[float] = []  # when a stream was answered 200
        self.cuts: list[float] = []
        self.sock: ssl.SSLSocket | None = None

    def run(self) -> None:
        while not self.until.is_set():
            with contextlib.suppress(OSError, ValueError):  # a cut, or an answer cut in the middle
                self.listen()
            if self.until.is_set():
                break
            self.cuts.append(time.monotonic())
            self.until.wait(self.retry)

    def listen(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.proxy.https_port), timeout=10)
        self.sock = sock = self.proxy.tls().wrap_socket(raw, server_hostname=SITE_NAME)
        try:
            head = [
                f"GET /api/v1/games/{self.game_id}/stream HTTP/1.1",
                f"Host: {SITE_NAME}",
                f"Authorization: Bearer {self.token}",
                "Accept: text/event-stream",
            ]
            if self.last:
                head.append(f"Last-Event-ID: {self.last}")
            sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
            sock.settimeout(0.5)
            data = b""
            while b"\r\n\r\n" not in data:
                data += self.recv(sock)
            answer, _, data = data.partition(b"\r\n\r\n")
            if answer.split(b" ", 2)[1] != b"200":
                return
            self.opened.append(time.monotonic())
            body = b""
            while True:  # the chunked body, chunk by chunk
                while b"\r\n" not in data:
                    data += self.recv(sock)
                size_line, _, data = data.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                while len(data) < size + 2:
                    data += self.recv(sock)
                if size == 0:
                    return  # the stream's end: the server's time for it ran out
                body += data[:size]
                data = data[size + 2 :]
                *lines, body = body.split(b"\n")
                for line in lines:
                    self.read_line(line.decode())
        finally:
            self.sock = None
            sock.close()

    def recv(self, sock) -> bytes:
        while True:
            if self.until.is_set():
                raise OSError("the page is closed")
            try:
                part = sock.recv(65536)
            except TimeoutError:
                continue
            if not part:
                raise OSError("cut")
            return part

    def read_line(self, line: str) -> None:
        if line.startswith("retry:"):
            self.retry = int(line[6:].strip()) / 1000
        elif line.startswith("id:"):
            version = int(line[3:].strip())
            if version > self.last:
                self.last = version
                self.seen.append((time.monotonic(), version))

    def reached(self, version: int, since: float) -> float | None:
        """When this page first held ``version`` or a later one, counted from ``since`` (0
        when it held it already then); None if it never did."""
        for at, seen in self.seen:
            if seen >= version:
                return max(0.0, at - since)
        return None


# --- the evening ---------------------------------------------------------------------------------


@dataclass
class Evening:
    """What one evening measured."""

    payments: int
    answered: int  # payments answered 200 (a retry answered with the first answer counts once)
    retried: int  # payments sent more than once
    replayed: int  # of those, payments taken before the kill: the retry had the first answer again
    lost: int  # payments the journal does not hold
    doubled: int  # transfers the journal holds beyond one a payment
    transfers: int  # transfer entries in the journal
    balances_right: bool
    cut_pages: int  # pages whose stream was on the server killed
    recovery: float | None  # kill until every page held a version made after it (None: one never did)
    final_lag: float | None  # last answer until every page held the final version
    verify: str
    verify_code: int
    problems: list[str]
    survivor_output: str = field(repr=False)  # the server left's whole output, for a failure's reader


def start_servers(
    folder: Path, database_url: str, public_url: str, first: dict[str, str] | None = None
) -> list[BancoServer]:
    """Two servers as the unit starts them; ``first``: settings the first one has beside the unit's."""
    servers: list[BancoServer] = []
    for n in (1, 2):  # one after the other: the first brings an empty database's tables up to date
        port = free_port()
        settings = unit_environment(port, database_url, public_url)
        if n == 1 and first:
            settings.update(first)
        server = BancoServer(port, settings, folder / f"banco{n}.log")
        servers.append(server)
        server.wait_until_serving()
    return servers


def journal(proxy: Proxy, game_id: str, token: str) -> list[dict]:
    entries: list[dict] = []
    for _ in range(100):
        since = entries[-1]["version"] if entries else 0
        status, page = request(proxy, "GET", f"/api/v1/games/{game_id}/events?since={since}", token=token)
        assert status == 200, page
        entries += page["events"]
        if not page["more"]:
            return entries
    raise AssertionError("the journal did not end")


def made(entry: dict) -> dt.datetime:
    """When the server made a journal entry (UTC, as the API says it)."""
    return dt.datetime.fromisoformat(entry["at"].removesuffix("Z"))


def latest(times: list[float | None]) -> float | None:
    """The last of the pages' times, None when a page has none."""
    return None if any(t is None for t in times) else max(t for t in times if t is not None)


def verify(database_url: str) -> tuple[int, str]:
    """``flask --app app banco verify`` on the database, as the host runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "banco", "verify"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, (done.stdout + done.stderr).strip()


def run_evening(
    folder: Path,
    database_url: str,
    *,
    players: int = 8,
    each: int = 6,
    pages: int = 10,
    kill_round: int = 2,
    victim: int = 0,
    period: float = 0.3,
    kill_delay: float = 0.01,
    proxy_name: str = "nginx",
) -> Evening:
    """Two servers behind ``proxy_name`` (``PROXIES``) on ``database_url``; ``players`` phones paying ``each`` payments,
    all at once every ``period`` (a round), and ``pages`` live pages; server ``victim`` killed
    ``kill_delay`` after round ``kill_round`` (from 0) is tapped, while its payments are on
    their way."""
    assert 0 < kill_round < each
    https_port, http_port = free_port(), free_port()
    public_url = f"https://{SITE_NAME}"
    servers = start_servers(folder, database_url, public_url)
    proxy = None
    readers: list[Page] = []
    closing = threading.Event()
    try:
        proxy = PROXIES[proxy_name](folder / proxy_name, (servers[0].port, servers[1].port), https_port, http_port)
        problems = [] if proxy.redirects() else ["plain http does not move to https"]
        problems += through_https(proxy)
        names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"][:players]
        status, game = request(proxy, "POST", "/api/v1/games", {"edition": "classic-it", "players": names})
        assert status == 201, game
        status, started = request(
            proxy, "POST", f"/api/v1/games/{game['id']}/actions", {"type": "start"}, game["banker_token"]
        )
        assert status == 200, started
        seated = game["players"]
        tokens = [p["token"] for p in seated] + [game["banker_token"]]
        readers = [Page(proxy, game["id"], tokens[i % len(tokens)], closing) for i in range(pages)]
        for page in readers:
            page.start()
        first = started["version"]
        deadline = time.monotonic() + 20
        while not all(page.last >= first for page in readers):
            assert time.monotonic() < deadline, "the pages did not open"
            time.sleep(0.02)

        # Payer i pays the next player; each payment's amount is its own, so the journal tells them apart.
        payments = {
            i: [Payment(seated[i], seated[(i + 1) % players], 1 + j * players + i) for j in range(each)]
            for i in range(players)
        }
        start = time.monotonic() + 0.2
        deadline = start + each * period + 20
        phones = [Phone(proxy, game["id"], payments[i], start, period, deadline) for i in range(players)]
        for phone in phones:
            phone.start()
        time.sleep(max(0.0, start + kill_round * period + kill_delay - time.monotonic()))
        killed, killed_on = time.monotonic(), dt.datetime.now(dt.UTC).replace(tzinfo=None)
        servers[victim].kill()
        for phone in phones:
            phone.join(max(0.1, deadline - time.monotonic() + 5))
        last_answer = time.monotonic()
        final = first + players * each
        catch_up = time.monotonic() + 5
        while not all(page.last >= final for page in readers) and time.monotonic() < catch_up:
            time.sleep(0.02)
        closing.set()
        for page in readers:
            page.join(5)

        everything = [p for group in payments.values() for p in group]
        entries = journal(proxy, game["id"], game["banker_token"])
        transfers = [e for e in entries if e["type"] == "transfer"]
        # The last version made before the kill, by the journal's own times (this machine's
        # clock): read after the evening, it does not depend on how soon this thread ran.
        at_kill = max(e["version"] for e in entries if made(e) < killed_on)
        taken: dict[tuple[str, int], int] = {}
        before_kill: set[tuple[str, int]] = set()
        for entry in transfers:
            mark = (entry["actor"], entry["params"].get("amount"))
            taken[mark] = taken.get(mark, 0) + 1
            if made(entry) < killed_on:
                before_kill.add(mark)
        marks = {(p.payer["id"], p.amount) for p in everything}
        lost = sum(1 for mark in marks if mark not in taken)
        doubled = sum(count - 1 for count in taken.values()) + sum(1 for mark in taken if mark not in marks)
        expected = {p["id"]: 0 for p in seated}
        for p in everything:
            expected[p.payer["id"]] -= p.amount
            expected[p.to["id"]] += p.amount
        status, state = request(proxy, "GET", f"/api/v1/games/{game['id']}", token=game["banker_token"])
        assert status == 200, state
        cash = {p["id"]: p["cash"] for p in state["players"]}
        balances_right = all(cash[i] == START_CASH + expected[i] for i in expected)

        cut = [page for page in readers if any(at >= killed for at in page.cuts)]
        # A version made after the kill: the page is live again, through the server left.
        caught = [page.reached(at_kill + 1, killed) for page in readers]
        recovered = [page.reached(final, last_answer) for page in readers]
        for n, page in enumerate(cut):
            if not any(at > killed for at in page.opened):
                problems.append(f"page {n} was cut and never opened its stream again")
        for server in servers:
            if server is not servers[victim] and "Traceback" in server.output():
                problems.append(f"the surviving server wrote a Traceback:\n{server.output()[-3000:]}")
        code, said = verify(database_url)
        survivor = servers[1 - victim].output()
    finally:
        closing.set()
        for page in readers:
            if page.sock is not None:
                page.sock.close()
            page.join(5)
        # The servers first: they end their streams, which Caddy would otherwise wait for.
        for server in servers:
            server.stop()
        if proxy is not None:
            proxy.stop()
    return Evening(
        payments=len(everything),
        answered=sum(1 for p in everything if p.status == 200),
        retried=sum(1 for p in everything if p.tries > 1),
        replayed=sum(1 for p in everything if p.tries > 1 and (p.payer["id"], p.amount) in before_kill),
        lost=lost,
        doubled=doubled,
        transfers=len(transfers),
        balances_right=balances_right,
        cut_pages=len(cut),
        recovery=latest(caught),
        final_lag=latest(recovered),
        verify=said,
        verify_code=code,
        survivor_output=survivor,
        problems=problems,
    )


# --- Caddy's active health check -----------------------------------------------------------------


def caddy_health_interval() -> float:
    """The Caddyfile's ``health_interval``, in seconds."""
    found = re.search(r"^\s+health_interval (\d+)s$", CADDYFILE.read_text(), re.M)
    assert found, "docs/hosting/Caddyfile no longer sets health_interval in whole seconds"
    return float(found[1])


@dataclass
class Drain:
    """Where Caddy sent ``sent`` requests (``GET /api/v1/editions``) before and while the
    first server drained (told to stop, ``/readyz`` 503, still serving)."""

    sent: int
    before: tuple[int, int]  # answered by (the draining server, the other) before it was told to stop
    during: tuple[int, int]  # the same, from ``health_interval`` + ``margin`` after it was told
    statuses: list[int]  # Caddy's answers during the drain
    draining_ready: int  # /readyz asked of the draining server itself, during the drain
    draining_serves: int  # GET /api/v1/editions asked of the draining server itself, meanwhile


def run_drain(folder: Path, database_url: str, *, sent: int = 20, margin: float = 1.5) -> Drain:
    """Two servers behind the guide's Caddyfile; ``sent`` requests through Caddy; the first
    server told to stop, with a drain longer than the check needs (``BANCO_DRAIN_SECONDS``:
    ``health_interval`` + ``margin`` + 5 s), so it still serves and only its ``/readyz``
    says no; then, ``health_interval`` + ``margin`` later, ``sent`` requests again."""
    interval = caddy_health_interval()
    drain = {"BANCO_DRAIN_SECONDS": str(int(interval + margin + 5))}
    servers = start_servers(folder, database_url, f"https://{SITE_NAME}", first=drain)
    proxy = None
    try:
        proxy = Caddy(folder / "caddy", (servers[0].port, servers[1].port), free_port(), free_port())

        def counts() -> tuple[int, int]:
            return servers[0].answered("api"), servers[1].answered("api")

        def through_caddy(caddy: Caddy) -> list[int]:
            return [request(caddy, "GET", "/api/v1/editions")[0] for _ in range(sent)]

        start = counts()
        assert through_caddy(proxy) == [200] * sent, "Caddy did not answer every request before the drain"
        told = counts()
        servers[0].tell_to_stop()
        time.sleep(interval + margin)
        statuses = through_caddy(proxy)
        during = counts()
        direct = http.client.HTTPConnection("127.0.0.1", servers[0].port, timeout=10)
        try:
            direct.request("GET", "/readyz")
            ready = direct.getresponse()
            ready.read()
            direct.request("GET", "/api/v1/editions")
            serves = direct.getresponse()
            serves.read()
        finally:
            direct.close()
    finally:
        # The servers first: they end their streams, which Caddy would otherwise wait for.
        for server in servers:
            server.stop()
        if proxy is not None:
            proxy.stop()
    return Drain(
        sent=sent,
        before=(told[0] - start[0], told[1] - start[1]),
        during=(during[0] - told[0], during[1] - told[1]),
        statuses=statuses,
        draining_ready=ready.status,
        draining_serves=serves.status,
    )
