"""No product file names what only the sample documents name: their companies, products, people, places and titles.

The product must work on a user's own documents, so a rule or word list that mentions a proper noun of
`sample_docs/` was tuned on them. Proper nouns are read from the sample documents themselves, as ingestion loads
them: capitalised words that appear mid-sentence and never in lower case anywhere in the samples (month and weekday
names and a short list of ordinary English words aside), and runs of two or more capitalised words that start
mid-sentence ("Finance Operations"). Every `.py` file under ledger/, ingest/ and ui/, and every lexicon file, must be
free of them, in any case and with any spacing.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from ingest.loaders import SUPPORTED_EXTENSIONS, parse_file, read_file
from ledger.text.lexicon import load_lexicon

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DOCS = ROOT / "sample_docs"
GENERAL_WORDS = Path(__file__).with_name("general_capitalised_words.txt")
PRODUCT_DIRS = ("ledger", "ingest", "ui")

_ADDRESS = re.compile(r"\S+@\S+|\b(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|example)\b")
_WORD = re.compile(r"[A-Za-z](?:[A-Za-z'’-]*[A-Za-z])?")
_CAPITALISED = r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:-[A-Z]?[a-z]+)*\b"  # "Quill", "QuillDesk", "Wi-Fi"; not "SLA"
_RUN = re.compile(rf"{_CAPITALISED}(?:[ \t]+(?:(?:of|and|&)[ \t]+)?{_CAPITALISED})*")
# Where a sentence starts: after end punctuation, a line break, a table cell border or a list marker.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?:;])\s+|\n|\s*\|\s*|^\s*[-*+•]\s+")
_OPENING = " *_(\"'“-0123456789.)"  # what may stand before a sentence's first word ("1. ", "**", "(")


def _sample_texts() -> list[str]:
    paths = sorted(p for p in SAMPLE_DOCS.iterdir() if p.suffix.lower() in SUPPORTED_EXTENSIONS)
    return [_ADDRESS.sub(" ", parse_file(p, read_file(p)[0]).text) for p in paths]


def proper_nouns(texts: list[str], ordinary: frozenset[str], calendar: frozenset[str]) -> tuple[set[str], set[str]]:
    """(single-word names, multi-word names) of the texts: `ordinary` and `calendar` words (lower case) are never
    names alone, and runs of calendar words ("Tuesday and Thursday") are none either."""
    lower = {w.lower() for t in texts for w in _WORD.findall(t) if w[0].islower()}
    singles: set[str] = set()
    runs: set[str] = set()
    for text in texts:
        for sentence in _SENTENCE_BREAK.split(text):
            if not sentence or sentence.lstrip().startswith("#"):
                continue  # a markdown heading is Title Case throughout
            for run in _RUN.finditer(sentence):
                if not sentence[:run.start()].strip(_OPENING):
                    continue  # the sentence's first word is capitalised whatever it is
                words = re.findall(_CAPITALISED, run.group(0))
                if len(words) > 1 and not all(w.lower() in calendar for w in words):
                    runs.add(run.group(0))
                singles |= {w for w in words if w.lower() not in lower | ordinary | calendar}
    return singles, runs


def name_pattern(name: str) -> re.Pattern[str]:
    """A name in any case, its words separated by any spaces, hyphens or underscores, never inside another word."""
    words = r"[\s_-]+".join(re.escape(w) for w in name.split())
    return re.compile(rf"(?<![A-Za-z]){words}(?![A-Za-z])", re.IGNORECASE)


def mentions(path: Path, names: set[str]) -> list[str]:
    """"path:line: name" for every name a file mentions."""
    text = path.read_text(encoding="utf-8")
    found = []
    for name in sorted(names):
        for m in name_pattern(name).finditer(text):
            found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:"
                         f"{text.count(chr(10), 0, m.start()) + 1}: {name}")
    return found


@cache
def sample_names() -> frozenset[str]:
    """The proper nouns of the sample documents, single and multi-word."""
    lexicon = load_lexicon()
    ordinary = frozenset(
        line.strip().lower() for line in GENERAL_WORDS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    )
    calendar = lexicon.word_set("calendar", "months") | lexicon.word_set("calendar", "weekdays")
    singles, runs = proper_nouns(_sample_texts(), ordinary, calendar)
    return frozenset(singles | runs)


def product_files() -> list[Path]:
    """Every Python file of the product and every lexicon file."""
    files = [p for d in PRODUCT_DIRS for p in sorted((ROOT / d).rglob("*.py"))]
    return files + sorted((ROOT / "ledger" / "text" / "lexicon").glob("*.toml"))


def test_the_sample_documents_have_proper_nouns_to_look_for() -> None:
    names = sample_names()
    assert len(names) >= 10, sorted(names)  # the loaders and the rules above still find the samples' names
    assert not {"January", "Tuesday", "Quarterly", "United"} & names  # calendar and ordinary words are no names


def test_the_scan_finds_a_planted_name(tmp_path: Path) -> None:
    name = max(sorted(n for n in sample_names() if " " not in n), key=len)
    multi = max(sorted(n for n in sample_names() if " " in n), key=len)
    planted = tmp_path / "planted.py"
    planted.write_text(f"# tuned on {name.lower()}\nROLE = '{multi.lower().replace(' ', '_')}'\n", encoding="utf-8")
    assert len(mentions(planted, {name, multi})) == 2
    assert not mentions(planted, {"Tune", "Rol"})  # whole words only


@pytest.mark.parametrize("path", product_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_product_file_names_a_proper_noun_of_the_sample_documents(path: Path) -> None:
    assert mentions(path, set(sample_names())) == []
