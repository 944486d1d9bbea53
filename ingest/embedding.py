"""Sentence embeddings: all-MiniLM-L6-v2 loaded offline from its PyPI package, once per process.

Two backends make the vectors (EmbeddingSettings.backend): 'torch' runs the model as published (fp32), 'onnx-int8'
its int8 ONNX export (ingest.onnx_encoder). Their vectors are close but not equal, so a store records the
fingerprint of the backend that filled it and is never searched or extended with the other's vectors.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ingest.onnx_encoder import RECIPE, OnnxEncoder
from ingest.vector_cache import VectorCache, cache_file
from ledger.core.errors import ConfigError
from ledger.core.models import BUNDLED_MODEL, Tokenizer, load_sentence_transformer, load_tokenizer
from ledger.core.settings import EmbeddingSettings

STORE_KEY = "embedding_backend"  # the store's metadata key holding backend_fingerprint() of its vectors
LEGACY_BACKEND = "torch"  # stores written before the fingerprint existed were all embedded by torch

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


class Embedder:
    """Encodes texts to L2-normalised vectors; the model loads on first use and is shared per process."""

    def __init__(self, settings: EmbeddingSettings | None = None) -> None:
        self.settings = settings or EmbeddingSettings()
        self._onnx: OnnxEncoder | None = None

    @property
    def fingerprint(self) -> str:
        """Which model and backend make this embedder's vectors (see backend_fingerprint)."""
        return backend_fingerprint(self.settings)

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
        if self.settings.backend == "onnx-int8":
            if self._onnx is None:
                self._onnx = OnnxEncoder(self.settings.model, self.settings.cache_dir, self.settings.threads)
            return self._onnx.encode(texts, batch_size or self.settings.batch_size)
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
    embed each sentence once; bounded: the least recently used vectors go first. With `disk` (a directory) it
    also keeps them between runs, one file per backend (`ingest.vector_cache`): the next question or draft about
    the same documents reads its evidence sentences' vectors instead of embedding them again."""

    def __init__(self, inner: Embedder, max_items: int = 50_000, disk: Path | None = None) -> None:
        super().__init__(inner.settings)
        self.inner = inner
        self.max_items = max_items
        self.disk = disk
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._stored = VectorCache(cache_file(disk, inner.fingerprint)) if disk is not None else None

    @property
    def tokenizer(self) -> Tokenizer:
        """The inner embedder's tokenizer."""
        return self.inner.tokenizer

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Embeddings of `texts`; only the ones not seen before reach the model, in one call."""
        if not texts:
            return self.inner.encode([], batch_size)
        todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if todo and self._stored is not None:
            found = self._stored.get_many(todo)
            self._vectors.update(found)
            todo = [t for t in todo if t not in found]
        if todo:
            made = dict(zip(todo, self.inner.encode(todo, batch_size), strict=True))
            self._vectors.update(made)
            if self._stored is not None:
                self._stored.put_many(made)
        rows = []
        for text in texts:
            self._vectors.move_to_end(text)
            rows.append(self._vectors[text])
        while len(self._vectors) > self.max_items:
            self._vectors.popitem(last=False)
        return np.asarray(rows, dtype=np.float32)


def backend_fingerprint(settings: EmbeddingSettings, backend: str | None = None) -> str:
    """'<backend>:<model>' naming what makes the vectors, e.g. 'onnx-int8.v2:all-MiniLM-L6-v2'. Pure.

    The onnx backend is named by its export recipe, so a changed recipe counts as another backend.
    """
    backend = backend or settings.backend
    model = BUNDLED_MODEL if settings.model == f"sentence-transformers/{BUNDLED_MODEL}" else settings.model
    return f"{RECIPE if backend == 'onnx-int8' else backend}:{model}"


def stored_fingerprint(recorded: str | None, count: int, settings: EmbeddingSettings) -> str | None:
    """The fingerprint of a store's vectors: the recorded one; for a store filled before fingerprints were
    recorded, torch's with the configured model; None for an empty store (any backend may fill it). Pure."""
    if recorded:
        return recorded
    return backend_fingerprint(settings, LEGACY_BACKEND) if count > 0 else None


def check_store_backend(recorded: str | None, count: int, settings: EmbeddingSettings, workspace: str) -> None:
    """Raises ConfigError when the workspace's `count` vectors were made by another backend or model than
    `settings` would use: the two are never mixed in one store nor compared in one search. Pure."""
    stored = stored_fingerprint(recorded, count, settings)
    current = backend_fingerprint(settings)
    if stored is None or stored == current:
        return
    ways = "re-embed it (evidence ingest of its folders again)"
    for backend in ("torch", "onnx-int8"):
        if backend != settings.backend and backend_fingerprint(settings, backend) == stored:
            ways += f", or set EVIDENCE_EMBEDDING__BACKEND={backend} to use it as it is"
    raise ConfigError(
        f"workspace {workspace!r} holds {count} vectors made by {stored}, but the embedder is now {current}: "
        f"the two are never mixed; {ways}"
    )


def settings_for_store(recorded: str | None, count: int, settings: EmbeddingSettings) -> EmbeddingSettings | None:
    """Embedding settings whose vectors match the store's (so its queries can follow it, never mixing vectors):
    `settings` itself when they already do or the store is empty, the same with the other backend when that one
    made the store, else None (another model or an older export recipe: only re-embedding helps). Pure."""
    stored = stored_fingerprint(recorded, count, settings)
    if stored is None or stored == backend_fingerprint(settings):
        return settings
    for backend in ("torch", "onnx-int8"):
        if backend_fingerprint(settings, backend) == stored:
            return settings.model_copy(update={"backend": backend})
    return None
