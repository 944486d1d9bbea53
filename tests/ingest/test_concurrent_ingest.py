"""Ingests of one workspace take turns; lost vectors are rebuilt; workspace names never share a collection."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ingest import vectorstore
from ingest.consistency import check_legacy_collections
from ingest.hashing import vector_id
from ingest.pipeline import Ingestor
from ingest.types import IngestReport
from ingest.vectorstore import legacy_collections
from ledger.core.settings import EmbeddingSettings, Settings
from ledger.core.types import Chunk
from ledger.core.workspaces import legacy_collection_name
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder


def _corpus(root: Path, n: int, topic: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"{topic}_{i}.md").write_text(f"# {topic} {i}\n\nThe {topic} rule {i} needs {i + 2} signatures.\n")


def _agree(ingestor: Ingestor) -> None:
    referenced = {vector_id(d.id, h) for d in ingestor.registry.all() for h in d.chunk_hashes}
    assert ingestor.store.ids() == referenced


def _texts(ingestor: Ingestor) -> str:
    return " ".join(c.text for c in ingestor.store.all_chunks())


def test_a_second_ingest_waits_and_never_sweeps_vectors_still_in_flight(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path / "big", 3, "travel")
    _corpus(tmp_path / "small", 1, "parking")
    big = build_ingestor(settings, embedder=HashEmbedder())
    small = build_ingestor(settings, embedder=HashEmbedder())
    written, small_waits, small_done = threading.Event(), threading.Event(), threading.Event()
    real_upsert = big.store.upsert

    def upsert_then_linger(chunks: list[Chunk], embeddings: np.ndarray) -> None:
        real_upsert(chunks, embeddings)
        written.set()  # vectors are in Chroma, the registry row is not written yet: the window of the old sweep
        deadline = time.monotonic() + 10
        while not (small_waits.is_set() or small_done.is_set()) and time.monotonic() < deadline:
            time.sleep(0.02)

    monkeypatch.setattr(big.store, "upsert", upsert_then_linger)
    reports: dict[str, IngestReport] = {}
    worker = threading.Thread(target=lambda: reports.update(big=big.run([tmp_path / "big"])))
    worker.start()
    assert written.wait(30)
    messages: list[str] = []

    def waiting(message: str) -> None:
        messages.append(message)
        small_waits.set()

    reports["small"] = small.run([tmp_path / "small"], on_wait=waiting)
    small_done.set()
    worker.join(30)

    assert (reports["big"].documents_added, reports["small"].documents_added) == (3, 1)
    assert big.missing_vectors() == {}  # every document of both runs can be found
    _agree(big)
    assert messages == [f"waiting for another ingest of workspace 'default' to finish (process {os.getpid()})…"]


def test_lost_vectors_are_rebuilt_and_reported(settings: Settings, tmp_path: Path) -> None:
    _corpus(tmp_path / "docs", 4, "policy")
    ingestor = build_ingestor(settings, embedder=HashEmbedder())
    ingestor.run([tmp_path / "docs"])
    ingestor.store.delete(sorted(ingestor.store.ids()))  # the vector store is lost; the registry is not

    report = ingestor.run([tmp_path / "docs"])
    assert (report.documents_rebuilt, report.documents_unchanged, report.chunks_added) == (4, 0, 4)
    _agree(ingestor)
    again = ingestor.run([tmp_path / "docs"])
    assert (again.documents_rebuilt, again.documents_unchanged) == (0, 4)


def test_one_document_with_missing_vectors_is_the_only_one_embedded_again(settings: Settings, tmp_path: Path) -> None:
    _corpus(tmp_path / "docs", 3, "policy")
    embedder = HashEmbedder()
    ingestor = build_ingestor(settings, embedder=embedder)
    ingestor.run([tmp_path / "docs"])
    victim = ingestor.registry.all()[1]
    ingestor.store.delete([vector_id(victim.id, h) for h in victim.chunk_hashes])
    embedder.calls.clear()

    report = ingestor.run([tmp_path / "docs"])
    assert (report.documents_rebuilt, report.documents_unchanged, embedder.calls) == (1, 2, [1])
    _agree(ingestor)


def test_workspaces_that_differ_only_in_punctuation_or_case_keep_their_own_documents(
    settings: Settings, tmp_path: Path
) -> None:
    _corpus(tmp_path / "a", 1, "parking")
    _corpus(tmp_path / "b", 1, "canteen")
    _corpus(tmp_path / "c", 1, "library")
    spaced = build_ingestor(settings, "legal team", embedder=HashEmbedder())
    underscored = build_ingestor(settings, "legal_team", embedder=HashEmbedder())
    capital = build_ingestor(settings, "Legal Team", embedder=HashEmbedder())
    spaced.run([tmp_path / "a"])
    underscored.run([tmp_path / "b"])  # its sweep used to delete the other workspace's vectors
    capital.run([tmp_path / "c"])

    assert "parking" in _texts(spaced) and "canteen" not in _texts(spaced) and "library" not in _texts(spaced)
    assert "canteen" in _texts(underscored) and "parking" not in _texts(underscored)
    assert "library" in _texts(capital) and "parking" not in _texts(capital)
    for ingestor in (spaced, underscored, capital):
        assert ingestor.missing_vectors() == {}
    assert len({spaced.store.collection_name, underscored.store.collection_name, capital.store.collection_name}) == 3


def test_an_old_home_heals(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A home written with the old naming: two workspaces in one collection, one of them already swept away."""
    _corpus(tmp_path / "a", 1, "parking")
    _corpus(tmp_path / "b", 1, "canteen")
    with monkeypatch.context() as old:
        old.setattr(vectorstore, "collection_name", legacy_collection_name)
        build_ingestor(settings, "legal team", embedder=HashEmbedder()).run([tmp_path / "a"])
        build_ingestor(settings, "legal_team", embedder=HashEmbedder()).run([tmp_path / "b"])
    assert legacy_collections(settings) == ["evidence_legal_team"]

    embedder = HashEmbedder()
    # An old home was embedded by torch, the only backend then: a torch ingest copies its vectors (an ingest with
    # another backend re-embeds instead, never mixing vectors: tests/ingest/test_store_backend.py).
    embedder.settings = EmbeddingSettings(backend="torch")
    underscored = build_ingestor(settings, "legal_team", embedder=embedder)
    report = underscored.run([tmp_path / "b"])
    assert (report.documents_rebuilt, embedder.calls) == (1, [])  # copied from the old collection, not re-embedded
    spaced = build_ingestor(settings, "legal team", embedder=HashEmbedder())
    report = spaced.run([tmp_path / "a"])
    assert report.documents_rebuilt == 1  # the old sweep had deleted these: embedded again from the file
    assert "canteen" not in _texts(spaced) and "parking" not in _texts(underscored)

    findings = check_legacy_collections(settings, ["legal team", "legal_team"], {"legal team", "legal_team"},
                                        repair=True)
    assert [(f.kind, f.subject, f.repaired) for f in findings] == [
        ("legacy_collection", "evidence_legal_team", True)
    ]
    assert legacy_collections(settings) == []
