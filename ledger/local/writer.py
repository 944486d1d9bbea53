"""The extractive writer of the local backend: picks the evidence sentences that answer a question and cites each.

It never writes a sentence of its own except one abstention ("The documents do not state …"), which the judge
does not count as a claim. Steps: cut the evidence into quotable units (`ledger.local.units`), drop the
documents a newer edition replaces, score every unit against the question (embedding similarity, share of
the question's focus words, a bonus for a figure when one is asked for), decide whether anything answers
it, then pick a few units (the best for each part of the question, then close runners-up), drop
near-duplicates and the older side of any figure conflict, and stitch them in document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ingest.embedding import Embedder
from ingest.types import Chunk
from ledger.claims import contains_numeric, content_stems, exclusion_reason
from ledger.local.gaps import QuestionPart, focus_stems, question_parts, stems_cover, wants_figure
from ledger.quantities import Quantity, compare_quantities, extract_quantities
from ledger.risks import NO_EVIDENCE_ANSWER
from ledger.sentences import ABBREVIATIONS, split_sentences
from ledger.settings import RevisionSettings, Settings
from ledger.terms import is_negated, key_terms

# Score = similarity + OVERLAP_WEIGHT × share of focus stems + FIGURE_BONUS when a wanted figure is present.
OVERLAP_WEIGHT = 0.3
FIGURE_BONUS = 0.08
ANSWER_BAR = 0.55  # the best unit must score this to count as an answer
STRONG_SIMILARITY = 0.62  # a unit this similar answers even when it shares few focus words (paraphrase)
RUNNER_UP_MARGIN = 0.1  # further units join when they score within this of the best
MAX_SENTENCES = 4
FIGURE_MATCH = 0.1  # a unit stating the question's own figure ("above $20,000") is likelier the answer
UNKNOWN_WORD_SIMILARITY = 0.75  # below this, a question word absent from all evidence means "not answered"
NEAR_DUPLICATE = 0.8  # Jaccard of content stems above which two units say the same thing


@dataclass
class WrittenAnswer:
    """What the writer produced: the answer, whether it answers, and why not when it does not."""

    text: str
    answered: bool
    missing: str = ""
    units: list[Unit] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)


def _revision_settings(settings: Settings | RevisionSettings | None) -> RevisionSettings:
    if isinstance(settings, Settings):
        return settings.revision
    return settings or RevisionSettings()


def cite(sentence: str, hashes: list[str]) -> str:
    """A sentence with its anchors before the final period ("… $220 per night [cite:abc]."), as judges expect."""
    text = sentence.strip()
    anchors = "".join(f"[cite:{h}]" for h in hashes)
    last = text.rsplit(None, 1)[-1] if text else ""
    # "Inc." or "e.g." end in an abbreviation whose period must stay; the anchor then follows it.
    if text.endswith(".") and last[:-1].lower().strip("(") not in ABBREVIATIONS and "." not in last[:-1]:
        return f"{text[:-1]} {anchors}."
    if text.endswith((".", "!")):
        return f"{text} {anchors}"
    return f"{text} {anchors}."


class LocalWriter:
    """Extractive writer: every sentence is an evidence sentence followed by its chunk's citation."""

    def __init__(self, embedder: Embedder | None = None, settings: Settings | RevisionSettings | None = None) -> None:
        self.embedder = embedder or Embedder()
        self.settings = _revision_settings(settings)
        self.last_unanswered = False
        self.last_missing = ""

    def run(self, question: str, evidence: list[Chunk]) -> str:
        """The cited answer; `last_unanswered` and `last_missing` tell the pipeline whether it answers."""
        written = self.write(question, evidence)
        self.last_unanswered = not written.answered
        self.last_missing = written.missing
        return written.text

    def write(self, question: str, evidence: list[Chunk]) -> WrittenAnswer:
        """The answer with how it was made; pure given the embedder."""
        if not evidence:
            return WrittenAnswer(NO_EVIDENCE_ANSWER, answered=False, missing="no evidence was retrieved")
        stale = superseded_documents(evidence)
        units = [u for u in evidence_units(evidence) if u.chunk.document_id not in stale]
        if not units:
            return WrittenAnswer(NO_EVIDENCE_ANSWER, answered=False, missing="the evidence has no quotable sentence")
        parts = question_parts(question) or [QuestionPart(question, focus_stems(question), wants_figure(question))]
        known: set[str] = set().union(*(u.stems for u in units))
        # Short stems ("fli" of "fly") are too often verbs the evidence words differently to mean anything.
        unknown = frozenset(s for p in parts for s in p.focus if len(s) >= 4 and not stems_cover(frozenset({s}), known))
        vectors = self.embedder.encode([question] + [p.text for p in parts] + [u.scored_text for u in units])
        q_vec, part_vecs, unit_vecs = vectors[0], vectors[1 : 1 + len(parts)], vectors[1 + len(parts) :]
        whole = QuestionPart(question, frozenset().union(*(p.focus for p in parts)), wants_figure(question))
        figures = extract_quantities(_COMPARATIVES.sub(_plain_comparative, question))
        scores = self._scores(whole, figures, q_vec, units, unit_vecs)
        chosen: list[int] = []
        for part, vec in zip(parts, part_vecs, strict=True):
            part_scores = self._scores(part, figures, vec, units, unit_vecs) if len(parts) > 1 else scores
            best = self._best_answer(part, part_scores, units, unit_vecs @ vec, unknown)
            if best is not None and best not in chosen:
                chosen.append(best)
        if not chosen:
            top = int(np.argmax(scores))
            return WrittenAnswer(_abstention(question, units[top]), answered=False, missing=_asked(question))
        top_score = max(scores[i] for i in chosen)
        for i in np.argsort(-np.asarray(scores), kind="stable"):
            if len(chosen) >= MAX_SENTENCES or scores[i] < max(ANSWER_BAR, top_score - RUNNER_UP_MARGIN):
                break
            if self._best_answer(whole, [scores[i]], [units[i]], unit_vecs[i : i + 1] @ q_vec, unknown) is not None:
                chosen.append(int(i))  # a runner-up must itself answer: on topic, with a figure when one is asked
        picked = self._prune([units[i] for i in dict.fromkeys(chosen)])
        rank = {id(u): scores[units.index(u)] for u in picked}
        best_of_doc: dict[str, float] = {}
        for u in picked:
            best_of_doc[u.chunk.document_id] = max(best_of_doc.get(u.chunk.document_id, 0.0), rank[id(u)])
        # Documents by their best sentence; within a document, the document's own order reads naturally.
        picked.sort(key=lambda u: (-best_of_doc[u.chunk.document_id], u.order))
        text = " ".join(cite(u.text, [u.chunk.hash]) for u in picked)
        return WrittenAnswer(text, answered=True, units=picked, scores=[rank[id(u)] for u in picked])

    @staticmethod
    def _scores(
        part: QuestionPart, figures: list[Quantity], vec: np.ndarray, units: list[Unit], unit_vecs: np.ndarray
    ) -> list[float]:
        """Similarity + focus-word share + a bonus for a wanted figure, ± agreement with the question's own figures."""
        sims = unit_vecs @ vec
        out = []
        for unit, sim in zip(units, sims, strict=True):
            score = float(sim)
            if part.focus:
                score += OVERLAP_WEIGHT * stems_cover(part.focus, unit.stems) / len(part.focus)
            if part.wants_figure and unit.has_figure:
                score += FIGURE_BONUS
            if figures and unit.quantities:
                # "longer than 6 hours" should find "6 hours or longer", not "under 6 hours".
                agreement = compare_quantities(figures, unit.quantities)
                score += FIGURE_MATCH if agreement.matched else -FIGURE_MATCH if agreement.conflicts else 0.0
            out.append(score)
        return out

    def _best_answer(
        self, part: QuestionPart, scores: list[float], units: list[Unit], sims: np.ndarray, unknown: frozenset[str]
    ) -> int | None:
        """The unit that answers a part, or None: relevant enough, on its focus words, with a figure if asked."""
        for i in np.argsort(-np.asarray(scores), kind="stable"):
            unit, score, sim = units[i], scores[i], float(sims[i])
            if score < ANSWER_BAR or sim < self.settings.min_relevance:
                return None
            if part.focus & unknown and sim < UNKNOWN_WORD_SIMILARITY:
                return None  # the question names something no evidence sentence mentions ("in Europe")
            covered = stems_cover(part.focus, unit.stems)
            on_topic = not part.focus or covered * 2 >= len(part.focus) or sim >= STRONG_SIMILARITY
            if on_topic and (not part.wants_figure or unit.has_figure):
                return int(i)
        return None

    @staticmethod
    def _prune(units: list[Unit]) -> list[Unit]:
        """Drop repeats (overlapping chunks), near-duplicates, and the older side of a figure conflict."""
        kept: list[Unit] = []
        for unit in units:
            clash = None
            for other in kept:
                same = unit.key == other.key or _jaccard(unit.stems, other.stems) >= NEAR_DUPLICATE
                if same and not figure_conflict(unit.text, other.text):
                    clash = other
                    break
                if unit.chunk.document_id != other.chunk.document_id and figure_conflict(unit.text, other.text):
                    clash = other
                    break
            if clash is None:
                kept.append(unit)
            elif _newer(unit, clash):
                kept[kept.index(clash)] = unit
        return kept


_COMPARATIVES = re.compile(r"\b(?:(longer|later|greater|higher|bigger|larger)|(shorter|earlier|smaller|lower))\s+than\b", re.I)


def _plain_comparative(match: re.Match[str]) -> str:
    """"longer than 6 hours" → "more than 6 hours", which the quantity parser reads as a lower bound."""
    return "more than" if match.group(1) else "less than"


def _newer(a: Unit, b: Unit) -> bool:
    return a.chunk.doc_date is not None and (b.chunk.doc_date is None or a.chunk.doc_date > b.chunk.doc_date)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


_WHAT_IS = re.compile(r"^\s*what\s+(?:is|are|was|were)\s+(.+?)\s*\?*\s*$", re.IGNORECASE)


def _asked(question: str) -> str:
    """What the question asks for, as a noun phrase when it has the form "What is X?", else quoted."""
    match = _WHAT_IS.match(question)
    if match:
        return match.group(1)
    q = question.strip()
    return f'the answer to "{q if q.endswith("?") else q + "?"}"'


def _abstention(question: str, closest: Unit) -> str:
    """Say what is missing without asserting anything; the judge excludes it as a meta-statement."""
    where = closest.chunk.title or "the documents"
    topic = closest.section.lower() if closest.section and not closest.section.isupper() else closest.section.title()
    on = f"on {topic.lower()} in {where}" if topic else f"in {where}"
    return f"The documents do not state {_asked(question)}; the closest passages are {on}."


# --- Evidence units: the sentences a writer may quote --------------------------------------------------------

_BULLET = re.compile(r"[ \t]*(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(?[a-z]\))[ \t]+$")
_TERMINAL = re.compile(r"[.!?][\"')\]*]*$")
_SEPARATOR_CELL = re.compile(r":?-{2,}:?")
_LABEL_LINE = re.compile(r"^[A-Z][\w ()/&.-]{1,40}:\s+\S")
_HEADING_PREFIX = re.compile(r"^(?:#{1,6}\s*)?(?:(?:\d{1,3}[.)]|[A-Z][.)]|§\s*\d+)(?:\d+[.)]?)*\s+)?")
_VERBISH_WORDS = """is are was were be been has have had must may can should will shall means mean requires require
    needs need
    applies apply covers cover includes include gets get pays pay"""
_VERBISH = frozenset(_VERBISH_WORDS.split())
_EDITION = re.compile(r"\b(?:edition|version|revision|rev|draft|updated|v\d+(?:\.\d+)*|(?:19|20)\d\d)\b", re.I)
MIN_UNIT_WORDS = 2  # "3." at a chunk's end is a cut-off heading number, not a sentence
MAX_UNIT_WORDS = 80  # longer "sentences" are tables or lists that lost their line breaks; no reader wants them


@dataclass(frozen=True)
class Unit:
    """A quotable sentence of a chunk (or a table row rendered as one), with where it stands."""

    text: str
    chunk: Chunk
    offset: int  # character offset in its document, for document order
    section: str = ""  # the heading above it, if the chunk shows one

    @property
    def order(self) -> tuple[str, int]:
        """Document order: document, then position."""
        return (self.chunk.document_id, self.offset)

    @cached_property
    def stems(self) -> frozenset[str]:
        """Content stems, for focus overlap and near-duplicate tests."""
        return frozenset(content_stems(self.text))

    @cached_property
    def quantities(self) -> list[Quantity]:
        """Its figures, normalised."""
        return extract_quantities(self.text)

    @property
    def has_figure(self) -> bool:
        """Whether it states a number, amount, duration or date."""
        return contains_numeric(self.text)

    @property
    def key(self) -> str:
        """Normalised text: the same sentence from two overlapping chunks has the same key."""
        return re.sub(r"\W+", " ", self.text.lower()).strip()

    @property
    def scored_text(self) -> str:
        """What is embedded: the section name gives a short sentence its topic ("Lodging: …")."""
        return f"{self.section}: {self.text}" if self.section else self.text


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\*\*|__|`", "", text)).strip()


def _heading_text(sentence: str) -> str:
    return _HEADING_PREFIX.sub("", _clean(sentence)).strip(" :.-")


def _table_cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if stripped.count("|") < 2 and not (stripped.startswith("|") and stripped.count("|") >= 1):
        return None
    return [c.strip() for c in stripped.strip("|").split("|")]


def _row_text(cells: list[str], header: list[str] | None) -> str:
    """A table row as one sentence: "Invoices (Retention period: 10 years; Counted from: end of the year)"."""
    cells = [_clean(c) for c in cells]
    if header and len(header) == len(cells) and len(cells) > 1:
        rest = "; ".join(f"{h}: {c}" for h, c in zip(header[1:], cells[1:], strict=True) if c)
        return f"{cells[0]} ({rest})"
    return "; ".join(c for c in cells if c)


def _chunk_units(chunk: Chunk) -> list[Unit]:
    text, units, masked = chunk.text, [], list(chunk.text)
    headings: list[tuple[int, str]] = []
    header: list[str] | None = None
    rows: list[tuple[int, list[str], list[str] | None]] = []
    pos, in_table = 0, False
    for line in text.splitlines(keepends=True):
        cells = _table_cells(line)
        if cells is not None:
            body = len(line.rstrip("\r\n"))
            masked[pos : pos + body] = " " * body
            if all(_SEPARATOR_CELL.fullmatch(c) for c in cells if c):
                if rows and header is None:
                    header = rows.pop()[1]  # the row above a |---| line is the header
            elif not in_table and not any(ch.isdigit() for ch in "".join(cells)):
                header = cells  # pipe tables without a separator: an all-words first row is the header
            else:
                rows.append((pos, cells, header))
            in_table = True
        elif line.strip():
            in_table, header = False, None
        pos += len(line)
    for pos, cells, head in rows:
        units.append(Unit(_row_text(cells, head), chunk, chunk.start_char + pos))
    lead = ""
    for sentence, start, _ in split_sentences("".join(masked)):
        for piece, at in _line_pieces(sentence, start):
            clean = _clean(piece)
            reason = exclusion_reason(clean)
            if reason in ("heading", "fragment") or (reason is None and not _TERMINAL.search(clean)
                                                     and not _LABEL_LINE.match(clean) and not contains_numeric(clean)):
                # an unpunctuated line without a figure or a label is a heading ("3. Costs and profitability")
                headings.append((at, _heading_text(piece)))
                lead = ""
                continue
            if clean.endswith(":"):
                lead = clean[:-1]  # "Required documents:" gives the items under it their subject
                continue
            if clean[:1].islower() and not text[:at].strip():
                continue  # the chunk starts mid-sentence: the head of this sentence is in the previous chunk
            if reason is not None or not MIN_UNIT_WORDS <= len(clean.split()) <= MAX_UNIT_WORDS:
                continue
            line_start = text.rfind("\n", 0, at) + 1
            is_item = bool(_BULLET.fullmatch(text[line_start:at]))
            words = set(re.findall(r"[a-z']+", clean.lower()))
            context = lead or (headings[-1][1] if headings else "")
            if is_item and context and len(words) <= 10 and not words & _VERBISH:
                clean = f"{context}: {clean[:1].lower() + clean[1:] if clean[1:2].islower() else clean}"
            units.append(Unit(clean, chunk, chunk.start_char + at))
    return [_with_section(u, headings, chunk.start_char) for u in units]


def _line_pieces(sentence: str, start: int) -> list[tuple[str, int]]:
    """Split a soft-wrapped "sentence" where its lines are really separate: "Label: value" lines, or a title line
    above the sentence it names ("Data owner\nData owner means …")."""
    lines, at, pieces = sentence.splitlines(keepends=True), start, []
    if len(lines) == 1:
        return [(sentence, start)]
    labels = any(_LABEL_LINE.match(_clean(ln)) for ln in lines)
    starts_new = True
    for i, ln in enumerate(lines):
        if labels or starts_new:
            pieces.append((ln, at))
        else:
            pieces[-1] = (pieces[-1][0] + ln, pieces[-1][1])
        at += len(ln)
        following = lines[i + 1].lstrip()[:1] if i + 1 < len(lines) else ""
        starts_new = exclusion_reason(_clean(ln)) == "fragment" and following.isupper()
    return pieces


def _with_section(unit: Unit, headings: list[tuple[int, str]], base: int) -> Unit:
    above = [h for at, h in headings if base + at < unit.offset]
    return Unit(unit.text, unit.chunk, unit.offset, above[-1] if above else "")


def evidence_units(chunks: list[Chunk]) -> list[Unit]:
    """Every quotable unit of the chunks, in chunk order (overlapping chunks repeat units; the writer dedupes)."""
    return [u for chunk in chunks for u in _chunk_units(chunk)]


def _title_key(title: str) -> str:
    return re.sub(r"[^a-z]+", " ", _EDITION.sub(" ", title.lower())).strip()


def superseded_documents(chunks: list[Chunk]) -> set[str]:
    """Ids of documents that a newer edition in the same evidence replaces (same title but for year/edition)."""
    docs = {c.document_id: (c.title, c.doc_date) for c in chunks}
    out: set[str] = set()
    for doc_id, (title, day) in docs.items():
        if not title or day is None:
            continue
        for other_id, (other_title, other_day) in docs.items():
            if (other_id != doc_id and other_day is not None and other_day > day and title != other_title
                    and (_EDITION.search(title) or _EDITION.search(other_title))
                    and _title_key(title) == _title_key(other_title)):
                out.add(doc_id)
    return out


def figure_conflict(a: str, b: str) -> tuple[str, str] | None:
    """(figure in a, figure in b) when two sentences state the same thing with different figures, else None.

    "The same thing": most of the shorter sentence's key terms are shared and the polarity agrees; the
    figures must be comparable (same kind, unit and bound), so "within 30 days" never clashes with
    "more than 90 days".
    """
    ta, tb = set(key_terms(a)), set(key_terms(b))
    shared = ta & tb
    if len(shared) < 2 or len(shared) < 0.6 * min(len(ta), len(tb)) or is_negated(a) != is_negated(b):
        return None
    qa, qb = extract_quantities(a), extract_quantities(b)
    if not qa or not qb:
        return None
    for match in compare_quantities(qa, qb).conflicts:
        if match.evidence is not None and match.claim.bound == match.evidence.bound:
            return match.claim.text, match.evidence.text
    return None
