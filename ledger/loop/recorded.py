"""Run and record: every ask/verify run is stored with its audit row, failed runs included."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from ledger.core.settings import Settings
from ledger.core.types import Mode, RunResult
from ledger.loop.pipeline import Pipeline, new_session_id
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore


class RecordedPipeline:
    """A pipeline whose runs are all stored: a failed run leaves an audit row and no half-written ledger."""

    def __init__(
        self,
        settings: Settings,
        pipeline: Pipeline | None = None,
        store: RunStore | None = None,
        workspace: str | None = None,
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline or Pipeline(settings, workspace=workspace)
        self.store = store or RunStore(open_engine(settings), settings)

    def ask(self, question: str) -> RunResult:
        """Answer and store."""
        return self._recorded("answer", question, lambda: self.pipeline.ask(question))

    def verify(self, question: str, draft: str) -> RunResult:
        """Verify a draft and store."""
        return self._recorded("verify", question, lambda: self.pipeline.verify(question, draft))

    def _recorded(self, mode: Mode, question: str, run: Callable[[], RunResult]) -> RunResult:
        started = datetime.now(UTC)
        clock = time.perf_counter()
        meter = self.pipeline.roles.meter
        calls_before = meter.calls
        try:
            result = run()
        except Exception as exc:
            self.store.save_failed_run(
                new_session_id(),
                question,
                mode,
                self.pipeline.judge.workspace,
                exc,
                started_at=started,
                duration_ms=int((time.perf_counter() - clock) * 1000),
                llm_calls=meter.calls - calls_before,
                backend=self.settings.backend,
            )
            raise
        self.store.save_run(result, started_at=started)
        return result
