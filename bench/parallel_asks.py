"""Parallel asks on one home: throughput, latency and errors when several questions run at once.

    python bench/parallel_asks.py [--workers 3] [--asks 9] [--mode threads|processes] [--home DIR] [--json]

Ingests sample_docs into a temporary home (or uses --home as it is), then runs --asks questions spread over
--workers at once. `threads`: one process, each worker its own recorded pipeline built through the factory (as
the UI serves several users; the model loads once). `processes`: each ask is its own `evidence ask --json`
process (as scripts do; every process loads the model). Every run is stored with its audit row, so afterwards
the audit chain is verified and the stored runs are counted: a lost or doubled row is an error too.
Prints asks/min, median and p90 latency, and the errors.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_recorded, build_run_store  # noqa: E402

QUESTIONS = [
    "What is the nightly hotel cap?",
    "How long are security logs kept?",
    "How many days a week may employees work remotely?",
    "What was the revenue in the third quarter?",
    "Within how many days must expense reports be submitted?",
    "How quickly must a security incident be reported?",
    "How long do refunds take?",
    "What must a new vendor provide before onboarding?",
    "What is the meal allowance per day?",
]


def _ask_in_thread(settings: Settings, embedder: Embedder, question: str) -> tuple[float, str | None]:
    started = time.perf_counter()
    try:
        build_recorded(settings, embedder=embedder).ask(question)
    except Exception as exc:  # a bench counts every failure, whatever it is
        return time.perf_counter() - started, f"{exc.__class__.__name__}: {exc}"
    return time.perf_counter() - started, None


def _ask_in_process(home: Path, question: str) -> tuple[float, str | None]:
    env = {**os.environ, "EVIDENCE_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from ledger.cli import main; main()", "ask", question, "--json"],
                          env=env, capture_output=True, text=True, timeout=900)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "database is locked" in done.stderr:
        return elapsed, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return elapsed, None


def run(home: Path, workers: int, asks: int, mode: str) -> dict[str, object]:
    """Run the asks and return the figures."""
    settings = Settings(home=home)
    embedder = Embedder(settings.embedding)
    if not build_ingestor(settings, embedder=embedder).registry.all():
        build_ingestor(settings, embedder=embedder).run([ROOT / "sample_docs"])
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(asks)]
    runs_before = len(build_run_store(settings).list_runs())
    if mode == "threads":
        build_recorded(settings, embedder=embedder).ask("warm up")  # the model loads once, before the clock
        runs_before += 1
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        if mode == "threads":
            results = list(pool.map(lambda q: _ask_in_thread(settings, embedder, q), questions))
        else:
            results = list(pool.map(lambda q: _ask_in_process(home, q), questions))
    wall = time.perf_counter() - started
    store = build_run_store(settings)
    stored = len(store.list_runs()) - runs_before
    chain = store.verify()
    errors = [e for _, e in results if e]
    if stored != asks - len(errors):
        errors.append(f"{asks - len(errors)} asks succeeded but {stored} runs were stored")
    if not chain.ok:
        errors.append(f"audit verify failed: {chain.first_bad}")
    latencies = sorted(t for t, _ in results)
    return {
        "mode": mode,
        "workers": workers,
        "asks": asks,
        "wall_s": round(wall, 2),
        "asks_per_min": round(60 * asks / wall, 1),
        "median_latency_s": round(statistics.median(latencies), 2),
        "p90_latency_s": round(latencies[max(0, int(0.9 * len(latencies)) - 1)], 2),
        "errors": len(errors),
        "error_messages": errors[:5],
        "runs_stored": stored,
        "audit_chain_ok": chain.ok,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--asks", type=int, default=9)
    parser.add_argument("--mode", choices=["threads", "processes"], default="threads")
    parser.add_argument("--home", type=Path, help="An existing home to ask (default: a temporary one).")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.home:
        figures = run(args.home, args.workers, args.asks, args.mode)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            figures = run(Path(tmp), args.workers, args.asks, args.mode)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['asks']} asks, {figures['workers']} at once ({figures['mode']}): "
          f"{figures['asks_per_min']} asks/min, median {figures['median_latency_s']} s, "
          f"p90 {figures['p90_latency_s']} s, wall {figures['wall_s']} s")
    print(f"errors: {figures['errors']}; runs stored: {figures['runs_stored']}; "
          f"audit chain {'intact' if figures['audit_chain_ok'] else 'BROKEN'}")
    for message in figures["error_messages"]:  # type: ignore[attr-defined]
        print(f"  {message}")


if __name__ == "__main__":
    main()
