"""The deterministic reviser of the local backend (seed 004 §6.2): edits a draft sentence by sentence from its ledger.

Per ledger entry (the claim's span locates its sentence in the draft):
- `not_found`: a critical claim becomes "The documents do not state that …" (a statement about the corpus,
  which ledger.judge.claims does not count as a claim); any other is removed.
- `contradicted`: the sentence is replaced by the sentence of the deciding quote that corrects it (the one
  whose figures differ from the claim's, else the one closest to it), cited to the deciding chunk — but only a
  sentence about the same thing: one that names the claim's subject with another qualifier ("an internet stipend"
  for "a wellness stipend") states a neighbouring fact, not a correction, so the claim is treated as not found.
- `supported` / `weak`: the text stays; citations that do not support it (misattributed, phantom, or none
  at all) are replaced by the supporting chunks it already cites, else by the deciding chunk.
Sentences that are not claims stay as they are, except that citations to unknown chunks are dropped. The
decision's instructions come from the same ledger, so the ledger alone drives the edits: revising a draft
whose claims are all supported and properly cited returns it unchanged, and so does revising a revision.
If every claim had to go, the answer is re-drafted extractively from the evidence rather than left empty.
"""

from __future__ import annotations

import re

from ledger.backends.base import Draft, RevisionRequest
from ledger.backends.local.units import CLAUSE_NUMBER, evidence_units, lower_first
from ledger.backends.local.writer import LocalWriter, cite, without_closest
from ledger.core.types import Chunk, EvidenceLedger, EvidenceMatch, LedgerEntry
from ledger.judge.claims import exclusion_reason, extract_claims
from ledger.text.quantities import compare_quantities, extract_quantities
from ledger.text.sentences import parse_citations, split_sentences
from ledger.text.terms import STOPWORDS, coverage, key_terms

_SUPPORTING = ("full", "partial")


def _common_opening(first: str, rest: str) -> bool:
    """Whether a sentence's first word is no name, so it goes in lower case mid-sentence: a function word ("All"),
    or a plural noun followed by a lower-case word ("Members must …"); a name keeps its capital."""
    if first.lower() in STOPWORDS:
        return True
    plural = first.istitle() and first.isalpha() and first.endswith("s") and not first.endswith("ss")
    return plural and rest[:1].islower()


def qualified(claim_text: str) -> str:
    """A claim restated as what the documents do not say; no claim remains for the judge to count."""
    body = claim_text.strip().rstrip(".!;: ")
    first, _, rest = body.partition(" ")
    if _common_opening(first, rest):
        body = f"{first.lower()} {rest}".strip()
    return f"The documents do not state that {body}."


def _with_citations(sentence: str, hashes: list[str]) -> str:
    """The sentence with exactly these anchors, in the writer's position (before the final period)."""
    text, _ = parse_citations(sentence)
    return cite(text, hashes) if hashes else text


def _quote_sentences(quote: str) -> list[str]:
    """The sentences of a quote; the support checker joins a heading and a sentence with " … "."""
    out = []
    for part in quote.split(" … "):
        for sentence, _, _ in split_sentences(part):
            clean = CLAUSE_NUMBER.sub("", re.sub(r"\s+", " ", re.sub(r"\*\*|__|`", "", sentence)).strip())
            if exclusion_reason(clean) is None:
                out.append(clean)
    return out


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9$%]+", text.lower()))


_TOKEN = re.compile(r"[^\W\d_](?:[\w'’-]*[^\W_])?|\S")


def _slots(text: str) -> list[str | None]:
    """The text as a row of word stems: a content word is its key-term stem; a function word, a digit or a mark is
    None (a gap between words that belong together)."""
    out: list[str | None] = []
    for token in _TOKEN.findall(text):
        terms = key_terms(token) if token[0].isalpha() else ()
        out.append(terms[-1] if terms else None)
    return out


def _qualifiers(slots: list[str | None], shared: set[str], own: set[str]) -> dict[str, set[str]]:
    """For each shared word, the words only this side has right before it ("wellness" of "wellness stipend")."""
    found: dict[str, set[str]] = {}
    for before, word in zip(slots, slots[1:], strict=False):
        if word in shared and before is not None and before in own:
            found.setdefault(word, set()).add(before)
    return found


def other_subject(claim: str, sentence: str) -> bool:
    """Whether `sentence` speaks of something else than `claim` under the same name: a word they share is qualified
    by a word only the claim has in one and by a word only the sentence has in the other ("a $1,000 wellness
    stipend" / "an internet stipend of $35"; "managers approve" / "directors approve"). Such a sentence states a
    neighbouring fact; it cannot correct the claim."""
    a, b = _slots(claim), _slots(sentence)
    a_words, b_words = {w for w in a if w}, {w for w in b if w}
    shared = a_words & b_words
    mine = _qualifiers(a, shared, {w for w in a_words - b_words if not _kin(w, b_words)})
    theirs = _qualifiers(b, shared, {w for w in b_words - a_words if not _kin(w, a_words)})
    return any(word in theirs for word in mine)


KIN_PREFIX = 5  # letters two stems share at their start to be one word in two forms ("residenc"/"resid")


def _kin(stem: str, others: set[str]) -> bool:
    """Whether another form of the word is among `others`: "permanent residence" and "permanently resident" qualify
    the same thing, which the stemmer keeps apart."""
    return len(stem) >= KIN_PREFIX and any(o[:KIN_PREFIX] == stem[:KIN_PREFIX] for o in others)


def correction(entry: LedgerEntry, evidence: list[Chunk]) -> tuple[str, str] | None:
    """(corrected sentence, chunk hash) for a contradicted claim: the deciding quote's sentence that says otherwise
    about the same thing; None when no sentence of the quote is about the claim's subject."""
    deciding = next((m for m in entry.evidence if m.support == "contradicted"), None)
    if deciding is None or not deciding.quote.strip():
        return None
    pool = _quote_sentences(deciding.quote)
    chunk = next((c for c in evidence if c.hash == deciding.chunk_hash), None)
    if chunk is not None:
        # The writer's rendering of the same sentence reads better (a table row as a sentence, a list item with its
        # lead-in): use it where it and a quote sentence contain one another.
        rendered = {_words(u.text): u.text for u in evidence_units([chunk])}
        pool = [next((t for w, t in rendered.items() if _words(s) in w or w in _words(s)), s) for s in pool]
    pool = [s for s in pool if not other_subject(entry.claim.text, s)]
    if not pool:
        return None
    claim_terms = key_terms(entry.claim.text)
    claim_figures = extract_quantities(entry.claim.text)

    def rank(item: tuple[int, str]) -> tuple[bool, float, int]:
        # The sentence stating another figure for the claim's figure, then the one sharing most of its words, then
        # the first: the support checker puts the deciding sentence first.
        index, text = item
        clash = bool(claim_figures) and bool(compare_quantities(claim_figures, extract_quantities(text)).conflicts)
        return clash, coverage(claim_terms, key_terms(text))[0], -index

    best = max(enumerate(pool), key=rank)[1]
    # A sentence under the quote's heading may leave its subject there ("Winter sports … The extension is not
    # included in this policy."): the heading goes in front, as the writer renders a short item under it.
    heading = deciding.quote.split(" … ")[0] if " … " in deciding.quote else ""
    if heading and exclusion_reason(heading) is not None and best not in heading:
        lost = set(key_terms(heading)) & set(claim_terms) - set(key_terms(best))
        if lost:
            best = f"{heading.strip().rstrip(':')}: {lower_first(best)}"
    return best, deciding.chunk_hash


class RuleReviser:
    """Revises a draft from its ledger by the rules of seed 004 §6.2; deterministic and idempotent."""

    def __init__(self, writer: LocalWriter) -> None:
        self.writer = writer  # re-drafts an answer whose every claim had to go

    def run(self, request: RevisionRequest) -> Draft:
        """The next draft; the decision and critique are derived from the ledger, which carries the detail needed."""
        return Draft(self.revise(request.question, request.draft, request.ledger, request.evidence))

    def revise(self, question: str, draft: str, ledger: EvidenceLedger, evidence: list[Chunk]) -> str:
        """The revised text of `draft`."""
        by_span = {e.claim.span: e for e in ledger.entries}
        by_text = {e.claim.text: e for e in ledger.entries}
        known = {c.hash for c in evidence} | {m.chunk_hash for e in ledger.entries for m in e.evidence}
        edits: list[tuple[int, int, str]] = []
        spans = split_sentences(draft)
        present = {_words(parse_citations(s)[0]) for s, _, _ in spans}
        for sentence, start, end in spans:
            text, cited = parse_citations(sentence)
            entry = by_span.get((start, end)) or by_text.get(re.sub(r"\*\*|__|`", "", text).strip())
            new = self._revise(sentence, cited, entry, known, evidence)
            fixed_text = _words(parse_citations(new)[0])
            if entry is not None and entry.verdict == "contradicted" and fixed_text != _words(text) and (
                    fixed_text in present):
                new = ""  # the correction is already in the draft: say it once
            if new != sentence:
                edits.append((start, end, new))
        # an abstention names the passage it quotes next as the closest; once that quote is changed, it names none
        starts = {start for start, _, _ in edits}
        for (sentence, start, end), (_, after, _) in zip(spans, spans[1:], strict=False):
            if after in starts and start not in starts and (plain := without_closest(sentence)) is not None:
                edits.append((start, end, plain))
        if not edits:
            return draft
        revised = draft
        for start, end, new in sorted(edits, reverse=True):
            if not new:  # a removed sentence takes the spaces after it along
                while end < len(revised) and revised[end] in " \t":
                    end += 1
            revised = revised[:start] + new + revised[end:]
        revised = _tidy(revised)
        if ledger.entries and not extract_claims(revised, question) and evidence:
            return self._redraft(question, evidence, revised)
        return revised

    @staticmethod
    def _revise(
        sentence: str, cited: list[str], entry: LedgerEntry | None, known: set[str], evidence: list[Chunk]
    ) -> str:
        """The replacement of one sentence ("" removes it)."""
        if entry is None:
            valid = [h for h in cited if h in known]
            return sentence if valid == cited else _with_citations(sentence, valid)
        if entry.verdict == "not_found":
            return qualified(entry.claim.text) if entry.claim.importance == "critical" else ""
        if entry.verdict == "contradicted":
            fixed = correction(entry, evidence)
            if fixed is None:
                return qualified(entry.claim.text) if entry.claim.importance == "critical" else ""
            return cite(fixed[0], [fixed[1]])
        supporting = [m.chunk_hash for m in entry.evidence if m.support in _SUPPORTING]
        keep = [h for h in cited if h in supporting]
        if keep == cited and cited:
            return sentence
        return _with_citations(sentence, keep or _deciding(entry.evidence, supporting))

    def _redraft(self, question: str, evidence: list[Chunk], revised: str) -> str:
        """Every claim was removed: write the answer again from the evidence, keeping any qualified statements."""
        written = self.writer.write(question, evidence)
        if not written.answered:
            return revised or written.text
        return f"{written.text}\n\n{revised}" if revised else written.text


def _deciding(matches: list[EvidenceMatch], supporting: list[str]) -> list[str]:
    if supporting:
        return supporting[:1]
    return [matches[0].chunk_hash] if matches else []


_BARE_BULLET = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]*(?:\n|\Z)", re.MULTILINE)


def _tidy(text: str) -> str:
    """Whitespace after removals: no doubled spaces, no empty list items, at most one blank line in a row."""
    text = re.sub(r"(?<=\S)[ \t]{2,}", " ", text)  # never at a line's start: nested list items keep their indent
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = _BARE_BULLET.sub("", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()
