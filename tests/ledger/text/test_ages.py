"""Ages and age groups: an age in a group is the group's figure; an age outside it is not a contradiction."""

from __future__ import annotations

import pytest

from ledger.text.quantities import compare_quantities, extract_quantities


def statuses(claim: str, evidence: str) -> list[str]:
    return [m.status for m in compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches]


@pytest.mark.parametrize(
    ("text", "value", "bound"),
    [
        ("A seven-year-old child is not allowed.", 7, ""),
        ("It is for 70 years old and over.", 70, "min"),
        ("Children under 12 must not take it.", 12, "max"),
        ("children under the age of 16", 16, "max"),
        ("Visitors aged 65 and over get a discount.", 65, "min"),
        ("Patients aged 12 or older may take it.", 12, "min"),
        ("It is not recommended for children under 12 years.", 12, "max"),
        ("Plot holders aged over 65 receive a discount.", 65, "min"),  # "aged over", whoever the holders are
        ("Staff aged under 25 receive a bonus.", 25, "max"),
        # people named by an age band
        ("Under-16s may use the gym floor with an adult.", 16, "max"),
        ("under-18s swim free", 18, "max"),
        ("Over-65s travel free.", 65, "min"),
    ],
)
def test_ages_and_age_groups_are_read_as_ages(text: str, value: float, bound: str) -> None:
    (age,) = [q for q in extract_quantities(text) if q.context == frozenset({"age"})]
    assert (age.value, age.bound) == (value, bound)


def test_a_figure_after_a_word_for_things_is_no_age() -> None:
    assert all(q.context != frozenset({"age"}) for q in extract_quantities("Orders over 50 ship free."))
    assert all(q.context != frozenset({"age"}) for q in extract_quantities("The course lasts seven years."))


@pytest.mark.parametrize(
    ("claim", "evidence", "status"),
    [
        ("Dolvarin should not be given to an eight-year-old.", "Children under 12 must not take Dolvarin.", "matched"),
        ("A 70-year-old gets a discount.", "Visitors aged 65 and over get a discount.", "matched"),
        ("A five-year-old needs two doses.", "All children aged 2 to 11 need two doses.", "matched"),
        # outside the group: the evidence says nothing of that age, it does not give another one
        ("A 14-year-old must not take Dolvarin.", "Children under 12 must not take Dolvarin.", "absent"),
        ("A 12-year-old needs two doses.", "All children aged 2 to 11 need two doses.", "absent"),
        ("A 60-year-old gets a discount.", "Visitors aged 65 and over get a discount.", "absent"),
        # an age compares with an age, not with any figure
        ("A seven-year-old may climb the tower.", "The tower has 7 bells.", "absent"),
    ],
)
def test_an_age_in_a_group_is_matched_and_one_outside_it_is_not_contradicted(
    claim: str, evidence: str, status: str
) -> None:
    assert statuses(claim, evidence)[0] == status


def test_an_age_in_a_group_shows_how() -> None:
    def working(claim: str, evidence: str) -> str:
        return compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches[0].derivation

    assert working("Not for an eight-year-old.", "Children under 12 must not take it.") == "8 is under 12"
    assert working("A 70-year-old pays less.", "Visitors aged 65 and over pay less.") == "70 is over 65"
    assert working("A five-year-old needs two doses.", "Children aged 2 to 11 need two doses.") == "5 is in 2 to 11"
    assert working("A 12-year-old needs two doses.", "Children aged 12 need two doses.") == ""  # stated, not worked out


def test_an_age_is_the_figure_alone_not_the_words_after_it() -> None:
    (age,) = extract_quantities("Members aged over 65 pay half price.")
    assert (age.text, age.context) == ("65", frozenset({"age"}))


def test_an_age_band_is_the_group_a_quote_names_by_its_age() -> None:
    assert statuses("Under-16s may use the gym floor.", "Children under 16 are not admitted to the gym floor.") == [
        "matched"]
    assert statuses("Under-18s may use the gym floor.", "Children under 16 are not admitted to the gym floor.") == [
        "conflict"]
