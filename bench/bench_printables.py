"""Times and weighs the two big sheets: the deed sheet of the largest built-in edition (the one
with most deeds) and the money for 8 players of the classic edition.

Run from the project root:  .venv/bin/python bench/bench_printables.py [repetitions]

"cold" is the first sheet drawn in a fresh Python process that has imported ``printables``
and nothing else: it includes registering the fonts and choosing every QR code's mask.
"warm" are the calls after it in the same process (a server printing again). "import" is
``import printables`` itself, paid once when the server starts. Times are wall-clock; the
CPU time of the same calls is printed too, since on a busy machine the wall clock waits
for other processes (``uptime`` shows the load the figures were taken under).
Targets: deeds under 0.5 s cold and 300 KB; money for 8 players under 1 s cold and 500 KB.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE_URL = "http://192.168.1.23:5000"
TARGETS = {"deeds": (0.5, 300_000), "money": (1.0, 500_000)}

# Run in a fresh interpreter for each paper and sheet, so that "cold" is really cold.
_CHILD = r"""
import json, statistics, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
import printables
imported = time.perf_counter() - t0
editions = [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(__import__("pathlib").Path({root!r}, "companion", "editions").glob("*.json"))
            if not p.name.endswith(".schema.json")]
largest = max(editions, key=lambda e: len(e["deeds"]))
classic = next(e for e in editions if e["id"] == "classic-it")
if {sheet!r} == "deeds":
    make, label = (lambda: printables.deed_cards_pdf(largest, {base!r}, paper={paper!r})), largest["id"]
else:
    make, label = (lambda: printables.money_pdf(classic, 8, paper={paper!r})), "classic-it, 8 players"
times, cpu = [], []
for _ in range({repetitions}):
    start, start_cpu = time.perf_counter(), time.process_time()
    pdf = make()
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
print(json.dumps({{"label": label, "import": imported, "times": times, "cpu": cpu, "size": len(pdf)}}))
"""


def measure(sheet: str, paper: str, repetitions: int) -> dict:
    code = _CHILD.format(root=str(ROOT), sheet=sheet, paper=paper, base=BASE_URL, repetitions=repetitions)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(repetitions: int = 6) -> int:
    missed = 0
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"{repetitions} calls per sheet and paper, each sheet in a fresh process; load average {load}")
    for sheet in ("deeds", "money"):
        for paper in ("a4", "letter"):
            result = measure(sheet, paper, repetitions)
            cold, warm = result["times"][0], result["times"][1:] or result["times"]
            limit_s, limit_bytes = TARGETS[sheet]
            ok = cold < limit_s and result["size"] < limit_bytes
            missed += not ok
            cpu_cold, cpu_warm = result["cpu"][0], result["cpu"][1:] or result["cpu"]
            print(
                f"{sheet:5} {paper:6} ({result['label']}): import {result['import']:.2f} s | cold {cold:.3f} s | "
                f"warm min {min(warm):.3f} s, median {statistics.median(warm):.3f} s | "
                f"CPU cold {cpu_cold:.3f} s, warm median {statistics.median(cpu_warm):.3f} s | "
                f"PDF {result['size'] / 1000:.0f} KB | target {limit_s} s, {limit_bytes // 1000} KB: "
                f"{'met' if ok else 'MISSED'}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6))
