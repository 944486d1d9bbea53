"""Cancelling a run: it stops at the next stage boundary with RunCancelled, and nothing of it is stored."""

from __future__ import annotations

import sqlite3
from datetime import date

import pytest

from ingest.vectorstore import ScoredChunk
from ledger.backends.base import Draft, Roles, WriteRequest
from ledger.core.cancellation import CancelToken
from ledger.core.errors import EvidenceError, RunCancelled
from ledger.core.settings import Settings
from ledger.core.types import Chunk, Claim, EvidenceLedger, LedgerEntry
from ledger.judge.metrics import summarize
from ledger.loop.pipeline import Pipeline
from ledger.loop.recorded import RecordedPipeline
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.fakes import FakeExtractor, FakeReviser, FakeSkeptic, FakeWriter

CHUNK = Chunk(hash="bbbbbbbbbbbb", text="The fee is $12.", document_id="d", index=0, start_char=0, end_char=15)


class _Retriever:
    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
        return [ScoredChunk(CHUNK, 0.8)]


class _Judge:
    """Counts its rounds; every claim is not found, so the loop would revise."""

    def __init__(self) -> None:
        self.rounds = 0

    def judge_claims(self, claims, settings=None):  # type: ignore[no-untyped-def]
        self.rounds += 1
        entries = [LedgerEntry(claim=Claim(id="c1", text="The fee is $15.", type="numeric", importance="critical"),
                               verdict="not_found", confidence=0.0)]
        return EvidenceLedger(entries=entries, summary=summarize(entries))


class _CancelledWhileDrafting(FakeWriter):
    """A writer during whose stage the user presses Cancel."""

    def __init__(self, token: CancelToken) -> None:
        super().__init__("The fee is $15.")
        self.token = token

    def run(self, request: WriteRequest) -> Draft:
        self.token.cancel()
        return super().run(request)


class _Failing(FakeWriter):
    def run(self, request: WriteRequest) -> Draft:
        raise EvidenceError("the model is unreachable")


def _recorded(settings: Settings, writer: FakeWriter, judge: _Judge) -> RecordedPipeline:
    roles = Roles(writer=writer, skeptic=FakeSkeptic(), extractor=FakeExtractor(), reviser=FakeReviser("x", "x"))
    pipeline = Pipeline(settings, workspace="default", retriever=_Retriever(), judge=judge,  # type: ignore[arg-type]
                        roles=roles, today=date(2026, 11, 21))
    return RecordedPipeline(settings, pipeline, RunStore(open_engine(settings), settings))


def _rows(settings: Settings, table: str) -> int:
    with sqlite3.connect(settings.home / "ledger.db") as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # noqa: S608 - fixed table names


def test_cancelling_after_the_draft_stops_the_run_and_stores_nothing(settings: Settings) -> None:
    token, judge = CancelToken(), _Judge()
    recorded = _recorded(settings, _CancelledWhileDrafting(token), judge)
    with pytest.raises(RunCancelled) as raised:
        recorded.ask("What is the fee?", cancel=token)
    assert isinstance(raised.value, EvidenceError)  # the CLI and UI show it as one line
    assert str(raised.value) == "Run cancelled after the draft; nothing was stored."
    assert judge.rounds == 0  # no stage after the draft ran
    for table in ("runs", "ledger_entries", "audit_log"):
        assert _rows(settings, table) == 0, table
    # A failing run, by contrast, leaves its failed audit row: the cancel is not just "any error".
    with pytest.raises(EvidenceError):
        _recorded(settings, _Failing(), judge).ask("What is the fee?")
    assert _rows(settings, "audit_log") == 1


def test_a_check_cancelled_between_judging_and_revising_stores_nothing(settings: Settings) -> None:
    token = CancelToken()

    class _CancelAfterJudging(_Judge):
        def judge_claims(self, claims, settings=None):  # type: ignore[no-untyped-def]
            token.cancel()
            return super().judge_claims(claims, settings)

    recorded = _recorded(settings, FakeWriter(), _CancelAfterJudging())
    with pytest.raises(RunCancelled, match="after the draft was judged"):
        recorded.verify("What is the fee?", "The fee is $15.", cancel=token)
    assert _rows(settings, "audit_log") == 0 and _rows(settings, "runs") == 0


def test_a_run_whose_token_is_never_set_finishes_and_is_stored(settings: Settings) -> None:
    result = _recorded(settings, FakeWriter("The fee is $15."), _Judge()).ask("What is the fee?",
                                                                              cancel=CancelToken())
    assert result.answer == "x"  # revised once by the fake reviser, then stopped
    assert _rows(settings, "runs") == 1 and _rows(settings, "audit_log") == 1
