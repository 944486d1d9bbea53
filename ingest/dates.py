"""The document's own date: read from a labelled line in its text, else the file's mtime.

Pure functions. A document's date decides whether it is an `outdated_source` (DESIGN.md), so we only
trust a date that the text labels as the document's date ("Effective date: 2026-03-01"), never any
date that happens to appear in the body.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from dateutil import parser as date_parser

# How far into the text a labelled date is looked for first; document dates live in the header.
HEAD_CHARS = 2000

# Labels by preference: a lower rank wins even if it appears later in the header. Effective and
# issue dates say when the content started to apply, which is what "outdated" is measured against.
_LABEL_RANKS: dict[str, int] = {
    "effective date": 0,
    "effective from": 0,
    "effective as of": 0,
    "effective on": 0,
    "effective": 0,
    "date of agreement": 1,  # a contract's own date
    "agreement date": 1,
    "date of issue": 1,
    "issue date": 1,
    "issued on": 1,
    "issued": 1,
    "last reviewed": 2,
    "reviewed on": 2,
    "reviewed": 2,
    "dated": 3,
    "approved on": 3,
    "approved": 3,
    "published on": 3,
    "publication date": 3,
    "published": 3,
    "for immediate release": 3,
    "recorded on": 3,
    "recorded": 3,
    "last updated": 4,
    "updated": 4,
    "last revised": 4,
    "revised": 4,
    "date": 5,
}
# Weak labels ("Date", "Updated") match too much body text ("Date of incident") to trust past the header.
_STRONG_RANK_LIMIT = 2

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORDINAL = r"(?:st|nd|rd|th)?"
_WEEKDAY = r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
_DATE_FORMS = "|".join(
    [
        r"(?P<iso>\d{4}[-/.]\d{1,2}[-/.]\d{1,2})",
        r"(?P<dmy_text>\d{1,2}" + _ORDINAL + r"\s+(?:of\s+)?" + _MONTH + r",?\s+\d{4})",
        r"(?P<mdy_text>" + _MONTH + r"\s+\d{1,2}" + _ORDINAL + r",?\s+\d{4})",
        r"(?P<numeric>\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))",
        r"(?P<month_year>" + _MONTH + r",?\s+\d{4})",
    ]
)
_LABELS = "|".join(re.escape(label).replace(r"\ ", r"\s+") for label in sorted(_LABEL_RANKS, key=len, reverse=True))
# Label, then optional markdown emphasis and a separator (":", "-", "|", "on"), then the date itself,
# possibly on the next line (HTML definition lists and tables put label and value on separate lines).
# The look-behind keeps "Date" from matching inside "Update" or "Mandate".
_LABELLED_DATE = re.compile(
    r"(?<![A-Za-z])(?P<label>" + _LABELS + r")[*_ \t]*(?:(?:[:=|\-\u2013\u2014]|\bon\b)[*_ \t]*)?"
    r"(?:\n[*_ \t]*){0,2}" + _WEEKDAY + r"(?P<date>" + _DATE_FORMS + r")(?!\d)",
    re.IGNORECASE,
)
_MIN_YEAR, _MAX_YEAR = 1900, 2199
# A word before a bare "Date" on its line ("Closing date", "- Start date"): searched from the line's start to the label.
_QUALIFIED = re.compile(r"[A-Za-z][^\n|:;.]*\Z")


def _numeric_date(value: str) -> date | None:
    """Day/month/year unless that is impossible, then month/day/year; two-digit years are 20xx."""
    first, second, year_text = re.split(r"[/.-]", value)
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)
    for day, month in ((int(first), int(second)), (int(second), int(first))):
        try:
            return date(year, month, day)
        except ValueError:
            continue
    return None


def _iso_date(value: str) -> date | None:
    year, month, day = (int(part) for part in re.split(r"[-/.]", value))
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _text_date(value: str) -> date | None:
    """Dates with a month name; dateutil copes with ordinals, "of", commas and abbreviations."""
    cleaned = re.sub(r"\bof\b", " ", value, flags=re.IGNORECASE)
    try:
        # A fixed default day 1 makes "March 2026" the first of the month, whatever today is.
        return date_parser.parse(cleaned, default=datetime(2000, 1, 1)).date()
    except (ValueError, OverflowError):
        return None


def _parse_match(match: re.Match[str]) -> date | None:
    value = match.group("date")
    if match.group("iso"):
        parsed = _iso_date(value)
    elif match.group("numeric"):
        parsed = _numeric_date(value)
    else:
        parsed = _text_date(value)
    if parsed is None or not _MIN_YEAR <= parsed.year <= _MAX_YEAR:
        return None
    return parsed


def _best_labelled_date(text: str, max_rank: int) -> tuple[date, str] | None:
    best: tuple[int, int, date, str] | None = None
    for match in _LABELLED_DATE.finditer(text):
        label = " ".join(match.group("label").lower().split())
        rank = _LABEL_RANKS[label]
        if rank > max_rank or (label == "date" and _QUALIFIED.search(text, text.rfind("\n", 0, match.start()) + 1,
                                                                      match.start())):
            continue  # "Closing date: …", "Due date: …" date something else than the document
        parsed = _parse_match(match)
        if parsed is None:
            continue
        candidate = (rank, match.start(), parsed, label)
        if best is None or candidate[:2] < best[:2]:
            best = candidate
    if best is None:
        return None
    return best[2], best[3]


def infer_document_date(text: str) -> tuple[date | None, str]:
    """The document's own date from a labelled line, as (date, "text:<label>"), or (None, "none")."""
    found = _best_labelled_date(text[:HEAD_CHARS], max_rank=max(_LABEL_RANKS.values()))
    if found is None and len(text) > HEAD_CHARS:
        found = _best_labelled_date(text, max_rank=_STRONG_RANK_LIMIT)
    if found is None:
        return None, "none"
    # "Issued on" and "Issued" are the same label to a reader of the source field.
    return found[0], f"text:{found[1].removesuffix(' on')}"


def resolve_document_date(text: str, mtime: float | None) -> tuple[date | None, str]:
    """The date from the text, else the file's modification date (UTC) with source "mtime"."""
    found, source = infer_document_date(text)
    if found is not None:
        return found, source
    if mtime is None:
        return None, "none"
    try:
        # UTC so that the same file gets the same date on every machine and in CI.
        return datetime.fromtimestamp(mtime, tz=UTC).date(), "mtime"
    except (OverflowError, OSError, ValueError):
        return None, "none"
