"""Tables parsed once at ingest: each row a self-describing sentence, the cells kept on the chunk."""

from __future__ import annotations

from datetime import date
from pathlib import Path

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


def test_a_comparison_table_with_an_empty_corner_cell_keeps_its_header() -> None:
    table = ("| | Vantra S8 | Brisa 5 |\n|---|---|---|\n| Dust bin capacity | 0.6 L | 0.5 L |\n"
             "| Flood excess | | £2,500 |")
    text, _ = render_tables(table)
    assert text.strip().split("\n\n") == ["Dust bin capacity (Vantra S8: 0.6 L; Brisa 5: 0.5 L).",
                                   "Flood excess (Brisa 5: £2,500)."]


def test_a_row_keyed_by_a_bare_number_is_named_with_its_column_s_header() -> None:
    table = ("| Phase | Dates | Section closed |\n|---|---|---|\n| 1 | 10–18 April | Ashby ↔ Fennick |\n"
             "| 2b | 2 May | All |")
    text, _ = render_tables(table)
    assert text.strip().split("\n\n") == ["Phase 1 (Dates: 10–18 April; Section closed: Ashby ↔ Fennick).",
                                           "Phase 2b (Dates: 2 May; Section closed: All)."]


def test_a_row_keyed_by_a_letter_is_named_with_its_column_s_header() -> None:
    table = "| Zone | Area | First permit |\n|---|---|---|\n| A | Town Centre | £96 |\n| C | Riverside | £54 |"
    text, _ = render_tables(table)
    assert text.strip().split("\n\n") == ["Zone A (Area: Town Centre; First permit: £96).",
                                           "Zone C (Area: Riverside; First permit: £54)."]


def _loaded_rows(text: str) -> list[str]:
    from ingest.loaders import parse_file
    from ingest.tables import row_sentence

    doc = parse_file(Path("report.txt"), text.encode(), None)
    return [row_sentence(row) for row in render_tables(doc.text)[1]]


def test_a_plain_text_table_set_out_in_columns_of_blanks_becomes_rows_that_name_their_columns() -> None:
    report = (
        "RESULTS\n"
        "Parameter            Units        PCV       S-01        S-02\n"
        "-------------------  -----------  --------  ----------  ----------\n"
        "Turbidity            NTU          4         2.6         0.4\n"
        "Lead                 ug/L         10        1.1         14.2\n"
        "Coliform bacteria    cfu/100 mL   0         23          0\n"
        "\n"
        "Lead at S-02 exceeds the limit.  Resample within 14 days.\n"
    )
    assert _loaded_rows(report) == [
        "Turbidity (Units: NTU; PCV: 4; S-01: 2.6; S-02: 0.4).",
        "Lead (Units: ug/L; PCV: 10; S-01: 1.1; S-02: 14.2).",
        "Coliform bacteria (Units: cfu/100 mL; PCV: 0; S-01: 23; S-02: 0).",
    ]


def test_a_bill_in_columns_keeps_a_wrapped_item_and_the_rows_under_its_sum_rule() -> None:
    bill = (
        "CHARGES\n\n"
        "Gas safety check (3 appliances)                        78.00\n"
        "Boiler service (discounted from 89.00 when booked\n"
        "  with the safety check)                               72.00\n"
        "Parts: burner door gasket                              18.40\n"
        "                                                   ---------\n"
        "Subtotal                                              168.40\n"
        "TOTAL (GBP)                                           202.08\n"
        "\nThe invoice is payable within 14 days.\n"
    )
    assert _loaded_rows(bill) == [
        "Gas safety check (3 appliances); 78.00.",
        "Boiler service (discounted from 89.00 when booked with the safety check); 72.00.",
        "Parts: burner door gasket; 18.40.", "Subtotal; 168.40.", "TOTAL (GBP); 202.08.",
    ]


def test_names_and_roles_in_columns_are_rows_without_a_header_and_aligned_fields_stay_fields() -> None:
    minutes = (
        "PRESENT\n"
        "  Dr Yvonne Achterberg     Chair\n"
        "  Claire Dunsford          Vice-Chair\n"
        "\n"
        "Report No.:        PAS-27-03318\n"
        "Client:            Sallowmere Parish Council\n"
        "\n"
        "      Dissemination and open access              £7,500\n"
        "      TOTAL                                     £348,650\n"
        "\n"  # prose typed with two blanks after a full stop is no table
        "The meeting opened at 7pm and the chair welcomed all of the members.  Apologies came.\n"
        "Five members were present.  The quorum is four.\n"
    )
    assert _loaded_rows(minutes) == [
        "Dr Yvonne Achterberg; Chair.", "Claire Dunsford; Vice-Chair.",
        "Dissemination and open access; £7,500.", "TOTAL; £348,650.",
    ]


def test_a_currency_set_out_in_its_own_column_is_its_amount_s() -> None:
    bill = ("SUMMARY\n"
            "Electricity charges this period                         GBP  293.18\n"
            "Gas charges this period                                 GBP  228.03\n")
    assert _loaded_rows(bill) == ["Electricity charges this period; GBP 293.18.",
                                  "Gas charges this period; GBP 228.03."]


def test_an_html_row_of_header_cells_heads_its_table_whatever_its_words() -> None:
    from ingest.loaders import parse_file

    page = ("<html><body><h2>Registration fees</h2><table><thead><tr><th>Category</th><th>Early bird (by 31 July "
            "2027)</th><th>Standard</th></tr></thead><tbody><tr><td>Student</td><td>&pound;35</td><td>&pound;45</td>"
            "</tr></tbody></table></body></html>")
    doc = parse_file(Path("fees.html"), page.encode(), None)
    assert "Student (Early bird (by 31 July 2027): £35; Standard: £45)." in render_tables(doc.text)[0]


def test_a_plain_text_table_s_header_may_hold_units_and_names_but_not_figures_of_its_rows() -> None:
    readings = ("Reading date   Reading (m3)    Type\n31/12/2026          4,112      Actual\n"
                "31/03/2027          4,398      Estimated\n")
    assert _loaded_rows(readings) == ["31/12/2026 (Reading (m3): 4,112; Type: Actual).",
                                      "31/03/2027 (Reading (m3): 4,398; Type: Estimated)."]
    ranges = ("Mode     E7 (482 Wh)     E7 Plus (630 Wh)\nEco      up to 120 km    up to 155 km\n"
              "Tour     up to 85 km     up to 110 km\n")
    assert _loaded_rows(ranges)[0] == "Eco (E7 (482 Wh): up to 120 km; E7 Plus (630 Wh): up to 155 km)."
    codes = "E01    Speed sensor signal missing.\nE03    Battery temperature too high.\nE05    Battery too cold.\n"
    assert _loaded_rows(codes)[0] == "E01; Speed sensor signal missing."  # a code like those below is no header
    usage = ("                 2026         2027\nElectricity      1,112 kWh    987 kWh\n"
             "Gas              3,684 kWh    3,201 kWh\n")
    assert _loaded_rows(usage)[0] == "Electricity (2026: 1,112 kWh; 2027: 987 kWh)."  # an empty corner heads it


def test_a_cell_s_closing_full_stop_does_not_cut_its_row_into_two_sentences() -> None:
    from ledger.text.sentences import split_sentences

    table = ("| No. | Action required | Deadline |\n|---|---|---|\n"
             "| 5 | Seal the gap under the rear door against pests. | 18 February 2025 (14 days) |\n")
    row = render_tables(table)[0].strip()
    assert row == "No. 5 (Action required: Seal the gap under the rear door against pests; Deadline: 18 February " \
                  "2025 (14 days))."
    assert len(split_sentences(row)) == 1


def test_a_first_row_of_names_over_columns_of_figures_heads_its_table() -> None:
    # a Word or PDF table has no rule under its header; its names may hold figures of their own ("20 mg")
    table = ("Result after 16 weeks | Dose 20 mg | Dose 40 mg | Placebo\n"
             "Number of people in group | 138 | 137 | 137\n"
             "Stopped because of a side effect | 3 people (2.2%) | 6 people (4.4%) | 2 people (1.5%)\n")
    assert "Number of people in group (Dose 20 mg: 138; Dose 40 mg: 137; Placebo: 137)." in render_tables(table)[0]
    ranks = "Ada Byron | 2 wins | 3 losses\nAlan Turing | 5 wins | 0 losses\n"  # its first row is one of them
    assert "Ada Byron; 2 wins; 3 losses." in render_tables(ranks)[0]


def test_a_rule_across_the_page_under_a_plain_text_header_is_its_header_s() -> None:
    invoice = ("------------------------------------------------------------\n"
               "Description                 Qty   Unit price      Total\n"
               "------------------------------------------------------------\n"
               "Oil filter                    1       £14.95     £14.95\n"
               "Spark plugs (iridium)         4       £11.20     £44.80\n"
               "------------------------------------------------------------\n")
    assert _loaded_rows(invoice) == ["Oil filter (Qty: 1; Unit price: £14.95; Total: £14.95).",
                                     "Spark plugs (iridium) (Qty: 4; Unit price: £11.20; Total: £44.80)."]


def test_an_html_header_cell_beside_one_value_is_a_field() -> None:
    from ingest.loaders import parse_file

    page = ("<html><body><table><tr><th>Inspecting officer</th><td>Mr Idris Vale, Environmental Health Officer</td>"
            "</tr><tr><th>Date of visit</th><td>4 February 2027</td></tr></table>"
            "<table><tr><th>Area</th><th>Score</th></tr><tr><td>Cleaning</td><td>15</td></tr></table></body></html>")
    text = render_tables(parse_file(Path("report.html"), page.encode(), None).text)[0]
    assert "Inspecting officer: Mr Idris Vale, Environmental Health Officer" in text
    assert "Date of visit: 4 February 2027" in text
    assert "Cleaning (Score: 15)." in text  # a header row still heads its table
