"""No document text takes ingest down: tables, chunk hashes and document dates on odd characters."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.dates import infer_document_date, resolve_document_date
from ingest.hashing import CHUNK_HASH_LENGTH, chunk_hash, normalise_text
from ingest.tables import render_tables
from ledger.core.types import TableRow
from tests.strategies import dated_text, table_text, texts

_HEX12 = re.compile(r"[0-9a-f]{12}")


@given(st.one_of(texts, table_text()))
def test_render_tables_returns_text_and_rows(text: str) -> None:
    rendered, rows = render_tables(text)
    assert isinstance(rendered, str) and all(isinstance(r, TableRow) for r in rows)
    for row in rows:
        assert row.cells and all(isinstance(c, str) for c in row.cells)


@given(texts)
def test_a_chunk_hash_is_12_hex_chars_of_the_normalised_text(text: str) -> None:
    hashed = chunk_hash(text)
    assert len(hashed) == CHUNK_HASH_LENGTH and _HEX12.fullmatch(hashed)
    assert chunk_hash(normalise_text(text)) == hashed


@given(st.one_of(texts, dated_text))
def test_infer_document_date_returns_a_date_and_its_source(text: str) -> None:
    found, source = infer_document_date(text)
    assert (found is None and source == "none") or (isinstance(found, date) and source.startswith("text:"))
    if found is not None:
        assert 1900 <= found.year <= 2199


@given(st.one_of(texts, dated_text), st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)))
def test_resolve_document_date_never_raises_on_any_mtime(text: str, mtime: float | None) -> None:
    found, source = resolve_document_date(text, mtime)
    assert source in ("none", "mtime") or source.startswith("text:")
    assert (found is None) == (source == "none")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Effective date: ٢٠٢٦-٠٣-٠١", date(2026, 3, 1)),  # Arabic-Indic digits are digits
        ("Issued on: March ３, ２０２６", date(2026, 3, 3)),  # and so are full-width ones
        ("Effective date: 2026-0³-01", None),  # a superscript is not
        ("Date: 1²/03/2026", None),
        ("Effective date: \u202e2026-03-01\u202c", None),
        ("Effective date: 2026-03-01\x00", date(2026, 3, 1)),
    ],
)
def test_odd_digits_in_a_labelled_date_read_without_error(text: str, expected: date | None) -> None:
    assert infer_document_date(text)[0] == expected
