"""A superlative question over a table: the row at that end of the column the question names. No model."""

from __future__ import annotations

import pytest

from ledger.judge.superlatives import extreme, extreme_row
from tests.fakes import make_chunk

PLANS = make_chunk(
    "# Broadband plans\n\n| Plan | Download speed | Monthly price | Contract |\n|---|---|---|---|\n"
    "| Starter | 40 Mbps | £24 | 12 months |\n| Fibre 200 | 200 Mbps | £31 | 18 months |\n"
    "| Fibre 900 | 900 Mbps | £45 | 24 months |\n", "Home services", doc="plans")
TRAILS = make_chunk(
    "# Trails\n\n| Trail | Length | Climb |\n|---|---|---|\n| Mill path | 4 km | 30 m |\n"
    "| High moor | 1.2 km | 900 m |\n| Valley way | 900 metres | 60 m |\n", "Home services", doc="trails")
SALES = make_chunk(
    "| Region | Revenue | Growth | Share of staff |\n|---|---|---|---|\n| North | $4.2 million | 3% | 30% |\n"
    "| East | $3.1 million | -2% | 20% |\n| South | $6.8 million | 11% | 50% |\n", "Sales", doc="sales")


def label(question: str, chunks: list) -> str | None:  # type: ignore[type-arg]
    found = extreme_row(question, chunks)
    return found[1].cells[0] if found else None


@pytest.mark.parametrize(("question", "row"), [
    ("Which plan is the cheapest?", "Starter"),  # every column agrees
    ("Which plan has the longest contract?", "Fibre 900"),  # the column the question names
    ("Which plan is the most expensive?", "Fibre 900"),
    ("Which trail is the shortest?", "Valley way"),  # 900 m is shorter than 1.2 km, though 900 is more than 1.2
    ("Which trail has the biggest climb?", "High moor"),
    ("Which region had the lowest growth?", "East"),  # -2% is a fall
    ("Which region had the highest revenue?", "South"),
])
def test_the_row_at_the_end_of_the_named_column_answers(question: str, row: str) -> None:
    assert label(question, [PLANS, TRAILS, SALES]) == row


def test_no_row_answers_a_question_about_no_table_or_no_column() -> None:
    assert label("Which river is the longest?", [PLANS, TRAILS]) is None  # no table of rivers
    assert label("What does the Starter plan cost?", [PLANS]) is None  # no superlative
    # "most" names no measure of its own: of a table whose columns the question does not name, no row
    assert label("Which region had the most rain?", [SALES]) is None
    assert label("Which region has the most staff?", [SALES]) == "South"


def test_a_superlative_is_read_as_the_phrase_it_is() -> None:
    assert extreme("Which plan is the most expensive?") == ("max", "most expensive")
    assert extreme("Which plan is the least expensive?") == ("min", "least expensive")
    assert extreme("Who approves refunds?") is None


def test_a_claim_that_a_row_is_at_one_end_is_read_against_the_table() -> None:
    from ledger.judge.superlatives import ranked_claim

    holds, named, top = ranked_claim("Starter is the cheapest plan at £24 a month.", PLANS) or (None, None, None)
    assert holds and named is top and top.cells[0] == "Starter"
    holds, named, top = ranked_claim("Fibre 200 has the fastest download speed.", PLANS) or (None, None, None)
    assert holds is False and named.cells[0] == "Fibre 200" and top.cells[0] == "Fibre 900"
    assert ranked_claim("Starter costs £24 a month.", PLANS) is None  # no superlative
    assert ranked_claim("The cheapest plan has no contract.", PLANS) is None  # names no row


def test_a_question_about_one_row_is_not_asked_of_the_whole_table() -> None:
    assert label("What is the maximum contract for the Starter plan?", [PLANS]) is None


def test_a_column_named_with_a_superlative_does_not_rank_the_row_a_claim_restates() -> None:
    from ledger.judge.superlatives import ranked_claim

    cover = make_chunk("| Section | Benefit | Maximum cover | Excess |\n|---|---|---|---|\n"
                       "| A | Cancellation | £3,000 | £100 |\n| B | Medical expenses | £10,000,000 | £100 |\n",
                       "Policy schedule", doc="cover")
    assert ranked_claim("A (Benefit: Cancellation; Maximum cover: £3,000; Excess: £100).", cover) is None
    holds, named, top = ranked_claim("Section A has the highest maximum cover.", cover) or (None, None, None)
    assert holds is False and named.cells[0] == "A" and top.cells[0] == "B"


def test_a_superlative_that_names_its_measure_ranks_by_that_column() -> None:
    bags = make_chunk("| Bag | Capacity | Weight | Price |\n|---|---|---|---|\n| Alpine | 20 L | 2.5 kg | £40 |\n"
                      "| Ridge | 35 L | 1.2 kg | £90 |\n| Summit | 50 L | 1.8 kg | £120 |\n", "Kit list", doc="bags")
    assert label("Which bag is the heaviest?", [bags]) == "Alpine"  # by weight, not by most columns (Summit)
    assert label("Which bag is the lightest?", [bags]) == "Ridge"


def test_a_named_row_whose_cells_compare_the_columns_answers_which_column_is_at_the_end() -> None:
    # a comparison table: the things compared are the columns, the measures the rows
    review = make_chunk(
        "| | Vantra S8 | Brisa 5 | Tolvik Pro |\n|---|---|---|---|\n| Price | £329 | £199 | £249 |\n"
        "| Overall score | 84% | 71% | 80% |\n| Verdict | Best Buy | — | Great Value |\n", "Review", doc="review")
    assert label("Which vacuum had the highest overall score?", [review]) == "Overall score"
    assert label("Which vacuum had the lowest verdict?", [review]) is None  # words are not ranked
