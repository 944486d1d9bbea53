"""Revision decisions (seed 004 §6.1 + §7.3 gates) and risk-tightened thresholds, table-driven."""

from __future__ import annotations

import pytest

from ledger.core.settings import Settings
from ledger.core.types import Claim, EvidenceLedger, EvidenceMatch, LedgerEntry
from ledger.judge.metrics import summarize
from ledger.loop.revision import Thresholds, decide_revision, thresholds_for

T = Thresholds(coverage_target=0.85, max_revisions=2, similarity_threshold=0.7)


def entry(
    verdict: str, importance: str = "critical", text: str = "claim", flags: list[str] | None = None
) -> LedgerEntry:
    claim = Claim(id="c", text=text, type="fact", importance=importance)  # type: ignore[arg-type]
    evidence = [
        EvidenceMatch(
            chunk_hash="abc123abc123",
            document="D",
            similarity=0.9,
            support="full",
            quote="The cap is $220.",
            match_type="semantic",
        )
    ]
    return LedgerEntry(claim=claim, verdict=verdict, confidence=0.9, evidence=evidence, flags=flags or [])  # type: ignore[arg-type]


def ledger(*entries: LedgerEntry) -> EvidenceLedger:
    return EvidenceLedger(entries=list(entries), summary=summarize(list(entries)))


@pytest.mark.parametrize(
    ("entries", "done", "revise", "reason_starts"),
    [
        ([entry("supported")] * 7, 0, False, "Coverage threshold met"),
        ([entry("not_found", text="Staff get a gym pass")], 0, True, "Critical claims lack evidence"),
        ([entry("not_found")], 2, False, "Maximum revision cycles reached"),
        ([entry("supported")] * 9 + [entry("contradicted", text="The cap is $250")], 0, True, "Claims contradict"),
        ([entry("supported"), entry("not_found", "material")], 1, True, "Coverage 50% below 85%"),
        ([entry("supported")] * 9 + [entry("not_found", "minor")], 0, False, "Coverage threshold met"),
    ],
)
def test_decide_revision(entries: list[LedgerEntry], done: int, revise: bool, reason_starts: str) -> None:
    decision = decide_revision(ledger(*entries), done, T)
    assert decision.should_revise is revise
    assert decision.reason.startswith(reason_starts)


def test_instructions_name_the_claims_to_fix_and_quote_the_evidence() -> None:
    decision = decide_revision(
        ledger(entry("not_found", text="Staff get a gym pass"), entry("contradicted", text="The cap is $250")), 0, T
    )
    assert 'Remove or qualify claim: "Staff get a gym pass"' in decision.instructions
    assert any("The cap is $250" in i and "$220" in i for i in decision.instructions)


@pytest.mark.parametrize(
    ("risk", "coverage", "similarity"),
    [("low", 0.85, 0.7), ("medium", 0.85, 0.7), ("high", 0.9, 0.7), ("critical", 0.95, 0.75)],
)
def test_risk_tightens_thresholds_never_loosens(risk: str, coverage: float, similarity: float) -> None:
    t = thresholds_for(risk, Settings())  # type: ignore[arg-type]
    assert t.coverage_target == pytest.approx(coverage)
    assert t.similarity_threshold == pytest.approx(similarity)
