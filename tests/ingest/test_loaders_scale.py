"""Cost grows linearly with the input: deep HTML nesting, long markdown lines, a single-line text of megabytes.

Each bound is generous (several times the linear cost on a busy 2-core machine) and far below what the
quadratic versions took: 20,000 nested <div>s took over a minute, a 20,000-character "#" run in a heading
12 s, 20,000 "title:" lines in front matter 50 s, and 500 KB of text on one line over 20 s of chunking.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from ingest.chunking import chunk_document, split_text
from ingest.loaders import parse_file
from ledger.core.models import Tokenizer
from tests.ingest.test_loaders import SAMPLE_DOCS


def timed(work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - started


def test_deeply_nested_html_is_read_in_linear_time() -> None:
    n = 20_000
    page = ("<html><body>" + "<div>" * n + "Deep text." + "</div>" * n + "</body></html>").encode()
    seconds = timed(lambda: parse_file(Path("deep.html"), page))
    assert seconds < 30, f"{n} nested <div>s took {seconds:.1f} s"
    assert parse_file(Path("deep.html"), page).text == "Deep text."


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("<table><tr><td>cell " * 5_000, "cell"),
        ("<ul><li>item " * 5_000, "- item"),
        ("<div>text " * 10_000, "text"),
    ],
    ids=["nested-tables", "nested-lists", "unclosed-divs"],
)
def test_other_deep_structures_load_and_keep_their_text(markup: str, text: str) -> None:
    doc = parse_file(Path("deep.html"), markup.encode())
    assert text in doc.text


@pytest.mark.parametrize(
    "content",
    [
        "# A heading " + "#" * 20_000 + "x\n\nBody.\n",
        "---\n" + "title: x\n" * 20_000 + "\nBody.\n",
        "Intro\n" + "=" * 100_000 + "\n",
    ],
    ids=["heading-hash-run", "front-matter-title-lines", "setext-rule"],
)
def test_markdown_titles_are_found_in_linear_time(content: str) -> None:
    seconds = timed(lambda: parse_file(Path("long.md"), content.encode()))
    assert seconds < 5, f"took {seconds:.1f} s"


def test_markdown_titles_still_read_as_before() -> None:
    cases = {
        "# Remote Work Policy ##\n\nBody.": "Remote Work Policy",
        "---\ntitle: 'Quoted title'\nauthor: me\n---\n\n# Other\n": "Quoted title",
        "---\nauthor: me\n---\n\n# Heading wins\n": "Heading wins",
        "Setext Title\n============\n\nBody.": "Setext Title",
        "# Untitled\n\nSetext Title\n---\n": "Setext Title",
    }
    for content, title in cases.items():
        assert parse_file(Path("t.md"), content.encode()).title == title, content


def _plain_counter_chunks(text: str, tokenizer: Tokenizer) -> list[str]:
    """The chunks llama-index makes when every count goes through the tokenizer's own encode()."""
    from llama_index.core.node_parser import SentenceSplitter

    splitter = SentenceSplitter(
        chunk_size=200, chunk_overlap=30, tokenizer=lambda t: tokenizer.encode(t, add_special_tokens=False)
    )
    return [c for c in splitter.split_text(text) if c.strip()]


def test_fast_piece_counting_gives_the_same_chunks(embedder: object) -> None:
    tokenizer = embedder.tokenizer  # type: ignore[attr-defined]
    for path in sorted(SAMPLE_DOCS.glob("*.md")):
        text = path.read_text()
        assert split_text(text, tokenizer) == _plain_counter_chunks(text, tokenizer), path.name


class _CountingTokenizer:
    """The model's tokenizer, counting the calls of its Python-level encode() (about 0.3 ms of overhead each)."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer, self.calls = tokenizer, 0
        self.backend_tokenizer = getattr(tokenizer, "backend_tokenizer", None)

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        self.calls += 1
        return self.tokenizer.encode(text, add_special_tokens=add_special_tokens)  # type: ignore[no-any-return]


def test_a_long_single_line_is_chunked_without_a_tokenizer_call_per_word(embedder: object) -> None:
    """Without a full stop the splitter counts word by word; that must not cost a Python tokenizer call per word
    (a 5 MB single-line file took minutes that way). Counted, not timed: the speed itself is a benchmark's to
    measure on a shared machine. The chunks must be those of the splitter fed by encode()."""
    tokenizer = embedder.tokenizer  # type: ignore[attr-defined]
    rng = random.Random(5)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(999)
    ]
    line = " ".join(rng.choice(vocabulary) for _ in range(25_000))  # about 150 KB, no full stop
    counting = _CountingTokenizer(tokenizer)
    fast = split_text(line, counting)  # type: ignore[arg-type]
    assert counting.calls == 0  # every count went through the Rust backend
    assert fast == _plain_counter_chunks(line, tokenizer) and len(fast) > 100


@pytest.mark.slow
def test_a_5_mb_single_line_text_is_chunked_in_about_a_minute(embedder: object) -> None:
    tokenizer = embedder.tokenizer  # type: ignore[attr-defined]
    rng = random.Random(7)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(5000)
    ]
    line = " ".join(rng.choice(vocabulary) for _ in range(830_000))[: 5 * 10**6]
    doc = parse_file(Path("one_line.txt"), line.encode())
    started = time.perf_counter()
    chunks = chunk_document(doc, "doc", tokenizer)
    seconds = time.perf_counter() - started
    assert seconds < 180, f"5 MB on one line took {seconds:.0f} s to chunk (13.7 minutes before, with embedding)"
    assert len(chunks) > 4000
