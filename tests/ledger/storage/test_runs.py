"""RunStore on SQLite and (with EVIDENCE_TEST_POSTGRES_URL) on a real PostgreSQL server."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from ledger.audit import chain as audit
from ledger.core.errors import NotFoundError, StoreError
from ledger.core.settings import Settings
from ledger.storage.database import migrate, open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run, simple_run

NOW = datetime.now(UTC)


@pytest.fixture
def db_settings(any_db: Settings) -> Settings:
    """A fresh SQLite file, or a fresh schema on the PostgreSQL test server (tests/ledger/storage/conftest.py)."""
    return any_db


@pytest.fixture
def engine(db_settings: Settings) -> Engine:
    """The migrated engine of the test's database."""
    return open_engine(db_settings)


@pytest.fixture
def store(engine: Engine, db_settings: Settings) -> RunStore:
    """A RunStore on the test's database."""
    return RunStore(engine, db_settings)


def _count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one())


def test_saved_run_reads_back_whole(store: RunStore, engine: Engine) -> None:
    original = flawed_run()
    record = store.save_run(original, user="alice")
    assert store.get_run(original.session_id) == original
    assert record.id is not None and record.prev_hash == "0" * 64 and len(record.row_hash) == 64
    assert store.get_audit(original.session_id) == record
    assert _count(engine, "ledger_entries") == 5  # 3 claims in the draft + 2 in the revision
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT round, claim_id, verdict, quote FROM ledger_entries ORDER BY id")).all()
    assert [(r[0], r[1], r[2]) for r in rows][:3] == [(0, "c1", "contradicted"), (0, "c2", "supported"),
                                                      (0, "c3", "not_found")]
    assert "<script>alert(1)</script>" in rows[1][3]


def test_audit_rows_chain_onto_each_other(store: RunStore) -> None:
    first = store.save_run(simple_run("s1"), user="u")
    second = store.save_run(simple_run("s2"), user="u")
    failed = store.save_failed_run("s3", "Why?", "answer", "default", RuntimeError("judge crashed"), user="u")
    assert second.prev_hash == first.row_hash and failed.prev_hash == second.row_hash
    report = store.verify()
    assert report.ok and report.rows_checked == 3 and report.runs_checked == 3 and report.head_hash == failed.row_hash


def test_failed_run_is_audited_without_a_ledger(store: RunStore, engine: Engine) -> None:
    record = store.save_failed_run("boom1", "What is X?", "verify", "legal", ValueError("bad draft"), user="bob",
                                   llm_calls=2)
    assert record.status == "failed" and record.error == "ValueError: bad draft"
    assert record.final_coverage is None and record.claim_count == 0 and record.llm_calls == 2
    assert record.workspace_id == "legal" and record.mode == "verify"
    assert store.get_run("boom1").answer == "" and _count(engine, "ledger_entries") == 0


def test_a_write_that_fails_leaves_nothing_behind(store: RunStore, engine: Engine,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    store.save_run(simple_run("s1"), user="u")
    with pytest.raises(StoreError):
        store.save_run(simple_run("s1"), user="u")  # same session twice
    monkeypatch.setattr(audit, "seal", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("disk on fire")))
    with pytest.raises(RuntimeError):
        store.save_run(flawed_run("s2"), user="u")
    assert (_count(engine, "runs"), _count(engine, "ledger_entries"), _count(engine, "audit_log")) == (1, 1, 1)
    monkeypatch.undo()
    assert store.verify().ok


def test_unknown_session_is_not_found(store: RunStore) -> None:
    with pytest.raises(NotFoundError):
        store.get_run("nope")
    with pytest.raises(NotFoundError):
        store.get_audit("nope")


def test_list_runs_filters_by_workspace_and_time(store: RunStore) -> None:
    store.save_run(simple_run("old", "legal"), user="u", started_at=NOW - timedelta(days=10))
    store.save_run(simple_run("new", "legal"), user="u", started_at=NOW - timedelta(hours=1))
    store.save_run(simple_run("hr1", "hr"), user="u")
    assert [r.session_id for r in store.list_runs()] == ["hr1", "new", "old"]
    assert [r.session_id for r in store.list_runs(workspace="legal")] == ["new", "old"]
    assert [r.session_id for r in store.list_runs(since=NOW - timedelta(days=1))] == ["hr1", "new"]
    assert [r.session_id for r in store.list_runs(since=(NOW - timedelta(days=30)).date(), limit=1)] == ["hr1"]


def test_purge_respects_per_workspace_retention_and_keeps_the_chain(engine: Engine, db_settings: Settings) -> None:
    settings = db_settings.model_copy(update={"audit": db_settings.audit.model_copy(
        update={"retention_by_workspace": {"legal": 365, "scratch": 0}})})
    store = RunStore(engine, settings)
    store.save_run(simple_run("d-old"), user="u", started_at=NOW - timedelta(days=91))
    store.save_run(flawed_run("l-old", "legal"), user="u", started_at=NOW - timedelta(days=91))
    store.save_run(simple_run("s-old", "scratch"), user="u", started_at=NOW - timedelta(days=900))
    store.save_run(simple_run("d-new"), user="u", started_at=NOW - timedelta(days=89))

    preview = store.purge_expired(dry_run=True)
    assert preview.sessions == ["d-old"] and preview.audit is None and _count(engine, "runs") == 4

    report = store.purge_expired(user="admin")
    assert report.sessions == ["d-old"] and report.runs_deleted == 1 and report.audit_rows_deleted == 1
    assert set(report.cutoffs) == {"default", "legal"}  # scratch keeps runs forever
    assert report.audit is not None and report.audit.event == "purge" and report.audit.user_id == "admin"
    assert [r["session_id"] for r in report.audit.details["removed_audit_rows"]] == ["d-old"]
    with pytest.raises(NotFoundError):
        store.get_run("d-old")
    assert store.get_run("l-old").session_id == "l-old"

    assert store.verify().ok
    after = store.save_run(simple_run("d-after"), user="u")
    assert after.prev_hash == report.audit.row_hash
    # A purge measured from a later time (a moved clock, an option) never reaches runs inside their retention.
    later = store.purge_expired(NOW + timedelta(days=400))
    assert later.sessions == [] and later.runs_deleted == 0
    assert {r.session_id for r in store.list_runs()} == {"d-after", "d-new", "l-old", "s-old"}
    final = store.verify()
    assert final.ok and final.purged_rows == 1
    assert [r.event for r in store.list_runs(include_purges=True)][:2] == ["purge", "run"]


def test_verify_names_an_edited_audit_row(store: RunStore, engine: Engine) -> None:
    for i in range(3):
        store.save_run(simple_run(f"s{i}"), user="u")
    with engine.begin() as conn:
        conn.execute(text("UPDATE audit_log SET final_coverage = 0.5 WHERE session_id = 's1'"))
    report = store.verify()
    assert not report.ok and report.first_bad is not None and report.first_bad.session_id == "s1"


def test_verify_names_an_edited_run_and_a_deleted_row(store: RunStore, engine: Engine) -> None:
    for i in range(3):
        store.save_run(simple_run(f"s{i}"), user="u")
    with engine.begin() as conn:
        conn.execute(text("UPDATE runs SET result_json = REPLACE(result_json, 'seven', 'five') WHERE session_id = 's2'"
                          ))
    report = store.verify()
    assert not report.ok and report.first_bad is not None and report.first_bad.session_id == "s2"
    assert "run edited" in report.first_bad.reason
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM audit_log WHERE session_id = 's1'"))
    report = store.verify()
    assert not report.ok and report.first_bad is not None and report.first_bad.session_id == "s2"
    assert "prev_hash" in report.first_bad.reason


def test_rows_cut_from_the_end_are_caught(store: RunStore, engine: Engine) -> None:
    store.save_run(simple_run("s1"), user="u")
    store.save_run(simple_run("s2"), user="u")
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM audit_log WHERE session_id = 's2'"))
    report = store.verify()
    assert not report.ok and report.first_bad is not None and "cut from the end" in report.first_bad.reason


def test_concurrent_writers_never_fork_the_chain(store: RunStore) -> None:
    errors: list[BaseException] = []

    def write(prefix: str) -> None:
        try:
            for i in range(5):
                store.save_run(simple_run(f"{prefix}{i}"), user=prefix)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(p,)) for p in ("a", "b", "c")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    report = store.verify()
    assert report.ok and report.rows_checked == 15


def test_migrations_apply_once_and_reopen(db_settings: Settings, engine: Engine) -> None:
    assert migrate(engine) == []  # already applied on open
    with engine.connect() as conn:
        numbers = [r[0] for r in conn.execute(text("SELECT number FROM schema_migrations ORDER BY number"))]
    assert numbers[:2] == [1, 2]


def test_sqlite_database_from_an_older_version_gains_the_new_tables(tmp_path: Path) -> None:
    import sqlite3

    from ledger.storage.database import MIGRATIONS

    path = tmp_path / "old.db"
    old = create_engine(f"sqlite:///{path}")
    with old.begin() as conn:  # a database that only ever saw migration 1
        conn.execute(text("CREATE TABLE schema_migrations (number INTEGER PRIMARY KEY, name VARCHAR(200) NOT NULL)"))
        number, name, fn = next(m for m in MIGRATIONS if m[0] == 1)
        fn(conn)
        conn.execute(text("INSERT INTO schema_migrations VALUES (:n, :name)"), {"n": number, "name": name})
    old.dispose()
    store = RunStore(open_engine(Settings(home=tmp_path, database_url=f"sqlite:///{path}")), Settings(home=tmp_path))
    store.save_run(simple_run("s1"), user="u")
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"documents", "runs", "ledger_entries", "audit_log", "audit_head"} <= tables
