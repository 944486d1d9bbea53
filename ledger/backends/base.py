"""The roles of a run, as small protocols with typed requests and results; each backend implements them.

Writer → a draft with [cite:hash] anchors; Skeptic → a critique; ClaimExtractor → the claims of an answer with
its completeness and gaps; Reviser → the next draft. The pipeline wires them; they never call each other, and
nothing is read back off a role instance. Model calls are counted by `ledger.core.metering`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ledger.core.types import Chunk, Claim, Critique, EvidenceLedger, RevisionDecision

# The canned answer when nothing relevant was retrieved (seed 004 §8.1); no model is called for it.
NO_EVIDENCE_ANSWER = "I could not find relevant information in the provided documents to answer your question."


@dataclass(frozen=True)
class WriteRequest:
    """Write an answer to `question` from `evidence`."""

    question: str
    evidence: list[Chunk]


@dataclass(frozen=True)
class Draft:
    """A written (or revised) answer; `answered` is False when the writer found the documents do not answer."""

    text: str
    answered: bool = True
    missing: str = ""  # what the documents do not state, when the writer could tell


@dataclass(frozen=True)
class CritiqueRequest:
    """Critique `draft`, an answer to `question`, against `evidence`."""

    question: str
    draft: str
    evidence: list[Chunk]


@dataclass(frozen=True)
class ExtractRequest:
    """Split `answer` into claims and say how completely it answers `question`."""

    question: str
    answer: str
    evidence: list[Chunk] = field(default_factory=list)


@dataclass(frozen=True)
class Extraction:
    """The claims of an answer (seed 004 §3), its completeness 0–1 and the parts of the question it leaves out."""

    claims: list[Claim]
    completeness: float | None = None
    gaps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RevisionRequest:
    """Revise `draft` from its ledger, the decision's instructions and the critique (seed 004 §6.2)."""

    question: str
    draft: str
    ledger: EvidenceLedger
    decision: RevisionDecision
    critique: Critique
    evidence: list[Chunk]


class Writer(Protocol):
    """Drafts an answer from evidence; every sentence cites the chunk(s) it comes from."""

    def run(self, request: WriteRequest) -> Draft: ...


class Skeptic(Protocol):
    """Critiques a draft against the evidence."""

    def run(self, request: CritiqueRequest) -> Critique: ...


class ClaimExtractor(Protocol):
    """Splits an answer into claims and reports its completeness and gaps (seeds 003, 004 §3)."""

    def run(self, request: ExtractRequest) -> Extraction: ...


class Reviser(Protocol):
    """Writes the next draft (seed 004 §6.2)."""

    def run(self, request: RevisionRequest) -> Draft: ...


@dataclass(frozen=True)
class Roles:
    """The model-backed roles of one backend."""

    writer: Writer
    skeptic: Skeptic
    extractor: ClaimExtractor
    reviser: Reviser
