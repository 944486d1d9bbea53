"""The rule-based skeptic of the local backend: what a careful reader would object to in a draft, without a model.

Rules, each a pure function of the draft and the evidence:
- `uncited`: a claim sentence (ledger.judge.claims decides) with no citation anchor.
- `phantom_citation`: an anchor naming a hash that is not among the evidence chunks.
- `unknown_figure`: a number, amount, duration or date in a claim that no evidence chunk states
  (ledger.text.quantities normalises, so "three days" matches "3 days"). The message names a different value
  only together with the evidence sentence that states it, and only when that sentence is about the same thing
  (most of its key terms shared with the claim): the critique never compares with a figure it did not read there.
- `conflict`: two evidence documents state different figures for the same thing (most key terms shared,
  same polarity, comparable figures); both documents and their dates are named, and the newer one is said
  to prevail. "The draft states the older figure" is said only when the draft sentence states the older
  document's figure and not the newer one's.
- `hedge`: hedging words ("might", "probably", "I believe", "typically") that the evidence itself does not use.
- `unanswered`: a part of the question whose focus words the draft's claims do not cover (ledger.backends.local.gaps).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from functools import cache

from ledger.backends.base import CritiqueRequest
from ledger.backends.local.gaps import framing, gap_phrase, part_covered
from ledger.backends.local.questions import question_parts
from ledger.backends.local.units import Unit, evidence_units, figure_conflict, same_figure
from ledger.core.types import Chunk, Critique, CritiqueIssue
from ledger.judge.claims import exclusion_reason, extract_claims
from ledger.text.lexicon import lexicon
from ledger.text.quantities import Quantity, compare_quantities, extract_quantities
from ledger.text.sentences import parse_citations, split_sentences
from ledger.text.terms import key_terms, phrase_pattern


@cache
def _hedge() -> re.Pattern[str]:
    """Hedging words and phrases (the lexicon's hedges.toml)."""
    return re.compile(rf"\b(?:{phrase_pattern(lexicon().words('hedges', 'hedges'))})\b", re.IGNORECASE)


_KIND_LABELS = {
    "uncited": ("uncited sentence", "uncited sentences"),
    "phantom_citation": ("citation to a chunk not in the evidence", "citations to chunks not in the evidence"),
    "unknown_figure": ("figure absent from the evidence", "figures absent from the evidence"),
    "conflict": ("conflict between sources", "conflicts between sources"),
    "hedge": ("hedged sentence", "hedged sentences"),
    "unanswered": ("part of the question left unanswered", "parts of the question left unanswered"),
}


@dataclass(frozen=True)
class SourceConflict:
    """Two documents stating different figures for the same thing; `dated` is False when neither is known newer
    (then `older` and `newer` are just the two sides)."""

    older: Unit
    newer: Unit
    older_figure: str
    newer_figure: str
    dated: bool

    def describe(self) -> str:
        """One line naming both documents, their dates and figures, and which prevails."""
        a, b = self.older.chunk, self.newer.chunk
        verdict = "the newer document prevails" if self.dated else "neither is known to be newer"
        return (f"'{b.title or b.path}' ({_day(b.doc_date)}) says {self.newer_figure} where "
                f"'{a.title or a.path}' ({_day(a.doc_date)}) says {self.older_figure} "
                f"(\"{self.newer.text}\" vs \"{self.older.text}\"); {verdict}.")


def _day(day: date | None) -> str:
    return day.isoformat() if day else "undated"


def _shared_share(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[float, float]:
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return 0.0, 0.0
    shared = len(sa & sb)
    return shared / min(len(sa), len(sb)), shared / len(sa | sb)


def source_conflicts(evidence: list[Chunk]) -> list[SourceConflict]:
    """Figure conflicts between the documents of the evidence, each pair of sentences once, older side first."""
    by_doc: dict[str, list[Unit]] = {}
    for unit in evidence_units(evidence):
        if unit.is_label:
            continue  # every document has its own effective date and id; those never conflict
        units = by_doc.setdefault(unit.chunk.document_id, [])
        if all(u.key != unit.key for u in units):
            units.append(unit)
    terms = {id(u): key_terms(u.text) for units in by_doc.values() for u in units}
    found: dict[tuple[str, str], SourceConflict] = {}
    docs = list(by_doc)
    for i, doc_a in enumerate(docs):
        for doc_b in docs[i + 1 :]:
            for a in by_doc[doc_a]:
                if not a.quantities:
                    continue
                # Compare each sentence with its closest counterpart only: "$30 per adult" should meet the other
                # edition's general price, not its weekend price.
                b = max(by_doc[doc_b], key=lambda u: _shared_share(terms[id(a)], terms[id(u)]))
                back = max(by_doc[doc_a], key=lambda u: _shared_share(terms[id(b)], terms[id(u)]))
                if back is not a:
                    continue  # only mutual best counterparts: "$45 at weekends" is not the other's "$30"
                figures = figure_conflict(a.text, b.text)
                if figures is None:
                    continue
                da, db = a.chunk.doc_date, b.chunk.doc_date
                known = da is not None and db is not None and da != db
                older, newer = (b, a) if known and da > db else (a, b)  # type: ignore[operator]
                fig_old, fig_new = (figures[1], figures[0]) if older is b else figures
                found.setdefault((older.key, newer.key), SourceConflict(older, newer, fig_old, fig_new, known))
    return list(found.values())


class RuleSkeptic:
    """Critiques a draft with fixed rules; no model, no configuration."""

    def run(self, request: CritiqueRequest) -> Critique:
        """The issues of the draft against the evidence, and a one-paragraph summary."""
        question, draft, evidence = request.question, request.draft, request.evidence
        hashes = {c.hash for c in evidence}
        chunk_figures = [extract_quantities(c.text) for c in evidence]
        conflicts = source_conflicts(evidence)
        units = [u for u in evidence_units(evidence) if u.quantities and not u.is_label]
        issues: list[CritiqueIssue] = []
        claims = 0
        for sentence, _, _ in split_sentences(draft):
            text, cited = parse_citations(sentence)
            text = re.sub(r"\*\*|__|`", "", text).strip()
            reason = exclusion_reason(text)
            phantom = [h for h in cited if h not in hashes]
            if phantom:
                issues.append(CritiqueIssue(kind="phantom_citation", sentence=text, message=(
                    f"Cites {', '.join(phantom)}, which {'is' if len(phantom) == 1 else 'are'} not among the "
                    "retrieved evidence chunks.")))
            hedge = _hedge().search(text)
            if hedge and reason not in ("heading", "question") and not _quoted(text, hedge, evidence):
                issues.append(CritiqueIssue(kind="hedge", sentence=text, message=(
                    f'Hedges with "{hedge.group(0)}": state what the evidence says, or say that it does not say.')))
            if reason is not None and not (reason == "fragment" and cited):
                continue
            claims += 1
            if not cited:
                issues.append(CritiqueIssue(kind="uncited", sentence=text, message="A claim with no citation."))
            issues.extend(_figure_issues(text, chunk_figures, units))
        for conflict in conflicts:
            sentence = _draft_sentence_using(draft, conflict)
            message = conflict.describe()
            if conflict.dated and sentence and states_older_figure(sentence, conflict):
                message += " The draft states the older figure."
            issues.append(CritiqueIssue(kind="conflict", sentence=sentence, message=message))
        draft_claims = extract_claims(draft, question)
        claim_texts, frames = [c.text for c in draft_claims], framing(draft_claims, evidence)
        for part in question_parts(question):
            if part.focus and not part_covered(part, claim_texts, frames=frames):
                message = f"The draft does not answer: {gap_phrase(part)}."
                issues.append(CritiqueIssue(kind="unanswered", message=message))
        return Critique(issues=issues, summary=_summary(issues, claims, len(evidence)))


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _quoted(text: str, hedge: re.Match[str], evidence: list[Chunk]) -> bool:
    """Whether the hedge is the evidence's own wording ("The bus usually arrives within 10 minutes" quoted, not hedged):
    the hedge with up to three words either side appears in a chunk."""
    phrase = _words(text[: hedge.start()])[-3:] + _words(hedge.group(0)) + _words(text[hedge.end() :])[:3]
    wanted = f" {' '.join(phrase)} "
    return any(wanted in f" {' '.join(_words(c.text))} " for c in evidence)


def _figure_issues(text: str, chunk_figures: list[list[Quantity]], units: list[Unit]) -> list[CritiqueIssue]:
    """unknown_figure for the figures no chunk states: the same value, kind and unit, whatever words surround it.
    (Not compare_quantities' "matched", which also accepts a difference of two figures and rejects a figure
    "belonging" to other words: for presence that is both too lenient and too strict.)"""
    issues: list[CritiqueIssue] = []
    everything = [q for figures in chunk_figures for q in figures]
    for quantity in extract_quantities(text):
        if any(same_figure(quantity, e) for e in everything):
            continue
        message = f"{quantity.text} appears in none of the evidence retrieved for the question"
        rivals = rival_figures(text, quantity, units)
        if rivals:
            message += "; the evidence on the same subject states " + " and ".join(
                f"{figure.text} ('{unit.chunk.title or unit.chunk.path or 'untitled'}': \"{unit.text}\")"
                for figure, unit in rivals)
        message += "."
        issues.append(CritiqueIssue(kind="unknown_figure", sentence=text, message=message))
    return issues


def rival_figures(sentence: str, quantity: Quantity, units: list[Unit], limit: int = 3) -> list[tuple[Quantity, Unit]]:
    """The evidence figures the draft's figure should be compared with, each with the sentence stating it.

    Only sentences about the same thing qualify (at least two key terms shared, covering half of the smaller
    side), and only a figure of that very sentence comparable with the draft's (same kind and unit). All the
    sentences that share the most are named, newest document first: "the cap" may be $220 in one clause and
    $340 in another, and picking one of them would state something unchecked. The figure named is always in
    the quote named.
    """
    terms = tuple(key_terms(sentence))
    found: list[tuple[float, Quantity, Unit]] = []
    for unit in units:
        cover, _ = _shared_share(terms, tuple(key_terms(unit.text)))
        if len(set(terms) & set(key_terms(unit.text))) < 2 or cover < 0.5:
            continue
        comparable = compare_quantities([quantity], unit.quantities).matches[0].evidence
        if comparable is None or not any(comparable is q for q in unit.quantities):
            continue
        found.append((cover, comparable, unit))
    if not found:
        return []
    best = max(cover for cover, _, _ in found)
    chosen = [(q, u) for cover, q, u in found if cover == best]
    chosen.sort(key=lambda qu: (-(qu[1].chunk.doc_date or date.min).toordinal(), qu[1].order))
    out: list[tuple[Quantity, Unit]] = []
    for q, u in chosen:
        if not any(same_figure(q, seen) and u.key == other.key for seen, other in out):
            out.append((q, u))
    return out[:limit]


def states_older_figure(sentence: str, conflict: SourceConflict) -> bool:
    """Whether a draft sentence states the older document's figure of a conflict, and not the newer one's."""
    stated = extract_quantities(sentence)

    def states(figure: str, source: str) -> bool:
        wanted = [q for q in extract_quantities(source) if q.text == figure]
        return any(same_figure(w, q) for w in wanted for q in stated)

    return states(conflict.older_figure, conflict.older.text) and not states(conflict.newer_figure, conflict.newer.text)


def _draft_sentence_using(draft: str, conflict: SourceConflict) -> str:
    """The draft sentence that states one of the conflicting figures on the same topic, if any."""
    for sentence, _, _ in split_sentences(draft):
        text, _ = parse_citations(sentence)
        if figure_conflict(text, conflict.older.text) or figure_conflict(text, conflict.newer.text):
            return text
        for figure in (conflict.older_figure, conflict.newer_figure):
            if figure in text and set(key_terms(text)) & set(key_terms(conflict.older.text)):
                return text
    return ""


def _summary(issues: list[CritiqueIssue], claims: int, chunks: int) -> str:
    """One paragraph: what was checked, what was found, what to fix first."""
    checked = f"Checked {claims} claim sentence{'s' if claims != 1 else ''} against {chunks} evidence chunk" + (
        "s" if chunks != 1 else "")
    if not issues:
        return (f"{checked}: every claim is cited, every figure appears in the evidence, no sources conflict, no "
                "sentence hedges, and every part of the question is addressed.")
    counts = Counter(i.kind for i in issues)
    found = ", ".join(f"{n} {_KIND_LABELS.get(k, (k, k))[n != 1]}" for k, n in counts.items())
    first = ("Correct or remove the figures the evidence does not state" if counts.get("unknown_figure") else
             "Use the newer source where sources conflict" if counts.get("conflict") else
             "Cite every claim with the chunk it comes from" if counts.get("uncited") or counts.get("phantom_citation")
             else "Answer the whole question in the evidence's own terms")
    return f"{checked} and found {len(issues)} issue{'s' if len(issues) != 1 else ''}: {found}. {first}."
