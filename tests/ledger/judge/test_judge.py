"""The judge on the sample corpus: phantom citations, misattribution, conflicts, outdated sources."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.core.types import Chunk, LedgerEntry
from ledger.judge.judge import Judge
from ledger.judge.support import LocalSupportChecker
from ledger.loop.factory import build_ingestor, build_judge
from tests.conftest import SAMPLE_DOCS

pytestmark = pytest.mark.model
TODAY = date(2026, 11, 21)


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory, embedder) -> Judge:  # type: ignore[no-untyped-def]
    settings = Settings(home=tmp_path_factory.mktemp("judge_home"))
    report = build_ingestor(settings, embedder=embedder).run([SAMPLE_DOCS])
    assert not report.failed
    return build_judge(settings, embedder=embedder, checker=LocalSupportChecker(embedder, settings.judge), today=TODAY)


def chunk_with(judge: Judge, text: str, file: str) -> Chunk:
    return next(c for c in judge.store.all_chunks() if text in c.text and Path(c.path).name == file)


def only(judge: Judge, answer: str, question: str = "What are the travel rules?") -> LedgerEntry:
    ledger = judge.run(question, answer)
    assert len(ledger.entries) == 1, [e.claim.text for e in ledger.entries]
    return ledger.entries[0]


def test_a_phantom_citation_is_flagged_and_the_claim_is_still_searched(judge: Judge) -> None:
    entry = only(judge, "The meal per diem for domestic travel is $75 per day [cite:deadbeef0000].")
    assert "phantom_citation" in entry.flags
    assert "deadbeef0000" in entry.notes
    assert entry.verdict in ("supported", "weak")
    assert entry.evidence[0].match_type == "semantic"


def test_a_claim_supported_elsewhere_than_its_citation_is_misattributed(judge: Judge) -> None:
    wrong = chunk_with(judge, "4 hours", "information_security_policy.md")
    right = chunk_with(judge, "$75 per day", "travel_expense_policy_2026.md")
    entry = only(judge, f"The meal per diem for domestic travel is $75 per day [cite:{wrong.hash}].")
    assert entry.verdict in ("supported", "weak")
    assert "misattributed" in entry.flags
    assert right.hash in entry.notes  # the better chunk is named
    assert entry.evidence[0].chunk_hash == right.hash


def test_newer_source_prevails_in_a_conflict_and_the_older_is_named(judge: Judge) -> None:
    new = chunk_with(judge, "$75 per day", "travel_expense_policy_2026.md")
    entry = only(judge, f"The meal per diem for domestic travel is $75 per day [cite:{new.hash}].")
    assert entry.verdict == "supported"
    assert "conflict" in entry.flags
    assert "2024" in entry.notes  # names the older edition
    assert "outdated_source" not in entry.flags  # the deciding source is current


def test_a_figure_only_the_outdated_edition_supports_is_contradicted(judge: Judge) -> None:
    entry = only(judge, "The nightly hotel cap for standard locations is $180 per night.")
    assert entry.verdict == "contradicted"
    assert "$220" in entry.evidence[0].quote
    assert "conflict" in entry.flags


def test_a_claim_only_an_old_document_supports_carries_outdated_source(judge: Judge) -> None:
    old = chunk_with(judge, "$400", "travel_expense_policy_2024.txt")
    quote_sentence = next(s for s in old.text.split(". ") if "$400" in s)
    entry = only(judge, f"{quote_sentence.strip().rstrip('.')}. [cite:{old.hash}]")
    assert entry.verdict in ("supported", "weak")
    assert "outdated_source" in entry.flags
    assert "years old" in entry.notes or "months old" in entry.notes


def test_every_judged_claim_shows_the_quote_and_document_that_decided_it(judge: Judge) -> None:
    ledger = judge.run(
        "What are the rules?",
        "Security incidents must be reported within 4 hours. The hotel cap is $250 per night. "
        "Every employee gets a free gym membership.",
    )
    verdicts = {e.claim.text: e for e in ledger.entries}
    assert len(verdicts) == 3
    for entry in ledger.entries:
        if entry.verdict != "not_found":
            assert entry.evidence and entry.evidence[0].quote and entry.evidence[0].document
            assert entry.evidence[0].quote in " ".join(c.text for c in judge.store.all_chunks())
    assert verdicts["The hotel cap is $250 per night."].verdict == "contradicted"
    assert verdicts["Every employee gets a free gym membership."].verdict == "not_found"


def test_a_changed_figure_is_contradicted_by_the_current_edition_first(judge: Judge) -> None:
    entry = only(judge, "Under the travel policy, the nightly hotel cap for standard locations is $250.")
    assert entry.verdict == "contradicted"
    assert "$220" in entry.evidence[0].quote  # the current edition leads, so the reviser corrects to it
    assert "outdated_source" not in entry.flags
