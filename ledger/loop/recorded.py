"""Run and record: every ask/verify run is stored with its audit row, failed runs included."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from ledger.core.cancellation import CancelToken
from ledger.core.errors import RunCancelled
from ledger.core.metering import CallMeter
from ledger.core.settings import Settings
from ledger.core.types import Mode, RunResult
from ledger.loop.inputs import clean_draft, clean_question
from ledger.loop.pipeline import Pipeline, new_session_id
from ledger.storage.runs import RunStore


class RecordedPipeline:
    """A pipeline whose runs are all stored: a failed run leaves an audit row and no half-written ledger.

    Safe to share between threads: every run has its own call meter and its own database transaction.
    """

    def __init__(self, settings: Settings, pipeline: Pipeline, store: RunStore) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.store = store

    @property
    def workspace(self) -> str:
        """The workspace the runs are answered from."""
        return self.pipeline.workspace

    def ask(self, question: str, cancel: CancelToken | None = None) -> RunResult:
        """Answer and store; a question that cannot be asked (InputError) is refused before any run starts.
        A cancelled run (RunCancelled) stores nothing at all: no run, no ledger, no audit row."""
        question = clean_question(question, self.settings.revision.max_question_chars)
        return self._recorded("answer", question, lambda meter: self.pipeline.ask(question, meter, cancel))

    def verify(self, question: str, draft: str, cancel: CancelToken | None = None) -> RunResult:
        """Verify a draft and store; unusable input (InputError) is refused before any run starts; `cancel` as
        for `ask`."""
        question = clean_question(question, self.settings.revision.max_question_chars)
        draft = clean_draft(draft, self.settings.revision.max_draft_chars)
        return self._recorded("verify", question, lambda meter: self.pipeline.verify(question, draft, meter, cancel))

    def _recorded(self, mode: Mode, question: str, run: Callable[[CallMeter], RunResult]) -> RunResult:
        started = datetime.now(UTC)
        clock = time.perf_counter()
        meter = CallMeter()
        try:
            result = run(meter)
        except RunCancelled:
            raise  # the user stopped it: not a failure to record
        except Exception as exc:
            self.store.save_failed_run(
                new_session_id(),
                question,
                mode,
                self.pipeline.workspace,
                exc,
                started_at=started,
                duration_ms=int((time.perf_counter() - clock) * 1000),
                llm_calls=meter.calls,
                token_usage=meter.usage,
                backend=self.settings.backend,
            )
            raise
        self.store.save_run(result, started_at=started)
        return result
