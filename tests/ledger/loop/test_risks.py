"""Risk level heuristics (seed 000) and run-level risk flags."""

from __future__ import annotations

import pytest

from ledger.loop.risks import risk_level


@pytest.mark.parametrize(
    ("question", "level"),
    [
        ("What dosage should a patient take?", "critical"),
        ("Can we be sued for breach of contract?", "critical"),
        ("What was Q3 revenue?", "critical"),
        ("How fast must a security incident be reported?", "high"),
        ("Which days are office anchor days?", "low"),
    ],
)
def test_risk_level_from_the_question(question: str, level: str) -> None:
    assert risk_level(question) == level
