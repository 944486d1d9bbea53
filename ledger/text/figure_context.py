"""What each figure of a text is about: the key terms that describe it, and the ranges figures form.

A figure is compared with the evidence figure that is about the same thing ("sales and marketing at $4.2
million"), so each gets the words around it: those before it in its sentence, the descriptive phrase after it
("$40 per seat for the evening show"). Tables reach here as sentences (ingest renders every row as one).
Pure; used by `ledger.text.quantities`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from ledger.text.figures import Quantity
from ledger.text.lexicon import lexicon
from ledger.text.measures import BY, is_measure
from ledger.text.terms import key_terms

# Words after a figure that still describe it ("$40 per seat for the evening show"); anything else describes the next.
_TRAILING = re.compile(
    r"\s*(?:per|for|of|in|on|each|every|a|an|after|before|from)\b[^,;.]*?(?=,|;|\.|\band\b|\bor\b|$)", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"[.;!?]\s+")
# A line break inside a sentence, as PDF text has them ("9 were\nrepaired"): the next line goes on in lower case.
_WRAPPED = re.compile(r"(?<![.:;!?|])\n(?=[a-z0-9$€£(])")
# Where the words after a figure stop describing it and start describing the next one.
_CLAUSE_BREAK = re.compile(r"[,;]|\b(?:and|or|but|which|while|whereas)\b", re.IGNORECASE)
# A table row as ingest renders it: "Key (Header: value; Header: value)." (ingest.tables.row_sentence)
# (its key and its headers may hold a bracket of their own: "Young person (aged 12-17) (Price (online): £6.00)")
_ROW = re.compile(r"\s*((?:[^():;\n]|\([^():;\n]*\)){1,80}?) \((?=(?:[^()\n]|\([^()\n]*\))*?: )")
_SINCE = re.compile(r"[ \t]+(?:after|before|since|from)[ \t]+(?:the[ \t]+)?([\w-]+(?:[ \t]+[\w-]+){0,3})",
                    re.IGNORECASE)  # what a duration is counted from: "52 minutes after impact began"
_NAMES_COLUMN = re.compile(r"[ \t]*:[ \t]")  # right after a figure in a row: the figure is in its column's name
_PATH_MARK = re.compile(r"\s[…›]\s")  # between a quote's headings, and where a quote skips text
_RATIO = re.compile(r"\s*(?:to|for\s+every|for\s+each|per|in\s+every|:)\s*", re.IGNORECASE)  # "1 adult to 8"
_PART_OF = re.compile(r"\s*(?:out\s+)?of(?:\s+the|\s+its|\s+their)?\s*", re.IGNORECASE)  # "12 of the 40 schools"
_AMOUNTS = ("count", "number")
_COORDINATED = re.compile(r"\s*(?:,\s*)?(?:and|or|but)\b", re.IGNORECASE)  # "… and from 8am to 11am"
_RANGE_GAP = re.compile(r"\s*(?:to|through|-|–|—|--|and)\s*", re.IGNORECASE)
# "one greenhouse of up to 3.0 metres", "one cabin bag weighing up to 8 kg": the size of the thing counted
_MEASURING = re.compile(r"(?:\s*(?!(?:and|or|but|than)\b)[a-z]+){0,3}\s*")


def is_row_sentence(text: str) -> bool:
    """Whether a text is one table row as ingest renders it: "Surplus (2025: £64,100; 2024: £72,300)."."""
    text = text.strip()
    return bool(_ROW.match(text)) and text.endswith((")", ").")) and "\n" not in text


def names_row(claim: str, quote: str) -> bool:
    """Whether a quote ends in one table row whose name (its first cell, before the bracket) the claim names in full:
    "An adult ticket costs £14.50." of "Tickets … Adult (Price: £14.50).". Pure."""
    row = re.split(r"\s…\s|\n", quote.strip())[-1]
    if not is_row_sentence(row):
        return False
    name = set(key_terms(row.split(" (", 1)[0]))
    return bool(name) and name <= set(key_terms(claim))


def describe_figures(text: str, found: list[Quantity]) -> list[Quantity]:
    """Give each figure the key terms that describe it, and join ranges ("$100.01 to $2,000")."""
    text = _WRAPPED.sub(" ", text)  # same length: offsets still hold
    out: list[Quantity] = []
    listed = _listed_lines(text, found)
    for line_start, line in _lines(text):
        qs = [q for q in found if line_start <= q.start < line_start + len(line)]
        if not qs:
            continue
        cursor, shared = line_start, frozenset[str]()
        earlier: list[Quantity] = []  # the figures of the sentence so far, as described
        own_after: dict[int, frozenset[str]] = {}  # the words after each of those, its own (by id)
        opening = frozenset[str]()  # the words before the sentence's first figure
        parallel: list[Quantity] | None = None  # those of its first part, once a part joined by "and"/"or" begins
        # a table row's sentence: its fields are the row's ("Autumn (Deadline: …)"); a quote's headings and skipped
        # text before the row ("Policy Schedule › Specified items (cover away from home) … Camera (…)") are not it
        row_at = max((m.end() for m in _PATH_MARK.finditer(line)), default=0)
        keyed = _ROW.match(line, row_at)
        row = frozenset(key_terms(keyed.group(1))) if keyed else frozenset[str]()
        line_terms: frozenset[str] | None = None  # the line's words without its figures, computed once per line
        described: list[Quantity] = []
        for n, q in enumerate(qs):
            stop = qs[n + 1].start if n + 1 < len(qs) else line_start + len(line)
            tail = text[q.end:stop]
            trailing = _TRAILING.match(tail) if n + 1 < len(qs) else None
            clause = _SENTENCE_END.split(tail)[0]  # a figure's words never run into the next sentence
            # the last figure of its sentence has the words up to the sentence's end ("the 5% proposed by the
            # working group. A decision was deferred to December"), as the last figure of a line has
            last_of_sentence = n + 1 == len(qs) or len(clause) < len(tail)
            after_end = q.end + (trailing.end() if trailing else len(clause) if last_of_sentence else 0)
            boundary = _CLAUSE_BREAK.search(clause) if n + 1 < len(qs) and not trailing else None
            if boundary and key_terms(clause[:boundary.start()]):  # "9 were repaired, which gives ... 4.5%"
                after_end = q.end + boundary.start()
            pieces = _SENTENCE_END.split(text[cursor:q.start])
            before = pieces[-1]  # words of an earlier sentence describe nothing here
            if len(pieces) > 1 or not described:
                shared = frozenset()
            labelled = before.rstrip(" *_+−–-").endswith(":")  # (a signed value: "Change: -125 kWh")
            labelled = labelled or (line_start in listed and n + 1 == len(qs))  # "Up to 4 hours £5.40"
            # A field ("Start date: 2025-09-15 Owner: ...") is described by its label alone.
            # (its label, not the headings or skipped text a quote puts before it: "Entry charges … Adults: £6" is the
            # adults' charge, not the children's)
            terms = frozenset(key_terms(_PATH_MARK.split(before)[-1] if labelled
                                        else before + " " + text[q.end:after_end])) | q.context
            terms -= _figure_word_terms("degree_words")  # "a little under three hours" says how far under, not of what
            if not described or len(pieces) > 1:
                # "The ticket price is $40 per seat for the evening show and $25 per seat for the matinee":
                # when the first figure is described after it, the words before it are the subject of all of them.
                shared = frozenset(key_terms(before)) if trailing and key_terms(trailing.group(0)) else frozenset()
                earlier, parallel, opening = [], None, frozenset(key_terms(before))
            else:
                if (len(earlier) == 1 and not shared and trailing and key_terms(trailing.group(0))
                        and _RANGE_GAP.fullmatch(text[earlier[0].end:q.start])):
                    shared = opening  # "start 1 to 2 days before you enter …, and continue for 7 days": a range is one
                    # figure described after it
                terms |= shared
                if parallel is None and _COORDINATED.match(before) and not key_terms(before):
                    parallel = list(earlier)  # the figures of the sentence's first part
                if parallel:
                    # a part joined by "and"/"or" with no words of its own repeats the first part's: "Breakfast is
                    # served in the Garden Room from 7am to 10am on weekdays and from 8am to 11am at weekends",
                    # "rises to 27 days after 5 years' continuous service and to 29 days after 10 years": each figure
                    # is about what the first part's figure of its kind is about, above its lower limit when it has one
                    # ("no later than 28 days before departure for UK holidays and 42 days before … for European")
                    # (but not the words the first part's figure has after it, when this one has others of its own:
                    # "1 adult to 8 children in Mini Explorers and 1 adult to 12 children in Main Camp")
                    first = next((e for e in reversed(parallel) if (e.kind, e.unit) == (q.kind, q.unit)), None)
                    if first is not None:
                        rest = _CLAUSE_BREAK.split(_SENTENCE_END.split(text[q.end:line_start + len(line)])[0])[0]
                        mine, theirs = frozenset(key_terms(rest)), own_after.get(id(first), frozenset())
                        terms |= first.about - theirs if mine and not mine & theirs else first.about
                        # (a lower limit only: "up to" may be a change's "goes up to 27 days … and to 29 days")
                        if first.bound == "min" and not (q.bound or q.ranged or first.ranged):
                            q = replace(q, bound="min")
            if terms & _figure_word_terms("totals") and earlier:  # "… £323.35 a year for wastewater, a total of
                # £600.80": the sum of what they are about
                terms |= frozenset().union(*(e.about for e in earlier if e.kind == q.kind))
            if not terms and described:
                terms = described[-1].about  # "Northern region $3.1 million 42%": the share inherits the row label
            if not terms:  # nothing near: the whole line
                if line_terms is None:
                    line_terms = frozenset(key_terms(_strip_figures(line, qs, line_start)))
                terms = line_terms
            if (keyed and q.start > line_start + keyed.end(1) and q.kind not in ("date", "weekday")
                    and _NAMES_COLUMN.match(text, q.end)):
                # a figure that names a column ("Dose 40 mg: 6 people") is about its header's words alone (a year's
                # column, "2023: 9.8 C", is its row's: `for_its_year`)
                head = max(text.rfind("; ", line_start, q.start) + 2, text.rfind("(", line_start, q.start) + 1)
                terms = frozenset(key_terms(text[head:q.start])) | q.context
            if not labelled and (main := _main_clause(text, line_start, q, stop)):
                terms |= frozenset(key_terms(main))  # "If rent is unpaid 14 days after it is due, the landlord
                # may charge interest": the condition's figure is about the charge too
            in_row = bool(row) and labelled and q.start > line_start + keyed.end(1)  # type: ignore[union-attr]
            since = _SINCE.match(clause) if q.kind == "duration" else None
            described.append(replace(q, about=terms, labelled=labelled, row=row if in_row else frozenset(),
                                     since=frozenset(key_terms(since.group(1))) if since else frozenset()))
            earlier.append(described[-1])
            own_after[id(described[-1])] = frozenset(key_terms(text[q.end:after_end]))
            cursor = after_end
        for n in range(len(described) - 1):
            q, nxt = described[n], described[n + 1]  # (as described so far: "by" passes what a side is about on)
            gap = text[q.end:nxt.start]
            if nxt.kind == q.kind and _RANGE_GAP.fullmatch(gap) and (gap.strip() != "and" or "between" in
                                                                      text[max(0, q.start - 9):q.start].lower()) \
                    and not (q.context and nxt.context and not q.context & nxt.context):  # ("1 adult to 8 children":
                # a ratio of two things counted, no range)
                union = q.about | nxt.about
                described[n] = replace(q, upper=nxt.value, about=union, ranged=True)
                described[n + 1] = replace(nxt, about=union, ranged=True)
            elif (q.kind == nxt.kind == "count" and q.context and nxt.context and not q.context & nxt.context
                  and _RATIO.fullmatch(gap)):
                # the two sides of a ratio ("one adult for every twelve children in Mini Explorers") are of one thing
                union = q.about | nxt.about
                described[n], described[n + 1] = replace(q, about=union), replace(nxt, about=union)
            elif is_measure(nxt) and BY.fullmatch(gap) and is_measure(q):
                # the other side of "up to 3.0 metres by 2.4 metres" is of the same thing, within the same limit
                described[n + 1] = replace(nxt, about=nxt.about | q.about, bound=nxt.bound or q.bound)
            elif is_measure(nxt) and q.kind in _AMOUNTS and not is_measure(q) and _MEASURING.fullmatch(gap):
                described[n + 1] = replace(nxt, about=nxt.about | q.about)  # "one greenhouse of up to 3.0 metres"
            elif (q.kind in _AMOUNTS and nxt.kind in _AMOUNTS and _PART_OF.fullmatch(gap) and q.value < nxt.value
                  and not q.identifier):
                described[n] = replace(q, about=q.about | nxt.about)  # "418,000 of the 1.1 million requests"
        out += described
    return out


def _main_clause(text: str, line_start: int, q: Quantity, stop: int) -> str:
    """The main clause after the comma that ends a condition put first in its sentence ("If any rent remains unpaid
    more than 14 days after it was due, the Landlord may charge interest …"), up to the next figure, when the figure
    is in that condition; "" otherwise. Openers are the lexicon's `conditions.toml` `opening_conditions`."""
    start = max([line_start] + [m.end() for m in _SENTENCE_END.finditer(text, line_start, q.start)])
    opening = _CLAUSE_NUMBER.sub("", text[start:q.start], count=1).lower()
    if not any(opening.startswith(w + " ") for w in _opening_conditions()) or "," in opening:
        return ""
    comma = text.find(",", q.end, stop)
    if comma < 0 or _SENTENCE_END.search(text, q.end, comma):
        return ""
    return _SENTENCE_END.split(text[comma + 1:stop])[0]


_CLAUSE_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[a-z]\)|\([a-z0-9]+\))\s+")


@cache
def _opening_conditions() -> tuple[str, ...]:
    return tuple(lexicon().words("conditions", "opening_conditions"))


@cache
def _figure_word_terms(name: str) -> frozenset[str]:
    """The key terms of a figures.toml list: `degree_words` grade a figure ("a little", "slightly", "well": they
    describe no subject), `totals` make it the sum of the figures before it ("a total of", "altogether")."""
    return frozenset(t for w in lexicon().words("figures", name) for t in key_terms(w))


LISTED_RUN = 3  # lines in a run that make a list of figures by label


def _listed_lines(text: str, found: list[Quantity]) -> frozenset[int]:
    """Where the lines of a plain-text list of figures by label start: a run of at least `LISTED_RUN` short lines,
    each ending in a figure after words of its own ("Up to 2 hours £3.20", "Up to 4 hours £5.40", "Lost ticket
    £9.80"). Each line's last figure is labelled by the words before it, as a table row's cell is by its header."""
    rows: list[list[int]] = [[]]
    for start, line in _lines(text):
        body = line.strip()
        qs = [q for q in found if start <= q.start < start + len(line)]
        label = text[start:qs[-1].start].strip() if qs else ""
        if (qs and text[qs[-1].end:start + len(line)].strip(" .\n") == "" and any(c.isalpha() for c in label)
                and len(body.split()) <= 10 and not label.endswith(":")):
            rows[-1].append(start)
        elif rows[-1]:
            rows.append([])
    return frozenset(start for run in rows if len(run) >= LISTED_RUN for start in run)


def _lines(text: str) -> list[tuple[int, str]]:
    pos, lines = 0, []
    for line in text.splitlines(keepends=True):
        lines.append((pos, line))
        pos += len(line)
    return lines


def _strip_figures(line: str, qs: list[Quantity], offset: int) -> str:
    chars = list(line)
    for q in qs:
        chars[q.start - offset:q.end - offset] = " " * (q.end - q.start)
    return "".join(chars)
