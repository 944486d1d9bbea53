"""The NLI cross-encoder support checker: the local rules, refined by a natural-language-inference model.

A sentence-transformers `CrossEncoder` trained for natural language inference reads (quote, claim) and gives
contradiction / entailment / neutral probabilities. It refines the local checker rather than replacing it:
the local rules find the quote and stay decisive for figures, dates, negation and swapped names, the model
upgrades partial support it finds entailed and flags contradictions the rules cannot see. Which checker a run
uses is decided by `ledger.loop.factory.build_support_checker`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ledger.core.errors import ModelError
from ledger.core.types import Chunk
from ledger.judge.support import SAYS_MORE, SupportCheck, SupportChecker
from ledger.judge.support_rules import figures_stated_otherwise
from ledger.text.figure_context import is_row_sentence, names_row
from ledger.text.pairing import crossed_pairs
from ledger.text.quantities import Quantity, compare_quantities, extract_quantities
from ledger.text.terms import key_terms, same_direction, signed_change, unstated_tail

NLI_LABELS = ("contradiction", "entailment", "neutral")
MODEL_ENTAILED = "the model finds it entailed"  # how a reason starts when the model alone found the support
LACKS = "the quote does not give"  # how support dropped for words the claim adds at its end is explained (rule "added")
UNSTATED_ENTAILMENT = 0.2  # support the model reads as neutral is dropped only when it finds it this unlikely entailed
# local contradictions the model may not overrule
_LOCAL_DECISIVE = ("quantity", "date", "negation", "swap", "condition")
# Support the model does not read: a quote that states the claim word for word, or whose figures work out to the
# claim's by arithmetic ("four years after" from 1889 and 1893), which the checker reads as a contradiction (on 12
# such pairs, made up for the purpose, it gave contradiction ≥ 0.56 to 10 and ≥ 0.8 to 5).
_UNREAD = ("verbatim", "computed")


@dataclass(frozen=True)
class NliThresholds:
    """When the model's probabilities change the local decision."""

    entailment: float = 0.7  # partial support the model finds entailed becomes full
    contradiction: float = 0.7  # support the model finds contradicted (this sure) becomes contradicted
    rescue: float = 0.7  # a quote the rules found no support in, but the model finds entailed, is partial support
    refute: float = 0.7  # ... and one the model finds contradicted is a contradiction
    related: float = 0.0  # the quote's similarity to the claim that rescue and refute need
    unstated: float = 0.6  # support the model reads as neutral (this sure, and entailed < 0.2) is dropped
    added: int = 3  # support is dropped when the claim ends in this many content words the quote lacks ...
    added_entailment: float = 0.3  # ... and the model finds it entailed with less than this
    quote_alone: float = 0.5  # support dropped is kept when the model reads the quote alone as entailed this sure


def label_indices(id2label: Mapping[Any, str]) -> dict[str, int]:
    """Output index of each NLI label, found by name (case-insensitive), never by position.

    NLI models disagree on the order of their labels, so reading it from the model's `config.id2label` is
    the only safe way. Raises ModelError when the model does not have the three NLI labels.
    """
    by_name = {str(label).strip().lower(): int(index) for index, label in id2label.items()}
    missing = [name for name in NLI_LABELS if name not in by_name]
    if missing:
        labels = ", ".join(str(v) for v in id2label.values()) or "none"
        raise ModelError(f"not an NLI model: no {'/'.join(missing)} label (labels: {labels})")
    return {name: by_name[name] for name in NLI_LABELS}


def combine(local: SupportCheck, probs: Mapping[str, float], thresholds: NliThresholds | None = None,
            figures_reworded: bool = True, added: tuple[str, ...] = (),
            stated_otherwise: bool = False, tabular: bool = False, direction_agrees: bool = False,
            change_agrees: bool = False, another_day: bool = False) -> SupportCheck:
    """The support after the model's say on the local check's quote. Pure.

    - a local contradiction from figures, dates, negation or a swapped name stands, and so does a quote that states
      the claim word for word;
    - a contradiction the model is sure of (>= `contradiction`) turns full or partial support into contradicted,
      except where both sides deny the statement ("banned" against "not permitted": `SupportCheck.negated`) or the
      rules matched a figure the quote gives as another number or unit ("20%" for "a fifth": `stated_otherwise`), or
      matched every figure in the cells of a table row, which the model reads as prose ("Surplus (2025: £64,100;
      2024: £72,300)": `tabular`), or matched every figure of a change the quote says goes the claim's way ("Net
      debt fell to £118 million" of "£118 million, down from £131 million" beside other changes: `change_agrees`);
    - support the model reads as neutral (>= `unstated`) and hardly entailed (< UNSTATED_ENTAILMENT) is dropped: the
      claim adds a cause, a condition or a detail the quote does not give ("..., because it can affect the baby's
      heart"), which the rules' word overlap cannot see; not when a figure the rules matched is written otherwise
      in the quote ("every six months" for "twice a year" reads as neutral to the model: `figures_reworded`);
    - so is support for a claim that ends in `added` content words the quote lacks ("..., because its roof is being
      repaired": `ledger.text.terms.unstated_tail`) when the model finds it hardly entailed (< `added_entailment`):
      an appended reason or detail, where a paraphrase's other words are spread through the claim;
    - an entailment (>= `entailment`) turns partial support into full;
    - a quote the rules found no support in (at least `related` similar) is partial support when the model finds
      it entailed (>= `rescue`; not when the claim gives a day the quote does not while it gives others, or a
      figure a cell of the row it names gives otherwise, or the quote is a row and the claim names another, or a
      field naming the claim's person for a role the claim does not name, or the quote gives another figure for
      what the claim gives one for: `another_day`) and a contradiction when it finds it contradicted (>= `refute`),
      unless the quote gives the claim's change as a signed share going the claim's way ("−28%" for "fell by 28%",
      which the model reads as a contradiction: `direction_agrees`): the rules see
      figures and words, the model reads paraphrase, implication, antonyms and roles (a quote that lacks an amount
      of the claim is not read at all: `worth_reading`).
    """
    t = thresholds or NliThresholds()
    entail, contra = probs.get("entailment", 0.0), probs.get("contradiction", 0.0)
    said = f"NLI: entailment {entail:.2f}, contradiction {contra:.2f}"
    local = replace(local, entailment=entail)  # what the model read goes with every outcome
    if (local.support == "contradicted" and local.rule in _LOCAL_DECISIVE) or local.rule in _UNREAD:
        return local
    if (local.support in ("full", "partial") and contra >= t.contradiction and not local.negated
            and not (local.rule == "full_figures" and (stated_otherwise or tabular or change_agrees))):
        # (not where both sides deny it, "banned" against "not permitted", nor where the quote gives a figure the
        # rules matched as another number or unit, "20%" for "a fifth": the model reads either as a contradiction)
        return replace(local, support="contradicted", rule="nli", reason=f"the model reads a contradiction ({said})")
    neutral = probs.get("neutral", 0.0)
    if (local.support in ("full", "partial") and not (local.rule == "full_figures" and figures_reworded)
            and neutral >= t.unstated and entail < UNSTATED_ENTAILMENT):
        return replace(local, support="none", rule="unstated",
                       reason=f"{SAYS_MORE} (NLI: neutral {neutral:.2f}, entailment {entail:.2f})")
    if local.support in ("full", "partial") and len(added) >= t.added and entail < t.added_entailment:
        return replace(local, support="none", rule="added",
                       reason=f"{SAYS_MORE}: {LACKS} '{' '.join(added)}' (NLI: entailment {entail:.2f})")
    if local.support == "partial" and entail >= t.entailment:
        reason = f"{local.reason}; the model finds it entailed ({said})"
        return replace(local, support="full", rule="nli", reason=reason)
    if local.support == "none" and local.quote and local.rule != "error" and local.similarity >= t.related:
        if entail >= t.rescue and entail >= contra and not another_day:
            return replace(local, support="partial", rule="nli", reason=f"{MODEL_ENTAILED} ({said})")
        if contra >= t.refute and not direction_agrees:
            return replace(local, support="contradicted", rule="nli",
                           reason=f"the model reads a contradiction ({said})")
    return replace(local, reason=f"{local.reason} ({said})")


def added_at_end(claim: str, quote: str) -> tuple[str, ...]:
    """The content words the claim ends in that the quote lacks (`ledger.text.terms.unstated_tail`), after the last
    claim figure the quote states: a stated figure is said as a word the quote has is ("let the school know by
    midday on the Saturday before" of "notice must reach us by 12:00 on the Saturday before" adds nothing at its
    end). Pure."""
    stated = compare_quantities(extract_quantities(claim), extract_quantities(quote)).matched
    end = max((m.claim.end for m in stated if m.evidence is not None), default=0)
    return unstated_tail(claim[end:], quote)


def figures_reworded(claim: str, quote: str) -> bool:
    """Whether a figure of the claim that the quote states is written otherwise there ("every six months" for "twice
    a year", "12 months" for "one year"): a reading the model cannot make. Pure."""
    agreement = compare_quantities(extract_quantities(claim), extract_quantities(quote))
    said = " ".join(quote.lower().split())
    return any(" ".join(m.claim.text.lower().split()) not in said for m in agreement.matched)


_AMOUNTS = ("money", "percent", "count", "duration", "frequency", "time")


def figure_missing(claim: str, quote: str) -> bool:
    """Whether the claim gives an amount with its unit (money, a share, a count of something, a duration) that the
    quote does not give, or gives only by arithmetic (a span, a ratio: the model reads a correct sum as a
    contradiction). Dates, ordinals and bare numbers do not count: a bare "1866" or "season 8" may be written
    otherwise in the quote ("the eighth season"). Pure."""
    agreement = compare_quantities(extract_quantities(claim), extract_quantities(quote))
    return any(m.claim.kind in _AMOUNTS for m in agreement.absent) or any(m.sources for m in agreement.matched)


def other_day(claim: str, quote: str) -> bool:
    """Whether the claim gives a day the quote does not, while the quote gives other days ("readings for 31/03/2027"
    against a row of 31/12/2026): the model may read it as refuted, not as entailed. Pure."""
    found = extract_quantities(quote)
    agreement = compare_quantities(extract_quantities(claim), found)
    return any(_a_day(m.claim) for m in (*agreement.absent, *agreement.conflicts)) and any(_a_day(q) for q in found)


def row_says_otherwise(claim: str, quote: str) -> bool:
    """Whether a cell of a table row gives another figure than the claim for what the claim says of it ("Young
    people aged 12 to 17 are admitted free" against "Young person (aged 12-17) (Price: £6.00)" beside a row
    "Child (under 12) (Price: Free)"): the model reads the free entry as entailing it. Pure."""
    agreement = compare_quantities(extract_quantities(claim), extract_quantities(quote))
    return any(m.evidence is not None and m.evidence.labelled and m.evidence.row for m in agreement.conflicts)


def another_row_named(claim: str, quote: str, chunk_text: str) -> bool:
    """Whether the quote is a table row the claim does not name while the claim names another row of its chunk
    ("Young people aged 12 to 17 are admitted free" against "Child (under 12) (Price: Free)" in a table with a row
    "Young person (aged 12-17) (Price: £6.00)"): that row, not this one, says what the claim is about. Pure."""
    if not is_row_sentence(quote) or names_row(claim, quote):
        return False
    rows = (line.strip() for line in chunk_text.split("\n"))
    return any(row != quote.strip() and is_row_sentence(row) and names_row(claim, row) for row in rows)


def gives_another_figure(claim: str, quote: str) -> bool:
    """Whether the quote gives another figure for something the claim gives a figure for ("£5 per item" against the
    claim's "£7.50 per item", read with the figures each is paired with): the model may read the rest as entailing
    the claim. Pure."""
    found = extract_quantities(quote)
    return bool(crossed_pairs(claim, quote, compare_quantities(extract_quantities(claim), found), found).conflicts)


def field_of_another_role(claim: str, quote: str) -> bool:
    """Whether the quote is one field ("Campsite: Oskar Lindqvist.", under any headings) whose value the claim names
    but none of whose label words it does: the field says only that the name holds the label's role, and the model
    reads any other role the claim gives the name ("Oskar Lindqvist's Information Point team …") as entailed. Pure."""
    field = _FIELD.match(quote.rsplit(" … ", 1)[-1])
    if field is None:
        return False
    label, value, said = set(key_terms(field.group(1))), set(key_terms(field.group(2))), set(key_terms(claim))
    return bool(label) and bool(value) and value <= said and not label & said


_FIELD = re.compile(r"^\s*([^:\n]{1,60}):[ \t]+([^:\n]{1,80}?)\.?\s*$")


def _a_day(q: Quantity) -> bool:
    return q.kind == "date" and q.parts[2] is not None and q.parts[3] is not None


UNSUPPORTED_READ = 2  # a claim's quotes without support that the model reads, the most similar first


def worth_reading(claims: list[str], checks: list[SupportCheck], unsupported: int = UNSUPPORTED_READ) -> list[int]:
    """Indices of the checks whose verdict the model may change, in order. Pure.

    Not a quote the rules contradict by a figure, date, negation or name, nor one that states the claim word for
    word (those stand), not an unchecked pair, and of a claim's quotes the rules find no support in only the
    `unsupported` most similar ones: the model costs tens of milliseconds a pair, and a claim's verdict needs one
    quote. (A draft of the offline writer is sentences of the documents, so most of its pairs are word for word.)
    Nor a quote without support that lacks an amount of the claim (`figure_missing`): figures are the rules' to
    decide, and a quote that does not give the claim's amount neither states nor rules it out (the checker read
    "net income was $3.6 million" as refuting "free cash flow was $4.1 million").
    """
    keep: list[int] = []
    unsupported_of: dict[str, list[int]] = {}
    for i, (claim, check) in enumerate(zip(claims, checks, strict=True)):
        if not check.quote or check.rule in ("error", *_UNREAD):
            continue
        if check.support == "contradicted" and check.rule in _LOCAL_DECISIVE:
            continue
        if check.support == "none":
            if figure_missing(claim, check.quote):
                continue
            unsupported_of.setdefault(claim, []).append(i)
        else:
            keep.append(i)
    for indices in unsupported_of.values():
        keep += sorted(indices, key=lambda i: -checks[i].similarity)[:unsupported]
    return sorted(keep)


PREMISE_CHARS = 480  # about what the bundled checker reads beside a claim (128 word pieces in all)


def premise(chunk_text: str, check: SupportCheck, width: int = PREMISE_CHARS) -> str:
    """What the model reads for a check: the quote with the chunk's text around it, up to `width` characters. Pure.

    A quote is one or two sentences chosen by the rules; the sentence that settles a paraphrase or an implication
    is often the next one, so the model gets the neighbourhood (the quote alone when its span is unknown).
    """
    start, end = check.quote_start, check.quote_end
    if not (0 <= start < end <= len(chunk_text)) or end - start >= width:
        return check.quote
    left = max(0, min(start - (width - (end - start)) // 2, len(chunk_text) - width))  # centred, inside the chunk
    return chunk_text[left:left + width].strip()


_YEAR = re.compile(r"\b(?:1[5-9]|20)\d\d\b")


def _under_title_year(chunk: Chunk, quote: str, claim: str) -> str:
    """The quote after its document's title when the claim gives a year the quote does not and the title does
    ("2024 Field Season Summary" for "in 2024"); else ""."""
    title = (chunk.title or "").strip()
    years = set(_YEAR.findall(claim)) - set(_YEAR.findall(quote))
    return f"{title}: {quote}" if years and years <= set(_YEAR.findall(title)) else ""


def _titled(chunk: Chunk, quote: str, claim: str) -> str:
    """The quote after its document's title ("Parcelwise Tracking API v2: Each key may …") when every word the claim
    adds to the quote is the title's ("Parcelwise"); else "" (a claim's added figure or detail is no title's)."""
    title = (chunk.title or "").strip()
    added = set(key_terms(claim)) - set(key_terms(quote))
    if not title or not added or not added <= set(key_terms(title)):
        return ""
    return f"{title}: {quote}"


class CrossEncoderSupportChecker:
    """Support checks by the local rules, refined by an NLI cross-encoder on each (quote, claim) pair."""

    name = "nli"
    max_remembered = 4096  # (premise, claim) readings kept between rounds

    def __init__(
        self,
        model_name: str,
        local: SupportChecker,
        model: Any,
        *,
        thresholds: NliThresholds | None = None,
        batch_size: int = 32,
    ) -> None:
        self.model_name = model_name
        self.local = local
        self.model = model
        self.labels = label_indices(self.model.config.id2label)
        self.thresholds = thresholds or NliThresholds()
        self.batch_size = batch_size
        self._read: dict[tuple[str, str], dict[str, float]] = {}  # what the model read, per (premise, claim)

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        """Local checks for the whole batch, then one model pass over every (quote, claim) pair that has a quote.

        The model reads each quote with the text around it (`premise`); support it would drop is read once more
        with the quote alone, and kept when that reading finds it entailed (>= `quote_alone`): the neighbourhood
        that settles an implication can also drown a plain paraphrase (a one-sentence paraphrase of a release note's
        line read as neutral, 0.87, beside its paragraph; entailed, 0.70, alone: bench/README.md, session 25).
        """
        local = self.local.check(pairs)
        todo = worth_reading([claim for claim, _ in pairs], local)
        if not todo:
            return local
        premises = {i: premise(pairs[i][1].text, local[i]) for i in todo}
        probs = self.probabilities([(premises[i], pairs[i][0]) for i in todo])
        out = list(local)
        for i, p in zip(todo, probs, strict=True):
            claim = pairs[i][0]  # (figures are read again only where they count)
            reworded = local[i].rule == "full_figures" and figures_reworded(claim, local[i].quote)
            otherwise = reworded and figures_stated_otherwise(claim, local[i].quote)
            out[i] = combine(local[i], p, self.thresholds, reworded, added_at_end(claim, local[i].quote),
                             otherwise, is_row_sentence(local[i].quote),
                             (signed := signed_change(claim, local[i].quote)) is not None and signed[0],
                             same_direction(claim, local[i].quote),
                             local[i].support == "none" and (other_day(claim, local[i].quote)  # (only read there)
                                                             or row_says_otherwise(claim, local[i].quote)
                                                             or field_of_another_role(claim, local[i].quote)
                                                             or gives_another_figure(claim, local[i].quote)
                                                             or another_row_named(claim, local[i].quote,
                                                                                  pairs[i][1].text)))
        # (not support dropped for the words a claim adds at its end, "added": the quote alone lacks them just the same)
        # ... and with its document's title before it: a claim names what the document is about ("Each Parcelwise
        # API key may make 600 requests per minute." of "Each key may …" in the Parcelwise API's reference)
        dropped = [i for i in todo if out[i].rule == "unstated"]
        readings = [(i, how, text) for i in dropped for how, text in (
            ("the quote alone", local[i].quote if premises[i] != local[i].quote else ""),
            ("the quote under its title", _titled(pairs[i][1], local[i].quote, pairs[i][0]))) if text]
        read = self.probabilities([(text, pairs[i][0]) for i, _, text in readings]) if readings else []
        for (i, how, _), p in zip(readings, read, strict=True):
            if out[i].rule == "unstated" and p.get("entailment", 0.0) >= self.thresholds.quote_alone:
                said = f"NLI, {how}: entailment {p['entailment']:.2f}"
                out[i] = replace(local[i], entailment=p["entailment"], reason=f"{local[i].reason} ({said})")
        # Support the model overrules as contradicted, for a year the claim gives and only the title does, is read
        # once more under the title ("Lake Survey: 2024 Field Season" for "in 2024", against a quote naming a 2009
        # survey). (Read again with the quote alone instead, beside neighbours that settled a contradiction, it lost
        # more right verdicts than it mended: bench/README.md, session 42.)
        overruled = [(i, text) for i in todo if out[i].rule == "nli" and out[i].support == "contradicted"
                     and local[i].support in ("full", "partial")
                     and (text := _under_title_year(pairs[i][1], local[i].quote, pairs[i][0]))]
        again = self.probabilities([(text, pairs[i][0]) for i, text in overruled]) if overruled else []
        for (i, _), p in zip(overruled, again, strict=True):
            if p.get("contradiction", 0.0) < self.thresholds.contradiction:
                said = f"NLI, the quote under its title: contradiction {p.get('contradiction', 0.0):.2f}"
                out[i] = replace(local[i], entailment=p.get("entailment", 0.0), reason=f"{local[i].reason} ({said})")
        return out

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        """{label: probability} for each (premise, hypothesis) pair.

        A pair read before by this checker is not read again: a revision round re-judges every claim of the answer,
        and most claims and their quotes are those of the round before. The bundled model reads each pair alone, so
        what it remembers is exactly what it would read again.
        """
        known = {pair: self._read[pair] for pair in pairs if pair in self._read}
        todo = [pair for pair in dict.fromkeys(pairs) if pair not in known]
        if todo:
            scores = np.asarray(
                self.model.predict(todo, apply_softmax=True, batch_size=self.batch_size, show_progress_bar=False)
            ).reshape(len(todo), -1)
            read = {pair: {name: float(row[index]) for name, index in self.labels.items()}
                    for pair, row in zip(todo, scores, strict=True)}
            if len(self._read) + len(read) > self.max_remembered:
                self._read.clear()  # a crude bound: a long-running UI process must not grow without limit
            self._read.update(read)
            known.update(read)
        return [known[pair] for pair in pairs]
