"""The UI's pure decisions: the outcome line, honest metrics, the suggested changes, the quote highlight, uploads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ledger.core.types import EvidenceLedger, RiskFlag, RunResult
from ledger.exports.changes import apply_changes, review_record, suggested_changes
from tests.ledger.audit_fixtures import PHANTOM, flawed_run, simple_run
from ui.components import answer_markdown
from ui.evidence import highlighted
from ui.outcome import change_vs_draft, coverage_label, run_outcome
from ui.pages_ingest import name_clashes, save_uploads


def test_a_zero_claim_answer_has_no_coverage_and_is_not_answerable() -> None:
    refusal = RunResult(session_id="s", mode="answer", question="Who won?", answer="The documents do not say.",
                        ledger=EvidenceLedger(completeness=0.0, gaps=["Who won?"]),
                        risk_flags=[RiskFlag(type="no_evidence", severity="high", description="nothing")])
    assert refusal.ledger.summary.evidence_coverage == 1.0  # what the metric alone would have shown
    assert coverage_label(refusal.ledger.summary) == "n/a"
    outcome = run_outcome(refusal)
    assert (outcome.kind, outcome.headline) == ("unanswerable", "Not answerable from these documents.")
    assert "not answered: Who won?" in outcome.details


def test_a_draft_is_judged_as_submitted_not_as_corrected() -> None:
    run = flawed_run()
    assert run.ledger.summary.evidence_coverage == 1.0  # the revision is fully proved...
    outcome = run_outcome(run)
    assert outcome.kind == "contradicted"  # ...but the outcome is about the draft the user gave
    assert outcome.headline == "The draft as submitted contains 1 contradicted claim: the documents say otherwise."
    assert "1 claim cites a source that does not exist" in outcome.details
    assert "1 claim not found in the documents" in outcome.details


def test_an_answer_with_a_missing_part_is_only_partly_answered() -> None:
    run = simple_run("s1")
    assert run_outcome(run).kind == "proved"
    run.ledger.gaps, run.ledger.completeness = ["who approves deletion"], 0.5
    outcome = run_outcome(run)
    assert outcome.kind == "partial" and "not answered: who approves deletion" in outcome.details


def test_a_phantom_citation_is_never_shaded_as_supported() -> None:
    answer = f"Backups are encrypted with AES-256 [cite:{PHANTOM}]."
    run = simple_run("s1")
    entry = run.ledger.entries[0].model_copy(deep=True)
    entry.claim.span, entry.verdict, entry.flags = (0, len(answer)), "supported", ["phantom_citation"]
    shown = answer_markdown(answer, [entry])
    assert ":green-background" not in shown
    assert shown.startswith(":red-background[Backups are encrypted") and "source that does not exist" in shown


def test_the_revision_is_a_list_of_changes_each_with_its_reason() -> None:
    run = flawed_run()
    changes = suggested_changes(run)
    assert [(c.number, c.kind) for c in changes] == [(1, "replace"), (2, "delete")]
    assert changes[0].before_text == "Customer records are kept for five years after the account closes."
    assert changes[0].after_text == "Customer records are kept for seven years after the account closes."
    assert any("Contradicted: Records Retention Policy v3 says \"Customer records are retained for seven (7) years"
               in r for r in changes[0].reasons)
    assert changes[1].before_text == "Backups are encrypted with AES-256."
    assert "Not found: no passage in the documents states this" in changes[1].reasons


def test_only_accepted_changes_are_applied_and_the_record_says_which() -> None:
    run = flawed_run()
    changes = suggested_changes(run)
    reviewed = apply_changes(run, changes, {1})
    assert "seven years" in reviewed and "five years" not in reviewed
    assert "Backups are encrypted with AES-256" in reviewed  # change 2 was not accepted
    record = review_record(run, changes, {1: "accepted", 2: "rejected"}, "ana", "f" * 64)
    assert b'"decision": "accepted"' in record and b'"decision": "rejected"' in record
    assert b'"audit_row_hash": "' + b"f" * 64 in record


def test_the_deciding_quote_is_highlighted_in_its_passage_and_everything_is_escaped() -> None:
    passage = "Intro line.\n\nCustomer records are **retained** for seven (7) years <script>x</script>. Then more."
    shown = highlighted(passage, "Customer records are retained for seven (7) years <script>x</script>.")
    assert ":orange-background[Customer records are \\*\\*retained\\*\\* for seven \\(7\\) years " \
           "\\<script\\>x\\</script\\>\\.]" in shown
    assert shown.startswith("Intro line\\.") and shown.endswith("Then more\\.")
    assert "<script>" not in shown
    assert highlighted("no match here", "absent") == "no match here"
    assert "http\\://" in highlighted("see http://example.org now", "")  # escaped: never an auto-link


@dataclass
class _Upload:
    name: str
    data: bytes

    def getvalue(self) -> bytes:
        return self.data


def test_uploads_keep_their_old_version_when_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "uploads" / "team-a"
    save_uploads(folder, [_Upload("../../policy.md", b"v1")])  # a browser path is reduced to its name
    assert (folder / "policy.md").read_bytes() == b"v1"
    assert name_clashes(folder, [_Upload("policy.md", b"v1")]) == []  # same bytes: no question to ask
    assert name_clashes(folder, [_Upload("policy.md", b"v2")]) == ["policy.md"]
    save_uploads(folder, [_Upload("policy.md", b"v2")])
    assert (folder / "policy.md").read_bytes() == b"v2"
    assert [p.read_bytes() for p in (folder / ".versions").iterdir()] == [b"v1"]


def test_a_proved_answer_with_a_high_risk_says_to_read_the_risk_first() -> None:
    run = simple_run("sess-risky-0001")
    assert run_outcome(run).kind == "proved" and not any("high risks" in d for d in run_outcome(run).details)
    run.risk_flags = [RiskFlag(type="instructions_in_document", severity="high", description="…")]
    outcome = run_outcome(run)
    assert outcome.kind == "proved" and "Read the high risks first: instructions in document." in outcome.details


def test_a_rate_the_revision_did_not_change_shows_no_arrow() -> None:
    assert change_vs_draft(0.5, 0.75) == ("+25 pts vs draft", True)
    assert change_vs_draft(0.25, 0.0) == ("-25 pts vs draft", True)
    assert change_vs_draft(0.0, 0.0) == ("no change vs draft", False)  # was "↑ +0 pts vs draft", in red
