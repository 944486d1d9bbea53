"""Content hashes: the chunk hash of DESIGN.md and the file digest used for idempotent re-ingest."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_WHITESPACE = re.compile(r"\s+")
CHUNK_HASH_LENGTH = 12


def normalise_text(text: str) -> str:
    """NFC-normalise, collapse runs of whitespace to one space, strip the ends."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def chunk_hash(text: str) -> str:
    """First 12 hex chars of sha256 over the normalised chunk text: same text, same hash."""
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()[:CHUNK_HASH_LENGTH]


def bytes_digest(data: bytes) -> str:
    """Full sha256 hex digest of a file's bytes."""
    return hashlib.sha256(data).hexdigest()


def document_id(workspace: str, path: str) -> str:
    """Stable id of a document: one per (workspace, absolute path)."""
    return hashlib.sha256(f"{workspace}\0{path}".encode()).hexdigest()[:16]


def vector_id(doc_id: str, hash_: str) -> str:
    """Chroma id of one chunk of one document; deterministic so a re-run upserts, never duplicates."""
    return f"{doc_id}:{hash_}"
