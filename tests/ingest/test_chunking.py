"""Chunking: sizes in model word pieces, offsets that slice back to the chunk, stable hashes."""

from __future__ import annotations

from ingest.chunking import chunk_document, locate
from ingest.embedding import Embedder
from ingest.hashing import chunk_hash
from ingest.types import LoadedDocument


def _doc(text: str) -> LoadedDocument:
    return LoadedDocument(path="/x/doc.md", title="Doc", text=text, sha256="0" * 64, mime_type="text/markdown")


TEXT = "\n\n".join(
    f"Section {i}. Employees must submit form {i} within {i + 2} business days of the event. "
    f"Late submissions are reviewed by the compliance office, which may refuse reimbursement. "
    f"The threshold for approval in region {i} is ${i * 100} per claim."
    for i in range(1, 40)
)


def test_chunks_fit_the_model_window_and_slice_back_to_their_text() -> None:
    tokenizer = Embedder().tokenizer
    chunks = chunk_document(_doc(TEXT), "d1", tokenizer, chunk_size=200, chunk_overlap=30)
    assert len(chunks) > 5
    for chunk in chunks:
        assert len(tokenizer.encode(chunk.text, add_special_tokens=False)) <= 200
        assert TEXT[chunk.start_char : chunk.end_char] == chunk.text
        assert chunk.hash == chunk_hash(chunk.text)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[0].start_char == 0 and chunks[-1].end_char == len(TEXT.rstrip())


def test_rechunking_the_same_text_gives_the_same_hashes() -> None:
    tokenizer = Embedder().tokenizer
    first = [c.hash for c in chunk_document(_doc(TEXT), "d1", tokenizer)]
    again = [c.hash for c in chunk_document(_doc(TEXT), "d1", tokenizer)]
    assert first == again


def test_locate_tolerates_rejoined_whitespace() -> None:
    text = "Alpha  beta\ngamma delta"
    assert locate(text, "beta gamma", 0) == (7, 17)
