"""`evidence audit verify` against a hostile editor of the database and of the files beside it.

Each case edits a real home the way a user with sqlite3 (or a text editor) would, then runs the command: it must
exit 1 and name the first bad row. The attacker knows the code (`ledger.audit.chain`) but not the audit key.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from ledger.audit import chain as audit
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run, simple_run

NOW = datetime.now(UTC)
GENESIS = "0" * 64


@pytest.fixture
def store(settings: Settings) -> RunStore:
    """A fresh home with three runs: a legal one, a flawed draft revised once (5 ledger entries), a failed one."""
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("old1", "legal"), user="bob", started_at=NOW - timedelta(days=10))
    store.save_run(flawed_run("flaw1"), user="alice")
    store.save_failed_run("fail1", "What changed?", "answer", "default", TimeoutError("model timed out"), user="carol")
    return store


def verify(app: typer.Typer) -> Result:
    """`evidence audit verify`."""
    return CliRunner().invoke(app, ["audit", "verify"])


def sql(home: Path, script: str) -> None:
    """Edit the database behind the product's back (foreign keys off, as a hand edit has them)."""
    with sqlite3.connect(home / "ledger.db") as conn:
        conn.executescript(script)


def reseal_from(home: Path, row_id: int, **changes: object) -> None:
    """Change one audit row and recompute its hash and every later one with the project's own functions."""
    conn = sqlite3.connect(home / "ledger.db")
    conn.row_factory = sqlite3.Row
    prev = GENESIS
    for raw in [dict(r) for r in conn.execute("SELECT * FROM audit_log ORDER BY id")]:
        if raw["id"] < row_id:
            prev = raw["row_hash"]
            continue
        record = audit.record_from_row(raw)
        if raw["id"] == row_id:
            record = record.model_copy(update=changes)
        sealed = audit.seal(record.model_copy(update={"id": None}), prev)
        conn.execute("UPDATE audit_log SET user_id = ?, prev_hash = ?, row_hash = ? WHERE id = ?",
                     (sealed.user_id, sealed.prev_hash, sealed.row_hash, raw["id"]))
        prev = sealed.row_hash
    conn.execute("UPDATE audit_head SET last_hash = ?", (prev,))
    conn.commit()
    conn.close()


def swap_first_entries(home: Path, session: str) -> None:
    """Swap the ids of a run's first two ledger entries, contents untouched."""
    with sqlite3.connect(home / "ledger.db") as conn:
        a, b = [r[0] for r in conn.execute("SELECT id FROM ledger_entries WHERE session_id = ? ORDER BY id LIMIT 2",
                                           (session,))]
        conn.execute("UPDATE ledger_entries SET id = -1 WHERE id = ?", (a,))
        conn.execute("UPDATE ledger_entries SET id = ? WHERE id = ?", (a, b))
        conn.execute("UPDATE ledger_entries SET id = ? WHERE id = -1", (b,))


WIPE_HEAD = f"UPDATE audit_head SET last_id = 0, last_hash = '{GENESIS}', rows_written = 0;"
TAMPERING: dict[str, tuple[Callable[[Path], None], str, str]] = {
    # name: (the edit, where the report must point, words of its reason)
    "ledger entry verdict edited": (
        lambda h: sql(h, "UPDATE ledger_entries SET verdict = 'supported' WHERE session_id = 'flaw1' AND "
                         "claim_id = 'c1' AND round = 0;"), "session flaw1", "verdict no longer matches"),
    "ledger entry claim text edited": (
        lambda h: sql(h, "UPDATE ledger_entries SET claim_text = 'Records are kept forever.' "
                         "WHERE session_id = 'flaw1' AND round = 1 AND position = 0;"), "session flaw1", "claim_text"),
    "ledger entry deleted": (
        lambda h: sql(h, "DELETE FROM ledger_entries WHERE session_id = 'flaw1' AND round = 0 AND position = 2;"),
        "session flaw1", "(deleted)"),
    "ledger entry inserted": (
        lambda h: sql(h, "INSERT INTO ledger_entries (session_id, round, position, claim_id, claim_text, claim_type, "
                         "importance, verdict, confidence) VALUES ('old1', 0, 9, 'c9', 'Forged.', 'fact', 'critical', "
                         "'supported', 0.99);"), "session old1", "(inserted)"),
    "ledger entries reordered": (lambda h: swap_first_entries(h, "flaw1"), "session flaw1", "reordered"),
    "run answer column edited": (
        lambda h: sql(h, "UPDATE runs SET answer = 'Forged.' WHERE session_id = 'old1';"), "session old1",
        "answer column"),
    "run coverage column edited": (
        lambda h: sql(h, "UPDATE runs SET evidence_coverage = 0.1 WHERE session_id = 'flaw1';"), "session flaw1",
        "evidence_coverage column"),
    "run status column edited": (
        lambda h: sql(h, "UPDATE runs SET status = 'ok', error = NULL WHERE session_id = 'fail1';"), "session fail1",
        "column"),
    "run JSON edited": (
        lambda h: sql(h, "UPDATE runs SET result_json = REPLACE(result_json, 'seven', 'ten') "
                         "WHERE session_id = 'flaw1';"), "session flaw1", "run edited"),
    "run deleted": (
        lambda h: sql(h, "PRAGMA foreign_keys = OFF; DELETE FROM ledger_entries WHERE session_id = 'old1'; "
                         "DELETE FROM runs WHERE session_id = 'old1';"), "session old1", "missing"),
    "run inserted without an audit row": (
        lambda h: sql(h, "INSERT INTO runs SELECT 'forged1', workspace, user_id, mode, question, answer, status, "
                         "error, backend, started_at, recorded_at, evidence_coverage, unsupported_rate, claim_count, "
                         "result_json FROM runs WHERE session_id = 'old1';"), "session forged1", "no audit row"),
    "audit row edited": (
        lambda h: sql(h, "UPDATE audit_log SET user_id = 'mallory' WHERE session_id = 'flaw1';"), "session flaw1",
        "edited after writing"),
    "middle audit row deleted": (
        lambda h: sql(h, "DELETE FROM audit_log WHERE session_id = 'flaw1';"), "session fail1", "prev_hash"),
    "audit rows reordered": (
        lambda h: sql(h, "UPDATE audit_log SET id = 100 WHERE id = 1; UPDATE audit_log SET id = 1 WHERE id = 2; "
                         "UPDATE audit_log SET id = 2 WHERE id = 100;"), "session flaw1", "prev_hash"),
    "audit row edited and the chain re-sealed with the project's code": (
        lambda h: reseal_from(h, 2, user_id="mallory"), "session flaw1", "HMAC does not match"),
    "audit row inserted and the chain re-sealed": (
        lambda h: (sql(h, "INSERT INTO audit_log SELECT 4, event, 'forged', timestamp, recorded_at, user_id, "
                          "workspace_id, query, mode, backend, status, error, retrieved_chunk_ids, revision_history, "
                          "final_coverage, final_unsupported_rate, claim_count, verdict_distribution, risk_flags, "
                          "risk_level, warnings, claim_flags, total_duration_ms, llm_calls, token_usage, "
                          "result_sha256, details, prev_hash, row_hash, NULL, NULL FROM audit_log WHERE id = 3;"
                          "UPDATE audit_head SET rows_written = 4, last_id = 4;"),
                   reseal_from(h, 4)), "session forged", "no HMAC"),
    "last audit row cut and the head moved back": (
        lambda h: sql(h, "DELETE FROM audit_log WHERE id = 3; UPDATE audit_head SET last_id = 2, rows_written = 2, "
                         "last_hash = (SELECT row_hash FROM audit_log WHERE id = 2);"), "chain head",
        "cut from the end"),
    "every table wiped": (
        lambda h: sql(h, "DELETE FROM ledger_entries; DELETE FROM runs; DELETE FROM audit_log; " + WIPE_HEAD),
        "chain head", "recorded 3"),
    "HMACs stripped": (
        lambda h: sql(h, "UPDATE audit_log SET row_mac = NULL, key_id = NULL;"), "session old1", "no HMAC"),
    "checkpoint deleted": (lambda h: (h / "audit.checkpoint").unlink(), "chain head", "checkpoint"),
    "checkpoint edited back to 2 rows": (
        lambda h: (h / "audit.checkpoint").write_text(
            (h / "audit.checkpoint").read_text().replace('"rows": 3', '"rows": 2')), "chain head",
        "does not match the audit key"),
    "checkpoint garbled": (lambda h: (h / "audit.checkpoint").write_text("{}"), "chain head", "not a checkpoint"),
    "key deleted": (lambda h: (h / "audit.key").unlink(), "chain head", "key"),
    "key replaced": (lambda h: (h / "audit.key").write_text(os.urandom(32).hex()), "chain head",
                     "does not match the audit key"),
}


def test_an_untouched_home_verifies_with_its_anchor(app: typer.Typer, store: RunStore, home: Path) -> None:
    result = verify(app)
    assert result.exit_code == 0, result.output
    line = " ".join(result.stdout.split())
    assert "3 rows, 3 runs, 6 ledger entries checked" in line  # 1 claim of old1, 3 + 2 of the flawed run's rounds
    assert "3 rows sealed with the audit key, checkpoint at row 3" in line
    for name in ("audit.key", "audit.checkpoint"):  # created on first use, readable by the owner only
        assert stat.S_IMODE((home / name).stat().st_mode) == 0o600


@pytest.mark.parametrize("name", list(TAMPERING))
def test_every_tampering_is_caught_and_named(app: typer.Typer, store: RunStore, home: Path, name: str) -> None:
    edit, where, why = TAMPERING[name]
    edit(home)
    result = verify(app)
    assert result.exit_code == 1, result.output
    line = " ".join(result.stderr.split())
    assert f"audit chain broken at {where}" in line or f"({where})" in line, line
    assert why in line, line


def test_a_broken_anchor_stops_new_runs_rather_than_covering_it_up(store: RunStore, home: Path) -> None:
    checkpoint = (home / "audit.checkpoint").read_text()
    (home / "audit.checkpoint").write_text(checkpoint.replace('"rows": 3', '"rows": 2'))
    with pytest.raises(Exception, match="does not match the audit key"):
        store.save_run(simple_run("after"), user="u")
    assert (home / "audit.checkpoint").read_text() != checkpoint  # the evidence is left as it was found


def test_an_older_home_verifies_and_is_keyed_from_its_next_run(app: typer.Typer, settings: Settings,
                                                               home: Path) -> None:
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("v1a"), user="u")
    store.save_run(flawed_run("v1b"), user="u")
    # What a home written before the key existed looks like: no HMACs, no key, no checkpoint.
    sql(home, "UPDATE audit_log SET row_mac = NULL, key_id = NULL;")
    (home / "audit.key").unlink()
    (home / "audit.checkpoint").unlink()
    old = verify(app)
    assert old.exit_code == 0 and "not anchored" in " ".join(old.stdout.split())

    store.save_run(simple_run("v2"), user="u")  # the first run of this version creates the key
    report = json.loads(CliRunner().invoke(app, ["audit", "verify", "--json"]).stdout)
    assert report["ok"] and report["anchored"] and report["keyed_rows"] == 1 and report["checkpoint_rows"] == 3
    assert any("2 rows predate the audit key" in note for note in report["notes"])

    reseal_from(home, 1, user_id="mallory")  # an old row rewritten: the first keyed row no longer links
    broken = verify(app)
    assert broken.exit_code == 1 and "row 3 (session v2)" in broken.stderr and "HMAC" in broken.stderr


def test_a_provisioned_key_is_anchored_explicitly(app: typer.Typer, settings: Settings, home: Path,
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("s1"), user="u")
    sql(home, "UPDATE audit_log SET row_mac = NULL, key_id = NULL;")
    for name in ("audit.key", "audit.checkpoint"):
        (home / name).unlink()
    key_file = tmp_path / "secrets" / "audit.key"
    key_file.parent.mkdir()
    key_file.write_text(os.urandom(32).hex())
    monkeypatch.setenv("EVIDENCE_AUDIT__KEY_FILE", str(key_file))
    missing = verify(app)
    assert missing.exit_code == 1 and "evidence audit anchor" in " ".join(missing.stderr.split())
    with pytest.raises(Exception, match="checkpoint"):  # no run may write on an unanchored keyed trail
        RunStore(open_engine(settings), Settings(home=home)).save_run(simple_run("s2"), user="u")
    anchored = CliRunner().invoke(app, ["audit", "anchor"])
    assert anchored.exit_code == 0 and "checkpoint started at row 1" in anchored.stdout
    RunStore(open_engine(settings), Settings(home=home)).save_run(simple_run("s2"), user="u")
    assert verify(app).exit_code == 0
    assert not (home / "audit.key").exists()  # the provisioned key was used, none made in the home
