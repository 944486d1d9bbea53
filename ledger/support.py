"""Support checks: how far one evidence chunk supports one claim (seed 004 §4.3), and the quote that decides it.

The local checker is offline and deterministic. It finds the chunk sentence(s) most like the claim with the
bundled embedding model, then compares claim and quote on figures, dates, polarity and key terms. The decision
is the pure function `decide_support`, so every rule is testable without a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ingest.types import Chunk
from ledger.quantities import Agreement, compare_quantities, extract_quantities
from ledger.sentences import split_sentences
from ledger.settings import JudgeSettings
from ledger.terms import coverage, find_swaps, is_negated, key_terms
from ledger.types import Support

if TYPE_CHECKING:
    from ingest.embedding import Embedder

_PRIORITY: dict[Support, int] = {"full": 3, "contradicted": 2, "partial": 1, "none": 0}


@dataclass(frozen=True)
class SupportCheck:
    """The support level of one chunk for one claim, with the deciding quote and why."""

    support: Support
    quote: str
    similarity: float
    reason: str
    rule: str = ""  # which rule decided: full, partial, none, quantity, date, negation, swap (for combining checkers)
    quote_start: int = 0  # the quote's character span in the chunk text
    quote_end: int = 0


class SupportChecker(Protocol):
    """Decides support for every (claim, chunk) pair of one judging round in one call."""

    name: str

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """One check per pair, in order."""
        ...


@dataclass(frozen=True)
class SupportFeatures:
    """What the rules look at when comparing a claim with a candidate quote."""

    similarity: float  # cosine similarity of claim and quote embeddings
    coverage: float  # share of the claim's key terms found in the quote (stemmed)
    missing_terms: tuple[str, ...] = ()
    quantities: Agreement = Agreement()
    claim_negated: bool = False
    quote_negated: bool = False
    swaps: tuple[tuple[str, str], ...] = ()  # (claim term, quote term): same statement about another entity


@dataclass(frozen=True)
class Thresholds:
    """Cut-offs of the local rules; cosine values are for all-MiniLM-L6-v2."""

    full_similarity: float = 0.72  # paraphrase level: with the key terms present, the quote states the claim
    full_coverage: float = 0.6
    exact_coverage_similarity: float = 0.6  # every key term present: a lower similarity still means full
    related_similarity: float = 0.5  # below this with little term overlap, the quote is about something else
    related_coverage: float = 0.5
    contradiction_similarity: float = 0.55  # a conflicting figure or a flipped polarity counts only on this topic
    contradiction_coverage: float = 0.6
    partial_similarity: float = 0.6
    partial_coverage: float = 0.5


DEFAULT_THRESHOLDS = Thresholds()


def features(claim: str, quote: str, similarity: float, polarity_text: str | None = None) -> SupportFeatures:
    """The rule features of a claim against a quote, given their embedding similarity.

    `polarity_text` is the part of the quote whose polarity counts (by default all of it): of two neighbouring
    sentences, a "not" in the one that is about something else must not flip the claim.
    """
    claim_terms = key_terms(claim)
    swaps = find_swaps(claim, quote)
    swapped = {a.lower() for a, _ in swaps}
    share, missing = coverage(tuple(t for t in claim_terms if t not in swapped), key_terms(quote))
    return SupportFeatures(
        similarity=float(similarity),
        coverage=share,
        missing_terms=missing,
        quantities=compare_quantities(extract_quantities(claim), extract_quantities(quote)),
        claim_negated=is_negated(claim),
        quote_negated=is_negated(quote if polarity_text is None else polarity_text),
        swaps=swaps,
    )


def _decide(f: SupportFeatures, t: Thresholds) -> tuple[Support, str, str]:
    """(support, rule, reason): the rules of `decide_support`."""
    on_topic = f.similarity >= t.contradiction_similarity and f.coverage >= t.contradiction_coverage
    conflicts = f.quantities.conflicts
    if conflicts and on_topic:
        m = conflicts[0]
        rule = "date" if m.claim.kind in ("date", "weekday") else "quantity"
        evidence_text = m.evidence.text if m.evidence else "another figure"
        return "contradicted", rule, f"evidence says {evidence_text}, claim says {m.claim.text}"
    if f.claim_negated != f.quote_negated and on_topic:
        said = "negates it" if f.quote_negated else "states it without the negation"
        return "contradicted", "negation", f"same statement, opposite polarity: the evidence {said}"
    if f.swaps and on_topic and not f.quantities.absent:
        ours, theirs = f.swaps[0]
        return "contradicted", "swap", f"evidence says {theirs}, claim says {ours}"
    related = f.similarity >= t.related_similarity or f.coverage >= t.related_coverage
    if not related:
        return "none", "none", f"the evidence does not address the claim (similarity {f.similarity:.2f})"
    clean = not (conflicts or f.swaps or f.quantities.absent) and f.claim_negated == f.quote_negated
    if clean and (
        (f.similarity >= t.full_similarity and f.coverage >= t.full_coverage)
        or (f.similarity >= t.exact_coverage_similarity and f.coverage >= 1.0)
    ):
        matched = f.quantities.matched
        figures = f"; figures agree ({', '.join(m.claim.text for m in matched)})" if matched else ""
        return "full", "full", f"the quote states the claim (similarity {f.similarity:.2f}){figures}"
    if f.similarity >= t.partial_similarity and f.coverage >= t.partial_coverage and not (conflicts or f.swaps):
        gaps = [f"'{m.claim.text}'" for m in f.quantities.absent] + [f"'{w}'" for w in f.missing_terms]
        if f.claim_negated != f.quote_negated:
            gaps.append("the polarity")
        return "partial", "partial", "the quote supports part of the claim; not found: " + (", ".join(gaps) or "—")
    return "none", "none", f"related evidence that does not state the claim (similarity {f.similarity:.2f})"


def decide_support(f: SupportFeatures, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> tuple[Support, str]:
    """Support level and a short human reason, from the features. Pure.

    A different figure for the same quantity, the opposite polarity or another entity in the same statement
    contradicts; a paraphrase with the key terms and figures present supports fully; a quote that has part of
    the claim supports partially; anything else does not support.
    """
    support, _, reason = _decide(f, thresholds)
    return support, reason


@dataclass(frozen=True)
class _Candidate:
    """A possible quote: one sentence, two neighbours, or a heading (or lead-in line) with a sentence under it."""

    text: str
    start: int
    end: int
    sentences: int
    polarity: str | None  # the text whose polarity counts; None: the member sentence closest to the claim


def _is_heading(sentence: str) -> bool:
    """Headings and lead-in lines give the sentences under them their context ("Items never reimbursed:")."""
    stripped = sentence.strip().strip("*_").strip()
    return sentence.startswith("#") or stripped.endswith(":") or (
        not stripped.endswith((".", "!", "?")) and len(stripped.split()) <= 8
    )


class LocalSupportChecker:
    """Offline support checker: embedding similarity plus figure, date, negation and key-term agreement."""

    name = "local"
    top_candidates = 4  # quotes examined per pair: the most similar one may be a heading or a neighbour
    max_cache = 50_000

    def __init__(
        self,
        embedder: Embedder | None = None,
        settings: JudgeSettings | None = None,
        thresholds: Thresholds | None = None,
    ) -> None:
        if embedder is None:
            from ingest.embedding import Embedder

            embedder = Embedder()
        self.embedder = embedder
        self.settings = settings or JudgeSettings()
        self.thresholds = thresholds or DEFAULT_THRESHOLDS
        self._vectors: dict[str, np.ndarray] = {}
        self._candidates: dict[str, list[_Candidate]] = {}

    def candidates(self, text: str) -> list[_Candidate]:
        """Sentences of a chunk and each pair of neighbouring sentences (a claim may span two)."""
        cached = self._candidates.get(text)
        if cached is not None:
            return cached
        spans = split_sentences(text) or ([(text.strip(), 0, len(text))] if text.strip() else [])
        out = [_Candidate(s, a, b, 1, s) for s, a, b in spans]
        heading: tuple[str, int, int] | None = None
        for i, (sentence, start, end) in enumerate(spans):
            if i > 0:
                lead = _is_heading(spans[i - 1][0])
                out.append(_Candidate(text[spans[i - 1][1]:end], spans[i - 1][1], end, 2, None if not lead else
                                      text[spans[i - 1][1]:end]))
                if heading is not None and heading[2] < spans[i - 1][1]:  # a heading further up: quote both
                    joined = f"{heading[0]} … {sentence}"
                    out.append(_Candidate(joined, heading[1], end, 2, joined))
            if _is_heading(sentence):
                heading = (sentence, start, end)
        if len(self._candidates) > self.max_cache // 10:
            self._candidates.clear()
        self._candidates[text] = out
        return out

    def _embed(self, texts: list[str]) -> None:
        """Embed the texts not seen before, all in one encode call, and remember them."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if not todo:
            return
        if len(self._vectors) + len(todo) > self.max_cache:
            self._vectors.clear()  # a crude bound: a long-running UI process must not grow without limit
        for text, vector in zip(todo, self.embedder.encode(todo), strict=True):
            self._vectors[text] = vector

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """One check per (claim, chunk) pair; everything the batch needs is embedded in one call."""
        per_chunk = {chunk.text: self.candidates(chunk.text) for _, chunk in pairs}
        self._embed([claim for claim, _ in pairs] + [c.text for cands in per_chunk.values() for c in cands])
        return [self._check_one(claim, per_chunk[chunk.text]) for claim, chunk in pairs]

    def _check_one(self, claim: str, candidates: list[_Candidate]) -> SupportCheck:
        if not candidates:
            return SupportCheck("none", "", 0.0, "the evidence is empty", "none")
        claim_vec = self._vectors[claim]
        sims = np.array([float(self._vectors[c.text] @ claim_vec) for c in candidates])
        claim_terms = key_terms(claim)
        # Rank by similarity, nudged by term overlap; a sentence pair must beat its parts to be quoted.
        scores = [
            s + 0.2 * coverage(claim_terms, key_terms(c.text))[0] - 0.03 * (c.sentences - 1)
            for s, c in zip(sims, candidates, strict=True)
        ]
        order = sorted(range(len(candidates)), key=lambda i: -scores[i])[: self.top_candidates]
        best: tuple[int, int, SupportCheck] | None = None
        for rank, i in enumerate(order):
            cand = candidates[i]
            polarity = cand.polarity or self._closest_sentence(claim_terms, cand.text)
            support, rule, reason = _decide(features(claim, cand.text, sims[i], polarity), self.thresholds)
            check = SupportCheck(support, cand.text, float(sims[i]), reason, rule, cand.start, cand.end)
            key = (_PRIORITY[support], -rank)
            if best is None or key > best[:2]:
                best = (*key, check)
        assert best is not None
        return best[2]

    @staticmethod
    def _closest_sentence(claim_terms: tuple[str, ...], text: str) -> str:
        """The sentence of a multi-sentence quote that shares most key terms with the claim."""
        sentences = [s for s, _, _ in split_sentences(text)] or [text]
        return max(sentences, key=lambda s: coverage(claim_terms, key_terms(s))[0])
