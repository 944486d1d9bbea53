"""What a recipient runs on an export: recompute its own content hash, and, with the database at hand, compare it
with the run, audit row and sign-offs the database holds. Pure: bytes and records in, a verdict out.

The review an export records is covered like the run: by the content hash, and in JSON also by each sign-off's own
audit row (its row hash re-derived, its run named, its readable fields recomputed from it). The database comparison
re-exports the run with exactly the sign-offs the file names, so a later sign-off does not make an earlier export
wrong, while a sign-off the database does not hold does."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.audit import chain as audit
from ledger.audit.types import AuditRecord
from ledger.core.types import RunResult
from ledger.exports.html import claimed_page_sha256, page_sha256
from ledger.exports.json_csv import REVIEW_ROUND, ExportFormat, csv_trailer, export_run
from ledger.exports.review import review_problem, review_row_hashes


@dataclass(frozen=True)
class ExportCheck:
    """The verdict on one export file's own hashes."""

    fmt: ExportFormat | None
    ok: bool
    claimed: str | None = None  # the content hash the file carries
    actual: str | None = None  # the content hash recomputed from the file
    session_id: str | None = None
    audit_chain_hash: str | None = None  # the run's audit row hash, as the file names it
    problem: str = ""  # why the file does not hold, in words
    review_hashes: tuple[str, ...] = ()  # audit row hashes of the sign-offs the file records


def detect_format(data: bytes) -> ExportFormat | None:
    """json, html or csv by content (not by file name), or None when the bytes are none of our exports."""
    head = data.lstrip()[:512].lower()
    if head.startswith(b"{"):
        return "json"
    if head.startswith(b"<!doctype html") or head.startswith(b"<html"):
        return "html"
    if head.startswith(b"session_id,") and csv_trailer(data)[0]:
        return "csv"
    return None


def check_export(data: bytes) -> ExportCheck:
    """Recompute an export's content hash (JSON, CSV or HTML) and say whether it matches the one it carries."""
    fmt = detect_format(data)
    if fmt == "json":
        return _check_json(data)
    if fmt == "csv":
        return _check_csv(data)
    if fmt == "html":
        return _check_html(data)
    return ExportCheck(fmt=None, ok=False, problem="not an Evidence Ledger export (JSON, CSV or HTML)")


def compare_with_database(check: ExportCheck, result: RunResult, record: AuditRecord,
                          reviews: Sequence[AuditRecord] = ()) -> str | None:
    """Why the export is not what the database holds for its run (None when it is): its audit row hash, the
    sign-offs it records (`reviews`: the run's sign-offs in the database), then its whole content, re-exported from
    the stored run with those sign-offs in the same format and hashed the same way."""
    if check.fmt is None:
        return "not an export"
    if check.audit_chain_hash != record.row_hash:
        return (f"it names audit row hash {check.audit_chain_hash}, but the database's audit row {record.id} for "
                f"session {record.session_id} has {record.row_hash}")
    held = {r.row_hash: r for r in reviews}
    missing = [h for h in check.review_hashes if h not in held]
    if missing:
        return f"it records a sign-off (row hash {missing[0]}) that the database does not hold for this run"
    named = [held[h] for h in check.review_hashes]
    if export_run(result, record, check.fmt, named).content_sha256 != check.actual:
        return "its content differs from the run the database holds for that session"
    return None


def _check_json(data: bytes) -> ExportCheck:
    try:
        document = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return ExportCheck(fmt="json", ok=False, problem=f"not valid JSON ({exc})")
    if not isinstance(document, dict) or not isinstance(document.get("content_sha256"), str):
        return ExportCheck(fmt="json", ok=False, problem="no content_sha256 field: not an Evidence Ledger export")
    body = {k: v for k, v in document.items() if k != "content_sha256"}
    try:
        actual = audit.content_sha256(body)
    except (TypeError, ValueError) as exc:
        return ExportCheck(fmt="json", ok=False, problem=f"cannot be put in canonical form ({exc})")
    run, record = _as_dict(document.get("run")), _as_dict(document.get("audit"))
    found = ExportCheck(fmt="json", ok=False, claimed=document["content_sha256"], actual=actual,
                        session_id=str(run.get("session_id", "")) or None,
                        audit_chain_hash=_str(document.get("audit_chain_hash")))
    if actual != found.claimed:
        return _failed(found, "its content_sha256 does not match its content (edited after export)")
    fields = {k: v for k, v in record.items() if k not in ("id", "row_hash")}
    if audit.content_sha256(fields) != record.get("row_hash") or record.get("row_hash") != found.audit_chain_hash:
        return _failed(found, "its audit row does not match its row_hash")
    if record.get("result_sha256") not in (None, audit.content_sha256(run)):
        return _failed(found, "its run does not match the result_sha256 of its audit row")
    review = _as_dict(document.get("review"))
    if not review:  # exports of schema 1.0 had none; from 1.1 on, one without it was edited
        return _held(found) if document.get("schema_version") == "1.0" else _failed(found, "it has no review section")
    problem = review_problem(review, str(run.get("session_id", "")), str(found.audit_chain_hash))
    if problem:
        return _failed(found, problem)
    return _held(replace(found, review_hashes=review_row_hashes(review)))


def _check_csv(data: bytes) -> ExportCheck:
    trailer, body = csv_trailer(data)
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8", errors="replace"))))
    signed = [r.get("review_row_hash") for r in rows if r.get("round") == REVIEW_ROUND and r.get("change") == ""]
    found = ExportCheck(fmt="csv", ok=False, claimed=trailer.get("sha256"), actual=audit.sha256_hex(body),
                        session_id=rows[0].get("session_id") if rows else None,
                        audit_chain_hash=trailer.get("audit_chain_hash"),
                        review_hashes=tuple(h for h in signed if h))
    if found.claimed != found.actual:
        return _failed(found, "the sha256 on its last line does not match the lines above it (edited after export)")
    return _held(found)


def _check_html(data: bytes) -> ExportCheck:
    claimed = claimed_page_sha256(data)
    if claimed is None:
        return ExportCheck(fmt="html", ok=False, problem="it carries no page hash (exported by an older version, "
                                                         "or the hash was removed)")
    text = data.decode("utf-8", errors="replace")
    found = ExportCheck(fmt="html", ok=False, claimed=claimed, actual=page_sha256(data, claimed),
                        session_id=_meta(text, "evidence-session"),
                        audit_chain_hash=_meta(text, "evidence-audit-chain-hash"),
                        review_hashes=tuple((_meta(text, "evidence-review-row-hashes") or "").split()))
    if found.claimed != found.actual:
        return _failed(found, "its page sha256 does not match the page (edited after export)")
    return _held(found)


def _meta(page: str, name: str) -> str | None:
    marker = f'<meta name="{name}" content="'
    start = page.find(marker)
    if start < 0:
        return None
    start += len(marker)
    end = page.find('"', start)
    return html.unescape(page[start:end]) if end > start else None


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _failed(found: ExportCheck, problem: str) -> ExportCheck:
    return replace(found, ok=False, problem=problem)


def _held(found: ExportCheck) -> ExportCheck:
    return replace(found, ok=True, problem="")
