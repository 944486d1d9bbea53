"""Terminal rendering: numbered citations a reader can follow."""

from __future__ import annotations

from ledger.exports.citations import numbered_answer


def test_citations_become_numbers_in_order_of_first_use() -> None:
    text, order = numbered_answer("Cap is $220 [cite:aaa]. Per diem is $75 [cite:bbb][cite:aaa]. Fine.")
    assert text == "Cap is $220 [1]. Per diem is $75 [2][1]. Fine."
    assert order == ["aaa", "bbb"]


def test_comma_separated_anchor_lists_are_numbered_too() -> None:
    text, order = numbered_answer("Both say so [cite:aaa, bbb].")
    assert text == "Both say so [1][2]."
    assert order == ["aaa", "bbb"]
