"""The local support rules (seed 004 §4.3), pure: from what a claim and a quote share to a support level.

A different figure for the same quantity, the opposite polarity or another entity in the same statement
contradicts; a paraphrase with the key terms and figures present supports fully; a quote that has part of the
claim supports partially; anything else does not support. `features` measures, `decide_rules` decides, and
`choose_check` picks the deciding quote among a pair's candidates; every rule is testable without a model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from ingest.chunking import is_heading
from ingest.retrieval import code_shape, mentions, named_terms
from ledger.core.types import Support
from ledger.text.alignment import states_verbatim
from ledger.text.derived import order_holds
from ledger.text.figure_context import is_row_sentence
from ledger.text.lexicon import lexicon
from ledger.text.pairing import crossed_pairs, figure_sort, restated_shares
from ledger.text.quantities import (
    THAN,
    Agreement,
    Quantity,
    QuantityMatch,
    compare_quantities,
    extract_quantities,
    for_its_year,
    reversed_change,
)
from ledger.text.sentences import split_sentences
from ledger.text.terms import (
    affirmed_terms,
    beyond_only,
    conditions_opposed,
    coverage,
    crossed_names,
    crossed_slots,
    denial_restated,
    dropped_condition,
    exception_restated,
    find_swaps,
    holds_in_every_case,
    key_terms,
    key_words,
    names_a_part,
    negation_cues,
    only_denied,
    opposite_direction,
    other_name_than_only,
    overstated_quantifier,
    polarity,
    qualified_role,
    restriction_restated,
    stem,
)

_PRIORITY: dict[Support, int] = {"full": 3, "contradicted": 2, "partial": 1, "none": 0}
OPPOSITE_POLARITY = "same statement, opposite polarity: the evidence "
_FIGURES = ("full_figures", "computed")  # full support whose figures the quote gives, or works out to
COMPUTED = "worked out:"  # in a reason: a claim figure follows from the quote's (ledger.text.derived, ledger.text.ages)
REWORDED = "stated as"  # in a reason: a claim figure the quote gives in another form ("two fifths of, stated as 41%")
FIGURES_AGREE = "figures agree"  # in a reason: the claim's figures, as the quote gives them or works out to
SEVERAL_AGREE = re.compile(rf"\b(?:both|all \d+) {FIGURES_AGREE}\b")  # ... two or more of them ("both figures agree")
WORD_FOR_WORD = "the quote states the claim word for word"  # in a reason: the quote repeats the claim


@dataclass(frozen=True)
class SupportCheck:
    """The support level of one chunk for one claim, with the deciding quote and why."""

    support: Support
    quote: str
    similarity: float
    reason: str
    rule: str = ""  # verbatim, full, full_figures, computed, partial, none, quantity, date, negation, swap, error; the
    # model's: nli, unstated (support dropped as saying more), added (dropped for words the claim adds at its end)
    quote_start: int = 0  # the quote's span in the chunk text (a heading or table header quoted with a sentence
    quote_end: int = 0  # under it, joined by " … ", spans from the one to the other)
    entailment: float | None = None  # the NLI model's probability that the quote entails the claim; None: not read
    negated: bool = False  # both claim and quote deny what they state ("banned" and "not permitted")


@dataclass(frozen=True)
class SupportFeatures:
    """What the rules look at when comparing a claim with a candidate quote."""

    similarity: float  # cosine similarity of claim and quote embeddings
    coverage: float  # share of the claim's key terms found in the quote (stemmed; swapped names left out)
    worded_coverage: float = 0.0  # ... counting a claim word the quote says by a word of the same sense ("cut")
    missing_terms: tuple[str, ...] = ()
    quantities: Agreement = Agreement()
    claim_negated: bool = False  # polarity of the negations that bear on the other side's terms
    quote_negated: bool = False
    negation_anchor: int = 0  # how many of the other side's terms the deciding negation covers
    swaps: tuple[tuple[str, str], ...] = ()  # (claim term, quote term): the same statement about another entity
    verbatim: bool = False  # the quote repeats the claim word for word (ledger.text.alignment.states_verbatim)
    reversed_change: tuple[str, str] | None = None  # (quote's, claim's) "from X to Y" of one change, in opposite ways
    dropped_condition: tuple[str, str] | None = None  # (claim's "always", quote's "only if"): a condition left out
    added: str = ""  # a name the claim adds to a list of names the quote gives ("England, Wales and Scotland")
    superlative: str = ""  # an end the claim puts something at that the quote does not ("the largest this season")
    beyond_only: tuple[str, str] | None = None  # an item the claim joins to what the quote allows "only"
    role_field: bool = False  # the swap is of a field's name: the claim gives its role to another ("Chair: …")
    role_verb: bool = False  # ... by its verb, to someone named in another field ("conducted by the leader, Tom …")
    subject_swap: bool = False  # the swapped name opens the claim: the one who did what it says ("Cllr Adeyemi, …")


@dataclass(frozen=True)
class Thresholds:
    """Cut-offs of the local rules; cosine values are for all-MiniLM-L6-v2."""

    on_topic_similarity: float = 0.55  # a flipped polarity or a swapped name counts only when on the same topic
    on_topic_coverage: float = 0.6
    conflict_similarity: float = 0.3  # figures are matched by their context; this only excludes the unrelated
    full_similarity: float = 0.72  # paraphrase level: with most key terms present, the quote states the claim
    full_coverage: float = 0.6
    exact_coverage_similarity: float = 0.6  # every key term present: a lower similarity still means full
    paraphrase_similarity: float = 0.8  # so close that different words are a paraphrase
    figure_similarity: float = 0.5  # every figure matched where the claim's words are: a lower similarity will do
    related_similarity: float = 0.5  # below this with little term overlap, the quote is about something else
    related_coverage: float = 0.5
    partial_similarity: float = 0.65
    partial_coverage: float = 0.7


DEFAULT_THRESHOLDS = Thresholds()


# A list of names: "England, Wales and Scotland", "Ana Ruiz or Lea Marsh" (each name one to three capitalised words).
_NAME = r"[A-Z][\w'’-]+(?: [A-Z][\w'’-]+){0,2}"
_NAME_LIST = re.compile(rf"\b{_NAME}(?:, {_NAME})*,? (?:and|or) {_NAME}")


def added_to_list(claim: str, quote: str) -> str:
    """A name the claim lists with names the quote gives, that the quote does not give: "sold in England, Wales and
    Scotland" against "sold in England and Wales" adds "Scotland"; so is one of "both X and Y" ("selected for both
    the buildings and the contents" against "Buildings – accidental damage (Limit: Included)"). Empty when there is
    none."""
    sentences = [s for s, _, _ in split_sentences(quote)] or [quote]
    for match in _NAME_LIST.finditer(claim):
        names = [n for n in re.split(r",? (?:and|or) |, ", match.group(0)) if n]
        # the names of the quote's sentence that gives most of them: "on Plus, Flexi and Business fares. This benefit
        # does not apply to Saver or Standard fares." gives no "Standard" in the claim's list
        given = max(([n for n in names if mentions(sentence, [n])] for sentence in sentences), key=len)
        if given and len(given) < len(names) and match.start() > 0:  # (a sentence's first word may be any word)
            return next(n for n in names if n not in given)
    said = set(key_terms(quote))
    for match in _BOTH.finditer(claim):  # "for both the buildings and the contents": each of the two, said
        pair = [match.group(1), match.group(2)]
        given = [p for p in pair if set(key_terms(p)) and set(key_terms(p)) <= said]
        if len(given) == 1:
            return next(p for p in pair if p not in given)
    return ""


# (an amount before a noun is not the noun: "both the fee and the £2 charge" lists the fee and the charge)
_BOTH = re.compile(r"\bboth\s+(?:the\s+|its\s+|their\s+)?(?:[£$€]?\d[\d.,]*\s+)?([a-z]+(?:\s+[a-z]+)?)\s+and\s+"
                   r"(?:the\s+|its\s+|their\s+)?(?:[£$€]?\d[\d.,]*\s+)?([a-z]+(?:\s+[a-z]+)?)\b")


def unstated_superlative(claim: str, quote: str) -> str:
    """A superlative the claim puts something at ("the largest", "the cheapest"; the lexicon's `highest` and `lowest`
    but the quantifiers "most", "least", "maximum", "minimum") when the quote has none of that end: "The crowd of
    1,186 was the largest this season" against "A crowd of 1,186 packed into the ground". Empty when there is none
    (a table's ends are decided from its rows: `ledger.judge.superlatives`)."""
    for end in _superlative_words():
        said = [w for w in end if re.search(rf"\b{re.escape(w)}\b", claim, re.IGNORECASE)]
        if said and not any(re.search(rf"\b{re.escape(w)}\b", quote, re.IGNORECASE) for w in end):
            return said[0]
    return ""


@cache
def _superlative_words() -> tuple[tuple[str, ...], ...]:
    lex = lexicon()
    quantifiers = {"most", "least", "maximum", "minimum"}
    return tuple(tuple(w for w in lex.words("questions", end) if w not in quantifiers) for end in ("lowest", "highest"))


def heading_code_swap(claim: str, quote: str, above: str, context: str = "") -> tuple[str, str] | None:
    """(claim code, heading code) when the quote names none of the claim's codes and the nearest heading above it
    that names a code of their shape names another: "Fixed a crash on export" under "## 3.3.2 — 3 July" is no fix
    of version 3.4.1. `above` is the text before the quote; `context`, the headings its chunk starts under."""
    codes = [c for c in named_terms(claim) if any(ch.isdigit() for ch in c) and not mentions(quote, [c])]
    if not codes:
        return None
    headings = [line for line in reversed(above.splitlines()) if is_heading(line.strip())]
    for heading in [*headings, context]:
        if mentions(heading, codes):
            return None
        if found := swapped_codes(claim, heading):
            return found[0]
    return None


# "Incident commander: Marcus Lindqvist" — a field whose value is a name, on a line of its own or as a sentence
_NAME_FIELD = re.compile(rf"(?:^|\n|(?<=[.;] ))([A-Z][\w ()/&'-]{{1,40}}):[ \t]+({_NAME})")


# "Ruth Ellingham, General Manager," — a name and the role a capitalised title after it gives them
_APPOSITIVE = re.compile(
    rf"({_NAME}), (?:the |our )?([A-Z][a-z]+(?: (?:and |of |for |& )?[A-Z][a-z]+){{0,4}})(?=[,;.)]|$)")


def _role_fields(quote: str) -> list[tuple[str, str]]:
    """(role, name) of the quote's fields ("Incident commander: Marcus Lindqvist") and appositives ("Ruth Ellingham,
    General Manager,"); not a name's entry ("The Golden Path (song): Featuring …")."""
    fields = [(m.group(1), m.group(2)) for m in _NAME_FIELD.finditer(quote)
              if not any(w[:1].isupper() for w in m.group(1).split()[1:])]
    return fields + [(m.group(2), m.group(1)) for m in _APPOSITIVE.finditer(quote)]


def field_swap(claim: str, quote: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(claim's name, field's name, the claim's verbs that name the role) when the claim gives a field's role to
    someone the quote does not name, or names with another role, and the field names another: "Dev Patel was the
    incident commander." against "Incident commander: Marcus Lindqvist"; "conducted by Tom Achebe" against
    "Conductor: Eleanor Hart | Leader: Tom Achebe"; "Jonah Blackwood is the General Manager" against "Ruth
    Ellingham, General Manager, with Jonah Blackwood, Finance Manager"."""
    fields = _role_fields(quote)
    for label, value in fields:
        role = set(key_terms(label))
        verbs = _doing(claim, role)
        if not role or not (role <= set(key_terms(claim)) or verbs) or mentions(claim, [value]):
            continue
        # someone the quote does not name, or names with another role while the claim has them hold or do this one
        names = [n for n in re.findall(_NAME, claim) if len(n.split()) >= 2 and not set(key_terms(n)) & role
                 and (not mentions(quote, [n]) or _done_by(claim, n, verbs) or (
                     _given(claim, n, label) and any(v == n and r != label for r, v in fields)))]
        if names and len(value.split()) >= 2:
            return names[0], value, tuple(verbs)
    return None


def _given(claim: str, name: str, role: str) -> bool:
    """Whether the claim gives `name` the role: "NAME is (the centre's) ROLE", "NAME, ROLE", "ROLE NAME"."""
    who, what = re.escape(name), r"\s+".join(map(re.escape, role.split()))
    linked = (rf"\b{who}(?:,|\s+(?:is|was|will\s+be|has\s+been|became|becomes|serves\s+as|served\s+as|acts\s+as|as))"
              rf"\s+(?:[\w'’-]+\s+){{0,3}}?{what}\b|\b{what},?\s+{who}\b")
    return re.search(linked, claim, re.IGNORECASE) is not None


def _doing(claim: str, role: set[str]) -> list[str]:
    """The claim's verbs (as written) whose doer is the one-word role: "conducted" for "conductor", "chairs" for
    "chair" ("chairs" is its own doer)."""
    if len(role) != 1:
        return []
    (noun,) = role
    return [w for w in re.findall(r"[a-z]+", claim) if (s := stem(w)) != w and noun in (s, f"{s}or", f"{s}er", f"{s}r")]


def _done_by(claim: str, name: str, verbs: list[str]) -> bool:
    """Whether the claim has `name` do one of `verbs`: "conducted by (the leader,) NAME" or "NAME conducts"."""
    who = re.escape(name)
    return any(re.search(rf"\b{v}\s+by\s+(?:[\w'’-]+,?\s+){{0,5}}?{who}\b|\b{who}\s+(?:\w+\s+)?{v}\b", claim)
               for v in map(re.escape, verbs))


def swapped_codes(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim code, quote code) for each code the claim names that the quote does not, where the quote names a code
    of its shape: "Error E4 means low pressure" against "E1 - Low water pressure" is about another code."""
    codes = [c for c in named_terms(claim) if any(ch.isdigit() for ch in c) and not mentions(quote, [c])]
    return tuple((code, other.group(0)) for code in codes if (other := code_shape(code).search(quote)) is not None)


def features(
    claim: str, quote: str, similarity: float, polarity_text: str | None = None, context: str = "",
    contrasts: tuple[tuple[str, str], ...] = (), nested: Callable[[str, str], bool] | None = None,
    passage: str = "", synonym: Callable[[str, str], bool] | None = None,
) -> SupportFeatures:
    """The rule features of a claim against a quote, given their embedding similarity.

    `polarity_text` is the part of the quote whose polarity counts (by default all of it): of two neighbouring
    sentences, a "not" in the one that is about something else must not flip the claim. `context` is what is
    known of the quote's document (its title and date): "the 2023 handbook" finds its year there. `contrasts` are
    (claim words, quote words) slots that a learned model found to rule each other out (`ledger.judge.substitutions`);
    they count as swaps. `nested` tells whether one name is a part of the other ("Edinburgh", "United Kingdom";
    `ledger.judge.word_relations`): such a name in the claim's place is no swap. `passage` is the text the quote
    was taken from: a claim figure the quote lacks but the passage states as such ("the two planets" where an
    earlier sentence found "two planets") is matched there (figures worked out by arithmetic only from the quote).
    """
    claim_terms, quote_terms = key_terms(claim), key_terms(quote)
    said_otherwise: tuple[str, ...] = ()  # claim words the quote says in another word of one sense ("cut": "reduce")
    echoed: tuple[str, ...] = ()  # ... and the quote's words that say them
    if synonym is not None:
        quote_words = [(t, w) for t, w in key_words(quote) if w.isalpha() and not w[:1].isupper()]
        pairs = [(t, u) for t, w in key_words(claim) if t not in quote_terms and w.isalpha() and not w[:1].isupper()
                 for u, v in quote_words if synonym(w.lower(), v.lower())]
        said_otherwise = tuple(dict.fromkeys(t for t, _ in pairs))
        echoed = tuple(dict.fromkeys(u for _, u in pairs))
    quote_figures = extract_quantities(quote)
    agreement = compare_quantities(extract_quantities(claim), quote_figures)
    # A span worked out in the wrong order ("20 years before" what came 20 years after) is not the quote's figure.
    agreement = Agreement(tuple(QuantityMatch(m.claim, "absent") if not order_holds(claim, m.claim, m.sources) else m
                                for m in agreement.matches))
    # "27 days after 10 years" of "27 days after 5 years and 29 days after 10 years": the quote's other tier
    agreement = crossed_pairs(claim, quote, agreement, quote_figures)
    # "£93.17, an increase of roughly 7%" of "£93.17 a year, or about 5.4%": one change, as an amount and a share
    agreement = restated_shares(claim, quote, agreement, quote_figures)
    # Another level or phase in the claim's place is a swapped name, and the quote's figures are about it.
    renamed = [(m.claim.text, m.evidence.text) for m in agreement.conflicts if m.claim.identifier and m.evidence]
    polar = quote if polarity_text is None else polarity_text
    # Another name in the claim's place, or two of the claim's parts in each other's places.
    swaps = (find_swaps(claim, polar) + tuple(renamed) + crossed_slots(claim, polar) + swapped_codes(claim, polar)
             + crossed_names(claim, quote))
    given = None if swaps else field_swap(claim, polar)  # "Incident commander: Ana Ruiz" for "Tom Lee was …"
    if given is not None:
        swaps += (given[:2],)
        quote_terms += tuple(stem(v) for v in given[2])  # "conducted" is said by the field "Conductor"
    if nested is not None:  # "serves Edinburgh" against "serves the United Kingdom": a part and its whole
        swaps = tuple(pair for pair in swaps if not nested(*pair))
    if _bounds_agree(agreement):  # "23 kg or less" against "no more than 23 kg": one bound, in other words
        swaps = tuple(pair for pair in swaps if not _bound_words(pair))
    if only_denied(claim, polar):
        swaps += (("only", "not only"),)
    if (ranked := qualified_role(claim, polar)) is not None:  # "the mayor" for "the deputy mayor"
        swaps += (ranked,)
    if not swaps and (turned := opposite_direction(claim, polar)) is not None:  # "a higher rate" against "will fall"
        swaps += (turned,)
    named = {t for a, _ in swaps for t in key_terms(a)}
    swaps += tuple(pair for pair in contrasts if not set(key_terms(pair[0])) & named)
    ours = {t for a, _ in swaps for t in key_terms(a)}
    theirs = {t for _, b in swaps for t in key_terms(b)}
    unswapped = tuple(t for t in claim_terms if t not in ours)
    share, missing = coverage(unswapped, quote_terms)
    # A rival figure that the evidence gives for another entity says nothing about the claim's entity.
    agreement = Agreement(tuple(
        QuantityMatch(m.claim, "absent") if m.status == "conflict" and m.evidence is not None
        and (renamed or (m.evidence.about & theirs and not m.evidence.about & ours)) else m
        for m in agreement.matches
    ))
    agreement = _with_context(agreement, extract_quantities(context) if context else [],
                              passage if passage != quote else "", is_row_sentence(quote), quote_figures)
    polar_quote = quote if polarity_text is None else polarity_text
    denied_by_claim: set[str] = set()
    denied_by_quote: set[str] = set()
    # (a negation of a word the other side says otherwise bears on it: "is not permitted" against "is allowed")
    claim_negated, claim_anchor = polarity(claim, quote_terms + said_otherwise, denied_out=denied_by_claim)
    quote_negated, quote_anchor = polarity(polar_quote, claim_terms + echoed, denied_out=denied_by_quote)
    if claim_negated and not quote_negated and polar_quote != quote and polarity(quote, claim_terms + echoed)[0]:
        # the quote's other sentence denies what the claim denies: "drain to a soakaway rather than to the sewer"
        # is not the opposite of "shall be drained to a soakaway" beside "There shall be no connection to the sewer"
        quote_negated = claim_negated
    if claim_negated != quote_negated:  # is the negation echoed on the other side in other words? ("not allowed to")
        claim_negated = polarity(claim, quote_terms + said_otherwise, loose=True)[0]
        quote_negated = polarity(polar_quote, claim_terms + echoed, loose=True)[0]
    if claim_negated and quote_negated and (denied_by_quote - denied_by_claim) & (
            affirmed_terms(claim) - affirmed_terms(polar_quote, anywhere=True)):
        # both deny something, but the quote denies what the claim affirms: "It shall not be enclosed, and it shall not
        # be used as living accommodation" against "may be enclosed, as long as it is not used as living ..."
        claim_negated = False
    if claim_negated != quote_negated and not conditions_opposed(claim, polar_quote):
        # a negation in a condition asserts nothing: "In the weeks when your black bin is not collected, your blue bin
        # … [is] collected" against "In the weeks between black bin collections, the crew empties the blue bin" (but
        # of two conditions on the same thing, one negated is the other's opposite: "If you do not pay" is not "If you
        # pay"; "Refunds if you no longer need your season ticket" is no opposite of "as long as it still has …")
        sides = ((claim, quote_terms + said_otherwise), (polar_quote, claim_terms + echoed))
        said = [polarity(text, terms, loose=True)[0] for text, terms in sides]
        asserted = [polarity(text, terms, loose=True, asserted=True)[0] for text, terms in sides]
        if said != asserted and asserted[0] == asserted[1]:
            claim_negated = quote_negated = asserted[0]
    if claim_negated != quote_negated and (restriction_restated(polar_quote, claim) if claim_negated
                                           else restriction_restated(claim, polar_quote)):
        claim_negated = quote_negated  # "only if" is "not ... unless": one restriction, not opposite statements
    if claim_negated != quote_negated and (exception_restated(polar_quote, claim) if claim_negated
                                           else exception_restated(claim, polar_quote)):
        claim_negated = quote_negated  # "unless it is listed" is "one not listed": one exception
    if claim_negated != quote_negated and (denial_restated(claim, polar_quote) if claim_negated
                                           else denial_restated(polar_quote, claim)):
        claim_negated = quote_negated = True  # "no change to the charge" is "it stays the same": one denial
    if claim_negated != quote_negated and _none_is_zero(*((claim, polar_quote) if claim_negated else (polar_quote,
                                                                                                      claim))):
        claim_negated = quote_negated  # "No swans were counted" is "Swans counted: 0"
    if claim_negated != quote_negated and (flipped := _flipped_bounds(agreement, extract_quantities(polar_quote))):
        # "used only once the reading is at least 0.98" is "not used if it is below 0.98": the bound turned the
        # other way round and the negation cancel out
        claim_negated = quote_negated
        agreement = Agreement(tuple(QuantityMatch(m.claim, "matched", flipped[m.claim], 1) if m.claim in flipped
                                    else m for m in agreement.matches))
    if claim_negated and quote_negated:  # "excludes business use" against "does not cover business use, ...
        swaps = tuple(pair for pair in swaps if not negation_cues(pair[0]))  # including food delivery": one denial
    return SupportFeatures(
        similarity=float(similarity),
        coverage=share,
        worded_coverage=coverage(unswapped, quote_terms + said_otherwise)[0] if said_otherwise else share,
        missing_terms=missing,
        quantities=agreement,
        claim_negated=claim_negated,
        quote_negated=quote_negated,
        negation_anchor=max(claim_anchor, quote_anchor),
        swaps=swaps,
        verbatim=states_verbatim(claim, quote),
        reversed_change=reversed_change(claim, quote),
        dropped_condition=(dropped_condition(claim, quote) or _dropped_limit(claim, polar_quote, agreement)
                           or overstated_quantifier(claim, quote)),
        added=added_to_list(claim, quote),
        superlative=unstated_superlative(claim, quote),
        beyond_only=beyond_only(claim, polar_quote) or other_name_than_only(claim, polar_quote),
        role_field=given is not None,
        role_verb=given is not None and bool(given[2]),
        subject_swap=any(claim.lstrip().startswith(ours) for ours, _ in swaps),
    )


def _dropped_limit(claim: str, quote: str, agreement: Agreement) -> tuple[str, str] | None:
    """(the claim's "any", the quote's limit) when a claim that holds in every case ("any employee can request")
    meets a quote that sets a limit in figures the claim does not give ("employees with at least 26 weeks of
    service")."""
    universal = holds_in_every_case(claim, quote)
    if universal is None:
        return None
    # (the figures the claim gives, by value: `quote` may be one sentence of the quote the agreement was found in)
    given = {(m.evidence.kind, m.evidence.value, m.evidence.unit) for m in agreement.matches if m.evidence is not None}
    limit = next((e for e in extract_quantities(quote) if e.bound and (e.kind, e.value, e.unit) not in given), None)
    return (universal, quote[max(0, limit.start - 12):limit.end].split(" ", 1)[-1]) if limit else None


def _flipped_bounds(agreement: Agreement, quote: list[Quantity]) -> dict[Quantity, Quantity]:
    """The claim's limits the quote gives as the other side of the same value ("at least 0.98" and "below
    0.98"), each with the quote's figure; {} when there is none, or when another of the claim's figures conflicts."""
    flipped: dict[Quantity, Quantity] = {}
    for m in agreement.matches:
        other = next((e for e in quote if m.claim.bound and e.kind == m.claim.kind and e.bound
                      and e.bound != m.claim.bound and e.value == m.claim.value and e.unit == m.claim.unit), None)
        if other is not None:
            flipped[m.claim] = other
        elif m.status == "conflict":
            return {}
    return flipped


def _bare_year(q: Quantity) -> bool:
    """Whether a figure is a year alone ("in 2024"), no day or month of it."""
    return q.kind == "date" and q.parts[1:] == (None, None, None)


def _in_a_row(text: str, at: int) -> bool:
    """Whether the line of `text` at offset `at` is a table row's sentence."""
    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
    return is_row_sentence(text[start:end if end >= 0 else len(text)])


def _with_context(agreement: Agreement, context: list[Quantity], passage: str = "", rowed: bool = False,
                  quoted: Sequence[Quantity] = ()) -> Agreement:
    """Claim figures the quote lacks but its document's title, date or section gives, or the rest of its passage
    states (for a quote that is a table row, not in another row), are matched; a bare year the quote lacks ("In
    2026, ...") frames the claim rather than asserting a figure, so it is left out. From the passage only a figure as
    written counts: among a whole passage's figures, some pair works out to almost any number; and not one of a
    sort the quote's own figures (`quoted`) give ("£7.50 per item" of the next line, where the quote caps the books'
    charge at "£5 per item")."""
    kept, stated = [], None  # the passage's figures, read only when the quote lacks one
    for m in agreement.matches:
        if m.status == "conflict" and context and _bare_year(m.claim):
            # the year the document is of ("2024 Field Season Summary") frames the claim; the quote's other year is
            # of something else ("… than the 11.0 µg/L of its 2009 survey")
            found = compare_quantities([m.claim], context).matches[0]
            m = found if found.status == "matched" else m
        if m.status == "absent" and context and not m.claim.bound:  # a limit is no title's figure ("at least 0.98")
            found = compare_quantities([m.claim], context).matches[0]
            m = found if found.status == "matched" else m
        if m.status == "absent" and passage:
            stated = extract_quantities(passage) if stated is None else stated
            found = compare_quantities([m.claim], stated).matches[0]
            found = for_its_year(found, [c.claim for c in agreement.matches], stated)  # not another year's cell
            # (a table row's figure is no other row's: "14 days" of row 5 is not row 6's deadline)
            other_row = found.evidence is not None and rowed and _in_a_row(passage, found.evidence.start)
            own = m.claim.kind in _MEASURED and any(figure_sort(q) == figure_sort(m.claim) and q.bound == m.claim.bound
                                                   for q in quoted)  # (an amount: a level's number names, "Tier 2")
            m = replace(found, elsewhere=True) if found.status == "matched" and not found.sources and not other_row \
                and not own else m
        if m.status == "absent" and _bare_year(m.claim):
            continue
        kept.append(m)
    return Agreement(tuple(kept))


_MEASURED = ("money", "percent", "duration", "frequency", "time")


def _bounds_agree(agreement: Agreement) -> bool:
    """Whether the claim bounds a figure and every bounded figure of the claim matched one the quote bounds the same
    way: the words that make the bounds are the figures' business, not a swap."""
    bounded = [m for m in agreement.matches if m.claim.bound]
    return bool(bounded) and all(m.status == "matched" and m.evidence is not None
                                 and m.evidence.bound == m.claim.bound for m in bounded)


def _bound_words(pair: tuple[str, str]) -> bool:
    """Whether both sides of a swap are words of the lexicon's bound phrases ("more", "less", "least")."""
    return all(set(side.lower().split()) <= _bound_vocabulary() for side in pair)


@cache
def _bound_vocabulary() -> frozenset[str]:
    words = lexicon().words
    return frozenset(w for phrase in (*words("figures", "bound_max"), *words("figures", "bound_min"))
                     for w in phrase.split())


def _none_is_zero(negated: str, other: str) -> bool:
    """Whether a side that says there is none of something ("No Bewick's swans were counted") meets a side that
    counts it as zero ("Bewick's swan (January 2026: 0)"): one statement, in words and in a figure."""
    if "no" not in {c.lower() for c in negation_cues(negated)}:
        return False
    zeroed = extract_quantities(_NO.sub("0", negated, count=1))  # "0 Bewick's swans were counted in January 2026"
    agreement = compare_quantities(zeroed, extract_quantities(other))
    return any(m.status == "matched" and m.claim.value == 0 and m.claim.kind in ("count", "number")
               for m in agreement.matches)


_NO = re.compile(r"\bno\b", re.IGNORECASE)


def _row_named(m: QuantityMatch) -> bool:
    """Whether the claim's figure is about the table row of the quote's labelled figure: half the row's words or more
    ("Root canal treatment (molar) (Fee: £690.00)" is no row of "treatment costing £1,000 or more"); a field outside
    a table is."""
    row = m.evidence.row if m.evidence is not None else frozenset()
    return not row or 2 * len(row & m.claim.about) >= len(row)


def decide_rules(f: SupportFeatures, t: Thresholds) -> tuple[Support, str, str]:
    """(support, rule, reason): the rules of `decide_support`. A claim that says it holds in every case ("always",
    "however many") against a quote that supports it, or is as close as a paraphrase, but states it only under a
    condition is contradicted: the claim drops the condition."""
    support, rule, reason = _decide(f, t)
    close = support in ("full", "partial") or (support == "none" and f.similarity >= t.full_similarity)
    if close and rule != "verbatim" and f.dropped_condition is not None:
        ours, theirs = f.dropped_condition
        only = "of part of them" if names_a_part(theirs) else "with a condition"
        return "contradicted", "condition", f"the claim says '{ours}', but the quote states it only {only} " \
                                            f"('{theirs} ...')"
    if close and rule != "verbatim" and f.beyond_only is not None:  # "the marathon and the half marathon" against
        added, phrase = f.beyond_only  # "the marathon course only"
        return "contradicted", "condition", f"the quote says '{phrase}'; the claim adds '{added}'"
    return support, rule, reason


def _decide(f: SupportFeatures, t: Thresholds) -> tuple[Support, str, str]:
    on_topic = f.similarity >= t.on_topic_similarity and f.coverage >= t.on_topic_coverage
    q = f.quantities
    flipped = f.claim_negated != f.quote_negated
    # A different figure contradicts when the rest of the claim is what the quote says, when the quote is so close
    # it would be a paraphrase, or when the quote gives the figure as a labelled field ("Effective date: ...").
    decisive = [
        m for m in q.conflicts
        if f.coverage >= t.on_topic_coverage or f.similarity >= t.paraphrase_similarity
        or (m.evidence and m.evidence.labelled and _row_named(m))
    ]
    if decisive and f.similarity >= t.conflict_similarity:
        m = decisive[0]
        rule = "date" if m.claim.kind in ("date", "weekday") else "quantity"
        evidence_text = m.evidence.text if m.evidence else "another figure"
        return "contradicted", rule, f"evidence says {evidence_text}, claim says {m.claim.text}"
    if f.reversed_change and f.similarity >= t.related_similarity:
        theirs, ours = f.reversed_change
        way = "the comparison" if THAN.search(ours) else "the change"  # "A did better than B" is no change
        return "contradicted", "quantity", f"evidence says {theirs}, claim says {ours}: {way} goes the other way"
    anchored_flip = f.negation_anchor >= 2 and f.similarity >= t.related_similarity and f.coverage >= t.related_coverage
    if flipped and not q.absent and (on_topic or anchored_flip):
        said = "negates it" if f.quote_negated else "states it without the negation"
        return "contradicted", "negation", f"{OPPOSITE_POLARITY}{said}"
    # A swapped name moves the embedding itself: the topic test asks for the usual term overlap, less similarity.
    # (a field names its role outright, "Incident commander: Marcus Lindqvist": the two names are all that differ)
    related = f.similarity >= (t.conflict_similarity if f.role_field else t.related_similarity)
    # (a claim that has someone do a field's work, "conducted by Tom Achebe", says more than the field's line can)
    if f.swaps and related and f.coverage >= (t.related_coverage if f.role_verb or f.subject_swap
                                              else t.on_topic_coverage) \
            and not q.absent:
        ours, theirs = f.swaps[0]
        return "contradicted", "swap", f"evidence says {theirs}, claim says {ours}"
    if f.superlative:  # "the largest crowd this season" of "A crowd of 1,186": the quote ranks nothing
        return "none", "none", f"the quote does not say '{f.superlative}'"
    if f.similarity < t.related_similarity and f.coverage < t.related_coverage:
        return "none", "none", f"the evidence does not address the claim (similarity {f.similarity:.2f})"
    clean = not (q.conflicts or f.swaps or q.absent or flipped)
    if clean and f.verbatim:  # the document says it in so many words, however long the sentence around it
        return "full", "verbatim", f"{WORD_FOR_WORD} (similarity {f.similarity:.2f})"
    # (a table cell of the row the claim names holds the claim's figure: "Electricity (…; Change: -125 kWh)" for
    # "electricity usage fell by 125 kWh")
    anchored = [m.evidence is None or m.anchor >= min(2, len(m.claim.about), len(m.evidence.about))
                or (m.evidence.labelled and bool(m.evidence.row) and m.evidence.row <= m.claim.about)
                for m in q.matched]
    figures_anchored = bool(anchored) and (all(anchored) or (len(anchored) >= 2 and any(anchored)))
    if clean and not f.added and (
        (f.similarity >= t.full_similarity and max(f.coverage, f.worded_coverage) >= t.full_coverage)
        or (f.similarity >= t.exact_coverage_similarity and f.coverage >= 1.0)
        or f.similarity >= t.paraphrase_similarity
        or (figures_anchored and f.similarity >= t.figure_similarity and f.coverage >= t.related_coverage)
        # several figures agree, or one written otherwise ("18 months" for "a year and a half"), in a close quote
        or ((len(q.matched) >= 2 or any(_reworded(m) for m in q.matched)) and f.similarity >= t.full_similarity)
    ):
        figures = f"; {_how_many(len(q.matched))}{FIGURES_AGREE} ({', '.join(_agreed(m) for m in q.matched)})" \
            if q.matched else ""
        # The model is not asked about a sum ("four years" from 1889 and 1893); it is about an age in a group ("a
        # nine-year-old" in "children under 12") or a date in a range, where the rest of the claim is the point.
        computed = any(m.derivation and m.sources for m in q.matched)
        rule = "computed" if computed else "full_figures" if q.matched else "full"
        return "full", rule, f"the quote states the claim (similarity {f.similarity:.2f}){figures}"
    if (
        f.similarity >= t.partial_similarity and f.coverage >= t.partial_coverage
        and not (q.conflicts or f.swaps or flipped or f.added) and (q.matched or not q.absent)
    ):
        gaps = [f"'{m.claim.text}'" for m in q.absent] + [f"'{w}'" for w in f.missing_terms if w not in
                                                            f.added.lower()] + ([f"'{f.added}'"] if f.added else [])
        return "partial", "partial", "the quote supports part of the claim; not found: " + (", ".join(gaps) or "—")
    if q.conflicts and (rival := q.conflicts[0].evidence) is not None:
        ours = q.conflicts[0].claim.text
        return "none", "none", f"the evidence gives {rival.text}, not {ours}, in a statement only partly like the claim"
    if q.absent and not q.matched:
        return "none", "none", f"the evidence does not give the claim's figure {q.absent[0].claim.text}"
    if f.added:
        return "none", "none", f"the quote does not name {f.added}, which the claim lists with names it gives"
    return "none", "none", f"related evidence that does not state the claim (similarity {f.similarity:.2f})"


def _how_many(n: int) -> str:
    """"both " or "all 3 " before FIGURES_AGREE when several of the claim's figures agree (SEVERAL_AGREE)."""
    return "" if n < 2 else "both " if n == 2 else f"all {n} "


def several_agree(reason: str) -> bool:
    """Whether a reason says that two or more of the claim's figures agree with the quote's."""
    return SEVERAL_AGREE.search(reason) is not None


# An amount written to the penny or with thousands ("£8.40", "1,284,000"): one a quote repeats is no coincidence.
_EXACT_AMOUNT = re.compile(r"[£$€]\s?\d{1,3}(?:,\d{3})*\.\d{2}\b|\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b")


def exact_amount_agrees(reason: str, claim: str, quote: str) -> bool:
    """Whether the rules matched the claim's figures and the quote repeats an exact amount of the claim as written
    ("£8.40 an hour" in "… are charged at £8.40 an hour")."""
    return FIGURES_AGREE in reason and any(m.group(0) in quote for m in _EXACT_AMOUNT.finditer(claim))


def states_outright(reason: str) -> bool:
    """Whether a reason says the quote states the claim outright: two or more of its figures agree, or it repeats the
    claim word for word."""
    return several_agree(reason) or reason.startswith(WORD_FOR_WORD)


def _reworded(m: QuantityMatch) -> bool:
    """Whether the quote gives a matched claim figure as another number or unit ("18 months" for "a year and a half",
    "20%" for "a fifth"): not a date, not a limit the quote's figure meets, not a range it falls in, not the same
    number with or without the thing counted ("five" for "five recommendations")."""
    e = m.evidence
    if e is None or m.derivation or m.claim.kind in ("date", "weekday") or m.claim.bound or e.ranged or e.upper:
        return False
    ours, theirs = _written(m.claim.text), _written(e.text)
    return not (ours.startswith(theirs) or theirs.startswith(ours))


def figures_stated_otherwise(claim: str, quote: str) -> bool:
    """Whether the quote gives a figure of the claim as another number or unit (`_reworded`). Pure."""
    return any(_reworded(m) for m in compare_quantities(extract_quantities(claim), extract_quantities(quote)).matched)


def _agreed(m: QuantityMatch) -> str:
    """A matched claim figure for the reason, with its working if any ("four years, worked out: 1893 − 1889"), or
    as the quote writes it when that is otherwise ("two fifths of, stated as 41%")."""
    if m.derivation:
        return f"{m.claim.text}, {COMPUTED} {m.derivation}"
    if m.evidence is not None and _written(m.claim.text) != _written(m.evidence.text):
        return f"{m.claim.text}, {REWORDED} {m.evidence.text}"
    return m.claim.text


def _written(figure: str) -> str:
    return " ".join(figure.lower().split())


def decide_support(f: SupportFeatures, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> tuple[Support, str]:
    """Support level and a short human reason, from the features. Pure.

    A different figure for the same quantity, the opposite polarity or another entity in the same statement
    contradicts; a paraphrase with the key terms and figures present supports fully; a quote that has part of
    the claim supports partially; anything else does not support.
    """
    support, _, reason = decide_rules(f, thresholds)
    return support, reason


def choose_check(checks: list[tuple[float, float, SupportCheck]]) -> SupportCheck:
    """The deciding check among a pair's candidate quotes, from (rank score, coverage, check).

    Rules state other figures for other cases side by side ("$30 ... except at weekends. At weekends ... $45"),
    so a quote that supports the claim stands against one that contradicts it unless the contradicting quote
    has more of the claim's words (it is about the claim's case: "child tickets ... $12" against "adult tickets
    ... $20"), or it is a sentence denying the claim inside the supporting quote (`_denied_inside`). Without either,
    partial beats none. A quote that says the claim word for word always stands (a clause of it read alone, "Card
    payment is accepted" of "...; cash is no longer accepted", says nothing against it). Among full support, it comes
    first, then one whose figures agree.
    """
    full = max((c for c in checks if c[2].support == "full"),
               key=lambda c: (c[2].rule == "verbatim", c[2].rule in _FIGURES, c[0]), default=None)
    against = max((c for c in checks if c[2].support == "contradicted"), key=lambda c: (c[1], c[0]), default=None)
    if full is not None and full[2].rule == "verbatim":
        return full[2]  # a quote that says the claim word for word: no piece of it says otherwise
    if against is not None and (full is None or against[1] > full[1] or _denied_inside(against[2], full[2])):
        return against[2]
    if full is not None:
        return full[2]
    return max(checks, key=lambda c: (_PRIORITY[c[2].support], c[0]))[2]


def _denied_inside(against: SupportCheck, full: SupportCheck) -> bool:
    """Whether a sentence that denies the claim ("the skipper may delay a sailing but cannot cancel it") lies inside
    a longer quote read as supporting it (the same sentence after "Sailings may be cancelled in gales."): the longer
    quote's support came from its other sentence, and it quotes the denial too. Not a sentence that only lacks the
    claim's denial ("The evacuation lift … may only be used …" inside "Do not use the passenger lifts. The evacuation
    lift …", for "Nobody should use the passenger lifts; the evacuation lift is only for …"): the longer quote has
    the denial."""
    inside = full.quote_start <= against.quote_start and against.quote_end <= full.quote_end
    return (against.rule == "negation" and against.reason.startswith(f"{OPPOSITE_POLARITY}negates")
            and against.quote_start >= 0 and inside and len(full.quote) > len(against.quote))
