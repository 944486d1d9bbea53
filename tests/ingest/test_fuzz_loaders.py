"""Bounded fuzzing of parse_file: any bytes under any supported extension give a document or a LoaderError.

Arbitrary bytes, and valid files of each format mutated (bytes flipped, cut, inserted, repeated; for .docx
and .pdf also inside the XML body and the content stream, so the damage gets past the container). Never
another exception, never a hang: each example has a hard alarm. Runs under the 'ci' hypothesis profile
(tests/conftest.py); `pytest --hypothesis-profile=thorough tests/ingest/test_fuzz_loaders.py` searches harder.
"""

from __future__ import annotations

import io
import signal
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.loaders import SUPPORTED_EXTENSIONS, parse_file
from ingest.types import LoadedDocument
from ledger.core.errors import LoaderError
from tests.ingest.test_loaders import HTML_PAGE, SAMPLE_DOCS, make_docx, make_pdf

ALARM_S = 20


class Hung(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` in a loader can swallow it."""


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hung(f"parse_file still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check(extension: str, data: bytes) -> None:
    """parse_file returns a usable document or raises LoaderError with a one-line reason: nothing else."""
    with alarm(ALARM_S):
        try:
            doc = parse_file(Path(f"fuzzed{extension}"), data, 0.0)
        except LoaderError as exc:
            assert exc.reason and "\n" not in exc.reason
            return
    assert isinstance(doc, LoadedDocument)
    assert doc.text.strip() and doc.title and "\n" not in doc.title


SEEDS: dict[str, bytes] = {
    ".txt": (SAMPLE_DOCS / "travel_expense_policy_2024.txt").read_bytes()[:3000],
    ".md": (SAMPLE_DOCS / "remote_work_policy.md").read_bytes()[:3000],
    ".markdown": b"---\ntitle: Notes\n---\n# Heading ##\n\nSetext\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    ".html": (SAMPLE_DOCS / "data_retention_policy.html").read_bytes()[:4000],
    ".htm": HTML_PAGE,
    ".pdf": make_pdf(["Travel policy", "Effective date: 2026-03-01", "The hotel cap is $220."], title="Policy"),
    ".docx": make_docx(["Vendor rules", "Issue date: 12 August 2026"], title="Rules", table=[["Tier", "Spend"]]),
}
assert set(SEEDS) == set(SUPPORTED_EXTENSIONS)


@st.composite
def mutations(draw: st.DrawFn, seed: bytes) -> bytes:
    """The seed with a few random edits: flips, cuts, inserts of junk, repeats of its own slices."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "truncate"]))
        if op == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
        elif op == "repeat":
            piece = bytes(data[at : at + draw(st.integers(1, 200))])
            data[at:at] = piece * draw(st.integers(1, 50))
        elif op == "truncate":
            del data[at:]
    return bytes(data)


def _rezip(docx: bytes, edit: Callable[[bytes], bytes]) -> bytes:
    original = zipfile.ZipFile(io.BytesIO(docx))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in original.infolist():
            data = original.read(info.filename)
            archive.writestr(info.filename, edit(data) if info.filename == "word/document.xml" else data)
    return buffer.getvalue()


FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("extension", sorted(SUPPORTED_EXTENSIONS))
@FUZZ
@given(data=st.binary(max_size=4096))
def test_arbitrary_bytes(extension: str, data: bytes) -> None:
    check(extension, data)


@pytest.mark.parametrize("extension", sorted(SUPPORTED_EXTENSIONS))
@FUZZ
@given(st.data())
def test_mutated_valid_files(extension: str, data: st.DataObject) -> None:
    check(extension, data.draw(mutations(SEEDS[extension])))


@FUZZ
@given(st.data())
def test_docx_with_a_mutated_body(data: st.DataObject) -> None:
    xml = zipfile.ZipFile(io.BytesIO(SEEDS[".docx"])).read("word/document.xml")
    body = data.draw(mutations(xml))
    check(".docx", _rezip(SEEDS[".docx"], lambda _: body))


@FUZZ
@given(st.data())
def test_pdf_with_a_mutated_content_stream(data: st.DataObject) -> None:
    pdf = SEEDS[".pdf"]
    start = pdf.index(b"stream\n") + len(b"stream\n")
    end = pdf.index(b"\nendstream")
    stream = data.draw(mutations(pdf[start:end]))
    check(".pdf", pdf[:start] + stream + pdf[end:])
