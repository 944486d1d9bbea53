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

    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
        """Chunks relevant to a question: the k nearest that clear the relevance bar."""
        return [hit for hit in self.search_many([question], k)[0] if hit.similarity >= min_relevance]
