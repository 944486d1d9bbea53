"""Support checks: how far one evidence chunk supports one claim (seed 004 §4.3), and the quote that decides it.

The local checker is offline and deterministic. It finds the chunk sentence(s) most like the claim with the
bundled embedding model, then compares claim and quote on figures, dates, polarity and key terms by the pure
rules of `ledger.judge.support_rules`. It caches sentence embeddings and candidate quotes (bounded).
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ingest.chunking import is_heading
from ingest.tables import row_sentence
from ledger.core.settings import JudgeSettings
from ledger.core.types import Chunk, Support
from ledger.judge.candidates import LIKELY_SENTENCES, likely_sentences, text_sentences
from ledger.judge.claims import is_question, is_request
from ledger.judge.superlatives import extreme, ranked_claim
from ledger.judge.support_rules import (
    COMPUTED,
    DEFAULT_THRESHOLDS,
    FIGURES_AGREE,
    SupportCheck,
    SupportFeatures,
    Thresholds,
    choose_check,
    decide_rules,
    features,
    heading_code_swap,
)
from ledger.judge.word_relations import one_inside_the_other, same_sense
from ledger.text.figure_context import is_row_sentence
from ledger.text.quantities import Agreement, compare_quantities, extract_quantities
from ledger.text.sentences import label_lines, split_sentences
from ledger.text.terms import coverage, key_terms, polarity

if TYPE_CHECKING:
    from ingest.embedding import Embedder
    from ledger.judge.substitutions import ContrastModel

_CLAUSE = re.compile(r"[^;]+")
# the clauses of a long sentence joined by ", and" or ", but" ("We welcome X, who joins us as Year 4 teacher, and say
# goodbye to Y, who retires after 22 years"): each is read on its own too
_JOINED = re.compile(r"(?:^|(?<=,\s(?:and|but)\s)).+?(?=,\s(?:and|but)\s|$)")
LONG_SENTENCE_WORDS = 20
# the attribution after a direct quotation: '"…," said Councillor Ana Ruiz, cabinet member for culture.'
_ATTRIBUTION = re.compile(r"[,.!?][\"”]\s+((?:said|says|added|explained)\b[^\"“”]+)$")
DENIAL_COVERAGE = 0.5  # a sentence of a quote denying the claim must hold this share of the claim's key terms
log = logging.getLogger(__name__)


__all__ = ["LocalSupportChecker", "SupportCheck", "SupportChecker"]


class SupportChecker(Protocol):
    """Decides support for every (claim, chunk) pair of one judging round in one call."""

    name: str

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """One check per pair, in order."""
        ...


@dataclass(frozen=True)
class _Candidate:
    """A possible quote: one sentence, two neighbours, or a heading (or lead-in line) with a sentence under it."""

    text: str
    start: int
    end: int
    sentences: int
    polarity: str | None  # the text whose polarity counts; None: the member sentence closest to the claim
    units: tuple[str, ...]  # the texts embedded; a candidate of several is their mean (one pass over each sentence)
    fallback: bool = False  # read only when no other candidate bears on the claim (a clause of a long sentence)


# "No. Open fires are not permitted ..." answers the question above it; "No one may ..." does not
_YES_NO = re.compile(r"^\W*(yes|no)\b(?!\s+(?:more|longer|later|one)\b)", re.IGNORECASE)


# a list item's bullet, right before where a sentence starts (searched from the line break before it to that start)
_ITEM_MARK = re.compile(r"[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+")  # all a line holds before its item's first word


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _answered(question: tuple[str, int, int], answer: str, end: int) -> _Candidate:
    """A question with the sentence under it ("Are campfires allowed? … No. Open fires are not permitted."): the
    answer is quoted with its question, but only the answer is embedded and read; a "Yes" or "No" answer states
    the question itself, affirmed or denied, so then the question is embedded and read, with that polarity."""
    asked = question[0].strip(" *_").rstrip("?")
    text = f"{question[0].strip(' *_')} … {answer}"
    said = _YES_NO.match(answer)
    if said is None:
        return _Candidate(text, question[1], end, 2, answer, (answer,))
    polarity = f"{asked}." if said.group(1).lower() == "yes" else f"Not so: not {asked}."
    return _Candidate(text, question[1], end, 2, polarity, (question[0],))


def _parts(sentence: str) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """Clauses of a sentence with semicolons ("...; for a Severity 1 incident the CISO ..."), else of a long one joined
    by ", and" or ", but" (read only as a fallback: `_Candidate.fallback`); not the cells of a table row's sentence,
    whose semicolons are inside its brackets ("Lamb shank (Price: £19.75; Contains: celery).")."""
    if (said := _ATTRIBUTION.search(sentence)) and len(said.group(1).split()) >= 4:
        # who said a quotation, and in what role: '"…," said Councillor Ana Ruiz, cabinet member for culture.'
        return [(said.group(1), said.start(1), said.end(1), (said.group(1),))]
    clause = _CLAUSE if ";" in sentence else _JOINED if len(sentence.split()) >= LONG_SENTENCE_WORDS else None
    if clause is None or (clause is _CLAUSE and is_row_sentence(sentence)):
        return []  # a middle cell ("Deadline: 15 September") read alone loses its row ("Autumn (…")
    out: list[tuple[str, int, int, tuple[str, ...]]] = []
    for m in clause.finditer(sentence):
        piece = m.group(0).strip()
        if len(piece.split()) >= 4 and piece != sentence.strip() and piece.count("(") == piece.count(")"):
            start = sentence.index(piece, m.start())
            out.append((piece, start, start + len(piece), (piece,)))
    return out


def _with_stated_figures(cand: _Candidate, passage: str, agreement: Agreement) -> tuple[str, int, int]:
    """(quote, start, end) of a candidate, with the passage's sentences that state the claim's figures it lacks
    ("# Incident report: outage on 3 November … The service returned errors for 77 minutes."): a quote shows every
    figure the verdict rests on."""
    quote, start, end = cand.text, cand.start, cand.end
    figures = [m.evidence for m in agreement.matches if m.elsewhere and m.evidence is not None]
    sentences = split_sentences(passage) if figures else []
    for e in figures:
        stated = next(((s, a, b) for s, a, b in sentences if a <= e.start < b), None)
        if stated is None or stated[0] in quote:
            continue
        quote = f"{quote} … {stated[0]}" if stated[1] >= end else f"{stated[0]} … {quote}"
        if start >= 0:
            start, end = min(start, stated[1]), max(end, stated[2])
    return quote, start, end


UNCHECKED = "could not be checked"  # how the reason of a pair that failed on a bug starts
SAYS_MORE = "the model reads the claim as saying more than the quote"  # how support the model dropped is explained


def _unchecked(claim: str, exc: Exception) -> SupportCheck:
    """The check of a pair that could not be checked: no support, and why, logged once at WARNING."""
    message = (str(exc).splitlines() or [""])[0][:160]
    reason = f"{UNCHECKED}: {type(exc).__name__}: {message}"
    log.warning("support check failed for claim %r: %s", claim[:80], reason, exc_info=log.isEnabledFor(logging.DEBUG))
    return SupportCheck("none", "", 0.0, reason, "error")


def _context(chunk: Chunk) -> str:
    """What the chunk's document says about itself: its title, date and the headings the chunk starts under."""
    date = chunk.doc_date.isoformat() if chunk.doc_date else ""
    return " ".join(part for part in (chunk.title, date, chunk.section) if part)


def likely_chunk_sentences(claim: str, chunk_text: str, keep: int | None = LIKELY_SENTENCES) -> list[str]:
    """The sentences of a chunk worth embedding for a claim: the likeliest `keep`, their neighbours and headings."""
    return likely_sentences(claim, text_sentences(chunk_text), keep, is_heading)


def _ranked(claim: str, chunk: Chunk, check: SupportCheck) -> SupportCheck:
    """A claim that a row of the chunk's table is at one end ("the cheapest option") decided by the table: supported
    by that row when it is (and its figures agree), contradicted by the row at that end when it is not
    (`ledger.judge.superlatives`); otherwise the check as it was."""
    ranked = ranked_claim(claim, chunk)
    asked = extreme(claim)
    if ranked is None or asked is None:
        return check
    holds, named, top = ranked
    quote = row_sentence(top)
    start = max(chunk.text.find(quote), 0)
    if holds:
        if compare_quantities(extract_quantities(claim), extract_quantities(quote)).conflicts:
            return check  # the row is at that end, but the claim gives it another figure: the figure rules decide
        why = f"{FIGURES_AGREE} ({COMPUTED} {top.cells[0]} is the {asked[1]} in the table)"  # shown as the working
        return SupportCheck("full", quote, check.similarity, why, "computed", start, start + len(quote))
    return SupportCheck("contradicted", quote, check.similarity, f"the {asked[1]} in the table is {top.cells[0]}, "
                        f"not {named.cells[0]}", "quantity", start, start + len(quote))


class LocalSupportChecker:
    """Offline support checker: embedding similarity plus figure, date, negation and key-term agreement."""

    name = "local"
    top_candidates = 4  # quotes examined per pair: the most similar one may be a heading or a neighbour
    max_cache = 50_000
    sentences_per_pair: int | None = LIKELY_SENTENCES  # sentences of a chunk read per claim (ledger.judge.candidates)

    def __init__(
        self, embedder: Embedder, settings: JudgeSettings | None = None, thresholds: Thresholds | None = None,
        contrasts: ContrastModel | None = None,
    ) -> None:
        self.embedder = embedder
        self.settings = settings or JudgeSettings()  # the judge's settings; the rules' own cut-offs are `thresholds`
        self.thresholds = thresholds or DEFAULT_THRESHOLDS
        self.contrasts = contrasts  # learned word contrasts (landlord/tenant, more/less); None: the rules alone
        self._vectors: dict[str, np.ndarray] = {}
        self._candidates: dict[tuple[str, str], list[_Candidate]] = {}

    def candidates(self, chunk_text: str, section: str = "") -> list[_Candidate]:
        """Sentences of a chunk and each pair of neighbouring sentences (a claim may span two), and each sentence
        with the heading above it: in the chunk, or the `section` it starts under (its quote has no span there)."""
        cached = self._candidates.get((chunk_text, section))
        if cached is not None:
            return cached
        text = chunk_text
        spans = label_lines(split_sentences(text)) or ([(text.strip(), 0, len(text))] if text.strip() else [])
        out: list[_Candidate] = []
        # the nearest heading or lead-in line above
        heading: tuple[str, int, int] | None = (section, -1, -1) if section else None
        outer = heading  # the heading above a lead-in line, which is the heading again once its list ends
        in_list = False  # the sentence before was an item under a lead-in
        line_starts = [0] + [m.end() for m in re.finditer("\n", text)]  # (found by bisection: a long line is one scan)

        def starts_item(at: int) -> bool:  # the text at `at` opens a list item: "\n2. Test the backups"
            return _ITEM_MARK.fullmatch(text, line_starts[bisect_right(line_starts, at) - 1], at) is not None

        for i, (sentence, start, end) in enumerate(spans):
            prev = spans[i - 1] if i > 0 else None
            if is_question(sentence) and not is_request(sentence):  # a request tells someone what to do
                continue  # a question states nothing; with the sentence under it, it is quoted as an answered one
            lead_in = heading is not None and heading[0].rstrip().endswith(":")
            if lead_in and heading is not None and starts_item(start):
                # an item finishes its lead-in's sentence: "We will not pay for: … any loss while the home is let"
                # is read whole, never the item alone (which would state the opposite)
                joined = f"{heading[0]} … {sentence}"
                out.append(_Candidate(joined, heading[1], end if heading[1] >= 0 else -1, 2, joined,
                                      (heading[0], sentence)))
                in_list = True
                continue
            if in_list:  # the list has ended: its lead-in heads nothing more, and its last item pairs with nothing
                heading, prev, in_list = outer, None, False
            elif (lead_in and heading is not None and prev is not None and heading[1] >= 0 and prev[1] > heading[1]
                  and _PARAGRAPH_BREAK.search(text, prev[2], start)):
                # a lead-in's lines end at a blank line: "Central Library:\n  Wednesday: 10am to 7pm\n\nOakhurst
                # library is open …" puts nothing of Oakhurst's under it
                heading = outer
            out.append(_Candidate(sentence, start, end, 1, sentence, (sentence,)))
            # Parts of a long sentence ("...; for a Severity 1 incident the CISO ...").
            by_and = ";" not in sentence  # clauses joined by ", and": read when the whole sentence says nothing
            out += [_Candidate(p, start + a, start + b, 1, p, units, by_and) for p, a, b, units in _parts(sentence)]
            if prev is not None and is_question(prev[0]) and not is_request(prev[0]):
                out.append(_answered(prev, sentence, end))
            elif prev is not None and (is_heading(prev[0]) or not (
                    starts_item(start) or is_row_sentence(prev[0]) and is_row_sentence(sentence))):
                # (an item or a table row starts afresh: "… Due: 1 May.\n2. Test …" is no pair)
                lead = is_heading(prev[0])
                # a heading right above is quoted as one further up is, "Payment … Annual berth holders may pay ...",
                # not run into its sentence ("Payment Annual berth holders") once the quote's line breaks collapse
                pair = f"{prev[0]} … {sentence}" if lead else text[prev[1]:end]
                out.append(_Candidate(pair, prev[1], end, 2, pair if lead else None, (prev[0], sentence)))
            if heading is not None and (prev is None or heading[2] < prev[1]):  # a heading further up: quote both
                joined = f"{heading[0]} … {sentence}"
                out.append(_Candidate(joined, heading[1], end if heading[1] >= 0 else -1, 2, joined,
                                      (heading[0], sentence)))
            if is_heading(sentence):
                if sentence.rstrip().endswith(":") and not (heading and heading[0].rstrip().endswith(":")):
                    outer = heading
                heading = (sentence, start, end)
        if len(self._candidates) > self.max_cache // 10:
            self._candidates.clear()
        self._candidates[(chunk_text, section)] = out
        return out

    def _embed(self, texts: list[str]) -> None:
        """Embed the texts not seen before, all in one encode call, and remember them."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if not todo:
            return
        if len(self._vectors) + len(todo) > self.max_cache:
            self._vectors.clear()  # a crude bound: a long-running UI process must not grow without limit
        for text, vector in zip(todo, self.embedder.encode(todo), strict=True):
            self._vectors[text] = vector

    def _vector(self, candidate: _Candidate) -> np.ndarray:
        """A candidate's embedding: its own, or the normalised mean of its sentences' (no second encoder pass)."""
        if len(candidate.units) == 1:
            return self._vectors[candidate.units[0]]
        mean = np.sum([self._vectors[u] for u in candidate.units], axis=0)
        return mean / (np.linalg.norm(mean) or 1.0)

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """One check per (claim, chunk) pair; everything the batch needs is embedded in one call.

        A pair whose check fails on a bug (odd text no rule foresaw) is reported as unchecked, with support
        "none" and rule "error", and the rest of the batch is still checked: one document never sinks a run.
        """
        per_pair: list[list[_Candidate] | Exception] = []
        for claim, chunk in pairs:
            try:
                per_pair.append(self._likely_candidates(claim, chunk.text, chunk.section))
            except Exception as exc:  # a bug must cost this chunk's pairs, not the batch
                per_pair.append(exc)
        units = [u for cands in per_pair if isinstance(cands, list) for c in cands for u in c.units]
        self._embed([claim for claim, _ in pairs] + units)
        return [self._check_pair(claim, cands, chunk) for (claim, chunk), cands in zip(pairs, per_pair, strict=True)]

    def _likely_candidates(self, claim: str, chunk_text: str, section: str = "") -> list[_Candidate]:
        """The chunk's candidates made only of its sentences likeliest to matter to the claim (and their clauses):
        the sentences the judge's candidate search embedded (`likely_sentences`), so nothing is embedded twice."""
        candidates = self.candidates(chunk_text, section)
        if self.sentences_per_pair is None:
            return candidates
        chosen = likely_chunk_sentences(claim, chunk_text, self.sentences_per_pair)
        allowed = set(chosen) | {part[0] for sentence in chosen for part in _parts(sentence)} | {section}
        return [c for c in candidates if allowed.issuperset(c.units)]

    def _check_pair(self, claim: str, candidates: list[_Candidate] | Exception, chunk: Chunk) -> SupportCheck:
        """The check of one pair, or an unchecked result when its chunk or its rules failed."""
        if isinstance(candidates, Exception):
            return _unchecked(claim, candidates)
        try:
            check = self._check_one(claim, candidates, _context(chunk), chunk.text)
            return _ranked(claim, chunk, check) if chunk.table_rows else check
        except Exception as exc:  # a bug must cost this pair, not the batch
            return _unchecked(claim, exc)

    def _check_one(
        self, claim: str, candidates: list[_Candidate], context: str = "", passage: str = "",
    ) -> SupportCheck:
        if not candidates:
            return SupportCheck("none", "", 0.0, "the evidence is empty", "none")
        primary = [c for c in candidates if not c.fallback]
        if primary and len(primary) < len(candidates):
            check = self._check_one(claim, primary, context, passage)
            if check.support != "none":
                return check
            # ... then the clauses of long sentences, when one of them decides; else the whole sentences stand
            # (the support model reads the quote chosen here)
            clauses = self._check_one(claim, [c for c in candidates if c.fallback], context, passage)
            return clauses if clauses.support != "none" else check
        claim_vec = self._vectors[claim]
        sims = np.array([float(self._vector(c) @ claim_vec) for c in candidates])
        claim_terms = key_terms(claim)
        # Rank by similarity, nudged by term overlap; a sentence pair must beat its parts to be quoted.
        scores = [
            s + 0.2 * coverage(claim_terms, key_terms(c.text))[0] - 0.03 * (c.sentences - 1)
            for s, c in zip(sims, candidates, strict=True)
        ]
        order = sorted(range(len(candidates)), key=lambda i: -scores[i])[: self.top_candidates]
        checks: list[tuple[float, float, SupportCheck]] = []
        for i in order:
            cand = candidates[i]
            polarity_text = cand.polarity or self._closest_sentence(claim_terms, cand.text)
            learned = self._contrasts(claim, polarity_text, cand)
            f = features(claim, cand.text, sims[i], polarity_text, context, learned, self._nested, passage,
                         self._synonym)
            support, rule, reason = decide_rules(f, self.thresholds)
            if cand.polarity is None and support in ("full", "partial"):
                denied = self._denied_elsewhere(claim, claim_terms, cand.text, polarity_text, sims[i], context,
                                                passage)
                if denied is not None:
                    f, (support, rule, reason) = denied
            if support in ("full", "partial") and (swap := heading_code_swap(
                    claim, cand.text, passage[: max(cand.start, 0)], context)) is not None:
                support, rule, reason = "contradicted", "swap", f"the heading above says {swap[1]}, claim says " \
                                                                f"{swap[0]}"
            quote, start, end = cand.text, cand.start, cand.end
            if support in ("full", "partial"):
                quote, start, end = _with_stated_figures(cand, passage, f.quantities)
            check = SupportCheck(support, quote, float(sims[i]), reason, rule, start, end,
                                 negated=f.claim_negated and f.quote_negated)
            checks.append((scores[i], f.coverage, check))
        return choose_check(checks)

    def _denied_elsewhere(
        self, claim: str, claim_terms: tuple[str, ...], quote: str, read: str, similarity: float, context: str,
        passage: str,
    ) -> tuple[SupportFeatures, tuple[Support, str, str]] | None:
        """The features and decision of a quote of several sentences read with the polarity of another of its
        sentences (or clauses), when that one denies the claim: "Lessons may be cancelled when snow closes the
        roads. ...; the tutor may postpone a lesson but cannot cancel it." against "The tutor can cancel a lesson"
        reads as support from its first sentence. None when no other piece about the claim denies what the claim
        says (the word its negation denies first is one of the claim's, and it states a figure of the claim when the
        piece read does)."""
        pieces = [p for s, _, _ in split_sentences(quote) for p in [s, *(part[0] for part in _parts(s))]]
        figures = extract_quantities(claim)
        stated = figures and compare_quantities(figures, extract_quantities(read)).matched
        for piece in pieces:
            if piece == read or coverage(claim_terms, key_terms(piece))[0] < DENIAL_COVERAGE:
                continue
            if stated and not compare_quantities(figures, extract_quantities(piece)).matched:
                continue  # none of the claim's figures, beside a piece that states them: it denies something else
                # ("Do not use the pump for salt water." beside "… through an RCD of no more than 30 mA.")
            if not polarity(piece, claim_terms)[1]:
                continue  # its negation denies something the claim does not say ("Trade waste is not accepted")
            f = features(claim, quote, similarity, piece, context, (), self._nested, passage, self._synonym)
            decision = decide_rules(f, self.thresholds)
            if decision[0] == "contradicted" and decision[1] == "negation":
                return f, decision
        return None

    def _contrasts(self, claim: str, read: str, cand: _Candidate) -> tuple[tuple[str, str], ...]:
        """The learned contrasts of the sentence read for polarity, or of the candidate's other sentences: of two
        neighbours, the one naming who the claim is about ("Margarethe Oyen (1841-1907) was a botanist.") is read,
        the next ("She was educated at home by her father") puts "father" in the claim's "mother"'s place."""
        if self.contrasts is None:
            return ()
        found = self.contrasts.contrasts(claim, read)
        if found or cand.sentences < 2:
            return found
        return next((c for unit in cand.units if unit != read and (c := self.contrasts.contrasts(claim, unit))), ())

    def _synonym(self, a: str, b: str) -> bool:
        """Whether two words share a commonest sense in WordNet (with the learned contrasts' table; without, no)."""
        return self.contrasts is not None and same_sense(a, b, self.contrasts.wordnet)

    def _nested(self, a: str, b: str) -> bool:
        """Whether one name is a part of the other in WordNet (with the learned contrasts' table; without them, no)."""
        return self.contrasts is not None and one_inside_the_other(a, b, self.contrasts.wordnet)

    @staticmethod
    def _closest_sentence(claim_terms: tuple[str, ...], text: str) -> str:
        """The sentence (or part of a flattened table) of a quote that shares most key terms with the claim."""
        pieces = [p for s, _, _ in split_sentences(text) for p in [s, *(part[0] for part in _parts(s))]] or [text]
        return max(pieces, key=lambda s: (coverage(claim_terms, key_terms(s))[0], -len(s)))
