"""Figures found in text: what a quantity is, and how a claim's figures fared against the evidence's. Pure types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ledger.text.numbers import Bound

Kind = Literal["money", "percent", "duration", "frequency", "time", "count", "ordinal", "number", "date", "weekday"]
Status = Literal["matched", "conflict", "absent"]



@dataclass(frozen=True)
class Quantity:
    """A figure found in text: its kind, normalised value and unit, what it is about, and where it is."""

    kind: Kind
    value: float
    unit: str = ""  # currency for money; "day", "business_day" or "month" for durations
    context: frozenset[str] = frozenset()  # stems of the counted noun ("10 employees") or the label ("Level 1")
    per: str = ""  # "night" in "$90 per night"
    bound: Bound = ""  # "max" for "within 48 hours", "min" for "at least 10 days"
    parts: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)  # year, quarter, month, day
    text: str = ""
    start: int = 0
    end: int = 0
    number: float = 0.0  # the number as written, before unit conversion ("10" of "10 minutes")
    approx: bool = False  # "about a third", "roughly $5 million"
    upper: float | None = None  # end of a range that starts here ("$100.01 to $2,000")
    ranged: bool = False  # one end of a range: compared exactly, never as "inside" another range
    about: frozenset[str] = frozenset()  # key terms of the words that describe the figure
    labelled: bool = False  # written as a field: "Start date: 2025-09-15"
    row: frozenset[str] = frozenset()  # key terms of the row a table cell is of: "autumn" of "Autumn (Deadline: …)"
    identifier: bool = False  # a name rather than an amount: "Level 2", "Phase 1", "Section 4"
    baseline: bool = False  # the date of what a figure is compared with: "12 complaints, compared with 15 in 2022"
    since: frozenset[str] = frozenset()  # key terms of what a duration is counted from: "impact began" of "52
    # minutes after impact began"
    measure: str = ""  # an abbreviation right after a share, naming what it measures: "ltv" of "80% LTV"
    difference: str = ""  # a difference between two figures, by what it measures (the first word of its group in
    # the lexicon's `comparatives`): "more" for "£40 more than", "rose by 12%", "15 fewer"; "earlier" for "15 minutes
    # earlier"


@dataclass(frozen=True)
class QuantityMatch:
    """How one claim quantity fared against the evidence; `anchor` counts the context terms they share."""

    claim: Quantity
    status: Status
    evidence: Quantity | None = None
    anchor: int = 0
    derivation: str = ""  # how the claim's figure is worked out from evidence figures ("1893 − 1889"), if it is
    sources: tuple[Quantity, ...] = ()  # the evidence figures it is worked out from (the larger or later first)
    elsewhere: bool = False  # the evidence figure is stated in the quote's passage, outside the quote


@dataclass(frozen=True)
class Agreement:
    """Per claim quantity: matched, conflicting (same thing, other value) or absent from the evidence."""

    matches: tuple[QuantityMatch, ...] = ()

    @property
    def matched(self) -> tuple[QuantityMatch, ...]:
        """Claim quantities the evidence states too."""
        return tuple(m for m in self.matches if m.status == "matched")

    @property
    def conflicts(self) -> tuple[QuantityMatch, ...]:
        """Claim quantities the evidence states differently."""
        return tuple(m for m in self.matches if m.status == "conflict")

    @property
    def absent(self) -> tuple[QuantityMatch, ...]:
        """Claim quantities the evidence does not mention."""
        return tuple(m for m in self.matches if m.status == "absent")
