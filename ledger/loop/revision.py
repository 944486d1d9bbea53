"""Revision decisions (seed 004 §6.1, with the §7.3 quality gates) and risk-tightened thresholds. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.core.settings import Settings
from ledger.core.types import EvidenceLedger, RevisionDecision, RiskLevel, RunWarning

# Seed 000: the riskier the question, the more evidence an answer needs.
COVERAGE_BY_RISK: dict[RiskLevel, float] = {"low": 0.0, "medium": 0.0, "high": 0.9, "critical": 0.95}
SIMILARITY_BUMP_BY_RISK: dict[RiskLevel, float] = {"low": 0.0, "medium": 0.0, "high": 0.0, "critical": 0.05}


@dataclass(frozen=True)
class Thresholds:
    """The bars one run is held to."""

    coverage_target: float
    max_revisions: int
    similarity_threshold: float


def thresholds_for(risk: RiskLevel, settings: Settings) -> Thresholds:
    """Settings' thresholds, tightened for high and critical risk (never loosened)."""
    return Thresholds(
        coverage_target=max(settings.revision.coverage_target, COVERAGE_BY_RISK[risk]),
        max_revisions=settings.revision.max_revisions,
        similarity_threshold=min(0.95, settings.judge.similarity_threshold + SIMILARITY_BUMP_BY_RISK[risk]),
    )


def decide_revision(ledger: EvidenceLedger, revisions_done: int, thresholds: Thresholds) -> RevisionDecision:
    """Revise while coverage is short of the target or a quality gate fails (a contradiction, a critical
    claim without evidence), and revisions remain. Instructions name every claim to fix."""
    if revisions_done >= thresholds.max_revisions:
        return RevisionDecision(should_revise=False, reason="Maximum revision cycles reached")
    coverage = ledger.summary.evidence_coverage
    critical_missing = [e for e in ledger.entries if e.claim.importance == "critical" and e.verdict == "not_found"]
    contradicted = [e for e in ledger.entries if e.verdict == "contradicted"]
    misattributed = [e for e in ledger.entries if "misattributed" in e.flags or "phantom_citation" in e.flags]
    if coverage >= thresholds.coverage_target and not contradicted and not critical_missing:
        return RevisionDecision(should_revise=False, reason="Coverage threshold met")
    instructions = [f'Remove or qualify claim: "{e.claim.text}"' for e in critical_missing]
    instructions += [
        f'Correct claim based on evidence: "{e.claim.text}"'
        + (f' (evidence: "{e.evidence[0].quote}")' if e.evidence else "")
        for e in contradicted
    ]
    instructions += [
        f'Re-point the citation of "{e.claim.text}" to [cite:{e.evidence[0].chunk_hash}]'
        for e in misattributed
        if e.evidence and e.verdict in ("supported", "weak")
    ]
    if critical_missing:
        reason = "Critical claims lack evidence"
    elif contradicted:
        reason = "Claims contradict evidence"
    else:
        reason = f"Coverage {coverage:.0%} below {thresholds.coverage_target:.0%} threshold"
        instructions.append("Strengthen citations or remove unsupported claims")
    return RevisionDecision(should_revise=True, reason=reason, instructions=instructions)


def termination_warnings(ledger: EvidenceLedger, first_coverage: float | None = None) -> list[RunWarning]:
    """Seed 004 §6.3: NO_IMPROVEMENT when revisions did not raise coverage, UNSUPPORTED_CLAIMS when some remain."""
    warnings: list[RunWarning] = []
    if first_coverage is not None and ledger.summary.evidence_coverage <= first_coverage:
        warnings.append(RunWarning(code="NO_IMPROVEMENT", message="Revisions did not improve evidence coverage"))
    unsupported = [e for e in ledger.entries if e.verdict == "not_found" and e.claim.importance != "minor"]
    if unsupported:
        warnings.append(
            RunWarning(
                code="UNSUPPORTED_CLAIMS",
                message=f"{len(unsupported)} material claims could not be verified",
                details=[e.claim.text for e in unsupported],
            )
        )
    return warnings
