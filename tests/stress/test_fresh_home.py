"""Processes starting together on a fresh home each set up the vector store and the database without failing."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.stress.fast_cli import ROOT, environment

_OPEN = """
import sys, time
from pathlib import Path
from ingest.vectorstore import VectorStore
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
start = float(sys.argv[2])
while time.time() < start:
    time.sleep(0.001)
settings = Settings(home=Path(sys.argv[1]))
VectorStore(settings, sys.argv[3])
open_engine(settings)
print("ready")
"""


def test_parallel_first_starts_on_a_fresh_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    start = time.time() + 8  # after every process has done its imports
    procs = [
        subprocess.Popen([sys.executable, "-c", _OPEN, str(home), str(start + i * 0.02), ["default", "other"][i % 2]],
                         cwd=ROOT, env=environment(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(4)
    ]
    outcomes = [p.communicate(timeout=180) for p in procs]
    # Without the home's set-up lock, Chroma's own schema set-up raced: "table collections already exists".
    assert [out.strip() for out, _ in outcomes] == ["ready"] * 4, [err[-800:] for _, err in outcomes]
