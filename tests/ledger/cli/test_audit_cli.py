"""`evidence audit ...` and `evidence export` through the CLI, on an isolated EVIDENCE_HOME."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jsonschema
import pytest
import typer
from typer.testing import CliRunner, Result

from ledger.core.errors import NotFoundError
from ledger.core.settings import Settings
from ledger.exports.json_csv import check_csv_export, check_json_export, load_schema
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import SCRIPT, flawed_run, simple_run

NOW = datetime.now(UTC)


@pytest.fixture
def store(settings: Settings) -> RunStore:
    """The store the CLI will open (same EVIDENCE_HOME), with three runs in it."""
    store = RunStore(open_engine(settings), settings)
    store.save_run(simple_run("old1", "legal"), user="bob", started_at=NOW - timedelta(days=120))
    store.save_run(flawed_run("flaw1"), user="alice")
    store.save_failed_run("fail1", "What changed?", "answer", "default", TimeoutError("model timed out"), user="carol")
    return store


def run(app: typer.Typer, *args: str) -> Result:
    """Invoke the app and return the click result."""
    return CliRunner().invoke(app, list(args))


def test_list_shows_runs_and_filters(app: typer.Typer, store: RunStore) -> None:
    result = run(app, "audit", "list", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["session_id"] for r in rows] == ["fail1", "flaw1", "old1"]
    assert rows[0]["status"] == "failed" and rows[0]["error"] == "TimeoutError: model timed out"
    only_legal = json.loads(run(app, "audit", "list", "--workspace", "legal", "--json").stdout)
    assert [r["session_id"] for r in only_legal] == ["old1"]
    recent = json.loads(run(app, "audit", "list", "--since", "7d", "--json").stdout)
    assert [r["session_id"] for r in recent] == ["fail1", "flaw1"]
    by_date = json.loads(run(app, "audit", "list", "--since", (NOW - timedelta(days=1)).date().isoformat(),
                             "--json").stdout)
    assert len(by_date) == 2
    table = run(app, "audit", "list")
    assert table.exit_code == 0 and "flaw1" in table.stdout and "failed" in table.stdout


def test_list_refuses_a_bad_date(app: typer.Typer, store: RunStore) -> None:
    result = run(app, "audit", "list", "--since", "last tuesday")
    assert result.exit_code == 2 and "not a date" in result.output


def test_show_prints_the_answer_claims_and_audit(app: typer.Typer, store: RunStore) -> None:
    result = run(app, "audit", "show", "flaw1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seven years" in out and "supported" in out and "round 0" in out and "round 1" in out
    assert SCRIPT in out  # printed literally, not swallowed as markup
    document = json.loads(run(app, "audit", "show", "flaw1", "--json").stdout)
    assert document["run"]["session_id"] == "flaw1" and document["audit"]["row_hash"]


def test_show_unknown_session_is_a_clear_error(app: typer.Typer, store: RunStore) -> None:
    result = run(app, "audit", "show", "nope")
    assert isinstance(result.exception, NotFoundError) and "nope" in str(result.exception)


def test_verify_passes_untouched_and_names_the_edited_row(app: typer.Typer, store: RunStore,
                                                          settings: Settings) -> None:
    ok = run(app, "audit", "verify")
    assert ok.exit_code == 0 and "intact" in ok.stdout and "3 rows" in ok.stdout
    with sqlite3.connect(settings.home / "ledger.db") as conn:
        row_id = conn.execute("SELECT id FROM audit_log WHERE session_id = 'flaw1'").fetchone()[0]
        conn.execute("UPDATE audit_log SET user_id = 'mallory' WHERE session_id = 'flaw1'")
    broken = run(app, "audit", "verify")
    assert broken.exit_code == 1
    assert f"row {row_id} (session flaw1)" in broken.stderr and "edited" in broken.stderr
    report = json.loads(run(app, "audit", "verify", "--json").stdout)
    assert report["ok"] is False and report["first_bad"]["id"] == row_id


@pytest.mark.parametrize(
    ("sql", "session"),
    [
        ("UPDATE audit_log SET final_coverage = 0.5 WHERE session_id = 'old1'", "old1"),
        ("UPDATE audit_log SET risk_flags = '[]' WHERE session_id = 'flaw1'", "flaw1"),
        ("UPDATE audit_log SET timestamp = '2020-01-01 00:00:00.000000' WHERE session_id = 'fail1'", "fail1"),
        ("UPDATE runs SET answer = 'x', result_json = REPLACE(result_json, 'seven', 'ten') "
         "WHERE session_id = 'flaw1'", "flaw1"),
    ],
)
def test_any_edit_is_caught(app: typer.Typer, store: RunStore, settings: Settings, sql: str, session: str) -> None:
    with sqlite3.connect(settings.home / "ledger.db") as conn:
        conn.execute(sql)
    result = run(app, "audit", "verify")
    assert result.exit_code == 1 and f"session {session}" in result.stderr


def test_purge_removes_expired_runs_and_the_chain_still_verifies(app: typer.Typer, store: RunStore) -> None:
    dry = json.loads(run(app, "audit", "purge", "--dry-run", "--json").stdout)
    assert dry["sessions"] == ["old1"] and dry["audit"] is None
    result = run(app, "audit", "purge")
    assert result.exit_code == 0 and "removed 1 runs" in result.stdout
    assert run(app, "audit", "verify").exit_code == 0
    listed = json.loads(run(app, "audit", "list", "--purges", "--json").stdout)
    assert [r["event"] for r in listed] == ["purge", "run", "run"]
    verified = run(app, "audit", "verify", "--json")
    assert verified.exit_code == 0 and json.loads(verified.stdout)["purged_rows"] == 1


def test_no_option_purges_inside_retention(app: typer.Typer, store: RunStore) -> None:
    """The old hidden `--now 2030-01-01` removed every run; retention is now measured from the real time only."""
    assert run(app, "audit", "purge", "--now", "2030-01-01").exit_code == 2  # no such option
    again = json.loads(run(app, "audit", "purge", "--json").stdout)
    assert again["sessions"] == ["old1"]  # only the run older than 90 days
    listed = {r["session_id"] for r in json.loads(run(app, "audit", "list", "--json").stdout)}
    assert listed == {"flaw1", "fail1"}
    assert run(app, "audit", "verify").exit_code == 0


def test_stats(app: typer.Typer, store: RunStore) -> None:
    result = run(app, "audit", "stats", "--json", "--period", "month")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["overall"]["total"] == 3 and stats["overall"]["passed"] == 2 and stats["overall"]["failed_runs"] == 1
    assert stats["by_workspace"]["legal"]["total"] == 1 and stats["errors"] == {"TimeoutError": 1}
    assert stats["verdict_distribution"] == {"supported": 3} and stats["risk_flags"] == {"outdated_source": 1}
    text = run(app, "audit", "stats")
    assert text.exit_code == 0 and "3 runs" in text.stdout
    assert run(app, "audit", "stats", "--period", "year").exit_code == 2


def test_export_writes_all_three_formats(app: typer.Typer, store: RunStore, tmp_path: Path) -> None:
    for fmt in ("json", "csv", "html"):
        out = tmp_path / f"report.{fmt}"
        result = run(app, "export", "flaw1", "--format", fmt, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "audit chain hash" in result.stdout and out.exists()
    document = json.loads((tmp_path / "report.json").read_text())
    jsonschema.validate(document, load_schema())
    assert check_json_export(document) and document["audit_chain_hash"] == store.get_audit("flaw1").row_hash
    data = (tmp_path / "report.csv").read_bytes()
    assert check_csv_export(data)
    rows = list(csv.DictReader(io.StringIO(data.decode().rsplit("\n# sha256=", 1)[0])))
    claims = [r for r in rows if r["round"] != "review"]  # then the review rows: not reviewed, changes undecided
    assert len(claims) == 5 and {r["verdict"] for r in claims} == {"supported", "contradicted", "not_found"}
    assert [r["decision"] for r in rows if r["round"] == "review"] == ["not reviewed"] * 3
    page = (tmp_path / "report.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_export_to_stdout_and_errors(app: typer.Typer, store: RunStore, tmp_path: Path) -> None:
    result = run(app, "export", "flaw1", "--format", "csv", "--out", "-")
    assert result.exit_code == 0 and result.stdout.startswith("session_id,round,claim_id")
    assert run(app, "export", "flaw1", "--format", "pdf").exit_code == 2
    missing_dir = run(app, "export", "flaw1", "--out", str(tmp_path / "no" / "such" / "dir.json"))
    assert missing_dir.exit_code == 2 and "cannot write" in missing_dir.stderr
    assert isinstance(run(app, "export", "nope").exception, NotFoundError)


def test_help_has_examples(app: typer.Typer) -> None:
    for command in (["audit"], ["audit", "verify"], ["audit", "purge"], ["audit", "stats"], ["export"]):
        result = run(app, *command, "--help")
        assert result.exit_code == 0 and "Examples" in result.stdout and "evidence " in result.stdout
