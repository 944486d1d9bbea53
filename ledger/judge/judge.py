"""The judge: split an answer into claims, match each to evidence, check support, give verdicts."""

from __future__ import annotations

from datetime import date

from ingest.retrieval import Retriever
from ingest.vectorstore import VectorStore
from ledger.core.settings import JudgeSettings
from ledger.core.types import Chunk, Claim, EvidenceLedger, EvidenceMatch, MatchType
from ledger.judge.claims import extract_claims
from ledger.judge.entries import decide_entry
from ledger.judge.metrics import summarize
from ledger.judge.support import SupportCheck, SupportChecker


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
    )


class Judge:
    """Judges answers against one workspace: claims -> evidence matches -> support checks -> verdicts -> ledger."""

    def __init__(
        self,
        store: VectorStore,
        retriever: Retriever,
        checker: SupportChecker,
        settings: JudgeSettings,
        today: date,
    ) -> None:
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
        cited_chunks = self.store.get_by_hashes([h for c in claims for h in c.cited])
        searched = self.retriever.search_many([c.text for c in claims], judge.search_k)

        plan: list[tuple[Claim, list[Chunk], list[Chunk], list[str]]] = []
        pairs: list[tuple[str, Chunk]] = []
        for claim, hits in zip(claims, searched, strict=True):
            cited = [cited_chunks[h] for h in claim.cited if h in cited_chunks]
            phantom = [h for h in claim.cited if h not in cited_chunks]
            cited_hashes = {c.hash for c in cited}
            candidates = [
                hit.chunk
                for hit in hits
                if hit.chunk.hash not in cited_hashes and hit.similarity >= judge.candidate_similarity
            ]
            plan.append((claim, cited, candidates, phantom))
            pairs.extend((claim.text, chunk) for chunk in cited + candidates)

        checks = iter(self.checker.check(pairs))
        entries = []
        for claim, cited, candidates, phantom in plan:
            cited_matches = [to_match(chunk, next(checks), "cited") for chunk in cited]
            semantic_matches = [to_match(chunk, next(checks), "semantic") for chunk in candidates]
            entries.append(decide_entry(claim, cited_matches, semantic_matches, phantom, self.today, judge))
        return EvidenceLedger(entries=entries, summary=summarize(entries))
