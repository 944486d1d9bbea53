"""Sentence vectors kept between runs: the next run reads them instead of embedding again, and a broken cache
file costs time, never a run."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from ingest.embedding import CachedEmbedder
from ingest.vector_cache import VectorCache, cache_file
from tests.fakes import HashEmbedder

TEXTS = ["The ferry leaves at seven.", "Tickets cost £4.", "The ferry leaves at seven.", "Dogs travel free."]


def test_a_later_run_reads_the_vectors_instead_of_embedding_them(tmp_path: Path) -> None:
    first = HashEmbedder()
    before = CachedEmbedder(first, disk=tmp_path).encode(TEXTS)
    assert first.calls == [3]  # three distinct texts embedded once
    second = HashEmbedder()  # a new process: an empty memory, the same home
    after = CachedEmbedder(second, disk=tmp_path).encode([*TEXTS, "Bikes need a ticket."])
    assert second.calls == [1]  # only the new text reaches the model
    assert np.array_equal(after[:4], before)  # and the others are exactly what the model gave


def test_without_a_disk_nothing_is_kept(tmp_path: Path) -> None:
    CachedEmbedder(HashEmbedder()).encode(TEXTS)
    again = HashEmbedder()
    CachedEmbedder(again).encode(TEXTS)
    assert again.calls == [3]


def test_a_damaged_cache_file_costs_time_not_the_run(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = cache_file(tmp_path, HashEmbedder().fingerprint)
    path.write_bytes(b"this is not a database" * 100)
    inner = HashEmbedder()
    with caplog.at_level(logging.WARNING, logger="ingest.vector_cache"):
        vectors = CachedEmbedder(inner, disk=tmp_path).encode(TEXTS)
    assert vectors.shape == (4, HashEmbedder.dim) and inner.calls == [3]
    assert "vector cache" in caplog.text and "is off for this run" in caplog.text


def test_the_oldest_vectors_go_first_beyond_the_bound(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite", max_rows=10)
    for i in range(12):
        cache.put_many({f"text {i}": np.full(4, i, dtype=np.float32)})
    kept = cache.get_many(f"text {i}" for i in range(12))
    assert len(kept) <= 10 and "text 11" in kept and "text 0" not in kept
    assert np.array_equal(kept["text 11"], np.full(4, 11, dtype=np.float32))


def test_rewriting_the_same_texts_evicts_nothing(tmp_path: Path) -> None:
    # A rewritten text takes a new rowid, so the rowids spread past the bound while the rows stay few.
    cache = VectorCache(tmp_path / "v.sqlite", max_rows=10)
    for i in range(25):
        cache.put_many({"again": np.full(4, i, dtype=np.float32), f"text {i % 3}": np.ones(4, dtype=np.float32)})
    kept = cache.get_many(["again", "text 0", "text 1", "text 2"])
    assert len(kept) == 4 and np.array_equal(kept["again"], np.full(4, 24, dtype=np.float32))


def test_backends_keep_separate_files(tmp_path: Path) -> None:
    assert cache_file(tmp_path, "onnx-int8.v2:all-MiniLM-L6-v2") != cache_file(tmp_path, "torch:all-MiniLM-L6-v2")
    assert cache_file(tmp_path, "torch:../../etc").parent == tmp_path  # a fingerprint never leaves the folder
