"""Chunking with llama-index's sentence-aware splitter, sized in the embedding model's own word pieces."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ingest.hashing import chunk_hash, normalise_text
from ingest.tables import row_sentence
from ingest.types import LoadedDocument
from ledger.core.models import Tokenizer
from ledger.core.types import Chunk

if TYPE_CHECKING:  # LlamaIndex takes seconds to import: only a run that has something to chunk pays for it
    from llama_index.core.node_parser import SentenceSplitter

_MEMO_CHARS = 40
_MEMO_ENTRIES = 200_000


def _piece_counter(tokenizer: Tokenizer) -> Callable[[str], Sequence[int]]:
    """The word pieces of a text, as the splitter asks for them (tens of thousands of times per long document).

    A Hugging Face fast tokenizer is called through its Rust backend: `encode()` in Python costs about 0.3 ms
    of overhead per call, which made a 5 MB single-line file spend minutes counting its words one by one.
    The backend is copied with truncation and padding off, so the count is the full one, as `encode()` gives.
    """
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None or not hasattr(backend, "to_str"):
        return lambda text: tokenizer.encode(text, add_special_tokens=False)
    from tokenizers import Tokenizer as RustTokenizer

    fast = RustTokenizer.from_str(backend.to_str())
    fast.no_truncation()
    fast.no_padding()
    # A sentence too long for one chunk is counted word by word; words repeat, so short texts are remembered.
    known: dict[str, list[int]] = {}

    def count(text: str) -> list[int]:
        if len(text) > _MEMO_CHARS:
            return fast.encode(text, add_special_tokens=False).ids  # type: ignore[no-any-return]
        if (pieces := known.get(text)) is None:
            if len(known) >= _MEMO_ENTRIES:
                known.clear()
            pieces = known[text] = fast.encode(text, add_special_tokens=False).ids
        return pieces

    return count


# Where a sentence too long for one chunk may be cut: after a line, or a comma, full stop or semicolon, but never
# inside a figure (llama-index's default cuts "£591.95" into "£591." and "95", and "61,482" into two).
_SUB_SENTENCE = r"(?:[^,.;。？！\n]|(?<=\d)[.,](?=\d))+[,.;。？！]?\n?|[,.;。？！\n]"


@lru_cache(maxsize=4)
def _splitter(tokenizer: Tokenizer, chunk_size: int, chunk_overlap: int) -> SentenceSplitter:
    from llama_index.core.node_parser import SentenceSplitter

    # Counting word pieces (not tiktoken tokens) keeps every chunk inside the model's 256-piece window.
    return SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, tokenizer=_piece_counter(tokenizer),
                            secondary_chunking_regex=_SUB_SENTENCE)


def split_text(text: str, tokenizer: Tokenizer, chunk_size: int = 200, chunk_overlap: int = 30) -> list[str]:
    """The chunk texts of a document, in order."""
    if not text.strip():
        return []
    splitter = _splitter(tokenizer, chunk_size, chunk_overlap)  # type: ignore[arg-type]  # tokenizers hash by identity
    return [c for c in splitter.split_text(text) if c.strip()]


def locate(text: str, piece: str, start: int) -> tuple[int, int]:
    """Character span of `piece` in `text` at or after `start`; falls back to a whitespace-insensitive match."""
    at = text.find(piece, start)
    if at < 0:
        at = text.find(piece)
    if at >= 0:
        return at, at + len(piece)
    # The splitter may rejoin whitespace differently: walk both strings ignoring whitespace.
    target = normalise_text(piece).replace(" ", "")
    squeezed, positions = [], []
    for i, ch in enumerate(text):
        if not ch.isspace():
            squeezed.append(ch)
            positions.append(i)
    at = "".join(squeezed).find(target)
    if at < 0 or not target:
        return start, start
    return positions[at], positions[at + len(target) - 1] + 1


def chunk_document(
    doc: LoadedDocument, doc_id: str, tokenizer: Tokenizer, chunk_size: int = 200, chunk_overlap: int = 30
) -> list[Chunk]:
    """Chunks of one document with hashes and character offsets; repeated identical chunks are kept once."""
    chunks: list[Chunk] = []
    seen: set[str] = set()
    cursor = 0
    headings = document_headings(doc.text)
    for piece in split_text(doc.text, tokenizer, chunk_size, chunk_overlap):
        start, end = locate(doc.text, piece, cursor)
        cursor = start + 1
        h = chunk_hash(piece)
        if h in seen:
            continue
        seen.add(h)
        chunks.append(
            Chunk(
                hash=h,
                text=piece,
                document_id=doc_id,
                index=len(chunks),
                start_char=start,
                end_char=end,
                path=doc.path,
                title=doc.title,
                doc_date=doc.doc_date,
                table_rows=[row for row in doc.table_rows if row_sentence(row) in piece],
                section=section_above(doc.text, start, piece, headings),
            )
        )
    return chunks


SECTION_SEPARATOR = " › "
_MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)")
_BULLETS = ("- ", "* ", "+ ", "• ")


def is_heading(line: str) -> bool:
    """A heading or a lead-in line gives the sentences under it their context ("## Warranty", "Items never
    reimbursed:", "Roof repairs"); a field with its value ("Status: Resolved") is no heading."""
    stripped = line.strip().strip("*_").strip()
    if not any(ch.isalnum() for ch in stripped):
        return False  # a rule of dashes or equals signs under a plain-text heading is none itself
    return line.lstrip().startswith("#") or stripped.endswith(":") or (
        bool(stripped) and not stripped.endswith((".", "!", "?", ";", ",")) and len(stripped.split()) <= 8
        and not is_field(stripped)
    )  # an item ending in ";" or "," continues a list ("electricity and gas;"): no heading


# "Label: value" on one line; the label is a few words, not a sentence ("Apologies: Fiona Grant", "**Status:**
# Resolved").
_FIELD = re.compile(r"[^\W\d][^:\n]{0,40}:\s+\S")
# A label that numbers what follows makes a heading of the line ("Part 2: Eligibility", "Appendix B: Forms").
_NUMBERED_LABEL = re.compile(r"(?:\d+[a-z]?|\b[A-Z]|\b[IVXLC]+)\s*:")


def is_field(line: str) -> bool:
    """Whether a line is a field and its value ("Severity: SEV-1", "Apologies: Fiona Grant"), not a heading
    ("Part 2: Eligibility", "# Step 1: Install"). Pure."""
    plain = re.sub(r"[*_]{1,3}", "", line.strip())
    field = _FIELD.match(plain)
    return bool(field) and not plain.startswith("#") and not _NUMBERED_LABEL.search(plain, 0, plain.index(":") + 1)


@dataclass(frozen=True)
class Headings:
    """A document's heading and lead-in lines, in order: where each line ends (after its line break), its text and
    its Markdown depth (0: not a Markdown heading); `markdown_before[k]` is the index of the nearest Markdown heading
    before line k, or -1. Made once per document (`document_headings`)."""

    ends: list[int]
    lines: list[str]
    depths: list[int]
    markdown_before: list[int]


def document_headings(text: str) -> Headings:
    """Every heading or lead-in line of a text, bullets left out (one pass). Pure."""
    ends: list[int] = []
    lines: list[str] = []
    depths: list[int] = []
    before: list[int] = []
    last_markdown, pos = -1, 0
    for raw in text.splitlines(keepends=True):
        pos += len(raw)
        line = raw.strip()
        if not line or line.startswith(_BULLETS) or len(line) > 200 or not is_heading(line):
            continue
        marked = _MARKDOWN_HEADING.match(line)
        ends.append(pos)
        lines.append(marked.group(2).strip() if marked else line.strip("*_").strip())
        depths.append(len(marked.group(1)) if marked else 0)
        before.append(last_markdown)
        if marked:
            last_markdown = len(lines) - 1
    return Headings(ends, lines, depths, before)


def section_above(text: str, start: int, piece: str, headings: Headings | None = None) -> str:
    """The headings a chunk that starts at `start` begins under, nearest last ("Release 4.0 › Changed defaults"):
    "" when the chunk opens with its own heading or nothing above it is one. The nearest heading or lead-in line
    comes with the Markdown headings above it (not the document's title, level 1); bullets are no headings. A line
    the chunk starts inside is the chunk's own text. Pass the document's `headings` when asking for many chunks of
    it. Pure."""
    lines = [line for line in piece.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    # (a line the next one goes on from in lower case is a sentence wrapped by a PDF, not a heading: "The absence of
    # swans this winter" above "follows a decline …")
    if not first or (is_heading(first) and not (len(lines) > 1 and lines[1].lstrip()[:1].islower())):
        return ""
    found = headings if headings is not None else document_headings(text)
    k = bisect_right(found.ends, start) - 1  # the last heading line that ends before the chunk starts
    path: list[str] = []
    if k >= 0 and found.depths[k] == 0:  # a plain heading or lead-in line, under the Markdown headings above it
        path.append(found.lines[k])
        k = found.markdown_before[k]
    level = 7
    while k >= 0:
        depth = found.depths[k]
        if depth == 1:
            break
        if depth < level:
            path.insert(0, found.lines[k])
            level = depth
        if depth == 2:
            break
        k = found.markdown_before[k]
    return SECTION_SEPARATOR.join(path)
