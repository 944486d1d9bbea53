"""The Chroma store, embedded and (with EVIDENCE_TEST_CHROMA_URL, set by .ci/run) a real Chroma server: what is
written is found, filtered and removed the same way in both, and ingest, hybrid search and the doctor's checks
work with the vectors in the server."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pytest

from ingest.consistency import check_workspace
from ingest.embedding import backend_fingerprint
from ingest.hashing import vector_id
from ingest.vectorstore import VectorStore, collection_names
from ledger.core.errors import StoreError
from ledger.core.settings import Settings
from ledger.core.types import Chunk, TableRow
from ledger.loop.factory import build_ingestor, build_retriever
from tests.fakes import HashEmbedder


def _chunk(i: int, text: str, **extra: object) -> Chunk:
    return Chunk(hash=f"{i:012x}", text=text, document_id="doc-1", index=i, start_char=10 * i, end_char=10 * i + 9,
                 path="/docs/one.md", title="One", **extra)  # type: ignore[arg-type]


CHUNKS = [
    _chunk(0, "Invoices above the threshold need two written quotes.", doc_date=date(2026, 3, 1)),
    _chunk(1, "Part QX-4471 replaces the worn hinge of the loading door.", section="Maintenance › Doors"),
    _chunk(2, "The canteen opens at eight.",
           table_rows=[TableRow(header=["Room", "Opens"], cells=["Canteen", "8:00"])]),
]


def test_a_chroma_server_that_is_not_running_is_a_store_error_naming_it(home: object,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", "http://127.0.0.1:1")  # nothing listens on port 1
    with pytest.raises(StoreError, match=r"^cannot open Chroma at http://127\.0\.0\.1:1/: "):
        VectorStore(Settings(), "default")


def test_what_is_written_is_found_filtered_and_removed(where: Settings) -> None:
    store = VectorStore(where, "default")
    vectors = HashEmbedder().encode([c.text for c in CHUNKS])
    assert store.search(vectors[0], 5) == [] and store.search_batch(list(vectors[:2]), 5) == [[], []]  # empty
    store.upsert(CHUNKS, vectors)
    store.upsert(CHUNKS, vectors)  # ids are deterministic: writing twice adds nothing
    ids = [vector_id(c.document_id, c.hash) for c in CHUNKS]
    assert store.count() == 3 and store.ids() == set(ids)
    assert store.all_chunks() == CHUNKS  # text, offsets, date, table rows and section come back as written
    nearest = store.search(vectors[1], 2)
    assert nearest[0].chunk == CHUNKS[1] and nearest[0].similarity == pytest.approx(1.0, abs=1e-5)
    # several texts searched in one query find what each finds alone, in its order
    assert store.search_batch(list(vectors), 2) == [store.search(v, 2) for v in vectors]
    assert store.search_batch([], 2) == []
    assert [h.chunk.hash for h in store.search(vectors[1], 3, hashes=[CHUNKS[2].hash])] == [CHUNKS[2].hash]
    assert [h.chunk.hash for h in store.search(vectors[0], 3, words=[["QX-4471"]])] == [CHUNKS[1].hash]
    assert store.search(vectors[0], 3, words=[["quotes"], ["hinge"]], match_all=True) == []
    assert set(store.get_by_hashes([CHUNKS[0].hash, CHUNKS[2].hash])) == {CHUNKS[0].hash, CHUNKS[2].hash}
    assert store.paths_of(ids[:1] + ["no-such-id"]) == {ids[0]: "/docs/one.md"}
    np.testing.assert_allclose(store.embeddings_for(CHUNKS[::-1]), vectors[::-1], atol=1e-6)
    chunks, stored = store.chunks_with_embeddings([ids[2], "no-such-id", ids[0]])
    assert sorted(c.hash for c in chunks) == [CHUNKS[0].hash, CHUNKS[2].hash]  # each with its own vector:
    np.testing.assert_allclose(stored, vectors[[CHUNKS.index(c) for c in chunks]], atol=1e-6)
    store.delete(ids[:2])
    assert store.ids() == {ids[2]} and [h.chunk for h in store.search(vectors[0], 5)] == [CHUNKS[2]]


def test_workspaces_are_separate_collections(where: Settings) -> None:
    one, two = VectorStore(where, "legal team"), VectorStore(where, "Legal Team")
    one.upsert(CHUNKS[:1], HashEmbedder().encode([CHUNKS[0].text]))
    assert one.count() == 1 and two.count() == 0
    assert {one.collection_name, two.collection_name} <= set(collection_names(where))


def _docs(folder: Path) -> Path:
    folder.mkdir()
    (folder / "parts.md").write_text("# Spare parts\n\nPart QX-4471 replaces the worn hinge of the loading door.\n")
    (folder / "budget.md").write_text("# Budget\n\nPurchases above $25,000 need three written quotes.\n")
    (folder / "kitchen.md").write_text("# Kitchen\n\n" + "The kitchen is cleaned every evening. " * 20 + "\n")
    return folder


def test_ingest_hybrid_search_and_the_doctor_work_with_the_vectors_where_they_live(where: Settings,
                                                                                   tmp_path: Path) -> None:
    docs = _docs(tmp_path / "docs")
    embedder = HashEmbedder()  # random directions: only the keyword half of the hybrid search can find the code
    ingestor = build_ingestor(where, embedder=embedder)
    report = ingestor.run([docs])
    assert report.documents_added == 3 and not report.failed
    recorded = ingestor.store.backend_record().recorded
    assert recorded == backend_fingerprint(embedder.settings)  # the first ingest recorded which backend made them
    assert (where.home / "chroma").exists() is (where.chroma_url is None)  # a server keeps nothing in the home
    retriever = build_retriever(where, embedder=embedder)
    assert retriever.embedder is embedder
    (found,) = retriever.hybrid_many(["Which part number replaces the hinge? QX-4471"], 1)
    assert "QX-4471" in found[0].chunk.text
    assert ingestor.run([docs]).documents_unchanged == 3  # nothing embedded again

    lost = sorted(ingestor.store.ids())[0]
    ingestor.store.delete([lost])  # a vector lost from the store: the doctor finds it and re-embeds it
    findings = check_workspace(ingestor, repair=True)
    assert [(f.kind, f.repaired) for f in findings] == [("missing_vectors", True)]
    assert lost in ingestor.store.ids() and check_workspace(ingestor) == []
