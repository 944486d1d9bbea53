"""Judging latency: a 10-claim draft against sample_docs, offline, once the model is loaded.

    python bench/judge_latency.py [--runs 7] [--json]

Prints each run and the median; the goal is under 2 s per draft.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_judge  # noqa: E402

DRAFT = """The nightly hotel cap for standard locations is $220.
The domestic meal per diem is $75 per day.
Expense reports must be submitted within 30 days after the trip ends.
Security incidents must be reported within 4 hours of discovery.
Passwords must be at least 16 characters long.
Refunds are paid within three business days of approval.
Employees may work remotely up to 3 days a week.
Security and audit logs are kept for 400 days.
Q3 2026 revenue was $48.6 million.
Every employee receives a $1,000 annual wellness stipend."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp))
        embedder = Embedder(settings.embedding)
        build_ingestor(settings, embedder=embedder).run([ROOT / "sample_docs"])
        judge = build_judge(settings, embedder=embedder)
        warm = judge.run("warm up", DRAFT)  # loads the model and the tokenizer
        claims = len(warm.entries)
        timings = []
        for _ in range(args.runs):
            # A judge built as the product builds it, with an empty embedding cache: a cold draft.
            judge = build_judge(settings, embedder=embedder)
            started = time.perf_counter()
            judge.run("What are the company's rules?", DRAFT)
            timings.append(time.perf_counter() - started)
    median = statistics.median(timings)
    print(f"{claims} claims; checker {judge.checker.name}; runs: " + ", ".join(f"{t:.3f}s" for t in timings))
    print(f"median {median:.3f} s (goal < 2 s)")
    if args.json:
        print(json.dumps({"claims": claims, "runs": len(timings), "median_s": round(median, 3)}))


if __name__ == "__main__":
    main()
