"""Quantities and dates in a sentence, normalised so a claim can be compared with its evidence.

Pure functions. "three business days" and "3 business days", "one hour" and "60 minutes", "$1,200" and
"USD 1200" normalise to the same value, so a paraphrase keeps its figures and a changed figure shows as a
conflict: the same kind and unit with a different value (seed 004 §4.3: contradicted, not a miss).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ledger.terms import STOPWORDS, is_negated, negation_cues, stem

Kind = Literal["money", "percent", "duration", "time", "count", "ordinal", "number", "date", "weekday"]
Bound = Literal["", "min", "max"]
Status = Literal["matched", "conflict", "absent"]

__all__ = [
    "Agreement", "Quantity", "QuantityMatch", "compare_quantities", "extract_quantities", "is_negated", "negation_cues",
]  # negation lives in ledger.terms and is re-exported here for callers comparing polarity alongside figures

_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3, "m": 1e6, "mn": 1e6, "bn": 1e9}
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_CURRENCY_CODES = {"usd", "eur", "gbp", "cad", "aud", "chf", "jpy", "inr", "nzd", "sgd"}
_CURRENCY_WORDS = {"dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP"}
# Durations in days or in months: a month is no whole number of days, so across the two only approximate equality.
_DURATIONS = {"minute": ("day", 1 / 1440), "min": ("day", 1 / 1440), "hour": ("day", 1 / 24), "hr": ("day", 1 / 24),
              "day": ("day", 1.0), "night": ("day", 1.0), "week": ("day", 7.0), "wk": ("day", 7.0),
              "fortnight": ("day", 14.0), "month": ("month", 1.0), "quarter": ("month", 3.0), "year": ("month", 12.0),
              "yr": ("month", 12.0)}
_DAYS_PER_MONTH = 30.44
_BUSINESS = {"business", "working", "work", "banking"}
_PER_WORDS = {"per", "a", "an", "each", "every", "/"}
_MIN_WORDS = ("at least", "minimum of", "no less than", "no fewer than", "not less than", "more than", "over", "above",
              "exceeding", "from", "no earlier than")
_MAX_WORDS = ("up to", "within", "at most", "maximum of", "no more than", "not more than", "exceed", "less than",
              "fewer than", "under", "below", "capped at", "no later than", "limited to")
_AFTER_BOUND = re.compile(r"\bor\s+(?P<min>more|longer|above|over)|\bor\s+(?P<max>less|fewer|shorter|below|under)",
                          re.IGNORECASE)

_MONTH_NAMES = "jan feb mar apr may jun jul aug sep oct nov dec"
_MONTHS = {name: i for i, name in enumerate(_MONTH_NAMES.split(), 1)}
_MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
             r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_DATE_RE = re.compile(
    r"(?P<iso>\b(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})\b)"
    r"|(?P<dmy>\b(?P<dd>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>" + _MONTH_RE + r")(?:,?\s+(?P<dy>\d{4}))?\b)"
    r"|(?P<mdy>\b(?P<mm>" + _MONTH_RE + r")\s+(?P<md>\d{1,2})(?:st|nd|rd|th)?\b(?!\d|:)(?:,?\s+(?P<my>\d{4}))?)"
    r"|(?P<my_>\b(?P<mym>" + _MONTH_RE + r"),?\s+(?P<myy>\d{4})\b)"
    r"|(?P<num>\b(?P<n1>\d{1,2})/(?P<n2>\d{1,2})/(?P<n3>\d{4}|\d{2})\b)"
    r"|(?P<q>\bQ(?P<qq>[1-4])(?:\s*(?:FY\s*)?'?(?P<qy>\d{4}|\d{2}))?\b)"
    r"|(?P<qw>\b(?P<qwn>first|second|third|fourth)\s+quarter(?:\s+(?:of\s+)?(?P<qwy>\d{4}))?\b)"
    r"|(?P<fy>\b(?:FY\s*'?|fiscal\s+year\s+)(?P<fyy>\d{4}|\d{2})\b)"
    r"|(?P<wd>\b(?:" + "|".join(_WEEKDAYS) + r")s?\b)"
    # A month on its own only when capitalised, and never "May" (the modal verb starts sentences too).
    r"|(?P<mon>\b(?-i:January|February|March|April|June|July|August|September|October|November|December)\b)",
    re.IGNORECASE,
)
_TOKEN_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[A-Za-z]+(?:['’][a-z]+)?|[$€£¥¢%/:.\-]|\S")
@dataclass(frozen=True)
class Quantity:
    """A figure found in text: its kind, normalised value and unit, and where it is."""

    kind: Kind
    value: float
    unit: str = ""  # currency for money, "day"/"business_day"/"month" family for durations
    context: frozenset[str] = frozenset()  # stems of the counted noun (counts) or the label before a number
    per: str = ""  # "night" in "$250 per night"
    bound: Bound = ""  # "max" for "within 48 hours", "min" for "at least 10 days"
    parts: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)  # year, quarter, month, day
    text: str = ""
    start: int = 0
    end: int = 0

    def describe(self) -> str:
        """The figure as written, for reasons shown to a reader."""
        return self.text


@dataclass(frozen=True)
class QuantityMatch:
    """How one claim quantity fared against the evidence."""

    claim: Quantity
    status: Status
    evidence: Quantity | None = None


@dataclass(frozen=True)
class Agreement:
    """Per claim quantity: matched, conflicting (same kind and unit, other value) or absent from the evidence."""

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


def _date_parts(m: re.Match[str]) -> tuple[Kind, tuple[int | None, int | None, int | None, int | None]] | None:
    def month(text: str) -> int:
        return _MONTHS[text[:3].lower()]

    def year(text: str | None) -> int | None:
        return None if text is None else int(text) + (2000 if len(text) == 2 else 0)

    def quarter(mon: int | None) -> int | None:
        return None if mon is None else (mon - 1) // 3 + 1

    g = m.groupdict()
    if g["iso"]:
        mon, day = int(g["im"]), int(g["id"])
        return ("date", (year(g["iy"]), quarter(mon), mon, day)) if 1 <= mon <= 12 and 1 <= day <= 31 else None
    if g["dmy"] or g["mdy"]:
        if (g["dm"] or g["mm"]) == "may" and not (g["dy"] or g["my"]):
            return None  # "up to 5 may attend": the modal verb, not the month
        mon = month(g["dm"] or g["mm"])
        day = int(g["dd"] or g["md"])
        return ("date", (year(g["dy"] or g["my"]), quarter(mon), mon, day)) if 1 <= day <= 31 else None
    if g["my_"]:
        mon = month(g["mym"])
        return "date", (year(g["myy"]), quarter(mon), mon, None)
    if g["num"]:
        first, second = int(g["n1"]), int(g["n2"])
        day, mon = (first, second) if second <= 12 else (second, first)  # day first unless impossible
        return ("date", (year(g["n3"]), quarter(mon), mon, day)) if 1 <= mon <= 12 and 1 <= day <= 31 else None
    if g["q"] or g["qw"]:
        q = int(g["qq"]) if g["q"] else _ORDINAL_WORDS[g["qwn"].lower()]
        return "date", (year(g["qy"] or g["qwy"]), q, None, None)
    if g["fy"]:
        return "date", (year(g["fyy"]), None, None, None)
    if g["wd"]:
        return "weekday", (None, None, None, _WEEKDAYS.index(g["wd"].lower().rstrip("s")))
    if g["mon"]:
        mon = month(g["mon"])
        return "date", (None, quarter(mon), mon, None)
    return None


def _bound(text: str, start: int, end: int) -> Bound:
    """'max' or 'min' when a bound phrase ends right before the figure or 'or more/less' follows it."""
    before = " " + text[max(0, start - 24):start].lower().rstrip(" $€£")
    for bound, phrases in (("max", _MAX_WORDS), ("min", _MIN_WORDS)):
        if any(before.endswith(phrase) and not before[-len(phrase) - 1].isalpha() for phrase in phrases):
            return bound  # type: ignore[return-value]
    after = _AFTER_BOUND.search(text, start, min(len(text), end + 14))  # "10 or more days", "$50 or less"
    if after:
        return "min" if after.group("min") else "max"
    return ""


def _number_at(tokens: Sequence[tuple[str, int, int]], i: int) -> tuple[float, int] | None:
    """The number starting at token i (digits or words, with scale words) and the index after it."""
    first = tokens[i][0].lower()
    following = tokens[i + 1][0].lower() if i + 1 < len(tokens) else ""
    if first[0].isdigit():
        total, current, last, j = 0.0, float(first.replace(",", "")), "digits", i + 1
    elif first in ("a", "an") and following in ("dozen", "hundred", "thousand"):
        total, current, last, j = 0.0, 1.0, "unit", i + 1
    elif first in _UNITS or first in _TENS or first == "dozen":
        total, current, last, j = 0.0, 0.0, "", i
    else:
        return None
    while j < len(tokens):
        w = tokens[j][0].lower()
        ahead = tokens[j + 1][0].lower() if j + 1 < len(tokens) else ""
        if w == "-" and last == "tens" and _UNITS.get(ahead, 10) < 10:
            j += 1  # "twenty-five"
            continue
        if w in _UNITS and (last in ("", "hundred", "scale", "and") or (last == "tens" and _UNITS[w] < 10)):
            current, last = current + _UNITS[w], "unit"
        elif w in _TENS and last in ("", "hundred", "scale", "and"):
            current, last = current + _TENS[w], "tens"
        elif w == "dozen" and last in ("", "unit", "digits"):
            current, last = (current or 1.0) * 12, "unit"
        elif w == "hundred" and last in ("unit", "digits", "tens"):
            current, last = current * 100, "hundred"
        elif w in ("thousand", "million", "billion") and last in ("unit", "digits", "tens", "hundred"):
            total, current, last = total + current * _SCALES[w], 0.0, "scale"
        elif w in ("k", "m", "mn", "bn") and last == "digits" and tokens[j][1] == tokens[j - 1][2]:
            # "k"/"m"/"bn" scale only when glued to the digits ("$3.5m"), never as a separate word.
            total, current, last = total + current * _SCALES[w], 0.0, "scale"
        elif w == "and" and last in ("hundred", "scale") and (ahead in _UNITS or ahead in _TENS):
            last = "and"  # "one hundred and twenty"
        else:
            break
        j += 1
    return (total + current, j) if last else None


def _context(tokens: Sequence[tuple[str, int, int]], j: int, limit: int = 3) -> tuple[frozenset[str], int]:
    """Stems of the content words right after a number (the thing counted: "10 full-time employees"), and the end."""
    words: list[str] = []
    while j < len(tokens) and len(words) < limit:
        w = tokens[j][0]
        if w == "-":
            j += 1
            continue
        if not w[0].isalpha() or w.lower() in STOPWORDS:
            break
        words.append(stem(w))
        j += 1
    return frozenset(words), j


def extract_quantities(text: str) -> list[Quantity]:
    """Every money amount, percentage, duration, count, number and date in `text`, normalised."""
    found: list[Quantity] = []
    masked = list(text)
    for m in _DATE_RE.finditer(text):
        parsed = _date_parts(m)
        if parsed is None:
            continue
        kind, parts = parsed
        found.append(Quantity(kind, float(parts[3] or 0), parts=parts, text=m.group(0), start=m.start(), end=m.end()))
        masked[m.start():m.end()] = " " * (m.end() - m.start())  # dates are done; keep their digits from counts
    plain = "".join(masked)
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN_RE.finditer(plain)]
    i = 0
    while i < len(tokens):
        word = tokens[i][0].lower()
        if word in _TIMES:
            found.append(Quantity("count", _TIMES[word], context=frozenset({"time"}), text=tokens[i][0],
                                  start=tokens[i][1], end=tokens[i][2]))
            i += 1
            continue
        number = _number_at(tokens, i)
        if number is None:
            i += 1
            continue
        value, j = number
        quantity, j = _classify(text, tokens, i, j, value)
        if quantity is not None:
            found.append(quantity)
        i = j
    return sorted(found, key=lambda q: q.start)


def _classify(
    text: str, tokens: Sequence[tuple[str, int, int]], i: int, j: int, value: float
) -> tuple[Quantity | None, int]:
    """Decide what the number at tokens[i:j] measures, by the words around it."""
    start = tokens[i][1]
    prev = tokens[i - 1][0] if i > 0 else ""
    prev2 = tokens[i - 2][0] if i > 1 else ""
    nxt = tokens[j][0].lower() if j < len(tokens) else ""
    currency = _CURRENCY_SIGNS.get(prev) or (prev.upper() if prev.lower() in _CURRENCY_CODES else "")
    if prev == "$" and prev2.upper() in ("US", "A", "C", "NZ", "S"):
        currency = {"US": "USD", "A": "AUD", "C": "CAD", "NZ": "NZD", "S": "SGD"}[prev2.upper()]
    if not currency and nxt in _CURRENCY_CODES:
        currency, j = nxt.upper(), j + 1
    elif not currency and nxt in _CURRENCY_WORDS:
        currency, j = _CURRENCY_WORDS[nxt], j + 1
    elif not currency and nxt in ("cents", "cent", "¢"):
        currency, value, j = "USD", value / 100, j + 1  # "70 cents per mile" is $0.70 per mile
    if currency:
        if prev in _CURRENCY_SIGNS or prev.lower() in _CURRENCY_CODES:
            start = tokens[i - 1][1]
        per = ""
        if (j + 1 < len(tokens) and tokens[j][0].lower() in _PER_WORDS and tokens[j + 1][0].isalpha()
                and tokens[j + 1][0].lower() not in STOPWORDS):
            per, j = stem(tokens[j + 1][0]), j + 2
        return _make("money", value, text, start, tokens[j - 1][2], unit=currency, per=per), j
    after = tokens[j + 1][0].lower() if j + 1 < len(tokens) else ""
    if nxt in ("%", "percent"):
        return _make("percent", value, text, start, tokens[j][2]), j + 1
    if (nxt, after) == ("per", "cent") or (nxt == "percentage" and after.startswith("point")):
        return _make("percent", value, text, start, tokens[j + 1][2]), j + 2
    # Durations: "3 business days", "48 hours", "a 24-hour window", "three-day".
    if nxt == "or" and after in ("more", "less", "fewer", "longer", "shorter"):
        j, nxt = j + 2, (tokens[j + 2][0].lower() if j + 2 < len(tokens) else "")  # "10 or more days"
    k, business = (j + 1 if nxt == "-" else j), False
    for _ in range(3):  # up to two modifiers: "10 further banking days", "2 consecutive quarters"
        unit_word = tokens[k][0].lower() if k < len(tokens) else ""
        singular = unit_word[:-1] if unit_word.endswith("s") and unit_word[:-1] in _DURATIONS else unit_word
        if singular in _DURATIONS:
            family, amount = _DURATIONS[singular]
            family = "business_day" if business else family
            return _make("duration", value * amount, text, start, tokens[k][2], unit=family), k + 1
        if not unit_word.isalpha() or unit_word in STOPWORDS:
            break
        business, k = business or unit_word in _BUSINESS, k + 1
    # Times of day: "5 pm", "5:30 p.m.", "17:00".
    if nxt in ("am", "pm", "a", "p") or (nxt == ":" and j + 1 < len(tokens) and tokens[j + 1][0].isdigit()):
        minutes, end = value * 60, tokens[j - 1][2]
        if nxt == ":":
            minutes += float(tokens[j + 1][0])
            j += 2
            end = tokens[j - 1][2]
        marker = text[end:end + 6].lower().replace(".", "").replace(" ", "")
        if marker.startswith(("am", "pm")):
            if marker.startswith("pm") and minutes < 720:
                minutes += 720
            end += len(re.match(r"\s*[aApP]\.?[mM]\.?", text[end:]).group(0))  # type: ignore[union-attr]
            while j < len(tokens) and tokens[j][1] < end:
                j += 1
            return _make("time", minutes, text, start, end), j
        if nxt == ":":
            return _make("time", minutes, text, start, end), j
    if nxt in ("st", "nd", "rd", "th") and tokens[j][1] == tokens[j - 1][2]:
        return _make("ordinal", value, text, start, tokens[j][2], context=_context(tokens, j + 1)[0]), j + 1
    if 1900 <= value <= 2100 and tokens[i][0].isdigit() and len(tokens[i][0]) == 4:
        return _make("date", 0.0, text, start, tokens[i][2], parts=(int(value), None, None, None)), j
    counted, k = _context(tokens, j)
    if counted:
        return _make("count", value, text, start, tokens[k - 1][2], context=counted), j
    if tokens[i][0].lower() == "one" and j == i + 1:
        return None, j  # "one of", "no one": a pronoun, not a figure
    label = frozenset({stem(prev)}) if prev.isalpha() and prev.lower() not in STOPWORDS else frozenset()
    return _make("number", value, text, start, tokens[j - 1][2], context=label), j


def _make(kind: Kind, value: float, text: str, start: int, end: int, **fields: object) -> Quantity:
    end = max(end, start)
    return Quantity(kind, value, text=text[start:end], start=start, end=end, bound=_bound(text, start, end),
                    **fields)  # type: ignore[arg-type]


def _comparable(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities measure the same thing, so different values would conflict."""
    if a.kind != b.kind:
        return False
    if a.kind == "money":
        return (a.unit == b.unit or not a.unit or not b.unit) and (a.per == b.per or not a.per or not b.per)
    if a.kind in ("count", "ordinal"):
        return bool(a.context & b.context) or not (a.context or b.context)
    if a.kind == "number":
        return a.context == b.context
    return True  # percent, duration, time, date and weekday always compare


def _equal(a: Quantity, b: Quantity) -> bool:
    if a.bound and b.bound and a.bound != b.bound:
        return False  # "at least 10 days" is not "up to 10 days"
    if a.kind == "duration" and (a.unit == "month") != (b.unit == "month"):
        x, y = (v * _DAYS_PER_MONTH if q.unit == "month" else v for q, v in ((a, a.value), (b, b.value)))
        return abs(x - y) <= 0.04 * max(x, y)  # 1 month vs 30 days: calendar-approximate
    return abs(a.value - b.value) <= 1e-9 * max(1.0, abs(a.value))


def _date_status(claim: Quantity, evidence: Quantity) -> Status:
    """matched when no part differs and the evidence is at least as specific; conflict when a part differs."""
    if claim.kind == "weekday":
        return "matched" if claim.parts == evidence.parts else "conflict"
    pairs = list(zip(claim.parts, evidence.parts, strict=True))
    if any(c is not None and e is not None and c != e for c, e in pairs):
        return "conflict"
    return "absent" if any(c is not None and e is None for c, e in pairs) else "matched"


def compare_quantities(claim_qs: Iterable[Quantity], evidence_qs: Iterable[Quantity]) -> Agreement:
    """For each claim quantity: matched, in conflict with a comparable evidence quantity, or absent."""
    evidence = list(evidence_qs)
    results: list[QuantityMatch] = []
    for q in claim_qs:
        peers = [e for e in evidence if _comparable(q, e)]
        if q.kind in ("date", "weekday"):
            statuses = [(_date_status(q, e), e) for e in peers]
            for wanted in ("matched", "absent", "conflict"):
                hit = next((e for s, e in statuses if s == wanted), None)
                if hit is not None:
                    results.append(QuantityMatch(q, wanted, hit))  # type: ignore[arg-type]
                    break
            else:
                results.append(QuantityMatch(q, "absent"))
            continue
        same = next((e for e in peers if _equal(q, e)), None)
        if same is None:  # the figure itself, stated with other words around it ("10 staff" for "10 employees")
            same = next((e for e in evidence if e.kind in ("count", "number", "ordinal") and _equal(q, e)
                         and q.kind in ("count", "number", "ordinal")), None)
        if same is not None:
            results.append(QuantityMatch(q, "matched", same))
        elif peers:
            best = max(peers, key=lambda e: (len(q.context & e.context), q.per == e.per, q.unit == e.unit))
            results.append(QuantityMatch(q, "conflict", best))
        else:
            results.append(QuantityMatch(q, "absent"))
    return Agreement(tuple(results))
