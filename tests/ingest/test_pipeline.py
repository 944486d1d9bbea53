"""Batch ingestion: idempotent re-ingest, changed files, prune, bad files, registry/Chroma agreement."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from ingest.hashing import vector_id
from ingest.pipeline import Ingestor
from ledger.core.errors import ModelError
from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder


def _write_corpus(root: Path, n: int = 4) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = root / f"policy_{i}.md"
        p.write_text(
            f"# Policy {i}\n\nEffective date: 2026-0{i + 1}-01\n\nRule {i}: approvals need {i + 1} signatures.\n"
        )
        paths.append(p)
    return paths


def _agree(ingestor: Ingestor) -> None:
    referenced = {vector_id(d.id, h) for d in ingestor.registry.all() for h in d.chunk_hashes}
    assert ingestor.store.ids() == referenced


@pytest.fixture
def ingestor(settings: Settings) -> Ingestor:
    return build_ingestor(settings, embedder=HashEmbedder())


def test_second_run_adds_nothing_and_reports_every_document_unchanged(ingestor: Ingestor, tmp_path: Path) -> None:
    _write_corpus(tmp_path / "docs")
    first = ingestor.run([tmp_path / "docs"])
    assert (first.documents_added, first.chunks_added, first.failed) == (4, 4, [])
    second = ingestor.run([tmp_path / "docs"])
    assert (second.documents_added, second.documents_updated, second.documents_unchanged, second.chunks_added) == (
        0,
        0,
        4,
        0,
    )
    assert ingestor.store.count() == 4
    _agree(ingestor)


def test_reparse_reads_unchanged_files_again_and_keeps_the_stores_in_agreement(
    ingestor: Ingestor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_corpus(tmp_path / "docs", n=2)
    ingestor.run([tmp_path / "docs"])
    before = {d.id: d.chunk_hashes for d in ingestor.registry.all()}
    # a newer reader of the same bytes: what an upgrade that reads a format better does
    import ingest.pipeline as pipeline

    read = pipeline.parse_isolated
    monkeypatch.setattr(pipeline, "parse_isolated", lambda *a, **k: read(*a, **k).model_copy(
        update={"text": read(*a, **k).text + "\n\nRule 9: a new rule the old reader missed."}))
    assert ingestor.run([tmp_path / "docs"]).documents_unchanged == 2  # same bytes: skipped
    again = ingestor.run([tmp_path / "docs"], reparse=True)
    assert (again.documents_updated, again.documents_unchanged) == (2, 0)
    after = {d.id: d.chunk_hashes for d in ingestor.registry.all()}
    assert after.keys() == before.keys() and all(after[i] != before[i] for i in after)  # the new reading is stored
    _agree(ingestor)


def test_editing_one_file_rechunks_only_that_file(ingestor: Ingestor, tmp_path: Path) -> None:
    paths = _write_corpus(tmp_path / "docs")
    ingestor.run([tmp_path / "docs"])
    embedder = ingestor.embedder
    assert isinstance(embedder, HashEmbedder)
    embedder.calls.clear()
    paths[2].write_text(paths[2].read_text().replace("3 signatures", "5 signatures"))
    report = ingestor.run([tmp_path / "docs"])
    assert (report.documents_updated, report.documents_unchanged, report.chunks_added) == (1, 3, 1)
    assert embedder.calls == [1]  # only the edited file's chunk was embedded
    texts = [c.text for c in ingestor.store.all_chunks()]
    assert any("5 signatures" in t for t in texts) and not any("3 signatures" in t for t in texts)
    _agree(ingestor)


def test_prune_drops_documents_whose_files_are_gone(ingestor: Ingestor, tmp_path: Path) -> None:
    paths = _write_corpus(tmp_path / "docs")
    ingestor.run([tmp_path / "docs"])
    paths[0].unlink()
    kept = ingestor.run([tmp_path / "docs"])
    assert kept.documents_pruned == 0 and len(ingestor.registry.all()) == 4
    pruned = ingestor.run([tmp_path / "docs"], prune=True)
    assert pruned.documents_pruned == 1
    assert sorted(Path(d.path).name for d in ingestor.registry.all()) == ["policy_1.md", "policy_2.md", "policy_3.md"]
    _agree(ingestor)


def test_bad_files_fail_alone_and_the_batch_goes_on(ingestor: Ingestor, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write_corpus(docs, n=2)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage")
    (docs / "random.docx").write_bytes(os.urandom(4096))
    (docs / "empty.txt").write_bytes(b"")
    (docs / "latin1.txt").write_bytes("Caf\xe9 au lait costs \xa33".encode("latin-1"))
    loop = docs / "sub"
    loop.mkdir()
    (loop / "back").symlink_to(docs, target_is_directory=True)
    report = ingestor.run([docs])
    failed = {Path(f.path).name: f.error for f in report.failed}
    assert report.documents_added == 2
    assert "pdf" in failed["broken.pdf"].lower()
    assert "docx" in failed["random.docx"].lower()
    assert "empty" in failed["empty.txt"].lower()
    assert "utf-8" in failed["latin1.txt"].lower()
    assert any("symlink loop" in error for error in failed.values())
    assert all("\n" not in error for error in failed.values())


def test_missing_path_is_reported_not_raised(ingestor: Ingestor, tmp_path: Path) -> None:
    report = ingestor.run([tmp_path / "nope"])
    assert [f.error for f in report.failed] == ["no such file or directory"]


def test_workspaces_are_separate(settings: Settings, tmp_path: Path) -> None:
    _write_corpus(tmp_path / "docs", n=2)
    build_ingestor(settings, "alpha", embedder=HashEmbedder()).run([tmp_path / "docs"])
    beta = build_ingestor(settings, "beta", embedder=HashEmbedder())
    assert beta.registry.all() == [] and beta.store.count() == 0


class _FailsOnSecondBatch(HashEmbedder):
    """Embeds the first batch, then fails like a model that cannot run (out of memory, a damaged file)."""

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        if self.calls:
            raise ModelError("the embedding model stopped: out of memory")
        return super().encode(texts, batch_size)


def test_a_batch_whose_embedding_fails_leaves_nothing_half_written(settings: Settings, tmp_path: Path) -> None:
    """Files are read while the batch before them is embedded; when an embedding fails, the batches already written
    stay whole, nothing of the failed one is registered or stored, and the next run ingests the rest."""
    _write_corpus(tmp_path / "docs", n=6)
    small = settings.model_copy(update={"ingest": settings.ingest.model_copy(update={"embed_buffer": 2})})
    failing = build_ingestor(small, embedder=_FailsOnSecondBatch())
    with pytest.raises(ModelError, match="out of memory"):
        failing.run([tmp_path / "docs"])
    assert failing.embedder.calls == [2]  # type: ignore[attr-defined]
    assert sorted(Path(d.path).name for d in failing.registry.all()) == ["policy_0.md", "policy_1.md"]
    _agree(failing)

    report = build_ingestor(small, embedder=HashEmbedder()).run([tmp_path / "docs"])
    assert (report.documents_added, report.documents_unchanged, report.failed) == (4, 2, [])
    _agree(failing)
    assert failing.store.count() == 6
