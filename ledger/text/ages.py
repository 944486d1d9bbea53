"""Ages and age groups: "a seven-year-old child", "aged 7", "children under 12", "under the age of 16", "aged 2 to 11".

A leaflet, a rule or a price list states who a statement is for by an age group ("Children under 12 must not take
this medicine"); a claim names an age in it ("should not be given to an eight-year-old"). Every age becomes a number
with the context "age", so that ages compare only with ages; a group keeps its bound or range. Pure; used by
`ledger.text.quantities`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ledger.text.figures import Quantity
from ledger.text.lexicon import lexicon

AGE = frozenset({"age"})
_OLD = re.compile(r"\s*-?\s*olds?\b", re.IGNORECASE)  # "seven-year-old", "7 years old", "eight-year-olds"
_AGE_OF = re.compile(r"\b(?:(?P<max>under|below|younger than)|(?P<min>over|above|older than))?"
                     r"\s*(?:the\s+)?age\s+of\s*$|\baged\s+(?:(?P<max2>under|below|younger than)"
                     r"|(?P<min2>over|above|older than))\s*$", re.IGNORECASE)  # "under the age of 16", "aged over 65"
_GROUP = re.compile(r"\b(?P<noun>[a-z]+)\s+(?:(?:aged|who are)\s+)?"
                    r"(?:under|over|below|above|younger than|older than)\s*$", re.IGNORECASE)  # "children under"
_YEARS_UNIT = 12  # an age in years reads as a duration in months: "seven-year" is 84


def old_after(text: str, at: int) -> bool:
    """Whether "old" follows at `at` ("-old" of "seven-year-old", " years old")."""
    return _OLD.match(text, at) is not None


def read_ages(text: str, found: list[Quantity]) -> list[Quantity]:
    """The figures of a text with each age made an age: a number in years with the context "age"."""
    return [_as_age(text, q) for q in found]


_BAND = re.compile(r"\b(?:(?P<max>under)|over)[-\s]?(?P<age>\d{1,3})s\b", re.IGNORECASE)  # "Under-16s", "over 65s"


def _as_age(text: str, q: Quantity) -> Quantity:
    before = text[max(0, q.start - 40):q.start]
    for band in _BAND.finditer(text, max(0, q.start - 6), min(len(text), q.end + 6)):
        if band.start() <= q.start < band.end() and float(band.group("age")) == q.number:
            # people named by an age band: "Under-16s may use the gym" is about children under 16
            return replace(q, kind="number", value=q.number, unit="", context=AGE, identifier=False,
                           bound="max" if band.group("max") else "min", text=band.group(0),
                           start=band.start(), end=band.end())
    if q.kind == "duration" and q.unit == "month" and q.value == q.number * _YEARS_UNIT:
        if old := _OLD.match(text, q.end):
            return replace(q, kind="number", value=q.number, unit="", context=AGE, text=text[q.start:old.end()],
                           end=old.end())
        if q.bound and _in_age_group(before):  # "children under 12 years"
            return replace(q, kind="number", value=q.number, unit="", context=AGE)
    if q.kind not in ("number", "count") or q.identifier:
        return q
    if (of := _AGE_OF.search(before)) is not None:
        bound = ("max" if of.group("max") or of.group("max2") else "min" if of.group("min") or of.group("min2")
                 else q.bound)
        return replace(_figure_alone(q), kind="number", context=AGE, bound=bound)  # type: ignore[arg-type]
    if q.bound and _in_age_group(before):
        return replace(_figure_alone(q), kind="number", context=AGE)  # "children under 12", "visitors over 65"
    return q


def _figure_alone(q: Quantity) -> Quantity:
    """A count read as an age without the words it seemed to count: "65" of "aged over 65 pay half price"."""
    if q.kind != "count" or not (first := re.match(r"\S+", q.text)):
        return q
    return replace(q, text=first.group(0), end=q.start + first.end())


def _in_age_group(before: str) -> bool:
    """Whether the words before a bounded figure name people by age: "children under", "visitors aged over"."""
    group = _GROUP.search(before)
    return group is not None and group.group("noun").lower() in lexicon().word_set("figures", "age_groups")


def in_group(age: Quantity, group: Quantity) -> bool | None:
    """Whether an age is in an age group (under, over, or a range); None when `group` is an age, not a group."""
    if group.upper is not None:
        return group.value <= age.value <= group.upper
    if group.bound == "max":
        return age.value <= group.value
    if group.bound == "min":
        return age.value >= group.value
    return None


def is_age(q: Quantity) -> bool:
    """Whether a figure is an age (or an age group)."""
    return q.kind == "number" and q.context == AGE


def group_working(age: Quantity, group: Quantity) -> str:
    """How an age is in a group, for the verdict's reason: "9 is under 12", "70 is over 65", "5 is in 2 to 11"."""
    if group.upper is not None:
        return f"{age.value:g} is in {group.value:g} to {group.upper:g}"
    return f"{age.value:g} is {'under' if group.bound == 'max' else 'over'} {group.value:g}"
