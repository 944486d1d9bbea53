"""Retrieval over a workspace: the question's evidence for the writer, candidate chunks for the judge."""

from __future__ import annotations

from ingest.embedding import Embedder
from ingest.vectorstore import ScoredChunk, VectorStore


class Retriever:
    """Embeds queries (in one batch) and searches the workspace's Chroma collection."""

    def __init__(self, store: VectorStore, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder

    def search_many(self, texts: list[str], k: int) -> list[list[ScoredChunk]]:
        """The k nearest chunks of each text, most similar first; all texts embedded in one call."""
        if not texts:
            return []
        return [self.store.search(vector, k) for vector in self.embedder.encode(texts)]

    def keyword_many(self, texts: list[str], words: list[list[list[str]]], k: int) -> list[list[ScoredChunk]]:
        """For each text, up to k chunks containing its words: those with all of them first, then any of them,
        each group nearest first. `words[i]` lists the words of text i, each as its possible spellings."""
        if not texts:
            return []
        found: list[list[ScoredChunk]] = []
        for vector, own in zip(self.embedder.encode(texts), words, strict=True):
            if not own:
                found.append([])
                continue
            hits = self.store.search(vector, k, words=own, match_all=True) if len(own) > 1 else []
            hits += self.store.search(vector, k, words=own)
            found.append(list({h.chunk.hash: h for h in hits}.values())[:k])
        return found

    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
        """Chunks relevant to a question: the k nearest that clear the relevance bar."""
        return [hit for hit in self.search_many([question], k)[0] if hit.similarity >= min_relevance]
