"""Several processes opening one fresh database at once: every one gets the full schema, none fails."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from ledger.core.settings import Settings
from ledger.storage.database import MIGRATIONS, open_engine

_OPEN = """
import sys, time
from pathlib import Path
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
start = float(sys.argv[2])
while time.time() < start:
    time.sleep(0.001)
open_engine(Settings(home=Path(sys.argv[1])))
print("opened")
"""
ROOT = Path(__file__).resolve().parents[3]


def test_parallel_first_opens_all_migrate_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    start = time.time() + 6  # every process waits for the same instant, after its imports
    procs = [
        subprocess.Popen([sys.executable, "-c", _OPEN, str(home), str(start + i * 0.005)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(6)
    ]
    outcomes = [p.communicate(timeout=120) for p in procs]
    # Before the migrations took the database's write lock, about one open in four failed here with
    # "table documents already exists" or "table runs already exists".
    assert [out.strip() for out, _ in outcomes] == ["opened"] * 6, [err[-500:] for _, err in outcomes]
    with open_engine(Settings(home=home)).connect() as conn:
        numbers = [row[0] for row in conn.execute(text("SELECT number FROM schema_migrations ORDER BY number"))]
        mode = conn.execute(text("PRAGMA journal_mode")).scalar()
    assert numbers == sorted(n for n, _, _ in MIGRATIONS)
    assert mode == "wal"
