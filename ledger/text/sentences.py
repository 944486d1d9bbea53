"""Sentence splitting for answers and evidence: NLTK Punkt without downloaded data, citation-aware.

Markdown structure is decided first (headings, list items and table rows are sentences of their
own), then Punkt splits paragraphs and list items, then citation anchors that Punkt put at the start
of the next sentence are moved back to the sentence they follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ledger.text.lexicon import lexicon
from ledger.text.nltk_parts import PunktParameters, PunktSentenceTokenizer, PunktTrainer, punkt

# `[cite:abc123def456]`, `[cite:a][cite:b]` or `[cite:a, b]`. Ids are not forced to 12 hex digits so
# that a malformed id still reaches the judge and is reported as a phantom citation.
CITE_RE = re.compile(r"\[cite:\s*([^\[\]]*?)\s*\]", re.IGNORECASE)
_CITE_IDS_SPLIT = re.compile(r"[\s,;]+")
_LEADING_CITES = re.compile(r"(?:\s*\[cite:[^\[\]]*\])+", re.IGNORECASE)


def abbreviations() -> frozenset[str]:
    """Abbreviations as Punkt stores them (lower case, no final period): the lexicon's, with month and weekday
    short forms."""
    lex = lexicon()
    return frozenset().union(lex.words("abbreviations", "abbreviations"), lex.words("calendar", "month_abbreviations"),
                             lex.words("calendar", "weekday_abbreviations"))


@cache
def _never_final() -> frozenset[str]:
    """Abbreviations that never end a sentence: a break Punkt makes right after one is undone."""
    return lexicon().word_set("abbreviations", "never_final")


@dataclass
class _Seg:
    start: int
    end: int
    kind: str  # "text" (Punkt splits it), "item", "heading" or "line" (one sentence each)
    block: int


def _add_house_params(params: PunktParameters) -> PunktParameters:
    """Add the abbreviations and sentence-start evidence that any tokenizer of ours needs: words that often start a
    sentence and are lower case mid-sentence let Punkt break after an abbreviation ("Acme Inc. The fee…")."""
    params.abbrev_types.update(abbreviations())
    for word in lexicon().words("abbreviations", "sentence_starters"):
        params.ortho_context[word] |= punkt._ORTHO_BEG_UC | punkt._ORTHO_MID_LC
    return params


def train_tokenizer(texts: Iterable[str]) -> PunktSentenceTokenizer:
    """Train Punkt on a corpus (abbreviations, collocations), then add the house abbreviations."""
    trainer = PunktTrainer()
    for text in texts:
        trainer.train(CITE_RE.sub(" ", text), finalize=False)
    trainer.finalize_training()
    return PunktSentenceTokenizer(_add_house_params(trainer.get_params()))


def default_tokenizer() -> PunktSentenceTokenizer:
    """An untrained Punkt tokenizer with the house abbreviations (needs no NLTK data)."""
    return PunktSentenceTokenizer(_add_house_params(PunktParameters()))


@cache
def _default_tokenizer() -> PunktSentenceTokenizer:
    return default_tokenizer()  # built at first use, when the lexicon in force is read

_HEADING_RE = re.compile(r"[ \t]{0,3}#{1,6}(?=\s|$)")
# "- ", "* ", "+ ", "• ", "1. ", "2) ", "(a) ", "a) ": the marker is not part of the sentence.
_BULLET_RE = re.compile(r"[ \t]*(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(?[a-z]\))[ \t]+(?=\S)")
_RULE_RE = re.compile(r"[ \t]*(?:[-*_][ \t]*){3,}$")
_BOLD_LINE_RE = re.compile(r"[ \t]*(\*\*|__)[^*_]+\1:?[ \t]*$")
_HAS_WORD = re.compile(r"[A-Za-z0-9]")
# Table rows as loaders write them ("cell | cell | cell", with or without outer pipes): one sentence each.
_TABLE_ROW_RE = re.compile(r"^[ \t]*\|?[^|\n]*\S[ \t]+\|[ \t]+\S")
_TABLE_RULE_RE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")


HEAD_LINE_WORDS = 4  # a one-line block this short, unpunctuated, heads the line below it in plain text


def _short_head(block: str) -> bool:
    """Whether a block so far is one short line without punctuation that ends in a word of content: a plain-text
    heading ("Outlook", "Action points"), not a line of a wrapped paragraph (those run to the page width, or stop at
    any word: "… was held in" above "Leeds")."""
    words = block.split()
    return ("\n" not in block and 0 < len(words) <= HEAD_LINE_WORDS and block[:1].isupper()
            and not re.search(r"[.,;:!?)\]\"'”’]$", block)
            and words[-1].lower() not in lexicon().word_set("stopwords", "content"))  # not "The committee met on"


def _goes_on(item: str, line: str) -> bool:
    """Whether an unindented line goes on with the list item above it (a wrapped item whose indent was lost): the
    item stops mid-sentence, at a word that needs more ("… on the same quarter of" above "2025 (4,078 parcels)."),
    or the line starts in lower case."""
    words = item.split()
    return bool(words) and not re.search(r"[.;:!?)\]\"'”’]$", item) and (
        line[:1].islower() or words[-1].lower() in lexicon().word_set("stopwords", "content"))


def _segments(text: str) -> list[_Seg]:
    """Cut text into markdown blocks: paragraphs, list items, headings and single lines."""
    segs: list[_Seg] = []
    cur: _Seg | None = None
    pos = 0
    for raw in text.splitlines(keepends=True):
        line_start, pos = pos, pos + len(raw)
        line = raw.rstrip("\r\n")
        body_start = line_start + len(line) - len(line.lstrip())
        line_end = line_start + len(line.rstrip())
        if not line.strip() or _RULE_RE.match(line) or _TABLE_RULE_RE.match(line):
            cur = None
            continue
        is_row = line.lstrip().startswith("|") or _TABLE_ROW_RE.match(line)
        if _HEADING_RE.match(line) or _BOLD_LINE_RE.match(line) or is_row:
            segs.append(_Seg(body_start, line_end, "heading" if _HEADING_RE.match(line) else "line", len(segs)))
            cur = None
            continue
        bullet = _BULLET_RE.match(line)
        if bullet:
            cur = _Seg(line_start + bullet.end(), line_end, "item", len(segs))
            segs.append(cur)
        elif cur is not None and (cur.kind == "text" or line[:1] in " \t" or _goes_on(text[cur.start:cur.end], line))\
                and not (_short_head(text[cur.start:cur.end]) and line[:1].isupper()):
            # Soft-wrapped paragraph, or a continuation of a list item (not a line under a short heading line of
            # plain text, "Outlook" above "The board now expects …")
            cur.end = line_end
        else:
            cur = _Seg(body_start, line_end, "text", len(segs))
            segs.append(cur)
        if line.rstrip().endswith(":"):
            cur = None  # a lead-in line ("Required documents:") ends its block
    return segs


def _punkt_spans(text: str, segs: list[_Seg], tokenizer: PunktSentenceTokenizer) -> list[_Seg]:
    """Split the prose blocks into sentences with Punkt; other blocks are one sentence each."""
    out: list[_Seg] = []
    for seg in segs:
        if seg.kind == "heading" or seg.kind == "line":
            out.append(seg)
            continue
        block = text[seg.start : seg.end]
        for a, b in tokenizer.span_tokenize(block):
            piece = _Seg(seg.start + a, seg.start + b, seg.kind, seg.block)
            prev = out[-1] if out else None
            # Punkt may break after "e.g." or "Dr." before a capital; those never end a sentence.
            if prev is not None and prev.block == seg.block and _ends_never_final(text[prev.start : prev.end]):
                prev.end = piece.end
            else:
                out.append(piece)
    return out


@cache
def _often_final() -> re.Pattern[str]:
    """A sentence break after an abbreviation that often ends one, before a capitalised word (`often_final`)."""
    lex = lexicon()
    ends = "|".join(re.escape(a) for a in sorted(lex.words("abbreviations", "often_final"), key=len, reverse=True))
    calendar = {w.lower() for w in (*lex.words("calendar", "months"), *lex.words("calendar", "weekdays"))}
    names = "|".join(re.escape(w) for w in sorted(calendar, key=len, reverse=True)) or "(?!x)x"
    return re.compile(rf"(?<![\w.])(?i:{ends})\.(?P<gap>\s+)(?=[A-Z][a-z])(?!(?i:{names})\b)")


def _split_often_final(text: str, segs: list[_Seg]) -> list[_Seg]:
    """Break the prose sentences Punkt left joined after "a.m." or "etc." before a capitalised word."""
    out: list[_Seg] = []
    pattern = _often_final()
    for seg in segs:
        if seg.kind not in ("text", "item"):
            out.append(seg)
            continue
        start = seg.start
        for m in pattern.finditer(text, seg.start, seg.end):
            out.append(_Seg(start, m.start("gap"), seg.kind, seg.block))
            start = m.end()
        out.append(_Seg(start, seg.end, seg.kind, seg.block))
    return out


def _ends_never_final(sentence: str) -> bool:
    last = sentence.rsplit(None, 1)[-1].lower() if sentence.strip() else ""
    return last.endswith(".") and last[:-1] in _never_final()


def _attach_citations(text: str, segs: list[_Seg]) -> list[_Seg]:
    """Move anchors that open a sentence back to the sentence before it ("$150. [cite:x] Next")."""
    out: list[_Seg] = []
    for seg in segs:
        lead = _LEADING_CITES.match(text, seg.start, seg.end)
        if lead and out and out[-1].kind != "heading":
            out[-1].end = lead.end()
            seg.start = lead.end()
            while seg.start < seg.end and text[seg.start].isspace():
                seg.start += 1
        if _HAS_WORD.search(text, seg.start, seg.end):
            out.append(seg)
    return out


def split_sentences(text: str, tokenizer: PunktSentenceTokenizer | None = None) -> list[tuple[str, int, int]]:
    """Split text into sentences: (sentence, start, end) with `text[start:end] == sentence`."""
    segs = _punkt_spans(text, _segments(text), tokenizer or _default_tokenizer())
    segs = _attach_citations(text, _split_often_final(text, segs))
    out: list[tuple[str, int, int]] = []
    for seg in segs:
        start, end = seg.start, seg.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            out.append((text[start:end], start, end))
    return out


def parse_citations(sentence: str) -> tuple[str, list[str]]:
    """Strip citation anchors from a sentence: (tidied text, cited hashes in order, deduplicated)."""
    hashes: list[str] = []
    for match in CITE_RE.finditer(sentence):
        for ident in _CITE_IDS_SPLIT.split(match.group(1)):
            ident = ident.strip().lower()
            if ident and ident not in hashes:
                hashes.append(ident)
    clean = CITE_RE.sub(" ", sentence)
    clean = re.sub(r"\s+", " ", clean)
    # Removing "$150 [cite:a]." leaves "$150 ." — pull punctuation back onto the word.
    clean = re.sub(r"\s+([.,;:!?)\]])", r"\1", clean)
    clean = re.sub(r"([(\[])\s+", r"\1", clean)
    return clean.strip(), hashes


# "Half term: Monday 26 October to Friday 30 October": a label, a colon and its value on one line
_EMPHASIS = r"(?:\*\*|__|\*|_)?"  # Markdown bold or italic around a label: "**Admitted:** 9 November"
# (or a label and its value set apart by a dot leader, as plain-text price lists are: "DVDs ........ 75p per day")
_LABEL_LINE = re.compile(rf"^{_EMPHASIS}[^\W\d][^:\n]{{0,40}}(?::{_EMPHASIS}|\s*\.{{3,}})\s+\S")


HEADING_WORDS = 6  # a line this short above a run of "Label: value" lines heads them


def label_lines(spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Sentences with each line of a run of "Label: value" lines on its own: lines with no full stop between them are
    one sentence to the splitter, but each states its own field ("Half term: …", "Parents' evening: …"). Pure."""
    out: list[tuple[str, int, int]] = []
    for sentence, start, end in spans:
        lines = sentence.split("\n")
        filled = [line.strip() for line in lines if line.strip()]
        # under a heading line of its own ("SPECIFICATIONS" above "Heat output: 8.5 kW", "Weight: 98 kg")
        headed = len(filled) >= 3 and ":" not in filled[0] and len(filled[0].split()) <= HEADING_WORDS
        if len(filled) < 2 or not all(_LABEL_LINE.match(line) for line in filled[1 if headed else 0:]):
            out.append((sentence, start, end))
            continue
        at = start
        for line in lines:
            if line.strip():
                lead = len(line) - len(line.lstrip())
                out.append((line.strip(), at + lead, at + lead + len(line.strip())))
            at += len(line) + 1
    return out

