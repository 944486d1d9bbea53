"""`evidence` as a user runs it, but with the instant hash embedder: for tests that start many processes.

Run as `python -m tests.stress.fast_cli ARGS...` from the repository root. Everything but the embedding model is
the real product (Chroma, SQLite, locks, the CLI's messages and exit codes), so what these tests check, stores
agreeing under concurrency, does not depend on the model; only each process's start-up cost does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def evidence(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run one fast `evidence` command to completion."""
    return subprocess.run(command(*args), env=environment(home), cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def start(home: Path, *args: str) -> subprocess.Popen[str]:
    """Start one fast `evidence` command; the caller waits for it."""
    return subprocess.Popen(command(*args), env=environment(home), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.stress.fast_cli", *args]


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")}
    return {**env, "EVIDENCE_HOME": str(home), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
            "COLUMNS": "200", "PYTHONPATH": str(ROOT)}


def main() -> None:
    from ledger.cli import main as cli_main
    from ledger.loop import factory
    from tests.fakes import HashEmbedder

    factory.build_embedder = lambda settings: HashEmbedder()  # type: ignore[assignment]
    sys.argv[0] = "evidence"
    cli_main()


if __name__ == "__main__":
    main()
