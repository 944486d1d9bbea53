"""Document-date inference: which labelled date a reader would call the document's date."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from ingest.dates import HEAD_CHARS, infer_document_date, resolve_document_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # labels, any case, with the usual separators
        ("Effective date: 2026-03-01", (date(2026, 3, 1), "text:effective date")),
        ("EFFECTIVE DATE: 2026-03-01", (date(2026, 3, 1), "text:effective date")),
        ("Effective 2026-07-01", (date(2026, 7, 1), "text:effective")),
        ("Issued: May 18, 2026", (date(2026, 5, 18), "text:issued")),
        ("Issued on 18 May 2026", (date(2026, 5, 18), "text:issued")),
        ("Issue date - 12 August 2026", (date(2026, 8, 12), "text:issue date")),
        ("Last reviewed: 2026-09-10", (date(2026, 9, 10), "text:last reviewed")),
        ("Published: 2026-10-20", (date(2026, 10, 20), "text:published")),
        ("Date: 2026-01-05", (date(2026, 1, 5), "text:date")),
        ("Recorded: Saturday 6 June 2026, 10:00", (date(2026, 6, 6), "text:recorded")),  # a meeting's transcript
        ("**For immediate release: 12 October 2026**", (date(2026, 10, 12), "text:for immediate release")),
        ("Tenant: Ana Ruiz\nDate of agreement: 2 September 2026", (date(2026, 9, 2), "text:date of agreement")),
        # markdown emphasis, tables and a value on the next line (HTML definition lists)
        ("**Effective:** 2026-07-01", (date(2026, 7, 1), "text:effective")),
        ("| Effective date | 2026-03-01 |", (date(2026, 3, 1), "text:effective date")),
        ("Effective date\n2026-03-01", (date(2026, 3, 1), "text:effective date")),
        # formats
        ("Date: 1 March 2026", (date(2026, 3, 1), "text:date")),
        ("Date: 1st of March, 2026", (date(2026, 3, 1), "text:date")),
        ("Date: March 1, 2026", (date(2026, 3, 1), "text:date")),
        ("Date: Sept. 3, 2026", (date(2026, 9, 3), "text:date")),
        ("Date: Monday, 2 March 2026", (date(2026, 3, 2), "text:date")),
        ("Date: 2026/03/05", (date(2026, 3, 5), "text:date")),
        ("Date: March 2026", (date(2026, 3, 1), "text:date")),
        ("Date: 01/03/2026", (date(2026, 3, 1), "text:date")),  # day/month first
        ("Date: 01.03.26", (date(2026, 3, 1), "text:date")),  # two-digit year
        ("Date: 12/31/2026", (date(2026, 12, 31), "text:date")),  # month 31 impossible: month/day
    ],
)
def test_labelled_dates_are_found_in_every_format(text: str, expected: tuple[date, str]) -> None:
    assert infer_document_date(f"Travel Policy\n{text}\n\nBody text.") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an effective date beats a plain "Date" that comes first
        ("Date: 2026-01-02\nEffective date: 2026-03-01", (date(2026, 3, 1), "text:effective date")),
        # effective beats reviewed and published, whatever the order
        ("Last reviewed: 2026-09-10\nEffective date: 1 April 2026", (date(2026, 4, 1), "text:effective date")),
        ("Published: 2026-10-20\nIssued: 2026-10-01", (date(2026, 10, 1), "text:issued")),
        # same rank: the first one wins
        ("Effective date: 2026-03-01\nEffective date: 2027-01-01", (date(2026, 3, 1), "text:effective date")),
    ],
)
def test_preferred_labels_win(text: str, expected: tuple[date, str]) -> None:
    assert infer_document_date(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "A policy without any date at all.",
        "The meeting on 2026-03-01 agreed the budget.",  # a date, but not labelled as the document's
        "Updated guidance follows.",  # "date" inside a word is not a label
        "Mandate 2026-01-01",
        "Effective date: to be confirmed",
        "Date: 2026-02-30",  # impossible date
        "Date: 31/31/2026",  # impossible either way round
        "Date of birth: 1990",
        "- Salary: £42,000\n- Closing date: 15 December 2026",  # another thing's date ("the job closes")
        "Start date: 1 March 2027 | Due date: 2027-04-01",
    ],
)
def test_no_document_date_is_none(text: str) -> None:
    assert infer_document_date(text) == (None, "none")


def test_strong_label_after_the_header_still_counts_but_a_plain_date_label_does_not() -> None:
    filler = "Lorem ipsum dolor sit amet. " * (HEAD_CHARS // 20)
    assert infer_document_date(filler + "Effective date: 2026-03-01") == (date(2026, 3, 1), "text:effective date")
    assert infer_document_date(filler + "Date: 2026-03-01") == (None, "none")


def test_header_date_beats_a_stronger_label_deep_in_the_body() -> None:
    filler = "Lorem ipsum dolor sit amet. " * (HEAD_CHARS // 20)
    text = "Date: 2026-01-02\n" + filler + "Effective date: 2020-01-01"
    assert infer_document_date(text) == (date(2026, 1, 2), "text:date")


def test_resolve_prefers_the_text_over_the_mtime() -> None:
    mtime = datetime(2025, 6, 1, 12, tzinfo=UTC).timestamp()
    assert resolve_document_date("Effective date: 2026-03-01", mtime) == (date(2026, 3, 1), "text:effective date")


def test_resolve_falls_back_to_the_mtime_date() -> None:
    mtime = datetime(2025, 6, 1, 12, tzinfo=UTC).timestamp()
    assert resolve_document_date("No date here.", mtime) == (date(2025, 6, 1), "mtime")


@pytest.mark.parametrize("mtime", [None, float("nan"), 1e20])
def test_resolve_without_a_usable_mtime_is_none(mtime: float | None) -> None:
    assert resolve_document_date("No date here.", mtime) == (None, "none")
