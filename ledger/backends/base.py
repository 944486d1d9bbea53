"""The roles of a run as small protocols; each backend implements them. The pipeline wires them together.

Writer → draft with [cite:hash] anchors; Skeptic → critique; ClaimExtractor + SupportChecker → the
judge's two model-backed steps; Reviser → the next draft. A `CallMeter` counts model calls and tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ledger.core.types import Chunk, Claim, Critique, EvidenceLedger, RevisionDecision, TokenUsage

# The canned answer when nothing relevant was retrieved (seed 004 §8.1); no model is called for it.
NO_EVIDENCE_ANSWER = "I could not find relevant information in the provided documents to answer your question."


class Writer(Protocol):
    """Drafts an answer from evidence; every sentence cites the chunk(s) it comes from."""

    def run(self, question: str, evidence: list[Chunk]) -> str: ...


class Skeptic(Protocol):
    """Critiques a draft against the evidence."""

    def run(self, question: str, draft: str, evidence: list[Chunk]) -> Critique: ...


class ClaimExtractor(Protocol):
    """Splits an answer into claims (seed 004 §3)."""

    def run(self, question: str, answer: str) -> list[Claim]: ...


class Reviser(Protocol):
    """Writes the next draft from the ledger and the revision instructions (seed 004 §6.2)."""

    def run(
        self,
        question: str,
        draft: str,
        ledger: EvidenceLedger,
        decision: RevisionDecision,
        critique: Critique,
        evidence: list[Chunk],
    ) -> str: ...


class GapFinder(Protocol):
    """Says which parts of the question an answer leaves uncovered: (completeness 0–1, gaps)."""

    def run(self, question: str, answer: str, evidence: list[Chunk]) -> tuple[float, list[str]]: ...


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
