"""No answer or evidence text takes the judge down: claim extraction and local support checks on odd characters,
and a pair whose check fails anyway costs that pair, not the batch."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.judge.support as support_module
from ledger.core.types import Chunk, Claim
from ledger.judge.claims import extract_claims
from ledger.judge.evaluation import EvalItem, judge_items, unchecked_items
from ledger.judge.support import LocalSupportChecker, SupportCheck
from tests.fakes import HashEmbedder, make_chunk
from tests.strategies import claim_text, table_text, texts

CHECKER = LocalSupportChecker(HashEmbedder())


@given(texts, claim_text)
def test_extract_claims_returns_claims_with_spans_in_the_answer(answer: str, question: str) -> None:
    claims = extract_claims(answer, question)
    assert [c.id for c in claims] == [f"c{n}" for n in range(1, len(claims) + 1)]
    for claim in claims:
        assert isinstance(claim, Claim) and claim.text
        start, end = claim.span
        assert 0 <= start < end <= len(answer)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(claim_text, st.one_of(texts, table_text())), min_size=1, max_size=4))
def test_the_local_checker_checks_every_pair(pairs: list[tuple[str, str]]) -> None:
    chunks = [make_chunk(evidence) for _, evidence in pairs]
    checks = CHECKER.check([(claim, chunk) for (claim, _), chunk in zip(pairs, chunks, strict=True)])
    assert len(checks) == len(pairs)
    for check, chunk in zip(checks, chunks, strict=True):
        assert isinstance(check, SupportCheck) and check.rule != "error", check.reason  # no pair hid a crash
        assert check.support in ("full", "partial", "none", "contradicted")
        assert 0 <= check.quote_start <= check.quote_end <= len(chunk.text)


def test_odd_characters_in_evidence_are_checked_like_any_other() -> None:
    chunk = make_chunk("The office has an area of 25 m² and costs $40 per m² ½ ٣ ３ \u202e 🎉 each month.")
    check = CHECKER.check([("The office costs $40 per month.", chunk)])[0]
    assert check.rule != "error" and check.quote.startswith("The office has an area of 25 m²")


def _pairs() -> list[tuple[str, Chunk]]:
    return [
        ("The hotel cap is $220 per night.", make_chunk("The nightly hotel cap is $220 per night.")),
        ("Reports are due within 30 days.", make_chunk("TRIP: this chunk breaks the helper.")),
        ("Reports are due within 30 days.", make_chunk("Expense reports must be submitted within 30 days.")),
    ]


@pytest.mark.parametrize("broken", ["features", "split_sentences"])
def test_a_failing_pair_is_reported_unchecked_and_the_rest_are_checked(
    broken: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pairs = _pairs()
    expected = LocalSupportChecker(HashEmbedder()).check(pairs)
    real = getattr(support_module, broken)

    def tripping(*args: object) -> object:
        if any("TRIP" in str(a) for a in args):
            raise ZeroDivisionError("a bug nobody found yet\nsecond line")
        return real(*args)

    monkeypatch.setattr(support_module, broken, tripping)
    with caplog.at_level(logging.WARNING, logger="ledger.judge.support"):
        checks = LocalSupportChecker(HashEmbedder()).check(pairs)
    assert checks[1] == SupportCheck(
        "none", "", 0.0, "could not be checked: ZeroDivisionError: a bug nobody found yet", "error"
    )
    assert [checks[0], checks[2]] == [expected[0], expected[2]] and expected[2].quote.startswith("Expense reports")
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "Reports are due within 30 days." in warnings[0].getMessage()


def test_a_claim_whose_only_passage_failed_says_so_and_eval_counts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = support_module.features

    def tripping(*args: object) -> object:
        if any("TRIP" in str(a) for a in args):
            raise ZeroDivisionError("a bug nobody found yet")
        return real(*args)

    monkeypatch.setattr(support_module, "features", tripping)
    items = [
        EvalItem(id="ok", claim="The hotel cap is $220 per night.",
                 evidence=["The nightly hotel cap is $220 per night."], label="supported"),
        EvalItem(id="bug", claim="Reports are due within 30 days.", evidence=["TRIP: reports are due within 30 days."],
                 label="supported"),
    ]
    entries = judge_items(items, LocalSupportChecker(HashEmbedder()))
    assert entries[1].verdict == "not_found"
    assert "1 passage(s) could not be checked (ZeroDivisionError: a bug nobody found yet)" in entries[1].notes
    assert "could not be checked" not in entries[0].notes
    assert unchecked_items(entries) == 1
