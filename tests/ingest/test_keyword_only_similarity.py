"""A chunk found only by keyword carries the same dense similarity as a nearest-neighbour search gives it."""

from __future__ import annotations

from pathlib import Path

from ingest.retrieval import MIN_POOL
from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor, build_retriever
from tests.fakes import HashEmbedder


def test_a_keyword_only_hit_has_its_dense_similarity(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(MIN_POOL + 10):  # more chunks than the dense pool, so some hits are keyword-only
        (docs / f"note_{i:02}.md").write_text(f"# Note {i}\n\nThe meeting room {i} is booked on weekday {i}.\n")
    (docs / "code.md").write_text("# Parts\n\nPart ZR-9041 replaces the worn hinge.\n")
    settings = Settings(home=tmp_path / "home")
    embedder = HashEmbedder()
    build_ingestor(settings, "w", embedder=embedder).run([docs])
    retriever = build_retriever(settings, "w", embedder=embedder)
    code = next(c for c in retriever.store.all_chunks() if "ZR-9041" in c.text)
    for n in range(50):  # a wording whose nearest neighbours (hash vectors: random) leave the code's chunk out
        question = f"Which part is ZR-9041, question {n}?"
        vector = embedder.encode([question])[0]
        dense = {hit.chunk.hash for hit in retriever.store.search(vector, MIN_POOL)}
        if code.hash not in dense:
            break
    fused = retriever.hybrid_many([question], MIN_POOL + 20)[0]
    keyword_only = [hit for hit in fused if hit.chunk.hash not in dense]
    assert code.hash in {hit.chunk.hash for hit in keyword_only}
    everything = {hit.chunk.hash: hit.similarity for hit in retriever.store.search(vector, 100)}
    for hit in keyword_only:
        assert abs(hit.similarity - everything[hit.chunk.hash]) < 1e-4
