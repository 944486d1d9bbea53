"""The revision loop with queue-driven fake roles: rounds kept, termination, warnings, no-evidence path."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date

from ingest.vectorstore import ScoredChunk
from ledger.backends.base import NO_EVIDENCE_ANSWER, Draft, Roles, WriteRequest
from ledger.core.metering import record_call
from ledger.core.settings import Settings
from ledger.core.types import Chunk, Claim, EvidenceLedger, LedgerEntry
from ledger.judge.metrics import summarize
from ledger.loop.pipeline import Pipeline
from tests.fakes import FakeExtractor, FakeReviser, FakeSkeptic, FakeWriter

CHUNK = Chunk(hash="aaaaaaaaaaaa", text="The cap is $220.", document_id="d", index=0, start_char=0, end_char=16)


def ledger_of(*verdicts: str) -> EvidenceLedger:
    entries = [
        LedgerEntry(
            claim=Claim(id=f"c{i}", text=f"claim {i}", type="fact", importance="critical"), verdict=v, confidence=0.9
        )  # type: ignore[arg-type]
        for i, v in enumerate(verdicts, 1)
    ]
    return EvidenceLedger(entries=entries, summary=summarize(entries))


class FakeRetriever:
    def __init__(self, hits: list[ScoredChunk]) -> None:
        self.hits = hits

    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
        return self.hits


class FakeJudge:
    """Returns one queued ledger per judging round."""

    def __init__(self, *ledgers: EvidenceLedger, hits: list[ScoredChunk] | None = None) -> None:
        self.ledgers = list(ledgers)
        self.retriever = FakeRetriever([ScoredChunk(CHUNK, 0.8)] if hits is None else hits)
        self.rounds = 0

    def judge_claims(self, claims, settings=None):  # type: ignore[no-untyped-def]
        self.rounds += 1
        return self.ledgers.pop(0)


def pipeline(judge: FakeJudge, writer: FakeWriter, reviser: FakeReviser) -> Pipeline:
    roles = Roles(writer=writer, skeptic=FakeSkeptic(), extractor=FakeExtractor(), reviser=reviser)
    return Pipeline(Settings(), workspace="default", retriever=judge.retriever, judge=judge,  # type: ignore[arg-type]
                    roles=roles, today=date(2026, 11, 21))


def test_a_good_first_draft_is_not_revised() -> None:
    result = pipeline(FakeJudge(ledger_of("supported", "supported")), FakeWriter("draft"), FakeReviser()).ask("Q?")
    assert result.answer == "draft"
    assert len(result.revisions) == 1
    assert result.revisions[0].decision.reason == "Coverage threshold met"
    assert result.warnings == []


def test_revises_until_coverage_is_met_and_keeps_every_round() -> None:
    judge = FakeJudge(ledger_of("supported", "not_found"), ledger_of("supported", "supported"))
    result = pipeline(judge, FakeWriter("draft"), FakeReviser("revised")).ask("Q?")
    assert [r.response for r in result.revisions] == ["draft", "revised"]
    assert result.answer == "revised"
    assert result.revisions[0].decision.should_revise and not result.revisions[1].decision.should_revise
    assert result.ledger.summary.evidence_coverage == 1.0


def test_stops_after_two_revisions_with_warnings() -> None:
    judge = FakeJudge(*(ledger_of("supported", "not_found") for _ in range(3)))
    result = pipeline(judge, FakeWriter("d0"), FakeReviser("d1", "d2")).ask("Q?")
    assert [r.response for r in result.revisions] == ["d0", "d1", "d2"]
    assert result.revisions[-1].decision.reason == "Maximum revision cycles reached"
    assert {w.code for w in result.warnings} == {"NO_IMPROVEMENT", "UNSUPPORTED_CLAIMS"}


def test_verify_keeps_the_draft_as_given_as_round_zero() -> None:
    judge = FakeJudge(ledger_of("contradicted"), ledger_of("supported"))
    writer = FakeWriter()  # must not be called in verify mode
    result = pipeline(judge, writer, FakeReviser("fixed")).verify("Q?", "given draft")
    assert result.mode == "verify"
    assert result.revisions[0].response == "given draft"
    assert result.answer == "fixed"
    assert writer.queue.calls == []


def test_no_relevant_evidence_gives_the_canned_answer_without_any_model_call() -> None:
    judge = FakeJudge(hits=[])
    writer, reviser = FakeWriter(), FakeReviser()
    result = pipeline(judge, writer, reviser).ask("What is the airspeed of a swallow?")
    assert result.answer == NO_EVIDENCE_ANSWER
    assert [f.type for f in result.risk_flags] == ["no_evidence"]
    assert writer.queue.calls == [] and judge.rounds == 0 and result.llm_calls == 0


def test_a_reviser_that_changes_nothing_ends_the_loop() -> None:
    judge = FakeJudge(ledger_of("not_found"))
    result = pipeline(judge, FakeWriter("draft"), FakeReviser("draft")).ask("Q?")
    assert len(result.revisions) == 1
    assert "could not change" in result.revisions[0].decision.reason


class MeteredWriter(FakeWriter):
    """A writer that makes `calls` model calls and waits at a barrier, so two runs overlap in time."""

    def __init__(self, calls: int, barrier: threading.Barrier) -> None:
        super().__init__("draft")
        self.calls, self.barrier = calls, barrier

    def run(self, request: WriteRequest) -> Draft:
        for _ in range(self.calls):
            record_call("writer")
        self.barrier.wait(timeout=5)
        return super().run(request)


def test_two_runs_at_once_each_count_only_their_own_model_calls() -> None:
    barrier = threading.Barrier(2)
    runs = [pipeline(FakeJudge(ledger_of("supported")), MeteredWriter(n, barrier), FakeReviser()) for n in (1, 3)]
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda p: p.ask("Q?"), runs))
    assert [r.llm_calls for r in results] == [1, 3]


def test_a_writer_that_finds_no_answer_makes_the_run_flag_the_question_unanswered() -> None:
    judge = FakeJudge(EvidenceLedger(completeness=0.0, gaps=[]))
    result = pipeline(judge, FakeWriter("The documents do not state it.", answered=False), FakeReviser()).ask("Q?")
    assert result.risk_flags[0].type == "unanswered"
