"""The terminal ledger: what a reader sees for each verdict."""

from __future__ import annotations

from rich.console import Console

from ledger.cli.render import ledger_table, render_run
from ledger.core.types import Claim, EvidenceLedger, EvidenceMatch, LedgerEntry, RevisionAttempt, RunResult


def _entry(claim: str, quote: str, notes: str) -> LedgerEntry:
    match = EvidenceMatch(chunk_hash="19b185aefb21", document="Herbarium", similarity=0.93, support="full",
                          quote=quote, match_type="semantic", reason="the quote states the claim")
    return LedgerEntry(claim=Claim(id="c1", text=claim, type="numeric", importance="critical"), verdict="supported",
                       confidence=0.9, evidence=[match], notes=notes)


def _shown(entry: LedgerEntry) -> str:
    console = Console(width=1000, record=True)  # no wrapping inside a cell
    console.print(ledger_table(EvidenceLedger(entries=[entry])))
    return console.export_text()


def test_a_supported_figure_worked_out_from_the_quote_shows_the_working() -> None:
    worked = _entry("The herbarium is open for six and a half hours.", "It is open from 10:00 to 16:30.",
                    "Supported by 'Herbarium' [19b185aefb21]; figures agree (six and a half hours, worked out: "
                    "16:30 − 10:00).")
    assert "worked out: 16:30 − 10:00" in _shown(worked)
    stated = _entry("It is open from 10:00.", "It is open from 10:00 to 16:30.", "Supported by 'Herbarium' "
                    "[19b185aefb21].")
    assert "Supported by" not in _shown(stated)  # a quote that states the claim speaks for itself


def test_a_revised_draft_shows_its_own_verdicts_before_the_revised_answer() -> None:
    wrong = _entry("The herbarium opens at 9:00.", "It is open from 10:00 to 16:30.", "Contradicted by 'Herbarium'.")
    wrong = wrong.model_copy(update={"verdict": "contradicted"})
    right = _entry("It is open from 10:00.", "It is open from 10:00 to 16:30.", "")
    revisions = [RevisionAttempt(response="The herbarium opens at 9:00.", ledger=EvidenceLedger(entries=[wrong])),
                 RevisionAttempt(response="It is open from 10:00.", ledger=EvidenceLedger(entries=[right]))]
    shown = {}
    for mode in ("verify", "answer"):
        result = RunResult(session_id="s1", mode=mode, question="When does it open?", answer="It is open from 10:00.",
                           ledger=EvidenceLedger(entries=[right]), revisions=revisions)  # type: ignore[arg-type]
        console = Console(width=1000, record=True)
        render_run(console, result)
        shown[mode] = console.export_text()
    text = shown["verify"]
    assert text.index("Your draft, as given") < text.index("The herbarium opens at 9:00.") < text.index(
        "Evidence ledger")
    assert "draft: coverage" in text.split("Evidence ledger")[0]
    assert "Your draft, as given" not in shown["answer"]  # the writer's own first draft is no user's draft


def test_the_summary_line_counts_one_claim_in_the_singular() -> None:
    from ledger.cli.render import summary_line
    from ledger.judge.metrics import summarize

    one = _entry("It is open from 10:00.", "It is open from 10:00 to 16:30.", "")
    assert "1 claim (1 supported)" in summary_line(EvidenceLedger(entries=[one], summary=summarize([one])))
    two = [one, one.model_copy(update={"claim": one.claim.model_copy(update={"id": "c2"})})]
    assert "2 claims (2 supported)" in summary_line(EvidenceLedger(entries=two, summary=summarize(two)))
