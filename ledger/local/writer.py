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

import numpy as np

from ingest.embedding import Embedder
from ingest.types import Chunk
from ledger.local.gaps import QuestionPart, focus_stems, question_parts, stems_cover, wants_figure
from ledger.local.units import Unit, evidence_units, figure_conflict, superseded_documents
from ledger.risks import NO_EVIDENCE_ANSWER
from ledger.sentences import ABBREVIATIONS
from ledger.settings import RevisionSettings, Settings

# Score = similarity + OVERLAP_WEIGHT × share of focus stems + FIGURE_BONUS when a wanted figure is present.
OVERLAP_WEIGHT = 0.3
FIGURE_BONUS = 0.08
ANSWER_BAR = 0.55  # the best unit must score this to count as an answer
STRONG_SIMILARITY = 0.62  # a unit this similar answers even when it shares few focus words (paraphrase)
RUNNER_UP_MARGIN = 0.1  # further units join when they score within this of the best
MAX_SENTENCES = 4
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
        vectors = self.embedder.encode([question] + [p.text for p in parts] + [u.scored_text for u in units])
        q_vec, part_vecs, unit_vecs = vectors[0], vectors[1 : 1 + len(parts)], vectors[1 + len(parts) :]
        whole = QuestionPart(question, frozenset().union(*(p.focus for p in parts)), wants_figure(question))
        scores = self._scores(whole, q_vec, units, unit_vecs)
        chosen: list[int] = []
        for part, vec in zip(parts, part_vecs, strict=True):
            part_scores = self._scores(part, vec, units, unit_vecs) if len(parts) > 1 else scores
            best = self._best_answer(part, part_scores, units, unit_vecs @ vec)
            if best is not None and best not in chosen:
                chosen.append(best)
        if not chosen:
            top = int(np.argmax(scores))
            return WrittenAnswer(_abstention(question, units[top]), answered=False, missing=_asked(question))
        top_score = max(scores[i] for i in chosen)
        for i in np.argsort(-np.asarray(scores), kind="stable"):
            if len(chosen) >= MAX_SENTENCES or scores[i] < max(ANSWER_BAR, top_score - RUNNER_UP_MARGIN):
                break
            chosen.append(int(i))
        picked = self._prune([units[i] for i in dict.fromkeys(chosen)])
        picked.sort(key=lambda u: u.order)
        by_doc = {u.chunk.document_id: max(scores[units.index(v)] for v in picked if v.chunk.document_id ==
                                           u.chunk.document_id) for u in picked}
        picked.sort(key=lambda u: -by_doc[u.chunk.document_id])  # stable: document order within a document
        text = " ".join(cite(u.text, [u.chunk.hash]) for u in picked)
        return WrittenAnswer(text, answered=True, units=picked, scores=[scores[units.index(u)] for u in picked])

    def _scores(self, part: QuestionPart, vec: np.ndarray, units: list[Unit], unit_vecs: np.ndarray) -> list[float]:
        sims = unit_vecs @ vec
        out = []
        for unit, sim in zip(units, sims, strict=True):
            overlap = stems_cover(part.focus, unit.stems) / len(part.focus) if part.focus else 0.0
            bonus = FIGURE_BONUS if part.wants_figure and unit.has_figure else 0.0
            out.append(float(sim) + OVERLAP_WEIGHT * overlap + bonus)
        return out

    def _best_answer(self, part: QuestionPart, scores: list[float], units: list[Unit], sims: np.ndarray) -> int | None:
        """The unit that answers a part, or None: relevant enough, on its focus words, with a figure if asked."""
        for i in np.argsort(-np.asarray(scores), kind="stable"):
            unit, score, sim = units[i], scores[i], float(sims[i])
            if score < ANSWER_BAR or sim < self.settings.min_relevance:
                return None
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

