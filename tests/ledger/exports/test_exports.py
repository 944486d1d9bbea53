"""Exports: the JSON validates against the shipped schema, the CSV has a row per claim per round, the HTML is safe."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from html.parser import HTMLParser

import jsonschema
import pytest

from ledger.audit import chain as audit
from ledger.audit.types import GENESIS_HASH, AuditRecord
from ledger.core.types import RunResult
from ledger.exports.json_csv import build_schema, check_csv_export, check_json_export, export_run, load_schema
from tests.ledger.audit_fixtures import SCRIPT, flawed_run

T0 = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)


@pytest.fixture
def run() -> RunResult:
    """The flawed-draft run."""
    return flawed_run()


@pytest.fixture
def record(run: RunResult) -> AuditRecord:
    """Its sealed audit row."""
    unsealed = audit.run_record(run, user="alice", started_at=T0, recorded_at=T0)
    return audit.seal(unsealed, GENESIS_HASH).model_copy(update={"id": 7})


def test_json_export_validates_and_carries_its_hashes(run: RunResult, record: AuditRecord) -> None:
    exported = export_run(run, record, "json")
    document = json.loads(exported.data)
    jsonschema.validate(document, load_schema())
    assert document["schema_version"] == "1.2"
    assert document["content_sha256"] == exported.content_sha256
    assert document["audit_chain_hash"] == record.row_hash == exported.audit_chain_hash
    assert exported.sha256 == audit.sha256_hex(exported.data)
    assert RunResult.model_validate(document["run"]) == run  # complete: the run comes back whole
    assert check_json_export(document)


def test_json_export_is_deterministic(run: RunResult, record: AuditRecord) -> None:
    assert export_run(run, record, "json").data == export_run(run, record, "json").data


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["run"]["ledger"]["entries"][0].update(verdict="contradicted"),
        lambda d: d["audit"].update(final_coverage=0.2),
        lambda d: d.update(audit_chain_hash="0" * 64),
    ],
)
def test_an_edited_json_export_fails_its_check(run: RunResult, record: AuditRecord, edit: object) -> None:
    document = json.loads(export_run(run, record, "json").data)
    edit(document)  # type: ignore[operator]
    assert not check_json_export(document)


def test_schema_rejects_a_broken_export(run: RunResult, record: AuditRecord) -> None:
    document = json.loads(export_run(run, record, "json").data)
    del document["run"]["ledger"]["entries"][0]["verdict"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, load_schema())
    document = json.loads(export_run(run, record, "json").data)
    document["run"]["ledger"]["entries"][0]["verdict"] = "probably"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, load_schema())


def test_shipped_schema_matches_the_types() -> None:
    # If this fails, regenerate: python -m ledger.exports.json_csv > ledger/exports/schemas/run_export.schema.json
    # (and bump SCHEMA_VERSION when a field is removed or changes meaning).
    assert load_schema() == json.loads(json.dumps(build_schema()))
    jsonschema.Draft202012Validator.check_schema(load_schema())


def test_csv_has_one_row_per_claim_per_round(run: RunResult, record: AuditRecord) -> None:
    exported = export_run(run, record, "csv")
    text = exported.data.decode("utf-8")
    body, trailer = text.rstrip("\n").rsplit("\n", 1)
    assert trailer == f"# sha256={exported.content_sha256} audit_chain_hash={record.row_hash}"
    assert check_csv_export(exported.data)
    rows = [r for r in csv.DictReader(io.StringIO(body + "\n")) if r["round"] != "review"]
    assert [(r["round"], r["claim_id"], r["verdict"]) for r in rows] == [
        ("0", "c1", "contradicted"), ("0", "c2", "supported"), ("0", "c3", "not_found"),
        ("1", "c1", "supported"), ("1", "c2", "supported"),
    ]
    first = rows[0]
    assert first["quote"].startswith("Customer records are retained for seven (7) years")
    assert first["document"] == "Records Retention Policy v3" and first["chunk_hash"] == "a1b2c3d4e5f6"
    assert first["type"] == "numeric" and first["importance"] == "critical" and first["confidence"] == "0.910"
    assert rows[2]["flags"] == "phantom_citation" and rows[2]["quote"] == ""
    assert not check_csv_export(exported.data.replace(b"seven (7)", b"five (5)"))


def test_csv_cells_never_run_as_spreadsheet_formulas(run: RunResult, record: AuditRecord) -> None:
    run.ledger.entries[0].claim.text = '=HYPERLINK("http://evil.example","x")'
    run.revisions[-1].ledger.entries[0].claim.text = run.ledger.entries[0].claim.text
    rows = list(csv.DictReader(io.StringIO(export_run(run, record, "csv").data.decode().rsplit("#", 1)[0])))
    assert rows[3]["claim_text"].startswith("'=HYPERLINK")


class _Collector(HTMLParser):
    """Tags and text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_report_shows_everything_and_escapes_document_text(run: RunResult, record: AuditRecord) -> None:
    exported = export_run(run, record, "html")
    page = exported.data.decode("utf-8")
    parsed = _Collector()
    parsed.feed(page)
    text = " ".join(parsed.text)
    assert "script" not in parsed.tags and "link" not in parsed.tags and "img" not in parsed.tags
    assert SCRIPT in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown as text, never run
    assert "Employee Handbook <2024>" in text
    for entry in run.revisions[0].ledger.entries + run.ledger.entries:
        assert entry.claim.text in text
    for label in ("Contradicted", "Not found", "Supported"):
        assert label in text
    assert "Round 0 — draft" in text and "Round 1 — revision 1" in text
    assert "UNSUPPORTED_CLAIMS" in text and "outdated_source" in text
    assert "Customer records are retained for seven (7) years after account closure." in text
    assert exported.content_sha256 in text and record.row_hash in text
    # The page carries its own hash, not the JSON's (an edited page could not be checked against that); the JSON
    # export's hash is still named, to tie the two together.
    assert exported.content_sha256 != export_run(run, record, "json").content_sha256
    assert export_run(run, record, "json").content_sha256 in text
    assert 'class="v-supported"' in page and 'class="badge b-contradicted"' in page  # coloured verdicts
    assert '<a href="#src-a1b2c3d4e5f6"' in page  # citations link to the sources list


def test_html_of_a_failed_run_says_so() -> None:
    run = RunResult(session_id="f1", mode="answer", question="Why <b>now</b>?", answer="")
    failed = audit.run_record(run, user="u", started_at=T0, recorded_at=T0, status="failed",
                              error="ModelError: <overloaded>")
    page = export_run(run, audit.seal(failed, GENESIS_HASH), "html").data.decode()
    assert "This run failed." in page and "ModelError: &lt;overloaded&gt;" in page
    assert "Why &lt;b&gt;now&lt;/b&gt;?" in page


def test_unknown_format_is_refused(run: RunResult, record: AuditRecord) -> None:
    with pytest.raises(ValueError, match="pdf"):
        export_run(run, record, "pdf")
