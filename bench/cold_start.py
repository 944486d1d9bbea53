"""Cold-start times of `evidence --help`, `evidence docs` and `evidence ask`: each a new process, as a user runs it.

"Cold" means a new interpreter with nothing imported and no model loaded; the operating system's file cache is
warm (every command runs once before it is timed), as it is on a machine in use. A temporary EVIDENCE_HOME gets
sample_docs ingested once beforehand (not timed). Each figure is the median wall time of `--runs` runs of the
whole command, from the process start to its exit, output discarded; beside it, the median CPU seconds (user +
system) the command's processes used, which a busy machine inflates much less than wall time.

Then one `evidence ask` is taken apart in a new process: the seconds spent importing the CLI, building the loop
(importing Chroma, NLTK, the judge, the database), loading the model (importing torch and sentence-transformers,
or onnxruntime, and reading the weights), and answering.

Goals: help and docs under 1 s, a cold ask under 4 s.

    python bench/cold_start.py [--runs 5] [--docs sample_docs] [--checkout DIR] [--json]

`--checkout DIR` times another copy of the code (e.g. an older commit: `git worktree add /tmp/old COMMIT`), run as
`python -c "from ledger.cli import main; main()"` from DIR, which is what the `evidence` script runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "How long are security and audit logs retained?"
GOALS = {"help_s": 1.0, "docs_s": 1.0, "ask_s": 4.0}

_PHASES = """
import json, sys, time
t0 = time.perf_counter()
marks = {}
import ledger.cli
marks["import the CLI"] = time.perf_counter()
from ledger.core.settings import load_settings
from ledger.loop.factory import build_recorded
settings = load_settings()
recorder = build_recorded(settings)
marks["build the loop (Chroma, NLTK, judge, database)"] = time.perf_counter()
recorder.pipeline.judge.retriever.embedder.encode(["warm"])
marks["load the model (torch or onnxruntime, weights)"] = time.perf_counter()
recorder.ask(sys.argv[1])
marks["answer (retrieve, write, judge, store)"] = time.perf_counter()
last, out = t0, {}
for name, t in marks.items():
    out[name] = round(t - last, 2)
    last = t
print(json.dumps(out))
"""


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("EVIDENCE_DATABASE_URL", "EVIDENCE_CHROMA_URL",
                                                           "EVIDENCE_WORKSPACE", "EVIDENCE_CONFIG")}
    env.update(EVIDENCE_HOME=str(home), HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    return env


def timed(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `cmd` (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-1000:]}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (the median is reported)")
    parser.add_argument("--docs", type=Path, default=ROOT / "sample_docs", help="folder ingested beforehand")
    parser.add_argument("--checkout", type=Path, help="time the code of this folder instead of the installed one")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args()
    cwd = args.checkout.resolve() if args.checkout else None
    evidence = [sys.executable, "-c", "from ledger.cli import main; main()"] if cwd else [
        str(Path(sys.executable).parent / "evidence")]
    home = Path(tempfile.mkdtemp(prefix="cold_start_"))
    try:
        env = _env(home)
        started = time.perf_counter()
        subprocess.run([*evidence, "ingest", str(args.docs.resolve()), "--json"], env=env, check=True,
                       capture_output=True, cwd=cwd)
        print(f"ingested {args.docs} in {time.perf_counter() - started:.0f} s (not timed)", flush=True)
        commands = {
            "help_s": [*evidence, "--help"],
            "docs_s": [*evidence, "docs"],
            "ask_s": [*evidence, "ask", QUESTION, "--json"],
        }
        figures: dict[str, float] = {}
        cpu: dict[str, float] = {}
        for name, cmd in commands.items():
            timed(cmd, env, cwd)  # the file cache warms; not counted
            runs = [timed(cmd, env, cwd) for _ in range(args.runs)]
            figures[name] = round(statistics.median(r[0] for r in runs), 2)
            cpu[name.replace("_s", "_cpu_s")] = round(statistics.median(r[1] for r in runs), 2)
            verdict = "met" if figures[name] < GOALS[name] else "NOT met"
            walls = [round(r[0], 2) for r in runs]
            print(f"{' '.join(cmd[len(evidence):]):50s} median {figures[name]:.2f} s of {walls}, "
                  f"CPU {cpu[name.replace('_s', '_cpu_s')]:.2f} s (goal < {GOALS[name]:g} s: {verdict})", flush=True)
        phases = subprocess.run([sys.executable, "-c", _PHASES, QUESTION], env=env, capture_output=True, text=True,
                                cwd=cwd or ROOT, check=True)
        print("one cold ask, taken apart (s):", phases.stdout.strip().splitlines()[-1])
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} (2 cores)")
        if args.json:
            print(json.dumps({**figures, **cpu}))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
