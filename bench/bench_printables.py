"""Times the full deed sheet of the largest built-in edition (the one with most deeds).

Run from the project root:  /work/venv/bin/python bench/bench_printables.py [repetitions]
Target: under 2 s per sheet. "cold" is the first call in this process, before the QR
matrices are cached; "warm" are the calls after it (a server printing the same set again).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import printables  # noqa: E402

BASE_URL = "http://192.168.1.23:5000"


def main(repetitions: int = 5) -> None:
    editions = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "companion" / "editions").glob("*.json"))
                if not p.name.endswith(".schema.json")]
    edition = max(editions, key=lambda e: len(e["deeds"]))
    print(f"edition {edition['id']}: {len(edition['deeds'])} deeds, {repetitions} repetitions per paper")
    for paper in ("a4", "letter"):
        printables._draw.qr_matrix.cache_clear()
        times, size = [], 0
        for _ in range(repetitions):
            start = time.perf_counter()
            pdf = printables.deed_cards_pdf(edition, BASE_URL, paper=paper)
            times.append(time.perf_counter() - start)
            size = len(pdf)
        warm = times[1:] or times
        print(f"{paper:6} cold {times[0]:.3f} s | warm min {min(warm):.3f} s, median {statistics.median(warm):.3f} s"
              f" | all median {statistics.median(times):.3f} s | PDF {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
