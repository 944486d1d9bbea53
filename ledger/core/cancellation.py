"""Cancelling a run: a token the caller sets (a UI button, a signal handler) and the pipeline checks between stages."""

from __future__ import annotations

import threading

from ledger.core.errors import RunCancelled


class CancelToken:
    """Set from any thread; the run that holds it stops at its next stage boundary with RunCancelled."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the run to stop (idempotent)."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """Whether cancel() was called."""
        return self._event.is_set()

    def check(self, stage: str = "") -> None:
        """Raise RunCancelled when cancelled; `stage` says where the run stopped ("after the draft")."""
        if self._event.is_set():
            raise RunCancelled(stage)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or `timeout` seconds pass; True when cancelled."""
        return self._event.wait(timeout)
