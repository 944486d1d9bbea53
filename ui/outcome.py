"""What a run amounts to, in one line a reader can trust: pure functions of a RunResult, no Streamlit.

The outcome line leads every answer and draft check; the metrics under it never overstate (a 0-claim answer
has no coverage to speak of, and a claim that cites a chunk which does not exist is never shown as proved).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ledger.core.types import PHANTOM_CITATION, EvidenceLedger, LedgerEntry, LedgerSummary, RunResult

OutcomeKind = Literal["proved", "partial", "unanswerable", "contradicted", "failed"]
UNANSWERED_FLAGS = ("no_evidence", "unanswered")


@dataclass(frozen=True)
class Outcome:
    """The verdict on a whole run: its kind, the headline, and the details that justify it."""

    kind: OutcomeKind
    headline: str
    details: list[str] = field(default_factory=list)


def coverage_label(summary: LedgerSummary) -> str:
    """Evidence coverage as shown: "n/a" when the answer makes no claims (nothing was proved, nothing to cover)."""
    return "n/a" if summary.total_claims == 0 else f"{summary.evidence_coverage:.0%}"


def unsupported_label(summary: LedgerSummary) -> str:
    """Unsupported rate as shown, "n/a" for a 0-claim answer."""
    return "n/a" if summary.total_claims == 0 else f"{summary.unsupported_rate:.0%}"


def completeness_label(ledger: EvidenceLedger) -> str:
    """Share of the question's parts answered, or "not judged"."""
    return "not judged" if ledger.completeness is None else f"{ledger.completeness:.0%}"


def is_phantom(entry: LedgerEntry) -> bool:
    """Whether the claim cites a chunk that does not exist in the workspace."""
    return PHANTOM_CITATION in entry.flags


def shown_verdict(entry: LedgerEntry) -> str:
    """The verdict a claim is styled with: a phantom citation is never styled as supported, whatever the search
    found afterwards (the sentence names a source that does not exist)."""
    return "phantom" if is_phantom(entry) else entry.verdict


def _counts(ledger: EvidenceLedger) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in ledger.entries:
        counts[entry.verdict] = counts.get(entry.verdict, 0) + 1
    return counts


def plural(n: int, word: str) -> str:
    """"1 claim", "2 claims"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def ledger_outcome(ledger: EvidenceLedger, *, unanswerable: bool = False, subject: str = "The answer") -> Outcome:
    """The outcome of one ledger (an answer, or a draft as submitted)."""
    counts = _counts(ledger)
    phantoms = sum(1 for e in ledger.entries if is_phantom(e))
    contradicted, not_found, weak = (counts.get(v, 0) for v in ("contradicted", "not_found", "weak"))
    details: list[str] = []
    if phantoms:
        details.append(f"{plural(phantoms, 'claim')} cite{'s' if phantoms == 1 else ''} a source that does not exist")
    if ledger.gaps:
        details.append("not answered: " + "; ".join(ledger.gaps))
    if contradicted:
        return Outcome("contradicted", f"{subject} contains {plural(contradicted, 'contradicted claim')}: the "
                       "documents say otherwise.", details + _also(not_found, weak))
    if unanswerable or not ledger.entries:
        return Outcome("unanswerable", "Not answerable from these documents.", details)
    missing = bool(ledger.gaps) or (ledger.completeness is not None and ledger.completeness < 1.0)
    if missing or not_found or weak or phantoms:
        return Outcome("partial", f"{subject} is only partly answered and proved.", details + _also(not_found, weak))
    return Outcome("proved", f"{subject} is fully answered, and every claim is proved by a quoted passage.", details)


def _also(not_found: int, weak: int) -> list[str]:
    out = []
    if not_found:
        out.append(f"{plural(not_found, 'claim')} not found in the documents")
    if weak:
        out.append(f"{plural(weak, 'claim')} only weakly supported")
    return out


def run_outcome(result: RunResult, *, failed: bool = False) -> Outcome:
    """The outcome line of a run: for an answer its final ledger; for a draft check the draft as submitted."""
    if failed:
        return Outcome("failed", "This run failed before finishing.")
    unanswerable = any(flag.type in UNANSWERED_FLAGS for flag in result.risk_flags)
    if result.mode == "verify" and result.revisions:
        outcome = ledger_outcome(result.revisions[0].ledger, subject="The draft as submitted")
    else:
        outcome = ledger_outcome(result.ledger, unanswerable=unanswerable)
    # "Proved" must not stand alone beside a high risk (sources disagree, a document addressed the model).
    serious = [f for f in result.risk_flags if f.severity == "high" and f.type not in UNANSWERED_FLAGS]
    if serious:
        names = ", ".join(dict.fromkeys(f.type.replace("_", " ") for f in serious))
        outcome = Outcome(outcome.kind, outcome.headline, [*outcome.details, f"Read the high risks first: {names}."])
    return outcome


def has_problems(verdicts: dict[str, int], status: str, risk_flags: int, claim_flags: dict[str, int]) -> bool:
    """Whether a stored run needs a reviewer's look: failed, a claim contradicted or not found, a phantom citation,
    or any risk flag."""
    return (status != "ok" or verdicts.get("contradicted", 0) > 0 or verdicts.get("not_found", 0) > 0
            or risk_flags > 0 or claim_flags.get(PHANTOM_CITATION, 0) > 0)


def change_vs_draft(before: float, after: float) -> tuple[str, bool]:
    """A rate's change from the draft as shown beside it ("+25 pts vs draft"), and whether it changed at all: an
    unchanged rate is "no change vs draft", with no arrow and no colour."""
    points = round((after - before) * 100)
    return (f"{points:+d} pts vs draft", True) if points else ("no change vs draft", False)

