"""Test doubles: a fast deterministic embedder (real tokenizer, hashed vectors) and queue-driven fake roles."""

from __future__ import annotations

import hashlib
from datetime import date

import numpy as np

from ingest.embedding import Embedder
from ingest.hashing import chunk_hash
from ingest.tables import render_tables
from ledger.backends.base import (
    CritiqueRequest,
    Draft,
    Extraction,
    ExtractRequest,
    RevisionRequest,
    WriteRequest,
)
from ledger.core.types import Chunk, Critique


class HashEmbedder(Embedder):
    """Embeds text as a unit vector seeded by its hash: deterministic, instant, and counts its calls."""

    dim = 384

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        self.calls.append(len(texts))
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vec = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            rows.append(vec / np.linalg.norm(vec))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)


class Queue:
    """A queue of canned outputs; popping an empty queue fails the test loudly."""

    def __init__(self, *items: object) -> None:
        self.items = list(items)
        self.calls: list[tuple] = []

    def pop(self, *args: object) -> object:
        self.calls.append(args)
        assert self.items, "fake called more often than the test expected"
        return self.items.pop(0)


class FakeWriter:
    """Returns queued drafts."""

    def __init__(self, *drafts: str, answered: bool = True) -> None:
        self.queue = Queue(*drafts)
        self.answered = answered

    def run(self, request: WriteRequest) -> Draft:
        return Draft(str(self.queue.pop(request.question, request.evidence)), self.answered)


class FakeSkeptic:
    """Always returns an empty critique."""

    def __init__(self) -> None:
        self.calls = 0

    def run(self, request: CritiqueRequest) -> Critique:
        self.calls += 1
        return Critique(summary="fine")


class FakeExtractor:
    """Returns the claims the judge is told to judge (none by default) with full completeness."""

    def run(self, request: ExtractRequest) -> Extraction:
        return Extraction([], 1.0, [])


class FakeReviser:
    """Returns queued revisions."""

    def __init__(self, *drafts: str) -> None:
        self.queue = Queue(*drafts)

    def run(self, request: RevisionRequest) -> Draft:
        return Draft(str(self.queue.pop(request.draft, request.decision)))


def make_chunk(
    text: str, title: str = "", day: date | None = None, doc: str = "doc", index: int = 0, start: int = 0
) -> Chunk:
    """A chunk as ingest makes it: tables rendered as sentences (cells kept), and its real hash."""
    text, rows = render_tables(text)
    return Chunk(hash=chunk_hash(text), text=text, document_id=doc, index=index, start_char=start,
                 end_char=start + len(text), path=f"/docs/{doc}.md", title=title, doc_date=day, table_rows=rows)


def pdf_with_stream(stream: str, title: str | None = None, *, bad_xref: bool = False) -> bytes:
    """A one-page PDF in Helvetica whose page draws `stream` (PDF text operators)."""
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        "/Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        f"<< /Title ({title}) >>" if title else "<< >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref_at = len(out) + (7 if bad_xref else 0)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode()
    return out
