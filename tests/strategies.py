"""Hypothesis strategies for text that users really paste: business prose laced with the characters that break parsers.

Ordinary words and figures are mixed on purpose with superscripts, vulgar fractions, other scripts' digits,
bidi and other format characters, combining marks, emoji, NUL and control characters, currency signs, very long
tokens and digit runs, so the number, date and sentence readers meet them in the places they look for figures.
"""

from __future__ import annotations

from hypothesis import strategies as st

# Characters that `str.isdigit()` or `\d` treats as digits although they are not ASCII: superscripts, fractions,
# circled digits, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, full-width and mathematical digits.
ODD_DIGITS = "²³¹⁰⁴⁹₀₂½¾⅓⅛①⑩٠١٢٣٤٥٦٧٨٩۳۴०१२३४५६७८९৩๓０１２３４５６７８９𝟎𝟏𝟗"
FORMAT_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u2060\ufeff\u00ad"
COMBINING = "\u0301\u0308\u0327\u20dd\u0336"
EMOJI = ["🎉", "👍🏽", "👩‍💻", "🇺🇸", "💶", "1️⃣", "©️"]
CONTROLS = "\x00\x01\x07\x08\x0b\x0c\x1b\x7f\x85\u2028\u2029\r\t"
SIGNS = "$%/-–—€£¥¢₹₩₽₿~:.,;|#*_()[]'’\"“”"

WORDS = [
    "the", "fee", "is", "cap", "per", "night", "a", "an", "of", "at", "least", "up", "to", "within", "no", "not",
    "never", "without", "days", "day", "business", "hours", "week", "month", "months", "year", "annually",
    "quarterly", "twice", "every", "each", "percent", "per", "cent", "million", "bn", "k", "m", "mn", "dozen",
    "half", "third", "quarter", "one", "two", "twenty-five", "hundred", "thousand", "and", "or", "more", "less",
    "than", "CEO", "CFO", "Finance", "Legal", "Tier", "Severity", "Q3", "FY", "fiscal", "March", "May", "June",
    "Monday", "Effective", "date", "Issued", "on", "approved", "employees", "must", "shall", "may", "refund",
    "hotel", "USD", "EUR", "cents", "am", "pm", "st", "nd", "rd", "th", "e.g.", "Inc.", "Dr.", "m²", "km²", "m³",
    "sq", "ft", "#", "-", "*", "1.", "[cite:abc123def456]", "[cite:a, b]", "[cite:", "]"
]


def _digit_run(alphabet: str, max_size: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, min_size=1, max_size=max_size)


# A figure as written: ASCII digits, odd digits or a mix, with separators and signs around it.
numbers = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(str),
    st.floats(min_value=0, max_value=1e9, allow_nan=False).map(lambda x: f"{x:,.2f}"),
    _digit_run("0123456789" + ODD_DIGITS, 8),
    st.tuples(_digit_run("0123456789", 4), st.sampled_from(ODD_DIGITS)).map("".join),
    st.tuples(st.sampled_from(ODD_DIGITS), _digit_run("0123456789", 4)).map("".join),
    st.builds(lambda a, sep, b: f"{a}{sep}{b}", _digit_run("0123456789" + ODD_DIGITS, 4),
              st.sampled_from(["/", "-", ".", ":", ",", "–"]), _digit_run("0123456789" + ODD_DIGITS, 4)),
)
# Rare but deadly: one token of 10,000 characters, or a digit run longer than int() converts (4,300 digits).
huge = st.sampled_from(["9" * 5000, "1" * 10_000, "a" * 10_000, "²" * 3000, "1," * 3000, "$" * 2000,
                        "x" * 9_000 + "²", "٣" * 4500])

pieces = st.one_of(
    st.sampled_from(WORDS),
    numbers,
    st.sampled_from(list(ODD_DIGITS)),
    st.sampled_from(list(FORMAT_MARKS)),
    st.sampled_from(list(COMBINING)),
    st.sampled_from(EMOJI),
    st.sampled_from(list(CONTROLS)),
    st.sampled_from(list(SIGNS)),
    st.text(max_size=6),
)
_SEPARATORS = st.sampled_from([" ", " ", " ", "", "\n", "\n\n", ", ", ". ", " | ", "\t", ": "])


@st.composite
def nasty_text(draw: st.DrawFn, max_pieces: int = 40, huge_tokens: bool = True) -> str:
    """Words and figures joined by spaces, newlines and punctuation, with odd characters among them.

    One time in ten a huge token goes in too, unless `huge_tokens` is off (a claim is one sentence: comparing
    thousands of its figures with thousands of the evidence's is slow, not wrong).
    """
    parts = draw(st.lists(pieces, max_size=max_pieces))
    if huge_tokens and draw(st.integers(0, 9)) == 0:
        parts.insert(draw(st.integers(0, len(parts))), draw(huge))
    out = []
    for part in parts:
        out.append(part)
        out.append(draw(_SEPARATORS))
    return "".join(out)


# What every reader is run over: the built mixes most of the time, and anything at all the rest.
# Any digit, number, format, mark, symbol, space or control character Unicode has, mixed with ASCII digits and words.
_ODD_CATEGORIES = st.characters(categories=["Nd", "Nl", "No", "Cf", "Cc", "Mn", "Me", "Sc", "So", "Zs", "Zl", "Zp"])
odd_text = st.text(alphabet=st.one_of(_ODD_CATEGORIES, st.sampled_from("0123456789 .,:/-$%abcdmyQ")), max_size=60)
texts = st.one_of(nasty_text(), nasty_text(), odd_text, st.text())
# A claim: one sentence's worth of the same mixes, without the huge tokens.
claim_text = st.one_of(nasty_text(max_pieces=20, huge_tokens=False), odd_text, st.text(max_size=200))


_LABELS = st.sampled_from(["Effective date", "Issued on", "Date", "Last reviewed", "Published", "Updated", "dated"])
_MONTHS = st.sampled_from(["March", "Sept.", "may", "JUNE", "dec", "Febuary", "Oct"])
_DAY_OR_YEAR = st.one_of(numbers, _digit_run("0123456789", 4), _digit_run("0123456789" + ODD_DIGITS, 4))
# A date as written, right or wrong: ISO, numeric, with a month name, by quarter or fiscal year.
date_like = st.one_of(
    st.builds(lambda y, m, d, sep: f"{y}{sep}{m}{sep}{d}", _DAY_OR_YEAR, _DAY_OR_YEAR, _DAY_OR_YEAR,
              st.sampled_from(["-", "/", "."])),
    st.builds(lambda d, m, y: f"{d} {m}, {y}", _DAY_OR_YEAR, _MONTHS, _DAY_OR_YEAR),
    st.builds(lambda m, d, y: f"{m} {d}th {y}", _MONTHS, _DAY_OR_YEAR, _DAY_OR_YEAR),
    st.builds(lambda q, y: f"Q{q} FY'{y}", _DAY_OR_YEAR, _DAY_OR_YEAR),
    st.builds(lambda y: f"fiscal year {y}", _DAY_OR_YEAR),
)
# A labelled date line somewhere in nasty text: what the document-date reader looks for.
dated_text = st.builds(lambda before, label, sep, value, after: f"{before}\n{label}{sep}{value}\n{after}",
                       nasty_text(max_pieces=8), _LABELS, st.sampled_from([": ", " - ", " | ", ":\n", " on ", "**: "]),
                       date_like, nasty_text(max_pieces=8))
# Text around figures and dates: the mixes, with written dates dropped in.
figure_text = st.one_of(texts, st.builds(lambda a, d, b: f"{a} {d} {b}", nasty_text(max_pieces=10), date_like,
                                         nasty_text(max_pieces=10)))

_CELL = st.one_of(st.sampled_from(WORDS), numbers, nasty_text(max_pieces=3), st.sampled_from(["", "---", ":-:"]))


@st.composite
def table_text(draw: st.DrawFn) -> str:
    """Pipe tables as loaders write them (fenced or not, with or without a rule), some flattened onto one line."""
    width = draw(st.integers(1, 10))
    rows = draw(st.lists(st.lists(_CELL, min_size=width, max_size=width), min_size=1, max_size=6))
    fenced = draw(st.booleans())
    lines = [("| " + " | ".join(r) + " |") if fenced else " | ".join(r) for r in rows]
    if draw(st.booleans()) and len(lines) > 1:
        lines.insert(1, "|" + "---|" * width)
    joiner = draw(st.sampled_from(["\n", "\n", " ", "\r\n", "\n\n"]))
    return draw(nasty_text(max_pieces=5)) + "\n" + joiner.join(lines) + "\n" + draw(nasty_text(max_pieces=5))
