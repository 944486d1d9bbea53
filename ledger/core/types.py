"""Domain types of the ledger: claims, evidence, verdicts, critiques, revisions and runs.

Serialised with `model_dump(mode="json")` they are exactly the JSON contracts of DESIGN.md
(a few fields beyond the contract, such as a claim's span, are additions, never renames).
"""

from __future__ import annotations

import datetime as dt
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

ClaimType = Literal["fact", "policy", "numeric", "definition"]
Importance = Literal["critical", "material", "minor"]
Support = Literal["full", "partial", "none", "contradicted"]
Verdict = Literal["supported", "weak", "contradicted", "not_found"]
MatchType = Literal["cited", "semantic"]
Mode = Literal["answer", "verify"]
Severity = Literal["low", "medium", "high"]
RiskLevel = Literal["low", "medium", "high", "critical"]

VERDICTS: tuple[Verdict, ...] = ("supported", "weak", "contradicted", "not_found")

# Entry flags (strings so new ones never break old readers).
PHANTOM_CITATION = "phantom_citation"
MISATTRIBUTED = "misattributed"
UNCITED = "uncited"
CONFLICT = "conflict"
OUTDATED_SOURCE = "outdated_source"


class TableRow(BaseModel):
    """One row of a table in a document, as parsed at ingest; the chunk text holds it as one sentence."""

    header: list[str] = Field(default_factory=list, description="Column headers, when the table has them.")
    cells: list[str] = Field(description="The row's cells, in order.")


class Chunk(BaseModel):
    """A span of a document, the unit of evidence."""

    hash: str = Field(description="Chunk hash (12 hex chars of sha256 of the normalised text).")
    text: str = Field(description="The chunk text as it appears in the document.")
    document_id: str = Field(description="Id of the document it belongs to.")
    index: int = Field(description="Position of the chunk in its document, from 0.")
    start_char: int = Field(description="Offset of the first character in the document text.")
    end_char: int = Field(description="Offset one past the last character in the document text.")
    path: str = Field("", description="Path of the source document.")
    title: str = Field("", description="Title of the source document.")
    doc_date: dt.date | None = Field(None, description="Date of the source document, if known.")
    table_rows: list[TableRow] = Field(
        default_factory=list, description="Cells of the table rows whose sentences are in this chunk."
    )
    section: str = Field(
        "", description="The headings the chunk's first sentences stand under, when they are above the chunk "
        "(a long section split into several chunks): 'Release 4.0 › Changed defaults'."
    )


class DocumentInfo(BaseModel):
    """A registered document as `evidence docs` shows it."""

    id: str = Field(description="Document id.")
    workspace: str = Field(description="Workspace it belongs to.")
    path: str = Field(description="Absolute path at ingest time.")
    title: str = Field(description="Document title.")
    sha256: str = Field(description="sha256 of the file's bytes when ingested.")
    mime_type: str = Field(description="MIME type.")
    date: dt.date | None = Field(None, description="Inferred document date.")
    date_source: str = Field("none", description="Where the date came from.")
    chunks: int = Field(description="Number of chunks.")
    chunk_hashes: list[str] = Field(default_factory=list, description="Hashes of its chunks, in order.")
    ingested_at: dt.datetime = Field(description="When this version was ingested (UTC).")


class Finding(BaseModel):
    """One disagreement `evidence doctor` found between the stores (registry, vectors, runs, files)."""

    kind: str = Field(description="What is wrong, e.g. 'orphan_vectors', 'missing_vectors', 'source_changed'.")
    subject: str = Field(description="What it is about: a document path, a collection, a session id.")
    detail: str = Field(description="One line saying what was found and what was (or could not be) done.")
    repaired: bool = Field(False, description="True when `--repair` fixed it.")
    workspace: str | None = Field(None, description="The workspace concerned, when there is one.")


class Claim(BaseModel):
    """A sentence-level assertion of an answer (seed 004 §3)."""

    id: str = Field(description="Claim id within its answer, e.g. 'c1'.")
    text: str = Field(description="The sentence with citation anchors removed.")
    type: ClaimType = Field(description="fact, policy, numeric or definition.")
    importance: Importance = Field(description="critical, material or minor.")
    cited: list[str] = Field(default_factory=list, description="Chunk hashes the sentence cites, in order.")
    span: tuple[int, int] = Field((0, 0), description="Character span of the sentence in the answer.")


class EvidenceMatch(BaseModel):
    """One chunk matched to a claim, with how far it supports it."""

    chunk_hash: str = Field(description="Hash of the matched chunk.")
    document: str = Field(description="Title of the chunk's document.")
    path: str = Field("", description="Path of the chunk's document.")
    doc_date: date | None = Field(None, description="Date of the chunk's document, if known.")
    similarity: float = Field(description="Cosine similarity of the claim and the deciding quote.")
    support: Support = Field(description="full, partial, none or contradicted.")
    quote: str = Field(description="The sentence(s) of the chunk that decide the support level.")
    match_type: MatchType = Field(description="'cited' when the claim cited this chunk, else 'semantic'.")
    reason: str = Field("", description="Why the support checker decided as it did.")
    entailment: float | None = Field(
        None, exclude_if=lambda value: value is None,
        description="The NLI model's probability that the quote entails the claim; absent when no model read it "
        "(left out, not null, so that a run stored before this field existed dumps to the same JSON and still "
        "matches the result_sha256 of its audit row).",
    )


class LedgerEntry(BaseModel):
    """A claim with its verdict and the evidence that decided it."""

    claim: Claim
    verdict: Verdict = Field(description="supported, weak, contradicted or not_found.")
    confidence: float = Field(description="0–1, by the rules of seed 004 §5.2.")
    evidence: list[EvidenceMatch] = Field(default_factory=list, description="Matches, deciding one first.")
    flags: list[str] = Field(default_factory=list, description="phantom_citation, misattributed, uncited, conflict...")
    notes: str = Field("", description="Plain-language explanation of the verdict.")


class LedgerSummary(BaseModel):
    """The metrics of seed 004 §7 over one ledger."""

    total_claims: int = Field(0, description="Number of claims.")
    evidence_coverage: float = Field(1.0, description="(supported + weak) / non-minor claims; 1.0 when none.")
    unsupported_rate: float = Field(0.0, description="not_found / non-minor claims.")
    verdicts: dict[str, int] = Field(default_factory=dict, description="Count of claims per verdict.")
    critical_unsupported: int = Field(0, description="Critical claims that are not_found or contradicted.")


class EvidenceLedger(BaseModel):
    """Every claim of one answer with its verdict, and the summary."""

    entries: list[LedgerEntry] = Field(default_factory=list)
    summary: LedgerSummary = Field(default_factory=LedgerSummary)
    completeness: float | None = Field(None, description="Share of the question's parts the answer covers, if judged.")
    gaps: list[str] = Field(default_factory=list, description="Parts of the question the answer does not cover.")


class CritiqueIssue(BaseModel):
    """One problem the skeptic found."""

    kind: str = Field(description="uncited, unknown_figure, conflict, hedge, unanswered, ...")
    sentence: str = Field("", description="The sentence concerned, if any.")
    message: str = Field(description="What is wrong, for the writer.")


class Critique(BaseModel):
    """The skeptic's report on a draft."""

    issues: list[CritiqueIssue] = Field(default_factory=list)
    summary: str = Field("", description="One-paragraph verdict of the skeptic.")


class RevisionDecision(BaseModel):
    """Whether to revise again, and the instructions (seed 004 §6.1)."""

    should_revise: bool
    reason: str
    instructions: list[str] = Field(default_factory=list)


class RevisionAttempt(BaseModel):
    """One round of the loop: the response, its critique, its ledger and the decision taken."""

    response: str
    critique: Critique = Field(default_factory=Critique)
    ledger: EvidenceLedger = Field(default_factory=EvidenceLedger)
    decision: RevisionDecision | None = None


class RunWarning(BaseModel):
    """A termination warning (seed 004 §6.3)."""

    code: str = Field(description="NO_IMPROVEMENT, UNSUPPORTED_CLAIMS, ...")
    message: str
    details: list[str] = Field(default_factory=list)


class RiskFlag(BaseModel):
    """A risk the reader must know about (seed 004 §8)."""

    type: str = Field(description="no_evidence, unanswered, conflict, outdated_source, ...")
    severity: Severity
    description: str


class TokenUsage(BaseModel):
    """Tokens spent by model calls."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0


class RunResult(BaseModel):
    """The outcome of `evidence ask` or `evidence verify` (the --json contract of DESIGN.md)."""

    session_id: str
    mode: Mode
    question: str
    answer: str
    ledger: EvidenceLedger = Field(default_factory=EvidenceLedger)
    revisions: list[RevisionAttempt] = Field(default_factory=list)
    warnings: list[RunWarning] = Field(default_factory=list)
    risk_flags: list[RiskFlag] = Field(default_factory=list)
    workspace: str = "default"
    backend: str = "local"
    risk_level: RiskLevel = "low"
    retrieved_chunks: list[str] = Field(default_factory=list, description="Hashes of the chunks retrieved.")
    duration_ms: int = 0
    llm_calls: int = 0
    token_usage: TokenUsage = Field(default_factory=TokenUsage)
    settings_used: dict[str, str | float | int | None] = Field(
        default_factory=dict,
        description="The backend, models and thresholds this run was held to (for reviewers and the audit).",
    )
