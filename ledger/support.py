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
from ledger.quantities import Agreement, QuantityMatch, compare_quantities, extract_quantities
from ledger.sentences import split_sentences
from ledger.settings import JudgeSettings
from ledger.terms import coverage, find_swaps, key_terms, polarity
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
    coverage: float  # share of the claim's key terms found in the quote (stemmed; swapped names left out)
    missing_terms: tuple[str, ...] = ()
    quantities: Agreement = Agreement()
    claim_negated: bool = False  # polarity of the negations that bear on the other side's terms
    quote_negated: bool = False
    negation_anchor: int = 0  # how many of the other side's terms the deciding negation covers
    swaps: tuple[tuple[str, str], ...] = ()  # (claim term, quote term): the same statement about another entity


@dataclass(frozen=True)
class Thresholds:
    """Cut-offs of the local rules; cosine values are for all-MiniLM-L6-v2."""

    on_topic_similarity: float = 0.55  # a flipped polarity or a swapped name counts only when on the same topic
    on_topic_coverage: float = 0.6
    conflict_similarity: float = 0.3  # figures are matched by their context; this only excludes the unrelated
    full_similarity: float = 0.72  # paraphrase level: with most key terms present, the quote states the claim
    full_coverage: float = 0.6
    exact_coverage_similarity: float = 0.6  # every key term present: a lower similarity still means full
    paraphrase_similarity: float = 0.8  # so close that different words are a paraphrase
    figure_similarity: float = 0.5  # every figure matched where the claim's words are: a lower similarity will do
    related_similarity: float = 0.5  # below this with little term overlap, the quote is about something else
    related_coverage: float = 0.5
    partial_similarity: float = 0.65
    partial_coverage: float = 0.7


DEFAULT_THRESHOLDS = Thresholds()


def features(claim: str, quote: str, similarity: float, polarity_text: str | None = None) -> SupportFeatures:
    """The rule features of a claim against a quote, given their embedding similarity.

    `polarity_text` is the part of the quote whose polarity counts (by default all of it): of two neighbouring
    sentences, a "not" in the one that is about something else must not flip the claim.
    """
    claim_terms, quote_terms = key_terms(claim), key_terms(quote)
    swaps = find_swaps(claim, quote)
    ours = {t for a, _ in swaps for t in key_terms(a)}
    theirs = {t for _, b in swaps for t in key_terms(b)}
    share, missing = coverage(tuple(t for t in claim_terms if t not in ours), quote_terms)
    agreement = compare_quantities(extract_quantities(claim), extract_quantities(quote))
    # A rival figure that the evidence gives for another entity says nothing about the claim's entity.
    agreement = Agreement(tuple(
        QuantityMatch(m.claim, "absent") if m.status == "conflict" and m.evidence is not None
        and m.evidence.about & theirs and not m.evidence.about & ours else m
        for m in agreement.matches
    ))
    claim_negated, claim_anchor = polarity(claim, quote_terms)
    quote_negated, quote_anchor = polarity(quote if polarity_text is None else polarity_text, claim_terms)
    return SupportFeatures(
        similarity=float(similarity),
        coverage=share,
        missing_terms=missing,
        quantities=agreement,
        claim_negated=claim_negated,
        quote_negated=quote_negated,
        negation_anchor=max(claim_anchor, quote_anchor),
        swaps=swaps,
    )


def _decide(f: SupportFeatures, t: Thresholds) -> tuple[Support, str, str]:
    """(support, rule, reason): the rules of `decide_support`."""
    on_topic = f.similarity >= t.on_topic_similarity and f.coverage >= t.on_topic_coverage
    q = f.quantities
    flipped = f.claim_negated != f.quote_negated
    if q.conflicts and f.similarity >= t.conflict_similarity:
        m = q.conflicts[0]
        rule = "date" if m.claim.kind in ("date", "weekday") else "quantity"
        evidence_text = m.evidence.text if m.evidence else "another figure"
        return "contradicted", rule, f"evidence says {evidence_text}, claim says {m.claim.text}"
    if flipped and not q.absent and (on_topic or (f.negation_anchor >= 2 and f.similarity >= t.related_similarity)):
        said = "negates it" if f.quote_negated else "states it without the negation"
        return "contradicted", "negation", f"same statement, opposite polarity: the evidence {said}"
    if f.swaps and on_topic and not q.absent:
        ours, theirs = f.swaps[0]
        return "contradicted", "swap", f"evidence says {theirs}, claim says {ours}"
    if f.similarity < t.related_similarity and f.coverage < t.related_coverage:
        return "none", "none", f"the evidence does not address the claim (similarity {f.similarity:.2f})"
    clean = not (q.conflicts or f.swaps or q.absent or flipped)
    figures_anchored = bool(q.matched) and all(m.anchor >= 2 for m in q.matched)
    if clean and (
        (f.similarity >= t.full_similarity and f.coverage >= t.full_coverage)
        or (f.similarity >= t.exact_coverage_similarity and f.coverage >= 1.0)
        or f.similarity >= t.paraphrase_similarity
        or (figures_anchored and f.similarity >= t.figure_similarity and f.coverage >= t.related_coverage)
    ):
        figures = f"; figures agree ({', '.join(m.claim.text for m in q.matched)})" if q.matched else ""
        return "full", "full", f"the quote states the claim (similarity {f.similarity:.2f}){figures}"
    if (
        f.similarity >= t.partial_similarity and f.coverage >= t.partial_coverage
        and not (q.conflicts or f.swaps or flipped) and (q.matched or not q.absent)
    ):
        gaps = [f"'{m.claim.text}'" for m in q.absent] + [f"'{w}'" for w in f.missing_terms]
        return "partial", "partial", "the quote supports part of the claim; not found: " + (", ".join(gaps) or "—")
    if q.absent and not q.matched:
        return "none", "none", f"the evidence does not give the claim's figure {q.absent[0].claim.text}"
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
        checks = []
        for i in order:
            cand = candidates[i]
            polarity_text = cand.polarity or self._closest_sentence(claim_terms, cand.text)
            support, rule, reason = _decide(features(claim, cand.text, sims[i], polarity_text), self.thresholds)
            checks.append((scores[i], SupportCheck(support, cand.text, float(sims[i]), reason, rule, cand.start,
                                                   cand.end)))
        # Full support and contradiction both decide; between them the quote closer to the claim wins. Partial or
        # none only when no quote decides.
        deciding = [(score, c) for score, c in checks if c.support in ("full", "contradicted")]
        if deciding:
            return max(deciding, key=lambda sc: sc[0])[1]
        return max(checks, key=lambda sc: (_PRIORITY[sc[1].support], sc[0]))[1]

    @staticmethod
    def _closest_sentence(claim_terms: tuple[str, ...], text: str) -> str:
        """The sentence of a multi-sentence quote that shares most key terms with the claim."""
        sentences = [s for s, _, _ in split_sentences(text)] or [text]
        return max(sentences, key=lambda s: coverage(claim_terms, key_terms(s))[0])
