"""Batch ingestion: files → chunks → embeddings → Chroma, with the registry kept in step.

Write order makes an interrupted run harmless: a batch's new chunks go into Chroma first (ids are
deterministic, so a re-run upserts rather than duplicates), then each document's registry row is replaced in one
transaction, then its stale chunks are deleted. Every run ends with a sweep that deletes vectors no
registry row references, so after any run the registry and Chroma agree, even after a SIGKILL.

Writers of one workspace take turns: a run holds the workspace's lock (ledger.core.locks) from reading the
registry to the end of its sweep, so a sweep can never delete the vectors of another ingest still in flight
(written, not yet registered), and the second ingest waits, saying so. A registered document whose vectors are
missing from Chroma (a lost `chroma/`, an old collection name, an earlier race) counts as changed: the run
writes them again and reports it as rebuilt.

Reading overlaps embedding: while one batch of chunks is embedded in a background thread, the next files are read
and chunked (on two cores the encoder's calls and the parsing share the CPU instead of taking turns); the
batch's writes happen in this thread, in the order above, once its vectors are back.

A workspace whose vectors another embedding backend made (EVIDENCE_EMBEDDING__BACKEND changed since, or a store
from before backends were recorded, which torch made) is re-embedded whole, from the chunk texts the store keeps,
before anything new is written, and the run says why: one store never holds two backends' vectors.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import numpy as np

from ingest.chunking import chunk_document
from ingest.discovery import discover
from ingest.embedding import Embedder, stored_fingerprint
from ingest.hashing import bytes_digest, document_id, vector_id
from ingest.loaders import read_file
from ingest.parse_worker import parse_isolated
from ingest.tables import render_tables
from ingest.types import FailedFile, IngestReport, LoadedDocument
from ingest.vectorstore import VectorStore
from ledger.core.errors import LoaderError
from ledger.core.locks import WaitNotice, workspace_lock
from ledger.core.settings import Settings
from ledger.core.types import Chunk, DocumentInfo
from ledger.storage.documents import Registry
from ledger.storage.keywords import KeywordIndex

log = logging.getLogger(__name__)


class IngestProgress(Protocol):
    """What the pipeline reports while it works; the CLI draws it, tests may record it."""

    def files_found(self, total: int) -> None: ...
    def file_read(self, path: Path) -> None: ...
    def chunks_queued(self, count: int) -> None: ...
    def chunks_embedded(self, count: int) -> None: ...


@dataclass
class _Pending:
    """Documents read and chunked, waiting for one shared embedding call."""

    # (document, id, chunks, "added" | "updated" | "rebuilt")
    items: list[tuple[LoadedDocument, str, list[Chunk], str]] = field(default_factory=list)

    @property
    def chunk_count(self) -> int:
        return sum(len(chunks) for _, _, chunks, _ in self.items)


@dataclass
class _Embedding:
    """A batch of documents whose chunks are being embedded in the background."""

    items: list[tuple[LoadedDocument, str, list[Chunk], str]]
    vectors: Future[np.ndarray]


class Ingestor:
    """Ingests files into one workspace; the model loads only if something needs embedding."""

    def __init__(
        self,
        settings: Settings,
        workspace: str,
        *,
        embedder: Embedder,
        store: VectorStore,
        registry: Registry,
        keywords: KeywordIndex | None = None,
    ) -> None:
        self.settings = settings
        self.workspace = workspace
        self.embedder = embedder
        self.store = store
        self.registry = registry
        self.keywords = keywords
        self.lock = workspace_lock(settings.home, workspace)

    def run(
        self,
        paths: list[Path],
        prune: bool = False,
        progress: IngestProgress | None = None,
        on_wait: WaitNotice | None = None,
        reparse: bool = False,
    ) -> IngestReport:
        """Ingest `paths` (files and folders); one bad file never stops the batch. If another ingest of the
        workspace is running, waits for it (telling `on_wait` why, once). With `reparse`, files whose bytes are
        unchanged are read again too (a newer version of the product may read them better)."""
        started = time.perf_counter()
        report = IngestReport()
        files, report.failed = discover(paths, self.settings.ingest.extensions)
        if progress:
            progress.files_found(len(files))
        with self.lock.hold(on_wait or _log_wait):
            self._match_backend(progress, on_wait or _log_wait)
            known = self.registry.by_id()
            vectors = self._vector_state(known)
            pending = _Pending()
            inflight: _Embedding | None = None
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-embed") as background:
                for path in files:
                    self._read(path, known, vectors, pending, report, reparse)
                    if progress:
                        progress.file_read(path)
                    if pending.chunk_count >= self.settings.ingest.embed_buffer:
                        done, inflight = inflight, self._embed(pending, background, progress)
                        self._write(done, known, report, progress)
                self._write(inflight, known, report, progress)
                self._write(self._embed(pending, background, progress), known, report, progress)
            if prune:
                report.documents_pruned = self._prune(known)
            self.sweep()
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def _match_backend(self, progress: IngestProgress | None, notice: WaitNotice) -> None:
        """Make the store's vectors the embedder's own before anything is added: record the backend of a store
        that has none recorded yet, re-embed one made by another backend (or left half re-embedded)."""
        record = self.store.backend_record()
        current = self.embedder.fingerprint
        stored = stored_fingerprint(record.recorded, record.count, self.embedder.settings)
        if record.pending is None and (record.count == 0 or stored == current):
            if record.recorded != current:
                self.store.record_backend(current)
            return
        why = (
            f"its re-embedding with {record.pending} was interrupted"
            if record.pending
            else f"its vectors were made by {stored}"
        )
        notice(
            f"re-embedding the {record.count} chunks of workspace {self.workspace!r} with {current}: {why}, and "
            "vectors of two backends are never mixed in one store"
        )
        if progress:
            progress.chunks_queued(record.count)
        self.store.reembed(self.embedder, progress.chunks_embedded if progress else None)
        now = datetime.now(UTC)  # the vectors are new: the registry says so, and readers (the UI) see a new version
        for doc in self.registry.all():
            self.registry.upsert(doc.model_copy(update={"ingested_at": now}))

    def missing_vectors(self, known: dict[str, DocumentInfo] | None = None) -> dict[str, list[str]]:
        """Vector ids each registered document lists but Chroma lacks, by document id (complete ones left out)."""
        known = self.registry.by_id() if known is None else known
        present = self.store.ids()
        missing = {doc_id: [vector_id(doc_id, h) for h in doc.chunk_hashes] for doc_id, doc in known.items()}
        missing = {doc_id: [i for i in ids if i not in present] for doc_id, ids in missing.items()}
        return {doc_id: ids for doc_id, ids in missing.items() if ids}

    def _vector_state(self, known: dict[str, DocumentInfo]) -> dict[str, str]:
        """Per registered document: 'intact', 'copied' (its vectors were missing and the old-naming collection of
        the workspace still had them: copied over) or 'missing' (they must be embedded again)."""
        missing = self.missing_vectors(known)
        before = set(missing)
        if missing and self.store.adopt_legacy({i for ids in missing.values() for i in ids}):
            missing = self.missing_vectors(known)
        return {doc_id: "missing" if doc_id in missing else "copied" if doc_id in before else "intact"
                for doc_id in known}

    def _read(
        self,
        path: Path,
        known: dict[str, DocumentInfo],
        vectors: dict[str, str],
        pending: _Pending,
        report: IngestReport,
        reparse: bool = False,
    ) -> None:
        doc_id = document_id(self.workspace, str(path))
        previous = known.get(doc_id)
        kind = "updated" if previous else "added"
        try:
            data, mtime = read_file(path, int(self.settings.ingest.max_file_mb * 2**20))
            if previous and previous.sha256 == bytes_digest(data) and not reparse:
                if vectors.get(doc_id) == "intact":
                    report.documents_unchanged += 1
                    return
                if vectors.get(doc_id) == "copied":
                    report.documents_rebuilt += 1
                    return
                kind = "rebuilt"  # same bytes, vectors lost: embed again
            doc = parse_isolated(path, data, mtime, self.settings.ingest)
            text, rows = render_tables(doc.text)  # tables are parsed here, once: rows become sentences
            doc = doc.model_copy(update={"text": text, "table_rows": rows})
            chunks = chunk_document(
                doc,
                doc_id,
                self.embedder.tokenizer,
                self.settings.ingest.chunk_size,
                self.settings.ingest.chunk_overlap,
            )
            if not chunks:
                raise LoaderError(path, "no text could be extracted")
        except LoaderError as exc:
            report.failed.append(FailedFile(path=str(path), error=exc.reason))
            return
        except OSError as exc:
            report.failed.append(FailedFile(path=str(path), error=exc.strerror or str(exc)))
            return
        pending.items.append((doc, doc_id, chunks, kind))

    def _embed(
        self, pending: _Pending, background: ThreadPoolExecutor, progress: IngestProgress | None
    ) -> _Embedding | None:
        """Start embedding the pending documents' chunks in `background`; the pending list is handed over."""
        if not pending.items:
            return None
        items, pending.items = pending.items, []
        texts = [c.text for _, _, chunks, _ in items for c in chunks]
        if progress:
            progress.chunks_queued(len(texts))
        return _Embedding(items, background.submit(self.embedder.encode, texts))

    def _write(
        self,
        batch: _Embedding | None,
        known: dict[str, DocumentInfo],
        report: IngestReport,
        progress: IngestProgress | None,
    ) -> None:
        """Wait for a batch's vectors, then write them all in one go; then each document's registry row, then its
        stale vectors. Every vector is in before a registry row names it, so an interruption at any point leaves
        at most vectors no row references, which the next sweep deletes."""
        if batch is None:
            return
        vectors = batch.vectors.result()
        self.store.upsert([c for _, _, chunks, _ in batch.items for c in chunks], vectors)  # 1. new vectors in
        for doc, doc_id, chunks, kind in batch.items:
            self.registry.upsert(_info(doc_id, self.workspace, doc, chunks))  # 2. registry switches over
            if doc_id in known:  # 3. the old version's leftovers go
                new_ids = {vector_id(doc_id, c.hash) for c in chunks}
                stale = [vector_id(doc_id, h) for h in known[doc_id].chunk_hashes]
                self.store.delete([i for i in stale if i not in new_ids])
            if kind == "rebuilt":
                report.documents_rebuilt += 1
            elif kind == "updated":
                report.documents_updated += 1
            else:
                report.documents_added += 1
            report.chunks_added += len(chunks)
            if progress:
                progress.chunks_embedded(len(chunks))

    def _prune(self, known: dict[str, DocumentInfo]) -> int:
        gone = [doc for doc in known.values() if not Path(doc.path).exists()]
        self.registry.delete([doc.id for doc in gone])  # registry first; the sweep removes the vectors
        return len(gone)

    def orphans(self) -> list[str]:
        """Vector ids in Chroma that no registry row references (hold the lock, or an ingest may be in flight)."""
        referenced = {vector_id(doc.id, h) for doc in self.registry.all() for h in doc.chunk_hashes}
        return sorted(self.store.ids() - referenced)

    def sweep(self, on_wait: WaitNotice | None = None) -> int:
        """Delete vectors that no registry row references, then bring the keyword index in step with Chroma;
        returns how many vectors went. Waits for a running ingest."""
        with self.lock.hold(on_wait or _log_wait):
            orphans = self.orphans()
            self.store.delete(orphans)
            if self.keywords is not None:
                sync_keywords(self.store, self.keywords)
            return len(orphans)


def sync_keywords(store: VectorStore, keywords: KeywordIndex) -> tuple[int, int]:
    """Make the keyword index hold exactly Chroma's chunks: index what it lacks, forget what Chroma dropped.

    Incremental (only the difference is read), so it runs at the end of every ingest; a home from before the
    keyword index, or one whose index was lost, is filled here without re-embedding. Returns (added, removed).
    """
    present, indexed = store.ids(), keywords.ids()
    stale = sorted(indexed - present)
    keywords.delete(stale)
    lacking = sorted(present - indexed)
    keywords.upsert(store.chunks_by_ids(lacking).items())
    return len(lacking), len(stale)


def _log_wait(message: str) -> None:
    log.warning("%s", message)


def _info(doc_id: str, workspace: str, doc: LoadedDocument, chunks: list[Chunk]) -> DocumentInfo:
    """The registry record of a document just chunked."""
    return DocumentInfo(
        id=doc_id, workspace=workspace, path=doc.path, title=doc.title, sha256=doc.sha256, mime_type=doc.mime_type,
        date=doc.doc_date, date_source=doc.date_source, chunks=len(chunks), chunk_hashes=[c.hash for c in chunks],
        ingested_at=datetime.now(UTC),
    )
