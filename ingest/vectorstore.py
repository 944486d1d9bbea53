"""Chroma: the only module that imports chromadb. One cosine collection per workspace (ledger.core.workspaces).

The embedded Chroma is opened under the home's set-up lock: two processes creating it at once on a fresh home
would both run its schema set-up ("table collections already exists").

A collection's metadata records which embedding backend made its vectors (`ingest.embedding.STORE_KEY`, a
`backend_fingerprint`); a collection without it was filled before backends existed, by torch. Queries embed with
the store's backend (`query_embedder`) and ingest re-embeds a store made by another (`reembed`), so one
collection never holds, nor is searched with, vectors of two backends. While a re-embedding runs, the metadata
also names the backend it is moving to (PENDING_KEY): queries refuse such a store until an ingest finishes it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date
from typing import Any

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings

from ingest.embedding import (
    LEGACY_BACKEND,
    STORE_KEY,
    CachedEmbedder,
    Embedder,
    backend_fingerprint,
    check_store_backend,
    settings_for_store,
    stored_fingerprint,
)
from ingest.hashing import vector_id
from ledger.core.errors import StoreError
from ledger.core.locks import setup_lock
from ledger.core.settings import CHROMA_PORT, Settings
from ledger.core.types import Chunk, TableRow
from ledger.core.workspaces import LEGACY_PREFIX, collection_name, legacy_collection_name

log = logging.getLogger(__name__)

PENDING_KEY = "embedding_backend_next"  # set while a re-embedding to that backend runs (or was interrupted)
_WRITE_BATCH = 1000
_REEMBED_BATCH = 256
_RECHECK_S = 1.0  # a store being searched looks at its backend record again at most this often
_SETUP_WAIT_S = 300.0


@dataclass(frozen=True)
class BackendRecord:
    """What a collection's metadata says about its vectors."""

    recorded: str | None  # fingerprint of the backend that made them; None: not recorded (a store from before)
    pending: str | None  # a re-embedding to this fingerprint started and has not finished
    count: int


@dataclass(frozen=True)
class ScoredChunk:
    """A chunk returned by a search, with its cosine similarity to the query."""

    chunk: Chunk
    similarity: float


def _client(settings: Settings) -> Any:
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    try:
        url = settings.chroma_url  # checked when the settings load: http(s), a host and a port, nothing else
        if url is not None:
            return chromadb.HttpClient(
                host=url.host or "", port=url.port or CHROMA_PORT, ssl=url.scheme == "https", settings=chroma_settings
            )
        settings.chroma_path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(settings.chroma_path), settings=chroma_settings)
    except Exception as exc:
        where = settings.chroma_url or settings.chroma_path
        raise StoreError(f"cannot open Chroma at {where}: {exc}") from exc


def reopen_embedded_stores() -> None:
    """Make the next VectorStore of this process read the embedded Chroma afresh.

    An embedded Chroma client keeps its vector index in memory: vectors another process (a CLI ingest beside the
    UI) wrote after it opened are counted but not searched. Stores opened after this call see them; stores
    already open keep their view.
    """
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()


def _setting_up(settings: Settings) -> AbstractContextManager[None]:
    """The home's set-up lock for the embedded Chroma (a server serialises its own set-up)."""
    return setup_lock(settings.home).hold(timeout=_SETUP_WAIT_S) if settings.chroma_url is None else nullcontext()


class VectorStore:
    """The chunks of one workspace in Chroma, with their embeddings and metadata."""

    def __init__(self, settings: Settings, workspace: str) -> None:
        self.workspace = workspace
        self.collection_name = collection_name(workspace)  # raises InvalidWorkspace for a name that cannot be used
        with _setting_up(settings):
            self._client = _client(settings)
            try:
                self._collection = self._client.get_or_create_collection(
                    self.collection_name,
                    configuration={"hnsw": {"space": "cosine"}},
                    embedding_function=None,
                )
            except Exception as exc:
                raise StoreError(f"cannot open the Chroma collection of workspace {workspace!r}: {exc}") from exc
        self._searched_with: str | None = None  # the fingerprint query_embedder chose, once it has
        self._checked_at = 0.0

    def count(self) -> int:
        """Number of chunks stored."""
        return int(self._collection.count())

    def _metadata(self) -> dict[str, Any]:
        """The collection's metadata as stored now (another process may have changed it since this one opened)."""
        try:
            fresh = self._client.get_collection(self.collection_name, embedding_function=None)
        except Exception as exc:
            raise StoreError(f"cannot read the Chroma collection of workspace {self.workspace!r}: {exc}") from exc
        return dict(fresh.metadata or {})

    def backend_record(self) -> BackendRecord:
        """Which backend made the vectors, as recorded, and whether a re-embedding is unfinished."""
        meta = self._metadata()
        return BackendRecord(meta.get(STORE_KEY) or None, meta.get(PENDING_KEY) or None, self.count())

    def record_backend(self, fingerprint: str | None, pending: str | None = None) -> None:
        """Record the fingerprint of the vectors (and the backend a re-embedding is moving to, if one runs)."""
        meta = {k: v for k, v in self._metadata().items() if k not in (STORE_KEY, PENDING_KEY)}
        if fingerprint:
            meta[STORE_KEY] = fingerprint
        if pending:
            meta[PENDING_KEY] = pending
        self._collection.modify(metadata=meta or None)

    def reembed(self, embedder: Embedder, on_progress: Callable[[int], None] | None = None) -> int:
        """Replace every vector by `embedder`'s vector of the same chunk text and record its backend; returns how
        many vectors were replaced. The store is marked pending first, so an interrupted run leaves a store that
        queries refuse and the next ingest re-embeds, never one searched with two backends' vectors in silence."""
        before = self.backend_record()
        self.record_backend(before.recorded, pending=embedder.fingerprint)
        ids = sorted(self.ids())
        for start in range(0, len(ids), _REEMBED_BATCH):
            got = self._collection.get(ids=ids[start : start + _REEMBED_BATCH], include=["documents"])
            vectors = embedder.encode([text or "" for text in got["documents"]])
            if len(got["ids"]):
                self._collection.update(ids=got["ids"], embeddings=vectors)
            if on_progress:
                on_progress(len(got["ids"]))
        self.record_backend(embedder.fingerprint)
        return len(ids)

    def _still_searchable(self) -> None:
        """Raises StoreError if, since query_embedder chose the queries' backend, an ingest (another process) began
        re-embedding the store or finished doing so: its vectors are no longer that backend's. Looked at once a
        second at most; a re-embedding marks the store before it changes any vector."""
        if self._searched_with is None or time.monotonic() - self._checked_at < _RECHECK_S:
            return
        meta = self._metadata()
        self._checked_at = time.monotonic()
        recorded, pending = meta.get(STORE_KEY), meta.get(PENDING_KEY)
        if pending or (recorded and recorded != self._searched_with):
            raise StoreError(
                f"the vectors of workspace {self.workspace!r} are being re-embedded with {pending or recorded} by an "
                "ingest: ask again when it has finished"
            )

    def query_embedder(self, embedder: Embedder) -> Embedder:
        """The embedder whose vectors this store's were made with: `embedder` itself when its backend made them
        (or the store is empty), else one of the store's backend (cached like `embedder`); raises ConfigError
        when no backend here can make them (another model, an older export recipe) and StoreError while a
        re-embedding is unfinished."""
        record = self.backend_record()
        if record.pending:
            raise StoreError(
                f"workspace {self.workspace!r} is being re-embedded with {record.pending}, or its re-embedding "
                "was interrupted: its vectors are not all of one backend until an `evidence ingest` into it finishes"
            )
        self._checked_at = time.monotonic()
        if record.count == 0:
            self._searched_with = embedder.fingerprint
            return embedder
        follow = settings_for_store(record.recorded, record.count, embedder.settings)
        if follow is None:
            check_store_backend(record.recorded, record.count, embedder.settings, self.workspace)  # raises
            raise AssertionError("check_store_backend accepted a store settings_for_store refused")
        self._searched_with = backend_fingerprint(follow)
        if follow.backend == embedder.settings.backend:
            return embedder
        log.info(
            "workspace %r was embedded by %s: its queries use that backend (the next ingest re-embeds it with %s)",
            self.workspace, stored_fingerprint(record.recorded, record.count, follow), embedder.fingerprint,
        )
        inner = Embedder(follow)
        return CachedEmbedder(inner, disk=embedder.disk) if isinstance(embedder, CachedEmbedder) else inner

    def ids(self) -> set[str]:
        """Every vector id in the collection."""
        ids: set[str] = set()
        offset = 0
        while True:
            page = self._collection.get(include=[], limit=5000, offset=offset)
            ids.update(page["ids"])
            if len(page["ids"]) < 5000:
                return ids
            offset += 5000

    def upsert(self, chunks: list[Chunk], embeddings: np.ndarray) -> None:
        """Write chunks with their embeddings; ids are deterministic, so writing twice changes nothing."""
        for start in range(0, len(chunks), _WRITE_BATCH):
            part = chunks[start : start + _WRITE_BATCH]
            self._collection.upsert(
                ids=[vector_id(c.document_id, c.hash) for c in part],
                embeddings=embeddings[start : start + _WRITE_BATCH],
                documents=[c.text for c in part],
                metadatas=[_metadata(c) for c in part],
            )

    def delete(self, ids: list[str]) -> None:
        """Remove vectors by id."""
        for start in range(0, len(ids), _WRITE_BATCH):
            self._collection.delete(ids=ids[start : start + _WRITE_BATCH])

    def paths_of(self, ids: list[str]) -> dict[str, str]:
        """The source path stored with each of these vectors (ids not found are left out)."""
        paths: dict[str, str] = {}
        for start in range(0, len(ids), _WRITE_BATCH):
            got = self._collection.get(ids=ids[start : start + _WRITE_BATCH], include=["metadatas"])
            paths.update({i: str((m or {}).get("path", "")) for i, m in zip(got["ids"], got["metadatas"], strict=True)})
        return paths

    def legacy_name(self) -> str | None:
        """The collection this workspace had under the old naming, if it is still there."""
        name = legacy_collection_name(self.workspace)
        return name if name in _names(self._client) and name != self.collection_name else None

    def adopt_legacy(self, ids: set[str]) -> set[str]:
        """Copy these vectors, where found, from the workspace's old-naming collection; returns the ids copied.

        Vector ids carry the document id, which hashes the exact workspace name, so a copy never takes another
        workspace's vectors even when several workspaces shared the old collection.
        """
        name = self.legacy_name()
        if not name or not ids:
            return set()
        recorded = self.backend_record().recorded
        if recorded and not recorded.startswith(f"{LEGACY_BACKEND}:"):
            return set()  # the old collection holds torch's vectors (it predates the other backends): never mix them
        legacy = self._client.get_collection(name, embedding_function=None)
        wanted = sorted(ids)
        copied: set[str] = set()
        for start in range(0, len(wanted), _WRITE_BATCH):
            got = legacy.get(ids=wanted[start : start + _WRITE_BATCH], include=["embeddings", "documents", "metadatas"])
            if not got["ids"]:
                continue
            self._collection.upsert(
                ids=got["ids"], embeddings=got["embeddings"], documents=got["documents"], metadatas=got["metadatas"]
            )
            copied.update(got["ids"])
        return copied

    def chunks_by_ids(self, ids: list[str]) -> dict[str, Chunk]:
        """Chunks by vector id (ids not found are left out)."""
        found: dict[str, Chunk] = {}
        for start in range(0, len(ids), _WRITE_BATCH):
            got = self._collection.get(ids=ids[start : start + _WRITE_BATCH], include=["documents", "metadatas"])
            found.update(
                (i, _chunk(text, meta))
                for i, text, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
            )
        return found

    def chunks_with_embeddings(self, ids: list[str]) -> tuple[list[Chunk], np.ndarray]:
        """Chunks by vector id and their stored embeddings (row i is chunk i's; in the store's order, not the ids'),
        in one read; ids not found are left out."""
        got = self._collection.get(ids=ids, include=["documents", "metadatas", "embeddings"])
        chunks = [_chunk(text, meta) for text, meta in zip(got["documents"], got["metadatas"], strict=True)]
        vectors = got["embeddings"]
        return chunks, np.asarray(vectors if vectors is not None and len(vectors) else [], dtype=np.float32)

    def get_by_hashes(self, hashes: list[str]) -> dict[str, Chunk]:
        """Chunks by hash (a hash shared by several documents returns one of them)."""
        if not hashes:
            return {}
        found = self._collection.get(
            where={"chunk_hash": {"$in": sorted(set(hashes))}}, include=["documents", "metadatas"]
        )
        chunks = [_chunk(text, meta) for text, meta in zip(found["documents"], found["metadatas"], strict=True)]
        return {c.hash: c for c in sorted(chunks, key=lambda c: (c.path, c.index), reverse=True)}

    def all_chunks(self) -> list[Chunk]:
        """Every chunk of the workspace, in document order."""
        chunks: list[Chunk] = []
        offset = 0
        while True:
            page = self._collection.get(include=["documents", "metadatas"], limit=5000, offset=offset)
            chunks.extend(_chunk(t, m) for t, m in zip(page["documents"], page["metadatas"], strict=True))
            if len(page["ids"]) < 5000:
                break
            offset += 5000
        return sorted(chunks, key=lambda c: (c.path, c.index))

    def search(
        self,
        embedding: np.ndarray,
        k: int,
        hashes: list[str] | None = None,
        words: list[list[str]] | None = None,
        match_all: bool = False,
    ) -> list[ScoredChunk]:
        """The k chunks nearest to `embedding`, most similar first; optionally only among `hashes`, or only chunks
        containing one spelling of one word of `words` (of every word with `match_all`; case-sensitive)."""
        self._still_searchable()
        where = {"chunk_hash": {"$in": hashes}} if hashes else None
        where_document: Any = None
        if words is not None:
            groups = [_any_of(spellings) for spellings in words if spellings]
            if not groups:
                return []
            where_document = groups[0] if len(groups) == 1 else {"$and" if match_all else "$or": groups}
        result = self._collection.query(
            query_embeddings=[np.asarray(embedding, dtype=np.float32)],
            n_results=k,
            where=where,
            where_document=where_document,
            include=["documents", "metadatas", "distances"],
        )
        return _scored_rows(result)[0]

    def search_batch(self, embeddings: Sequence[np.ndarray], k: int) -> list[list[ScoredChunk]]:
        """The k nearest chunks of each embedding, most similar first, in one query: Chroma searches the index for
        all of them at once and reads their chunks in one pass (ten claims at 100k chunks: one call instead of ten
        of about 19 ms each).

        Neither search counts the store first: Chroma returns what it holds when that is fewer than k (none from an
        empty store), and its count walks every row (12 ms at 100k chunks, most of a query's time)."""
        if not len(embeddings):
            return []
        self._still_searchable()
        result = self._collection.query(
            query_embeddings=[np.asarray(e, dtype=np.float32) for e in embeddings],
            n_results=k,
            include=["documents", "metadatas", "distances"],
        )
        return _scored_rows(result)

    def embeddings_for(self, chunks: list[Chunk]) -> np.ndarray:
        """Stored embeddings of the given chunks, in the same order."""
        ids = [vector_id(c.document_id, c.hash) for c in chunks]
        got = self._collection.get(ids=ids, include=["embeddings"])
        by_id = dict(zip(got["ids"], got["embeddings"], strict=True))
        return np.asarray([by_id[i] for i in ids], dtype=np.float32)


def legacy_collections(settings: Settings) -> list[str]:
    """Collections named the old way (before workspace names were checked) that are still in the store."""
    with _setting_up(settings):
        client = _client(settings)
    return sorted(n for n in _names(client) if n.startswith(LEGACY_PREFIX))


def collection_names(settings: Settings) -> list[str]:
    """Every collection in the store (each workspace's, and any left by the old naming)."""
    with _setting_up(settings):
        client = _client(settings)
    return sorted(_names(client))


def drop_collection(settings: Settings, name: str) -> None:
    """Delete a whole collection (doctor's repair of an old-naming collection, once nothing needs it)."""
    with _setting_up(settings):
        client = _client(settings)
    client.delete_collection(name)


def _names(client: Any) -> set[str]:
    return {getattr(c, "name", c) for c in client.list_collections()}


def _any_of(spellings: list[str]) -> dict[str, Any]:
    """A Chroma document filter matching any of the spellings."""
    filters = [{"$contains": s} for s in dict.fromkeys(spellings)]
    return filters[0] if len(filters) == 1 else {"$or": filters}


def _metadata(chunk: Chunk) -> dict[str, str | int]:
    meta: dict[str, str | int] = {
        "chunk_hash": chunk.hash,
        "document_id": chunk.document_id,
        "chunk_index": chunk.index,
        "start_char": chunk.start_char,
        "end_char": chunk.end_char,
        "path": chunk.path,
        "title": chunk.title,
    }
    if chunk.doc_date:
        meta["doc_date"] = chunk.doc_date.isoformat()
    if chunk.section:
        meta["section"] = chunk.section
    if chunk.table_rows:  # Chroma metadata holds scalars only: the rows travel as JSON text
        meta["table_rows"] = json.dumps([row.model_dump() for row in chunk.table_rows], ensure_ascii=False)
    return meta


def _scored_rows(result: Any) -> list[list[ScoredChunk]]:
    """The chunks of a Chroma query result with their cosine similarity, one list per query embedding."""
    rows = zip(result["documents"] or [], result["metadatas"] or [], result["distances"] or [], strict=True)
    return [
        [ScoredChunk(_chunk(text, meta), 1.0 - float(d)) for text, meta, d in zip(texts, metas, dists, strict=True)]
        for texts, metas, dists in rows
    ]


def _chunk(text: str, meta: Any) -> Chunk:
    doc_date = meta.get("doc_date")
    return Chunk(
        hash=meta["chunk_hash"],
        text=text,
        document_id=meta["document_id"],
        index=int(meta["chunk_index"]),
        start_char=int(meta["start_char"]),
        end_char=int(meta["end_char"]),
        path=meta.get("path", ""),
        title=meta.get("title", ""),
        doc_date=date.fromisoformat(doc_date) if doc_date else None,
        table_rows=[TableRow.model_validate(row) for row in json.loads(meta.get("table_rows") or "[]")],
        section=meta.get("section", ""),
    )
