"""A workspace's vectors are all made by one embedding backend: the store records which, queries follow it, and an
ingest with another backend re-embeds the whole workspace first. Embedded Chroma and (with
EVIDENCE_TEST_CHROMA_URL) a Chroma server; fake encoders stand in for torch and onnx-int8."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ingest.vectorstore as vectorstore
from ingest.embedding import CachedEmbedder, Embedder, backend_fingerprint
from ingest.pipeline import Ingestor
from ingest.vectorstore import PENDING_KEY, VectorStore
from ledger.core.errors import ConfigError, StoreError
from ledger.core.settings import EmbeddingSettings, Settings
from ledger.loop.factory import build_ingestor, build_registry, build_retriever
from tests.fakes import HashEmbedder

TORCH = backend_fingerprint(EmbeddingSettings(backend="torch"))
INT8 = backend_fingerprint(EmbeddingSettings(backend="onnx-int8"))


class FakeTorch(HashEmbedder):
    """Stands in for the torch backend (whatever the default backend is)."""

    def __init__(self) -> None:
        super().__init__()
        self.settings = EmbeddingSettings(backend="torch")


class FakeInt8(HashEmbedder):
    """Stands in for the onnx-int8 backend: its own (hashed) vectors, its own fingerprint."""

    def __init__(self) -> None:
        super().__init__()
        self.settings = EmbeddingSettings(backend="onnx-int8")

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        return super().encode([f"int8 {t}" for t in texts], batch_size)


def _docs(folder: Path, n: int, topic: str = "travel") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"{topic}_{i}.md").write_text(f"# {topic} {i}\n\nRule {i} of the {topic} policy: item {i * 7}.\n")
    return folder


def _made_by(store: VectorStore, embedder: Embedder) -> bool:
    """Whether every stored vector is `embedder`'s vector of its chunk text."""
    chunks = store.all_chunks()
    stored = store.embeddings_for(chunks)
    return bool(chunks) and np.allclose(stored, embedder.encode([c.text for c in chunks]), atol=1e-5)


def test_the_first_ingest_records_its_backend(where: Settings, tmp_path: Path) -> None:
    ingestor = build_ingestor(where, embedder=FakeInt8())
    assert ingestor.store.backend_record().recorded is None  # a new store: nothing recorded yet
    ingestor.run([_docs(tmp_path / "docs", 2)])
    assert ingestor.store.backend_record().recorded == INT8
    assert _made_by(ingestor.store, FakeInt8())


def test_an_ingest_with_another_backend_re_embeds_the_whole_workspace_and_says_why(where: Settings,
                                                                                 tmp_path: Path) -> None:
    old = build_ingestor(where, embedder=FakeTorch())
    old.run([_docs(tmp_path / "a", 3, "travel")])
    old.run([_docs(tmp_path / "b", 2, "security")])  # two folders: the second run does not name the first
    old.store.record_backend(None)  # a store from before backends were recorded: torch made it
    version = build_registry(where).version()
    messages: list[str] = []
    new = build_ingestor(where, embedder=FakeInt8())
    report = new.run([_docs(tmp_path / "b", 3, "security")], on_wait=messages.append)
    assert report.documents_added == 1 and report.documents_unchanged == 2
    assert messages == [
        f"re-embedding the 5 chunks of workspace 'default' with {INT8}: its vectors were made by {TORCH}, "
        "and vectors of two backends are never mixed in one store"
    ]
    assert new.store.count() == 6 and _made_by(new.store, FakeInt8())  # folder a too, though not ingested now
    assert new.store.backend_record().recorded == INT8
    assert build_registry(where).version() != version  # readers holding the old backend (the UI) start afresh
    again: list[str] = []
    assert build_ingestor(where, embedder=FakeInt8()).run([tmp_path / "b"], on_wait=again.append).documents_unchanged
    assert again == []  # the same backend: nothing re-embedded


def test_an_interrupted_re_embedding_is_refused_to_queries_and_finished_by_the_next_ingest(
    where: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectorstore, "_REEMBED_BATCH", 2)
    build_ingestor(where, embedder=FakeTorch()).run([_docs(tmp_path / "docs", 5)])  # three re-embed batches
    ingestor = build_ingestor(where, embedder=FakeInt8())
    batches = 0
    real_update = ingestor.store._collection.update

    def update_then_die(**kwargs: object) -> None:
        nonlocal batches
        real_update(**kwargs)
        batches += 1
        if batches == 1:
            raise KeyboardInterrupt  # stopped after the first batch: half the vectors are int8's

    monkeypatch.setattr(ingestor.store._collection, "update", update_then_die)
    with pytest.raises(KeyboardInterrupt):
        ingestor.run([tmp_path / "docs"])
    assert ingestor.store.backend_record().pending == INT8
    with pytest.raises(StoreError, match="re-embedding was interrupted"):
        build_retriever(where, embedder=FakeTorch())
    with pytest.raises(StoreError, match="re-embedding was interrupted"):
        build_retriever(where, embedder=FakeInt8())
    messages: list[str] = []
    build_ingestor(where, embedder=FakeTorch()).run([tmp_path / "docs"], on_wait=messages.append)
    assert "its re-embedding with onnx-int8.v2:all-MiniLM-L6-v2 was interrupted" in messages[0]
    store = VectorStore(where, "default")
    assert store.backend_record().recorded == TORCH and store.backend_record().pending is None
    assert _made_by(store, FakeTorch())


def test_queries_embed_with_the_backend_that_made_the_store(where: Settings, tmp_path: Path) -> None:
    build_ingestor(where, embedder=FakeTorch()).run([_docs(tmp_path / "docs", 2)])
    configured = FakeInt8()  # EVIDENCE_EMBEDDING__BACKEND=onnx-int8 now, the workspace was embedded by torch
    followed = build_retriever(where, embedder=configured).embedder
    assert type(followed) is Embedder and followed.fingerprint == TORCH
    cached = build_retriever(where, embedder=CachedEmbedder(configured)).embedder
    assert isinstance(cached, CachedEmbedder) and cached.fingerprint == TORCH
    same = FakeTorch()
    assert build_retriever(where, embedder=same).embedder is same


def test_an_empty_store_takes_the_configured_backend(where: Settings, tmp_path: Path) -> None:
    store = VectorStore(where, "default")
    store.record_backend("torch:another-model")  # emptied after another model filled it
    configured = FakeInt8()
    assert build_retriever(where, embedder=configured).embedder is configured
    messages: list[str] = []
    build_ingestor(where, embedder=configured).run([_docs(tmp_path / "docs", 1)], on_wait=messages.append)
    assert messages == [] and store.backend_record().recorded == INT8


def test_a_store_no_backend_here_can_query_is_refused_in_one_line(where: Settings, tmp_path: Path) -> None:
    build_ingestor(where, embedder=FakeInt8()).run([_docs(tmp_path / "docs", 2)])
    VectorStore(where, "default").record_backend("onnx-int8.v1:all-MiniLM-L6-v2")  # an older export recipe
    with pytest.raises(ConfigError) as caught:
        build_retriever(where, embedder=FakeInt8())
    message = str(caught.value)
    assert message.startswith("workspace 'default' holds 2 vectors made by onnx-int8.v1:all-MiniLM-L6-v2")
    assert "re-embed it" in message and "\n" not in message


def test_the_cli_refuses_such_a_store_with_one_line_before_loading_a_model(settings: Settings, tmp_path: Path) -> None:
    build_ingestor(settings, embedder=FakeTorch()).run([_docs(tmp_path / "docs", 2)])
    VectorStore(settings, "default").record_backend("torch:another-model")
    done = subprocess.run(
        [sys.executable, "-c", "from ledger.cli import main; main()", "ask", "What is rule 1?"],
        env={"EVIDENCE_HOME": str(settings.home), "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: workspace 'default' holds 2 vectors made by torch:another-model")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_the_old_naming_collection_is_never_copied_into_a_store_of_another_backend(settings: Settings,
                                                                                    tmp_path: Path) -> None:
    ingestor: Ingestor = build_ingestor(settings, embedder=FakeInt8())
    ingestor.run([_docs(tmp_path / "docs", 1)])
    assert ingestor.store.backend_record().recorded == INT8
    assert PENDING_KEY not in (ingestor.store._collection.metadata or {})
    assert ingestor.store.adopt_legacy(ingestor.store.ids()) == set()


def test_a_search_begun_before_a_re_embedding_is_refused_once_it_starts(where: Settings, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    build_ingestor(where, embedder=FakeTorch()).run([_docs(tmp_path / "docs", 2)])
    retriever = build_retriever(where, embedder=FakeTorch())  # e.g. the UI's pipeline, built once
    monkeypatch.setattr(vectorstore, "_RECHECK_S", 0.0)
    assert retriever.hybrid_many(["Rule 1 of the travel policy"], 1)[0]
    VectorStore(where, "default").record_backend(TORCH, pending=INT8)  # an ingest elsewhere starts re-embedding
    with pytest.raises(StoreError, match=r"being re-embedded with onnx-int8\.v2:all-MiniLM-L6-v2 by an ingest"):
        retriever.hybrid_many(["Rule 1 of the travel policy"], 1)
    VectorStore(where, "default").record_backend(INT8)  # ... and finished it
    with pytest.raises(StoreError, match="ask again when it has finished"):
        retriever.search_many(["Rule 1 of the travel policy"], 1)
    assert build_retriever(where, embedder=FakeTorch()).embedder.fingerprint == INT8  # a new one follows
