"""Questions for the row at one end of a table's column: "Which plan is the cheapest?", "Which region had the
highest revenue?". Pure functions of the question and the evidence's parsed table rows.

A question asks for an extreme with a superlative of the lexicon (questions.toml `lowest`, `highest`). A table of
the evidence (its rows, as ingest parsed them, grouped by document and header) is about the question when the
question names its header or its section; its columns are those whose header the question names ("revenue"), else
every column. In a column every row with one figure counts (figures of one kind; units of measure converted; "n/a"
rows left out); the row at the wanted end of the most columns is the answer, the first column deciding a tie.
Arithmetic over figures is what rules do exactly; which row a question means is left to the words it shares.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from ingest.chunking import SECTION_SEPARATOR
from ledger.core.types import Chunk, TableRow
from ledger.judge.claims import content_stems
from ledger.text.lexicon import lexicon
from ledger.text.measures import measure_word, unit_size
from ledger.text.quantities import extract_quantities
from ledger.text.terms import phrase_pattern

_BARE = frozenset({"most", "least"})  # quantifiers that name no measure of their own
_MINUS = re.compile(r"^\s*[-−–]\s*\d")  # "-2%": a fall; the figure parser reads the size only


@cache
def _superlatives() -> tuple[re.Pattern[str], re.Pattern[str]]:
    lex = lexicon()
    return tuple(re.compile(rf"\b(?:{phrase_pattern(lex.words('questions', end))})\b", re.IGNORECASE)
                 for end in ("lowest", "highest"))  # type: ignore[return-value]


def extreme(question: str) -> tuple[str, str] | None:
    """("min" or "max", the superlative) when a question asks for one end of something, else None."""
    lowest, highest = _superlatives()
    found = [(m.start(), "min", m.group(0)) for m in lowest.finditer(question)]
    found += [(m.start(), "max", m.group(0)) for m in highest.finditer(question)]
    if not found:
        return None
    _, end, word = min(found, key=lambda f: (f[0], -len(f[2])))  # "most expensive" before "most"
    return end, word


def extreme_row(question: str, chunks: list[Chunk], rows_named: bool = False) -> tuple[Chunk, TableRow] | None:
    """The table row that answers a superlative question, with its chunk; None when no table of the evidence is
    about the question or its figures cannot be compared. A question that names a row of a table asks about that
    row ("What is the maximum fee for a finger berth?"), not for one end of the table, unless `rows_named` (a
    claim that a row is at one end names it)."""
    asked = extreme(question)
    if asked is None:
        return None
    end, word = asked
    # the measure the superlative itself names ("lightest": weight), with the question's other words
    measure = lexicon().table("questions", "superlative_measures").get(word.lower(), "")
    wanted = content_stems(question.replace(word, " ")) | content_stems(measure)
    tables: dict[tuple[str, tuple[str, ...]], list[tuple[Chunk, TableRow]]] = {}
    for chunk in chunks:
        for row in chunk.table_rows:
            if len(row.header) == len(row.cells) > 1:
                tables.setdefault((chunk.document_id, tuple(row.header)), []).append((chunk, row))
    best: tuple[int, tuple[Chunk, TableRow]] | None = None
    found: tuple[Chunk, TableRow] | None
    for (_, header), rows in tables.items():
        # its headers, or the heading right above it; a document's title is about all of its tables
        section = rows[0][0].section.rsplit(SECTION_SEPARATOR, 1)[-1]
        named = len(wanted & (content_stems(" ".join(header)) | content_stems(section)))
        if not rows_named and any(_names(question, r) for _, r in rows):
            # a row the question names is asked about, not one end of the table; unless its own cells are what is
            # ranked, the things compared being the columns ("Which vacuum had the highest overall score?" of
            # "Overall score (Vantra: 84%; Brisa: 71%)"): that row answers, the winner named by its column
            across = [(c, r) for c, r in rows if _names(question, r) and _ranks_columns(end, r)]
            if across and (best is None or named + 1 > best[0]):
                best = (named + 1, across[0])
            continue
        if not named or len({tuple(r.cells) for _, r in rows}) < 2:
            continue
        found = _winner(end, wanted, list(header), rows, bare=word.lower() in _BARE)
        if found is not None and (best is None or named > best[0]):
            best = (named, found)
    return best[1] if best else None


def _winner(end: str, wanted: set[str], header: list[str], rows: list[tuple[Chunk, TableRow]], bare: bool = False
            ) -> tuple[Chunk, TableRow] | None:
    """The row at the wanted end of the most columns; with a `bare` "most" or "least", of the columns the question
    names only ("the most patients"; "the least populated" names none of "Share of GDP")."""
    columns = [j for j in range(1, len(header)) if wanted & content_stems(header[j])]
    columns = columns or ([] if bare else list(range(1, len(header))))
    wins: Counter[int] = Counter()
    first: int | None = None
    for j in columns:
        values = {i: v for i, (_, row) in enumerate(rows) if (v := _value(row.cells[j])) is not None}
        kinds = {kind for kind, _ in values.values()}
        if len(values) < 2 or len(kinds) != 1:
            continue
        pick = (min if end == "min" else max)(values, key=lambda i: values[i][1])
        wins[pick] += 1
        first = pick if first is None else first
    if first is None:
        return None
    top = max(wins.values())
    leaders = [i for i, n in wins.items() if n == top]
    return rows[first if first in leaders else min(leaders)]


def _ranks_columns(end: str, row: TableRow) -> bool:
    """Whether a row's cells after its label hold comparable figures (two or more, of one kind) with one at the
    wanted end: the columns are what a superlative of the row ranks."""
    values = [v for cell in row.cells[1:] if (v := _value(cell)) is not None]
    if len(values) < 2 or len(values) < len(row.cells) - 1 or len({kind for kind, _ in values}) != 1:
        return False
    numbers = [v for _, v in values]
    return numbers.count((min if end == "min" else max)(numbers)) == 1


def _value(cell: str) -> tuple[str, float] | None:
    """(kind, comparable value) of a cell holding one figure: "£22", "-2%", "1.2 km" (in metres), "6 hours"."""
    found = extract_quantities(cell)
    if len(found) != 1:
        return None
    q = found[0]
    value = q.value
    if q.kind == "count" and (size := unit_size(measure_word(q.text))):
        return f"count{size[0]}", value * size[1]
    if _MINUS.match(cell):
        value = -value
    return f"{q.kind}{q.unit}", value


def ranked_claim(claim: str, chunk: Chunk) -> tuple[bool, TableRow, TableRow] | None:
    """For a claim that a row of the chunk's table is at one end ("A swinging mooring is the cheapest option"):
    (whether it is, the row the claim names, the row at that end). None when the claim has no superlative, names no
    single row, or no table of the chunk is about it. A column's name is no superlative: "A (Benefit: Cancellation;
    Maximum cover: £3,000)" restates a row, it does not rank it."""
    labels = {cell.strip() for row in chunk.table_rows for cell in row.header if extreme(cell)}
    for label in sorted(labels, key=len, reverse=True):
        claim = re.sub(rf"(?<![\w-]){re.escape(label)}(?![\w-])", " ", claim, flags=re.IGNORECASE)
    found = extreme_row(claim, [chunk], rows_named=True)
    if found is None:
        return None
    top = found[1]
    named = [row for row in chunk.table_rows if row.header == top.header and _names(claim, row)]
    if len({tuple(row.cells) for row in named}) != 1:
        return None
    return named[0].cells == top.cells, named[0], top


def _names(text: str, row: TableRow) -> bool:
    """Whether a text names a row by its first cell ("Finger berth")."""
    label = row.cells[0].strip() if row.cells else ""
    return bool(label) and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", text, re.IGNORECASE) is not None
