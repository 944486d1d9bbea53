"""Coverage and unsupported rate (seed 004 §7), table-driven."""

from __future__ import annotations

import pytest

from ledger.core.types import Claim, LedgerEntry
from ledger.judge.metrics import summarize


def e(verdict: str, importance: str = "critical") -> LedgerEntry:
    claim = Claim(id="c", text="t", type="fact", importance=importance)  # type: ignore[arg-type]
    return LedgerEntry(claim=claim, verdict=verdict, confidence=0.9)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("entries", "coverage", "unsupported", "critical"),
    [
        ([], 1.0, 0.0, 0),
        ([e("supported", "minor"), e("not_found", "minor")], 1.0, 0.0, 0),  # only minor claims
        ([e("supported"), e("weak", "material"), e("not_found"), e("contradicted")], 0.5, 0.25, 2),
        ([e("supported"), e("not_found", "minor")], 1.0, 0.0, 0),  # minor claims do not count
        ([e("not_found", "material"), e("supported")], 0.5, 0.5, 0),
    ],
)
def test_summary_metrics(entries: list[LedgerEntry], coverage: float, unsupported: float, critical: int) -> None:
    summary = summarize(entries)
    assert summary.evidence_coverage == coverage
    assert summary.unsupported_rate == unsupported
    assert summary.critical_unsupported == critical
    assert summary.total_claims == len(entries)
    assert sum(summary.verdicts.values()) == len(entries)
