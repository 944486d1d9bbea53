"""PDF tables and paragraph ends, read from the page layout: rows become cells, prose columns stay prose."""

from __future__ import annotations

from pathlib import Path

from ingest.loaders import load_file
from ingest.pdf_layout import with_layout
from tests.fakes import pdf_with_stream


def positioned_pdf(items: list[tuple[int, int, str]]) -> bytes:
    """A one-page PDF with each text at its own (x, y), as a table or a layout puts it."""
    return pdf_with_stream(" ".join(f"BT /F1 11 Tf 1 0 0 1 {x} {y} Tm ({text}) Tj ET" for x, y, text in items))


MENU = [(72, 720, "Harbour Kitchen Price Guide"), (72, 690, "All dishes are cooked to order."), (72, 660, "Mains")]
for n, cells in enumerate([("Dish", "Price", "Vegetarian"), ("Fish pie", "$14.50", "No"),
                           ("Mushroom risotto", "$12.00", "Yes"), ("Lamb shank", "$19.75", "No")]):
    MENU += [(x, 630 - 18 * n, cell) for x, cell in zip((72, 250, 400), cells, strict=True)]
MENU += [(72, 540, "Service"), (72, 510, "A service charge of 12.5% is added to tables of six or more.")]


def test_a_pdf_table_is_read_as_rows_of_cells_and_a_heading_ends_its_line(tmp_path: Path) -> None:
    path = tmp_path / "menu.pdf"
    path.write_bytes(positioned_pdf(MENU))
    text = load_file(path).text
    assert "Fish pie | $14.50 | No" in text and "Lamb shank | $19.75 | No" in text
    assert "Service\n\nA service charge" in text  # not "Service A service charge ..."


def test_two_columns_of_prose_side_by_side_are_no_table() -> None:
    left = ["The survey covered every household in", "the valley between March and June,", "and asked about"]
    right = ["Most households reported that water", "use had fallen since the meters were", "installed in 2024."]
    layout = "\n".join(f"{a:<45}   {b}" for a, b in zip(left, right, strict=True))
    plain = "\n".join(left + right)
    assert with_layout(plain, layout) == plain
