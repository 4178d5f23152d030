#!/usr/bin/env python3
"""The first move after a restart: how long until it reaches another phone.

Starts ``python app.py`` (a temporary SQLite file, a free port on 127.0.0.1), opens a table in
Chromium with two phones at 390x844 (Anna, Bruno), starts the game, then stops the server as
Ctrl+C does (SIGINT), waits ``--down`` seconds (a laptop's restart), starts it again on the
same database and port and, as soon as it accepts connections, ``--wait`` seconds later Anna
pays Bruno. Measured, ``--runs`` times: from Anna's tap on Confirm to Bruno's balance showing
the payment; and on Bruno's page, when its stream reconnected and when the payment's event
came. Contacts only 127.0.0.1; prints figures and exits 0 whatever they are.

    .venv/bin/python bench/bench_restart.py
    .venv/bin/python bench/bench_restart.py --runs 5 --down 2 --wait 0
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Bruno's page notes when its stream opens and when each event arrives (performance.now, ms).
SPY = """
window.__live = [];
(function () {
  var Real = window.EventSource;
  if (!Real) { return; }
  window.EventSource = function (url, options) {
    var source = new Real(url, options);
    source.addEventListener("open", function () { window.__live.push(["open", performance.now()]); });
    source.addEventListener("error", function () { window.__live.push(["error", performance.now()]); });
    source.addEventListener("version", function (e) { window.__live.push(["version", performance.now(), e.data]); });
    return source;
  };
  window.EventSource.prototype = Real.prototype;
  var realFetch = window.fetch;
  window.fetch = function (url, options) {
    var at = performance.now();
    return realFetch(url, options).then(function (r) {
      window.__live.push(["fetch", at, String(url).split("?")[1] || "", r.status, performance.now() - at]);
      return r;
    }, function (err) {
      window.__live.push(["fetch", at, String(url).split("?")[1] || "", "failed", performance.now() - at]);
      throw err;
    });
  };
})();
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, database: str, log) -> subprocess.Popen:
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SECRET_KEY": "bench",
        "DATABASE_URL": database,
        "BANCO_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "BANCO_BACKUP_MINUTES": "0",
    }
    return subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def wait_listening(port: int, proc: subprocess.Popen, seconds: float = 30) -> float:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return time.monotonic()
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("app.py exited") from None
            time.sleep(0.02)
    raise SystemExit("app.py did not start")


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cash(page) -> str:
    return page.locator(".balance-cash").inner_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--down", type=float, default=1.0, help="seconds the server stays down")
    parser.add_argument("--wait", type=float, default=0.5, help="seconds after it listens before Anna pays")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import ARGS, CHROMIUM, PHONE
    from tests.e2e.test_table import open_table, sit_down

    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="banco-restart-"))
    database = f"sqlite:///{folder / 'banco.sqlite3'}"
    log = (folder / "server.log").open("wb")
    url = f"http://127.0.0.1:{port}"
    proc = start_server(port, database, log)
    wait_listening(port, proc)
    figures = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = []
            for _ in range(3):
                page = browser.new_context(locale="en-GB", bypass_csp=True, **PHONE).new_page()
                page.add_init_script(SPY)
                pages.append(page)
            host, anna, bruno = pages
            code = open_table(host, url, ["Anna", "Bruno"])
            sit_down(anna, url, code, "Anna")
            sit_down(bruno, url, code, "Bruno")
            host.locator("form:has(input[value=start]) button").click()
            bruno.wait_for_function("document.querySelector('.balance-cash') !== null", timeout=10000)
            for run in range(args.runs):
                anna.reload()
                bruno.reload()
                bruno.wait_for_function("window.__live.some(e => e[0] === 'open')", timeout=10000)
                before = cash(bruno)
                stop_server(proc)
                time.sleep(args.down)
                proc = start_server(port, database, log)
                listening = wait_listening(port, proc)
                time.sleep(args.wait)
                anna.locator("#pay-form label.choice", has_text="Bruno").click()
                anna.fill("#pay-amount", "1")
                anna.locator("form[data-confirm] button.btn-big").click()
                anna.locator("#confirm").wait_for(state="visible")
                bruno_clock = bruno.evaluate("performance.now()")
                tapped = time.monotonic()
                anna.click("#confirm-ok")
                bruno.wait_for_function(
                    "before => document.querySelector('.balance-cash').innerText !== before",
                    arg=before,
                    timeout=30000,
                    polling=10,
                )
                shown = time.monotonic()
                live = bruno.evaluate("window.__live")
                tap_ms = bruno_clock  # Bruno's clock at the tap (to a few ms)
                opens = [e[1] - tap_ms for e in live if e[0] == "open" and e[1] > tap_ms - 60000]
                events = [e[1] - tap_ms for e in live if e[0] == "version" and e[1] > tap_ms]
                figures.append((shown - tapped) * 1000)
                print(
                    f"run {run + 1}: listening {(tapped - listening) * 1000:.0f} ms before the tap; "
                    f"reached Bruno {(shown - tapped) * 1000:.0f} ms after the tap; "
                    f"Bruno's stream reopened at {', '.join(f'{o:+.0f}' for o in opens[-2:])} ms, "
                    f"first event at {events[0] if events else float('nan'):+.0f} ms (from the tap)",
                    flush=True,
                )
                for e in live:
                    if e[0] == "fetch" and e[1] > tap_ms - 2000:
                        print(f"    fetch at {e[1] - tap_ms:+.0f} ms: {e[2][:40]} {e[3]} in {e[4]:.0f} ms")
                assert re.search(r"\d", cash(bruno))
            browser.close()
    finally:
        stop_server(proc)
        log.close()
    print(
        f"\nfirst move after a restart reached the other phone in: median {statistics.median(figures):.0f} ms, "
        f"worst {max(figures):.0f} ms over {len(figures)} runs (server down {args.down} s, paid {args.wait} s after it listened)"
    )


if __name__ == "__main__":
    main()
