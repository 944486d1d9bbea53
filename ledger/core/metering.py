"""Model calls and tokens of one run: each run opens its own meter, and backends record into the one in force.

The meter in force is a context variable, so two runs in two threads (two UI users) each count only their own
calls, with no lock and nothing shared. Work handed to a thread pool inside a run must carry the context along
(`contextvars.copy_context().run`), or its calls go uncounted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ledger.core.types import TokenUsage


@dataclass
class CallMeter:
    """Model calls and token usage of one run; backends record into it, the audit row reads it."""

    calls: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage)
    by_role: dict[str, int] = field(default_factory=dict)

    def record(self, role: str, usage: TokenUsage | None = None) -> None:
        """Count one model call for `role` and add its tokens."""
        self.calls += 1
        self.by_role[role] = self.by_role.get(role, 0) + 1
        if usage:
            for name in TokenUsage.model_fields:
                setattr(self.usage, name, getattr(self.usage, name) + getattr(usage, name))


_ACTIVE: ContextVar[CallMeter | None] = ContextVar("evidence_call_meter", default=None)


@contextmanager
def metering(meter: CallMeter | None = None) -> Iterator[CallMeter]:
    """Make `meter` (a new one by default) the meter of everything called inside the block."""
    meter = meter if meter is not None else CallMeter()
    token = _ACTIVE.set(meter)
    try:
        yield meter
    finally:
        _ACTIVE.reset(token)


def record_call(role: str, usage: TokenUsage | None = None) -> None:
    """Count one model call in the meter in force (calls outside any run are not counted)."""
    meter = _ACTIVE.get()
    if meter is not None:
        meter.record(role, usage)


def add_usage(usage: TokenUsage) -> None:
    """Add tokens to the meter in force without counting a call (the call was counted when it was sent)."""
    meter = _ACTIVE.get()
    if meter is not None:
        for name in TokenUsage.model_fields:
            setattr(meter.usage, name, getattr(meter.usage, name) + getattr(usage, name))
