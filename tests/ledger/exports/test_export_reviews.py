"""Exports record the review: each suggested change accepted or rejected, the reviewed text, reviewer, time and
comment — or that the revision was not reviewed; and `evidence export verify` covers the review too."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
import typer
from typer.testing import CliRunner

from ledger.audit import chain as audit
from ledger.cli import export_commands
from ledger.core.settings import Settings
from ledger.exports.changes import suggested_changes
from ledger.exports.json_csv import export_run, load_schema
from ledger.exports.verification import check_export, compare_with_database
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run

SESSION = "sess-flawed-0001"
COMMENT = "Checked the retention figure against the policy; the backup line stays."
REVIEWED = "Customer records are kept for seven years after the account closes."


@pytest.fixture
def store(settings: Settings) -> RunStore:
    """A home with the flawed draft check stored."""
    store = RunStore(open_engine(settings), settings)
    store.save_run(flawed_run(SESSION), user="alice")
    return store


def _sign_off(store: RunStore, first: str = "accepted", second: str = "rejected", user: str = "Reviewer Bo",
              comment: str = COMMENT) -> None:
    run = store.get_run(SESSION)
    decisions = [{"number": c.number, "kind": c.kind, "before": c.before_text, "after": c.after_text,
                  "reasons": c.reasons, "decision": d} for c, d in zip(suggested_changes(run), (first, second),
                                                                       strict=True)]
    store.save_review(SESSION, comment=comment, decisions=decisions, reviewed_text=REVIEWED, user=user)


def _export(store: RunStore, fmt: str) -> bytes:
    return export_run(store.get_run(SESSION), store.get_audit(SESSION), fmt, store.reviews_of(SESSION)).data


def test_a_json_export_of_an_unreviewed_check_says_the_revision_was_not_reviewed(store: RunStore) -> None:
    document = json.loads(_export(store, "json"))
    jsonschema.validate(document, load_schema())
    review = document["review"]
    assert review["reviewed"] is False and review["sign_offs"] == []
    assert review["status"].startswith("Not reviewed: nobody has signed off this draft check")
    assert [(c["number"], c["kind"], c["decision"]) for c in review["changes"]] == [
        (1, "replace", "not reviewed"), (2, "delete", "not reviewed")]
    assert check_export(_export(store, "json")).ok


def test_a_json_export_records_which_changes_were_accepted_by_whom_when_and_why(store: RunStore) -> None:
    _sign_off(store)
    data = _export(store, "json")
    document = json.loads(data)
    jsonschema.validate(document, load_schema())
    review = document["review"]
    assert review["reviewed"] is True
    assert [c["decision"] for c in review["changes"]] == ["accepted", "rejected"]
    assert "seven years" in review["changes"][0]["after"] and review["changes"][0]["reasons"]
    (signed,) = review["sign_offs"]
    assert (signed["reviewer"], signed["comment"], signed["reviewed_text"]) == ("Reviewer Bo", COMMENT, REVIEWED)
    assert signed["signed_at"].endswith("Z") and (signed["accepted"], signed["rejected"]) == (1, 1)
    assert signed["audit_row"]["event"] == "review" and signed["audit_row"]["row_hash"] == \
        store.reviews_of(SESSION)[0].row_hash
    assert review["status"].startswith("Reviewed: signed off by Reviewer Bo at ")
    assert review["status"].endswith("1 of 2 suggested changes accepted, 1 rejected.")
    check = check_export(data)
    assert check.ok and check.review_hashes == (signed["audit_row"]["row_hash"],)
    assert compare_with_database(check, store.get_run(SESSION), store.get_audit(SESSION),
                                 store.reviews_of(SESSION)) is None


def _rehashed(document: dict) -> bytes:  # type: ignore[type-arg]
    """An edited export whose content hash the editor recomputed (it has no secret)."""
    body = {k: v for k, v in document.items() if k != "content_sha256"}
    return json.dumps(body | {"content_sha256": audit.content_sha256(body)}).encode()


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda r: r["changes"][1].update(decision="accepted"), "not those of its latest sign-off"),
    (lambda r: r["sign_offs"][0].update(comment="Approved without reading."), "says something its audit row"),
    (lambda r: r["sign_offs"][0]["audit_row"]["details"].update(comment="x"), "does not match its row_hash"),
    (lambda r: r.update(reviewed=False, sign_offs=[]), "not those"),
])
def test_an_edited_review_fails_the_check_even_with_the_content_hash_recomputed(store: RunStore, edit: object,
                                                                                problem: str) -> None:
    _sign_off(store)
    document = json.loads(_export(store, "json"))
    edit(document["review"])  # type: ignore[operator]
    check = check_export(_rehashed(document))
    if check.ok:  # dropping the sign-off holds on its own: the database tells
        assert compare_with_database(check, store.get_run(SESSION), store.get_audit(SESSION),
                                     store.reviews_of(SESSION)) is not None
        return
    assert problem in check.problem


def test_csv_and_html_exports_record_the_decisions_and_the_sign_off(store: RunStore) -> None:
    unreviewed = _export(store, "csv").decode()
    rows = [r for r in csv.DictReader(io.StringIO(unreviewed.rsplit("# sha256=", 1)[0])) if r["round"] == "review"]
    assert rows[0]["decision"] == "not reviewed" and rows[0]["comment"].startswith("Not reviewed")
    assert "Not reviewed: nobody has signed off" in _export(store, "html").decode()

    _sign_off(store)
    data = _export(store, "csv")
    rows = [r for r in csv.DictReader(io.StringIO(data.decode().rsplit("# sha256=", 1)[0])) if r["round"] == "review"]
    signed, first, second = rows
    assert (signed["decision"], signed["reviewer"], signed["comment"], signed["reviewed_text"]) == (
        "signed off", "Reviewer Bo", COMMENT, REVIEWED)
    assert (first["change"], first["decision"], second["change"], second["decision"]) == (
        "1", "accepted", "2", "rejected")
    check = check_export(data)
    assert check.ok and check.review_hashes == (signed["review_row_hash"],)
    assert not check_export(data.replace(b",rejected,", b",accepted,")).ok

    page = _export(store, "html").decode()
    assert "Sign-off by Reviewer Bo" in page and COMMENT.replace("'", "&#39;") in page and REVIEWED in page
    assert '<tr class="decision-accepted"><td>1</td>' in page and '<tr class="decision-rejected"><td>2</td>' in page
    html_check = check_export(page.encode())
    assert html_check.ok and html_check.review_hashes == check.review_hashes


def test_evidence_export_and_verify_cover_the_review(store: RunStore, tmp_path: Path) -> None:
    app = typer.Typer()
    app.callback()(lambda: None)  # a group, so the command is called by its name as in `evidence export`
    export_commands.register(app)

    def run(*args: str):  # type: ignore[no-untyped-def]
        return CliRunner().invoke(app, ["export", *args])

    before = tmp_path / "before.json"
    wrote = run(SESSION, "--out", str(before))
    assert wrote.exit_code == 0 and "review             not reviewed (no sign-off stored)" in wrote.stdout
    _sign_off(store)
    after = tmp_path / "after.csv"
    wrote = run(SESSION, "--format", "csv", "--out", str(after))
    assert "latest by Reviewer Bo: 1 accepted, 1 rejected" in wrote.stdout
    ok = run("verify", str(after))
    assert ok.exit_code == 0, ok.output
    assert "its 1 recorded sign-off(s)" in " ".join(ok.stdout.split())
    # The export made before the sign-off still holds, and says a later sign-off exists.
    older = run("verify", str(before))
    assert older.exit_code == 0, older.output
    assert "1 later sign-off(s)" in " ".join(older.stdout.split())
