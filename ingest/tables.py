"""Tables, parsed once at ingest: every row becomes a self-describing sentence, and its cells are kept.

Loaders write a table as lines of cells ("Level 2 | 18 months", markdown "| Level 2 | 18 months |", with or
without a `|---|` rule under the header). Here each row is rewritten as one sentence that carries its header
("Level 2 (Renewal: 18 months)."), so the judge, the writer and the figure readers meet ordinary sentences
and never parse pipes again; the cells go to the chunk's metadata (`TableRow`). A table flattened onto one line
("| a | b | |---|---| | c | d |", as text copied from a page often is) is put back on its lines first; one
whose rows ran into each other with no break left is quoted by runs of three neighbouring cells.
"""

from __future__ import annotations

import re

from ledger.core.types import TableRow

_RULE_CELL = re.compile(r":?-{2,}:?")
_ROW_BREAK = re.compile(r"(?<=\|)[ \t]+(?=\|)")  # "| a | b | | c | d |": the gap between two rows
_TRAILING_PROSE = re.compile(r"(?m)(?<=\|)[ \t]+(?=[^|\n]*[A-Za-z][^|\n]*$)")
_MARKUP = re.compile(r"\*\*|__|`")
_SPACE = re.compile(r"\s+")
_MAX_CELLS = 8  # more cells than this on one line is a whole table whose row breaks were lost
_WINDOW = 3  # such a table is quoted by runs of this many neighbouring cells


def cells_of(line: str) -> list[str] | None:
    """The cells of a table line, or None when the line is not one (prose with a stray "|" included)."""
    stripped = line.strip()
    if "|" not in stripped:
        return None
    fenced = stripped.startswith("|")
    if not fenced and stripped.count(" | ") < 1:
        return None
    cells = [_clean(c) for c in stripped.strip("|").split("|")]
    if len(cells) < 2 or not any(cells):
        return None
    return cells


def _clean(cell: str) -> str:
    return _SPACE.sub(" ", _MARKUP.sub("", cell)).strip()


def _is_rule(cells: list[str]) -> bool:
    return all(_RULE_CELL.fullmatch(c) for c in cells if c) and any(cells)


def unflatten(text: str) -> str:
    """Put the rows of a table flattened onto one line back on lines of their own."""
    if "| |" not in text and "|\t|" not in text:
        return text
    text = _ROW_BREAK.sub(lambda m: "\n", text)
    return _TRAILING_PROSE.sub(lambda m: "\n", text)


def row_sentence(row: TableRow) -> str:
    """A row as one sentence: "Invoices (Retention period: 10 years; Counted from: end of the year)."."""
    cells = [c for c in row.cells]
    if row.header and len(row.header) == len(cells) and len(cells) > 1:
        rest = "; ".join(f"{h}: {c}" if h else c for h, c in zip(row.header[1:], cells[1:], strict=True) if c)
        body = f"{cells[0]} ({rest})" if cells[0] and rest else cells[0] or rest
    else:
        body = "; ".join(c for c in cells if c)
    body = body.rstrip(" .;:")
    return f"{body}." if body else ""


# a column named by a year or a period of one: "2027", "2026/27", "FY2025", "Q3 2026", "H1 2025", "January 2026"
_PERIOD = re.compile(r"(?:[A-Za-z]{2,12}\.?\s)?(?:FY\s?|(?:Q[1-4]|H[12])\s)?(?:19|20)\d\d(?:\s?[/–-]\s?\d{2,4})?")


def _names_columns(first: list[str], rest: list[list[str]]) -> bool:
    """Whether a table's first row (with no rule under it) is its header: it has no figure ("m²" is a unit), or its
    only figures are years or periods over columns of other figures ("Budget head | 2026/27 | 2027/28" above
    "Insurance | £2,700 | £2,900")."""
    dated = [cell for cell in first if any(ch.isdecimal() for ch in cell)]
    if not dated:
        return True
    if any(ch.isdecimal() for ch in first[0]) or not all(_PERIOD.fullmatch(cell.strip()) for cell in dated):
        return False
    return any(any(ch.isdecimal() for ch in cell) and not _PERIOD.fullmatch(cell.strip())
               for row in rest for cell in row)


def render_tables(text: str) -> tuple[str, list[TableRow]]:
    """The text with every table row rewritten as a sentence (header and rule lines dropped), and the rows.

    A header is the row above a `|---|` rule, or, in a table without a rule, a first row without any digit.
    Rows are separated by blank lines so that each is a paragraph of its own.
    """
    lines = unflatten(text).split("\n")
    out: list[str] = []
    rows: list[TableRow] = []
    block: list[list[str]] = []

    def flush() -> None:
        if not block:
            return
        if len(block) == 1 and len(block[0]) > _MAX_CELLS:
            # Rows run into each other ("... | after the last visit Receipts | 5 years | ..."): no row can be told
            # apart, but neighbouring cells still belong together, so each run of them becomes a sentence.
            cells = [c for c in block[0] if c and not _RULE_CELL.fullmatch(c)]
            runs = ["; ".join(cells[i:i + _WINDOW]) + "." for i in range(max(1, len(cells) - _WINDOW + 1))]
            out.append("\n\n".join(runs))
            block.clear()
            return
        header: list[str] | None = None
        body = list(block)
        rule = next((i for i, cells in enumerate(body) if _is_rule(cells)), None)
        if rule is not None and rule > 0:
            header = body[rule - 1]
            body = body[:rule - 1] + body[rule + 1:]
        elif rule is None and len(body) > 1 and _names_columns(body[0], body[1:]):
            header = body[0]
            body = body[1:]
        body = [cells for cells in body if not _is_rule(cells)]
        sentences = []
        for cells in body:
            row = TableRow(header=header or [], cells=cells)
            sentence = row_sentence(row)
            if sentence:
                rows.append(row)
                sentences.append(sentence)
        if sentences:
            if out and out[-1].strip():
                out.append("")
            out.append("\n\n".join(sentences))
            out.append("")
        block.clear()

    for line in lines:
        cells = cells_of(line)
        if cells is not None:
            block.append(cells)
            continue
        flush()
        out.append(line)
    flush()
    rendered = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", rendered), rows
