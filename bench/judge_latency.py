"""Judging latency: a 10-claim draft against sample_docs, offline, once the model is loaded.

    python bench/judge_latency.py [--runs 7] [--json] [--sentences K]

Prints each run, the median and the texts embedded per draft; the goal is under 1 s per draft. Each run builds
the judge as the product does, with empty embedding caches: a cold draft. `--sentences 0` embeds every sentence
of every candidate chunk, as the judge did before it read only the likeliest ones (the default K is the judge's).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.judge.judge import Judge  # noqa: E402
from ledger.judge.support import LocalSupportChecker  # noqa: E402
from ledger.loop.factory import build_ingestor, build_judge, vector_cache_dir  # noqa: E402

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


class CountingEmbedder(Embedder):
    """The embedder, counting the texts that reach the model."""

    texts = 0

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        CountingEmbedder.texts += len(texts)
        return super().encode(texts, batch_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sentences", type=int, default=Judge.sentences_per_chunk or 0,
                        help="sentences embedded per claim and chunk, with their neighbours and headings (0: all)")
    args = parser.parse_args()
    Judge.sentences_per_chunk = LocalSupportChecker.sentences_per_pair = args.sentences or None
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp))
        embedder = CountingEmbedder(settings.embedding)
        build_ingestor(settings, embedder=embedder).run([ROOT / "sample_docs"])
        judge = build_judge(settings, embedder=embedder)
        warm = judge.run("warm up", DRAFT)  # loads the model and the tokenizer
        claims = len(warm.entries)
        timings, embedded, warm_timings = [], [], []
        for _ in range(args.runs):
            # A judge built as the product builds it, with empty embedding caches (memory and the home's vector
            # cache): a cold draft, the first about these documents.
            shutil.rmtree(vector_cache_dir(settings), ignore_errors=True)
            judge = build_judge(settings, embedder=embedder)
            CountingEmbedder.texts = 0
            started = time.perf_counter()
            judge.run("What are the company's rules?", DRAFT)
            timings.append(time.perf_counter() - started)
            embedded.append(CountingEmbedder.texts)
        for _ in range(args.runs):
            # A later draft in a new process: the home's vector cache has the documents' sentences.
            judge = build_judge(settings, embedder=embedder)
            started = time.perf_counter()
            judge.run("What are the company's rules?", DRAFT)
            warm_timings.append(time.perf_counter() - started)
    median, warm = statistics.median(timings), statistics.median(warm_timings)
    print(f"{claims} claims; checker {judge.checker.name}; sentences per chunk {args.sentences or 'all'}; runs: "
          + ", ".join(f"{t:.3f}s" for t in timings))
    print(f"median {median:.3f} s (goal < 1 s); texts embedded per draft {embedded[-1]}; "
          f"with the home's vector cache warm: median {warm:.3f} s")
    if args.json:
        print(json.dumps({"claims": claims, "runs": len(timings), "median_s": round(median, 3),
                          "warm_cache_median_s": round(warm, 3), "embedded": embedded[-1],
                          "sentences": args.sentences or None}))


if __name__ == "__main__":
    main()
