"""The HTML export: one self-contained, readable report (inline CSS, no scripts).

The page is `templates/report.html.j2`, rendered by Jinja2 with autoescape on, so markup in a source or in a
model's text renders as text. This module only turns a run into plain view models for the template.

Every page carries its own hash (`<meta name="evidence-page-sha256">`, shown again in the footer): the sha256 of
the page's UTF-8 bytes with every occurrence of that hash replaced by 64 zeros. A recipient checks it with
`evidence export verify FILE`, or by hand with sed and sha256sum.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

from jinja2 import Environment, PackageLoader, StrictUndefined

from ledger.audit.types import AuditRecord, iso_utc
from ledger.core.types import EvidenceLedger, LedgerEntry, RevisionAttempt, RiskFlag, RunResult, RunWarning
from ledger.exports.review import ReviewedChange, RunReview, SignOff

_CITE = re.compile(r"\[cite:([0-9A-Za-z]{4,64})\]")
_PAGE_HASH = re.compile(rb'<meta name="evidence-page-sha256" content="([0-9a-f]{64})">')
BLANK_HASH = "0" * 64
"""What the page hash reads as while the page is hashed."""
VERDICT_LABELS = {"supported": "Supported", "weak": "Weak", "contradicted": "Contradicted", "not_found": "Not found"}

_ENV = Environment(
    loader=PackageLoader("ledger.exports", "templates"),
    autoescape=True,  # the only templates are HTML: every value is escaped unless the template says otherwise
    undefined=StrictUndefined,  # a misspelt field fails the export instead of vanishing from the page
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass(frozen=True)
class Piece:
    """A run of text, or (with `chunk`) a citation link to the sources list whose text is its number."""

    text: str
    chunk: str | None = None


@dataclass(frozen=True)
class Span:
    """A stretch of the answer, underlined by `verdict` when it is a claim."""

    pieces: list[Piece]
    verdict: str | None = None
    title: str = ""


@dataclass(frozen=True)
class Source:
    """One source, numbered by its place in the list: a chunk the answer cites or the ledger quotes."""

    chunk: str
    document: str
    day: str


@dataclass(frozen=True)
class VerdictCount:
    """How many claims of the final ledger got one verdict."""

    verdict: str
    label: str
    count: int


@dataclass(frozen=True)
class EvidenceView:
    """One quoted passage of a claim, with where it comes from."""

    quote: str
    document: str
    day: str
    chunk_hash: str
    support: str
    match_type: str
    similarity: str


@dataclass(frozen=True)
class ClaimView:
    """One row of a claims table."""

    id: str
    text: str
    flags: list[str]
    notes: str
    type: str
    importance: str
    verdict: str
    label: str
    confidence: str
    evidence: list[EvidenceView]


@dataclass(frozen=True)
class RoundView:
    """One round of the revision loop: the response, the skeptic's critique, the decision and the claims."""

    title: str
    coverage: str
    unsupported: str
    claim_count: int
    response: list[Piece]
    skeptic: str
    issues: list[tuple[str, str]]
    decision: str  # "revise", "stop" or "" when none was taken
    reason: str
    instructions: list[str]
    claims: list[ClaimView]


DECISION_LABELS = {"accepted": "Accepted", "rejected": "Rejected", "undecided": "Undecided",
                   "not reviewed": "Not reviewed"}
_ENV.globals["decision_labels"] = DECISION_LABELS


@dataclass(frozen=True)
class ReviewView:
    """The review of the run: its status line, the suggested changes with their decisions, and the sign-offs."""

    reviewed: bool
    status: str
    changes: list[ReviewedChange]
    sign_offs: list[SignOff]
    row_hashes: str  # the sign-offs' audit row hashes, space-separated (a meta tag names them)


@dataclass(frozen=True)
class ReportView:
    """Everything the report page shows, as plain text and numbers already formatted."""

    title: str
    question: str
    cards: list[tuple[str, str]]
    verdicts: list[VerdictCount]
    failed: bool
    error: str
    risk_flags: list[RiskFlag]
    warnings: list[RunWarning]
    answer: list[Span]
    legend: list[tuple[str, str]]
    sources: list[Source]
    claims: list[ClaimView]
    rounds: list[RoundView]
    metadata: list[tuple[str, str]]
    schema_version: str
    content_sha256: str
    row_hash: str
    prev_hash: str
    audit_row: str
    review: ReviewView
    session_id: str = ""
    page_sha256: str = BLANK_HASH


def render_report(result: RunResult, record: AuditRecord, review: RunReview, *, content_sha256: str,
                  schema_version: str) -> str:
    """The whole report as one HTML page, carrying its own hash (see `page_sha256`)."""
    view = report_view(result, record, review, content_sha256=content_sha256, schema_version=schema_version)
    template = _ENV.get_template("report.html.j2")
    blank = template.render(r=view)
    return template.render(r=replace(view, page_sha256=page_sha256(blank.encode("utf-8"), BLANK_HASH)))


def page_sha256(page: bytes, claimed: str) -> str:
    """The hash an HTML report must carry: sha256 of its bytes with every occurrence of `claimed` set to 64 zeros."""
    return hashlib.sha256(page.replace(claimed.encode("ascii"), BLANK_HASH.encode("ascii"))).hexdigest()


def claimed_page_sha256(page: bytes) -> str | None:
    """The page hash an HTML report says it has (None when it carries none)."""
    found = _PAGE_HASH.search(page)
    return found.group(1).decode("ascii") if found else None


def report_view(result: RunResult, record: AuditRecord, review: RunReview, *, content_sha256: str,
                schema_version: str) -> ReportView:
    """The view model of a run's report. Pure."""
    sources = _sources(result)
    return ReportView(
        title=result.question[:80],
        question=result.question,
        cards=_cards(result, record),
        verdicts=[VerdictCount(v, VERDICT_LABELS.get(v, v), n) for v, n in sorted(record.verdict_distribution.items())],
        failed=record.status == "failed",
        error=record.error or "",
        risk_flags=list(result.risk_flags),
        warnings=list(result.warnings),
        answer=_answer(result, sources),
        legend=list(VERDICT_LABELS.items()),
        sources=[Source(h, doc, day) for h, (_, doc, day) in sources.items()],
        claims=_claims(result.ledger),
        rounds=[_round(i, attempt, sources) for i, attempt in enumerate(result.revisions)],
        metadata=_metadata(record),
        schema_version=schema_version,
        content_sha256=content_sha256,
        row_hash=record.row_hash,
        prev_hash=record.prev_hash,
        audit_row=str(record.id),
        review=ReviewView(review.reviewed, review.status, list(review.changes), list(review.sign_offs),
                          " ".join(s.audit_row.row_hash for s in review.sign_offs)),
        session_id=result.session_id,
    )


def _cards(result: RunResult, record: AuditRecord) -> list[tuple[str, str]]:
    summary = result.ledger.summary
    return [
        (record.status.upper(), "status"),
        (f"{summary.evidence_coverage:.0%}", "evidence coverage"),
        (f"{summary.unsupported_rate:.0%}", "unsupported rate"),
        (str(summary.total_claims or len(result.ledger.entries)), "claims"),
        (result.risk_level, "risk level"),
        (str(max(len(result.revisions) - 1, 0)), "revisions"),
    ]


def _sources(result: RunResult) -> dict[str, tuple[int, str, str]]:
    """Chunk hash -> (number, document, date) for every chunk the answer cites or the final ledger quotes."""
    found: dict[str, tuple[str, str]] = {}
    for entry in result.ledger.entries:
        for match in entry.evidence:
            found.setdefault(match.chunk_hash, (match.document or match.path, match.doc_date.isoformat()
                                                if match.doc_date else ""))
    order = [h for h in dict.fromkeys(_CITE.findall(result.answer))] + [h for h in found]
    return {h: (i + 1, *found.get(h, ("(not in the corpus: phantom citation)", ""))) for i, h in
            enumerate(dict.fromkeys(order))}


def _answer(result: RunResult, sources: dict[str, tuple[int, str, str]]) -> list[Span]:
    """The answer cut into plain and claim spans; empty when there is no answer."""
    text = result.answer
    if not text:
        return []
    spans = sorted(
        ((entry.claim.span, entry.verdict, entry.claim.id) for entry in result.ledger.entries
         if entry.claim.span[1] > entry.claim.span[0]), key=lambda s: s[0][0],
    )
    out, pos = [], 0
    for (start, end), verdict, claim_id in spans:
        if start < pos or end > len(text):
            continue  # overlapping or stale spans: show the text unmarked rather than wrongly marked
        out.append(Span(_with_cites(text[pos:start], sources)))
        title = f"{claim_id}: {VERDICT_LABELS.get(verdict, verdict)}"
        out.append(Span(_with_cites(text[start:end], sources), verdict=verdict, title=title))
        pos = end
    out.append(Span(_with_cites(text[pos:], sources)))
    return out


def _with_cites(fragment: str, sources: dict[str, tuple[int, str, str]]) -> list[Piece]:
    """Text whose [cite:hash] anchors become numbered links to the sources list (unknown ones show the hash)."""
    pieces, pos = [], 0
    for match in _CITE.finditer(fragment):
        chunk = match.group(1)
        pieces.append(Piece(fragment[pos:match.start()]))
        pieces.append(Piece(str(sources[chunk][0]) if chunk in sources else chunk[:6], chunk=chunk))
        pos = match.end()
    pieces.append(Piece(fragment[pos:]))
    return [p for p in pieces if p.text or p.chunk]


def _claims(ledger: EvidenceLedger) -> list[ClaimView]:
    return [_claim(entry) for entry in ledger.entries]


def _claim(entry: LedgerEntry) -> ClaimView:
    claim = entry.claim
    return ClaimView(
        id=claim.id, text=claim.text, flags=list(entry.flags), notes=entry.notes, type=claim.type,
        importance=claim.importance, verdict=entry.verdict, label=VERDICT_LABELS.get(entry.verdict, entry.verdict),
        confidence=f"{entry.confidence:.2f}",
        evidence=[
            EvidenceView(
                quote=match.quote, document=match.document,
                day=match.doc_date.isoformat() if match.doc_date else "", chunk_hash=match.chunk_hash,
                support=match.support, match_type=match.match_type, similarity=f"{match.similarity:.2f}",
            )
            for match in entry.evidence
        ],
    )


def _round(i: int, attempt: RevisionAttempt, sources: dict[str, tuple[int, str, str]]) -> RoundView:
    summary = attempt.ledger.summary
    decision = attempt.decision
    return RoundView(
        title="Round 0 — draft" if i == 0 else f"Round {i} — revision {i}",
        coverage=f"{summary.evidence_coverage:.0%}",
        unsupported=f"{summary.unsupported_rate:.0%}",
        claim_count=len(attempt.ledger.entries),
        response=_with_cites(attempt.response, sources),
        skeptic=attempt.critique.summary,
        issues=[(issue.kind, issue.message) for issue in attempt.critique.issues],
        decision=("revise" if decision.should_revise else "stop") if decision else "",
        reason=decision.reason if decision else "",
        instructions=list(decision.instructions) if decision else [],
        claims=_claims(attempt.ledger),
    )


def _metadata(record: AuditRecord) -> list[tuple[str, str]]:
    usage = record.token_usage
    rows: list[tuple[str, object]] = [
        ("Session", record.session_id), ("Status", record.status), ("Mode", record.mode),
        ("Backend", record.backend), ("Workspace", record.workspace_id), ("User", record.user_id),
        ("Started", iso_utc(record.timestamp)), ("Recorded", iso_utc(record.recorded_at)),
        ("Duration", f"{record.total_duration_ms / 1000:.2f} s"), ("Model calls", record.llm_calls),
        ("Tokens", f"{usage.input_tokens} in, {usage.output_tokens} out, {usage.cache_read_input_tokens} cache read"),
        ("Chunks retrieved", len(record.retrieved_chunk_ids)),
    ]
    if record.error:
        rows.append(("Error", record.error))
    return [(key, str(value)) for key, value in rows]
