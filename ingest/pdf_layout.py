"""What a PDF's layout says that its plain text loses: table rows and paragraph ends. Pure.

pypdf's plain extraction writes a table row as words separated by single spaces ("Fish pie £14.50 fish, milk,
gluten No") and a heading on a line of its own that the next line then continues, so rows run into each other and
into the heading under them. Its layout extraction keeps the page's geometry: columns stay apart by runs of
spaces, and a blank line ends a paragraph. The plain text stays the text (it reads multi-column pages in reading
order); the layout only marks which of its lines are table rows (cells joined by " | ", as every loader writes a
table: `ingest.tables`) and which end a paragraph.

A table is at least `MIN_ROWS` neighbouring lines of the same number of cells, short ones: two columns of prose
side by side split the same way, but into long cells.
"""

from __future__ import annotations

import re
import statistics

MIN_ROWS = 3  # a header and two rows, or three rows
MAX_CELL_CHARS = 60  # a longer cell is a line of prose in a column
MAX_MEDIAN_CELL_CHARS = 30
_GAP = re.compile(r"\s{2,}")  # two spaces or more separate two columns


def _key(line: str) -> str:
    return " ".join(line.split())


def _cells(line: str) -> list[str] | None:
    cells = _GAP.split(line.strip())
    return cells if len(cells) >= 2 and all(cells) else None


def _is_table(run: list[list[str]]) -> bool:
    widths = [len(c) for cells in run for c in cells]
    counts = [len(cells) for cells in run]
    return (len(run) >= MIN_ROWS and statistics.mode(counts) == max(counts)
            and sum(n == max(counts) for n in counts) >= MIN_ROWS
            and max(widths) <= MAX_CELL_CHARS and statistics.median(widths) <= MAX_MEDIAN_CELL_CHARS)


def layout_marks(layout: str) -> tuple[dict[str, list[str]], set[str]]:
    """(the cells of each table row, by its text with single spaces; the lines a blank line follows)."""
    rows: dict[str, list[str]] = {}
    ends: set[str] = set()
    run: list[list[str]] = []
    lines = layout.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue  # a blank line between rows does not end a table
        if i + 1 < len(lines) and not lines[i + 1].strip():
            ends.add(_key(line))
        cells = _cells(line)
        if cells is not None:
            run.append(cells)
            continue
        if run and _is_table(run):
            rows.update({" ".join(cells): cells for cells in run})
        run = [cells] if cells is not None else []
    if run and _is_table(run):
        rows.update({" ".join(cells): cells for cells in run})
    return rows, ends


def with_layout(plain: str, layout: str) -> str:
    """The plain text of a page with its table rows written as cells ("Fish pie | £14.50 | No") and a blank line
    after each line that ends a paragraph in the layout ("Service" above the paragraph it heads)."""
    rows, ends = layout_marks(layout)
    if not rows and not ends:
        return plain
    out: list[str] = []
    for line in plain.splitlines():
        key = _key(line)
        out.append(" | ".join(rows[key]) if key in rows else line)
        if key in ends and key not in rows:  # rows stay together, whatever the space between them
            out.append("")
    return "\n".join(out)
