"""Runs: retrieve → write → critique → judge → revise, until coverage is met or revisions are spent.

The roles never call each other; this module wires them (seed 004 §2, §6, §8). A run either returns a
complete RunResult or raises: nothing half-written leaves here. Each run counts its own model calls.
"""

from __future__ import annotations

import time
import uuid
from datetime import date
from typing import Protocol

from ingest.vectorstore import ScoredChunk
from ledger.backends.base import (
    NO_EVIDENCE_ANSWER,
    CritiqueRequest,
    ExtractRequest,
    RevisionRequest,
    Roles,
    WriteRequest,
)
from ledger.core.cancellation import CancelToken
from ledger.core.metering import CallMeter, metering
from ledger.core.settings import Settings
from ledger.core.types import Chunk, EvidenceLedger, Mode, RevisionAttempt, RiskFlag, RunResult
from ledger.judge.judge import Judge
from ledger.loop.inputs import clean_draft, clean_question
from ledger.loop.revision import Thresholds, decide_revision, termination_warnings, thresholds_for
from ledger.loop.risks import ledger_risk_flags, quarantine, risk_level


def settings_used(settings: Settings, thresholds: Thresholds) -> dict[str, str | float | int | None]:
    """What a reviewer needs to know of how a run was made: backend, models, and the bars it was held to."""
    used: dict[str, str | float | int | None] = {
        "backend": settings.backend,
        "embedding_model": settings.embedding.model,
        "support_model": settings.judge.nli_model or "rules (offline)",
        "coverage_target": thresholds.coverage_target,
        "max_revisions": thresholds.max_revisions,
        "similarity_threshold": thresholds.similarity_threshold,
        "candidate_similarity": settings.judge.candidate_similarity,
        "retrieve_k": settings.revision.retrieve_k,
        "min_relevance": settings.revision.min_relevance,
    }
    if settings.backend == "anthropic":
        used |= {"writer_model": settings.anthropic.writer_model, "judge_model": settings.anthropic.judge_model}
    return used


def new_session_id() -> str:
    """A fresh session id."""
    return uuid.uuid4().hex[:16]


class QuestionRetriever(Protocol):
    """Finds the chunks relevant to a question."""

    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]: ...


class Pipeline:
    """Answers questions (mode `answer`) and checks drafts (mode `verify`) against one workspace."""

    def __init__(
        self,
        settings: Settings,
        *,
        workspace: str,
        retriever: QuestionRetriever,
        judge: Judge,
        roles: Roles,
        today: date,
    ) -> None:
        self.settings = settings
        self.workspace = workspace
        self.retriever = retriever
        self.judge = judge
        self.roles = roles
        self.today = today

    def ask(self, question: str, meter: CallMeter | None = None, cancel: CancelToken | None = None) -> RunResult:
        """Answer a question from the documents, revising until the evidence holds (mode `answer`).

        A set `cancel` token stops the run at the next stage boundary with RunCancelled."""
        return self._run("answer", question, None, meter or CallMeter(), cancel or CancelToken())

    def verify(self, question: str, draft: str, meter: CallMeter | None = None,
               cancel: CancelToken | None = None) -> RunResult:
        """Judge and revise a draft written elsewhere (mode `verify`); `cancel` as for `ask`."""
        return self._run("verify", question, draft, meter or CallMeter(), cancel or CancelToken())

    def _run(self, mode: Mode, question: str, draft: str | None, meter: CallMeter, cancel: CancelToken) -> RunResult:
        started = time.perf_counter()
        cancel.check("before it started")
        question = clean_question(question, self.settings.revision.max_question_chars)
        if draft is not None:
            draft = clean_draft(draft, self.settings.revision.max_draft_chars)
        with metering(meter):
            hits = self.retriever.retrieve(
                question, self.settings.revision.retrieve_k, self.settings.revision.min_relevance
            )
            cancel.check("after retrieval")
            evidence = [hit.chunk for hit in hits]
            risk = risk_level(question, [c.text for c in evidence])
            result = RunResult(
                session_id=new_session_id(),
                mode=mode,
                question=question,
                answer="",
                workspace=self.workspace,
                backend=self.settings.backend,
                risk_level=risk,
                retrieved_chunks=[c.hash for c in evidence],
            )
            evidence, quarantined = quarantine(evidence)  # documents that address a model are no sources
            thresholds = thresholds_for(risk, self.settings)
            result.settings_used = settings_used(self.settings, thresholds)
            if not evidence and draft is None:
                self._no_evidence(result)
            else:
                self._loop(result, draft, evidence, thresholds, cancel)
            result.risk_flags += quarantined
        result.duration_ms = int((time.perf_counter() - started) * 1000)
        result.llm_calls = meter.calls
        result.token_usage = meter.usage.model_copy()
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

    def _loop(self, result: RunResult, draft: str | None, evidence: list[Chunk], thresholds: Thresholds,
              cancel: CancelToken) -> None:
        question = result.question
        if draft is None:
            written = self.roles.writer.run(WriteRequest(question, evidence))
            cancel.check("after the draft")
            text, unanswered = written.text, not written.answered
        else:
            text, unanswered = draft, False
        judge_settings = self.settings.judge.model_copy(
            update={"similarity_threshold": thresholds.similarity_threshold}
        )
        rounds: list[RevisionAttempt] = []
        while True:
            revision = f"revision {len(rounds)}" if rounds else "the draft"
            critique = self.roles.skeptic.run(CritiqueRequest(question, text, evidence))
            cancel.check(f"after the critique of {revision}")
            extraction = self.roles.extractor.run(ExtractRequest(question, text, evidence))
            cancel.check(f"after the claims of {revision} were extracted")
            ledger = self.judge.judge_claims(extraction.claims, judge_settings)
            cancel.check(f"after {revision} was judged")
            ledger.completeness, ledger.gaps = extraction.completeness, list(extraction.gaps)
            decision = decide_revision(ledger, len(rounds), thresholds)
            rounds.append(RevisionAttempt(response=text, critique=critique, ledger=ledger, decision=decision))
            if not decision.should_revise:
                break
            revised = self.roles.reviser.run(RevisionRequest(question, text, ledger, decision, critique, evidence))
            cancel.check(f"after revision {len(rounds)} was written")
            if revised.text.strip() == text.strip():
                decision.reason += "; the reviser could not change the draft"
                break
            text = revised.text
        final = rounds[-1]
        result.answer, result.ledger, result.revisions = final.response, final.ledger, rounds
        result.warnings = termination_warnings(
            final.ledger, rounds[0].ledger.summary.evidence_coverage if len(rounds) > 1 else None
        )
        result.risk_flags = ledger_risk_flags(final.ledger, self.today, self.settings.judge.outdated_days)
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
