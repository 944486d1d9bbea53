"""Reading numbers and dates as written: digits, number words, fractions and the date forms of business text.

Pure helpers of `ledger.text.quantities`, which decides what a number measures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Literal

from ledger.text.lexicon import lexicon
from ledger.text.terms import STOPWORDS, term_stem

Token = tuple[str, int, int]  # (text, start, end)
Bound = Literal["", "min", "max"]
DateParts = tuple[int | None, int | None, int | None, int | None]  # year, quarter, month, day

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3, "m": 1e6, "mn": 1e6, "bn": 1e9}
# "one fifth of", "a third of", "half of": shares, compared as percentages.
_FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5,
              "tenth": 10, "tenths": 10}
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# Durations in days or in months: a month is no whole number of days, so across the two only approximate equality.
DURATIONS = {"second": ("day", 1 / 86400), "sec": ("day", 1 / 86400), "minute": ("day", 1 / 1440),
             "min": ("day", 1 / 1440), "hour": ("day", 1 / 24), "hr": ("day", 1 / 24), "h": ("day", 1 / 24),
             "day": ("day", 1.0),
             "night": ("day", 1.0), "week": ("day", 7.0), "wk": ("day", 7.0), "fortnight": ("day", 14.0),
             "month": ("month", 1.0), "quarter": ("month", 3.0), "year": ("month", 12.0), "yr": ("month", 12.0),
             "decade": ("month", 120.0)}
DAYS_PER_MONTH = 30.44
PER_YEAR = _PER_YEAR = {
    "minute": 525_600.0, "hour": 8_760.0, "day": 365.0, "week": 52.0, "fortnight": 26.0, "month": 12.0, "quarter": 4.0,
    "year": 1.0,
}
TIMES = _TIMES = {"once": 1, "twice": 2, "thrice": 3}
# After these "a year" is a rate ("twice a year", "$50 a day"), not one year.
_NOT_BEFORE_ARTICLE = {"once", "twice", "thrice", "times", "per", "$", "€", "£"}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_SHORT_DAY = r"(?-i:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)"
# the end of a span of two short forms, after the first ("Mon–Sat"): look-behinds of one width each
_AFTER_SHORT_DAY = "|".join(rf"(?<=(?-i:Mon|Tue|Wed|Thu|Fri|Sat|Sun){gap})" for gap in
                            (r"[-\u2013\u2014]", r"\s[-\u2013\u2014]\s", r"\sto\s"))
_MONTH_NAMES = "jan feb mar apr may jun jul aug sep oct nov dec"
_MONTHS = {name: i for i, name in enumerate(_MONTH_NAMES.split(), 1)}
_MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
             r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
DATE_RE = re.compile(
    r"(?P<iso>\b(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})\b)"
    r"|(?P<dmy>\b(?P<dd>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>" + _MONTH_RE + r")(?:,?\s+(?P<dy>\d{4}))?\b)"
    r"|(?P<mdy>\b(?P<mm>" + _MONTH_RE + r")\s+(?P<md>\d{1,2})(?:st|nd|rd|th)?\b(?!\d|:)(?:,?\s+(?P<my>\d{4}))?)"
    r"|(?P<my_>\b(?P<mym>" + _MONTH_RE + r"),?\s+(?P<myy>\d{4})\b)"
    # A school or financial year written as two years running ("2023/24", "2021-22", "2019/2020"); not with spaces
    # ("1938 - 28 January 2004" is two dates).
    r"|(?P<span>\b(?P<sy1>(?:19|20)\d{2})[/\u2013-](?P<sy2>\d{2}|(?:19|20)\d{2})\b(?![/\u2013-]\d))"
    r"|(?P<num>\b(?P<n1>\d{1,2})/(?P<n2>\d{1,2})/(?P<n3>\d{4}|\d{2})\b)"
    r"|(?P<q>\bQ(?P<qq>[1-4])(?:\s*(?:FY\s*)?'?(?P<qy>\d{4}|\d{2}))?\b)"
    r"|(?P<qw>\b(?P<qwn>first|second|third|fourth)[\s-]+quarter(?:\s+(?:of\s+)?(?P<qwy>\d{4}))?\b)"
    r"|(?P<fy>\b(?:FY\s*'?|fiscal\s+year\s+)(?P<fyy>\d{4}|\d{2})\b)"
    r"|(?P<wd>\b(?:" + "|".join(WEEKDAYS) + r")s?\b)"
    # a weekday's short form only capitalised and before a day's number ("Tue 16 & Wed 17 Mar") or in a span of two
    # ("Mon–Sat", "Mon to Fri"): "sat", "wed" and "sun" are words too
    r"|(?P<wda>\b" + _SHORT_DAY + r"\b\.?(?=\s+\d{1,2}\b|\s?[-\u2013\u2014]\s?" + _SHORT_DAY + r"\b|\s+to\s+"
    + _SHORT_DAY + r"\b)|(?:" + _AFTER_SHORT_DAY + r")" + _SHORT_DAY + r"\b\.?)"
    # A month on its own only when capitalised ("May" only where it is no verb: `_may_is_the_month`).
    r"|(?P<mon>\b(?-i:January|February|March|April|May|June|July|August|September|October|November|December)\b)",
    re.IGNORECASE,
)
# A code of letters and digits ("C4", "A321neo", "CO2", "PM2.5") is one word: its digits count nothing.
TOKEN_RE = re.compile(
    r"[A-Za-z]+\d+(?:\.\d+)?[A-Za-z0-9]*|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[A-Za-z]+(?:['’][a-z]+)?"
    r"|[$€£¥¢%/:.\-–|]|\S"
)
# A version or section number of three parts or more ("2.8.1", "4.2.10") is a name, not an amount.
VERSION_RE = re.compile(r"(?<![\w.])\d+(?:\.\d+){2,}(?![\w.]*\d)")


CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
CURRENCY_CODES = {"usd", "eur", "gbp", "cad", "aud", "chf", "jpy", "inr", "nzd", "sgd"}
CURRENCY_WORDS = {"dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP"}
BUSINESS = {"business", "working", "work", "banking"}
PER_WORDS = {"per", "a", "an", "each", "every", "/"}
APPROX = {"about", "around", "approximately", "roughly", "nearly", "almost", "some", "circa", "~"}
_AFTER_BOUND = re.compile(r"\bor\s+(?P<min>more|longer|above|over|older)|\band\s+(?P<min_and>over|above|older)"
                          r"|\bor\s+(?P<max>less|fewer|shorter|below|under|younger)|\band\s+(?P<max_and>under|younger)",
                          re.IGNORECASE)  # "10 or more days", "aged 65 and over"


_SPAN_TO_MONTH = re.compile(r"\s*(?:to|until|till|and|through|[-\u2013])\s*(?-i:January|February|March|April|June|"
                            r"July|August|September|October|November|December)\b", re.IGNORECASE)


def _may_is_the_month(text: str, start: int, end: int) -> bool:
    """Whether a capitalised "May" is the month: after a preposition and before no name ("from May", "in May", not
    "by May Lin"; stopwords.toml `prepositions`), or before the other end of a span ("May to September"). The modal
    verb starts sentences too ("May we ask?")."""
    if _SPAN_TO_MONTH.match(text, end):
        return True
    before = re.findall(r"[A-Za-z]+", text[max(0, start - 20):start])
    return (bool(before) and before[-1].lower() in lexicon().word_set("stopwords", "prepositions")
            and not re.match(r"\s+[A-Z]", text[end:]))


def bound_at(text: str, start: int, end: int) -> Bound:
    """'max' or 'min' when a bound phrase ends right before the figure or 'or more/less' follows it."""
    before = " " + " ".join(text[max(0, start - 32):start].lower().split()).rstrip(" $€£")  # (across a line break)
    words = lexicon().words
    ends = [p for p in (*words("figures", "bound_max"), *words("figures", "bound_min"))
            if before.endswith(p) and not before[-len(p) - 1].isalpha()]
    if ends:
        bound: Bound = "max" if ends[0] in words("figures", "bound_max") else "min"
        if ends[0] in words("figures", "moment_bounds") and _lead_time(text, end):
            return "min" if bound == "max" else "max"  # "no later than 30 minutes before": 30 minutes ahead at least
        return bound
    after = _AFTER_BOUND.search(text, start, min(len(text), end + 14))  # "10 or more days", "$50 or less"
    if after:
        return "min" if after.group("min") or after.group("min_and") else "max"
    return ""


def _lead_time(text: str, end: int) -> bool:
    """Whether the figure ending at `end` is how long before something ("30 minutes before departure")."""
    after = " ".join(text[end:end + 24].lower().split())
    return any(after == w or after.startswith(w + " ") or after.startswith(w + ",") or after.startswith(w + ".")
               for w in lexicon().words("figures", "lead_words"))


@cache
def _count_enders() -> frozenset[str]:
    """Negation cues and short-scope cues ("no", "instead of"): what a number counts ends before them."""
    return frozenset(lexicon().word_set("negation", "cues") | lexicon().word_set("negation", "short_scope"))


def counted_at(tokens: Sequence[Token], j: int, limit: int = 3, text: str = "") -> tuple[frozenset[str], int]:
    """Stems of the content words right after a number (the thing counted: "10 full-time employees"), and the end;
    a negation ends it ("one shed no larger than" counts sheds), and so does the end of its line in `text` when a new
    one starts (a form's "Weight: 98 kg" counts nothing of the heading below it)."""
    words: list[str] = []
    negations = _count_enders()
    while j < len(tokens) and len(words) < limit:
        w = tokens[j][0]
        gap = text[tokens[j - 1][2]:tokens[j][1]] if text and j else ""
        if "\n\n" in gap or ("\n" in gap and w[:1].isupper()):
            break  # a soft wrap goes on in lower case ("10 full-time\nemployees")
        if w == "-":
            if text and text[tokens[j - 1][2]:tokens[j][1]] and text[tokens[j][2]:tokens[j + 1][1] if j + 1 < len(
                    tokens) else tokens[j][2]]:
                break  # "2 - Improvement necessary": a dash set apart by spaces ends the figure
            j += 1
            continue
        pair = f"{w} {tokens[j + 1][0]}".lower() if j + 1 < len(tokens) else ""
        if not w[0].isalpha() or w.lower() in STOPWORDS or w.lower() in negations or pair in negations:
            break  # "20 instead of 200", "3 rather than 4": no "instead" counted
        words.append(term_stem(w))
        j += 1
    return frozenset(words), j


def date_parts(m: re.Match[str]) -> tuple[str, DateParts] | None:
    """("date" or "weekday", parts) of a DATE_RE match, or None when it is not a real date. A school or financial
    year ("2023/24") is dated by the year it starts in; `year_span_end` gives the other."""

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
    if g["span"]:
        first, last = int(g["sy1"]), int(g["sy2"])
        consecutive = last == first + 1 or (last < 100 and last == (first + 1) % 100)
        return ("date", (first, None, None, None)) if consecutive else None
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
        return "weekday", (None, None, None, WEEKDAYS.index(g["wd"].lower().rstrip("s")))
    if g["wda"]:
        short = g["wda"].lower()[:3]
        return "weekday", (None, None, None, next(i for i, day in enumerate(WEEKDAYS) if day.startswith(short)))
    if g["mon"]:
        if g["mon"] == "May" and not _may_is_the_month(m.string, m.start(), m.end()):
            return None  # "May we ask?": the modal verb
        mon = month(g["mon"])
        return "date", (None, quarter(mon), mon, None)
    return None


def year_span_end(m: re.Match[str]) -> int | None:
    """The year a school or financial year of a DATE_RE match ends in ("2023/24": 2024), else None."""
    return int(m.group("sy1")) + 1 if m.group("span") else None


def and_a_half_at(tokens: Sequence[Token], j: int) -> bool:
    """Whether tokens[j:j + 3] read "and a half" ("two and a half years", "an hour and a half")."""
    return [t[0].lower() for t in tokens[j : j + 3]] == ["and", "a", "half"]


def fraction_at(tokens: Sequence[Token], i: int) -> tuple[float, int] | None:
    """A share written in words at token i ("one fifth of", "two-thirds of", "a third of", "half of", "two in five
    people", "four out of five", and after "by" without "of": "raised by a tenth", "cut by half") as a percentage,
    and the index of its last token."""
    word = tokens[i][0].lower()
    nxt = tokens[i + 1][0].lower() if i + 1 < len(tokens) else ""
    after = tokens[i + 2][0].lower() if i + 2 < len(tokens) else ""
    before = tokens[i - 1][0].lower() if i > 0 else ""
    if word == "half" and (nxt in ("of", "the") or before == "by" and nxt not in ("a", "an")):  # "half of", "cut
        return 50.0, i + 1 if nxt == "of" else i  # by half", "half the standard fee"
    count = 1 if word in ("a", "an", "one") else UNITS.get(word)
    if count and nxt == "-" and after in _FRACTIONS:  # "two-thirds of"
        nxt, after, i = after, (tokens[i + 3][0].lower() if i + 3 < len(tokens) else ""), i + 1
    # "a third of the budget"; "raised by a tenth" (a change needs no "of")
    if count and nxt in _FRACTIONS and (after == "of" or before == "by") and (count == 1) == (not nxt.endswith("s")):
        return 100.0 * count / _FRACTIONS[nxt], i + 1 if after != "of" else i + 2
    if nxt == "in" and (share := _one_in_n(tokens, i, skip=int(after == "every"))) is not None:  # "one in every ten"
        return share
    if (after == "in" and nxt.isalpha() and tokens[i + 1][0].islower() and nxt not in STOPWORDS
            and not unit_word(nxt) and (share := _one_in_n(tokens, i, skip=1)) is not None):
        return share  # "one child in ten", "two adults in five": the whole is of those
    if nxt == "out" and after == "of" and (share := _one_in_n(tokens, i, skip=1)) is not None:  # "four out of five"
        return share
    return None


def vague_share_at(tokens: Sequence[Token], i: int) -> tuple[Bound, int] | None:
    """A share named without a figure at token i ("most of", "the majority of": more than half) as the side of 50%
    it is on, and the index of its last token."""
    for phrase, side in lexicon().table("figures", "vague_shares").items():
        words = phrase.split()
        if [t[0].lower() for t in tokens[i:i + len(words)]] == words:
            return ("min" if side == "min" else "max"), i + len(words) - 1
    return None


def _one_in_n(tokens: Sequence[Token], i: int, skip: int = 0) -> tuple[float, int] | None:
    """"one in nine (pounds)", "2 in 5 (adults)", "1 in 100 (people)", and with `skip` 1 "four out of five": a share
    of whole things, as a percentage. Not "3 in 10 days" (a count within a period) nor "1 in 2024"."""
    part = number_at(tokens, i)
    w = i + 2 + skip  # where the whole starts
    if part is None or part[1] != i + 1 or w >= len(tokens):
        return None
    whole = number_at(tokens, w)
    if whole is None or whole[1] != w + 1 or not 1 <= part[0] < whole[0] <= 1000:
        return None
    if tokens[w][0].isdecimal() and len(tokens[w][0]) == 4:
        return None  # a year
    following = tokens[w + 1][0].lower() if w + 1 < len(tokens) else ""
    if unit_word(following) or following in ("%", "percent", "per"):
        return None
    return 100.0 * part[0] / whole[0], w


def number_at(tokens: Sequence[Token], i: int) -> tuple[float, int] | None:
    """The number starting at token i (digits or words, with scale words) and the index after it."""
    first = tokens[i][0].lower()
    following = tokens[i + 1][0].lower() if i + 1 < len(tokens) else ""
    # isdecimal, not isdigit: "²", "½" and "①" are digits to isdigit, but TOKEN_RE's \d and float() read only decimal
    # digits (any script's: "٣" and "３" are 3), and a superscript stands alone as a token of its own ("m²").
    if first[0].isdecimal():
        total, current, last, j = 0.0, float(first.replace(",", "")), "digits", i + 1
    elif first in ("a", "an") and following in ("dozen", "hundred", "thousand"):
        total, current, last, j = 0.0, 1.0, "unit", i + 1
    elif first in UNITS or first in TENS or first == "dozen":
        total, current, last, j = 0.0, 0.0, "", i
    else:
        return None
    while j < len(tokens):
        w = tokens[j][0].lower()
        ahead = tokens[j + 1][0].lower() if j + 1 < len(tokens) else ""
        if w == "-" and last == "tens" and UNITS.get(ahead, 10) < 10:
            j += 1  # "twenty-five"
            continue
        if w in UNITS and (last in ("", "hundred", "scale", "and") or (last == "tens" and UNITS[w] < 10)):
            current, last = current + UNITS[w], "unit"
        elif w in TENS and last in ("", "hundred", "scale", "and"):
            current, last = current + TENS[w], "tens"
        elif w == "dozen" and last in ("", "unit", "digits"):
            current, last = (current or 1.0) * 12, "unit"
        elif w == "hundred" and last in ("unit", "digits", "tens"):
            current, last = current * 100, "hundred"
        elif w in ("thousand", "million", "billion") and last in ("unit", "digits", "tens", "hundred"):
            total, current, last = total + current * _SCALES[w], 0.0, "scale"
        elif w in ("k", "m", "mn", "bn") and last == "digits" and tokens[j][1] == tokens[j - 1][2]:
            # "k"/"m"/"bn" scale only when glued to the digits ("$3.5m"), never as a separate word.
            total, current, last = total + current * _SCALES[w], 0.0, "scale"
        elif w == "and" and last in ("hundred", "scale") and (ahead in UNITS or ahead in TENS):
            last = "and"  # "one hundred and twenty"
        elif w == "and" and last in ("unit", "digits", "tens") and and_a_half_at(tokens, j):
            current, j = current + 0.5, j + 3  # "two and a half", "2 and a half"
            continue
        else:
            break
        j += 1
    return (total + current, j) if last else None


MULTIPLE = frozenset({"time", "fold"})  # what a multiple counts: "five times", "a 5-fold rise", "doubled"
POINTS = "percentage point"  # the unit of a percent that is a difference of two shares ("up 18 percentage points")


def multiple_at(tokens: Sequence[Token], i: int) -> tuple[float, int] | None:
    """A multiple at token i written without "times" ("twice as many", "doubled", "fivefold") and the index after it.

    "Twice" is a multiple only before a comparison ("twice the size"); "scored twice" counts occasions and "twice a
    year" is a frequency (`frequency_at` reads it first).
    """
    word = tokens[i][0].lower()
    following = tokens[i + 1][0].lower() if i + 1 < len(tokens) else ""
    if _TIMES.get(word, 0) >= 2 and following in lexicon().word_set("figures", "times_compared"):  # not "once the"
        return float(_TIMES[word]), i + 1
    if (verb := lexicon().table("figures", "multiples").get(word)) is not None:
        return float(verb), i + 1
    stem_ = word.removesuffix("fold")
    if stem_ != word and (n := UNITS.get(stem_) or TENS.get(stem_)):
        return float(n), i + 1
    return None


def unit_word(word: str) -> str:
    """The singular duration unit a word names ("days" -> "day"), or ""."""
    word = re.sub(r"['’]s?$", "", word.lower())  # "a week's notice", "30 days' notice"
    singular = word[:-1] if word.endswith("s") and word[:-1] in DURATIONS else word
    return singular if singular in DURATIONS else ""


def frequency_at(tokens: Sequence[Token], i: int) -> tuple[float, int] | None:
    """A frequency at token i, as occurrences per year, and the index after it.

    "every six months" and "twice a year" are both 2; "once per quarter" and "every quarter" are both 4.
    """
    word = tokens[i][0].lower()

    def period(j: int, count: float) -> tuple[float, int] | None:
        unit = unit_word(tokens[j][0]) if j < len(tokens) else ""
        base = "year" if unit in ("year", "yr") else unit
        return (count * _PER_YEAR[base], j + 1) if base in _PER_YEAR else None

    # "3 days per week" is a rate; "the same quarter a year before" is not.
    after_duration = i > 1 and bool(unit_word(tokens[i - 1][0])) and number_at(tokens, i - 2) is not None
    if word == "every" and i + 2 < len(tokens) and tokens[i + 1][0].lower() == "other":  # "every other week"
        found = period(i + 2, 1.0)
        return (found[0] / 2, found[1]) if found else None
    if word in ("every", "each") or (word in ("per", "a", "an") and after_duration):  # "3 days per week" is a rate
        number = number_at(tokens, i + 1) if i + 1 < len(tokens) and word in ("every", "each") else None
        if number is not None:
            found = period(number[1], 1.0)
            return (found[0] / number[0], found[1]) if found and number[0] else None
        return period(i + 1, 1.0)
    count: float | None = _TIMES.get(word)
    j = i + 1
    if count is None:
        number = number_at(tokens, i)
        if number is None or number[1] >= len(tokens) or tokens[number[1]][0].lower() != "times":
            return None
        count, j = number[0], number[1] + 1
    if j < len(tokens) and tokens[j][0].lower() in ("a", "an", "per", "every", "each"):
        return period(j + 1, count)
    adverbs = lexicon().table("figures", "rate_adverbs")  # "twice daily", "three times weekly"
    if j < len(tokens) and (unit := adverbs.get(tokens[j][0].lower())) in _PER_YEAR:
        return count * _PER_YEAR[unit], j + 1
    if j + 1 < len(tokens) and tokens[j][0].lower() in ("in", "within"):  # "twice in 12 hours"
        if tokens[j + 1][0].lower() in ("a", "an", "one"):  # "twice in a day"
            return period(j + 2, count)
        number = number_at(tokens, j + 1)
        if number is not None and number[0] > 0:
            found = period(number[1], count)
            return (found[0] / number[0], found[1]) if found else None
    return None


_SPAN_BEFORE_NEXT = frozenset({"for", "within", "over", "during", "throughout"})  # "for the next week" is a span


def article_number_at(tokens: Sequence[Token], i: int) -> tuple[float, int] | None:
    """One, or a part of one, of a duration unit written without digits, and the index of the unit.

    "within a year" and "a week's notice" are one; "half an hour", "a quarter of an hour" and "three-quarters of an
    hour" are parts of one.
    After a figure "a" is "per" ("10 days a year"), which `frequency_at` reads.
    """

    def word(k: int) -> str:
        return tokens[k][0].lower() if 0 <= k < len(tokens) else ""

    first = word(i)
    if first == "half" and word(i + 1) in ("a", "an") and unit_word(word(i + 2)):
        return 0.5, i + 2
    share = fraction_at(tokens, i)  # "a quarter of an hour", "three-quarters of an hour"
    if share is not None and word(share[1]) == "of" and word(share[1] + 1) in ("a", "an") and unit_word(
            word(share[1] + 2)):
        return share[0] / 100, share[1] + 2
    previous = word(i - 1)
    if (first == "the" and word(i + 1) in ("next", "following") and unit_word(word(i + 2))
            and previous in _SPAN_BEFORE_NEXT):
        return 1.0, i + 2  # "barred for the following fortnight", "within the next month": one, from now
    if first in ("a", "an") and unit_word(word(i + 1)) and not (
            (word(i + 1) == "quarter" and word(i + 2) == "of")  # "a quarter of the income" is a share (fraction_at)
            or previous[:1].isdecimal() or unit_word(previous) or previous in _NOT_BEFORE_ARTICLE
            or word(i + 2) in ("earlier", "ago", "later", "before", "over")  # "a year earlier": a point, not a span
            or tokens[i + 1][0][:1].isupper()  # "a Night shift token": a word of a name
            # "a second factor", "a second opinion": the ordinal, before the noun it counts
            or (word(i + 1) in _ORDINAL_WORDS and word(i + 2).isalpha() and word(i + 2) not in STOPWORDS)):
        return 1.0, i + 1
    return None
