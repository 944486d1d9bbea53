"""Figures a claim computes from two of the evidence's: arithmetic, which rules do exactly and a language model cannot.

"Four years after the first volume" from "published in 1889 and 1893", "pushed back by fifty minutes" from "from
8:10 to 9:00", "almost five times that of the east" from "34% ... to 7% in the industrial east", "about 120 of the
plants" from "240 plants ... half of them", "up $2 million" from two totals, "2,127 children" from "1,086 children"
and "1,041 children". Each function returns the working as a short formula for the verdict's reason ("1893 − 1889"),
or None. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from itertools import combinations

from ledger.text.ages import is_age
from ledger.text.figures import Quantity
from ledger.text.lexicon import lexicon
from ledger.text.measures import measure_word, unit_size
from ledger.text.numbers import MULTIPLE, POINTS
from ledger.text.terms import key_terms

_DIGITS = re.compile(r"\d[\d,]*(?:\.(\d+))?")
_YEAR = re.compile(r"\d{4}(?![\d,.])")
LOOSE = ("count", "number", "ordinal")  # kinds whose figure alone may match, whatever noun follows it
_YEARS = (1000, 2200)  # a bare number in this range is read as a year when a span of years is asked for
_ANY_YEAR = 2001  # not a leap year: "from 3 March to 14 April" spans the same days in most years
_MINUTES_PER_DAY = 1440
_MONTHS_PER_YEAR = 12
_RATIO_TOLERANCE = 0.05  # "three times" for 2.9 times: multipliers are written rounded
_NEXT_WORD = re.compile(r"\s*([A-Za-z]+)\b")
_BOUND_REACH = 1.5  # "more than fivefold" for up to 7.5 times


Working = tuple[str, tuple[Quantity, Quantity]]  # the formula, and the two evidence figures (the larger or later first)


def derivation(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """How the claim's figure follows from two figures of the evidence; None when it does not."""
    for derive in (_difference, _total, _years_between, _months_between, _days_between, _clock_span, _ratio,
                   _share_of_count, _share_as_percent, _unit_price):
        if (how := derive(q, evidence)) is not None:
            return how
    return None


def order_holds(claim: str, q: Quantity, sources: tuple[Quantity, ...]) -> bool:
    """For a span between two dates or times, whether the claim puts them in the evidence's order: "founded 20 years
    after the war ended" needs the founding to be the later date. The claim's words before the span and after its
    "after" / "before" are matched to the words each date is about; a tie (or no such word) holds."""
    if q.kind != "duration" or len(sources) != 2:
        return True
    direction = _NEXT_WORD.match(claim, q.end)
    word = direction.group(1).lower() if direction else ""
    after = word in lexicon().word_set("figures", "later_words")
    if direction is None or not (after or word in lexicon().word_set("figures", "earlier_words")):
        return True
    later, earlier = sources
    left, right = set(key_terms(claim[:q.start])), set(key_terms(claim[direction.end():]))
    in_order = len(left & later.about) + len(right & earlier.about)
    reversed_ = len(left & earlier.about) + len(right & later.about)
    return in_order >= reversed_ if after else reversed_ >= in_order


def _close(value: float, target: float, q: Quantity, relative: float = 0.0) -> bool:
    """Whether a computed value is the claim's figure, within the claim's own rounding ("about", "almost": 5%)."""
    slack = max(relative, 0.05 if q.approx else 0.0) * abs(target)
    return abs(value - target) <= max(slack, 1e-6 * max(1.0, abs(target)))


def _half_unit(q: Quantity) -> float:
    """Half a unit of the figure's last written digit: 12 of 40 is "30%" (±0.5), 37 of 1,284 is not "2.4%" (±0.05)."""
    digits = _DIGITS.search(q.text)
    decimals = len(digits.group(1) or "") if digits else 0
    return 0.5 * 10.0 ** -decimals


def _figure(e: Quantity) -> str:
    return e.text.strip() or f"{e.value:g}"


def _pairs(quantities: Iterable[Quantity]) -> Iterable[tuple[Quantity, Quantity]]:
    """Pairs of figures, larger first."""
    for a, b in combinations(quantities, 2):
        yield (a, b) if a.value >= b.value else (b, a)


def is_amount(e: Quantity) -> bool:
    """A count or bare number: not a name ("Level 2") nor a multiple ("fivefold")."""
    return e.kind in LOOSE and not e.identifier and not e.context & MULTIPLE


def _difference(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Up $2 million" from two totals; "15 fewer deaths" from 89 and 74: figures of the claim's kind and unit."""
    shares = q.kind == "percent" and q.unit == POINTS  # "up 12 percentage points" from 40% and 52%
    if q.kind not in ("count", "number", "ordinal", "money") and not shares or q.context & MULTIPLE:
        return None
    loose = is_amount(q)
    same = [e for e in evidence if ((e.kind == q.kind and e.unit == ("" if shares else q.unit))
                                    or (loose and is_amount(e) and not e.unit)) and not e.identifier]
    for a, b in _pairs(same):  # (not a name's number: "No. 8", "Level 2")
        if _of_one_thing(q, a, b) and _count_one_thing(a, b) and _close(a.value - b.value, q.value, q):
            return f"{_figure(a)} − {_figure(b)}", (a, b)
    return None


def _count_one_thing(a: Quantity, b: Quantity) -> bool:
    """Whether two counts may be subtracted: "89 deaths" and "74 deaths" may, "5 ship tokens" and "3 coins" (for a
    "two-player game") may not. Counts that do not say what they count are not told apart."""
    return not (a.context and b.context) or bool(a.context & b.context)


def _total(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"2,127 children" from "1,086 children" and "1,041 children"; "$9 million" from "$5 million" and "$4 million":
    two figures counting what the claim's counts (the same noun, or the same currency), summed. Only exact sums, and
    only of figures that say what they count: a passage's bare numbers add up to almost anything."""
    if q.kind not in ("count", "money") or q.approx or q.bound or q.difference or q.context & MULTIPLE:
        return None
    if q.kind == "count" and not q.context:
        return None
    same = [e for e in evidence if e.kind == q.kind and e.unit == q.unit and e.context == q.context
            and not e.bound and not e.identifier and not e.difference]
    for a, b in _pairs(same):
        if abs(a.value + b.value - q.value) <= 1e-6 * max(1.0, q.value):
            return f"{_figure(a)} + {_figure(b)}", (a, b)
    return None


def _of_one_thing(*figures: Quantity) -> bool:
    """Whether figures can be subtracted from each other: an age only from ages ("an adult aged 18" less "two
    children" is no age of 16), a measure only from measures of its dimension ("6 by 4 feet" gives no "two sheds")."""
    ages = sum(is_age(f) for f in figures)
    return ages in (0, len(figures)) and len({_dimension(f) for f in figures}) == 1


def _dimension(q: Quantity) -> str:
    """The dimension of a figure's unit of measure ("[length]" for "4 feet"); "" for a figure of no measure."""
    for word in (measure_word(q.text), *sorted(q.context)):  # "6" of "6 by 4 feet" has the unit in its context
        if size := unit_size(word):
            return size[0]
    return ""


def _year(e: Quantity) -> int | None:
    """The year a figure names: a date that is only a year (not a decade), or a bare four-digit number."""
    # not a decade; a school or financial year ("2010-11") counts from the year it starts in
    year_only = e.parts[1:] == (None, None, None) and (
        e.ranged or e.upper is None or e.parts[0] is not None and e.upper == e.parts[0] + 1)
    if e.kind == "date" and e.parts[0] is not None and year_only:
        return e.parts[0]
    if e.kind in ("number", "count") and _YEAR.match(e.text) and _YEARS[0] <= e.value <= _YEARS[1]:
        return int(e.value)  # "in 1781", "1868 brought new industry": four digits with no thousands comma
    return None


def _years_between(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Four years after the first" from "in 1889 and 1893": a span in whole years between two years."""
    if q.kind != "duration" or q.unit != "month" or q.value % _MONTHS_PER_YEAR:
        return None
    years: dict[int, Quantity] = {}
    for e in evidence:
        if (year := _year(e)) is not None:
            years.setdefault(year, e)
    for a, b in combinations(sorted(years, reverse=True), 2):
        if _close(a - b, q.value / _MONTHS_PER_YEAR, q):
            return f"{a} − {b}", (years[a], years[b])
    return None


def _months_between(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Eight years" or "six months" from "from March 2015 until March 2023": whole months between two dates that
    name their year and month (and the same day, if any), or from the first day to the day before the same day some
    months later ("twelve months" of "12 March 2027 to 11 March 2028": both days are in it)."""
    if q.kind != "duration" or q.unit != "month":
        return None
    dated = [e for e in evidence if e.kind == "date" and e.parts[0] is not None and e.parts[2] is not None]
    for a, b in combinations(dated, 2):
        later, earlier = (a, b) if (a.parts[0], a.parts[2], a.parts[3] or 0) >= (b.parts[0], b.parts[2],
                                                                                    b.parts[3] or 0) else (b, a)
        end = (later.parts[0], later.parts[2])
        if later.parts[3] != earlier.parts[3]:
            after = _day(later, later.parts[0]) if earlier.parts[3] is not None else None  # type: ignore[arg-type]
            after = after + timedelta(days=1) if after is not None else None
            if after is None or after.day != earlier.parts[3]:
                continue
            end = (after.year, after.month)  # the day after the last is the same day, months on
        months = (end[0] - earlier.parts[0]) * _MONTHS_PER_YEAR + end[1] - earlier.parts[2]  # type: ignore[operator]
        if months and _close(months, q.value, q):
            return f"{_figure(later)} − {_figure(earlier)}", (later, earlier)
    return None


def _day(e: Quantity, year: int) -> date | None:
    """The calendar day of a date that names its month and day (in `year` when it names none)."""
    if e.kind != "date" or e.parts[2] is None or e.parts[3] is None:
        return None
    try:
        return date(e.parts[0] or year, e.parts[2], e.parts[3])
    except ValueError:
        return None


def _days_between(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Ran for six weeks" from "from 3 March to 14 April": days between two calendar dates (counted with or without
    the last day when the claim counts days; a date without a year is in the year the other gives)."""
    if q.kind != "duration" or q.unit != "day" or q.value < 1:
        return None
    dated = [e for e in evidence if e.kind == "date" and e.parts[2] is not None and e.parts[3] is not None]
    for a, b in combinations(dated, 2):
        year = a.parts[0] or b.parts[0] or _ANY_YEAR
        day_a, day_b = _day(a, year), _day(b, year)
        if day_a is None or day_b is None:
            continue
        (first, start), (last, end) = sorted(((day_a, a), (day_b, b)), key=lambda pair: pair[0])
        span = (last - first).days
        counts = (span, span + 1) if q.number == q.value else (span,)  # "12 days" may count both ends; weeks do not
        if any(_close(n, q.value, q) for n in counts):
            return f"{_figure(start)} to {_figure(end)}", (end, start)
    return None


def _clock_span(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Fifty minutes later" from "from 8:10 to 9:00": a duration of less than a day between two clock times."""
    if q.kind != "duration" or q.unit != "day" or not 0 < q.value < 1:
        return None
    for a, b in _pairs(e for e in evidence if e.kind == "time"):
        if _close((a.value - b.value) / _MINUTES_PER_DAY, q.value, q):
            return f"{_figure(a)} − {_figure(b)}", (a, b)
    return None


def _ratio(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"Almost five times that of the east" from 34% and 7%: the ratio of two figures of one kind and unit."""
    if q.kind != "count" or not q.context & MULTIPLE or q.value < 2:
        return None
    for a, b in _pairs(e for e in evidence if e.kind in ("percent", "money", "count", "number") and e.value > 0):
        comparable = a.kind == b.kind and a.unit == b.unit or (is_amount(a) and is_amount(b))
        if comparable and _ratio_holds(a.value / b.value, q):
            return f"{_figure(a)} ÷ {_figure(b)}", (a, b)
    return None


def _ratio_holds(ratio: float, q: Quantity) -> bool:
    """Whether a ratio is the claim's multiple: "five times" within rounding, "more than fivefold" up to half as much
    again (a bound, but one a writer would not use for a tenfold rise)."""
    if q.bound == "min":
        return q.value <= ratio < _BOUND_REACH * q.value
    if q.bound == "max":
        return q.value / _BOUND_REACH < ratio <= q.value
    return _close(ratio, q.value, q, _RATIO_TOLERANCE)


def _share_of_count(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"About 120 of the plants" from "240 plants ... half of them": a share of a count the evidence gives, when the
    share is about what the claim's count is ("25% of them walk" is not the 100 pupils who "take the bus")."""
    if not is_amount(q):
        return None
    shares = [e for e in evidence if e.kind == "percent" and 0 < e.value < 100 and e.about & q.about]
    for share in shares:
        for whole in (e for e in evidence if is_amount(e) and e.value > q.value):
            if _close(whole.value * share.value / 100, q.value, q):
                of = "" if share.text.rstrip().endswith(" of") else " of"
                return f"{_figure(share)}{of} {_figure(whole)}", (whole, share)
    return None


def _share_as_percent(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"30% of the schools" from "12 of the 40 schools": one count of the evidence as a share of another, when the part
    is about what the claim's share is; or one sum of money as a share of another in its currency ("half the
    subscription" from "£120, or £60 for students")."""
    if q.kind != "percent" or not 0 < q.value < 100:
        return None
    counts = _pairs(e for e in evidence if is_amount(e) and e.value > 0)
    sums = ((a, b) for a, b in _pairs(e for e in evidence if e.kind == "money" and e.value > 0) if a.unit == b.unit)
    for whole, part in (*counts, *sums):
        share = 100 * part.value / whole.value
        if part.about & q.about and abs(share - q.value) <= (0.05 * q.value if q.approx else _half_unit(q)):
            return f"{_figure(part)} of {_figure(whole)}", (whole, part)
    return None


def _unit_price(q: Quantity, evidence: Sequence[Quantity]) -> Working | None:
    """"£2.50 each" from "books of 10 daily scratch cards for £25 a book": a sum of money divided by the count it buys,
    when the count is of what the claim prices (its words among the claim's) and the two are said together."""
    if q.kind != "money" or q.bound or q.difference or q.value <= 0:
        return None
    counts = [c for c in evidence if c.kind == "count" and c.value >= 2 and not c.identifier and c.context & q.about]
    for c in counts:
        for e in evidence:
            if (e.kind == "money" and e.unit == q.unit and e.value > q.value and not e.difference
                    and e.about & c.about and abs(e.value / c.value - q.value) <= max(
                        0.05 * q.value if q.approx else 0.0, _half_unit(q))):
                return f"{_figure(e)} ÷ {_figure(c)}", (e, c)
    return None
