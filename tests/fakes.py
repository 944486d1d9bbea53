"""Test doubles: a fast deterministic embedder (real tokenizer, hashed vectors)."""

from __future__ import annotations

import hashlib

import numpy as np

from ingest.embedding import Embedder


class HashEmbedder(Embedder):
    """Embeds text as a unit vector seeded by its hash: deterministic, instant, and counts its calls."""

    dim = 384

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        self.calls.append(len(texts))
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vec = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            rows.append(vec / np.linalg.norm(vec))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)
