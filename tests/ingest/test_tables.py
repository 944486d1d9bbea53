"""Tables parsed once at ingest: each row a self-describing sentence, the cells kept on the chunk."""

from __future__ import annotations

from datetime import date

import pytest

from ingest.chunking import chunk_document
from ingest.tables import render_tables
from ingest.types import LoadedDocument
from ledger.core.types import TableRow

MARKDOWN = "## 5. Approval limits\n\n| Refund amount | Who approves |\n|---|---|\n| Up to $750 | Support agent |\n" \
           "| Above $20,000 | Chief Financial Officer |\n\nAn approver may not approve their own refund."
LOADER_LINES = "3. Risk tiers\nTier | Re-review\nTier 1 | Every year\nTier 2 | Every 24 months\nAfter the table."


@pytest.mark.parametrize(
    ("text", "sentences", "rows"),
    [
        (MARKDOWN,
         ["Up to $750 (Who approves: Support agent).", "Above $20,000 (Who approves: Chief Financial Officer)."],
         [TableRow(header=["Refund amount", "Who approves"], cells=["Up to $750", "Support agent"]),
          TableRow(header=["Refund amount", "Who approves"], cells=["Above $20,000", "Chief Financial Officer"])]),
        # HTML and .docx tables reach here as "cell | cell" lines with no rule: a first row without digits heads.
        (LOADER_LINES, ["Tier 1 (Re-review: Every year).", "Tier 2 (Re-review: Every 24 months)."],
         [TableRow(header=["Tier", "Re-review"], cells=["Tier 1", "Every year"]),
          TableRow(header=["Tier", "Re-review"], cells=["Tier 2", "Every 24 months"])]),
        # A superscript unit is no figure: "Area (m²)" still heads its column.
        ("Area (m²) | Monthly rent\nOffice A | $40", ["Office A (Monthly rent: $40)."],
         [TableRow(header=["Area (m²)", "Monthly rent"], cells=["Office A", "$40"])]),
        # Years over columns of amounts head them ("2026/27" is no figure of a row).
        ("Item | 2025/26 | 2026/27\nPostage | £310 | £340", ["Postage (2025/26: £310; 2026/27: £340)."],
         [TableRow(header=["Item", "2025/26", "2026/27"], cells=["Postage", "£310", "£340"])]),
        ("Site | March 2025 | March 2026\nNorth pond | 41 | 57", ["North pond (March 2025: 41; March 2026: 57)."],
         [TableRow(header=["Site", "March 2025", "March 2026"], cells=["North pond", "41", "57"])]),
        # No header to be had: the cells are joined.
        ("2024 | $41.2 million\n2025 | $48.9 million", ["2024; $41.2 million.", "2025; $48.9 million."],
         [TableRow(cells=["2024", "$41.2 million"]), TableRow(cells=["2025", "$48.9 million"])]),
        # A table copied onto one line with its rule: the rows are put back first.
        ("| Plan | Seats | |---|---| | Basic | 5 | | Team | 25 |", ["Basic (Seats: 5).", "Team (Seats: 25)."],
         [TableRow(header=["Plan", "Seats"], cells=["Basic", "5"]), TableRow(header=["Plan", "Seats"],
                                                                               cells=["Team", "25"])]),
    ],
)
def test_every_row_becomes_one_sentence_that_names_its_columns(text: str, sentences: list[str],
                                                               rows: list[TableRow]) -> None:
    rendered, found = render_tables(text)
    assert found == rows
    for sentence in sentences:
        assert f"\n\n{sentence}\n\n" in f"\n\n{rendered}\n\n"  # each row is a paragraph of its own
    assert "|" not in rendered and "---" not in rendered


def test_text_around_a_table_is_kept_as_it_was() -> None:
    rendered, _ = render_tables(MARKDOWN)
    assert rendered.startswith("## 5. Approval limits\n\n")
    assert rendered.endswith("An approver may not approve their own refund.")
    assert render_tables("No table here: just a sentence.") == ("No table here: just a sentence.", [])


def test_a_table_whose_rows_ran_together_is_quoted_by_runs_of_neighbouring_cells() -> None:
    flat = ("Record type | Retention period | Counted from Invoices | 10 years | end of the financial year "
            "Personnel files | 6 years | end of employment Support tickets | 3 years | closure of the ticket")
    rendered, rows = render_tables(flat)
    assert rows == []  # no row can be told apart, so no cells are claimed
    assert "Counted from Invoices; 10 years; end of the financial year Personnel files." in rendered.split("\n\n")


def test_chunks_carry_the_cells_of_the_rows_they_hold() -> None:
    class Words:
        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            return list(range(len(text.split())))

    text, rows = render_tables(MARKDOWN)
    doc = LoadedDocument(path="/d/refunds.md", title="Refunds", text=text, sha256="0", mime_type="text/markdown",
                         doc_date=date(2026, 1, 1), table_rows=rows)
    (chunk,) = chunk_document(doc, "doc", Words(), chunk_size=200, chunk_overlap=0)
    assert chunk.table_rows == rows
