"""A time limit per file: a parser that runs away fails its own file, the batch goes on."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import ingest.parse_worker as parse_worker
from ingest.loaders import parse_file
from ingest.parse_worker import ParseWorker, parse_isolated
from ledger.core.errors import LoaderError
from ledger.core.settings import IngestSettings, Settings
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder
from tests.ingest.test_loaders import SAMPLE_DOCS

# Linear, but slow: html.parser needs a few seconds for this many tags, far more than the limits below.
SLOW_HTML = ("<div>" * 60_000 + "Deep." + "</div>" * 60_000).encode()
GOOD = SAMPLE_DOCS / "remote_work_policy.md"


@pytest.fixture
def worker() -> ParseWorker:
    started = ParseWorker(memory_mb=4096)
    yield started  # type: ignore[misc]
    started.close()


def test_documents_parsed_in_the_child_are_the_ones_parsed_here(worker: ParseWorker) -> None:
    for path in sorted(SAMPLE_DOCS.iterdir()):
        data = path.read_bytes()
        assert worker.parse(path, data, 0.0, 60) == parse_file(path, data, 0.0), path.name


def test_a_file_over_the_time_limit_fails_alone_and_the_next_one_parses(worker: ParseWorker) -> None:
    worker.parse(GOOD, GOOD.read_bytes(), None, 60)  # the child is up; the clock now measures parsing alone
    started = time.perf_counter()
    with pytest.raises(LoaderError) as caught:
        worker.parse(Path("slow.html"), SLOW_HTML, None, 0.3)
    assert caught.value.reason == "parsing took longer than 0.3 s, stopped"
    assert time.perf_counter() - started < 2.5
    assert worker.parse(GOOD, GOOD.read_bytes(), None, 60).title == "Remote Work Policy"


def test_a_parser_that_dies_fails_its_file_with_a_reason(worker: ParseWorker) -> None:
    worker.parse(GOOD, GOOD.read_bytes(), None, 60)
    proc = worker._proc
    assert proc is not None
    killer = threading.Timer(0.3, proc.kill)
    killer.start()
    with pytest.raises(LoaderError) as caught:
        worker.parse(Path("slow.html"), SLOW_HTML, None, 60)
    killer.join()
    assert caught.value.reason == "the parser stopped unexpectedly (killed by SIGKILL)"
    assert worker.parse(GOOD, GOOD.read_bytes(), None, 60).title == "Remote Work Policy"


def test_unexpected_parser_errors_become_a_reason_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: Path, data: bytes, mtime: float | None) -> None:
        raise ValueError("bad\nstate")

    monkeypatch.setattr(parse_worker, "parse_file", broken)
    assert parse_worker._answer("x.pdf", b"%PDF-", None) == ("failed", "could not be parsed (ValueError: bad state)")

    def exhausted(path: Path, data: bytes, mtime: float | None) -> None:
        raise MemoryError

    monkeypatch.setattr(parse_worker, "parse_file", exhausted)
    assert parse_worker._answer("x.pdf", b"%PDF-", None)[1].startswith("parsing needed more memory than allowed")


def test_a_limit_of_zero_parses_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ParseWorker, "_start", lambda self: pytest.fail("a child was started"))
    doc = parse_isolated(GOOD, GOOD.read_bytes(), None, IngestSettings(parse_timeout_s=0))
    assert doc.title == "Remote Work Policy"


def test_the_batch_goes_on_past_a_file_that_takes_too_long(settings: Settings, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nThe first policy.\n")
    (docs / "b_slow.html").write_bytes(SLOW_HTML)
    (docs / "c.md").write_text("# Gamma\n\nThe third policy.\n")
    parse_isolated(GOOD, GOOD.read_bytes(), None, settings.ingest)  # start the shared child before the clock matters
    limited = settings.model_copy(update={"ingest": settings.ingest.model_copy(update={"parse_timeout_s": 0.3})})
    report = build_ingestor(limited, embedder=HashEmbedder()).run([docs])
    assert report.documents_added == 2
    assert [(Path(f.path).name, f.error) for f in report.failed] == [
        ("b_slow.html", "parsing took longer than 0.3 s, stopped")
    ]
