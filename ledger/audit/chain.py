"""Pure audit decisions: canonical JSON, row hashes, audit records from runs, and chain verification.

Canonical JSON (used for every hash here and in exports): keys sorted, no whitespace, UTF-8 without
escaping, floats rounded to 6 decimals (non-finite floats become null), times as `iso_utc`.
A row's hash is `sha256(canonical_json(fields))` over every field of the AuditRecord except `id` and
`row_hash` — `prev_hash` included, which is what chains the rows.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from ledger.audit.types import (
    GENESIS_HASH,
    AuditMetrics,
    AuditRecord,
    BadRow,
    ChainReport,
    GroupMetrics,
    Period,
    PurgedRow,
    RevisionSummary,
    RunStatus,
    as_utc,
    iso_utc,
)
from ledger.core.types import EvidenceLedger, RunResult, TokenUsage

FLOAT_DECIMALS = 6
JSON_FIELDS = (
    "retrieved_chunk_ids", "revision_history", "verdict_distribution", "risk_flags", "warnings",
    "claim_flags", "token_usage", "details",
)
"""Audit fields stored as JSON text in the database."""


def normalise(value: Any) -> Any:
    """The value with floats rounded, times in ISO UTC, tuples as lists and mapping keys as strings."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return round(value, FLOAT_DECIMALS) if math.isfinite(value) else None
    if isinstance(value, datetime):
        return iso_utc(value)
    if isinstance(value, Mapping):
        return {str(k): normalise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalise(v) for v in value]
    if hasattr(value, "model_dump"):
        return normalise(value.model_dump(mode="json"))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"cannot put {type(value).__name__} in canonical JSON")


def canonical_json(value: Any) -> bytes:
    """The canonical JSON bytes of a value (see the module docstring)."""
    return json.dumps(
        normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    """Hex sha256 of bytes, or of a string's UTF-8."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def content_sha256(value: Any) -> str:
    """sha256 of a value's canonical JSON."""
    return sha256_hex(canonical_json(value))


def hashed_fields(record: AuditRecord) -> dict[str, Any]:
    """The fields a row hash covers, in their JSON form."""
    return record.model_dump(mode="json", exclude={"id", "row_hash"})


def row_hash(record: AuditRecord) -> str:
    """The hash a row must carry: sha256 over the canonical JSON of its fields, prev_hash included."""
    return content_sha256(hashed_fields(record))


def seal(record: AuditRecord, prev_hash: str) -> AuditRecord:
    """The record chained onto `prev_hash`, with its own hash filled in (floats rounded as they will be stored)."""
    fields = normalise(record.model_dump(mode="json")) | {"prev_hash": prev_hash, "row_hash": ""}
    chained = AuditRecord.model_validate(fields)
    return chained.model_copy(update={"row_hash": row_hash(chained)})


def ledger_rounds(result: RunResult) -> list[tuple[int, EvidenceLedger]]:
    """(round, ledger) for every round of a run, draft first; the final ledger is its own round if it differs."""
    rounds = [(i, attempt.ledger) for i, attempt in enumerate(result.revisions)]
    if not rounds or (rounds[-1][1] != result.ledger and result.ledger.entries):
        rounds.append((len(rounds), result.ledger))
    return rounds


def revision_history(result: RunResult) -> list[RevisionSummary]:
    """The audit summary of every round of a run."""
    history = []
    for i, attempt in enumerate(result.revisions):
        summary = attempt.ledger.summary
        history.append(
            RevisionSummary(
                round=i,
                response_sha256=sha256_hex(attempt.response),
                response_chars=len(attempt.response),
                claim_count=len(attempt.ledger.entries),
                evidence_coverage=summary.evidence_coverage,
                unsupported_rate=summary.unsupported_rate,
                verdicts=_verdicts(attempt.ledger),
                critique_issues=len(attempt.critique.issues),
                should_revise=attempt.decision.should_revise if attempt.decision else None,
                reason=attempt.decision.reason if attempt.decision else "",
            )
        )
    return history


def run_record(result: RunResult, *, user: str, started_at: datetime, recorded_at: datetime,
               status: RunStatus = "ok", error: str | None = None) -> AuditRecord:
    """The (unsealed) audit record of a run."""
    final = result.ledger
    finished = status == "ok"
    return AuditRecord(
        event="run",
        session_id=result.session_id,
        timestamp=started_at,
        recorded_at=recorded_at,
        user_id=user,
        workspace_id=result.workspace,
        query=result.question,
        mode=result.mode,
        backend=result.backend,
        status=status,
        error=error,
        retrieved_chunk_ids=list(result.retrieved_chunks),
        revision_history=revision_history(result),
        final_coverage=final.summary.evidence_coverage if finished else None,
        final_unsupported_rate=final.summary.unsupported_rate if finished else None,
        claim_count=len(final.entries),
        verdict_distribution=_verdicts(final),
        risk_flags=list(result.risk_flags),
        risk_level=result.risk_level if finished else "",
        warnings=[w.code for w in result.warnings],
        claim_flags=dict(sorted(Counter(flag for e in final.entries for flag in e.flags).items())),
        total_duration_ms=result.duration_ms,
        llm_calls=result.llm_calls,
        token_usage=result.token_usage,
        result_sha256=content_sha256(result.model_dump(mode="json")),
    )


def _verdicts(ledger: EvidenceLedger) -> dict[str, int]:
    return dict(sorted(Counter(entry.verdict for entry in ledger.entries).items()))


def record_from_row(row: Mapping[str, Any]) -> AuditRecord:
    """An AuditRecord from a stored row, JSON columns parsed; raises ValueError when the row is unreadable."""
    data = dict(row)
    for name in JSON_FIELDS:
        if isinstance(data.get(name), str):
            try:
                data[name] = json.loads(data[name])
            except json.JSONDecodeError as exc:
                raise ValueError(f"field {name} is not valid JSON") from exc
    for name in ("timestamp", "recorded_at"):
        if isinstance(data.get(name), str):
            data[name] = datetime.fromisoformat(data[name].replace("Z", "+00:00"))
    try:
        return AuditRecord.model_validate(data)
    except ValidationError as exc:
        field = ".".join(str(p) for p in exc.errors()[0]["loc"])
        raise ValueError(f"field {field} holds a value no audit row can have") from exc


def verify_chain(rows: Iterable[Mapping[str, Any] | AuditRecord], head_hash: str | None = None) -> ChainReport:
    """Re-derive every row hash and link, in id order; the report names the first row that does not match.

    Rows removed by a purge are linked through the hashes the purge row kept. `head_hash`, when given,
    is the hash the store recorded for the last row, so rows cut from the end are caught too.
    """
    records: list[AuditRecord] = []
    for raw in rows:
        if isinstance(raw, AuditRecord):
            records.append(raw)
            continue
        try:
            records.append(record_from_row(raw))
        except ValueError as exc:
            bad = BadRow(id=raw.get("id"), session_id=str(raw.get("session_id", "")), reason=f"unreadable: {exc}")
            return ChainReport(ok=False, first_bad=bad)
    chain = chain_items(records)
    purged = [item for item in chain if not isinstance(item, AuditRecord)]
    expected_prev = GENESIS_HASH
    checked = 0
    for item in chain:
        if isinstance(item, AuditRecord):
            checked += 1
            if row_hash(item) != item.row_hash:
                return _broken(checked, len(purged), item,
                               "its fields do not match its row_hash (edited after writing)")
        if item.prev_hash != expected_prev:
            return _broken(checked, len(purged), item,
                           "its prev_hash does not match the row before it (a row was removed, added or reordered)")
        if isinstance(item, AuditRecord) and (early := purge_too_early(item)):
            return _broken(checked, len(purged), item, early)
        expected_prev = item.row_hash
    report = ChainReport(ok=True, rows_checked=checked, purged_rows=len(purged), head_hash=expected_prev)
    if head_hash is not None and head_hash != expected_prev:
        report.ok = False
        report.first_bad = BadRow(
            id=None, reason="the chain's recorded head does not match its last row (rows were cut from the end)"
        )
    return report


PURGE_CLOCK_SLACK = timedelta(minutes=5)


def purge_too_early(record: AuditRecord) -> str | None:
    """Why a purge row removed runs still inside their retention, or None when it did not.

    A purge measures retention from the time it ran; one measured from a later time (the old hidden `--now`)
    deleted runs inside the window. Purges that recorded the removed rows' start times are checked row by row.
    """
    if record.event != "purge":
        return None
    if record.timestamp > record.recorded_at + PURGE_CLOCK_SLACK:
        return (f"this purge measured retention from {iso_utc(record.timestamp)}, after it ran "
                f"({iso_utc(record.recorded_at)}): it removed runs still inside their retention")
    cutoffs = {ws: _parse_time(c) for ws, c in record.details.get("cutoffs", {}).items()}
    for removed in record.purged_rows():
        cutoff = cutoffs.get(removed.workspace_id or "")
        if removed.timestamp is not None and (cutoff is None or as_utc(removed.timestamp) >= cutoff):
            return f"this purge removed row {removed.id}, which was still inside its retention"
    return None


def _parse_time(value: Any) -> datetime:
    return as_utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))


def chain_items(records: Iterable[AuditRecord]) -> list[AuditRecord | PurgedRow]:
    """The whole chain in id order: the rows present, and in their places the rows purges removed."""
    rows = sorted(records, key=lambda r: r.id or 0)
    present = {r.id for r in rows}
    purged = {p.id: p for r in rows if r.event == "purge" for p in r.purged_rows() if p.id not in present}
    return sorted([*rows, *purged.values()], key=lambda r: r.id or 0)


def _broken(checked: int, purged: int, item: Any, reason: str) -> ChainReport:
    return ChainReport(
        ok=False, rows_checked=checked, purged_rows=purged, head_hash=item.row_hash,
        first_bad=BadRow(id=item.id, session_id=item.session_id, reason=reason),
    )


def verify_runs(pairs: Sequence[tuple[AuditRecord, str | None]]) -> BadRow | None:
    """The first run whose stored JSON no longer matches its audit row's result_sha256 (None if all match)."""
    for record, stored_json in pairs:
        if record.result_sha256 is None:
            continue
        if stored_json is None:
            return BadRow(id=record.id, session_id=record.session_id, reason="the run it records is missing")
        try:
            actual = content_sha256(json.loads(stored_json))
        except json.JSONDecodeError:
            actual = ""
        if actual != record.result_sha256:
            return BadRow(
                id=record.id, session_id=record.session_id,
                reason="the stored run no longer matches the result_sha256 of its audit row (run edited)",
            )
    return None


def period_key(moment: datetime, period: Period) -> str:
    """The bucket of a time: 2025-01-31 (day), 2025-W05 (ISO week) or 2025-01 (month)."""
    moment = as_utc(moment)
    if period == "day":
        return moment.strftime("%Y-%m-%d")
    if period == "week":
        year, week, _ = moment.isocalendar()
        return f"{year}-W{week:02d}"
    return moment.strftime("%Y-%m")


def audit_metrics(records: Iterable[AuditRecord], coverage_target: float, period: Period = "week") -> AuditMetrics:
    """Verification metrics over the run records (purge records are skipped): seed 001 applied to runs."""
    runs = [r for r in records if r.event == "run"]
    metrics = AuditMetrics(coverage_target=coverage_target, period=period, overall=_group(runs, coverage_target))
    counters: dict[str, Counter[str]] = {name: Counter() for name in ("verdicts", "risk", "claim", "warn", "errors")}
    by_workspace: dict[str, list[AuditRecord]] = {}
    by_period: dict[str, list[AuditRecord]] = {}
    tokens = Counter[str]()
    for run in runs:
        counters["verdicts"].update(run.verdict_distribution)
        counters["risk"].update(flag.type for flag in run.risk_flags)
        counters["claim"].update(run.claim_flags)
        counters["warn"].update(run.warnings)
        if run.status == "failed":
            counters["errors"][error_category(run.error)] += 1
        by_workspace.setdefault(run.workspace_id, []).append(run)
        by_period.setdefault(period_key(run.timestamp, period), []).append(run)
        metrics.llm_calls += run.llm_calls
        tokens.update(run.token_usage.model_dump())
    metrics.verdict_distribution = dict(sorted(counters["verdicts"].items()))
    metrics.risk_flags = dict(sorted(counters["risk"].items()))
    metrics.claim_flags = dict(sorted(counters["claim"].items()))
    metrics.warnings = dict(sorted(counters["warn"].items()))
    metrics.errors = dict(sorted(counters["errors"].items()))
    metrics.by_workspace = {ws: _group(group, coverage_target) for ws, group in sorted(by_workspace.items())}
    metrics.by_period = {key: _group(group, coverage_target) for key, group in sorted(by_period.items())}
    metrics.token_usage = TokenUsage(**tokens)
    return metrics


def passed(record: AuditRecord, coverage_target: float) -> bool:
    """A run passes when it finished and its final coverage reached the target."""
    return record.status == "ok" and record.final_coverage is not None and record.final_coverage >= coverage_target


def error_category(error: str | None) -> str:
    """The error class named at the start of a failed run's error ('StoreError: ...'), else 'error'."""
    head, colon, _ = (error or "").partition(":")
    return head.strip() if colon and head.strip().isidentifier() else "error"


def _group(runs: Sequence[AuditRecord], coverage_target: float) -> GroupMetrics:
    finished = [r.final_coverage for r in runs if r.status == "ok" and r.final_coverage is not None]
    n_passed = sum(passed(r, coverage_target) for r in runs)
    return GroupMetrics(
        total=len(runs),
        passed=n_passed,
        failed_runs=sum(r.status == "failed" for r in runs),
        pass_rate=n_passed / len(runs) if runs else 0.0,
        avg_coverage=sum(finished) / len(finished) if finished else None,
        avg_duration_ms=sum(r.total_duration_ms for r in runs) / len(runs) if runs else None,
    )
