"""The home of run and audit writes: runs, ledger entries and the hash-chained audit log, in one transaction each."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Engine, delete, func, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

from ledger.audit import chain as audit
from ledger.audit.types import AuditRecord, ChainReport, PurgedRow, PurgeReport, as_utc
from ledger.core.errors import NotFoundError, StoreError
from ledger.core.settings import Settings
from ledger.core.types import Mode, RunResult, TokenUsage
from ledger.storage.tables import AuditHeadRow, AuditRow, LedgerEntryRow, RunRow

MAX_ERROR_CHARS = 4000


class RunStore:
    """Stores runs with their ledgers and audit rows; reads them back; verifies and purges the trail."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    # -- writes -------------------------------------------------------------------------------------

    def save_run(self, result: RunResult, *, user: str | None = None, status: str = "ok", error: str | None = None,
                 started_at: datetime | None = None) -> AuditRecord:
        """Store a run, one ledger entry row per claim per round, and its chained audit row — all or nothing."""
        now = datetime.now(UTC)
        started = as_utc(started_at) if started_at else now - timedelta(milliseconds=result.duration_ms)
        if status not in ("ok", "failed"):
            raise StoreError(f"unknown run status {status!r} (expected 'ok' or 'failed')")
        error = error[:MAX_ERROR_CHARS] if error else None
        record = audit.run_record(
            result, user=user or self.settings.user, started_at=started, recorded_at=now,
            status="ok" if status == "ok" else "failed", error=error,
        )
        with self._transaction("store the run") as session:
            session.add(_run_row(result, record))
            session.flush()  # the run row before its entries: they reference it
            for round_no, ledger in audit.ledger_rounds(result):
                for position, entry in enumerate(ledger.entries):
                    session.add(_entry_row(result.session_id, round_no, position, entry))
            return self._append(session, record)

    def save_failed_run(self, session_id: str, question: str, mode: Mode, workspace: str, error: BaseException | str,
                        *, user: str | None = None, started_at: datetime | None = None, backend: str | None = None,
                        duration_ms: int = 0, llm_calls: int = 0, token_usage: TokenUsage | None = None,
                        retrieved_chunks: Sequence[str] = ()) -> AuditRecord:
        """Audit a run that raised before finishing: a run row without a ledger, and its audit row."""
        message = error if isinstance(error, str) else f"{error.__class__.__name__}: {error}"
        result = RunResult(
            session_id=session_id, mode=mode, question=question, answer="", workspace=workspace,
            backend=backend or self.settings.backend, duration_ms=duration_ms, llm_calls=llm_calls,
            token_usage=token_usage or TokenUsage(), retrieved_chunks=list(retrieved_chunks),
        )
        return self.save_run(result, user=user, status="failed", error=message, started_at=started_at)

    def purge_expired(self, now: datetime | None = None, *, dry_run: bool = False,
                      user: str | None = None) -> PurgeReport:
        """Remove runs and run audit rows older than their workspace's retention; record the purge as an audit row.

        A retention of 0 days or less keeps a workspace's runs forever. The removed rows' hashes are kept
        in the purge row, so `verify` still links the chain through the gap.
        """
        moment = as_utc(now) if now else datetime.now(UTC)
        report = PurgeReport(now=moment, dry_run=dry_run)
        with self._transaction("purge expired runs") as session:
            if not dry_run:
                self._lock_head(session)
            workspaces = set(session.exec(select(RunRow.workspace).distinct()).all())
            run_rows = select(AuditRow.workspace_id).where(AuditRow.event == "run").distinct()
            workspaces |= set(session.exec(run_rows).all())
            removed: list[PurgedRow] = []
            for workspace in sorted(workspaces):
                days = self.settings.retention_days_for(workspace)
                if days <= 0:
                    continue
                cutoff = moment - timedelta(days=days)
                report.cutoffs[workspace] = cutoff
                removed += self._purge_workspace(session, workspace, cutoff, report, dry_run)
            if dry_run:
                session.rollback()
                return report
            report.audit = self._append(session, _purge_record(report, removed, user or self.settings.user))
            return report

    # -- reads --------------------------------------------------------------------------------------

    def get_run(self, session_id: str) -> RunResult:
        """The stored RunResult of a session."""
        with Session(self.engine) as session:
            row = session.get(RunRow, session_id)
            if row is None:
                raise NotFoundError(f"no stored run with session {session_id!r} (see: evidence audit list)")
            return RunResult.model_validate_json(row.result_json)

    def get_audit(self, session_id: str) -> AuditRecord:
        """The audit row of a session (a run or a purge)."""
        with Session(self.engine) as session:
            row = session.exec(select(AuditRow).where(AuditRow.session_id == session_id)).first()
            if row is None:
                raise NotFoundError(f"no audit row for session {session_id!r} (see: evidence audit list)")
            return audit.record_from_row(row.model_dump())

    def list_runs(self, workspace: str | None = None, since: date | datetime | None = None,
                  *, include_purges: bool = False, limit: int | None = None) -> list[AuditRecord]:
        """Audit records of stored runs, newest first, filtered by workspace and start time."""
        query = select(AuditRow).order_by(col(AuditRow.id).desc())
        if not include_purges:
            query = query.where(AuditRow.event == "run")
        if workspace is not None:
            query = query.where(AuditRow.workspace_id == workspace)
        if since is not None:
            moment = since if isinstance(since, datetime) else datetime.combine(since, time.min)
            query = query.where(AuditRow.timestamp >= as_utc(moment))
        if limit is not None:
            query = query.limit(limit)
        with Session(self.engine) as session:
            return [audit.record_from_row(row.model_dump()) for row in session.exec(query).all()]

    def verify(self) -> ChainReport:
        """Re-derive the audit chain, then check every stored run against its audit row's result_sha256."""
        with Session(self.engine) as session:
            # Raw values as stored: the check must see exactly what an editor of the database left there.
            rows = [dict(r._mapping) for r in session.connection().execute(text("SELECT * FROM audit_log"))]
            head = session.get(AuditHeadRow, 1)
            runs = {r.session_id: r.result_json for r in session.exec(select(RunRow)).all()}
        report = audit.verify_chain(rows, head_hash=head.last_hash if head else None)
        if not report.ok:
            return report
        records = [audit.record_from_row(r) for r in rows if r["event"] == "run"]
        bad = audit.verify_runs([(r, runs.get(r.session_id)) for r in sorted(records, key=lambda r: r.id or 0)])
        report.runs_checked = len(records)
        if bad is not None:
            report.ok = False
            report.first_bad = bad
        return report

    # -- internals ----------------------------------------------------------------------------------

    def _transaction(self, what: str) -> _Transaction:
        return _Transaction(self.engine, what)

    def _lock_head(self, session: Session) -> AuditHeadRow:
        # A write first: SQLite takes its write lock here and PostgreSQL locks the head row until commit,
        # so two writers can never chain onto the same previous row.
        session.execute(update(AuditHeadRow).where(col(AuditHeadRow.id) == 1).values(last_id=AuditHeadRow.last_id))
        head = session.exec(select(AuditHeadRow).where(AuditHeadRow.id == 1)).one()
        session.refresh(head)
        return head

    def _append(self, session: Session, record: AuditRecord) -> AuditRecord:
        head = self._lock_head(session)
        sealed = audit.seal(record, head.last_hash)
        row = _audit_row(sealed)
        session.add(row)
        session.flush()
        head.last_id = row.id or 0
        head.last_hash = sealed.row_hash
        head.rows_written += 1
        session.add(head)
        return sealed.model_copy(update={"id": row.id})

    def _purge_workspace(self, session: Session, workspace: str, cutoff: datetime, report: PurgeReport,
                         dry_run: bool) -> list[PurgedRow]:
        sessions = list(session.exec(
            select(RunRow.session_id).where(RunRow.workspace == workspace, RunRow.started_at < cutoff)
        ).all())
        audit_rows = session.exec(
            select(AuditRow).where(AuditRow.event == "run", AuditRow.workspace_id == workspace,
                                   AuditRow.timestamp < cutoff).order_by(col(AuditRow.id))
        ).all()
        removed = [PurgedRow(id=r.id or 0, session_id=r.session_id, prev_hash=r.prev_hash, row_hash=r.row_hash)
                   for r in audit_rows]
        entries = session.exec(
            select(func.count()).select_from(LedgerEntryRow).where(col(LedgerEntryRow.session_id).in_(sessions))
        ).one() if sessions else 0
        report.runs_deleted += len(sessions)
        report.ledger_entries_deleted += entries
        report.audit_rows_deleted += len(removed)
        report.sessions += sorted(set(sessions) | {r.session_id for r in removed})
        if not dry_run:
            for chunk in _chunks(sessions, 500):
                session.execute(delete(LedgerEntryRow).where(col(LedgerEntryRow.session_id).in_(chunk)))
                session.execute(delete(RunRow).where(col(RunRow.session_id).in_(chunk)))
            for chunk in _chunks([r.id for r in removed], 500):
                session.execute(delete(AuditRow).where(col(AuditRow.id).in_(chunk)))
        return removed


class _Transaction:
    """A session whose block commits on success, rolls back on any error and reports database failures."""

    def __init__(self, engine: Engine, what: str) -> None:
        self.session = Session(engine)
        self.what = what

    def __enter__(self) -> Session:
        return self.session

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        try:
            if exc is None:
                try:
                    self.session.commit()
                except SQLAlchemyError as commit_exc:
                    self.session.rollback()
                    raise _store_error(self.what, commit_exc) from commit_exc
                return
            self.session.rollback()
            if isinstance(exc, SQLAlchemyError):
                raise _store_error(self.what, exc) from exc
        finally:
            self.session.close()


def _store_error(what: str, exc: SQLAlchemyError) -> StoreError:
    if isinstance(exc, IntegrityError):
        return StoreError(f"cannot {what}: the database refused it (is the session already stored?): {exc.orig}")
    return StoreError(f"cannot {what}: {exc.__class__.__name__}: {exc}")


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _run_row(result: RunResult, record: AuditRecord) -> RunRow:
    return RunRow(
        session_id=result.session_id, workspace=result.workspace, user_id=record.user_id, mode=result.mode,
        question=result.question, answer=result.answer, status=record.status, error=record.error,
        backend=result.backend, started_at=record.timestamp, recorded_at=record.recorded_at,
        evidence_coverage=record.final_coverage, unsupported_rate=record.final_unsupported_rate,
        claim_count=record.claim_count, result_json=result.model_dump_json(),
    )


def _entry_row(session_id: str, round_no: int, position: int, entry: Any) -> LedgerEntryRow:
    deciding = entry.evidence[0] if entry.evidence else None
    return LedgerEntryRow(
        session_id=session_id, round=round_no, position=position, claim_id=entry.claim.id,
        claim_text=entry.claim.text, claim_type=entry.claim.type, importance=entry.claim.importance,
        cited=json.dumps(entry.claim.cited), verdict=entry.verdict, confidence=entry.confidence,
        chunk_hash=deciding.chunk_hash if deciding else None, document=deciding.document if deciding else None,
        quote=deciding.quote if deciding else None, flags=json.dumps(entry.flags), notes=entry.notes,
        evidence_json=json.dumps([m.model_dump(mode="json") for m in entry.evidence]),
    )


def _audit_row(record: AuditRecord) -> AuditRow:
    data = record.model_dump(mode="python", exclude={"id"})
    for name in audit.JSON_FIELDS:
        data[name] = audit.canonical_json(data[name]).decode("utf-8")
    return AuditRow(**data)


def _purge_record(report: PurgeReport, removed: list[PurgedRow], user: str) -> AuditRecord:
    details = {
        "cutoffs": {ws: cutoff for ws, cutoff in sorted(report.cutoffs.items())},
        "runs_deleted": report.runs_deleted,
        "ledger_entries_deleted": report.ledger_entries_deleted,
        "removed_audit_rows": [r.model_dump() for r in removed],
    }
    return AuditRecord(
        event="purge", session_id=f"purge-{uuid.uuid4().hex[:12]}", timestamp=report.now,
        recorded_at=datetime.now(UTC), user_id=user, workspace_id="*",
        details=audit.normalise(details),
    )
