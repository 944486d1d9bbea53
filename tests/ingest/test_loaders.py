"""Loading files: what a user sees for each format, and the one-line reason for each bad file."""

from __future__ import annotations

import io
import os
import re
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import docx
import pytest

from ingest.hashing import bytes_digest
from ingest.loaders import SUPPORTED_EXTENSIONS, load_file
from ledger.core.errors import LoaderError
from tests.fakes import pdf_with_stream

SAMPLE_DOCS = Path(__file__).resolve().parents[2] / "sample_docs"


# ------------------------------------------------------------------------------ builders


def make_pdf(lines: list[str], title: str | None = None, *, bad_xref: bool = False) -> bytes:
    """A minimal one-page PDF in Helvetica, written by hand so the tests need no PDF writer."""
    return pdf_with_stream("BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET",
                           title, bad_xref=bad_xref)


def make_docx(paragraphs: list[str], title: str | None = None, table: list[list[str]] | None = None) -> bytes:
    """A .docx built with python-docx, as Word would save it."""
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=max(len(row) for row in table))
        for row, cells in zip(grid.rows, table, strict=False):
            for cell, text in zip(row.cells, cells, strict=False):
                cell.text = text
    if title:
        document.core_properties.title = title
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


HTML_PAGE = b"""<!DOCTYPE html>
<html><head><title>Refund Rules</title><style>p { color: red; }</style>
<script>var tracking = "SECRET-SCRIPT";</script></head>
<body><nav><a href="/">Home</a> <a href="/menu">MENU-LINK</a></nav>
<h1>Refund   rules
 for customers</h1>
<p>Issued: May 18, 2026</p>
<p>Refunds are paid within
three business days.</p>
<ul><li>No cash refunds.</li><li>No gift cards.</li></ul>
<table><tr><th>Amount</th><th>Approver</th></tr><tr><td>Up to $750</td><td>Agent</td></tr></table>
<!-- HIDDEN-COMMENT -->
</body></html>"""


# ------------------------------------------------------------------------------ formats


@pytest.mark.parametrize(
    ("name", "content", "title", "expected_date", "must_contain"),
    [
        (
            "memo.txt",
            b"Quarterly memo\r\nEffective date: 2026-03-01\r\n\r\nThe hotel cap is $220 per night.\r\n",
            "Quarterly memo",
            date(2026, 3, 1),
            ["The hotel cap is $220 per night.", "Quarterly memo\nEffective date: 2026-03-01\n\nThe"],
        ),
        (
            "bom.txt",
            "\ufeffCaf\u00e9 policy\nIssued: 1 March 2026\n".encode(),
            "Caf\u00e9 policy",
            date(2026, 3, 1),
            ["Caf\u00e9 policy\nIssued: 1 March 2026"],
        ),
        (
            "policy.md",
            b"Intro line\n\n# **Remote** Work Policy\n\n**Effective:** 2026-07-01\n\nUp to 3 days per week.\n",
            "Remote Work Policy",
            date(2026, 7, 1),
            ["Up to 3 days per week."],
        ),
        (
            "notes.markdown",
            b"---\ntitle: Front Matter Title\n---\nJust notes without a heading.\n",
            "Front Matter Title",
            None,
            ["Just notes without a heading."],
        ),
        (
            "plain.md",
            b"Plain first line\nno heading anywhere\n",
            "Plain first line",
            None,
            ["no heading anywhere"],
        ),
        (
            "rules.html",
            HTML_PAGE,
            "Refund Rules",
            date(2026, 5, 18),
            [
                "Refund rules for customers",
                "Refunds are paid within three business days.",
                "- No cash refunds.\n- No gift cards.",
                "Amount | Approver\n|---|---|\nUp to $750 | Agent",  # a row of <th> cells is ruled off as the header
            ],
        ),
        (
            "heading_only.htm",
            b"<html><body><h1>Data Retention</h1><p>Date: 2026-05-18</p><p>Keep invoices 10 years.</p></body></html>",
            "Data Retention",
            date(2026, 5, 18),
            ["Data Retention\n\nDate: 2026-05-18\n\nKeep invoices 10 years."],
        ),
        (
            "vendors.docx",
            make_docx(
                ["Vendor Onboarding", "Issue date: 12 August 2026", "Three quotes above $25,000."],
                title="Vendor Onboarding Procedure",
                table=[["Tier", "Spend"], ["Tier 1", "Above $250,000"]],
            ),
            "Vendor Onboarding Procedure",
            date(2026, 8, 12),
            ["Issue date: 12 August 2026\n\nThree quotes above $25,000.", "Tier | Spend\nTier 1 | Above $250,000"],
        ),
        (
            "untitled.docx",
            make_docx(["First paragraph is the title", "Body."]),
            "First paragraph is the title",
            None,
            ["Body."],
        ),
        (
            "report.pdf",
            make_pdf(["Q3 Report", "Published: 2026-10-20", "Revenue was $48.6 million."], title="Quarterly Report"),
            "Quarterly Report",
            date(2026, 10, 20),
            ["Revenue was $48.6 million.", "Published: 2026-10-20"],
        ),
        (
            "no_meta.pdf",
            make_pdf(["Board Minutes", "Nothing dated."]),
            "Board Minutes",
            None,
            ["Nothing dated."],
        ),
    ],
)
def test_each_format_loads_with_title_text_and_date(
    tmp_path: Path,
    name: str,
    content: bytes,
    title: str,
    expected_date: date | None,
    must_contain: list[str],
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    mtime = datetime(2025, 1, 2, 12, tzinfo=UTC).timestamp()
    os.utime(path, (mtime, mtime))

    doc = load_file(path)

    assert doc.title == title
    assert doc.path == str(path.resolve())
    assert doc.sha256 == bytes_digest(content)
    assert "\r" not in doc.text and "\ufeff" not in doc.text
    for fragment in must_contain:
        assert fragment in doc.text
    if expected_date is None:
        assert (doc.doc_date, doc.date_source) == (date(2025, 1, 2), "mtime")
    else:
        assert doc.doc_date == expected_date
        assert doc.date_source.startswith("text:")


def test_html_drops_scripts_styles_navigation_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(HTML_PAGE)
    text = load_file(path).text
    for hidden in ("SECRET-SCRIPT", "color: red", "MENU-LINK", "HIDDEN-COMMENT", "DOCTYPE", "html"):
        assert hidden not in text


@pytest.mark.parametrize(
    ("name", "content", "title"),
    [
        ("long.txt", ("word " * 60 + "\nbody\n").encode(), "word " * 23 + "word\u2026"),  # cut at a word, <= 120
        ("board_minutes.txt", b"Untitled\nMinutes of the board.\n", "board_minutes"),  # placeholder: file name
        ("board_minutes.html", b"<title>Untitled</title><p>Minutes.</p>", "Minutes."),
        # a saved e-mail is titled by its subject, not "From: bookings@…"
        ("booking.txt", b"From: bookings@inn.example\nTo: Ana Ruiz\nSubject: Your stay, ref 4471\n\nDear Ana,\n",
         "Your stay, ref 4471"),
        ("thread.txt", b"Subject: Re: Hall hire\n\nFrom: Tom\nDate: 2 May 2026\n\nAna, the hall is free.\n",
         "Re: Hall hire"),
        ("notes.txt", b"Shopping list\nSubject: maths\n", "Shopping list"),  # a header line after text is no header
    ],
)
def test_titles_are_short_and_never_placeholders(tmp_path: Path, name: str, content: bytes, title: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert load_file(path).title == title


def _encrypted_pdf(text: str, user_password: str) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf([text]))))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_pdf_encrypted_without_a_user_password_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "print_restricted.pdf"
    path.write_bytes(_encrypted_pdf("Locked for printing only", user_password=""))
    assert "Locked for printing only" in load_file(path).text


def test_damaged_but_recoverable_pdf_loads(tmp_path: Path) -> None:
    # pypdf logs warnings while recovering; the CLI and the UI quiet them (tests/cli: ..._without_flooding_stderr).
    path = tmp_path / "bad_xref.pdf"
    path.write_bytes(make_pdf(["Recovered text"], bad_xref=True))
    assert "Recovered text" in load_file(path).text


# ------------------------------------------------------------------------------ sample corpus


@pytest.mark.parametrize(
    ("name", "title", "doc_date", "figure"),
    [
        ("travel_expense_policy_2026.md", "Travel and Expense Policy (2026 edition)", date(2026, 3, 1), "$220 per"),
        ("travel_expense_policy_2024.txt", "TRAVEL AND EXPENSE POLICY (2024 EDITION)", date(2024, 1, 15), "$180 per"),
        ("information_security_policy.md", "Information Security Policy", date(2026, 4, 1), "within 4 hours"),
        ("remote_work_policy.md", "Remote Work Policy", date(2026, 7, 1), "$35 per month"),
        ("customer_refund_procedure.md", "Customer Refund Procedure", date(2026, 2, 9), "within 48 hours"),
        ("data_retention_policy.html", "Data Retention Policy | Quillfeather Analytics", date(2026, 5, 18), "400 days"),
        ("vendor_onboarding_procedure.docx", "Vendor Onboarding Procedure", date(2026, 8, 12), "at least $2 million"),
        ("q3_2026_quarterly_report.pdf", "Q3 2026 Quarterly Report", date(2026, 10, 20), "$48.6 million"),
    ],
)
def test_sample_documents_load_with_their_titles_dates_and_figures(
    name: str, title: str, doc_date: date, figure: str
) -> None:
    doc = load_file(SAMPLE_DOCS / name)
    assert (doc.title, doc.doc_date) == (title, doc_date)
    assert doc.date_source.startswith("text:")
    assert figure in doc.text
    assert 400 <= len(doc.text.split()) <= 1200


def test_sample_corpus_is_all_loadable_and_has_no_readme() -> None:
    files = sorted(p.name for p in SAMPLE_DOCS.iterdir() if p.is_file())
    assert len(files) >= 8 and not any(name.lower().startswith("readme") for name in files)
    assert {Path(name).suffix for name in files} >= {".md", ".txt", ".html", ".docx", ".pdf"}


# ------------------------------------------------------------------------------ bad files


def _zip_without_document() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a word document")
    return buffer.getvalue()


def _docx_with_parts(replace: dict[str, bytes | None], data: bytes | None = None) -> bytes:
    """A .docx (make_docx(["Body"]) by default) with parts replaced, or dropped where the new content is None."""
    original = zipfile.ZipFile(io.BytesIO(data or make_docx(["Body"])))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in original.namelist():
            content = replace.get(name, original.read(name))
            if content is not None:
                archive.writestr(name, content)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("corrupt.pdf", b"%PDF-1.4\nthis is not really a pdf\n", "not a readable PDF: damaged or truncated ("),
        ("truncated.pdf", make_pdf(["Cut short"])[:200], "not a readable PDF: damaged or truncated ("),
        ("fake.pdf", b"Just some text pretending to be a PDF.", "not a readable PDF: no PDF header"),
        ("blank.pdf", make_pdf([]), "no text could be extracted"),
        ("random.docx", bytes(range(256)) * 8, "not a valid .docx (not a zip archive)"),
        ("other.docx", _zip_without_document(), "not a valid .docx (no word/document.xml inside)"),
        ("legacy.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64, "not a valid .docx (password-protected"),
        ("empty_body.docx", make_docx([]), "no text could be extracted"),
        ("no_styles.docx", _docx_with_parts({"word/styles.xml": None}), "not a valid .docx (part word/styles.xml is"),
        ("bad_xml.docx", _docx_with_parts({"word/document.xml": b"<w:document"}), "not a valid .docx (Namespace"),
        ("empty.txt", b"", "file is empty"),
        ("empty.pdf", b"", "file is empty"),
        ("empty.docx", b"", "file is empty"),
        ("blank.md", b"  \n\n\t\n", "no text could be extracted"),
        ("latin1.txt", "Caf\u00e9 cr\u00e8me".encode("latin-1"), "not UTF-8 text (byte 0xe9 at offset 3; save the"),
        ("latin1_bom.md", b"\xef\xbb\xbf" + "Caf\u00e9".encode("latin-1"), "not UTF-8 text (byte 0xe9 at offset 6;"),
        ("utf16.txt", "Policy".encode("utf-16"), "not UTF-8 text (UTF-16 byte-order mark"),
        ("binary.txt", b"MZ\x90\x00\x03\x00\x00\x00text", "binary content, not text"),
        ("sheet.xlsx", b"whatever", "unsupported file type '.xlsx'; supported: .docx, .htm, .html, .markdown, .md,"),
        ("Makefile", b"all:\n", "unsupported file type (no extension)"),
    ],
)
def test_bad_files_raise_loader_error_with_a_one_line_reason(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(LoaderError) as caught:
        load_file(path)
    error = caught.value
    assert error.reason.startswith(reason)
    assert error.path == str(path)
    assert "\n" not in error.reason and "Traceback" not in str(error)
    assert str(error) == f"{path}: {error.reason}"


def test_docx_bomb_is_refused_before_it_is_unpacked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ingest.loaders._MAX_DOCX_XML_BYTES", 1000)
    path = tmp_path / "bomb.docx"
    path.write_bytes(make_docx(["x" * 2000]))
    with pytest.raises(LoaderError, match=r"not a valid \.docx \(document body is implausibly large\)"):
        load_file(path)


def test_docx_lists_merged_cells_nested_tables_and_missing_core_properties(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Approval rules")
    document.add_paragraph("Bullet item", style="List Bullet")
    document.add_paragraph("Numbered item", style="List Number")
    table = document.add_table(rows=3, cols=3)
    table.cell(0, 0).merge(table.cell(0, 2)).text = "Spend limits"
    table.cell(1, 0).merge(table.cell(2, 0)).text = "Tier 1"
    table.cell(1, 1).text, table.cell(1, 2).text = "Up to $5,000", "Manager"
    table.cell(2, 1).text = "Above $5,000"
    table.cell(2, 2).add_table(rows=1, cols=2).rows[0].cells[0].text = "CFO"
    document.add_paragraph("Closing line.")
    buffer = io.BytesIO()
    document.save(buffer)
    # Without core properties python-docx would invent the title "Word Document"; the first line is the title.
    rels = zipfile.ZipFile(buffer).read("_rels/.rels").decode()
    rels = re.sub(r"<Relationship [^>]*docProps/core\.xml[^>]*/>", "", rels)
    path = tmp_path / "rules.docx"
    path.write_bytes(_docx_with_parts({"docProps/core.xml": None, "_rels/.rels": rels.encode()}, buffer.getvalue()))
    loaded = load_file(path)
    assert loaded.title == "Approval rules"
    assert loaded.text == (
        "Approval rules\n\n- Bullet item\n\n- Numbered item\n\n"
        "Spend limits\nTier 1 | Up to $5,000 | Manager\nAbove $5,000 | CFO\n\nClosing line."
    )


def test_docx_and_html_headings_keep_their_level_so_a_numbered_one_is_no_list_item(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Minutes of 9 October 2026", 1)
    document.add_heading("3. Budget for 2027", 2)
    document.add_paragraph("The draft budget of £64,000 was discussed.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).paragraphs[0].style = "Heading 3"  # a heading style inside a cell marks nothing
    table.cell(0, 0).paragraphs[0].text, table.cell(0, 1).text = "Owner", "Clerk"
    document.save(tmp_path / "minutes.docx")
    loaded = load_file(tmp_path / "minutes.docx")
    assert loaded.text == ("# Minutes of 9 October 2026\n\n## 3. Budget for 2027\n\n"
                           "The draft budget of £64,000 was discussed.\n\nOwner | Clerk")
    assert loaded.title == "Minutes of 9 October 2026"  # no heading marks in the title
    (tmp_path / "page.html").write_bytes("<html><body><h1>Plan your visit</h1><h3>3. Steam days 2027</h3>"
                                         "<p>Rides cost £4.</p></body></html>".encode())
    page = load_file(tmp_path / "page.html")
    assert page.text == "# Plan your visit\n\n### 3. Steam days 2027\n\nRides cost £4."
    assert page.title == "Plan your visit"


def test_docx_heading_1_under_a_title_is_a_section_below_it(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Handling dry ice", 0)  # the Title style
    document.add_heading("3. Protective equipment", 1)
    document.add_paragraph("Wear gloves.")
    document.save(tmp_path / "sop.docx")
    # a Heading 1 read as "#" was taken for the document's title, and its sentences lost their section
    assert load_file(tmp_path / "sop.docx").text == "# Handling dry ice\n\n## 3. Protective equipment\n\nWear gloves."


def test_quoted_reply_lines_lose_their_marks_but_a_threshold_keeps_its_sign(tmp_path: Path) -> None:
    mail = ("Re: venue\n\nAgreed.\n\n> From: Tomasz\n> Date: 13 March 2026\n>\n"
            "> The hall is free on 2 April. It would save about £1,100.\n")
    (tmp_path / "mail.txt").write_text(mail, encoding="utf-8")
    assert load_file(tmp_path / "mail.txt").text == ("Re: venue\n\nAgreed.\n\nFrom: Tomasz\nDate: 13 March 2026\n\n"
                                                     "The hall is free on 2 April. It would save about £1,100.")
    (tmp_path / "fees.md").write_text("Early repayment fee:\n> 5 years: 1%\n> 10 years: 0%\n\n> A quote alone.\n",
                                      encoding="utf-8")
    assert load_file(tmp_path / "fees.md").text == ("Early repayment fee:\n> 5 years: 1%\n> 10 years: 0%\n\n"
                                                    "> A quote alone.")


def test_an_html_definition_list_reads_as_label_lines(tmp_path: Path) -> None:
    page = ("<h2>Key dates</h2><dl>\n <dt>Half term</dt>\n <dd>Monday 26 October to Friday 30 October</dd>\n "
            "<dt>Concert:</dt><dd>Thursday 17 December</dd>\n</dl><p>Meals cost £2.60.</p>")
    (tmp_path / "dates.html").write_text(page, encoding="utf-8")
    assert load_file(tmp_path / "dates.html").text == ("## Key dates\n\nHalf term: Monday 26 October to Friday 30 "
                                                       "October\nConcert: Thursday 17 December\n\nMeals cost £2.60.")


def test_pdf_that_needs_a_password_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(_encrypted_pdf("Secret board minutes", user_password="open-sesame"))
    with pytest.raises(LoaderError) as caught:
        load_file(path)
    assert caught.value.reason == "not a readable PDF: encrypted with a password"


def test_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 3000)
    with pytest.raises(LoaderError) as caught:
        load_file(path, max_bytes=1024)
    assert caught.value.reason == "file too large (2.9 KiB; the limit is 1.0 KiB)"


@pytest.mark.parametrize(("make", "reason"), [(None, "file not found"), ("dir", "is a directory, not a file")])
def test_missing_file_and_directory_are_refused(tmp_path: Path, make: str | None, reason: str) -> None:
    path = tmp_path / "notes.md"
    if make == "dir":
        path.mkdir()
    with pytest.raises(LoaderError) as caught:
        load_file(path)
    assert caught.value.reason == reason


def test_permission_denied_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("classified", encoding="utf-8")

    def deny(file: object, flags: int, mode: int = 0o777) -> int:
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr("ingest.loaders.os.open", deny)  # tests may run as root, whom chmod does not stop
    with pytest.raises(LoaderError) as caught:
        load_file(path)
    assert caught.value.reason == "permission denied"


@pytest.mark.parametrize(
    ("name", "mime"),
    [
        ("a.TXT", "text/plain"),
        ("a.md", "text/markdown"),
        ("a.markdown", "text/markdown"),
        ("a.htm", "text/html"),
        ("a.html", "text/html"),
        ("a.pdf", "application/pdf"),
        ("a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ],
)
def test_mime_type_follows_the_extension_in_any_case(tmp_path: Path, name: str, mime: str) -> None:
    content = {".pdf": make_pdf(["Body"]), ".docx": make_docx(["Body"])}.get(Path(name).suffix, b"<p>Body</p>")
    path = tmp_path / name
    path.write_bytes(content)
    assert load_file(path).mime_type == mime
    assert Path(name).suffix.lower() in SUPPORTED_EXTENSIONS
