"""The extractive writer of the local backend: picks the evidence sentences that answer a question and cites each.

It never writes a sentence of its own except one abstention ("The documents do not state …"), which the judge
does not count as a claim; when nothing answers, the abstention is followed by the closest passage, quoted and
cited, so the reader sees what the documents do say (the run is flagged unanswered).

Steps: cut the evidence into quotable units (`ledger.backends.local.units`), drop the documents a newer edition
replaces, score every unit against the question (embedding similarity, share of the question's focus words
weighted by how rare each is in the evidence, a bonus for a figure when one is asked for), decide whether
anything answers it, then pick a few units (the best for each part of the question, then close runners-up), drop
near-duplicates and the older side of any figure conflict, and stitch them in document order.

Deciding whether a unit answers (`ledger.backends.local.questions` analyses the question): a focus word that is rare
in general English (wordfreq) and that no evidence passage names (synonyms and inflections count: "retained" is
named by "retention"; so does a unit word that WordNet puts close in meaning, "rearing" for "breeding") means "not
answered" unless the unit is nearly a paraphrase; a focus word its whole passage
never names means "not this unit" unless it is close; and the unit must be the kind of statement asked for: a
figure of the wanted kind ("how often": a frequency), the action asked about ("kept": a retention), the period
asked about (not another quarter), for "how many visits" a count of visits, and for "who" a name (failing that,
a word for a kind of person where a doer stands: "approved by the finance manager"). "Which plan is the cheapest?"
over a table is answered by the row at that end of the column it names (`ledger.judge.superlatives`), unless an
answering sentence states the superlative itself. A code the
question asks about ("CFF25-038") lifts the units that state it and sinks those stating a sibling code
("CFF25-001").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from ingest.chunking import SECTION_SEPARATOR
from ingest.embedding import Embedder
from ingest.retrieval import code_shape, mentions, named_terms
from ingest.tables import row_sentence
from ledger.backends.base import NO_EVIDENCE_ANSWER, Draft, WriteRequest
from ledger.backends.local.questions import (
    DEADLINE_KINDS,
    DEADLINE_WORDS,
    QuestionPart,
    asks_reason,
    designations,
    gives_reason,
    make_part,
    period_conflict,
    periods,
    question_parts,
    said_otherwise,
    stem_covered,
    stems_cover,
    whole_question,
)
from ledger.backends.local.units import Unit, evidence_units, figure_conflict, superseded_documents
from ledger.core.settings import RevisionSettings
from ledger.core.types import Chunk
from ledger.judge.claims import content_stems
from ledger.judge.flags import flagged_rows
from ledger.judge.superlatives import extreme, extreme_row
from ledger.judge.word_relations import (
    WordNetTable,
    bundled_wordnet,
    can_be_a_noun,
    is_a_kind_of,
    is_participle,
    names_a_party,
)
from ledger.text.lexicon import lexicon
from ledger.text.measures import is_speed, measure_word, unit_size
from ledger.text.quantities import Quantity, compare_quantities, extract_quantities, is_code
from ledger.text.terms import is_negated, phrase_pattern, term_stem

# Score = similarity + OVERLAP_WEIGHT × share of focus stems + FIGURE_BONUS when a wanted figure is present.
OVERLAP_WEIGHT = 0.3
FIGURE_BONUS = 0.08
ANSWER_BAR = 0.55  # the best unit must score this to count as an answer
STRONG_SIMILARITY = 0.62  # a unit this similar answers even when it shares few focus words (paraphrase)
RUNNER_UP_MARGIN = 0.1  # further units join when they score within this of the best
MAX_SENTENCES = 4
FIGURE_MATCH = 0.1  # a unit stating the question's own figure ("above $5,000") is likelier the answer
UNKNOWN_WORD_SIMILARITY = 0.75  # below this, a rare question word absent from all evidence means "not answered"
RARE_WORD_ZIPF = 4.7  # a word rarer than this in general English (wordfreq's Zipf scale) names a specific concept
CONTEXT_SIMILARITY = 0.6  # below this, a question word absent from a unit's whole passage means "not this unit"
COUNTED_WORDS = 4  # a count names what it counts within its first words ("3 missed payments")
SENTENCE_WORDS = 4  # a unit's tail of this many words or more is a sentence of its own, not a value ("Closed")
NEAR_DUPLICATE = 0.8  # Jaccard of content stems above which two units say the same thing
OWN_TOPIC = 8  # words of a sentence that has a topic of its own, whatever the heading above it
CODE_MATCH = 0.2  # a unit naming the code asked about ("CFF25-038") answers it; one naming a sibling code does not
HEADING_SHARE = 0.5  # a focus word only the heading above a unit names counts this much of one it names itself


@dataclass
class WrittenAnswer:
    """What the writer produced: the answer, whether it answers, and why not when it does not."""

    text: str
    answered: bool
    missing: str = ""
    units: list[Unit] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)


def cite(sentence: str, hashes: list[str]) -> str:
    """A sentence with its anchors before the final period ("… $90 per night [cite:abc]."), as judges expect.

    Always before the period, even after "Inc.": `parse_citations` turns "Inc [cite:x]." back into "Inc.", while
    "Inc. [cite:x] Next" is one sentence to the splitter (an abbreviation rarely ends a sentence).
    """
    text = sentence.strip().rstrip(";,").rstrip()  # a list item's own separator ends no sentence
    anchors = " ".join(f"[cite:{h}]" for h in hashes)
    if text.endswith("."):
        return f"{text[:-1]} {anchors}."
    if text.endswith(("!", "?")):
        return f"{text} {anchors}"
    return f"{text} {anchors}."


class LocalWriter:
    """Extractive writer: every sentence is an evidence sentence followed by its chunk's citation."""

    def __init__(self, embedder: Embedder, settings: RevisionSettings) -> None:
        self.embedder = embedder
        self.settings = settings

    def run(self, request: WriteRequest) -> Draft:
        """The cited answer, and whether it answers the question."""
        written = self.write(request.question, request.evidence)
        return Draft(written.text, written.answered, written.missing)

    def write(self, question: str, evidence: list[Chunk]) -> WrittenAnswer:
        """The answer with how it was made; pure given the embedder."""
        if not evidence:
            return WrittenAnswer(NO_EVIDENCE_ANSWER, answered=False, missing="no evidence was retrieved")
        stale = superseded_documents(evidence)
        # A document's title restated as a line ("Annual Report 2025") names the document; it answers nothing.
        units = [u for u in evidence_units(evidence) if u.chunk.document_id not in stale and not _is_title(u)]
        if not units:
            return WrittenAnswer(NO_EVIDENCE_ANSWER, answered=False, missing="the evidence has no quotable sentence")
        parts = question_parts(question) or [make_part(question)]
        # What the evidence names anywhere: its sentences, and the headings and titles above them ("Chowder").
        known: set[str] = set().union(*(u.stems | u.context_stems for u in units))
        # Short stems ("fli" of "fly") are too often verbs the evidence words differently to mean anything.
        # (the asker's situation, "There are seven of us living in the house.", need not be named anywhere)
        absent = {s for p in parts for s in p.focus - p.situation
                  if len(s) >= 4 and not stems_cover(frozenset({s}), known)}
        # A common word the evidence words differently ("feel sick" for "nausea", "hottest" for "warmest") is a
        # paraphrase; a rare one ("humidity", "tuition") names a concept, whose absence means "not answered". A word
        # that cannot be a noun ("measured", "refundable") names no concept: the answer may say it otherwise.
        unknown = frozenset(absent & rare_stems(question, concepts=True)) if absent else frozenset()  # loads wordfreq
        # A part of one focus word after another ("..., and who is told?") leans on the part before it for its
        # subject: it is embedded with that part, or its few words are close to nothing.
        part_texts = [f"{parts[i - 1].text}, {p.text}" if i and len(p.focus) <= 1 else p.text
                      for i, p in enumerate(parts)]
        # A heading gives a short sentence or a field its topic ("Parking: two bays", "Closing date: 30 June" in a job
        # advert), but a long title can drown what a whole sentence says ("Dairy recalls yoghurt: The problem was
        # found at …"): a whole sentence is as close to a question as it is with its heading or without it.
        titled = [i for i, u in enumerate(units) if u.section and not u.is_label and len(u.said.split()) >= OWN_TOPIC]
        vectors = self.embedder.encode([question] + part_texts + [u.scored_text for u in units]
                                       + [units[i].said for i in titled])
        first = 1 + len(parts)
        q_vec, part_vecs, unit_vecs = vectors[0], vectors[1:first], vectors[first : first + len(units)]
        plain = unit_vecs.copy()
        plain[titled] = vectors[first + len(units) :]

        def similar(vec: np.ndarray) -> np.ndarray:
            return np.maximum(unit_vecs @ vec, plain @ vec)

        relevance = self._clause_relevance(parts, part_vecs, units, unit_vecs)
        whole = whole_question(question, parts)
        figures = extract_quantities(_COMPARATIVES.sub(_plain_comparative, question))
        weights = _focus_weights(whole.focus, units)
        codes = [t for t in named_terms(question) if any(c.isdigit() for c in t)] + designations(question)
        siblings = [code_shape(c) for c in codes]
        # a long sentence scores by its closest clause when that is closer ("…," said Cllr Lee, cabinet member for …)
        scores = self._scores(whole, figures, relevance(q_vec, similar(q_vec)), units, weights, (codes, siblings))
        # a passage whose limits leave out the question's own case ("grants under £5,000" for a £8,000 grant) when
        # another's hold it ("grants of £5,000 or more"); alone, it answers ("Can I claim £30?": "up to £25")
        within = [_within_bounds(figures, u.quantities) for u in units]
        outside = frozenset(i for i, w in enumerate(within) if w is False) if True in within else frozenset[int]()
        if asks_reason(question):  # "Why was it refused?": a passage that gives a reason ("Reasons for refusal"),
            # when one on the question's words does, not the bare "Decision: REFUSED"
            reasons = {i for i, u in enumerate(units) if gives_reason(f"{u.said} {u.section}") and stems_cover(
                whole.focus, u.stems | u.context_stems)}
            outside |= frozenset(range(len(units))) - reasons if reasons else frozenset()
        # a unit naming the code asked about, or under a heading that does ("3.4.1 — 12 May › Fixed"), is about it
        coded = frozenset(i for i, u in enumerate(units) if _about_code(u, codes, siblings))
        answers: list[list[tuple[float, int]]] = []
        for part, vec in zip(parts, part_vecs, strict=True):
            sims = similar(vec)
            part_scores = (self._scores(part, figures, relevance(vec, sims), units, weights, (codes, siblings))
                           if len(parts) > 1 else scores)
            answers.append(self._answers(part, part_scores, units, (sims, relevance(vec, sims)), unknown, outside,
                                         coded))
        if flagged := _flagged_row_units(question, units):
            # "Which dishes contain nuts?" over a yes/no column: the rows it marks
            return WrittenAnswer(" ".join(cite(u.text, [u.chunk.hash]) for u in flagged), answered=True,
                                 units=flagged, scores=[scores[units.index(u)] for u in flagged])
        if (ranked := _extreme_row_unit(question, units, answers)) is not None:
            # "Which plan is the cheapest?" over a table: its row at that end, unless a sentence says it in words
            return WrittenAnswer(cite(ranked.text, [ranked.chunk.hash]), answered=True, units=[ranked],
                                 scores=[scores[units.index(ranked)]])
        if not any(answers):
            # The best-scoring passage is quoted and cited, so the reader can judge it; the run is flagged unanswered.
            top = int(np.argmax(scores))
            closest = units[top]
            text = f"{_abstention(question, closest)} {cite(closest.text, [closest.chunk.hash])}"
            return WrittenAnswer(text, answered=False, missing=_asked(question), units=[closest], scores=[scores[top]])
        # The best answer of every part first, then the close runners-up of all parts, best first.
        chosen = [found[0][1] for found in answers if found]
        for _, i in sorted((x for found in answers for x in found[1:]), key=lambda x: -x[0]):
            if len(chosen) >= MAX_SENTENCES:
                break
            chosen.append(i)
        picked = self._prune([units[i] for i in dict.fromkeys(chosen)])
        rank = {id(u): scores[units.index(u)] for u in picked}
        best_of_doc: dict[str, float] = {}
        for u in picked:
            best_of_doc[u.chunk.document_id] = max(best_of_doc.get(u.chunk.document_id, 0.0), rank[id(u)])
        # Documents by their best sentence; within a document, the document's own order reads naturally.
        picked.sort(key=lambda u: (-best_of_doc[u.chunk.document_id], u.order))
        # a unit that answers "when" by its heading's date is written with the heading ("4.1.0 — 22 September 2026 ›
        # Added: dark mode."), which the judge finds in its chunk
        # (and so is one that names its doer only as "she" or "he", under a heading that names them: "Cerys Lamont,
        # soprano › This evening she sings the Pie Jesu.")
        dated = {id(u) for u in picked if any(_dated_by_heading(p, u) for p in parts) or _named_by_heading(u)}
        sentences = [cite(_under_heading(u) if id(u) in dated else u.text, [u.chunk.hash]) for u in picked]
        missing = [_asked(p.text) for p, found in zip(parts, answers, strict=True) if not found]
        sentences += [f"The documents do not state {m}." for m in missing]  # an abstention is no claim
        return WrittenAnswer(" ".join(sentences), answered=True, missing="; ".join(missing), units=picked,
                             scores=[rank[id(u)] for u in picked])

    def _clause_relevance(self, parts: list[QuestionPart], part_vecs: np.ndarray, units: list[Unit],
                          unit_vecs: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """How relevant each unit is to a part: its similarity, or that of its closest clause for a long sentence
        below the relevance bar that holds half the question's words ("after a consultation in which 62% of the
        respondents supported the scheme" for "What share of respondents supported the scheme?": the whole
        sentence is about a cycle lane)."""
        bar = self.settings.min_relevance
        focus = frozenset().union(*(p.focus for p in parts))
        low = (unit_vecs @ part_vecs.T).max(axis=1) < bar
        clauses = [(i, c) for i, u in enumerate(units)
                   if focus and low[i] and stems_cover(focus, u.stems) * 2 >= len(focus) for c in _clauses(u.text)]
        owners = np.asarray([i for i, _ in clauses], dtype=int)
        clause_vecs = self.embedder.encode([c for _, c in clauses]) if clauses else None

        def relevance(vec: np.ndarray, sims: np.ndarray) -> np.ndarray:
            if clause_vecs is None:
                return sims
            out = sims.copy()
            np.maximum.at(out, owners, clause_vecs @ vec)
            return out

        return relevance

    @staticmethod
    def _scores(
        part: QuestionPart, figures: list[Quantity], sims: np.ndarray, units: list[Unit],
        weights: dict[str, float], coding: tuple[list[str], list[re.Pattern[str]]] = ([], []),
    ) -> list[float]:
        """Similarity + focus-word share + a bonus for a wanted figure, ± agreement with the question's own figures
        and codes (the codes asked about, with the shapes of their siblings)."""
        codes, siblings = coding
        why = asks_reason(part.text)
        out = []
        for unit, sim in zip(units, sims, strict=True):
            score = float(sim)
            if part.focus:
                total = sum(weights.get(s, 1.0) for s in part.focus)
                named = _named(part, unit)
                have = total if _heading_asks(part, unit) else sum(
                    weights.get(s, 1.0) for s in part.focus if s in named) + HEADING_SHARE * sum(
                    weights.get(s, 1.0) for s in _headed(part, unit, named) - named)
                score += OVERLAP_WEIGHT * have / total
            if part.wants_figure and _has_figure(part, unit):
                score += FIGURE_BONUS
            if why and gives_reason(f"{unit.said} {unit.section}"):  # a reason is what "why" asks for
                score += FIGURE_BONUS
            # "longer than 3 hours" should find "3 hours or longer", not "under 3 hours"; a figure the heading gives
            # ("Version 5.2 › Fixed") is the sentence's when the sentence's own figures say nothing of it
            for found in (unit.quantities, unit.section_quantities) if figures else ():
                within = _within_bounds(figures, found)
                if within is not None:  # "for a £8,000 grant": "grants of £5,000 or more", not "under £5,000"
                    score += FIGURE_MATCH if within else -FIGURE_MATCH
                    break
                agreement = compare_quantities(figures, found) if found else None
                if agreement is not None and (agreement.matched or agreement.conflicts):
                    score += FIGURE_MATCH if agreement.matched else -FIGURE_MATCH
                    break
            if codes and (about := _about_code(unit, codes, siblings)) is not None:
                score += CODE_MATCH if about else -CODE_MATCH
            out.append(score)
        return out

    def _answers(
        self, part: QuestionPart, scores: list[float], units: list[Unit], sims: tuple[np.ndarray, np.ndarray],
        unknown: frozenset[str], outside: frozenset[int] = frozenset(), coded: frozenset[int] = frozenset(),
    ) -> list[tuple[float, int]]:
        """(score, unit index) of the units that answer a part, best first: relevant, on its focus words, with a
        figure when one is asked, and within RUNNER_UP_MARGIN of the best one. Empty when none does.

        "Who" is answered by a name; only when no unit names anyone, by a role ("... approved by the finance
        manager"), and then also by the unit of that document that names whoever holds the role ("Our treasurer is
        Priya Okonkwo."), however it scores."""
        if not part.wants_person:
            return self._scan(part, scores, units, sims, unknown, (), outside, coded)
        found = self._scan(part, scores, units, sims, unknown, ("name",), outside, coded)
        if found:
            return found
        found = self._scan(part, scores, units, sims, unknown, ("name", "role"), outside, coded)
        if found:
            holder = _holder(units[found[0][1]], part.text, units, {i for _, i in found})
            if holder is not None:
                found.append((scores[holder], holder))
        return found

    def _scan(
        self, part: QuestionPart, scores: list[float], units: list[Unit], sims: tuple[np.ndarray, np.ndarray],
        unknown: frozenset[str], naming: tuple[str, ...], outside: frozenset[int] = frozenset(),
        coded: frozenset[int] = frozenset(),
    ) -> list[tuple[float, int]]:
        """`_answers` with the ways a unit may name someone for a "who" part (`naming`: "name", "role")."""
        found: list[tuple[float, int]] = []
        table = bundled_wordnet()
        nouns = frozenset(s for w in re.findall(r"[A-Za-z]+", part.text) if can_be_a_noun(w, table)
                          for s in content_stems(w))
        roles = _asked_roles(part, table) if part.wants_person else frozenset()
        # the words of a code asked about ("SKYLARK" of "SKYLARK-2"): a unit about the code names them
        code_stems = frozenset(s for t in named_terms(part.text) if any(c.isdigit() for c in t)
                               for s in content_stems(t))
        for i in np.argsort(-np.asarray(scores), kind="stable"):
            unit, score, sim, relevant = units[i], scores[i], float(sims[0][i]), float(sims[1][i])
            if score < ANSWER_BAR:
                break
            if i in outside:
                continue  # its limits leave out the case asked about
            if (relevant < self.settings.min_relevance and i not in coded and not _names_rest_of_title(part, unit)
                    and not (roles and stems_cover(roles, unit.label_stems))):  # ("Membership Lead: Rhys Abernethy")
                continue  # word overlap alone ("Reporting line" for "report") makes no answer; look further
            if found and score < found[0][0] - RUNNER_UP_MARGIN:
                break
            reworded = said_otherwise(part, unit.text, unit.stems)
            if part.counted and _counts_what_is_asked(part, unit):
                reworded |= part.counted  # "12 residents" names the "people" asked about
            if part.wants_figure and (any(q.ranged and q.kind in DEADLINE_KINDS for q in unit.quantities)
                                      or sum(q.kind in ("date", "time") for q in unit.quantities) >= 2):
                reworded |= part.focus & _range_ends()  # "Sat 10 Apr – Sun 18 Apr" says when it begins and ends
            if (part.focus & unknown) - reworded and sim < UNKNOWN_WORD_SIMILARITY:
                break  # the question names something no evidence sentence mentions ("in Europe")
            covered, asked = _coverage(part, unit, reworded)
            # close in meaning, though sharing no word but its title's: the closeness may be the title's ("Secretary:
            # Tom Egan" in the rowing club's minutes for "Who is the treasurer of the rowing club?")
            on_topic = (not part.focus or covered * 2 >= asked
                        or (sim >= STRONG_SIMILARITY and (covered or not _around(part, unit))))
            # A question word its whole passage never mentions: the passage is about something else (another
            # department than the "library" one asked about), unless the unit is close to a paraphrase. A unit that
            # shares under half the question's words needs that closeness even more.
            bar = CONTEXT_SIMILARITY if covered * 2 >= asked else UNKNOWN_WORD_SIMILARITY
            # (a passage on the code asked about needs no verb of the question: "What does Service C include?")
            if sim < bar and any(len(s) >= 4 and s not in reworded and not stem_covered(s, unit.context_stems)
                                 and (i not in coded or (s in nouns and s not in code_stems))
                                 for s in part.focus - part.situation):
                continue
            if part.focus & unit.names_subject and part.focus - unit.names_subject - unit.label_stems:
                continue  # "Property: Flat 3, …" names what "the rent for Flat 3" is asked of; it is no answer
            if part.wants_person and _names_someone(part.text, unit) not in naming:
                continue  # "who …" is answered by a name (or, failing any, a role)
            if part.wants_person and _qualifies_role(part, unit.text):
                continue  # the "Vice-Chair" is not who "chaired"
            if roles and not stems_cover(roles, unit.stems | reworded | unit.label_stems):
                continue  # "Who is the headteacher of X?" is answered where the headteacher is named
            if on_topic and (not part.wants_figure or _states_figure(part, unit)) and _fits(part, unit):
                found.append((score, int(i)))
        return found

    @staticmethod
    def _prune(units: list[Unit]) -> list[Unit]:
        """Drop repeats (overlapping chunks), near-duplicates, and the older side of a figure conflict."""
        kept: list[Unit] = []
        for unit in units:
            clash = None
            for other in kept:
                same = (_same_sentence(unit.key, other.key)
                        or _jaccard(unit.stems, other.stems) >= NEAR_DUPLICATE)
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


def _about_code(unit: Unit, codes: list[str], siblings: list[re.Pattern[str]]) -> bool | None:
    """Whether a unit is about a code the question asks about (True), about a sibling code (False), or neither
    (None): by the first such code it names, with the field it continues ("E4 - High temperature. Restart it."), or
    else by the heading above it ("3.4.1 — 12 May › Fixed"), or else by what its record is of ("Property: Flat 3"),
    or else by the codes its document opens with.
    "Service C (Main work: Service B plus …)" is about Service C."""
    for text in (unit.said, unit.section, unit.subject):  # the record's subject last ("Property: Flat 3, …")
        named = sorted((m.start(), mentions(m.group(0), codes)) for shape in siblings for m in shape.finditer(text))
        if named:
            return named[0][1]
        if mentions(text, codes):
            return True
    # ... or else by the code its document opens with: every line of "TAX INVOICE Invoice No: INV-58213" is of that
    # invoice, every result of "Study code: CVT-218 (the SKYLARK-2 study)" of that study
    lettered = [code for code in codes if any(ch.isalpha() for ch in code)]  # (not a year: "2023-24")
    if unit.opening and lettered:
        shapes = [code_shape(code) for code in lettered]
        opened = sorted((m.start(), mentions(m.group(0), lettered)) for shape in shapes for m in shape.finditer(
            unit.opening))
        return opened[0][1] if opened else (True if mentions(unit.opening, lettered) else None)
    return None


def _within_bounds(figures: list[Quantity], found: list[Quantity]) -> bool | None:
    """Whether the question's amounts fall within the limits a passage sets on amounts of their kind ("grants of
    £5,000 or more" holds a £8,000 grant, "grants under £5,000" does not); None when the passage sets no such limit.
    The question's figure is a case to look up, not a claim to check against the limit."""
    verdicts = [q.value >= e.value if e.bound == "min" else q.value <= e.value
                for q in figures if not q.bound and q.kind in ("money", "count", "duration", "percent")
                for e in found if e.bound in ("min", "max") and e.kind == q.kind and e.unit == q.unit
                and not e.upper and not q.upper]
    return any(verdicts) if verdicts else None


def _coverage(part: QuestionPart, unit: Unit, reworded: frozenset[str]) -> tuple[int, int]:
    """How many of a part's focus words a unit names (in its words, its heading restating them, or reworded), out of
    those its document's title (or the field it continues) leaves to it: "Refrigerant: R290" names what "What
    refrigerant does the heat pump use?" asks of the "Heat pump" manual, but "Chair: Helen Marsh" not what "Who is
    the treasurer of the rowing club?" asks of the rowing club's minutes."""
    if _heading_asks(part, unit) or _gives_asked_reason(part, unit):
        return len(part.focus), len(part.focus)
    if left_out := frozenset(s for s in part.situation if s not in reworded and not stem_covered(s, unit.named_stems)):
        part = replace(part, focus=part.focus - left_out, situation=frozenset())  # the asker's own situation
    own = stems_cover(part.focus, unit.named_stems)
    named = _named(part, unit)
    titled = len((named | _headed(part, unit, named)) - reworded) - own
    return own + len(reworded), len(part.focus) - titled


def _gives_asked_reason(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit gives a reason for what a "why" part asks of its passage: a reason seldom restates what it
    explains ("Why did the depot flood?": "A blocked drain … overflowed" under "Root cause" in "Flooding at the
    depot")."""
    return (asks_reason(part.text) and gives_reason(f"{unit.said} {unit.section}")
            and stems_cover(part.focus, unit.stems | unit.context_stems) == len(part.focus))


def _named(part: QuestionPart, unit: Unit) -> frozenset[str]:
    """The focus words of a part that a unit names, or its document's title or the field it continues ("Motion 2:
    to ban glass bottles. Proposed by Lucy Wren."); those count only when they leave some to the unit ("How long does
    the chicken roast?" of a recipe titled "Roast chicken" is answered by the sentence that says "roast", not by
    "Preparation time: 20 minutes")."""
    own = frozenset(s for s in part.focus if stem_covered(s, unit.named_stems))
    around = _around(part, unit)
    # (the field a sentence continues is its subject, however much of the part it names: "Express coach (route
    # RB2) — non-stop. Hourly, …" says how often the express coach runs)
    return own | around if own or around != part.focus or part.focus <= unit.lead_stems else own


def _headed(part: QuestionPart, unit: Unit, named: frozenset[str]) -> frozenset[str]:
    """The focus words of a part that the heading above a unit names, when the unit names some itself: the heading
    gives it its topic ("Students pay a contribution of £45" under "Field trip" is the field trip's contribution,
    "Adults: £6" under "Entry charges" the adults' entry charge). Only when the two name every focus word between
    them (with the title): a heading that names one word of several leaves the question as open as before ("Water
    quality" over a river's ecological status answers nothing of its "summer water temperature"). `named` is
    `_named(part, unit)`."""
    if unit.under_title or not stems_cover(part.focus, unit.named_stems):
        return frozenset()
    headed = frozenset(s for s in part.focus if stem_covered(s, unit.heading_stems))
    return headed if all(stem_covered(s, unit.named_stems) for s in part.focus - headed - named) else frozenset()


def _around(part: QuestionPart, unit: Unit) -> frozenset[str]:
    """The focus words of a part that a unit's document title or the field it continues names: their very words, as a
    loose match would be everywhere ("terms" in a title for "cancel"), or the initials of the title's words ("AGM"
    of "Rowing Club – Annual General Meeting")."""
    acronyms = {w.lower() for w in _ACRONYM.findall(part.text) if w.lower() in unit.title_initials}
    return part.focus & (unit.title_stems | unit.lead_stems | acronyms)


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


def _names_rest_of_title(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit names every focus word of a part that its document's title does not, when the title names some
    or its label names them all: "Ravi Shah was re-elected as treasurer." answers "Who is the treasurer of the rowing
    club?" in the rowing club's minutes, and "Secretary: Tom Egan." "Who is the secretary?", however far their few
    words embed from the question's."""
    covered, asked = _coverage(part, unit, frozenset())
    return 0 < asked == covered and (asked < len(part.focus) or stems_cover(part.focus, unit.label_stems) == asked)


def _heading_asks(part: QuestionPart, unit: Unit) -> bool:
    """Whether the heading above a unit restates the part: it names every focus word, and negates as the part does
    ("What is not covered" over a list of exclusions answers "What does the policy not cover?"; "What is covered"
    does not). The document's title heads every sentence alike and restates nothing ("Incident report: checkout
    outage" above "Severity: SEV-1" answers no "How long did the checkout outage last?")."""
    if not part.focus or not unit.section or unit.under_title or is_negated(unit.section) != is_negated(part.text):
        return False
    # the title may name what the heading leaves out: "Action items" in "Incident report: …" asks "What are the
    # action items from the incident?"
    return (stems_cover(part.focus, unit.heading_stems | unit.title_stems) == len(part.focus)
            and stems_cover(part.focus, unit.heading_stems) * 2 >= len(part.focus))


def rare_stems(text: str, concepts: bool = False) -> frozenset[str]:
    """Stems of the words of a text that are rare in general English (Zipf frequency below RARE_WORD_ZIPF); with
    `concepts`, only of those that can name a thing: nouns, and words WordNet does not know ("Tidewright")."""
    from wordfreq import zipf_frequency  # its word list takes half a second to load: only when asked

    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    table = bundled_wordnet()
    return frozenset(s for w in words if zipf_frequency(w, "en", wordlist="small") < RARE_WORD_ZIPF
                     and not (concepts and table.word_senses(w) and not can_be_a_noun(w, table))
                     for s in content_stems(w))


# a sentence this long is also read by its clauses, each of at least CLAUSE_WORDS words
LONG_SENTENCE_WORDS, CLAUSE_WORDS = 20, 5
_CLAUSE_CUT = re.compile(r"[,;:][\"'”’]?\s+|\s+(?=\b(?:after|because|which|where|while|whereas|although|so that)\b)")


def _clauses(sentence: str) -> list[str]:
    """The clauses of a long sentence (at commas, semicolons and a few conjunctions); none for a short one."""
    if len(sentence.split()) < LONG_SENTENCE_WORDS:
        return []
    out: list[str] = []
    for piece in _CLAUSE_CUT.split(sentence):
        if out and len(piece.split()) < CLAUSE_WORDS and len(out[-1].split()) < CLAUSE_WORDS:
            out[-1] = f"{out[-1]}, {piece}"  # short pieces join: "said Cllr Ana Lee, cabinet member for transport"
        else:
            out.append(piece)
    return [c for c in out if len(c.split()) >= CLAUSE_WORDS]


def _focus_weights(focus: frozenset[str], units: list[Unit]) -> dict[str, float]:
    """Inverse document frequency of each focus stem over the evidence units: a word few passages share
    ("decides") tells more about which one answers than a word the whole section repeats ("ticket")."""
    distinct = {u.key: u for u in units}.values()
    n = len(distinct)
    return {s: float(np.log(1.0 + n / max(1, sum(1 for u in distinct if stem_covered(s, u.stems))))) for s in focus}


_NAME = re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?")
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)  # "The Chair welcomed …": a role written with a capital
# A speaker's label before what they say of themselves ("SANDRA: I can …", "Dr Lee: We will …").
_SPEAKER = re.compile(r"([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}): (?:I|I'll|I'm|I've|I'd|We|We'll|We've)\b")


def _asked_words(question: str) -> set[str]:
    """A question's words, lower case, a possessive's too without its "'s" ("Ellery's" asks of "Ellery")."""
    words = {w.lower() for w in re.findall(r"[\w'’-]+", question)}
    return words | {w[:-2] for w in words if w.endswith(("'s", "’s"))}


def _names_someone(question: str, unit: Unit) -> str:
    """How a unit names a person or body the question does not: "name" for a capitalised word that does not open it
    ("Priya Okonkwo"), "role" for a word for a kind of person or group where a doer stands ("approved by the finance
    manager", "The committee decides"), "" for neither."""
    asked = _asked_words(question)
    text = unit.text.lstrip("*_#>-•· ")
    label = unit.lead.split(":", 1)[0]
    if unit.lead and text.startswith(f"{label}: "):
        text = text[len(label) + 2:]  # a later sentence of a field opens after its label ("Motion 2: Carried.")
    lex = lexicon()
    dates = lex.word_set("calendar", "months") | lex.word_set("calendar", "weekdays")  # "every Tuesday" names no one
    if any(m.start() > 0 and m.group(0).lower() not in asked | dates and not _THE_BEFORE.search(text, 0, m.start())
           for m in _NAME.finditer(text)):
        return "name"
    speaker = _SPEAKER.match(text)
    if speaker and speaker.group(1).lower() not in asked:
        return "name"  # a transcript's "SANDRA: I can run the seed swap table": the speaker is who does it
    if _named_by_heading(unit):
        return "name"  # "This evening she sings …" under "Cerys Lamont, soprano": written with that heading
    return "role" if _roles(question, text) else ""


@cache
def _range_ends() -> frozenset[str]:
    """The stems of the words that ask for one end of a span ("begin", "end", "open", "close"; the lexicon's
    `range_start_words` and `range_end_words`): a range of dates or times states both."""
    lex = lexicon()
    return frozenset(content_stems(" ".join((*lex.words("figures", "range_start_words"),
                                             *lex.words("figures", "range_end_words")))))


def _asked_roles(part: QuestionPart, table: WordNetTable) -> frozenset[str]:
    """The stems of the role a "who is the …" question asks the holder of, a noun for a kind of person ending the
    phrase after "the" ("Who is the headteacher of Hollins Brook?"): its answer names the role too, or says it
    otherwise."""
    asked = _WHO_IS_THE.search(part.text)
    if asked is None:
        return frozenset()
    head = asked.group(1).split()[-1]
    if not (names_a_party(head, table, noun_here=True, head_here=True) or is_a_kind_of(head, "person", table)
            or head[:1].isupper()):  # (a title written as one: "Who is the Membership Lead at …?")
        return frozenset()
    return frozenset(content_stems(head) & part.focus)


_WHO_IS_THE = re.compile(r"\bwho\s+(?:is|was|are|were|will\s+be|has\s+been)\s+the\s+((?:[a-z]+\s+){0,2}[a-z]+)"
                         r"(?=\s+(?:of|for|at|in|on)\b|\s*[?.]?\s*$)", re.IGNORECASE)


def _qualifies_role(part: QuestionPart, text: str) -> bool:
    """Whether a text gives the role a "who" question asks about only with a rank before it that the question does
    not give: "Claire Dunsford; Vice-Chair." for "Who chaired the meeting?", "the deputy mayor" for "who is the
    mayor?" (the lexicon's `rank_qualifiers`)."""
    qualifiers = lexicon().word_set("contrasts", "rank_qualifiers")
    if set(re.findall(r"[a-z]+", part.text.lower())) & qualifiers:
        return False
    words = re.findall(r"[a-z]+", text.lower())
    roles = [i for i, w in enumerate(words) if content_stems(w) & part.focus]
    return bool(roles) and all(i > 0 and words[i - 1] in qualifiers for i in roles)


SUBJECT_WORDS = 4  # a word for a person among a sentence's first words is its subject ("The duty technician moves")
PARTY_REACH = 4  # ... or within this many words after "by", "to" ("reported to the radiation protection supervisor")


def _roles(question: str, text: str) -> list[str]:
    """The words for a kind of person or group ("manager", "committee") that stand where a doer or an addressee
    does, and that the question does not use."""
    lex = lexicon()
    noun_before, party_before = lex.word_set("questions", "noun_before"), lex.word_set("questions", "party_before")
    asked = _asked_words(question)
    asked_stems = content_stems(question)
    table = bundled_wordnet()
    words = re.findall(r"[A-Za-z]+", text)
    found = []
    for i, word in enumerate(words):
        if word.lower() in asked or not content_stems(word) or content_stems(word) & asked_stems:
            continue
        if len(word) < 4 or not (word.islower() or (i == 0 and word[1:].islower())):
            continue  # a role is a word in lower case; not "SEC" of a code, nor "io" (WordNet's Io, a priestess)
        before = [w.lower() for w in words[max(0, i - PARTY_REACH):i]]
        if i >= SUBJECT_WORDS and not set(before) & party_before:
            continue
        noun_here = bool(set(before[-2:]) & noun_before)  # "by the duty technician"
        # "the master decides", "each adult may ..." (a function word after it: "may" is no month here), "by an
        # adult aged 18" (a participle after it); not "the master bedroom"
        after = words[i + 1] if i + 1 < len(words) else ""
        head_here = (not after or not content_stems(after) or not can_be_a_noun(after, table)
                     or is_participle(after, table))
        if names_a_party(word, table, noun_here=noun_here, head_here=head_here):
            found.append(word)
    return found


def _holder(role_unit: Unit, question: str, units: list[Unit], taken: set[int]) -> int | None:
    """The unit of the same document that names whoever holds a role a "who" answer gave ("The treasurer is
    Priya Okonkwo." for "... kept by the treasurer"), if any."""
    roles = [content_stems(role) for role in _roles(question, role_unit.text)]
    for j, unit in enumerate(units):
        if (j not in taken and unit.chunk.document_id == role_unit.chunk.document_id
                and any(stems <= unit.stems for stems in roles) and _names_someone(question, unit) == "name"):
            return j
    return None


def _flagged_row_units(question: str, units: list[Unit]) -> list[Unit]:
    """The units of the table rows a yes/no column the question names marks as it asks (`ledger.judge.flags`), at
    most MAX_SENTENCES; [] when there are none or one of them is not among the units."""
    found = flagged_rows(question, list({u.chunk.hash: u.chunk for u in units}.values()))
    picked = [next((u for u in units if u.chunk.hash == chunk.hash and u.text == row_sentence(row)), None)
              for chunk, row in found[:MAX_SENTENCES]]
    return [u for u in picked if u is not None] if found and all(picked) else []


def _extreme_row_unit(question: str, units: list[Unit], answers: list[list[tuple[float, int]]]) -> Unit | None:
    """The unit of the table row at the end of a column a superlative question asks for ("the cheapest"), when no
    answering sentence uses the superlative itself ("the largest tributary is ...")."""
    asked = extreme(question)
    if asked is None:
        return None
    word = asked[1].lower()
    if any(word in units[i].text.lower() for found in answers for _, i in found):
        return None
    found = extreme_row(question, list({u.chunk.hash: u.chunk for u in units}.values()))
    if found is None:
        return None
    chunk, row = found
    sentence = row_sentence(row)
    return next((u for u in units if u.chunk.hash == chunk.hash and u.text == sentence), None)


def _states_figure(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit states the figure a part asks for: any figure (for "how long", "how much" … not a code's number:
    "SEV-1"), or for "how soon" a deadline in words."""
    named_only = bool(part.kinds) and bool(unit.quantities) and all(is_code(q) for q in unit.quantities)
    deadline = part.kinds >= DEADLINE_KINDS and bool(DEADLINE_WORDS.search(unit.text))
    return (_has_figure(part, unit) and not named_only) or deadline or _dated_by_heading(part, unit)


def _has_figure(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit states a figure the part may ask for: a telephone number or an address only for a question
    about contact details (`questions.toml` `contact_details`)."""
    return unit.has_figure if _asks_contact(part.text) else unit.has_amount


@cache
def _contact_words() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{phrase_pattern(lexicon().words('questions', 'contact_details'))})\b", re.IGNORECASE)


def _asks_contact(question: str) -> bool:
    return bool(_contact_words().search(question))


def _under_heading(unit: Unit) -> str:
    """A unit with the headings above it, once: "4.2.0 — 3 November 2026 › Added: bank feeds …" (a short item
    already starts with its own heading's name)."""
    *above, own = unit.section.split(SECTION_SEPARATOR)
    if above and unit.text.startswith(f"{own}: "):
        return f"{SECTION_SEPARATOR.join(above)}{SECTION_SEPARATOR}{unit.text}"
    return f"{unit.section}: {unit.text}"


def _named_by_heading(unit: Unit) -> bool:
    """Whether a unit names who does what it says by a personal pronoun among its first words while its own heading
    names someone ("Cerys Lamont, soprano" over "This evening she sings …")."""
    own = unit.section.split(SECTION_SEPARATOR)[-1]
    opening = re.findall(r"[A-Za-z]+", unit.text)[:4]
    pronouns = lexicon().word_set("stopwords", "personal_pronouns")
    return any(w.lower() in pronouns for w in opening) and len(_NAME.findall(own)) >= 2


def _dated_by_heading(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit answers "when" by the date of the heading above it: "Added: dark mode." under "4.1.0 — 22
    September 2026 › Added" in a changelog, when it states no date of its own. It is written with its heading."""
    return (part.kinds == DEADLINE_KINDS and not any(q.kind in DEADLINE_KINDS for q in unit.quantities)
            and any(q.kind in ("date", "weekday") for q in unit.section_quantities))


def _fits(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit is the kind of statement the part asks for: it names the part's action ("kept": a
    retention, not a submission deadline), is not about another period ("third quarter" for "second quarter"),
    states a figure of a wanted kind ("how often": a frequency or duration, not a fee), and for "how many
    visits" a figure of visits."""
    if part.actions and part.wants_figure:  # "how long are they kept"; not "where is the fair held"
        named = unit.stems | content_stems(unit.section)
        if not all(stem_covered(a, named) for a in part.actions):
            return False
    framing = f"{unit.section} {unit.chunk.section} {unit.chunk.title or ''}"  # its headings, in the chunk or above it
    if part.periods and period_conflict(part.periods, periods(f"{unit.text} {framing}")):
        return False
    kinds = {_kind(q, unit.text) for q in unit.quantities if not is_code(q)}
    if part.kinds and kinds and not kinds & part.kinds:
        return False
    if part.counted:  # "three home visits" answers "how many visits", "a Level 3 member" not "how many members"
        return _counts_what_is_asked(part, unit)
    return True


def _counts_what_is_asked(part: QuestionPart, unit: Unit) -> bool:
    """Whether a unit has a count of what a "how many" part counts: "three home visits" for "how many visits",
    "12 residents" for "how many people", "reviewed by three members" for "how many reviewers"."""
    counted = [w for w in re.findall(r"[A-Za-z]+", part.text) if content_stems(w) & part.counted]
    # a number after a capitalised word reads as a name ("Level 4"), but not after the question's own verb ("Serves 4.")
    return any(_object_of(part, unit.text[:q.start], unit.text[q.end:]) if q.identifier else
               _counts(part.counted, counted, _counted_phrase(unit.text[q.start:]))
               or _done_by(part.counted, counted, unit.text[:q.start])
               or _room_for(part.counted, unit.text[:q.start])
               or _object_of(part, unit.text[:q.start], unit.text[q.end:])
               or (q.labelled and _labelled_by(part.counted, counted, q.about))  # "Support tickets opened: 640"
               # a label on the question's other words counts who or what does them: "Attendance: 2,416" for "How
               # many people attended the match?"
               or (q.labelled and bool(q.about) and q.about <= part.focus - part.counted)
               for q in unit.quantities if q.kind in ("count", "number"))


def _labelled_by(stems: frozenset[str], words: list[str], about: frozenset[str]) -> bool:
    """Whether a labelled figure's label names what is counted. Its label words are key terms, which read some
    nouns as what they also say ("Falls (Walking group: 9)" as a decrease): each counted word is there as either."""
    return stems <= about or (bool(words) and all(content_stems(w) & about or term_stem(w) in about for w in words))


# a verb right before a count, perhaps with a limit between them: "serves 4", "seats up to 40"
_VERB_BEFORE = re.compile(r"\b([A-Za-z]+)\s+(?:(?:up\s+to|at\s+least|at\s+most)\s+)?$", re.IGNORECASE)


def _object_of(part: QuestionPart, before: str, after: str) -> bool:
    """Whether a bare count is what the question's own verb takes: "Serves 4." answers "How many people does the
    soup serve?", "sleeps up to six" "How many guests does the cabin sleep?"."""
    match = _VERB_BEFORE.search(before)
    if match is None or re.match(r"\s*[A-Za-z]", after):
        return False
    verb = content_stems(match.group(1))
    return bool(verb) and verb <= part.focus - part.counted


# "reviewed by at least": a passive verb and "by", then the count of whoever does it
_PASSIVE_BY = re.compile(
    r"\b([A-Za-z]+ed)\s+by\s+(?:(?:at\s+least|at\s+most|up\s+to|no\s+(?:more|fewer)\s+than|a\s+(?:minimum|maximum)"
    r"\s+of)\s+)?$", re.IGNORECASE)


def _done_by(stems: frozenset[str], words: list[str], before: str) -> bool:
    """Whether a count is of the people a question counts because they do what its verb says: "reviewed by three
    members" answers "how many reviewers" (a kind of person named after the verb)."""
    match = _PASSIVE_BY.search(before)
    if not match or not stems_cover(stems, content_stems(match.group(1))):
        return False
    table = bundled_wordnet()
    return any(is_a_kind_of(w, "person", table) for w in _singulars(words))


def _kind(q: Quantity, text: str) -> str:
    """A figure's kind for what a question asks: "speed" for a count in a unit of speed ("15.5 mph", "40 km/h"),
    "measure" for one in another unit of measure ("2.3 kilometres", "40 kg")."""
    if q.kind != "count":
        return q.kind
    if is_speed(q.text, text[q.end:]):
        return "speed"
    return "measure" if unit_size(measure_word(q.text)) else q.kind


def _room_for(stems: frozenset[str], before: str) -> bool:
    """Whether a count is of the room it follows: "space for one wheelchair" is one wheelchair space."""
    words = before.split()
    return len(words) >= 2 and words[-1].lower() == "for" and stems_cover(stems, content_stems(words[-2])) > 0


def _counted_phrase(text: str) -> str:
    """The first words of a count, which name what it counts: "3 missed payments"; past "of", what the counted
    things are of ("two reports of mild allergic reactions", "three cases of measles")."""
    words = text.split()
    return " ".join(words[: COUNTED_WORDS + (COUNTED_WORDS - 1 if words[2:3] == ["of"] else 0)])


def _counts(stems: frozenset[str], words: list[str], after: str) -> bool:
    """Whether the words after a count name what a question counts: the same word, or a kind of it ("12 residents",
    "2 to 5 players" for "how many people"; "three cars" for "how many vehicles")."""
    if stems_cover(stems, content_stems(after)):
        return True
    table = bundled_wordnet()
    return any(is_a_kind_of(w.lower(), kind, table) for w in re.findall(r"[A-Za-z]{3,}", after)
               for kind in _singulars(words))


def _singulars(words: list[str]) -> list[str]:
    """Question words as WordNet reads them, irregular plurals made singular ("people" is "person")."""
    singular = lexicon().table("synonyms", "phrases")
    return [singular.get(w.lower(), w.lower()) for w in words]


_COMPARATIVES = re.compile(
    r"\b(?:(longer|later|greater|higher|bigger|larger)|(shorter|earlier|smaller|lower))\s+than\b", re.IGNORECASE
)


def _plain_comparative(match: re.Match[str]) -> str:
    """"longer than 3 hours" → "more than 3 hours", which the quantity parser reads as a lower bound."""
    return "more than" if match.group(1) else "less than"


def _is_title(unit: Unit) -> bool:
    title = re.sub(r"\W+", " ", (unit.chunk.title or "").lower()).strip()
    return bool(title) and (title == unit.key or title.startswith(unit.key + " "))


def _newer(a: Unit, b: Unit) -> bool:
    return a.chunk.doc_date is not None and (b.chunk.doc_date is None or a.chunk.doc_date > b.chunk.doc_date)


def _same_sentence(a: str, b: str) -> bool:
    """Whether two units' keys are one sentence, perhaps with its heading in front in one of them: a list item after
    its heading in one chunk ("Timeline: 14:21 — Incident declared") and at the top of the next, overlapping one."""
    short, long = sorted((a, b), key=len)
    return a == b or (long.endswith(f" {short}") and len(short.split()) >= SENTENCE_WORDS)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


_WHAT_IS = re.compile(r"^\s*what\s+(?:is|are|was|were)\s+(.+?)\s*\?*\s*$", re.IGNORECASE)


def _asked(question: str) -> str:
    """What a question asks for: "X" of "What is X?", else the question quoted without its question mark (a "?"
    inside the sentence would make the splitter end the abstention there and leave a stray claim behind)."""
    match = _WHAT_IS.match(question)
    if match:
        return match.group(1).rstrip("?!. ")
    q = re.sub(r"\s*[?!]+\s*", ", ", question.strip().rstrip("?!. ")).strip(", ")
    return f'an answer to the question "{q}"'


_CLOSEST = re.compile(r"^(The documents do not state .+?); the closest passage is (?:under \".*?\" )?in .+\.$",
                      re.DOTALL)


def without_closest(sentence: str) -> str | None:
    """An abstention without the passage it names as closest ("The documents do not state X."), when the sentence is
    one (`_abstention`); None otherwise. The reviser says this once the quote after it has changed."""
    match = _CLOSEST.match(sentence.strip())
    return f"{match.group(1)}." if match else None


_ENDS = re.compile(r"\s*[?!]+(?=\s|$)")


def _abstention(question: str, closest: Unit) -> str:
    """Say what is missing without asserting anything; the judge excludes it as a meta-statement."""
    # a "?" in a heading ("What are your opening hours?") would end the sentence there, as in `_asked`
    where = _ENDS.sub("", closest.chunk.title or "") or "the documents"
    section = _ENDS.sub("", closest.section.capitalize() if closest.section.isupper() else closest.section)
    under = f'under "{section}" ' if section and section != where else ""
    return f"The documents do not state {_asked(question)}; the closest passage is {under}in {where}."
