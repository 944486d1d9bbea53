"""The judge: split an answer into claims, match each to evidence, check support, give verdicts."""

from __future__ import annotations

from datetime import date

from ingest.retrieval import Retriever
from ingest.vectorstore import VectorStore
from ledger.core.settings import JudgeSettings
from ledger.core.types import Chunk, Claim, EvidenceLedger, EvidenceMatch, MatchType
from ledger.judge.calibration import Platt
from ledger.judge.candidates import LIKELY_SENTENCES, claim_names, keyword_terms, rank_candidates
from ledger.judge.claims import extract_claims
from ledger.judge.entries import calibrated, decide_entry
from ledger.judge.metrics import summarize
from ledger.judge.support import SupportCheck, SupportChecker, likely_chunk_sentences
from ledger.text.injection import has_instructions


def to_match(chunk: Chunk, check: SupportCheck, match_type: MatchType) -> EvidenceMatch:
    """An evidence match from a chunk and its support check."""
    return EvidenceMatch(
        chunk_hash=chunk.hash,
        document=chunk.title or chunk.path,
        path=chunk.path,
        doc_date=chunk.doc_date,
        similarity=round(float(check.similarity), 4),
        support=check.support,
        quote=check.quote,
        match_type=match_type,
        reason=check.reason,
        entailment=None if check.entailment is None else round(float(check.entailment), 4),
    )


class Judge:
    """Judges answers against one workspace: claims -> evidence matches -> support checks -> verdicts -> ledger."""

    sentences_per_chunk: int | None = LIKELY_SENTENCES  # sentences embedded per claim and chunk; None: all

    def __init__(
        self,
        store: VectorStore,
        retriever: Retriever,
        checker: SupportChecker,
        settings: JudgeSettings,
        today: date,
        calibration: Platt | None = None,
    ) -> None:
        self.calibration = calibration  # the workspace's Platt scaling, when `evidence calibrate` fitted one
        self.store = store
        self.retriever = retriever
        self.checker = checker
        self.settings = settings
        self.today = today

    def run(self, question: str, answer: str) -> EvidenceLedger:
        """The evidence ledger of `answer`, its claims split by the rules of seed 004 §3."""
        return self.judge_claims(extract_claims(answer, question))

    def judge_claims(self, claims: list[Claim], settings: JudgeSettings | None = None) -> EvidenceLedger:
        """Match, check and decide every claim; all support checks of the round go in one batch."""
        if not claims:
            return EvidenceLedger(entries=[], summary=summarize([]))
        judge = settings or self.settings
        fetched = self.store.get_by_hashes([h for c in claims for h in c.cited])
        tainted = {c.document_id for c in fetched.values() if has_instructions(c.text)}
        cited_chunks = {h: c for h, c in fetched.items() if c.document_id not in tainted}
        candidates_of = self._candidates([c.text for c in claims], judge)

        plan: list[tuple[Claim, list[Chunk], list[Chunk], list[str]]] = []
        pairs: list[tuple[str, Chunk]] = []
        for claim, found in zip(claims, candidates_of, strict=True):
            cited = [cited_chunks[h] for h in claim.cited if h in cited_chunks]
            phantom = [h for h in claim.cited if h not in cited_chunks]
            cited_hashes = {c.hash for c in cited}
            candidates = [chunk for chunk in found if chunk.hash not in cited_hashes]
            plan.append((claim, cited, candidates, phantom))
            pairs.extend((claim.text, chunk) for chunk in cited + candidates)

        checks = iter(self.checker.check(pairs))
        entries = []
        for claim, cited, candidates, phantom in plan:
            cited_matches = [to_match(chunk, next(checks), "cited") for chunk in cited]
            semantic_matches = [to_match(chunk, next(checks), "semantic") for chunk in candidates]
            entry = decide_entry(claim, cited_matches, semantic_matches, phantom, self.today, judge)
            entries.append(calibrated(entry, self.calibration))
        return EvidenceLedger(entries=entries, summary=summarize(entries))

    def _candidates(self, texts: list[str], judge: JudgeSettings) -> list[list[Chunk]]:
        """Per claim: the nearest chunks and those sharing a distinctive word, kept by their best sentence."""
        if self.retriever.keywords is not None:  # the workspace's keyword index: a claim's rare words rank its chunk
            nearest, keyword = self.retriever.nearest_and_indexed(texts, judge.search_k, judge.keyword_k)
        else:
            nearest = self.retriever.search_many(texts, judge.search_k)
            keyword = [[hit.chunk for hit in hits] for hits in
                       self.retriever.keyword_many(texts, [keyword_terms(t) for t in texts], judge.keyword_k)]
        dense = [[hit.chunk for hit in hits] for hits in nearest]
        pooled = [list({c.hash: c for c in a + b}.values()) for a, b in zip(dense, keyword, strict=True)]
        # A document that addresses a model is no source (ledger.text.injection): none of its chunks is a candidate.
        tainted = {c.document_id for chunks in pooled for c in chunks if has_instructions(c.text)}
        pooled = [[c for c in chunks if c.document_id not in tainted] for chunks in pooled]
        # Per claim and chunk only its likeliest sentences are embedded (one encoder pass each; cached for the
        # support checker, which reads the same ones): every sentence of every pooled chunk was most of the time.
        likely = [
            {c.hash: likely_chunk_sentences(text, c.text, self.sentences_per_chunk) for c in chunks}
            for text, chunks in zip(texts, pooled, strict=True)
        ]
        sentences = list(dict.fromkeys([s for per_chunk in likely for found in per_chunk.values() for s in found]
                                       + [c.section for chunks in pooled for c in chunks if c.section]))
        encoded = self.retriever.embedder.encode(texts + sentences)  # one call; cached for the support checker
        vectors = dict(zip(sentences, encoded[len(texts):], strict=True))
        return [
            [chunk for chunk, _ in rank_candidates(encoded[i], chunks, vectors, judge.candidate_similarity,
                                                   judge.max_candidates, likely[i], claim_names(texts[i]))]
            for i, chunks in enumerate(pooled)
        ]

