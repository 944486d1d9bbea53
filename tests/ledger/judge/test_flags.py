"""Rows a yes/no column marks: "Which … contain nuts?" is answered by the rows whose cell says yes."""

from __future__ import annotations

import pytest

from ledger.judge.flags import flagged_rows
from tests.fakes import make_chunk

MENU = make_chunk("# Bakery allergens\n\n| Item | Sesame | Soya | Price |\n|---|---|---|---|\n"
                  "| Seeded loaf | ✓ | ✗ | £3.20 |\n| Brioche | ✗ | ✓ | £2.80 |\n| Rye roll | ✗ | ✗ | £0.90 |",
                  "Bakery allergens", None, "b", 1, 0)


@pytest.mark.parametrize(
    ("question", "items"),
    [
        ("Which items contain sesame?", ["Seeded loaf"]),
        ("Which items contain soya?", ["Brioche"]),
        ("Which items are free from sesame?", ["Brioche", "Rye roll"]),
        ("Which items do not contain soya?", ["Seeded loaf", "Rye roll"]),
        ("Which item is the cheapest?", []),  # no yes/no column named: a superlative's business
        ("Does the brioche contain soya?", []),  # not a "which" question: the row answers it as any sentence does
        ("Which items contain celery?", []),  # no such column
        ("What sesame is on the seeded loaf?", []),  # a question naming a row asks about that row
    ],
)
def test_a_which_question_on_a_yes_no_column_is_answered_by_the_rows_it_marks(question: str,
                                                                              items: list[str]) -> None:
    assert [row.cells[0] for _, row in flagged_rows(question, [MENU])] == items
