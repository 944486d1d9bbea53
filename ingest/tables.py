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
    """Put the rows of a table flattened onto one line back on lines of their own. A line is such a table when its
    gaps between two pipes part it into rows of as many cells, two or more each; an empty cell ("| | Model A |
    Model B |" over a comparison, "| Flood | | £2,500 |") parts nothing."""
    if "| |" not in text and "|\t|" not in text:
        return text
    return "\n".join(_unflatten_line(line) for line in text.split("\n"))


def _unflatten_line(line: str) -> str:
    rows = _ROW_BREAK.split(line)
    if len(rows) < 2 or any("|" not in row for row in rows):
        return line
    lines = _TRAILING_PROSE.sub(lambda m: "\n", "\n".join(rows))  # prose after the last row is no cell of it
    widths = {len(row.strip().strip("|").split("|")) for row in lines.split("\n") if "|" in row}
    return lines if len(widths) == 1 and min(widths) >= 2 else line


_NUMBER_KEY = re.compile(r"\d{1,3}[A-Za-z]?|[A-Z]")  # a row keyed by its number or letter: "1", "2b", "C"


def row_sentence(row: TableRow) -> str:
    """A row as one sentence: "Invoices (Retention period: 10 years; Counted from: end of the year)."; a row keyed
    by a bare number or letter is named with its column's header ("Phase 1 (Dates: 10–18 April)", not "1 (Dates:
    …)"; "Zone C (…)"); a cell's closing full stop is dropped, or the row would be cut into sentences there."""
    cells = [c.rstrip(" .") if c.endswith(".") and not c.endswith("..") else c for c in row.cells]  # one sentence
    if row.header and len(row.header) == len(cells) and len(cells) > 1:
        rest = "; ".join(f"{h}: {c}" if h else c for h, c in zip(row.header[1:], cells[1:], strict=True) if c)
        key = cells[0]
        if _NUMBER_KEY.fullmatch(key) and row.header[0] and not any(ch.isdigit() for ch in row.header[0]):
            key = f"{row.header[0]} {key}"
        body = f"{key} ({rest})" if key and rest else key or rest
    else:
        body = "; ".join(c for c in cells if c)
    body = body.rstrip(" .;:")
    return f"{body}." if body else ""


# a column named by a year or a period of one: "2027", "2026/27", "FY2025", "Q3 2026", "H1 2025", "January 2026"
_PERIOD = re.compile(r"(?:[A-Za-z]{2,12}\.?\s)?(?:FY\s?|(?:Q[1-4]|H[12])\s)?(?:19|20)\d\d(?:\s?[/–-]\s?\d{2,4})?")


def _names_columns(first: list[str], rest: list[list[str]]) -> bool:
    """Whether a table's first row (with no rule under it) is its header: it has no figure ("m²" is a unit), it names
    columns of figures (`_names_over_figures`), or its only figures are years or periods over columns of other
    figures ("Budget head | 2026/27 | 2027/28" above "Insurance | £2,700 | £2,900")."""
    dated = [cell for cell in first if any(ch.isdecimal() for ch in cell)]
    if not dated or _names_over_figures(first, rest):
        return True
    if any(ch.isdecimal() for ch in first[0]) or not all(_PERIOD.fullmatch(cell.strip()) for cell in dated):
        return False
    return any(any(ch.isdecimal() for ch in cell) and not _PERIOD.fullmatch(cell.strip())
               for row in rest for cell in row)


_LEADS_FIGURE = re.compile(r"\s*[£$€+\-−]?\d")  # a cell that opens with a figure: "138", "57 people (41.3%)"


def _names_over_figures(first: list[str], rest: list[list[str]]) -> bool:
    """Whether a first row names columns of figures: no cell of it opens with a figure, though one may hold some
    ("Dose 20 mg"), and below it every cell after the first opens with one ("138", "57 people (41.3%)")."""
    if len(first) < 2 or any(_LEADS_FIGURE.match(cell) for cell in first if cell):
        return False
    cells = [[cell for cell in row[1:] if cell] for row in rest]
    return all(row and all(_LEADS_FIGURE.match(cell) for cell in row) for row in cells)


_GAP = re.compile(r"\S {2,}\S")  # two cells of a line set out in columns
_DASHES = re.compile(r"[ \t]*-{2,}(?:[ \t]+-{2,})+[ \t]*")  # "-------  -----  ----" under a column header
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_MIN_ROWS = 2


def _column_line(line: str) -> bool:
    return "|" not in line and "\t" not in line and bool(_GAP.search(line.strip()))


def _column_starts(rows: list[str]) -> list[int]:
    """Where the columns of lines set out in columns start: after a position blank in every row, where at least
    one row starts a cell after two blanks or more (a single blank shared by chance inside prose, or past the end
    of shorter rows, is no border)."""
    width = max(len(r) for r in rows)
    blank = [all(p >= len(r) or r[p] == " " for r in rows) for p in range(width)]
    starts: list[int] = []
    for p in range(width):
        if blank[p] or (p and not blank[p - 1]):
            continue
        if not starts or any(p < len(r) and r[p] != " " and r[p - 2:p] == "  " for r in rows):
            starts.append(p)
    return starts


def _aligned_table(block: list[str]) -> list[str] | None:
    """A block of lines set out in columns as table lines with pipes ("| Lead | ug/L | 10 |"), a rule under its
    header: the header is the row above a line of dashes, a first row no cell of which opens with a figure over rows
    that all have some, or a first row with an empty corner cell (a list of names and roles has none: "Dr Ada Byron;
    Chair."). None when the block is no table: fewer than
    two rows or columns, a column only one row fills, or "Label:   value" fields."""
    rule = next((i for i, line in enumerate(block) if _DASHES.fullmatch(line)), None)
    rows = [line for line in block if not _DASHES.fullmatch(line)]
    if len(rows) < _MIN_ROWS:
        return None
    starts = _column_starts(rows)
    if len(starts) < 2:
        return None
    bounds = list(zip(starts, [*starts[1:], None], strict=True))
    cells = [[row[a:b].strip() for a, b in bounds] for row in rows]
    if sum(c[0].endswith(":") for c in cells) * 2 >= len(cells):
        return None  # "Report No.:        PAS-27": fields, aligned
    if any(sum(bool(c) for c in column) < 2 for column in zip(*cells, strict=True)):
        return None  # a column only one line has: prose typed with two blanks after a full stop, not a table
    merged: list[list[str]] = []
    for line, row in zip(rows, cells, strict=True):
        if merged and not row[0]:  # a cell carried onto the next line
            merged[-1] = [f"{a} {b}".strip() for a, b in zip(merged[-1], row, strict=True)]
        elif merged and not any(merged[-1][1:]) and line[:1] in " \t" and row[0][:1].islower():
            merged[-1] = [f"{merged[-1][0]} {row[0]}", *row[1:]]  # a first cell carried on, indented (`_carried_on`)
        else:
            merged.append(row)
    merged = _with_units_joined(merged)
    first = merged[0]
    # a header names its columns: no word of it is a figure (outside brackets: "Reading (m3)", "E7 Plus (630 Wh)"),
    # no cell has the shape of the cells below it ("E03" above "E05"), and the rows below all have figures; or its
    # corner cell is empty over the labels of the rows below
    like_below = any(_has_digit([cell]) and _shape(cell) in {_shape(r[j]) for r in merged[1:]}
                     for j, cell in enumerate(first))
    headed = rule == 1 or rule is None and len(merged) > 2 and (
        (not any(_FIGURE_WORD.search(_BRACKETED.sub("", cell)) for cell in first) and not like_below
         and all(_has_digit(r) for r in merged[1:]))
        or (not first[0] and all(first[1:]) and all(r[0] for r in merged[1:])))
    if headed:
        header, body = merged[0], merged[1:]
    else:  # no header: a rule on top says so, or `render_tables` would take a first row without digits for one
        header, body = [], merged
    lines = (["| " + " | ".join(header) + " |"] if header else []) + ["|" + "---|" * len(body[0])]
    return lines + ["| " + " | ".join(row) + " |" for row in body]


def _with_units_joined(rows: list[list[str]]) -> list[list[str]]:
    """Rows with a column of one short word before a column of figures joined to it: a currency set out on its own
    ("GBP    293.18") is the amount's, "GBP 293.18"."""
    j = 0
    while j < len(rows[0]) - 1:
        unit = {row[j] for row in rows if row[j]}
        figures = [row[j + 1] for row in rows if row[j + 1]]
        if (len(unit) == 1 and len(next(iter(unit))) <= 4 and not _has_digit(list(unit)) and figures
                and all(cell[:1].isdigit() for cell in figures)):
            rows = [[*row[:j], f"{row[j]} {row[j + 1]}".strip(), *row[j + 2:]] for row in rows]
        else:
            j += 1
    return rows


_FIGURE_WORD = re.compile(r"(?<![\w.])[£$€]?\d")  # a word that is a figure: "987 kWh", "GBP 0.00", "£12"
_BRACKETED = re.compile(r"\([^()]*\)")  # a header's unit or note: "Reading (m3)", "E7 Plus (630 Wh)"


def _shape(cell: str) -> str:
    """A cell with its digits as 0: cells of one kind share it ("E03", "E05": "E00"; "PAS-M-014", "PAS-M-021")."""
    return re.sub(r"\d", "0", cell)


def _has_digit(cells: list[str]) -> bool:
    return any(ch.isdecimal() for cell in cells for ch in cell)


_FULL_RULE = re.compile(r"[ \t]*(?:-{8,}|={8,})[ \t]*")  # "------------------" across the page
_COLUMN_RULE = "-- --"  # what `_aligned_table` reads as dashes under a header's columns


def _carried_on(lines: list[str], j: int) -> bool:
    """Whether line j is a first cell too long for its column, carried onto the next line, an indented line in
    columns that goes on in lower case: "Boiler service (discounted from 89.00 when booked" over "  with the safety
    check)      72.00"."""
    nxt = lines[j + 1] if j + 1 < len(lines) else ""
    return bool(lines[j].strip()) and not _column_line(lines[j]) and _column_line(nxt) and nxt[:1] in " \t" \
        and nxt.lstrip()[:1].islower()


def _subtotal_rule(lines: list[str], j: int) -> bool:
    """Whether line j is a rule under a column of figures, over the rows that sum them ("  ---------" over
    "Subtotal   168.40")."""
    return bool(_FULL_RULE.fullmatch(lines[j])) and lines[j][:1] in " \t" and j + 1 < len(lines) \
        and _column_line(lines[j + 1])


def _under_header(lines: list[str], j: int) -> bool:
    """Whether line j is a rule across the page between a line set out in columns and more of them: "Description
    Qty  Unit price  Total", a rule, then the rows."""
    return bool(_FULL_RULE.fullmatch(lines[j])) and j + 1 < len(lines) and _column_line(lines[j + 1])


def aligned_tables(text: str) -> str:
    """The text with its tables set out in columns of blanks (plain-text reports, minutes, lists of names and
    roles) written as pipe tables, for `render_tables` to read like any other; fenced code is left as it is. Loaders
    call it before they fold runs of blanks, which would lose the columns."""
    lines, out, fenced, i = text.split("\n"), [], False, 0
    while i < len(lines):
        if _FENCE.match(lines[i]):
            fenced = not fenced
        j = i
        if not fenced:
            while j < len(lines) and (_column_line(lines[j]) or (j > i and _DASHES.fullmatch(lines[j]))
                                      or (j == i + 1 and _under_header(lines, j))
                                      or (j > i and (_carried_on(lines, j) or _subtotal_rule(lines, j)))):
                j += 1
        # a rule across the page under the first line is its header's, as dashes under each column are; a rule
        # further down is a sum's ("---------" over "Subtotal  168.40") and no row
        table = _aligned_table([_COLUMN_RULE if k == i + 1 and _FULL_RULE.fullmatch(lines[k]) else lines[k]
                                for k in range(i, j) if k == i + 1 or not _FULL_RULE.fullmatch(lines[k])]
                               ) if j > i else None
        if table is None:  # (a block that is no table is passed over whole: each line is read once)
            out.extend(lines[i:max(j, i + 1)])
            i = max(j, i + 1)
            continue
        out.extend(["", *table, ""])
        i = j
    return "\n".join(out)


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
