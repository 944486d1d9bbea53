"""Compliance exports of one stored run: JSON (schema-checked), CSV (one row per claim per round) and HTML.

Each export also records the run's review (ledger.exports.review): every suggested change with the reviewer's
decision, the reviewed text, reviewer, time and comment of each sign-off, or that the revision was not reviewed.

Every export carries its own content hash, which `evidence export verify FILE` recomputes:
- JSON: `content_sha256` = sha256 of the canonical JSON (ledger.audit.chain) of the document without that key;
- CSV: a last line `# sha256=<hex> audit_chain_hash=<hex>`, the sha256 being of every byte before that line;
- HTML: `<meta name="evidence-page-sha256">` = sha256 of the page with every occurrence of that hash set to 64
  zeros (ledger.exports.html); the footer also names the JSON export's `content_sha256`.
`audit_chain_hash` is the run's audit row hash: with the database at hand, `evidence export verify` finds that row,
checks the chain, and compares the export with the run the database holds.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, get_args

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ledger.audit import chain as audit
from ledger.audit.types import AuditRecord
from ledger.core.types import RunResult
from ledger.exports.review import RunReview, review_problem, run_review

ExportFormat = Literal["json", "csv", "html"]
FORMATS: tuple[ExportFormat, ...] = ("json", "csv", "html")
SCHEMA_VERSION = "1.2"  # 1.1: the review section; 1.2: each evidence match's NLI entailment
SCHEMA_ID = "https://evidence-ledger.invalid/schemas/run_export.schema.json"
MEDIA_TYPES = {"json": "application/json", "csv": "text/csv", "html": "text/html"}
CLAIM_COLUMNS = (
    "session_id", "round", "claim_id", "claim_text", "type", "importance", "cited", "verdict", "confidence",
    "chunk_hash", "document", "support", "quote", "flags", "notes",
)
# Review rows (round "review"): one per sign-off (change empty), then one per suggested change.
REVIEW_COLUMNS = (
    "change", "change_kind", "before", "after", "reasons", "decision", "reviewer", "signed_at", "comment",
    "reviewed_text", "review_row_hash",
)
CSV_COLUMNS = CLAIM_COLUMNS + REVIEW_COLUMNS
REVIEW_ROUND = "review"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class ExportedRun:
    """The bytes of one export and the hashes that accompany it."""

    fmt: ExportFormat
    data: bytes
    sha256: str  # of `data`, for the sender to pass on alongside the file
    content_sha256: str  # the hash embedded in (or ending) the export itself
    audit_chain_hash: str

    @property
    def media_type(self) -> str:
        """MIME type of the export."""
        return MEDIA_TYPES[self.fmt]


def export_run(result: RunResult, record: AuditRecord, fmt: str, reviews: Sequence[AuditRecord] = ()) -> ExportedRun:
    """Export a run with its audit row and its sign-offs (`reviews`: RunStore.reviews_of) as JSON, CSV or HTML."""
    review = run_review(result, reviews)
    if fmt == "json":
        data, content = _json_export(result, record, review)
    elif fmt == "csv":
        data, content = _csv_export(result, record, review)
    elif fmt == "html":
        from ledger.exports.html import claimed_page_sha256, render_report

        data = render_report(result, record, review, content_sha256=audit.content_sha256(
            export_body(result, record, review)), schema_version=SCHEMA_VERSION).encode("utf-8")
        content = claimed_page_sha256(data) or ""
    else:
        raise ValueError(f"unknown export format {fmt!r}; use one of {', '.join(FORMATS)}")
    return ExportedRun(fmt=fmt, data=data, sha256=audit.sha256_hex(data), content_sha256=content,  # type: ignore[arg-type]
                       audit_chain_hash=record.row_hash)


def export_body(result: RunResult, record: AuditRecord, review: RunReview | None = None) -> dict[str, Any]:
    """The JSON export without its content_sha256: schema version, the run, its audit row and chain hash, and its
    review (not reviewed, when none is given)."""
    audit_json = audit.hashed_fields(record) | {"id": record.id, "row_hash": record.row_hash}
    # Floats keep full precision here; only the canonical form (for hashing) rounds them.
    return {
        "schema_version": SCHEMA_VERSION,
        "run": result.model_dump(mode="json"),
        "audit": audit_json,
        "audit_chain_hash": record.row_hash,
        "review": (review or run_review(result, ())).model_dump(mode="json"),
    }


def record_sha256(result: RunResult, record: AuditRecord, reviews: Sequence[AuditRecord] = ()) -> str:
    """The content_sha256 of a run's JSON export, which the other formats cite too."""
    return audit.content_sha256(export_body(result, record, run_review(result, reviews)))


def check_json_export(document: dict[str, Any]) -> bool:
    """True when a JSON export's content_sha256 and audit hashes match its content (what a recipient runs)."""
    body = {k: v for k, v in document.items() if k != "content_sha256"}
    if audit.content_sha256(body) != document.get("content_sha256"):
        return False
    fields = {k: v for k, v in document["audit"].items() if k not in ("id", "row_hash")}
    if not audit.content_sha256(fields) == document["audit"]["row_hash"] == document["audit_chain_hash"]:
        return False
    review = document.get("review")
    return isinstance(review, dict) and review_problem(review, document["run"]["session_id"],
                                                       document["audit_chain_hash"]) is None


def check_csv_export(data: bytes) -> bool:
    """True when a CSV export's trailing sha256 matches the bytes before it."""
    claimed, body = csv_trailer(data)
    return claimed.get("sha256") == audit.sha256_hex(body)


def csv_trailer(data: bytes) -> tuple[dict[str, str], bytes]:
    """The fields of a CSV export's last line (`# sha256=... audit_chain_hash=...`) and the bytes before it."""
    body, _, last = data.rstrip(b"\n").rpartition(b"\n")
    text = last.decode("utf-8", errors="replace")
    if not text.startswith("# "):
        return {}, data
    return dict(part.split("=", 1) for part in text[2:].split() if "=" in part), body + b"\n"


def _json_export(result: RunResult, record: AuditRecord, review: RunReview) -> tuple[bytes, str]:
    body = export_body(result, record, review)
    content = audit.content_sha256(body)
    document = body | {"content_sha256": content}
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8"), content


def _csv_export(result: RunResult, record: AuditRecord, review: RunReview) -> tuple[bytes, str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for round_no, ledger in audit.ledger_rounds(result):
        for entry in ledger.entries:
            best = entry.evidence[0] if entry.evidence else None
            writer.writerow([
                result.session_id, round_no, entry.claim.id, _cell(entry.claim.text), entry.claim.type,
                entry.claim.importance, " ".join(entry.claim.cited), entry.verdict, f"{entry.confidence:.3f}",
                best.chunk_hash if best else "", _cell(best.document) if best else "", best.support if best else "",
                _cell(best.quote) if best else "", " ".join(entry.flags), _cell(entry.notes),
                *[""] * len(REVIEW_COLUMNS),
            ])
    for row in _review_rows(review):
        writer.writerow([result.session_id, REVIEW_ROUND, *[""] * (len(CLAIM_COLUMNS) - 2), *row])
    body = buffer.getvalue().encode("utf-8")
    content = audit.sha256_hex(body)
    trailer = f"# sha256={content} audit_chain_hash={record.row_hash}\n".encode()
    return body + trailer, content


def _review_rows(review: RunReview) -> list[list[str]]:
    """The review columns (change … review_row_hash) of the review rows: each sign-off, then each suggested change
    with the decision in force; without a sign-off, one row saying the revision was not reviewed."""
    rows = [["", "", "", "", "", "signed off", _cell(s.reviewer), s.signed_at, _cell(s.comment),
             _cell(s.reviewed_text or ""), s.audit_row.row_hash] for s in review.sign_offs]
    if not review.sign_offs:
        rows.append(["", "", "", "", "", "not reviewed", "", "", _cell(review.status), "", ""])
    latest = review.sign_offs[-1] if review.sign_offs else None
    for c in review.changes:
        rows.append([str(c.number), c.kind, _cell(c.before), _cell(c.after), _cell(" | ".join(c.reasons)), c.decision,
                     _cell(latest.reviewer) if latest else "", latest.signed_at if latest else "", "", "",
                     latest.audit_row.row_hash if latest else ""])
    return rows


def _cell(text: str) -> str:
    """Text a spreadsheet shows as text: a leading =, +, -, @ would otherwise run as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _omitted_when_empty(models: list[type[BaseModel]]) -> dict[str, set[str]]:
    """Per model name (its schema definition), the fields its dump may leave out, for these models and every model
    their fields hold."""
    found: dict[str, set[str]] = {}

    def walk(kind: Any) -> None:
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            if kind.__name__ in found:
                return
            found[kind.__name__] = {n for n, f in kind.model_fields.items() if f.exclude_if is not None}
            for field in kind.model_fields.values():
                walk(field.annotation)
        for arg in get_args(kind):
            walk(arg)

    for model in models:
        walk(model)
    return found


def load_schema() -> dict[str, Any]:
    """The JSON Schema of the JSON export, as shipped in the package."""
    path = resources.files("ledger.exports").joinpath("schemas", "run_export.schema.json")
    return json.loads(path.read_text(encoding="utf-8"))


def build_schema() -> dict[str, Any]:
    """The JSON Schema of the JSON export, derived from the types (the shipped file is this, written out)."""
    models: list[type[BaseModel]] = [RunResult, AuditRecord, RunReview]
    _, top = models_json_schema([(m, "serialization") for m in models], ref_template="#/$defs/{model}")
    defs = top["$defs"]
    omitted = _omitted_when_empty(models)
    for name, definition in defs.items():
        if definition.get("type") == "object" and "properties" in definition:
            # exports write every field, but those a model leaves out when empty (Field(exclude_if=...))
            definition["required"] = sorted(p for p in definition["properties"] if p not in omitted.get(name, ()))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Evidence Ledger run export",
        "description": (
            "One stored run with its audit row. content_sha256 is the sha256 of the canonical JSON (keys sorted, "
            "no whitespace, UTF-8, floats rounded to 6 decimals) of this document without content_sha256; "
            "audit.row_hash is the sha256 of the canonical JSON of audit without id and row_hash."
        ),
        "type": "object",
        "required": ["schema_version", "run", "audit", "audit_chain_hash", "review", "content_sha256"],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION, "description": "Version of this export format."},
            "run": {"$ref": "#/$defs/RunResult"},
            "audit": {"$ref": "#/$defs/AuditRecord"},
            "audit_chain_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                 "description": "row_hash of the run's audit row."},
            "review": {"$ref": "#/$defs/RunReview"},
            "content_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                               "description": "sha256 of the canonical JSON of the document without this key."},
        },
        "$defs": defs,
    }


if __name__ == "__main__":  # python -m ledger.exports.json_csv > ledger/exports/schemas/run_export.schema.json
    print(json.dumps(build_schema(), indent=2, sort_keys=True))
