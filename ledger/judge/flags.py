"""Questions for the rows a yes/no column marks: "Which dishes contain nuts?" over an allergen table ("Nuts: Yes"),
"Which plans include phone support?" over a comparison of plans. Pure functions of the question and the evidence's
parsed table rows.

A column is a flag when every row's cell is a yes or a no (questions.toml `flag_yes`, `flag_no`: "Yes", "✓", "No",
"—"); a "which" question asks about it when it names every content word of its header. The rows marked yes answer
it; a question that asks for what is without it ("Which dishes are free of nuts?", "… do not contain nuts?") is
answered by the rows marked no, and one that names a row asks about that row. Which column a question means is left
to the words it shares with the header.
"""

from __future__ import annotations

import re
from functools import cache

from ledger.core.types import Chunk, TableRow
from ledger.judge.claims import content_stems
from ledger.text.lexicon import lexicon
from ledger.text.terms import is_negated, phrase_pattern

_WHICH = re.compile(r"^\W*(?:which|what)\b", re.IGNORECASE)


@cache
def _cells() -> tuple[frozenset[str], frozenset[str], re.Pattern[str]]:
    lex = lexicon()
    without = re.compile(rf"\b(?:{phrase_pattern(lex.words('questions', 'flag_without'))})\b", re.IGNORECASE)
    return lex.word_set("questions", "flag_yes"), lex.word_set("questions", "flag_no"), without


def flagged_rows(question: str, chunks: list[Chunk]) -> list[tuple[Chunk, TableRow]]:
    """The rows of the evidence's tables that a yes/no column the question names marks as it asks, in table order,
    with their chunks; [] when the question is no "which" question or no such column is about it."""
    if not _WHICH.match(question):
        return []
    yes, no, without = _cells()
    wanted = set(content_stems(question))
    want_no = is_negated(question) or bool(without.search(question))
    tables: dict[tuple[str, tuple[str, ...]], list[tuple[Chunk, TableRow]]] = {}
    for chunk in chunks:
        for row in chunk.table_rows:
            if row.header and len(row.header) == len(row.cells):
                rows = tables.setdefault((chunk.document_id, tuple(row.header)), [])
                if row not in [r for _, r in rows]:
                    rows.append((chunk, row))
    for (_, header), rows in tables.items():
        if any((label := set(content_stems(row.cells[0]))) and label <= wanted for _, row in rows):
            continue  # a question that names a row asks about that row ("What fish is in the fish pie?")
        for j in range(1, len(header)):
            named = set(content_stems(header[j]))
            cells = [row.cells[j].strip().lower().rstrip(".") for _, row in rows]
            if not named or not named <= wanted or not all(c in yes or c in no for c in cells):
                continue
            picked = [(chunk, row) for (chunk, row), cell in zip(rows, cells, strict=True)
                      if (cell in no if want_no else cell in yes)]
            if picked and len(picked) < len(rows):
                return picked
    return []
