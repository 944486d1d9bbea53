"""Quantities and dates in a sentence, normalised so a claim can be compared with its evidence.

Pure functions. "three business days" and "3 business days", "one hour" and "60 minutes", "$1,200" and
"USD 1200" normalise to the same value, so a paraphrase keeps its figures and a changed figure shows as a
conflict: the same kind and unit with a different value (seed 004 §4.3: contradicted, not a miss). Each
figure also carries the key terms around it, so a figure is compared with the evidence figure that is about
the same thing ("sales and marketing at $4.2 million"), not with whichever figure happens to be nearby.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache, lru_cache

from ledger.text.ages import group_working, in_group, is_age, old_after, read_ages
from ledger.text.derived import LOOSE, derivation, is_amount
from ledger.text.figure_context import describe_figures
from ledger.text.figures import Agreement, Kind, Quantity, QuantityMatch, Status
from ledger.text.lexicon import lexicon
from ledger.text.measures import BY, is_measure, measure_word, unit_size
from ledger.text.numbers import (
    APPROX,
    BUSINESS,
    CURRENCY_CODES,
    CURRENCY_SIGNS,
    CURRENCY_WORDS,
    DATE_RE,
    DAYS_PER_MONTH,
    DURATIONS,
    MULTIPLE,
    PER_WORDS,
    PER_YEAR,
    POINTS,
    TIMES,
    TOKEN_RE,
    VERSION_RE,
    WEEKDAYS,
    Token,
    and_a_half_at,
    article_number_at,
    bound_at,
    counted_at,
    date_parts,
    fraction_at,
    frequency_at,
    multiple_at,
    number_at,
    unit_word,
    vague_share_at,
    year_span_end,
)
from ledger.text.terms import (
    STOPWORDS,
    direction_stems,
    is_negated,
    key_terms,
    negation_cues,
    phrase_pattern,
    stem,
    term_stem,
)

__all__ = [
    "Agreement", "Quantity", "QuantityMatch", "compare_quantities", "extract_quantities", "for_its_year", "is_negated",
    "negation_cues",
]  # negation lives in ledger.text.terms; re-exported for callers that compare polarity alongside figures



# "twice" and "thrice" alone count times; "once" is as often "as soon as" ("once the form is signed")
_OCCASIONS = {word: float(n) for word, n in TIMES.items() if n >= 2}


def extract_quantities(text: str) -> list[Quantity]:
    """Every money amount, percentage, duration, count, number and date in `text`, normalised."""
    return list(_quantities(text))


@cache
def _name_labels() -> frozenset[str]:
    """Words that make the number after them a name ("version 4.0", "step 3"), from the lexicon."""
    return frozenset(lexicon().words("figures", "name_labels"))


@cache
def _prepositions() -> frozenset[str]:
    """Prepositions, which name nothing before a number ("Between 3 and 5 June"), from the lexicon."""
    return frozenset(lexicon().words("stopwords", "prepositions"))


def _paired(tokens: Sequence[Token], j: int) -> bool:
    """Whether the number before token j is the first of two joined by a dash ("Stanmoor City 3–2", "Rooms 4-6"): a
    score or a range, not a name's number."""
    return j + 1 < len(tokens) and tokens[j][0] in ("-", "–", "—") and tokens[j + 1][0].isdecimal() \
        and tokens[j][1] == tokens[j - 1][2] and tokens[j + 1][1] == tokens[j][2]


def _name_like(token: str) -> bool:
    """A number that may be a name after a capitalised word: "Level 2", "Orbis 4.0" (not "Q3 2.5%")."""
    return token.isdecimal() or bool(re.fullmatch(r"\d+\.\d+", token))


def _opening_verb(text: str, tokens: Sequence[Token], k: int) -> bool:
    """Whether the capitalised word at tokens[k] opens its line or sentence in the shape of a verb's "-s" form:
    "Serves 6.", "Sleeps 4", "Seats 120" say how many, where "Level 2" or "Phase 1" names one (a name's label is
    singular)."""
    word = tokens[k][0]
    before = text[:tokens[k][1]].rstrip(" \t")
    opening = k == 0 or before.endswith(("\n", ".", "!", "?", ":", ";"))
    return opening and len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def is_code(q: Quantity) -> bool:
    """Whether a figure is the number of a code ("SEV-1", "COVID-19"): its text starts with the code's letters."""
    return q.identifier and q.text[:1].isalpha()


def _generic_name(q: Quantity) -> bool:
    """A number named by a word that says only that it is a release ("version 4.0"), not of what: the same number
    bare ("changed in 4.0") or after a name ("Orbis 4.0") is that release, after a label ("Level 4") it is not."""
    return q.identifier and bool(q.context) and q.context <= _version_stems()


@cache
def _label_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in _name_labels())


@cache
def _comparative_stems() -> frozenset[str]:
    return frozenset(stem(w) for group in lexicon().groups("figures", "comparatives") for w in group)


@cache
def _version_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in lexicon().words("figures", "version_labels"))


# A line that opens with its numbering: "1. TERM", "2.1 The rent is", "## 3) Deposits", "4. 2024-25 budget".
_NUMBERING = re.compile(r"[ \t>#*]*(\d{1,3}(?:\.\d{1,3})*)(?:[.)]?[ \t]+(?=[A-Z(])|[.)][ \t]+(?=\d))")


def _numbers_its_line(text: str, q: Quantity) -> bool:
    """Whether a figure is the numbering its line opens with."""
    numbering = _NUMBERING.match(text, text.rfind("\n", 0, q.start) + 1)
    return numbering is not None and numbering.end(1) == q.end


@lru_cache(maxsize=8192)
def _quantities(text: str) -> tuple[Quantity, ...]:
    """extract_quantities, remembered per text: the judge reads a claim's figures against each of its quotes."""
    found: list[Quantity] = []
    masked = list(text)
    for m in DATE_RE.finditer(text):
        parsed = date_parts(m)
        if parsed is not None:
            kind, parts = parsed
            found.append(Quantity(kind, float(parts[3] or 0), parts=parts, text=m.group(0), start=m.start(),  # type: ignore[arg-type]
                                  end=m.end(), upper=year_span_end(m)))
            masked[m.start():m.end()] = " " * (m.end() - m.start())  # dates are done; keep their digits from counts
    found += _week_parts(text)
    for m in VERSION_RE.finditer(text):
        masked[m.start():m.end()] = " " * (m.end() - m.start())
    tokens = [(m.group(0), m.start(), m.end()) for m in TOKEN_RE.finditer("".join(masked))]
    i = 0
    while i < len(tokens):
        rate = frequency_at(tokens, i)
        unit_part = article_number_at(tokens, i)
        share = fraction_at(tokens, i)
        if rate is not None:
            found.append(_make("frequency", rate[0], text, tokens[i][1], tokens[rate[1] - 1][2]))
            i = rate[1]
        elif (multiple := multiple_at(tokens, i)) is not None:
            found.append(_make("count", multiple[0], text, tokens[i][1], tokens[multiple[1] - 1][2], context=MULTIPLE))
            i = multiple[1]
        elif tokens[i][0].lower() in _OCCASIONS:  # "can be renewed twice": a count of times
            found.append(_make("count", _OCCASIONS[tokens[i][0].lower()], text, tokens[i][1], tokens[i][2],
                               context=frozenset({"time"})))
            i += 1
        elif share is not None and unit_part is None:
            found.append(_make("percent", share[0], text, tokens[i][1], tokens[share[1]][2], approx=True))
            i = share[1] + 1
        elif (vague := vague_share_at(tokens, i)) is not None:  # "most of": more than half
            found.append(replace(_make("percent", 50.0, text, tokens[i][1], tokens[vague[1]][2]), bound=vague[0]))
            i = vague[1] + 1
        elif (number := unit_part or number_at(tokens, i)) is not None:
            quantity, i = _classify(text, tokens, i, number[1], number[0])
            # "2 minutes per 100 GB": the base of a rate is no amount
            if quantity is not None and not (quantity.kind in ("count", "number") and _RATE_BASE.search(
                    text, max(0, quantity.start - 12), quantity.start)):
                found.append(quantity)
        else:
            i += 1
    found = _compound_durations(text, found)
    taken = [(q.start, q.end) for q in found if q.kind == "money"]  # a count may run on over it: "3 swim free"
    found += [_make("money", 0.0, text, m.start(), m.end()) for m in _free_pattern().finditer(text)
              if not any(a < m.end() and m.start() < b for a, b in taken)]
    clock, words = _times_of_day()  # "by noon" is "by 12:00"
    found += [_make("time", clock[m.group(0).lower()], text, m.start(), m.end()) for m in words.finditer(text)]
    found.sort(key=lambda q: q.start)
    baseline = _baseline_pattern()
    found = [replace(q, baseline=True) if q.kind == "date" and baseline.search(text, max(0, q.start - 40), q.start)
             else q for q in found]
    found = [replace(q, difference=_difference(text, q)) if q.kind not in ("date", "weekday", "time") else q
             for q in found]
    found = [replace(q, measure=measure) if q.kind == "percent" and (measure := _measure_after(text, q)) else q
             for q in found]
    # the number of a numbered heading or clause ("1. TERM", "2.1 The rent is ...") names it: no amount
    found = [replace(q, identifier=True) if q.kind == "number" and _numbers_its_line(text, q) else q for q in found]
    found = _days_of_a_later_month(text, sorted(found, key=lambda q: q.start))
    found = [_in_part_of_day(text, q) if q.kind == "weekday" else q for q in found]
    found = [_in_labelled_currency(text, q) for q in found]
    return tuple(read_ages(text, describe_figures(text, shared_units(text, found))))


_LABELLED_CURRENCY = re.compile(
    r"\(\s*(?:in\s+)?(" + "|".join(map(re.escape, (*CURRENCY_SIGNS, *CURRENCY_CODES))) + r")\s*\)[\s:;=|-]*$",
    re.IGNORECASE)


def _in_labelled_currency(text: str, q: Quantity) -> Quantity:
    """A plain number right after a label that names its currency is money: "TOTAL (GBP)  202.08", "Cost (£): 12.50"
    (a bill's total, a table's column). Pure."""
    if q.kind != "number" or q.identifier:
        return q
    label = _LABELLED_CURRENCY.search(text, max(0, q.start - 100), q.start)  # (a bill pads its columns)
    if label is None:
        return q
    code = label.group(1)
    return replace(q, kind="money", unit=CURRENCY_SIGNS.get(code) or code.upper())


_COMPOUND_GAP = re.compile(r"\s*(?:,?\s*and\s+)?")  # "2 hours 47 minutes", "1 hour and 30 minutes"


def _compound_durations(text: str, found: list[Quantity]) -> list[Quantity]:
    """A duration in two units, the larger first, as one: "2 h 47 min" is 2.78 hours, "1 year and 6 months" 18
    months. Pure."""
    out: list[Quantity] = []
    for q in found:
        last = out[-1] if out else None
        if (last is not None and q.kind == last.kind == "duration" and q.unit == last.unit and not q.bound
                and 0 < q.value < last.value and last.upper is None and not last.approx
                and _COMPOUND_GAP.fullmatch(text[last.end:q.start])):
            out[-1] = replace(last, value=last.value + q.value, text=text[last.start:q.end], end=q.end)
            continue
        out.append(q)
    return out


_DAY_THEN = re.compile(r"\s*(?:,|&|and|or|to|until|till|through|[-–—])\s*$", re.IGNORECASE)


def _days_of_a_later_month(text: str, found: list[Quantity]) -> list[Quantity]:
    """A weekday's bare day number shares the month of the date after it: "Tuesday 16 and Wednesday 17 March", "Tue 16
    & Wed 17 Mar" are 16 and 17 March. Pure."""
    out = list(found)
    for n in range(len(out) - 3, -1, -1):
        weekday, day = out[n], out[n + 1]
        if weekday.kind != "weekday" or day.kind != "number" or not day.value.is_integer():
            continue
        if not 1 <= day.value <= 31 or text[weekday.end:day.start].strip(" .,"):
            continue
        later = next((q for q in out[n + 2:n + 4] if q.kind == "date" and q.parts[2] is not None
                      and q.parts[3] is not None), None)
        if later is None or not _DAY_THEN.match(text[day.end:later.start].replace(
                text[out[n + 2].start:out[n + 2].end] if out[n + 2] is not later else "", " ")):
            continue
        year, quarter, month, _ = later.parts
        out[n + 1] = replace(day, kind="date", value=day.value, parts=(year, quarter, month, int(day.value)),
                             context=frozenset(), identifier=False)
    for n in range(len(out) - 1):  # "from 17 to 19 May 2028", "3–5 June", "between 3 and 5 June": a span's first day
        day, later = out[n], out[n + 1]
        last = later.parts[3] if later.kind == "date" and later.parts[2] is not None else None
        between = text[day.end:later.start]
        if (day.kind == "number" and not day.identifier and day.value.is_integer() and last is not None
                and 1 <= day.value < last and (_SPAN_OF_DAYS.fullmatch(between) or (
                    _AND.fullmatch(between) and _BETWEEN.search(text, 0, day.start)))):
            year, quarter, month, _ = later.parts
            out[n] = replace(day, kind="date", parts=(year, quarter, month, int(day.value)), context=frozenset())
    return out


_SPAN_OF_DAYS = re.compile(r"\s*(?:[-\u2013\u2014]|to|until|till)\s*", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)


@cache
def _free_pattern() -> re.Pattern[str]:
    """A price of nothing: "free of charge", "at no extra cost", or "free" not joined by a hyphen and not followed by
    a word of another sense ("free to", "free time"; the lexicon's `figures.toml`)."""
    lex = lexicon()
    phrases = [p for p in lex.words("figures", "free_of_charge") if p != "free"]
    others = phrase_pattern(lex.words("figures", "not_free_after"))
    bare = rf"(?<![\w-])free(?![\w-])(?!\s+(?:{others})\b)" if "free" in lex.words("figures", "free_of_charge") else ""
    return re.compile("|".join(x for x in (rf"\b(?:{phrase_pattern(phrases)})\b", bare) if x), re.IGNORECASE)


@cache
def _difference_patterns() -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(each comparative's group, a comparative in or right after a figure, a change word right after it, a change
    word right before it, with or without "by" or "of"), from the lexicon's `comparatives`, `change_words`,
    `change_particles` and `change_fillers`."""
    lex = lexicon()
    groups = {word.lower(): group[0] for group in lex.groups("figures", "comparatives") for word in group}
    change, particle, filler = (phrase_pattern(lex.words("figures", n))
                                for n in ("change_words", "change_particles", "change_fillers"))
    before = rf"(?:\b(?:{change})|(?:,|\b(?:is|are|was|were|been))\s+(?:{particle}))"
    return (groups,
            re.compile(rf"(?<!\bor\s)(?<!\band\s)(?<!\bno\s)(?<!\bnot\s)\b(?:{phrase_pattern(groups)})\b",
                       re.IGNORECASE),
            re.compile(rf"\s*(?:{change})\b", re.IGNORECASE),
            re.compile(rf"{before}\s+(?:(?:by|of)\s+)?(?:(?:{filler})\s+)?$", re.IGNORECASE))


def _difference(text: str, q: Quantity) -> str:
    """What a figure that is a difference between two others measures (`Quantity.difference`), else "": "more" for
    "£40 a month more than", "15 fewer deaths", "a 12% increase", "rose by 12%", "up 3%", "an increase of £5";
    "earlier" for "15 minutes earlier". Not "10 or more days" nor "one shed no larger than" (bounds) nor "up from
    40%" (the figure compared with)."""
    groups, comparative, change_after, change_before = _difference_patterns()
    first = q.text.split(maxsplit=1)
    found = comparative.search(first[1]) if len(first) > 1 else None
    if found is None and text[q.end:q.end + 1] == " ":
        found = comparative.match(text, q.end + 1, min(len(text), q.end + 12))
    if found is not None:
        return groups[found.group(0).lower()]
    if change_after.match(text, q.end) or change_before.search(text, max(0, q.start - 40), q.start):
        return lexicon().groups("figures", "comparatives")[0][0]  # a change is of amounts: "more"
    return ""


@cache
def _baseline_pattern() -> re.Pattern[str]:
    """A comparison earlier in a date's clause (the lexicon's `comparison_cues`): the date is of the figure compared
    with ("compared with 5 in 2022", "up from 4% in 2024"), not of the statement."""
    cues = phrase_pattern(lexicon().words("figures", "comparison_cues"))
    return re.compile(rf"\b(?:{cues})(?!\w)[^.;:]*$", re.IGNORECASE)


_RATE_BASE = re.compile(r"\bper\s+$", re.IGNORECASE)
_COORDINATED = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|and/or\s+|to\s+)")
_DASH = re.compile(r"\s*[-–—]\s*")  # "10–14 days"; but "won 3–2 against" is a score, not a count of two
_SHARED_KINDS = ("money", "percent", "duration", "count")
_UNIT_AFTER = re.compile(r"\s+(?:or|to)\s+", re.IGNORECASE)  # "a day or two": the number is in the unit before it


def shared_units(text: str, found: list[Quantity]) -> list[Quantity]:
    """Bare numbers that share the unit of the figure after them: "6.2 and 23.8 days", "3 to 4 weeks", "2, 3 or 5
    nights" are days, weeks and nights each, and "6 by 4 feet" is feet both ways. Pure."""
    out = list(found)
    for n in range(len(out) - 2, -1, -1):  # right to left: each number of a list takes its unit from the next
        q, nxt = out[n], out[n + 1]
        if q.kind != "number" or q.identifier or nxt.kind not in _SHARED_KINDS or not nxt.number:
            continue
        gap, united = text[q.end:nxt.start], nxt.unit or nxt.kind == "percent"
        joined = (_COORDINATED.fullmatch(gap) or (united and _DASH.fullmatch(gap))
                  or (BY.fullmatch(gap) and unit_size(measure_word(nxt.text))))
        if joined and text[nxt.start:nxt.start + 1].isdigit():
            out[n] = replace(q, kind=nxt.kind, value=q.number * (nxt.value / nxt.number), unit=nxt.unit,
                             context=nxt.context, per=nxt.per)
    for n in range(1, len(out)):  # "a day or two", "an hour or so to 3": a bare number after a unit's "or"/"to"
        q, prev = out[n], out[n - 1]
        if (q.kind == "number" and not q.identifier and prev.kind == "duration" and prev.number
                and _UNIT_AFTER.fullmatch(text[prev.end:q.start]) and not key_terms(_next_word(text, q.end))):
            out[n] = replace(q, kind=prev.kind, value=q.number * (prev.value / prev.number), unit=prev.unit,
                             context=prev.context, per=prev.per)
    return out


def _next_word(text: str, at: int) -> str:
    """The word right after a position, "" at punctuation or the end."""
    found = re.match(r"\s*([A-Za-z]+)", text[at:])
    return found.group(1) if found else ""


def _classify(
    text: str, tokens: Sequence[Token], i: int, j: int, value: float
) -> tuple[Quantity | None, int]:
    """Decide what the number at tokens[i:j] measures, by the words around it."""
    start, end = tokens[i][1], tokens[j - 1][2]
    prev = tokens[i - 1][0] if i > 0 else ""
    prev2 = tokens[i - 2][0] if i > 1 else ""
    nxt = tokens[j][0].lower() if j < len(tokens) else ""
    after = tokens[j + 1][0].lower() if j + 1 < len(tokens) else ""
    currency = CURRENCY_SIGNS.get(prev) or (prev.upper() if prev.lower() in CURRENCY_CODES else "")
    if prev == "$" and prev2 in ("US", "A", "C", "NZ", "S") and tokens[i - 2][2] == tokens[i - 1][1]:  # "US$40"
        currency = {"US": "USD", "A": "AUD", "C": "CAD", "NZ": "NZD", "S": "SGD"}[prev2]
    if currency:
        start = tokens[i - 1][1]
    elif nxt in CURRENCY_CODES or nxt in CURRENCY_WORDS:
        currency, j = CURRENCY_WORDS.get(nxt) or nxt.upper(), j + 1
    elif nxt in ("cents", "cent", "¢"):
        currency, value, j = "USD", value / 100, j + 1  # "45 cents per mile" is $0.45 per mile
    elif (nxt == "pence" or nxt == "p" and tokens[j][1] == end) and value < 100:
        currency, value, j = "GBP", value / 100, j + 1  # "20p per day" is £0.20 per day
    if currency:
        per, each = "", frozenset[str]()
        if (j + 2 < len(tokens) and tokens[j][0].lower() == "for" and tokens[j + 1][0].lower() in ("each", "every")
                and tokens[j + 2][0].isalpha() and tokens[j + 2][0].lower() not in STOPWORDS):
            j += 1  # "£7.50 for each month" is £7.50 per month
        if (j + 1 < len(tokens) and tokens[j][0].lower() in PER_WORDS and tokens[j + 1][0].isalpha()
                and tokens[j + 1][0].lower() not in STOPWORDS):
            per, j = stem(tokens[j + 1][0]), j + 2
            if per == "calendar" and j < len(tokens) and tokens[j][0].isalpha():  # "per calendar month"
                per, j = stem(tokens[j][0]), j + 1
            if (j + 1 < len(tokens) and tokens[j][0].lower() in PER_WORDS and not unit_word(per)
                    and unit_word(tokens[j + 1][0].lower())):
                # "£3 per dog per night": a rate per night, for each dog (what it is about)
                each = frozenset({term_stem(tokens[j - 1][0])})
                per, j = stem(tokens[j + 1][0]), j + 2
        elif j < len(tokens) and tokens[j][0].lower() in (adverbs := lexicon().table("figures", "rate_adverbs")):
            per = adverbs[tokens[j][0].lower()]  # "$12 monthly"
        return _make("money", value, text, start, tokens[j - 1][2], unit=currency, per=per, context=each), j
    if nxt in ("%", "percent"):
        return _make("percent", value, text, start, tokens[j][2]), j + 1
    if nxt in ("°", "º"):  # a temperature ("34 °C", "98.6°F"): compared only with temperatures on its scale
        scale = after.upper() if after in ("c", "f", "k") else ""
        last = j + 1 if scale else j
        return _make("number", value, text, start, tokens[last][2], context=frozenset({f"°{scale}"})), last + 1
    if (nxt, after) == ("per", "cent"):
        return _make("percent", value, text, start, tokens[j + 1][2]), j + 2
    if nxt == "percentage" and after.startswith("point"):  # a difference of two shares, no share itself
        return _make("percent", value, text, start, tokens[j + 1][2], unit=POINTS), j + 2
    if nxt == "or" and after in ("more", "less", "fewer", "longer", "shorter"):
        j, nxt = j + 2, (tokens[j + 2][0].lower() if j + 2 < len(tokens) else "")  # "10 or more days"
    if nxt in ("st", "nd", "rd", "th") and j < len(tokens) and tokens[j][1] == tokens[j - 1][2]:
        # "the 15th day of each month" is the fifteenth, not fifteen days
        counted = counted_at(tokens, j + 1, text=text)[0]
        return _make("ordinal", value, text, start, tokens[j][2], context=counted), j + 1
    k, business = (j + 1 if nxt == "-" else j), False
    for _ in range(3):  # up to two modifiers: "5 more banking days", "3 consecutive months"
        word = tokens[k][0].lower() if k < len(tokens) else ""
        if (unit := unit_word(word)) and not _in_compound(text, tokens, k):
            family, amount = DURATIONS[unit]
            family = "business_day" if business else family
            end, after_unit = tokens[k][2], k + 1
            if and_a_half_at(tokens, after_unit):  # "an hour and a half", "two years and a half"
                value, end, after_unit = value + 0.5, tokens[after_unit + 2][2], after_unit + 3
            return _make("duration", value * amount, text, start, end, unit=family, number=value), after_unit
        if not word.isalpha() or word in STOPWORDS:
            break
        business, k = business or word in BUSINESS, k + 1
    # Times of day: "5 pm", "5:30 p.m.", "17:00".
    # ("Ward 4: 12", a table cell under the column "Ward 4", is no 4:12: a clock's colon has no space around it)
    clock = (nxt == ":" and j + 1 < len(tokens) and tokens[j + 1][0].isdecimal()
             and tokens[i][2] == tokens[j][1] and tokens[j][2] == tokens[j + 1][1])
    # ("9.30am", "at 9.30": the British clock's dot, its two digits minutes)
    dotted = _DOTTED_CLOCK.fullmatch(tokens[i][0]) if j == i + 1 else None
    if dotted and not (nxt in ("am", "pm", "a", "p") or clock) and (prev := tokens[i - 1][0].lower() if i else ""):
        dotted = dotted if prev == "at" else None  # "at 9.30" is a time; a bare "9.30" may be any decimal
    if nxt in ("am", "pm", "a", "p") or clock or dotted:
        minutes = value * 60 if not dotted else float(int(dotted.group(1)) * 60 + int(dotted.group(2)))
        if clock:
            minutes += float(tokens[j + 1][0])
            j += 2
            end = tokens[j - 1][2]
        marker = re.match(r"\s*[aApP]\.?[mM]\b\.?", text[end:])
        if marker:
            pm = marker.group(0).strip()[0] in "pP"
            minutes += 720 if pm and minutes < 720 else -720 if not pm and 720 <= minutes < 780 else 0  # 12 am: 0:00
            end += len(marker.group(0))
            while j < len(tokens) and tokens[j][1] < end:
                j += 1
        if marker or clock or dotted:
            return _make("time", minutes, text, start, end), j
    if _code_suffix(tokens, i):  # "SEV-1", "COVID-19", "LVL-58213": the digits finish a code's name
        return _make("number", value, text, tokens[i - 2][1], tokens[j - 1][2], context=frozenset({stem(prev2)}),
                     identifier=True), j
    if _is_year(tokens, i, j, value):
        if nxt == "s" and tokens[j][1] == tokens[i][2] and value % 10 == 0:  # "the 1970s": any year of the decade
            return _make("date", 0.0, text, start, tokens[j][2], parts=(int(value), None, None, None),
                         upper=value + 9), j + 1
        return _make("date", 0.0, text, start, tokens[i][2], parts=(int(value), None, None, None)), j
    if (year := _year_before_dash(tokens, i)) and j == i + 1 and len(tokens[i][0]) == 2 and tokens[i][0].isdecimal():
        # "2007-08", "2007 -- 08": the range's second year, in the first one's century
        century = year // 100 * 100 + (100 if int(value) < year % 100 else 0)
        return _make("date", 0.0, text, start, tokens[i][2], parts=(century + int(value), None, None, None)), j
    if (prev[:1].isupper() and prev.isalpha() and len(prev) > 1 and prev.lower() not in STOPWORDS
            and prev.lower() not in _prepositions() and value < 1000
            and _name_like(tokens[i][0]) and not unit_size(nxt) and not _opening_verb(text, tokens, i - 1)
            and not _paired(tokens, j)) or prev.lower() in _name_labels():
        label = frozenset({stem(prev)})  # "Level 2 members", "version 4.0 adds": which one, not how many
        return _make("number", value, text, start, tokens[j - 1][2], context=label, identifier=True), j
    if prev == "." and prev2.lower() in ("no", "nos") and tokens[i - 2][2] == tokens[i - 1][1]:
        label = frozenset({"no"})  # "No. 8", "item no. 3": which one, not how many
        return _make("number", value, text, start, tokens[j - 1][2], context=label, identifier=True), j
    counted, k = counted_at(tokens, j, text=text)
    if counted and "." in tokens[i][0] and j == i + 1 and not unit_size(tokens[j][0]):
        counted = frozenset()  # "the 4.0 defaults", "4.1 queries": things are counted whole ("3.5 mi" is a length)
    if counted:
        return _make("count", value, text, start, tokens[k - 1][2], context=counted), j
    if tokens[i][0].lower() == "one" and j == i + 1:
        return None, j  # "one of", "no one": a pronoun, not a figure
    label = frozenset({stem(prev)}) if prev.isalpha() and prev.lower() not in STOPWORDS else frozenset()
    return _make("number", value, text, start, tokens[j - 1][2], context=label), j


def _in_compound(text: str, tokens: Sequence[Token], k: int) -> bool:
    """Whether the word at tokens[k] begins a hyphenated compound: "148 night-shift nurses" counts nurses, not
    nights ("a seven-year-old" is still an age)."""
    return (k + 2 < len(tokens) and tokens[k + 1][0] == "-" and tokens[k + 2][0].isalpha()
            and tokens[k][2] == tokens[k + 1][1] and not old_after(text, tokens[k][2]))


def _year_before_dash(tokens: Sequence[Token], i: int) -> int:
    """The year written right before token i across a dash ("2007-", "2007 --", "2007–"), else 0."""
    k = i - 1
    while k >= 0 and tokens[k][0] in ("-", "–", "—") and i - k <= 2:
        k -= 1
    if k == i - 1 or k < 0:
        return 0
    word = tokens[k][0]
    return int(word) if word.isdecimal() and len(word) == 4 and _is_year(tokens, k, k + 1, float(word)) else 0


def _code_suffix(tokens: Sequence[Token], i: int) -> bool:
    """Whether the number at tokens[i] is glued by a hyphen to a word with a capital letter before it ("SEV-1",
    "Covid-19"), which it names; not "mid-2026" or "a 2-3 day wait"."""
    if i < 2 or tokens[i - 1][0] != "-":
        return False
    word = tokens[i - 2][0]
    glued = tokens[i - 2][2] == tokens[i - 1][1] and tokens[i - 1][2] == tokens[i][1]
    return glued and word.isalpha() and any(c.isupper() for c in word)


def _is_year(tokens: Sequence[Token], i: int, j: int, value: float) -> bool:
    """Whether the four digits at tokens[i] are a year: 1900-2100 always; 1000-2199 after a word that introduces a
    year ("in 1846", "between 1792 and 1799") when nothing counted follows (tokens[j] on), nor a range's second number
    that counts ("between 1500 and 1600 people")."""
    word = tokens[i][0]
    if not (word.isdecimal() and len(word) == 4):
        return False
    if 1900 <= value <= 2100:
        return True
    prev = tokens[i - 1][0].lower() if i > 0 else ""
    if prev in APPROX and prev not in _year_cues() and i > 1:  # "carved in about 1790": the cue before "about"
        prev = tokens[i - 2][0].lower()
    if not (1000 <= value <= 2199 and prev in _year_cues()) or counted_at(tokens, j)[0]:
        return False
    ranged = j + 1 < len(tokens) and tokens[j][0].lower() in ("and", "to", "-", "–") and tokens[j + 1][0].isdecimal()
    return not (ranged and counted_at(tokens, j + 2)[0])


@cache
def _year_cues() -> frozenset[str]:
    return frozenset(lexicon().words("figures", "year_cues"))


def _make(kind: Kind, value: float, text: str, start: int, end: int, **fields: object) -> Quantity:
    end = max(end, start)
    fields.setdefault("number", value)
    words_before = text[max(0, start - 16):start].lower().split()
    approx = bool(fields.pop("approx", False)) or (bool(words_before) and words_before[-1] in APPROX)
    return Quantity(kind, value, text=text[start:end], start=start, end=end, bound=bound_at(text, start, end),
                    approx=approx, **fields)  # type: ignore[arg-type]


_DOTTED_CLOCK = re.compile(r"([01]?\d|2[0-3])\.([0-5]\d)")  # "9.30", "17.45"


@cache
def _times_of_day() -> tuple[dict[str, float], re.Pattern[str]]:
    """The times of day written as words (the lexicon's `numbers.toml` `times_of_day`: "noon", "midnight"), in
    minutes after midnight, and a pattern that finds them."""
    minutes = {}
    for word, clock in lexicon().table("numbers", "times_of_day").items():
        hours, mins = clock.split(":")
        minutes[word.lower()] = float(int(hours) * 60 + int(mins))
    return minutes, re.compile(rf"\b(?:{phrase_pattern(minutes)})\b", re.IGNORECASE)


@cache
def _measure_words(name: str) -> frozenset[str]:
    """Stems of a list of words after a measure: where it runs ("between"), or its dimension ("long")."""
    return frozenset(stem(w) for w in lexicon().words("figures", name))


@cache
def _rate_words() -> dict[str, str]:
    """The key-term stems of the words that make an amount a rate ("annual", "weekly") and the period they name; not
    a word whose stem is that of its period ("monthly" is compared as "month", which "the first month" is too)."""
    words = lexicon().table("figures", "rate_adverbs")
    return {term_stem(word): period for word, period in words.items() if term_stem(word) != stem(period)}


def _period(q: Quantity) -> str:
    """The period an amount of money is paid in: its own ("£30 a month"), else the one a rate word among the words
    around it names ("the annual fee is £360"), else none."""
    if q.per or q.kind != "money":
        return q.per
    named = {period for word, period in _rate_words().items() if word in q.about}
    return named.pop() if len(named) == 1 else ""


def _per_thing_and_period(a: Quantity, b: Quantity) -> bool:
    """Whether one amount is paid per a thing the other names, and the other per a period: a price per thing says
    nothing of the period it is paid in, so "£54 a year for each brown bin" is "£54 per bin for the subscription
    year"; "capped at £100 per order" is no "£6.40 for each day" (no order there)."""
    return any(x.per and x.per not in DURATIONS and y.per in DURATIONS and x.per in _about(y)
               for x, y in ((a, b), (b, a)))


def _per_year(a: Quantity, b: Quantity) -> tuple[float, float] | None:
    """Two amounts of money paid in different periods, as amounts a year ("£30 a month" and "£360 a year")."""
    pa, pb = _period(a), _period(b)
    if a.kind != "money" or b.kind != "money" or pa == pb or pa not in PER_YEAR or pb not in PER_YEAR:
        return None
    return a.value * PER_YEAR[pa], b.value * PER_YEAR[pb]


def _comparable(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities measure the same thing, so different values would conflict."""
    if a.kind == "percent" and b.kind == "percent" and (_names_other_measure(a, b) or _names_other_measure(b, a)):
        return False  # "80% LTV" is no interest rate ("a fixed 4.29%")
    if {a.kind, b.kind} == {"count", "number"}:
        # "serves 8 people" and "Serves 6": a bare number is a count of what the word before it does or has
        number, count = (a, b) if a.kind == "number" else (b, a)
        return not number.identifier and bool(number.context) and number.context <= count.about
    if a.kind != b.kind:
        return False
    if a.kind == "money":
        pa, pb = _period(a), _period(b)
        return (a.unit == b.unit or not a.unit or not b.unit) and (
            pa == pb or not pa or not pb or (pa in PER_YEAR and pb in PER_YEAR) or _per_thing_and_period(a, b))
    if a.kind == "count" and (pair := _measures(a, b)):
        # "26 miles" and "42 km" are both lengths; "110 miles long" and "8 mi east" are lengths of different things
        qualified_a, qualified_b = (q.context - {stem(measure_word(q.text))} - _measure_words("measure_route_words")
                                    for q in (a, b))
        return pair[0][0] == pair[1][0] and (not qualified_a or not qualified_b or bool(qualified_a & qualified_b))
    if a.kind in ("count", "ordinal"):
        return bool(a.context & b.context) or not (a.context or b.context)
    if a.kind == "number" and a.identifier != b.identifier and not (a.context or b.context):
        return False  # a line's numbering ("4. 2024-25 budget") is no count ("by four votes to two")
    if a.kind == "number":  # "version 4.0" is "Orbis 4.0" or a bare "in 4.0"; "Level 2" is no "Phase 2"
        return a.context == b.context or a.value == b.value and any(
            _generic_name(x) and not (y.context and y.context <= _label_stems()) for x, y in ((a, b), (b, a)))
    if a.kind == "frequency" and a.number != b.number:
        return max(a.value, b.value) <= 30 * max(min(a.value, b.value), 1e-9)
    if a.kind == "duration" and a.number != b.number and _unit_size(a) != _unit_size(b):
        # Another number in another unit measures something else ("8 hours of overtime" is no rival of
        # "2 days per month"), unless the two are close ("a week" against "4 business days").
        x, y = _days(a), _days(b)
        return max(x, y) <= 5 * max(min(x, y), 1e-9)
    if a.kind == "percent":  # "up 12 percentage points" is no rival of "52%", nor the same figure
        return (a.unit == POINTS) == (b.unit == POINTS)
    return True  # time, date and weekday always compare


def _equal(a: Quantity, b: Quantity) -> bool:
    """Same value (within rounding, or within a range the evidence gives); opposite bounds never match. A claim's
    bound holds for an exact figure of the evidence on its side: "more than half an hour" for "34 minutes", "less
    than $1 million" for "$181,674" (a bound in the evidence too is a limit of its own, compared as a value)."""
    if a.bound and b.bound and a.bound != b.bound:
        return False  # "at least 10 days" is not "up to 10 days"
    if b.upper is not None and not (a.ranged or a.bound) and b.value <= a.value <= b.upper:
        return True
    x, y = _per_year(a, b) or (a.value, b.value)  # "£30 a month" is "£360 a year"
    if measures := _measures(a, b):
        # units of measure: the same amount in any unit ("26 miles" is "41.8 km", not "26 km"), within the rounding of
        # a converted figure
        (d, m), (e, n) = measures
        if d != e:
            return False
        if _bound_holds(a, b):
            return m <= n if a.bound == "min" else n <= m
        return abs(m - n) <= (0.05 if a.approx or b.approx else 0.01) * max(m, n)
    if a.kind == "duration" and (a.unit == "month") != (b.unit == "month"):
        x, y = _days(a), _days(b)
        if _bound_holds(a, b):
            return x <= y if a.bound == "min" else y <= x
        return abs(x - y) <= 0.04 * max(x, y)  # 1 month vs 30 days: calendar-approximate
    if _bound_holds(a, b) and a.kind not in ("date", "weekday", "time"):
        return x <= y * (1 + 1e-9) if a.bound == "min" else y <= x * (1 + 1e-9)
    if a.kind == "frequency":
        return abs(x - y) <= 0.02 * max(x, y)  # 52 a year is "every week"
    if a.kind == "percent" and (_in_words(a) or _in_words(b)):
        return abs(x - y) <= 0.1 * max(abs(x), abs(y))  # "nearly a third" is 31%: a share in words is coarse
    if a.approx or b.approx:
        return abs(x - y) <= max(0.05 * max(abs(x), abs(y)), 1.0 if a.kind == "percent" else 0.0)
    return abs(x - y) <= 1e-6 * max(1.0, abs(x))


def _limits_overlap(a: Quantity, b: Quantity) -> bool:
    """Whether two opposite limits of other values can both hold ("at least 7 days left" and "within 14 days"): two
    limits of different things, not rival values (one above the other's upper limit is: "at least 20 days" and
    "within 14 days")."""
    if not (a.bound and b.bound and a.bound != b.bound) or a.kind in ("date", "weekday", "time"):
        return False
    low, high = (a, b) if a.bound == "min" else (b, a)
    measures = _measures(low, high)
    x, y = (measures[0][1], measures[1][1]) if measures else _per_year(low, high) or (low.value, high.value)
    return x < y


def _bound_holds(claim: Quantity, evidence: Quantity) -> bool:
    """Whether the claim's figure is a bound ("more than", "under", "at least") to test against an exact evidence
    figure, rather than a value to equal."""
    return bool(claim.bound) and not evidence.bound and evidence.upper is None and not claim.ranged


def _in_words(q: Quantity) -> bool:
    """A share written without digits ("a third of", "two in five"): as coarse as the words."""
    return not any(ch.isdecimal() for ch in q.text)


def _measures(a: Quantity, b: Quantity) -> tuple[tuple[str, float], tuple[str, float]] | None:
    """Each figure's unit of measure and its amount in base units, when both are counts written with different
    unit words that are units of measure ("26 miles", "26-kilometre"); None otherwise (the same word compares as
    written, and pint is not loaded for it)."""
    if a.kind not in LOOSE or b.kind not in LOOSE:
        return None
    word_a, word_b = measure_word(a.text), measure_word(b.text)
    if word_a == word_b or not (unit_a := unit_size(word_a)) or not (unit_b := unit_size(word_b)):
        return None
    return (unit_a[0], a.value * unit_a[1]), (unit_b[0], b.value * unit_b[1])


_ABBREVIATION_AFTER = re.compile(r"[ \t]+([A-Z]{2,5})\b")


def _measure_after(text: str, q: Quantity) -> str:
    """The abbreviation right after a share that names what it measures ("80% LTV", "4.5% APR"), lower-cased; not in
    a line written in capitals ("SAVE 20% TODAY")."""
    found = _ABBREVIATION_AFTER.match(text, q.end)
    before = re.findall(r"[A-Za-z]+", text[max(0, q.start - 30):q.start])
    return found.group(1).lower() if found and not (before and before[-1].isupper()) else ""


def _names_other_measure(a: Quantity, b: Quantity) -> bool:
    """Whether a share names what it measures by an abbreviation ("80% LTV") that the other neither names nor is
    about."""
    return bool(a.measure) and a.measure != b.measure and a.measure not in _about(b)


def _unit_size(q: Quantity) -> float:
    return round(q.value / q.number, 6) if q.number else 0.0


def _days(q: Quantity) -> float:
    return q.value * DAYS_PER_MONTH if q.unit == "month" else q.value


def _date_status(claim: Quantity, evidence: Quantity) -> Status:
    """matched when no part differs and the evidence is at least as specific; conflict when a part differs."""
    if claim.kind == "weekday":
        return "matched" if claim.parts == evidence.parts else "conflict"
    ours, theirs = _year_span(claim), _year_span(evidence)
    if ours or theirs:  # "the 1970s", "2023/24": a claim about it holds for any of its years
        first, last = ours or (claim.parts[0], claim.parts[0])
        if first is None or last is None:
            return "absent"
        start, end = theirs or (evidence.parts[0], evidence.parts[0])
        if start is None or end is None:
            return "absent"
        if not (start <= first and last <= end if theirs else first <= start <= last):
            return "conflict"
        # A year inside a decade the evidence gives is not said; one of the two years of "2023/24" is.
        return "absent" if theirs and not ours and end - start > 1 else "matched"
    pairs = list(zip(claim.parts, evidence.parts, strict=True))
    if any(c is not None and e is not None and c != e for c, e in pairs):
        return "conflict"
    return "absent" if any(c is not None and e is None for c, e in pairs) else "matched"


def _year_span(q: Quantity) -> tuple[int, int] | None:
    """(first, last year) of a date that spans years written as one ("the 1970s", "2023/24"), else None."""
    year = q.parts[0]
    return (year, int(q.upper)) if q.kind == "date" and q.upper is not None and not q.ranged and year else None


def _shared_unit(q: Quantity, e: Quantity) -> frozenset[str]:
    """The unit of measure both figures are written in, as an about-word ("km" of "every 5,000 km" and "every 500
    km"): it says what they are measured in, not that they are about the same thing."""
    if q.kind not in LOOSE or e.kind not in LOOSE:
        return frozenset()
    shared = q.about & e.about
    words = {w for w in (measure_word(q.text), measure_word(e.text)) if w and stem(w) in shared}
    return frozenset(stem(w) for w in words if unit_size(w))


def _anchored(q: Quantity, e: Quantity, anchor: int) -> bool:
    """Whether two figures are about the same thing: two shared context terms (fewer if there are fewer), a label
    (and one of them, or its table row's), or the same name ("Level 2"); bare figures with no words around them are
    taken to be about the same thing."""
    if q.identifier or not (q.about or e.about):
        return True
    if _other_field(q, e) or _other_row(q, e):
        return False
    ours, theirs = _about(q), _about(e)
    # a table cell's field is about its row too: "Frequency: Twice daily" in the apixaban row is apixaban's
    return bool(ours and theirs) and (anchor >= min(2, len(ours), len(theirs))
                                      or (e.labelled and (anchor >= 1 or bool(ours & e.row))))


def _other_field(q: Quantity, e: Quantity) -> bool:
    """Whether two figures are fields with different labels: a field is named by its whole label ("Date: 14 March"
    is neither "Closing date: 15 December" nor "End date: …", however alike the words)."""
    return q.labelled and e.labelled and _about(q) != _about(e)


def _labelled_otherwise(q: Quantity, e: Quantity) -> bool:
    """Whether an evidence figure is a field whose label names something the claim's figure is not about: "Date
    received: 04/03/2027" is no date of the samples "taken on 3 March" (a bare "Date:" names nothing but a date)."""
    named = _about(e) - _measure_words("date_dimensions")
    return e.labelled and bool(named) and not named & _about(q)


def _unnamed_column(q: Quantity, e: Quantity, evidence: Sequence[Quantity]) -> bool:
    """Whether an evidence figure is one of several cells of its kind in a table row, and the claim names the row but
    none of its column's words: "insures the buildings for £425,000" says which row, not whether the "Compulsory
    excess: £250" or the "Total excess: £350" of "Buildings – accidental damage (…)" is meant."""
    if not (e.labelled and e.row) or _about(q) & (_about(e) - e.row):
        return False
    return any(o is not e and o.row == e.row and o.labelled and o.kind == e.kind and o.about != e.about
               for o in evidence)


def _other_row(q: Quantity, e: Quantity) -> bool:
    """Whether an evidence figure is a cell of a table row the claim's figure is not about: the claim names something
    else and not the row ("the spring deadline" against "Autumn (Deadline: 15 September)"); a claim that names no
    row may be about any ("the deadline is …")."""
    return bool(e.row) and not e.row & q.about and bool(q.about - e.about - e.row)


def _about(q: Quantity) -> frozenset[str]:
    """What a figure is about; for a measure, without its unit and the words that name its dimension or route ("3.2
    kilometres long" is about the lane it names, not "kilometres" and "long"); for money, without "cost", "price".
    A figure named only by a move ("down from £131 million") is about nothing the move says: "fell" says how
    something changed, not what."""
    about = frozenset[str]() if q.about <= direction_stems() else q.about
    if q.kind == "money":
        return about - _measure_words("money_dimensions")
    word = measure_word(q.text)
    if q.kind not in LOOSE or not unit_size(word):
        return about
    return (about - _measure_words("measure_route_words") - _measure_words("measure_dimensions")
            - {term_stem(word)})


def compare_quantities(claim_qs: Iterable[Quantity], evidence_qs: Iterable[Quantity]) -> Agreement:
    """For each claim quantity: matched, in conflict with an evidence figure about the same thing, or absent.

    A conflict needs the two figures to be about the same thing (shared context terms or a label): "20 minutes"
    to fill in a form does not contradict "within 14 days" of moving. An equal figure that the evidence
    attaches to something else, while another figure sits with the claim's words, is a conflict too.
    """
    evidence, claims = list(evidence_qs), list(claim_qs)
    dates = sum(q.kind == "date" for q in claims)
    said = frozenset().union(*(c.about for c in claims))
    named_rows = {e.row for e in evidence if e.row and e.row <= said}  # rows of a table the claim names in full
    results: list[QuantityMatch] = []
    for q in claims:
        def anchor(e: Quantity, q: Quantity = q) -> int:
            shared = len(_about(q) & _about(e) - _shared_unit(q, e))
            if not shared and q.difference and e.difference == q.difference and _about(q) <= _comparative_stems():
                return 1  # "about 25% faster", nothing else around it, is what "40% faster" is about
            return shared

        peers = [e for e in evidence if _comparable(q, e)]
        limits = [e for e in peers if q.bound and e.bound == q.bound and _anchored(q, e, anchor(e))]
        if limits:
            # The evidence states the limit itself ("up to a maximum of 5%"): the claim's limit ("capped at 10%") is
            # that value or another one, and an exact figure elsewhere in the quote ("0.5% a week") does not meet it.
            peers = limits
        groups: dict[Quantity, bool | None] = {}
        if is_age(q) and not (q.bound or q.ranged):
            # "an eight-year-old" is in "children under 12"; a group it is not in says nothing of it (no rival)
            groups = {e: in_group(q, e) for e in peers}
            peers = [e for e in peers if groups[e] is not False]
        spans: dict[Quantity, str] = {}
        other_end: Quantity | None = None
        if q.kind in ("date", "weekday"):
            status, spans, other_end = _date_statuses(q, peers, evidence)
            equal = [e for e in peers if status[e] == "matched"]
            vague = [e for e in peers if status[e] == "absent"]
        else:
            # (a figure inside the claim's bound but not its value is its match only when about the same thing: "a
            # day ahead" holds no "up to six months" of freezing)
            equal = [e for e in peers if (_equal(q, e) and (not _bound_holds(q, e) or _equal(replace(q, bound=""), e)
                                                             or _anchored(q, e, anchor(e)))) or groups.get(e)]
            # an exact share on the side of half that the evidence names in words ("62%" and "most of") is neither
            # stated nor ruled out; a limit the evidence gives in figures ("at least $5 million") is the claim's rival
            vague = [e for e in peers if e not in equal and _inside_limit(q, e)]
        others = [e for e in peers if e not in equal and e not in vague and _anchored(q, e, anchor(e))
                  and not _unnamed_column(q, e, evidence)
                  and e.difference == q.difference  # "£40 more" is no rival of "£900", nor "rose by 5%" of "12%"
                  and not (q.since and e.since and not q.since & e.since)  # "52 minutes after impact began" and
                  # "27 minutes after escalation" are counted from two moments
                  and not (q.kind == "weekday" and q.ranged and not e.ranged)  # "Monday to Friday", "Saturdays"
                  and not _limits_overlap(q, e)]
        # a figure the claim gives for something else is no rival ("from 30% to 20%" against "from 30% to 25%": the
        # evidence's 30% is the claim's 30%, its 25% the rival of 20%)
        rivals = [e for e in others if q.kind in ("date", "weekday") or not _said_by_another(e, q, claims)]
        if q.baseline:  # the date of what the claim compares with ("compared with their 2023 agreement") is the
            rivals = [e for e in rivals if e.baseline]  # rival of the date of what the quote compares with only
        # of two rivals as close, the one in the claim's figure's role: "to 20%" against "from 30% to 25%" is 25%
        rival = other_end or max(rivals, key=lambda e: (anchor(e), e.bound == q.bound), default=None)
        if (rival is None and not equal and not vague and q.kind == "date" and len(peers) == 1 and dates == 1
                and not peers[0].baseline and not q.baseline and not _other_field(q, peers[0])
                and not _labelled_otherwise(q, peers[0])):
            # The only date on each side ("close for eleven weeks starting on 3 May" against "from 3 March"): the
            # words around a second figure of a clause may not name its subject, but there is nothing else it is.
            rival = peers[0]
        if named_rows and (elsewhere := [e for e in equal if e.row and e.row not in named_rows]):
            # a cell of a row the claim does not name, where it names another row of the table, is that other row's
            # figure: "Young people ... are admitted free" is not "Child (under 12) (Price: Free)" but the price in
            # "Young person (aged 12-17) (Price: £6.00)"
            equal = [e for e in equal if e not in elsewhere]
            if not equal and rival is None:
                rival = next((e for e in peers if e.row in named_rows and e.labelled
                              and _about(e) == _about(elsewhere[0])), None)
        if not equal and not limits and rival is None and _amount(q):  # "12 hires" and "12 people"; not "two
            # sheds" and "two inspections" when the evidence counts the sheds too ("one shed")
            equal = [e for e in evidence if _amount(e) and _equal(q, e) and (
                is_measure(e) == is_measure(q) or _equal(replace(q, bound=""), e))]  # ("up to 3.6 metres" is no
            # count of "one greenhouse")
        if equal:
            best = max(equal, key=anchor)
            if (rival is not None and anchor(rival) >= 2 and q.about & rival.about > q.about & best.about
                    and not _said_by_another(rival, q, claims) and not _rival_of_another(rival, q, claims, evidence)
                    and not (q.kind == "date" and q.ranged and best.ranged)):
                # (an end of a range the evidence gives too is that range's: "October to December 2026" is no 2025)
                # The evidence attaches the claim's figure to something else, and another figure to everything the
                # claim says about it: "sales and marketing at $4.2 million" against "sales and marketing: $5.1m".
                results.append(QuantityMatch(q, "conflict", rival, anchor(rival)))
            else:
                in_words = group_working(q, best) if groups.get(best) else spans.get(best, "")
                if not in_words and _per_year(q, best) is not None:  # "£360 (a year) is £30 a month"
                    in_words = f"{best.text}{'' if best.per else ' a ' + _period(best)} is {q.text}"
                results.append(QuantityMatch(q, "matched", best, anchor(best), derivation=in_words))
        elif ((working := derivation(q, evidence)) and not _in_place_of(q, rival, working[1], claims)
              and not _stated_otherwise(q, evidence, working[1])):
            results.append(QuantityMatch(q, "matched", derivation=working[0], sources=working[1]))
        elif working and rival is None and len(stated := _stated_otherwise(q, evidence, working[1])) == 1:
            results.append(QuantityMatch(q, "conflict", stated[0], anchor(stated[0])))  # its one rival there
        elif rival is not None and (q.kind in ("date", "weekday") or not _said_by_another(rival, q, claims)):
            results.append(QuantityMatch(q, "conflict", rival, anchor(rival)))
        else:
            results.append(QuantityMatch(q, "absent", vague[0] if vague else None))
    return Agreement(tuple(for_its_year(m, claims, evidence) for m in results))


def _stated_otherwise(q: Quantity, evidence: Sequence[Quantity], sources: tuple[Quantity, ...]) -> list[Quantity]:
    """The figures of the claim's kind and unit that the evidence states beside those the claim's figure would be
    worked out from, none of them the claim's: "four nights" is no span of "8 March to 11 March" in a sentence that
    says "three nights". Durations only: a span worked out from dates is what a stated duration says outright."""
    if q.kind != "duration":
        return []
    return [e for e in evidence if e not in sources and e.kind == q.kind and e.unit == q.unit and not _equal(q, e)]


def _in_place_of(q: Quantity, rival: Quantity | None, sources: tuple[Quantity, ...], claims: list[Quantity]) -> bool:
    """Whether a figure worked out from two evidence figures (their difference or total) stands where one of them
    did, beside the other: "28 or 56 tablets" against "28 or 84 tablets" is no 84 − 28 but a changed figure, unless
    the claim says it is a difference ("56 more tablets"); "up $3.5 million" of two totals the claim leaves out is
    one."""
    if rival is None or q.difference or rival not in sources or any(
            e.kind != q.kind and not (e.kind in LOOSE and q.kind in LOOSE) for e in sources):  # ("2", "2 issues")
        return False
    other = next(e for e in sources if e is not rival)
    return any(c is not q and _equal(c, other) for c in claims)


def for_its_year(m: QuantityMatch, claims: Sequence[Quantity], evidence: Sequence[Quantity]) -> QuantityMatch:
    """A claim figure found in a table row under another year's column than the year the claim gives it is in
    conflict with the figure in that year's column: "£398,100 in 2025" against "Rent income (2025: £412,300; 2024:
    £398,100)"."""
    e = m.evidence
    if (m.status != "matched" or e is None or not e.row or m.claim.kind in ("date", "weekday")
            or m.claim.value != e.value):
        return m  # only the claim's own figure, as written, found in another year's column
    theirs, ours = _column_period(e, evidence), _nearest_period(m.claim, claims)
    if theirs is None or ours is None or theirs == ours:
        return _for_its_column(m, claims, evidence)
    rival = next((r for r in evidence if r.row == e.row and r.kind == e.kind and r.unit == e.unit
                  and _column_period(r, evidence) == ours), None)
    return m if rival is None else QuantityMatch(m.claim, "conflict", rival, m.anchor)


def _for_its_column(m: QuantityMatch, claims: Sequence[Quantity], evidence: Sequence[Quantity]) -> QuantityMatch:
    """A claim figure found in a table row under a column named by another figure than the one the claim gives it
    is in conflict with the cell of the claim's column: "six people in the 20 mg group" against "Stopped (Dose 20
    mg: 3 people; Dose 40 mg: 6 people)"."""
    e = m.evidence
    if e is None or (named := _column_figure(e, evidence)) is None:
        return m
    said = [c for c in claims if c is not m.claim and c.kind == named.kind and c.unit == named.unit]
    if not said or any(c.value == named.value for c in said):
        return m
    rival = next((r for r in evidence if r is not e and r.row == e.row and r.kind == e.kind
                  and r.unit == e.unit and (col := _column_figure(r, evidence)) is not None
                  and any(c.value == col.value for c in said)), None)
    return m if rival is None else QuantityMatch(m.claim, "conflict", rival, m.anchor)


def _column_figure(e: Quantity, evidence: Sequence[Quantity]) -> Quantity | None:
    """The figure that names a table cell's column ("40 mg" of "Dose 40 mg: 6 people"), if any."""
    if not e.labelled:
        return None
    return next((d for d in evidence if d is not e and not d.labelled and d.kind not in ("date", "weekday")
                 and 0 <= e.start - d.end <= 3), None)


def _period_parts(q: Quantity) -> tuple[int | None, ...] | None:
    """A date that names a period, not a day ("2024", "January 2026"), as its parts; None for a day or a span."""
    return q.parts if q.kind == "date" and q.parts[0] and q.parts[3] is None and q.upper is None else None


def _column_period(e: Quantity, evidence: Sequence[Quantity]) -> tuple[int | None, ...] | None:
    """The period (a year or a month) a table cell's figure is given for: the one that labels it ("2024: £398,100")."""
    return next((period for d in evidence if (period := _period_parts(d)) and 0 <= e.start - d.end <= 3), None)


def _nearest_period(q: Quantity, claims: Sequence[Quantity]) -> tuple[int | None, ...] | None:
    """The period a claim gives a figure for: the year or month nearest to it, of two as near the one after it ("from
    £398,100 in 2024 to £412,300 in 2025")."""
    gaps = [(max(d.start - q.end, q.start - d.end), d.start < q.start, period)
            for d in claims if (period := _period_parts(d))]
    return min(gaps, key=lambda gap: gap[:2])[2] if gaps else None


def _date_statuses(
    q: Quantity, peers: list[Quantity], evidence: Sequence[Quantity]
) -> tuple[dict[Quantity, Status], dict[Quantity, str], Quantity | None]:
    """Each comparable evidence date's status for a claim date, read with the ranges the evidence gives: (statuses,
    the working of a range the date is inside, the end of a range that is the claim's date when it names the other)."""
    status: dict[Quantity, Status] = {e: "absent" if _other_part_of_day(q, e) else _date_status(q, e) for e in peers}
    spans: dict[Quantity, str] = {}
    other_end = None
    for first, last in _date_ranges(evidence):  # "closed in December" is in "from November to February"
        inside = None if q.ranged or _other_part_of_day(q, first) else _within_range(q, first, last)
        if inside and first in peers:
            status[first], status[last] = "matched", "absent"
            spans[first] = f"{q.text} is in {first.text} to {last.text}"
        elif (first in peers and last in peers and not q.ranged
              and (ends := _wrong_end(q, first, last, status)) is not None):
            # (a date at one end of a range the claim gives itself is placed by that range: "lasts twelve months from
            # 1 February to 31 January" puts 1 February at the start, whatever "lasts" seems to say)
            # "closed in 1952" against "operated from 1952 to 1996": the date of the other end is the claim's
            status[ends[0]], status[ends[1]], other_end = "absent", "conflict", ends[1]
    return status, spans, other_end


@cache
def _day_part_after() -> re.Pattern[str]:
    """A part of the day after a weekday, or after the list of days it ends ("Tuesday and Thursday mornings")."""
    parts = lexicon().words("calendar", "day_parts")
    return re.compile(rf"(?:(?:\s*,\s*|\s+(?:and|or|&)\s+)\w+)*\s+({phrase_pattern(parts)})\b", re.IGNORECASE)


def _in_part_of_day(text: str, q: Quantity) -> Quantity:
    """A weekday with the part of the day written after it as its context ("weekday afternoons": afternoon)."""
    found = _day_part_after().match(text, q.end)
    return replace(q, context=frozenset({stem(found.group(1))})) if found else q


def _other_part_of_day(claim: Quantity, evidence: Quantity) -> bool:
    """Whether two weekdays are in different parts of the day ("Tuesday mornings", "weekday afternoons")."""
    return claim.kind == "weekday" and bool(claim.context and evidence.context) and not claim.context & evidence.context


@cache
def _week_part_words() -> tuple[re.Pattern[str], dict[str, tuple[int, int]]]:
    table = lexicon().table("calendar", "week_parts")
    ends = {word: tuple(WEEKDAYS.index(day) for day in days.split()) for word, days in table.items()}
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, table))})\b", re.IGNORECASE), ends  # type: ignore[return-value]


def _week_parts(text: str) -> list[Quantity]:
    """A part of the week in words as the range of weekdays it is ("at weekends": Saturday to Sunday), so that a day
    is found inside it ("on a Saturday"); `calendar.toml` `week_parts`."""
    pattern, ends = _week_part_words()
    out = []
    for m in pattern.finditer(text):
        first, last = ends[m.group(0).lower()]
        out += [Quantity("weekday", float(day), parts=(None, None, None, day), text=m.group(0), start=m.start(),
                         end=m.end(), upper=upper, ranged=True) for day, upper in ((first, float(last)), (last, None))]
    return out


def _date_ranges(evidence: Sequence[Quantity]) -> list[tuple[Quantity, Quantity]]:
    """The evidence's date ranges: a date that starts a range ("from November") with the date that ends it."""
    return [(a, b) for a, b in zip(evidence, evidence[1:], strict=False)
            if a.kind == b.kind and a.kind in ("date", "weekday") and a.ranged and b.ranged and a.upper is not None]


@cache
def _range_end_words() -> tuple[frozenset[str], frozenset[str]]:
    """Stems of the words that put a date at a range's start, and at its end (`figures.toml`)."""
    lex = lexicon()
    return (frozenset(stem(w) for w in lex.words("figures", "range_start_words")),
            frozenset(stem(w) for w in lex.words("figures", "range_end_words")))


def _wrong_end(
    claim: Quantity, first: Quantity, last: Quantity, status: dict[Quantity, Status]
) -> tuple[Quantity, Quantity] | None:
    """(the end of an evidence range the claim's date equals, the other end) when the claim puts its date at the other
    end ("closed in 1952" against "operated from 1952 to 1996"), unless the range itself is about what the claim says
    ("closed from November to February")."""
    starts, ends = _range_end_words()
    said = claim.about - first.about - last.about  # what the claim says of its date that the range does not
    if status.get(first) == "matched" and said & ends and not said & starts:
        return first, last
    if status.get(last) == "matched" and said & starts and not said & ends:
        return last, first
    return None


def _within_range(claim: Quantity, first: Quantity, last: Quantity) -> bool | None:
    """Whether a claim date falls inside a range of the evidence, at the claim's own precision (a year in a range of
    years, a month or a day in a range of months or days, across the new year when the range is: "from November to
    February"); None when the range is not given that precisely, or when the claim's date is one of its ends (the
    ends are compared as dates: "closed in 1952" against "1952 to 1996" is about the start)."""
    year, _, month, day = claim.parts
    (y1, _, m1, d1), (y2, _, m2, d2) = first.parts, last.parts
    if claim.kind == "weekday":  # "on Wednesdays" is in "Tuesday to Saturday"; "Friday to Monday" spans the weekend
        if day is None or d1 is None or d2 is None or day in (d1, d2):
            return None
        return d1 < day < d2 if d1 <= d2 else (day > d1 or day < d2)
    if month is None:
        return None if year is None or y1 is None or y2 is None or year in (y1, y2) else y1 < year < y2
    if m1 is None or m2 is None:
        return None
    key, low, high = (0, month, day or 0), (0, m1, d1 or 0 if day else 0), (0, m2, d2 or 31 if day else 0)
    if year is not None and y1 is not None and y2 is not None:
        key, low, high = (year, *key[1:]), (y1, *low[1:]), (y2, *high[1:])
    elif year is not None or y1 is not None and y2 is not None and y1 != y2:
        return None  # a year on one side only, or a range over several years against a day of no year
    if key in (low, high):
        return None
    return low < key < high if low <= high else (key > low or key < high)


def _inside_limit(claim: Quantity, evidence: Quantity) -> bool:
    """Whether an exact claim share lies on the side of half that the evidence names in words ("62%" and "most of"):
    the evidence allows it without stating it."""
    if claim.bound or claim.ranged or evidence.kind != "percent" or not _in_words(evidence):
        return False
    if evidence.bound == "min":
        return claim.value >= evidence.value
    return evidence.bound == "max" and claim.value <= evidence.value


def _amount(q: Quantity) -> bool:
    """A count or number that may match an equal one whatever it counts: an amount (`is_amount`: "more than
    fivefold" is no count of 212) that is no age ("a seven-year-old" is not "7 bells")."""
    return is_amount(q) and not is_age(q)


def _rival_of_another(e: Quantity, q: Quantity, claims: Sequence[Quantity], evidence: Sequence[Quantity]) -> bool:
    """Whether another figure of the claim, one the evidence does not state, is of evidence figure `e`'s kind: `e` is
    then that figure's counterpart ("for the following fortnight" against "for the next 7 days"), not a sign that the
    evidence gives the claim's figure `q` ("a 30-day window", "any 30-day period") to something else."""
    return any(c is not q and _comparable(c, e) and not any(_comparable(c, x) and _equal(c, x) for x in evidence)
               for c in claims)


def _said_by_another(e: Quantity, q: Quantity, claims: Sequence[Quantity]) -> bool:
    """Whether another figure of the claim is evidence figure `e` ("in 2025 than in 2024": the evidence's 2025 is
    the claim's 2025, not a rival of its 2024)."""
    return any(c is not q and _comparable(c, e) and (_date_status(c, e) == "matched" if c.kind in ("date", "weekday")
                                                     else _equal(c, e) and not _crossed(q, c, e)) for c in claims)


def _crossed(q: Quantity, c: Quantity, e: Quantity) -> bool:
    """Whether the claim gives evidence figure `e`'s value (as `c`) to something else than `e` is about, while `e` is
    about what the claim's figure `q` is: "the tenant gives two months' notice, the landlord one month's" against
    "the Tenant must give one month's notice; the Landlord two months'"."""
    if c.value != e.value:
        return False  # "below 99.0%" holds for the evidence's 10% without giving it to anything
    own, theirs = c.about - q.about, q.about - c.about
    return bool(own) and not own & e.about and bool(theirs & e.about)


_CHANGE = re.compile(
    r"\bfrom\s+[$€£]?\s?(\d[\d,]*(?:\.\d+)?)(?!\.?\d)\s*(?:%|[A-Za-z°]+)?(?:\s+(?:in|during)\s+\d{4}(?:[/–-]\d{2,4})?)?"
    r"\s+to\s+[$€£]?\s?(\d[\d,]*(?:\.\d+)?)(?!\.?\d)")


def changes(text: str) -> list[tuple[float, float, str]]:
    """The changes a text states as "from X to Y" (values, as written): "raised from 200 to 500" -> (200, 500). Pure."""
    out = []
    for m in _CHANGE.finditer(text):
        try:
            out.append((float(m.group(1).replace(",", "")), float(m.group(2).replace(",", "")), m.group(0)))
        except ValueError:
            continue
    return out


def reversed_change(claim: str, quote: str) -> tuple[str, str] | None:
    """(quote's, claim's) wording of a change the two state in opposite directions: the claim's "from 7 to 14 days"
    against the quote's "from 14 to 7" (and the quote states no change from 7 to 14). Pure."""
    theirs = changes(quote)
    for a, b, said in changes(claim):
        if a == b or any((x, y) == (a, b) for x, y, _ in theirs):
            continue
        for x, y, written in theirs:
            if (x, y) == (b, a):
                return written, said
        # "rose from £72,300 to £64,100" against a quote that gives both figures ("Surplus (2025: £64,100; 2024:
        # £72,300)"): the claim's own figures go the other way
        said_way = _direction(claim[:claim.find(said)])
        if said_way is not None and said_way != (b > a) and {a, b} <= {q.number for q in extract_quantities(quote)}:
            way = _direction_word(b > a)
            return f"{way} from {_plain(a)} to {_plain(b)}", f"{_direction_word(said_way)} {said}"
    return _compared_the_other_way(claim, quote) or _than_the_other_way(claim, quote)


THAN = re.compile(r"\bthan\b", re.IGNORECASE)  # a comparison of two things ("A did better than B")
_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)|\n|,\s")
Comparison = tuple[int, int, frozenset[str], frozenset[str], str]  # group, +1 more / -1 less, subject, object, wording


def _items(text: str) -> frozenset[str]:
    """What a side of a comparison names: its key terms and its figures ("20 mg")."""
    return frozenset(key_terms(text)) | {f"{q.kind}:{q.value:g}:{q.unit}" for q in extract_quantities(text)}


@cache
def _comparative_sides() -> tuple[tuple[int, int, frozenset[str]], ...]:
    """(group, +1 more / -1 less, words) of each group of comparatives (contrasts.toml `comparatives_more`,
    `comparatives_less`)."""
    lex = lexicon()
    return (*((k, 1, frozenset(g)) for k, g in enumerate(lex.groups("contrasts", "comparatives_more"))),
            *((k, -1, frozenset(g)) for k, g in enumerate(lex.groups("contrasts", "comparatives_less"))))


def _comparisons(text: str) -> list[Comparison]:
    """Each "X <comparative> ... than Y" of a text that compares two things (not a bound: "more than 14 days"), with
    the comparative's group and side (contrasts.toml `comparatives_more`, `comparatives_less`)."""
    sides, negations = _comparative_sides(), lexicon().word_set("negation", "cues")
    out: list[Comparison] = []
    for m in THAN.finditer(text):
        start = max((c.end() for c in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
        end = next((c.start() for c in _CLAUSE_END.finditer(text, m.end())), len(text))
        before, after = text[start:m.start()], text[m.end():end]
        words = re.findall(r"[a-z]+", before.lower())
        at = next((i for i in range(len(words) - 1, max(-1, len(words) - 4), -1)
                   if any(words[i] in g for _, _, g in sides)), None)
        if at is None or negations & set(words[max(0, at - 2):at]):  # "no better than": no comparison
            continue
        if any(q.start < 4 for q in extract_quantities(after)):
            continue  # "more than 14 days": a bound
        group, side = next((k, d) for k, d, g in sides if words[at] in g)
        cut = [w.start() for w in re.finditer(r"[a-z]+", before.lower())][at]
        subject, obj = _items(before[:cut]), _items(after)
        out.append((group, side, subject - obj, obj - subject, text[start:end].strip()))
    return out


def _than_the_other_way(claim: str, quote: str) -> tuple[str, str] | None:
    """(quote's, claim's) wording when both compare the same two things with "than" and say opposite things: "The
    20 mg dose worked better than the 40 mg dose" against "The higher dose (40 mg) helped more people than the lower
    dose (20 mg)" (the two swapped), or "A is cheaper than B" against "A is dearer than B" (the comparative turned).
    Pure."""
    for group, side, ours, theirs, said in _comparisons(claim):
        for q_group, q_side, q_ours, q_theirs, written in _comparisons(quote):
            if group != q_group or not (ours and theirs and q_ours and q_theirs):
                continue
            across, along = len(ours & q_theirs) + len(theirs & q_ours), len(ours & q_ours) + len(theirs & q_theirs)
            swapped = bool(ours & q_theirs and theirs & q_ours) and across > along
            kept = bool(ours & q_ours and theirs & q_theirs) and along > across
            if (swapped and side == q_side) or (kept and side != q_side):
                return written, said
    return None


def _measured(q: Quantity) -> bool:
    return q.kind in ("money", "percent", "count", "number", "duration") and not q.identifier


_COMPARED = re.compile(r"\b(?:compared\s+(?:with|to)|versus|vs\.)\s", re.IGNORECASE)


def _compared_the_other_way(claim: str, quote: str) -> tuple[str, str] | None:
    """(quote's, claim's) wording when a claim says, without figures, that something rose or fell against a
    baseline ("Nitrate levels fell compared with the March 2026 report") and the quote gives the figure and the one it
    is compared with the other way round ("around 38 mg/L …, compared with 35.6 mg/L in our March 2026 report")."""
    words = set(re.findall(r"[a-z]+", claim.lower()))
    lex = lexicon()
    up, down = bool(words & lex.word_set("figures", "rising")), bool(words & lex.word_set("figures", "falling"))
    if up == down or any(q.kind not in ("date", "weekday") for q in extract_quantities(claim)):
        return None
    found = extract_quantities(quote)
    terms = set(key_terms(claim))
    for cue in _COMPARED.finditer(quote):
        sentence_start = max(quote.rfind(". ", 0, cue.start()), quote.rfind("\n\n", 0, cue.start()))
        before = [q for q in found if sentence_start < q.start and q.end <= cue.start() and _measured(q)]
        after = [q for q in found if q.start >= cue.end() and _measured(q)]
        if not after or not (rivals := [q for q in before if _comparable(q, after[0])]):
            continue
        now, then = rivals[-1], after[0]  # the nearest figure before of the same kind and unit: what is compared
        if now.value == then.value or not terms & now.about:
            continue
        if (now.value > then.value) != up:
            return f"{now.text}, compared with {then.text}", ("a rise" if up else "a fall")
    return None


def _direction(before: str) -> bool | None:
    """Whether the words right before a "from X to Y" say it rose (True) or fell (False); None when they say neither."""
    words = re.findall(r"[a-z]+", before.lower())[-4:]
    lex = lexicon()
    if any(w in lex.word_set("figures", "rising") for w in words):
        return True
    if any(w in lex.word_set("figures", "falling") for w in words):
        return False
    return None


def _direction_word(up: bool) -> str:
    return "a rise" if up else "a fall"


def _plain(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,}"

