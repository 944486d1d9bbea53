"""No text takes the text readers down: figures, dates, terms, negation and sentences on odd characters.

Property tests over `tests.strategies` (superscripts, fractions, other scripts' digits, bidi marks, emoji, control
characters, huge tokens) and plain regression tests for each crash they found.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.text.figures import Agreement, Quantity
from ledger.text.numbers import (
    DATE_RE,
    DURATIONS,
    TOKEN_RE,
    article_number_at,
    bound_at,
    counted_at,
    date_parts,
    fraction_at,
    frequency_at,
    number_at,
    unit_word,
)
from ledger.text.quantities import compare_quantities, extract_quantities
from ledger.text.sentences import parse_citations, split_sentences
from ledger.text.terms import find_swaps, is_negated, key_terms, negation_cues, negation_scopes, polarity
from tests.strategies import claim_text, figure_text, texts


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


@given(figure_text)
def test_extract_quantities_returns_figures_inside_the_text(text: str) -> None:
    found = extract_quantities(text)
    assert isinstance(found, list)
    for q in found:
        assert isinstance(q, Quantity) and isinstance(q.value, float)
        assert 0 <= q.start <= q.end <= len(text) and text[q.start:q.end] == q.text
    assert [q.start for q in found] == sorted(q.start for q in found)


@given(claim_text, figure_text)
def test_compare_quantities_judges_every_claim_figure(claim: str, evidence: str) -> None:
    claim_qs = extract_quantities(claim)
    agreement = compare_quantities(claim_qs, extract_quantities(evidence))
    assert isinstance(agreement, Agreement)
    assert [m.claim for m in agreement.matches] == claim_qs
    assert all(m.status in ("matched", "conflict", "absent") for m in agreement.matches)


@given(figure_text)
def test_number_readers_stay_on_the_tokens(text: str) -> None:
    tokens = _tokens(text)
    for i in range(len(tokens)):
        if (number := number_at(tokens, i)) is not None:
            assert isinstance(number[0], float) and i < number[1] <= len(tokens)
        if (share := fraction_at(tokens, i)) is not None:
            assert 0 < share[0] <= 100 and i < share[1] < len(tokens)
        if (rate := frequency_at(tokens, i)) is not None:
            assert isinstance(rate[0], float) and i < rate[1] <= len(tokens)
        if (part := article_number_at(tokens, i)) is not None:
            assert part[0] in (0.25, 0.5, 1.0) and i < part[1] < len(tokens)
        counted, end = counted_at(tokens, i)
        assert isinstance(counted, frozenset) and i <= end <= len(tokens)
        assert bound_at(text, tokens[i][1], tokens[i][2]) in ("", "min", "max")
        assert unit_word(tokens[i][0]) in ("", *DURATIONS)


@given(figure_text)
def test_date_parts_read_every_date_match(text: str) -> None:
    for m in DATE_RE.finditer(text):
        parsed = date_parts(m)
        if parsed is not None:
            kind, parts = parsed
            assert kind in ("date", "weekday") and len(parts) == 4
            assert all(p is None or isinstance(p, int) for p in parts)


@given(texts, texts)
def test_terms_negation_and_swaps_return_their_types(claim: str, quote: str) -> None:
    terms = key_terms(claim)
    assert isinstance(terms, tuple) and all(isinstance(t, str) and t for t in terms)
    negated, anchor = polarity(quote, terms)
    assert isinstance(negated, bool) and anchor >= 0
    assert polarity(quote, terms, loose=True)[1] >= 0
    for cue, scope, heads in negation_scopes(quote):
        assert isinstance(cue, str) and isinstance(scope, tuple) and isinstance(heads, frozenset)
    assert isinstance(negation_cues(claim), list) and isinstance(is_negated(claim), bool)
    swaps = find_swaps(claim, quote)
    assert all(isinstance(a, str) and isinstance(b, str) for a, b in swaps)


@given(texts)
def test_split_sentences_spans_are_the_sentences(text: str) -> None:
    sentences = split_sentences(text)
    previous_end = 0
    for sentence, start, end in sentences:
        assert sentence and text[start:end] == sentence
        assert previous_end <= start < end <= len(text)
        previous_end = end


@given(texts)
def test_parse_citations_strips_every_anchor(sentence: str) -> None:
    clean, hashes = parse_citations(sentence)
    assert isinstance(clean, str) and clean == clean.strip()
    assert all(h and h == h.lower() for h in hashes) and len(hashes) == len(set(hashes))


@given(st.sampled_from(["²", "³", "¹", "½", "¾", "①", "٣", "３", "३", "𝟗"]))
def test_a_lone_odd_digit_is_no_figure_and_no_crash(digit: str) -> None:
    assert all(q.text != digit or q.kind != "time" for q in extract_quantities(f"5:{digit} pm and {digit} days"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("area of 25 m² costs $40", [("count", 25.0), ("money", 40.0)]),
        ("the site is 300 m³ and ² alone", [("count", 300.0)]),
        ("meet at 5:² pm", [("number", 5.0)]),
        ("½ of the staff and ¾ hours", []),
        ("٣ days notice, ３ business days", [("duration", 3.0), ("duration", 3.0)]),
    ],
)
def test_odd_digits_in_a_sentence_read_without_error(text: str, expected: list[tuple[str, float]]) -> None:
    assert [(q.kind, q.value) for q in extract_quantities(text)] == expected
