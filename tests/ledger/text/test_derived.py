"""Figures a claim works out from the evidence: the working is shown, and a wrong sum is never taken for a right one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.text.quantities import compare_quantities, extract_quantities


def working(claim: str, evidence: str) -> list[tuple[str, str]]:
    """(status, derivation) of each claim figure."""
    matches = compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches
    return [(m.status, m.derivation) for m in matches]


@pytest.mark.parametrize(
    ("claim", "evidence", "how"),
    [
        ("The second edition appeared four years after the first.",
         "Her two-volume flora, published in 1889 and 1893, described 212 species.", "1893 − 1889"),
        ("The railway reached the town almost ninety years after the port closed.",
         "Its port was closed in 1781. The arrival of the railway in 1868 brought new industry.", "1868 − 1781"),
        ("The study ran for six years.", "Data were collected between 2019 and 2025.", "2025 − 2019"),
        ("The first lesson now starts fifty minutes later.",
         "Schools moved their first lesson from 8:10 to 9:00.", "9:00 − 8:10"),
        ("The consultation lasted six weeks.", "The consultation ran from 3 March to 14 April 2026.",
         "3 March to 14 April 2026"),
        ("The festival lasts 12 days.", "The festival runs from 3 March to 14 March.", "3 March to 14 March"),
        ("Canopy cover in the west is almost five times that of the east.",
         "Canopy cover ranges from 34% in the western suburbs to 7% in the industrial east.", "34% ÷ 7%"),
        ("About 120 of the plants were exposed to heat.",
         "We grew 240 bean plants and exposed half of them to heat pulses.", "half of 240 bean plants"),
        ("30% of the schools were rebuilt.", "Of the 40 schools in the district, 12 were rebuilt.", "12 of 40 schools"),
        # "N of the M things": the part is about the things the whole names
        ("Roughly 38% of the tickets sold for the festival were refunded.",
         "Overall: About 4,180 of the 11,000 tickets sold for the festival were refunded.",
         "4,180 of 11,000 tickets sold"),
        ("The survey reached 1,530 households.",
         "We surveyed 912 households in the north and 618 households in the south.", "912 households + 618 households"),
        ("There were 15 fewer road deaths in the county.",
         "Road deaths in the county fell to 74 in 2025, compared with 89 in 2024.", "89 − 74"),
    ],
)
def test_a_figure_worked_out_from_two_of_the_evidence_is_matched_with_its_working(
    claim: str, evidence: str, how: str
) -> None:
    assert ("matched", how) in working(claim, evidence)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The second edition appeared five years after the first.",
         "Her two-volume flora, published in 1889 and 1893, described 212 species."),
        ("The study ran for five years.", "Data were collected between 2019 and 2025."),
        ("The first lesson now starts forty minutes later.", "Schools moved their first lesson from 8:10 to 9:00."),
        ("The consultation lasted five weeks.", "The consultation ran from 3 March to 14 April 2026."),
        ("Canopy cover in the west is three times that of the east.",
         "Canopy cover ranges from 34% in the western suburbs to 7% in the industrial east."),
        ("About 100 of the plants were exposed to heat.",
         "We grew 240 bean plants and exposed half of them to heat pulses."),
        # 37 of 1,284 is 2.88%: close to 2.4% in points, but "2.4%" is written to a tenth of a point
        ("The largest customer accounted for 2.4% of revenue.",
         "The company had 1,284 paying customers and signed 37 new enterprise customers."),
        ("31% of the schools were rebuilt.", "Of the 40 schools in the district, 12 were rebuilt."),
        ("The survey reached 1,500 households.",
         "We surveyed 912 households in the north and 618 households in the south."),
        ("The survey reached 1,530 people.", "We surveyed 912 households in the north and 618 people in the south."),
        # a difference of two counts of different things counts nothing ("2 players" is not 5 tokens less 3 coins)
        ("The three-player game is played on one board.", "Each player takes 7 cards and 4 coins."),
    ],
)
def test_a_figure_the_evidence_does_not_work_out_to_is_not_matched(claim: str, evidence: str) -> None:
    assert all(status != "matched" for status, _ in working(claim, evidence))


def test_a_figure_in_the_place_of_another_is_no_difference_unless_the_claim_says_so() -> None:
    # 84 − 28 is 56, but "28 or 56 packs" puts 56 where the evidence has 84
    assert working("Boxes hold 28 or 56 capsules.", "Boxes hold 28 or 84 capsules.") == [
        ("matched", ""), ("conflict", "")]
    assert ("matched", "84 capsules − 28") in working("The large box holds 56 more capsules than the small one.",
                                                     "Boxes hold 28 or 84 capsules.")


def test_a_figure_the_evidence_states_needs_no_working() -> None:
    assert working("The flora was published in 1889.", "Her flora, published in 1889 and 1893.") == [("matched", "")]


@pytest.mark.parametrize(
    ("text", "multiple"),
    [("Sales doubled in five years.", 2.0), ("It holds twice as many seats.", 2.0), ("a fivefold rise", 5.0),
     ("The price has tripled.", 3.0), ("twice the size of the old hall", 2.0)],
)
def test_a_multiple_written_without_times_is_read_as_one(text: str, multiple: float) -> None:
    (figure,) = [q for q in extract_quantities(text) if q.kind == "count"]
    assert figure.value == multiple


@pytest.mark.parametrize("text", ["He scored twice.", "Records may be deleted once the period ends.",
                                  "She is ranked highly for doubles.", "The ferry runs twice a day."])
def test_occasions_frequencies_and_nouns_are_no_multiples(text: str) -> None:
    assert all(not (q.kind == "count" and "fold" in q.context) for q in extract_quantities(text))
    if "scored" in text:  # a count of occasions instead
        assert [(q.value, q.context) for q in extract_quantities(text)] == [(2.0, frozenset({"time"}))]


def test_multiples_compare_and_work_out_from_the_figures() -> None:
    assert working("Sales have doubled since 2015.", "Sales tripled between 2015 and 2025.")[0][0] == "conflict"
    assert working("Sales have doubled since 2015.", "Sales rose from 4.1 million in 2015 to 8.3 million in 2025.")[0] \
        == ("matched", "8.3 million ÷ 4.1 million")
    # a bound: 212 is 5.6 times 38, and 112 is not five times it; a multiple is never matched as a count of 212
    assert working("Pairs rose more than fivefold.", "Pairs rose from 38 to 212.") == [("matched", "212 ÷ 38")]
    assert working("Pairs rose more than fivefold.", "Pairs rose from 38 to 112.")[0][0] != "matched"
    assert working("Pairs rose fivefold.", "Pairs rose from 38 to 212.")[0][0] != "matched"


_MONTHS = ["January", "February", "March", "April", "June", "September", "December"]


@given(
    st.integers(-5, 99), st.integers(-5, 99), st.sampled_from(_MONTHS), st.sampled_from(_MONTHS),
    st.integers(0, 9999), st.integers(0, 9999), st.integers(0, 30), st.integers(0, 99), st.integers(0, 30),
    st.integers(0, 99), st.integers(0, 10**9), st.integers(0, 10**9), st.integers(0, 200),
    st.sampled_from(["days", "weeks", "years", "minutes", "times", "%", "fold", "-year-old"]),
)
def test_working_out_never_raises_on_impossible_dates_times_or_zeros(
    d1: int, d2: int, m1: str, m2: str, y1: int, y2: int, h1: int, n1: int, h2: int, n2: int, a: int, b: int,
    claimed: int, unit: str,
) -> None:
    evidence = (f"It ran from {d1} {m1} {y1} to {d2} {m2}, and from {h1}:{n1:02d} to {h2}:{n2:02d}; "
                f"{a} of {b} items, {a}% of them, rose from {a} to {b} in {y1} and {y2}. Children under {b} pay.")
    claim = f"It lasted {claimed} {unit}, and {claimed}% of {a} items changed in {claimed} {unit}."
    for match in compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches:
        assert match.status in ("matched", "conflict", "absent")
        assert not match.derivation or match.status == "matched"


@pytest.mark.parametrize(
    ("claim", "holds"),
    [
        ("The company was founded 20 years after the war ended.", True),
        ("The war ended 20 years before the company was founded.", True),
        ("The company was founded 20 years before the war ended.", False),
        ("The war ended 20 years after the company was founded.", False),
        ("Twenty years separate the end of the war and the founding of the company.", True),  # no order given
    ],
)
def test_a_span_in_the_wrong_order_is_not_the_evidence_figure(claim: str, holds: bool) -> None:
    from ledger.judge.support_rules import features

    evidence = "The war ended in 1945, and the company was founded in 1965."
    assert [m.status for m in features(claim, evidence, 0.8).quantities.matches] == (
        ["matched"] if holds else ["absent"])


def test_a_share_of_something_else_is_not_the_claims_count() -> None:
    evidence = "The school has 400 pupils. Of those, about 25% walk to school."
    assert working("About 100 pupils walk to school.", evidence)[0] == ("matched", "25% of 400 pupils")
    assert working("About 100 teachers were hired.", evidence)[0][0] != "matched"


def test_an_age_is_not_worked_out_from_a_number_of_people() -> None:
    claim = "An adult aged 16 or over must accompany children in the water."
    evidence = "An adult aged 18 or over must accompany children in the water. Each adult may supervise two children."
    assert working(claim, evidence) == [("conflict", "")]  # not "18 − two children"


def test_a_count_is_not_worked_out_from_the_sides_of_a_measure() -> None:
    evidence = "Each plot may have one shed no larger than 6 by 4 feet and one greenhouse no larger than 8 by 6 feet."
    assert working("Each plot may have two sheds.", evidence)[0][0] == "conflict"  # not "6 − 4 feet" nor "8 − 6"
    assert working("Each plot may have one shed.", evidence)[0][0] == "matched"


def test_a_share_in_words_of_a_sum_is_one_sum_over_another_in_its_currency() -> None:
    evidence = "The annual subscription is £120, or £60 for students and players under 25."
    assert working("Student players pay half the standard annual subscription.", evidence)[0] == (
        "matched", "£60 of £120")
    assert working("Student players pay half the standard annual subscription.",
                   evidence.replace("£60", "€60"))[0][0] != "matched"  # (another currency)


def test_a_price_each_is_a_sum_over_the_count_it_buys() -> None:
    evidence = "Visitor permits are sold in books of 10 daily scratch cards for £25 a book."
    assert working("Each daily visitor permit works out at £2.50.", evidence) == [
        ("matched", "£25 a book ÷ 10 daily scratch cards")]
    assert working("Each daily visitor permit works out at £3.50.", evidence)[0][0] != "matched"
    # a count of something else the claim does not price buys nothing
    assert working("Each parking space costs £2.50.", "The 10 staff share a £25 gift.")[0][0] != "matched"
