"""Runs: retrieve → write → critique → judge → revise, until coverage is met or revisions are spent.

The roles never call each other; this module wires them (seed 004 §2, §6, §8). A run either returns a
complete RunResult or raises: nothing half-written leaves here.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import date

from ledger.backends.base import NO_EVIDENCE_ANSWER, CallMeter, GapFinder, Reviser, Skeptic, Writer
from ledger.core.settings import Settings, load_settings
from ledger.core.types import (
    Chunk,
    EvidenceLedger,
    Mode,
    RevisionAttempt,
    RiskFlag,
    RunResult,
    RunWarning,
)
from ledger.judge.judge import Judge
from ledger.loop.revision import Thresholds, decide_revision, thresholds_for
from ledger.loop.risks import ledger_risk_flags, risk_level


def new_session_id() -> str:
    """A fresh session id."""
    return uuid.uuid4().hex[:16]


@dataclass
class Roles:
    """The model-backed roles of one backend, and the meter they record their calls in."""

    writer: Writer
    skeptic: Skeptic
    reviser: Reviser
    gaps: GapFinder
    meter: CallMeter = field(default_factory=CallMeter)


def termination_warnings(ledger: EvidenceLedger, first_coverage: float | None = None) -> list[RunWarning]:
    """Seed 004 §6.3: NO_IMPROVEMENT when revisions did not raise coverage, UNSUPPORTED_CLAIMS when some remain."""
    warnings: list[RunWarning] = []
    if first_coverage is not None and ledger.summary.evidence_coverage <= first_coverage:
        warnings.append(RunWarning(code="NO_IMPROVEMENT", message="Revisions did not improve evidence coverage"))
    unsupported = [e for e in ledger.entries if e.verdict == "not_found" and e.claim.importance != "minor"]
    if unsupported:
        warnings.append(
            RunWarning(
                code="UNSUPPORTED_CLAIMS",
                message=f"{len(unsupported)} material claims could not be verified",
                details=[e.claim.text for e in unsupported],
            )
        )
    return warnings


class Pipeline:
    """Answers questions (mode `answer`) and checks drafts (mode `verify`) against one workspace."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        judge: Judge | None = None,
        roles: Roles | None = None,
        workspace: str | None = None,
        today: date | None = None,
    ) -> None:
        self.settings = settings or load_settings()
        if judge is None or roles is None:
            from ledger.loop.factory import build_backend

            judge, roles = build_backend(self.settings, workspace=workspace, today=today, judge=judge)
        self.judge = judge
        self.roles = roles

    def ask(self, question: str) -> RunResult:
        """Answer a question from the documents, revising until the evidence holds (mode `answer`)."""
        return self._run("answer", question, draft=None)

    def verify(self, question: str, draft: str) -> RunResult:
        """Judge and revise a draft written elsewhere (mode `verify`)."""
        return self._run("verify", question, draft=draft)

    def _run(self, mode: Mode, question: str, draft: str | None) -> RunResult:
        started = time.perf_counter()
        meter = self.roles.meter
        calls_before, usage_before = meter.calls, meter.usage.model_copy()
        hits = self.judge.retriever.retrieve(
            question, self.settings.revision.retrieve_k, self.settings.revision.min_relevance
        )
        evidence = [hit.chunk for hit in hits]
        risk = risk_level(question, [c.text for c in evidence])
        result = RunResult(
            session_id=new_session_id(),
            mode=mode,
            question=question,
            answer="",
            workspace=self.judge.workspace,
            backend=self.settings.backend,
            risk_level=risk,
            retrieved_chunks=[c.hash for c in evidence],
        )
        if not evidence and draft is None:
            self._no_evidence(result)
        else:
            self._loop(result, draft, evidence, thresholds_for(risk, self.settings))
        result.duration_ms = int((time.perf_counter() - started) * 1000)
        result.llm_calls = meter.calls - calls_before
        result.token_usage = meter.usage.model_copy(
            update={
                name: getattr(meter.usage, name) - getattr(usage_before, name)
                for name in type(meter.usage).model_fields
            }
        )
        return result

    def _no_evidence(self, result: RunResult) -> None:
        """Seed 004 §8.1: nothing relevant was retrieved — the canned answer, no model call."""
        result.answer = NO_EVIDENCE_ANSWER
        result.ledger = EvidenceLedger(completeness=0.0, gaps=[result.question])
        result.ledger.summary.evidence_coverage = 0.0
        result.revisions = [RevisionAttempt(response=NO_EVIDENCE_ANSWER, ledger=result.ledger)]
        result.risk_flags = [
            RiskFlag(type="no_evidence", severity="high", description="No documents matched the query")
        ]

    def _loop(self, result: RunResult, draft: str | None, evidence: list[Chunk], thresholds: Thresholds) -> None:
        question = result.question
        text = draft if draft is not None else self.roles.writer.run(question, evidence)
        # A writer that can tell the documents do not answer the question says so (the local one does).
        unanswered = draft is None and bool(getattr(self.roles.writer, "last_unanswered", False))
        judge_settings = self.settings.judge.model_copy(
            update={"similarity_threshold": thresholds.similarity_threshold}
        )
        rounds: list[RevisionAttempt] = []
        while True:
            critique = self.roles.skeptic.run(question, text, evidence)
            ledger = self.judge.judge_claims(self.judge.extractor.run(question, text), judge_settings)
            ledger.completeness, ledger.gaps = self.roles.gaps.run(question, text, evidence)
            decision = decide_revision(ledger, len(rounds), thresholds)
            rounds.append(RevisionAttempt(response=text, critique=critique, ledger=ledger, decision=decision))
            if not decision.should_revise:
                break
            revised = self.roles.reviser.run(question, text, ledger, decision, critique, evidence)
            if revised.strip() == text.strip():
                decision.reason += "; the reviser could not change the draft"
                break
            text = revised
        final = rounds[-1]
        result.answer, result.ledger, result.revisions = final.response, final.ledger, rounds
        result.warnings = termination_warnings(
            final.ledger, rounds[0].ledger.summary.evidence_coverage if len(rounds) > 1 else None
        )
        result.risk_flags = ledger_risk_flags(final.ledger, self.judge.today, self.settings.judge.outdated_days)
        if unanswered or (final.ledger.summary.total_claims == 0 and final.ledger.gaps):
            result.risk_flags.insert(
                0,
                RiskFlag(
                    type="unanswered",
                    severity="high",
                    description="The documents on this topic do not answer the question"
                    + (f": {'; '.join(final.ledger.gaps)}" if final.ledger.gaps else "."),
                ),
            )
