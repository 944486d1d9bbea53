"""Ledger metrics (seed 004 §7): evidence coverage, unsupported rate, the summary. All pure."""

from __future__ import annotations

from collections import Counter

from ledger.core.types import VERDICTS, LedgerEntry, LedgerSummary


def _non_minor(entries: list[LedgerEntry]) -> list[LedgerEntry]:
    return [e for e in entries if e.claim.importance != "minor"]


def evidence_coverage(entries: list[LedgerEntry]) -> float:
    """(supported + weak) / non-minor claims; 1.0 when there are none."""
    material = _non_minor(entries)
    if not material:
        return 1.0
    return round(sum(e.verdict in ("supported", "weak") for e in material) / len(material), 4)


def unsupported_rate(entries: list[LedgerEntry]) -> float:
    """not_found / non-minor claims; 0.0 when there are none."""
    material = _non_minor(entries)
    if not material:
        return 0.0
    return round(sum(e.verdict == "not_found" for e in material) / len(material), 4)


def critical_unsupported(entries: list[LedgerEntry]) -> int:
    """Critical claims left not_found or contradicted (the quality gate wants 0)."""
    return sum(e.claim.importance == "critical" and e.verdict in ("not_found", "contradicted") for e in entries)


def summarize(entries: list[LedgerEntry]) -> LedgerSummary:
    """The summary block of a ledger."""
    counts = Counter(e.verdict for e in entries)
    return LedgerSummary(
        total_claims=len(entries),
        evidence_coverage=evidence_coverage(entries),
        unsupported_rate=unsupported_rate(entries),
        verdicts={v: counts.get(v, 0) for v in VERDICTS},
        critical_unsupported=critical_unsupported(entries),
    )
