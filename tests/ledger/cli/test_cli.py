"""The `evidence` command as a user runs it: exit codes, readable errors, JSON lines in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def evidence(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EVIDENCE_HOME": str(home), "HF_HUB_OFFLINE": "1", "COLUMNS": "120"}
    cmd = [sys.executable, "-c", "from ledger.cli import main; main()", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, input=stdin, timeout=600)


def test_a_missing_draft_is_a_one_line_error_not_a_traceback(home: Path, tmp_path: Path) -> None:
    done = evidence(home, "verify", "-q", "What is the cap?", "-f", str(tmp_path / "nope.md"))
    assert done.returncode == 2
    assert "cannot read the draft" in done.stderr and "Traceback" not in done.stderr


def test_ask_needs_a_question_or_a_file(home: Path) -> None:
    done = evidence(home, "ask")
    assert done.returncode == 2 and "give a QUESTION or --questions FILE" in done.stderr


def test_help_shows_examples(home: Path) -> None:
    done = evidence(home, "ingest", "--help")
    assert done.returncode == 0 and "evidence ingest sample_docs" in done.stdout
    # a paragraph wraps at the terminal's width, not where its source line ended ("…that cannot be read" / "is …")
    assert "a file that cannot be read is reported" in done.stdout
    assert "   evidence ingest ~/policies" in done.stdout  # an example keeps its own line and indent


@pytest.mark.model
def test_batch_questions_print_one_json_object_per_line_in_input_order(home: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "policy.md").write_text(
        "# Travel Policy\n\nEffective date: 2026-03-01\n\nThe nightly hotel cap is $220 per night. "
        "Expense reports must be submitted within 30 days after the trip ends.\n"
    )
    assert evidence(home, "ingest", str(docs), "--json").returncode == 0
    questions = tmp_path / "q.txt"
    questions.write_text("What is the nightly hotel cap?\n\n# skipped\nWhat is the capital of Peru?\n")
    done = evidence(home, "ask", "--questions", str(questions), "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["question"] for r in rows] == ["What is the nightly hotel cap?", "What is the capital of Peru?"]
    assert "$220" in rows[0]["answer"] and rows[0]["ledger"]["summary"]["evidence_coverage"] >= 0.85
    assert {f["type"] for f in rows[1]["risk_flags"]} & {"no_evidence", "unanswered"}
    listed = evidence(home, "audit", "list", "--json")
    assert len(json.loads(listed.stdout)) == 2  # both runs were stored with audit rows


def test_a_malformed_chroma_url_is_a_one_line_settings_error(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", "chroma.internal:8000")  # no scheme
    done = evidence(home, "docs")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: invalid settings: EVIDENCE_CHROMA_URL: URL scheme should be 'http' or 'https' "
        "(got 'chroma.internal:8000')"
    ]


@pytest.mark.model
def test_a_damaged_pdf_ingests_without_flooding_stderr(home: Path, tmp_path: Path) -> None:
    from tests.ingest.test_loaders import make_pdf

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bad_xref.pdf").write_bytes(make_pdf(["Recovered text"], bad_xref=True))
    done = evidence(home, "ingest", str(docs))
    assert done.returncode == 0, done.stderr
    assert "pypdf" not in done.stderr and "startxref" not in done.stderr  # pypdf's recovery chatter stays quiet


@pytest.mark.model
def test_eval_on_evidence_with_odd_characters_finishes_and_scores(home: Path, tmp_path: Path) -> None:
    items = [
        {"id": "area", "claim": "The office costs $40 per month.", "label": "supported",
         "evidence": ["The office has an area of 25 m² and costs $40 per month. 🎉"]},
        {"id": "share", "claim": "Half of the staff work remotely.", "label": "not_found",
         "evidence": ["About ½ of the budget goes to ٣ teams and ３ offices.", "Notice period\u202e: 30 days."]},
        {"id": "days", "claim": "Refunds are paid within 14 days.", "label": "contradicted",
         "evidence": ["Refunds are paid within 30 days\u2066 of the request\u2069 👍🏽\x00."]},
    ]
    data = tmp_path / "odd.jsonl"
    data.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    predictions = tmp_path / "pred.jsonl"
    done = evidence(home, "eval", str(data), "--predictions", str(predictions))
    assert done.returncode == 0, done.stderr
    assert "3 items · balanced accuracy" in done.stdout and "Traceback" not in done.stderr
    assert "could not read" not in done.stderr  # every passage was read: no pair failed on a bug
    rows = [json.loads(line) for line in predictions.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["area", "share", "days"]
    assert rows[0]["quote"].startswith("The office has an area of 25 m²")  # checked, not skipped as an error
