"""Verdict and confidence rules (seed 004 §5) and conflict resolution (§8.2), table-driven."""

from __future__ import annotations

from datetime import date

import pytest

from ledger.core.types import EvidenceMatch
from ledger.judge.verdicts import age_description, confidence, is_outdated, resolve, verdict_for


def m(support: str, doc: str = "A", when: date | None = None, sim: float = 0.8, reason: str = "") -> EvidenceMatch:
    return EvidenceMatch(
        chunk_hash=f"{doc}{support}"[:12],
        document=doc,
        path=f"/{doc}",
        doc_date=when,
        similarity=sim,
        support=support,
        quote="q",
        match_type="semantic",
        reason=reason,
    )  # type: ignore[arg-type]


ALL_FIGURES = "the quote states the claim (similarity 0.67); both figures agree (every 20 minutes, every 30 minutes)"
VERBATIM = "the quote states the claim word for word (similarity 0.92)"


@pytest.mark.parametrize(
    ("support", "sims", "inferred", "expected"),
    [
        ("full", [0.8], False, 0.85),
        ("full", [0.8, 0.8], False, 0.90),
        ("full", [0.8] * 6, False, 1.0),  # +0.05 × min(5, 3) = +0.15, clamped at 1
        ("full", [0.9], False, 0.90),  # high-similarity boost
        ("full", [0.8], True, 0.75),  # inference penalty
        ("partial", [0.8], False, 0.60),
        ("partial", [0.9, 0.9], False, 0.70),
        ("none", [0.9], False, 0.0),
    ],
)
def test_confidence_follows_seed_rules(support: str, sims: list[float], inferred: bool, expected: float) -> None:
    assert confidence(support, sims, inferred) == pytest.approx(expected)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("support", "conf", "verdict"),
    [
        ("full", 0.85, "supported"),
        ("full", 0.80, "weak"),  # full support needs confidence > 0.8
        ("full", 0.75, "weak"),
        ("partial", 0.7, "weak"),
        ("contradicted", 0.85, "contradicted"),
        ("none", 0.0, "not_found"),
    ],
)
def test_verdict_decision_tree(support: str, conf: float, verdict: str) -> None:
    assert verdict_for(support, conf) == verdict  # type: ignore[arg-type]


OLD, NEW = date(2024, 1, 15), date(2026, 3, 1)


@pytest.mark.parametrize(
    ("matches", "support", "conflict_doc", "unresolved"),
    [
        ([], "none", None, False),
        ([m("full")], "full", None, False),
        ([m("partial"), m("full", "B")], "full", None, False),
        ([m("contradicted")], "contradicted", None, False),
        # newer document supports, older contradicts: newer prevails, older named
        ([m("full", "new", NEW), m("contradicted", "old", OLD)], "full", "old", False),
        # newer contradicts, only the older supports: contradicted, older named
        ([m("full", "old", OLD), m("contradicted", "new", NEW)], "contradicted", "old", False),
        # no dates to decide: contradicted, unresolved
        ([m("full", "A"), m("contradicted", "B")], "contradicted", "A", True),
        # same document saying both: not a cross-source conflict
        ([m("full", "A"), m("contradicted", "A")], "contradicted", None, False),
        # a contradiction far less similar than the support is about something else
        ([m("full", "A", sim=0.9), m("contradicted", "A", sim=0.6)], "full", None, False),
        ([m("full", "new", NEW, sim=0.9), m("contradicted", "old", OLD, sim=0.85)], "full", "old", False),
        # a passage giving every figure of the claim outweighs a less similar one of the same document giving
        # another figure (about something else: "every two hours" on another line of a timetable)
        ([m("full", "A", sim=0.67, reason=ALL_FIGURES), m("contradicted", "A", sim=0.64)], "full", None, False),
        ([m("full", "A", sim=0.67, reason=ALL_FIGURES), m("contradicted", "A", sim=0.7)], "contradicted", None,
         False),
        ([m("full", "A", sim=0.67), m("contradicted", "A", sim=0.64)], "contradicted", None, False),
        # a passage stating the claim word for word outweighs another passage of its document read as contradicting it
        ([m("full", "A", sim=0.92, reason=VERBATIM), m("contradicted", "A", sim=0.84)],
         "full", None, False),
    ],
)
def test_resolve_conflicts_newer_source_prevails(
    matches: list[EvidenceMatch], support: str, conflict_doc: str | None, unresolved: bool
) -> None:
    result = resolve(matches)
    assert result.support == support
    assert (result.conflict_with.document if result.conflict_with else None) == conflict_doc
    assert result.conflict_unresolved is unresolved


def test_a_passage_stating_every_figure_outweighs_a_closer_one_that_gives_fewer() -> None:
    claim = "In the 10 km race each runner carries 2 litres of water."
    stated = EvidenceMatch(chunk_hash="a" * 12, document="A", path="/A", similarity=0.70, support="full",
                           quote="In the 10 km race, each runner carries 2 litres instead of 3.",
                           match_type="semantic", reason="the quote states the claim; both figures agree")
    general = EvidenceMatch(chunk_hash="b" * 12, document="A", path="/A", similarity=0.74, support="contradicted",
                            quote="Each runner carries 3 litres of water.", match_type="semantic",
                            reason="evidence says 3 litres, claim says 2 litres")
    assert resolve([stated, general], claim).support == "full"  # the other passage is not about the 10 km race
    assert resolve([stated, general]).support == "contradicted"  # without the claim: the closer passage decides


@pytest.mark.parametrize(
    ("doc_date", "outdated", "age"),
    [
        (date(2025, 11, 20), True, "12 months old"),
        (date(2025, 11, 22), False, None),
        (date(2023, 6, 1), True, "3 years old"),
        (None, False, None),
    ],
)
def test_outdated_sources(doc_date: date | None, outdated: bool, age: str | None) -> None:
    today = date(2026, 11, 21)
    assert is_outdated(doc_date, today) is outdated
    if age:
        assert age_description(doc_date, today) == age  # type: ignore[arg-type]
