"""What reading a PDF's layout costs: load time per page with and without it, and the table rows it finds.

A PDF of `--pages` pages is written by hand (each page: a heading, prose lines and a table of `--rows` rows in three
columns, placed as a typesetter places them), then loaded `--runs` times by the product (`ingest.loaders.load_file`,
plain text plus layout) and by pypdf's plain extraction alone (what the loader did before). Prints the medians, their
ratio and how many rows came out as table rows.

    .venv/bin/python bench/pdf_load.py --pages 60 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

PROSE = ("the survey covered every household in the valley between march and june and asked about water use "
         "since the meters were installed by the council")


def _page(n: int, rows: int) -> str:
    items = [(72, 740, f"Section {n}")]
    for i in range(8):  # prose lines, as a wrapped paragraph sets them
        words = PROSE.split()
        line = " ".join(words[(n + i + k) % len(words)] for k in range(12))
        items.append((72, 716 - 14 * i, line))
    for r in range(rows + 1):
        cells = ("Item", "Price", "Share") if r == 0 else (f"Item {n}-{r}", f"{r * 3}.50", f"{r}%")
        items += [(x, 580 - 16 * r, cell) for x, cell in zip((72, 260, 420), cells, strict=True)]
    return " ".join(f"BT /F1 11 Tf 1 0 0 1 {x} {y} Tm ({t}) Tj ET" for x, y, t in items)


def write_pdf(path: Path, pages: int, rows: int) -> None:
    """A PDF of `pages` pages in Helvetica, each with a heading, prose and a table."""
    page_ids = [3 + 2 * i for i in range(pages)]
    objects: dict[int, str] = {
        1: "<< /Type /Catalog /Pages 2 0 R >>",
        2: f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {pages} >>",
    }
    font = 3 + 2 * pages
    for i, pid in enumerate(page_ids):
        stream = _page(i + 1, rows)
        objects[pid] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font} 0 R "
                        f">> >> /Contents {pid + 1} 0 R >>")
        objects[pid + 1] = f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream"
    objects[font] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    out, offsets = b"%PDF-1.4\n", {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n{objects[number]}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offsets[n]:010d} 00000 n \n" for n in sorted(objects)).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(out)


def _median_seconds(run: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import io

    from pypdf import PdfReader

    from ingest.loaders import load_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.pdf"
        write_pdf(path, args.pages, args.rows)
        data = path.read_bytes()
        plain = _median_seconds(lambda: [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages], args.runs)
        product = _median_seconds(lambda: load_file(path), args.runs)
        text = load_file(path).text
    rows = sum(1 for line in text.splitlines() if line.count(" | ") == 2)
    figures = {
        "pages": args.pages, "runs": args.runs,
        "plain_ms_per_page": round(1000 * plain / args.pages, 1),
        "product_ms_per_page": round(1000 * product / args.pages, 1),
        "ratio": round(product / plain, 2),
        "table_rows_found": rows, "table_rows_written": args.pages * (args.rows + 1),
    }
    print(f"{args.pages} pages, median of {args.runs}: plain text {figures['plain_ms_per_page']} ms/page, "
          f"load_file (plain + layout) {figures['product_ms_per_page']} ms/page ({figures['ratio']}x); "
          f"table rows found {rows} of {figures['table_rows_written']}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
