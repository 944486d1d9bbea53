"""The roles on Claude: writer and reviser on the writer model, skeptic, claims and support checks on the judge model.

One revision round costs at most four calls whatever the number of claims: the writer (or the reviser), the
skeptic, one claim extraction (claims, completeness and gaps together) and one batched support check.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from ledger.backends.anthropic import prompts
from ledger.backends.anthropic.client import ClaudeClient
from ledger.backends.base import (
    NO_EVIDENCE_ANSWER,
    CritiqueRequest,
    Draft,
    Extraction,
    ExtractRequest,
    RevisionRequest,
    Roles,
    WriteRequest,
)
from ledger.core.settings import AnthropicSettings
from ledger.core.types import (
    Chunk,
    Claim,
    ClaimType,
    Critique,
    CritiqueIssue,
    Importance,
    Support,
)
from ledger.judge.support import SupportCheck
from ledger.text.sentences import parse_citations, split_sentences

if TYPE_CHECKING:
    from ingest.embedding import Embedder


class AnswerOutput(BaseModel):
    """Submit the answer (or the revised answer)."""

    answer: str = Field(
        min_length=1,
        description="The full answer. Every sentence that states a fact ends with [cite:<id>] anchors naming the "
        "evidence blocks that state it; parts the documents do not cover are said plainly, without guessing.",
    )


class IssueOutput(BaseModel):
    """One problem in the draft."""

    kind: Literal["uncited", "unknown_figure", "unsupported", "conflict", "hedge", "unanswered"] = Field(
        description="The kind of problem."
    )
    sentence: str = Field("", description="The draft sentence concerned, copied verbatim; empty for unanswered parts.")
    message: str = Field(description="What is wrong, in one sentence addressed to the writer.")


class CritiqueOutput(BaseModel):
    """Submit the review of the draft."""

    issues: list[IssueOutput] = Field(default_factory=list, description="Every problem found, each once.")
    summary: str = Field("", description="One or two sentences: the overall verdict on the draft.")


class ClaimOutput(BaseModel):
    """One sentence of the answer that is a claim."""

    sentence: int = Field(ge=1, description="The n of the <sentence n=...> block that is a claim.")
    type: ClaimType = Field(description="definition > numeric > policy > fact, in that order of precedence.")
    importance: Importance = Field(description="critical, material or minor.")


class ClaimsOutput(BaseModel):
    """Submit the claims of the answer and how completely it answers the question."""

    claims: list[ClaimOutput] = Field(default_factory=list, description="The sentences that are claims, in order.")
    completeness: float = Field(
        ge=0.0, le=1.0, description="How completely the answer addresses the question: 1.0 fully, 0.7 mostly, "
        "0.5 partially, 0.3 barely, 0 not at all."
    )
    gaps: list[str] = Field(default_factory=list, description="Parts of the question the answer does not cover.")


class PairOutput(BaseModel):
    """The support level of one numbered claim/evidence pair."""

    pair: int = Field(ge=1, description="The n of the <pair n=...>.")
    support: Support = Field(description="full, partial, none or contradicted.")
    quote: str = Field("", description="The deciding sentence(s), copied verbatim from that evidence block.")
    reason: str = Field("", description="One short sentence saying why.")


class SupportOutput(BaseModel):
    """Submit one support result for every pair."""

    results: list[PairOutput] = Field(description="Exactly one result per pair number.")


def _user(*blocks: str) -> list[dict[str, Any]]:
    """One user message of text blocks; the first is the documents block when there is one (the cache point)."""
    return [{"role": "user", "content": [{"type": "text", "text": b} for b in blocks]}]


def locate_quote(quote: str, text: str) -> tuple[str, int, int]:
    """The quote as it stands in the chunk text and its span; the nearest chunk sentence when it is not verbatim."""
    wanted = quote.strip().strip("\"“”'").strip()
    if not wanted:
        return "", 0, 0
    for candidate in (wanted, wanted.replace("&lt;", "<")):
        at = text.find(candidate)
        if at >= 0:
            return candidate, at, at + len(candidate)
    loose = re.search(r"\s+".join(re.escape(w) for w in wanted.replace("&lt;", "<").split()), text)
    if loose:
        return loose.group(0), loose.start(), loose.end()
    # Not verbatim: show a real sentence of the evidence rather than words the model put in its mouth.
    words = set(re.findall(r"\w+", wanted.lower()))
    overlaps = [(len(words & set(re.findall(r"\w+", s.lower()))), (s, a, b)) for s, a, b in split_sentences(text)]
    best = max(overlaps, key=lambda o: o[0], default=(0, ("", 0, 0)))
    return best[1] if best[0] else ("", 0, 0)


class _ClaudeRole:
    def __init__(self, client: ClaudeClient, settings: AnthropicSettings) -> None:
        self.client = client
        self.settings = settings


class ClaudeWriter(_ClaudeRole):
    """Drafts a cited answer from the evidence on the writer model."""

    def run(self, request: WriteRequest) -> Draft:
        """The draft answer; no evidence means the canned answer and no call."""
        if not request.evidence:
            return Draft(NO_EVIDENCE_ANSWER, answered=False, missing="no evidence was retrieved")
        messages = _user(
            prompts.evidence_block(request.evidence), prompts.tagged("question", request.question), prompts.WRITER_TASK
        )
        out = self.client.call_tool(
            "writer", self.settings.writer_model, prompts.WRITER_SYSTEM, messages, "submit_answer", AnswerOutput, True
        )
        return Draft(out.answer.strip())


class ClaudeReviser(_ClaudeRole):
    """Writes the next draft from the ledger and the instructions, on the writer model with the writer's prompt."""

    def run(self, request: RevisionRequest) -> Draft:
        """The revised answer."""
        messages = _user(
            prompts.evidence_block(request.evidence),
            "\n\n".join([
                prompts.tagged("question", request.question),
                prompts.tagged("draft", request.draft),
                prompts.ledger_report(request.ledger),
                prompts.critique_report(request.critique),
                prompts.instructions_block(request.decision.instructions),
            ]),
            prompts.REVISER_TASK,
        )
        out = self.client.call_tool(
            "reviser", self.settings.writer_model, prompts.WRITER_SYSTEM, messages, "submit_answer", AnswerOutput, True
        )
        return Draft(out.answer.strip())


class ClaudeSkeptic(_ClaudeRole):
    """Critiques a draft against the evidence on the judge model."""

    def run(self, request: CritiqueRequest) -> Critique:
        """The critique of the draft."""
        question, draft, evidence = request.question, request.draft, request.evidence
        if not draft.strip():
            return Critique(issues=[CritiqueIssue(kind="unanswered", message="The draft is empty.")])
        messages = _user(
            prompts.evidence_block(evidence),
            prompts.tagged("question", question) + "\n\n" + prompts.tagged("draft", draft),
            prompts.SKEPTIC_TASK,
        )
        out = self.client.call_tool(
            "skeptic", self.settings.judge_model, prompts.SKEPTIC_SYSTEM, messages, "submit_critique", CritiqueOutput,
            True,
        )
        issues = [CritiqueIssue(kind=i.kind, sentence=i.sentence, message=i.message) for i in out.issues]
        return Critique(issues=issues, summary=out.summary)


class ClaudeClaimExtractor(_ClaudeRole):
    """Claims (seed 004 §3) with completeness and gaps (seed 003), from ONE judge-model call."""

    def run(self, request: ExtractRequest) -> Extraction:
        """The claims of the answer and how completely it answers the question."""
        spans = split_sentences(request.answer)
        if not spans:
            question = request.question.strip()
            return Extraction([], 0.0, [question] if question else [])
        return self._call(request.question, spans)

    def _call(self, question: str, spans: list[tuple[str, int, int]]) -> Extraction:
        def check(out: ClaimsOutput) -> str | None:
            bad = sorted({c.sentence for c in out.claims if c.sentence > len(spans)})
            return f"sentence numbers {bad} do not exist (the answer has {len(spans)})" if bad else None

        sentences = prompts.numbered_sentences([s for s, _, _ in spans])
        messages = _user(prompts.tagged("question", question) + "\n\n" + sentences)
        out = self.client.call_tool(
            "claims", self.settings.judge_model, prompts.CLAIMS_SYSTEM, messages, "submit_claims", ClaimsOutput,
            check=check,
        )
        chosen: dict[int, ClaimOutput] = {}
        for item in out.claims:
            chosen.setdefault(item.sentence, item)  # claims are sentence-level: the first entry per sentence wins
        claims: list[Claim] = []
        for number, item in sorted(chosen.items()):
            sentence, start, end = spans[number - 1]
            text, cited = parse_citations(sentence)
            text = re.sub(r"\*\*|__|`", "", text).strip()
            if text:
                claims.append(Claim(
                    id=f"c{len(claims) + 1}", text=text, type=item.type, importance=item.importance, cited=cited,
                    span=(start, end),
                ))
        return Extraction(claims, out.completeness, [g.strip() for g in out.gaps if g.strip()])


class ClaudeSupportChecker(_ClaudeRole):
    """Support levels for every (claim, chunk) pair of a round in ONE judge-model call; pairs deduplicated."""

    name = "claude"

    def __init__(self, client: ClaudeClient, settings: AnthropicSettings, embedder: Embedder) -> None:
        super().__init__(client, settings)
        self.embedder = embedder  # gives each match its similarity (the verdict rules need one)

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """One check per pair, in order."""
        if not pairs:
            return []
        unique: list[tuple[str, Chunk]] = []
        index: dict[tuple[str, str], int] = {}
        order = []
        for claim, chunk in pairs:
            key = (claim, chunk.hash)
            if key not in index:
                index[key] = len(unique)
                unique.append((claim, chunk))
            order.append(index[key])
        # Sorted by hash so that the same chunks give the same documents block, round after round (cache hits).
        chunks = sorted({c.hash: c for _, c in unique}.values(), key=lambda c: c.hash)

        def check(out: SupportOutput) -> str | None:
            missing = sorted(set(range(1, len(unique) + 1)) - {r.pair for r in out.results})
            if missing:
                return f"no result for pairs {missing}; return one result for each of the {len(unique)} pairs"
            return None

        messages = _user(
            prompts.evidence_block(chunks),
            prompts.pairs_block([(claim, chunk.hash) for claim, chunk in unique]),
            prompts.SUPPORT_TASK,
        )
        out = self.client.call_tool(
            "support", self.settings.judge_model, prompts.SUPPORT_SYSTEM, messages, "submit_support", SupportOutput,
            True, check=check,
        )
        by_pair: dict[int, PairOutput] = {}
        for result in out.results:
            by_pair.setdefault(result.pair, result)
        located = [locate_quote(by_pair[i + 1].quote, chunk.text) for i, (_, chunk) in enumerate(unique)]
        sims = self._similarities([(c, q[0] or chunk.text) for (c, chunk), q in zip(unique, located, strict=True)])
        checks = [
            SupportCheck(by_pair[i + 1].support, quote, sim, by_pair[i + 1].reason, "claude", start, end)
            for i, ((quote, start, end), sim) in enumerate(zip(located, sims, strict=True))
        ]
        return [checks[i] for i in order]

    def _similarities(self, pairs: list[tuple[str, str]]) -> list[float]:
        """Cosine similarity of each claim and its quote (the chunk when no quote), in one encode call."""
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        vectors = dict(zip(texts, self.embedder.encode(texts), strict=True))
        return [float(vectors[a] @ vectors[b]) for a, b in pairs]


def claude_roles(client: ClaudeClient, settings: AnthropicSettings) -> Roles:
    """The four roles of the anthropic backend on one client."""
    return Roles(
        writer=ClaudeWriter(client, settings),
        skeptic=ClaudeSkeptic(client, settings),
        extractor=ClaudeClaimExtractor(client, settings),
        reviser=ClaudeReviser(client, settings),
    )
