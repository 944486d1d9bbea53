"""A run's row, its ledger entries and its audit row are written in one transaction: a failure or a SIGKILL at any
point leaves all of them or none, and `evidence audit verify` passes afterwards."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.storage import runs as runs_module
from ledger.storage.database import open_engine
from ledger.storage.runs import PAUSE_ENV, RunStore
from tests.ledger.audit_fixtures import flawed_run, simple_run

STAGES = ("run", "entries", "audit", "committed")
ROOT = Path(__file__).resolve().parents[3]
EVIDENCE = Path(sys.executable).with_name("evidence")


def _counts(home: Path) -> tuple[int, int, int]:
    with sqlite3.connect(home / "ledger.db") as conn:
        return tuple(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]  # type: ignore[return-value]
                     for t in ("runs", "ledger_entries", "audit_log"))


def _orphans(home: Path) -> int:
    """Ledger entries without their run, and runs without their audit row."""
    with sqlite3.connect(home / "ledger.db") as conn:
        return int(conn.execute(
            "SELECT (SELECT COUNT(*) FROM ledger_entries WHERE session_id NOT IN (SELECT session_id FROM runs)) + "
            "(SELECT COUNT(*) FROM runs WHERE session_id NOT IN (SELECT session_id FROM audit_log))").fetchone()[0])


def _verify(home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EVIDENCE_HOME": str(home)}
    env.pop(PAUSE_ENV, None)
    return subprocess.run([str(EVIDENCE), "audit", "verify"], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("stage", STAGES[:3])
def test_an_error_between_writes_stores_nothing(settings: Settings, monkeypatch: pytest.MonkeyPatch,
                                                stage: str) -> None:
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("before"), user="u")

    def fail(at: str) -> None:
        if at == stage:
            raise RuntimeError(f"power cut at {at}")

    monkeypatch.setattr(runs_module, "_pause", fail)
    with pytest.raises(RuntimeError, match="power cut"):
        store.save_run(flawed_run("lost"), user="u")
    assert _counts(settings.home) == (1, 1, 1) and _orphans(settings.home) == 0
    monkeypatch.undo()
    assert store.verify().ok
    store.save_run(flawed_run("lost"), user="u")  # the same session can be stored afterwards: nothing half-written
    assert store.verify().ok


_WRITER = """
import sys
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run
settings = Settings()
RunStore(open_engine(settings), settings).save_run(flawed_run(sys.argv[1]), user="u")
"""


@pytest.mark.parametrize("stage", STAGES)
def test_a_writer_killed_at_any_stage_leaves_all_or_nothing(settings: Settings, stage: str) -> None:
    """A real process, SIGKILLed while it holds the write open (or just after commit, before the checkpoint)."""
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("before"), user="u")
    env = {**os.environ, "EVIDENCE_HOME": str(settings.home), PAUSE_ENV: stage, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, "killed"], env=env, cwd=ROOT, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stderr is not None
    while (line := proc.stderr.readline()) and not line.startswith("paused at"):
        pass  # blocks until the writer reaches the stage
    assert line.strip() == f"paused at {stage}", line + proc.stderr.read()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stderr.close()
    expected = (2, 6, 2) if stage == "committed" else (1, 1, 1)
    assert _counts(settings.home) == expected and _orphans(settings.home) == 0
    report = RunStore(open_engine(settings), settings).verify()  # what `evidence audit verify` runs
    assert report.ok, report.first_bad
    store.save_run(simple_run("after"), user="u")  # and the next run is stored and verifies
    assert store.verify().ok


@pytest.mark.slow
@pytest.mark.model
def test_evidence_ask_killed_mid_write_leaves_a_verifiable_trail(tmp_path: Path) -> None:
    """`evidence ask` itself, killed with SIGKILL inside its write and at random moments of its run."""
    home = tmp_path / "home"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "policy.md").write_text("# Travel\n\nThe nightly hotel cap is $220 per night in standard cities.\n")
    env = {**os.environ, "EVIDENCE_HOME": str(home)}
    subprocess.run([str(EVIDENCE), "ingest", str(docs)], env=env, check=True, capture_output=True, timeout=300)
    question = ["ask", "What is the nightly hotel cap?"]
    for stage in STAGES:
        proc = subprocess.Popen([str(EVIDENCE), *question], env={**env, PAUSE_ENV: stage},
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert proc.stderr is not None
        while (line := proc.stderr.readline()) and not line.startswith("paused at"):
            pass
        assert line.strip() == f"paused at {stage}"
        proc.kill()
        proc.wait(timeout=30)
        proc.stderr.close()
        assert _orphans(home) == 0 and _verify(home).returncode == 0
    deadline = time.monotonic() + 30
    delay = 0.5
    while time.monotonic() < deadline:  # kills at growing delays: before, during and after the run's work
        proc = subprocess.Popen([str(EVIDENCE), *question], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.kill()
        proc.wait(timeout=30)
        delay *= 1.7
        assert _orphans(home) == 0 and _verify(home).returncode == 0
    runs, entries, audits = _counts(home)
    assert runs == audits and runs >= 1  # the committed stage stored its run; nothing half-written anywhere
