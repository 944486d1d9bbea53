"""`evidence export` never writes where it must not, and `evidence export verify FILE` tells an edited export."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from ledger.audit import chain as audit
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run


@pytest.fixture
def store(settings: Settings) -> RunStore:
    """A home with one stored run, flaw1."""
    store = RunStore(open_engine(settings), settings)
    store.save_run(flawed_run("flaw1"), user="alice")
    return store


def run(app: typer.Typer, *args: str) -> Result:
    """Invoke the app."""
    return CliRunner().invoke(app, list(args))


def _db_still_works(store: RunStore) -> bool:
    return store.get_run("flaw1").session_id == "flaw1" and store.verify().ok


def test_export_refuses_the_database_and_anything_in_the_home(app: typer.Typer, store: RunStore, home: Path,
                                                              tmp_path: Path) -> None:
    db = home / "ledger.db"
    before = db.read_bytes()
    outside = tmp_path / "out"
    outside.mkdir()
    (outside / "db-link.json").symlink_to(db)
    (outside / "home-link").symlink_to(home)
    for target, extra in [
        (db, []), (db, ["--force"]), (home / "report.json", []), (home / "chroma" / "x.json", []),
        (home / "audit.key", ["--force"]), (outside / "db-link.json", ["--force"]),
        (outside / "home-link" / "r.json", []), (Path(f"{home}/../{home.name}/ledger.db"), ["--force"]),
    ]:
        result = run(app, "export", "flaw1", "--out", str(target), *extra)
        assert result.exit_code == 2, (target, result.output)
        assert "refusing to write" in result.stderr and "EVIDENCE_HOME" in result.stderr
        assert len(result.stderr.strip().splitlines()) <= 3  # one message (wrapped at most), no traceback
    assert db.read_bytes() == before and _db_still_works(store)


def test_a_database_outside_the_home_is_never_overwritten(app: typer.Typer, home: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "elsewhere" / "shared.db"
    db.parent.mkdir()
    monkeypatch.setenv("EVIDENCE_DATABASE_URL", f"sqlite:///{db}")
    settings = Settings(home=home, database_url=f"sqlite:///{db}")
    RunStore(open_engine(settings), settings).save_run(flawed_run("flaw1"), user="alice")
    result = run(app, "export", "flaw1", "--out", str(db), "--force")
    assert result.exit_code == 2 and "database" in result.stderr
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)


def test_an_existing_file_is_replaced_only_with_force(app: typer.Typer, store: RunStore, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("keep me")
    refused = run(app, "export", "flaw1", "--out", str(target))
    assert refused.exit_code == 2 and "already exists" in refused.stderr and "--force" in refused.stderr
    assert target.read_text() == "keep me"
    forced = run(app, "export", "flaw1", "--out", str(target), "--force")
    assert forced.exit_code == 0 and json.loads(target.read_text())["run"]["session_id"] == "flaw1"


@pytest.mark.parametrize("fmt", ["json", "csv", "html"])
def test_export_verify_holds_for_an_untouched_export_and_fails_for_an_edited_one(
        app: typer.Typer, store: RunStore, tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"report.{fmt}"
    assert run(app, "export", "flaw1", "--format", fmt, "--out", str(path)).exit_code == 0
    ok = run(app, "export", "verify", str(path))
    assert ok.exit_code == 0, ok.output
    assert "content hash matches" in ok.stdout and "matches audit row 1" in " ".join(ok.stdout.split())

    data = path.read_bytes()
    edited = tmp_path / f"edited.{fmt}"
    edited.write_bytes(data.replace(b"contradicted", b"supported", 1))
    assert edited.read_bytes() != data
    bad = run(app, "export", "verify", str(edited))
    assert bad.exit_code == 1 and "does not hold" in bad.stderr and "edited after export" in bad.stderr


def test_an_edited_html_whose_hash_was_recomputed_is_caught_by_the_database(app: typer.Typer, store: RunStore,
                                                                            tmp_path: Path) -> None:
    """The page hash has no secret: anyone can recompute it; the run in the database still tells."""
    path = tmp_path / "report.html"
    run(app, "export", "flaw1", "--format", "html", "--out", str(path))
    page = path.read_bytes().replace(b"contradicted", b"supported")
    claimed = re.search(rb'evidence-page-sha256" content="([0-9a-f]{64})', page).group(1)  # type: ignore[union-attr]
    fresh = audit.sha256_hex(page.replace(claimed, b"0" * 64)).encode()
    forged = tmp_path / "forged.html"
    forged.write_bytes(page.replace(claimed, fresh))
    result = run(app, "export", "verify", str(forged))
    assert result.exit_code == 1
    assert "content hash matches" in result.stdout and "does not match the database" in result.stderr


def test_a_json_export_is_checked_against_the_audit_chain(app: typer.Typer, store: RunStore, home: Path,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    run(app, "export", "flaw1", "--out", str(path))
    document = json.loads(path.read_text())
    assert document["audit"]["result_sha256"] == audit.content_sha256(document["run"])
    # The database's run is edited after the export: the export still holds, the database no longer does.
    with sqlite3.connect(home / "ledger.db") as conn:
        conn.execute("UPDATE audit_log SET user_id = 'mallory'")
    result = run(app, "export", "verify", str(path))
    assert result.exit_code == 1 and "does not match the database" in result.stderr
    # Without the database at hand, only the file's own hashes are checked, and it says so.
    monkeypatch.setenv("EVIDENCE_HOME", str(tmp_path / "no-home"))
    alone = run(app, "export", "verify", str(path))
    assert alone.exit_code == 0 and "not checked" in alone.stdout


def test_export_verify_answers_bad_input_with_one_line(app: typer.Typer, tmp_path: Path, home: Path) -> None:
    missing = run(app, "export", "verify", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\xff not an export")
    result = run(app, "export", "verify", str(junk))
    assert result.exit_code == 2 and "not an Evidence Ledger export" in result.stderr
    assert run(app, "export", "verify").exit_code == 2
