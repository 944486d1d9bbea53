"""A real SIGKILL in the middle of an ingest: the next run completes it, with no duplicates and no drift."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.hashing import vector_id
from ingest.vectorstore import VectorStore
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.documents import Registry

N_FILES = 300


def _registered(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # table not created yet


@pytest.mark.model
def test_sigkill_midway_is_completed_by_the_next_run(tmp_path: Path, home: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(N_FILES):
        (docs / f"memo_{i:03}.txt").write_text(
            f"Memo {i}. Team {i} must close ticket batch {i} within {i % 7 + 1} days. "
            f"The budget line for team {i} is {i * 13} euros per quarter.\n"
        )
    env = {**os.environ, "EVIDENCE_HOME": str(home), "EVIDENCE_INGEST__EMBED_BUFFER": "8", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-c", "from ledger.cli import main; main()", "ingest", str(docs), "--json"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = home / "ledger.db"
    deadline = time.monotonic() + 120
    while _registered(db) < 40 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "ingest finished before it could be killed; make the corpus larger"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = _registered(db)
    assert 0 < partial < N_FILES

    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr

    settings = Settings(home=home)
    registry = Registry(open_engine(settings), "default")
    store = VectorStore(settings, "default")
    documents = registry.all()
    assert len(documents) == N_FILES
    referenced = [vector_id(d.id, h) for d in documents for h in d.chunk_hashes]
    assert len(referenced) == len(set(referenced))
    assert store.ids() == set(referenced)  # registry and Chroma agree
    assert store.count() == len(referenced)  # no duplicate vectors
