"""Runs: wire the roles together for `verify` (and, with the writer, `ask`). The roles never call each other."""

from __future__ import annotations

import time
import uuid
from datetime import date

from ledger.judge import Judge
from ledger.metrics import summarize
from ledger.risks import ledger_risk_flags, risk_level
from ledger.settings import Settings, load_settings
from ledger.types import Critique, RevisionAttempt, RevisionDecision, RunResult, RunWarning


def new_session_id() -> str:
    """A fresh session id."""
    return uuid.uuid4().hex[:16]


def verify_draft(
    question: str,
    answer: str,
    *,
    settings: Settings | None = None,
    judge: Judge | None = None,
    workspace: str | None = None,
    today: date | None = None,
) -> RunResult:
    """Judge a draft written elsewhere (mode `verify`)."""
    started = time.perf_counter()
    settings = settings or load_settings()
    judge = judge or Judge(settings, workspace=workspace, today=today)
    ledger = judge.run(question, answer)
    decision = RevisionDecision(should_revise=False, reason="Judged as given")
    result = RunResult(
        session_id=new_session_id(),
        mode="verify",
        question=question,
        answer=answer,
        ledger=ledger,
        revisions=[RevisionAttempt(response=answer, critique=Critique(), ledger=ledger, decision=decision)],
        warnings=termination_warnings(ledger),
        risk_flags=ledger_risk_flags(ledger, judge.today, settings.judge.outdated_days),
        workspace=judge.workspace,
        backend=settings.backend,
        risk_level=risk_level(question),
        retrieved_chunks=sorted({m.chunk_hash for e in ledger.entries for m in e.evidence}),
    )
    result.duration_ms = int((time.perf_counter() - started) * 1000)
    return result


def termination_warnings(ledger, first_coverage: float | None = None) -> list[RunWarning]:  # type: ignore[no-untyped-def]
    """Seed 004 §6.3: NO_IMPROVEMENT when revisions did not raise coverage, UNSUPPORTED_CLAIMS when some remain."""
    warnings: list[RunWarning] = []
    summary = ledger.summary if ledger.entries else summarize([])
    if first_coverage is not None and summary.evidence_coverage <= first_coverage:
        warnings.append(RunWarning(code="NO_IMPROVEMENT", message="Revisions did not improve evidence coverage"))
    unsupported = [e for e in ledger.entries if e.verdict == "not_found" and e.claim.importance != "minor"]
    if unsupported:
        warnings.append(RunWarning(
            code="UNSUPPORTED_CLAIMS",
            message=f"{len(unsupported)} material claims could not be verified",
            details=[e.claim.text for e in unsupported],
        ))
    return warnings
