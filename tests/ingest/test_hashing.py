"""Chunk hashing: the DESIGN.md contract."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from ingest.hashing import chunk_hash, normalise_text


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The fee is $150.", "The fee is $150."),
        ("The fee is $150.", "  The fee   is\n$150.\t"),
        ("Café policy", "Cafe\u0301 policy"),  # NFC: composed and decomposed é are one text
        ("line one\r\nline two", "line one line two"),
    ],
)
def test_same_text_same_hash_whatever_the_whitespace_or_unicode_form(a: str, b: str) -> None:
    assert chunk_hash(a) == chunk_hash(b)


def test_different_text_different_hash() -> None:
    assert chunk_hash("The fee is $150.") != chunk_hash("The fee is $151.")


def test_hash_is_first_12_hex_of_sha256_of_normalised_text() -> None:
    expected = hashlib.sha256(b"a b c").hexdigest()[:12]
    assert chunk_hash("  a \n b\tc ") == expected
    assert normalise_text("  a \n b\tc ") == "a b c"


def test_hash_is_stable_across_processes() -> None:
    code = "from ingest.hashing import chunk_hash; print(chunk_hash('Refunds take five business days.'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == chunk_hash("Refunds take five business days.")
