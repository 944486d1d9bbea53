"""Build the binary sample documents (sample_docs/*.docx and *.pdf) from the text kept in this script.

Needs python-docx and fpdf2, which are generation-time tools only, not runtime dependencies:
    pip install python-docx fpdf2 && python scripts/build_sample_docs.py
The output is byte-for-byte reproducible (fixed timestamps), so re-running it does not make
`evidence ingest` see changed files. Text is plain ASCII because the PDF uses a core font.
"""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent.parent / "sample_docs"
FIXED_TIME = datetime(2026, 10, 20, 9, 0, 0, tzinfo=UTC)

# A document is a list of blocks: ("title" | "meta" | "h2" | "p", text), ("bullets", [text, ...])
# or ("table", [[cell, ...], ...]) whose first row is the header.
Block = tuple[str, Any]

VENDOR_ONBOARDING: list[Block] = [
    ("title", "Vendor Onboarding Procedure"),
    ("meta", "Quillfeather Analytics, Inc. - Procurement"),
    ("meta", "Issue date: 12 August 2026"),
    ("meta", "Owner: Head of Procurement"),
    ("meta", "Document ID: PRC-PRO-003, version 2.0"),
    ("h2", "1. Purpose and scope"),
    (
        "p",
        "No goods or services may be bought from a supplier until that supplier has been onboarded under "
        "this procedure. The procedure applies to every new vendor, and to an existing vendor whenever its "
        "risk tier changes. It exists to protect the company from fraud, from sanctions breaches and from "
        "vendors that cannot keep our data safe.",
    ),
    ("h2", "2. Definitions"),
    (
        "bullets",
        [
            "Vendor means any third party that supplies goods or services to Quillfeather Analytics in return "
            "for payment.",
            "Vendor owner means the employee who requests a new vendor and remains responsible for the "
            "relationship while the vendor is active.",
            "Risk tier means the category, Tier 1, Tier 2 or Tier 3, that decides how much review a vendor needs.",
            "Onboarding means the checks, approvals and system set-up that must be completed before the first "
            "purchase order is issued.",
        ],
    ),
    ("h2", "3. Risk tiers"),
    (
        "table",
        [
            ["Tier", "Criteria", "Reviews required", "Re-review"],
            [
                "Tier 1",
                "Annual spend above $250,000, or any access to Restricted data",
                "Security, legal and finance review",
                "Every year",
            ],
            [
                "Tier 2",
                "Annual spend from $50,000 to $250,000, or access to Confidential data",
                "Security questionnaire and finance review",
                "Every 24 months",
            ],
            [
                "Tier 3",
                "Annual spend below $50,000 and no access to Confidential or Restricted data",
                "Finance review only",
                "Every 36 months",
            ],
        ],
    ),
    ("h2", "4. Steps"),
    (
        "p",
        "Step 1 - Request. The vendor owner submits a request in the Procurement portal with the business "
        "justification, the expected annual spend and a description of any company or customer data the "
        "vendor will access. Procurement assigns the risk tier from that information.",
    ),
    (
        "p",
        "Step 2 - Competitive quotes. For any purchase above $25,000, at least three written quotes must be "
        "obtained, unless the Head of Procurement approves a written single-source justification.",
    ),
    (
        "p",
        "Step 3 - Due diligence. Procurement screens the vendor against international sanctions lists "
        "before approval, and again every 6 months while the vendor is active. The vendor must provide its "
        "company registration, its tax identification number and proof of insurance. Professional "
        "liability cover of at least $2 million is required from every vendor, and Tier 1 vendors must "
        "also hold cyber insurance of at least $5 million.",
    ),
    (
        "p",
        "Step 4 - Security review. Tier 1 and Tier 2 vendors complete the security questionnaire. Tier 1 "
        "vendors must also provide a SOC 2 Type II report or an ISO/IEC 27001 certificate issued within "
        "the last 12 months. The security team completes its review within 8 business days of receiving a "
        "complete questionnaire. A vendor that will process customer personal data must sign the "
        "company's data processing agreement before it receives any data.",
    ),
    (
        "p",
        "Step 5 - Conflict of interest. The vendor owner and every approver sign a conflict-of-interest "
        "declaration. An employee who has a financial interest in a vendor, or a family relationship with "
        "anyone who owns or manages it, may not take part in selecting or approving that vendor.",
    ),
    (
        "p",
        "Step 6 - Bank details. Finance verifies the vendor's bank details by calling the vendor on a "
        "phone number taken from an independent source, never from the email that sent the details. A "
        "change to a vendor's bank details is frozen for two business days and verified again by "
        "call-back before any payment is made to the new account.",
    ),
    (
        "p",
        "Step 7 - Approval and set-up. A Tier 3 vendor is approved by the Head of Procurement. A Tier 2 "
        "vendor is approved by the Head of Procurement and the budget holder. A Tier 1 vendor also needs "
        "the approval of the Chief Financial Officer and the Chief Information Security Officer. "
        "Procurement then sets the vendor's status to Active in the ERP system. No purchase order may be "
        "issued to a vendor whose status is Pending. Standard payment terms are net 60 days from the "
        "invoice date.",
    ),
    ("h2", "5. Timelines"),
    (
        "p",
        "Procurement aims to complete onboarding of a Tier 3 vendor within one week and of a Tier 1 vendor "
        "within four weeks of a complete request. Requests that stay incomplete for more than two months "
        "are closed, and the vendor owner must start again.",
    ),
    ("h2", "6. Emergency purchases"),
    (
        "p",
        "In an emergency, a purchase of up to $10,000 may be made before onboarding is finished, with the "
        "written approval of the Chief Financial Officer. Onboarding of that vendor must then be completed "
        "within one month, and no further purchase may be made until it is.",
    ),
    ("h2", "7. Offboarding"),
    (
        "p",
        "When a contract ends, the vendor owner informs Procurement, the vendor's access to company systems "
        "is removed by the end of the next business day, and the vendor's status is set to Inactive. "
        "Vendor records are then kept as set out in the Data Retention Policy.",
    ),
]

Q3_REPORT: list[Block] = [
    ("title", "Q3 2026 Quarterly Report"),
    ("meta", "Quillfeather Analytics, Inc. - Finance and Investor Relations"),
    ("meta", "Published: 2026-10-20"),
    ("meta", "Reporting period: 1 July 2026 to 30 September 2026"),
    ("meta", "Status: internal, unaudited"),
    ("h2", "1. Summary"),
    (
        "p",
        "Revenue for the third quarter of 2026 was $48.6 million, an increase of 12.4% from $43.2 million "
        "in the third quarter of 2025. Gross margin was 71.3%. Operating income was $4.9 million, an "
        "operating margin of 10.1%, and net income was $3.6 million. Cash and cash equivalents were "
        "$72.4 million on September 30, 2026, up from $68.9 million on June 30, 2026.",
    ),
    ("h2", "2. Revenue"),
    (
        "p",
        "Subscription revenue was $39.1 million, or 80.5% of total revenue. Professional services revenue "
        "was $9.5 million. Annual recurring revenue (ARR) reached $158.0 million at the end of the quarter, "
        "up 16.8% year over year. Net revenue retention was 114%.",
    ),
    (
        "p",
        "The company had 1,284 paying customers at the end of the quarter and signed 37 new enterprise "
        "customers during the quarter. The largest single customer accounted for 4.2% of revenue.",
    ),
    (
        "table",
        [
            ["Region", "Revenue", "Share of revenue"],
            ["North America", "$28.2 million", "58%"],
            ["EMEA", "$15.1 million", "31%"],
            ["Asia-Pacific", "$5.3 million", "11%"],
        ],
    ),
    ("h2", "3. Costs and profitability"),
    (
        "p",
        "Gross profit was $34.7 million. Operating expenses were $29.8 million, made up of research and "
        "development at $12.6 million, sales and marketing at $11.3 million, and general and "
        "administrative costs at $5.9 million. Revenue for the first nine months of 2026 was "
        "$138.8 million.",
    ),
    ("h2", "4. People"),
    (
        "p",
        "Headcount was 612 employees on September 30, 2026, up from 587 on June 30, 2026. The company "
        "hired 41 people and 16 people left during the quarter. Of the 16 departures, 13 were voluntary, "
        "which gives an annualised voluntary attrition rate of 8.7%. Engineering is the largest "
        "department, with 248 employees.",
    ),
    ("h2", "5. Definitions"),
    (
        "bullets",
        [
            "Annual recurring revenue (ARR) means the annualised value of all active subscription contracts at "
            "the end of the period.",
            "Net revenue retention means the ARR at the end of the period from customers who were already "
            "customers twelve months earlier, divided by the ARR of those same customers twelve months earlier.",
            "Operating margin means operating income divided by revenue.",
        ],
    ),
    ("h2", "6. Outlook"),
    (
        "p",
        "For the fourth quarter of 2026 the company expects revenue between $50.5 million and "
        "$51.5 million. That puts full-year 2026 revenue between $189.3 million and $190.3 million. The "
        "company expects to end the year with about 640 employees. The main risks to this outlook are "
        "longer sales cycles for enterprise customers and exchange-rate movements, because about a third "
        "of revenue is billed in currencies other than the US dollar.",
    ),
]


def build_docx(blocks: list[Block], title: str) -> bytes:
    """Render blocks as a Word document with real headings, bullets and a table."""
    import docx

    document = docx.Document()
    for kind, content in blocks:
        if kind == "title":
            document.add_heading(str(content), level=0)
        elif kind == "h2":
            document.add_heading(str(content), level=1)
        elif kind in ("meta", "p"):
            document.add_paragraph(str(content))
        elif kind == "bullets":
            for item in content:
                document.add_paragraph(item, style="List Bullet")
        elif kind == "table":
            rows: list[list[str]] = content
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    props = document.core_properties
    props.title, props.author, props.last_modified_by = title, "Quillfeather Analytics", "Quillfeather Analytics"
    props.created = props.modified = FIXED_TIME.replace(tzinfo=None)
    props.revision = 1
    buffer = io.BytesIO()
    document.save(buffer)
    return _fixed_zip_times(buffer.getvalue())


def _fixed_zip_times(data: bytes) -> bytes:
    """Rewrite a zip with constant member timestamps; python-docx stamps the current time otherwise."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 10, 20, 9, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(fixed, source.read(info.filename))
    return out.getvalue()


def build_pdf(blocks: list[Block], title: str) -> bytes:
    """Render blocks as a simple A4 PDF in Helvetica, with the title in the PDF metadata."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_title(title)
    pdf.set_author("Quillfeather Analytics")
    pdf.set_creation_date(FIXED_TIME)
    pdf.set_margins(20, 20, 20)
    pdf.add_page()
    for kind, content in blocks:
        if kind == "title":
            pdf.set_font("Helvetica", "B", 18)
            pdf.multi_cell(0, 10, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "meta":
            pdf.set_font("Helvetica", "", 10)
            pdf.multi_cell(0, 5, str(content), new_x="LMARGIN", new_y="NEXT")
        elif kind == "h2":
            pdf.ln(3)
            pdf.set_font("Helvetica", "B", 13)
            pdf.multi_cell(0, 8, str(content), new_x="LMARGIN", new_y="NEXT")
        elif kind == "p":
            pdf.set_font("Helvetica", "", 11)
            pdf.multi_cell(0, 6, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "bullets":
            pdf.set_font("Helvetica", "", 11)
            for item in content:
                pdf.multi_cell(0, 6, f"- {item}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "table":
            pdf.set_font("Helvetica", "", 11)
            with pdf.table(text_align="LEFT") as table:
                for row in content:
                    table.row(row)
            pdf.ln(2)
    return bytes(pdf.output())


def _check_ascii(blocks: list[Block]) -> None:
    """Core PDF fonts only cover Latin-1 and we want clean extraction: keep the source plain ASCII."""
    text = repr(blocks)
    bad = sorted({ch for ch in text if ord(ch) > 126})
    if bad:
        raise SystemExit(f"non-ASCII characters in sample text: {bad}")


def main() -> None:
    """Write the .docx and .pdf sample documents."""
    _check_ascii(VENDOR_ONBOARDING)
    _check_ascii(Q3_REPORT)
    OUT_DIR.mkdir(exist_ok=True)
    outputs = {
        "vendor_onboarding_procedure.docx": build_docx(VENDOR_ONBOARDING, "Vendor Onboarding Procedure"),
        "q3_2026_quarterly_report.pdf": build_pdf(Q3_REPORT, "Q3 2026 Quarterly Report"),
    }
    for name, data in outputs.items():
        (OUT_DIR / name).write_bytes(data)
        print(f"wrote {OUT_DIR / name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
