"""The home of run and audit writes: runs, ledger entries and the hash-chained audit log, in one transaction each."""

from __future__ import annotations

import json
import os
import sys
import time as clock
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Engine, delete, func, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

from ledger.audit import anchor
from ledger.audit import chain as audit
from ledger.audit.anchor_files import AnchorFiles, CheckpointUnreadable
from ledger.audit.types import AuditRecord, BadRow, ChainReport, Checkpoint, PurgedRow, PurgeReport, as_utc
from ledger.core.errors import NotFoundError, StoreError
from ledger.core.settings import Settings
from ledger.core.types import Mode, RunResult, TokenUsage
from ledger.storage.tables import AuditHeadRow, AuditRow, LedgerEntryRow, RunRow

MAX_ERROR_CHARS = 4000
PAUSE_ENV = "_EVIDENCE_TEST_PAUSE_WRITE"
"""Test hook: name a write stage (run, entries, audit, committed) and the writing process stops there for a minute,
so a test can SIGKILL it mid-write. Never set in normal use."""


class RunStore:
    """Stores runs with their ledgers and audit rows; reads them back; verifies and purges the trail."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.anchor = AnchorFiles.from_settings(settings)

    # -- writes -------------------------------------------------------------------------------------

    def save_run(self, result: RunResult, *, user: str | None = None, status: str = "ok", error: str | None = None,
                 started_at: datetime | None = None) -> AuditRecord:
        """Store a run, one ledger entry row per claim per round, and its chained audit row — all or nothing."""
        now = datetime.now(UTC)
        started = as_utc(started_at) if started_at else now - timedelta(milliseconds=result.duration_ms)
        if status not in ("ok", "failed"):
            raise StoreError(f"unknown run status {status!r} (expected 'ok' or 'failed')")
        error = self._without_secrets(error[:MAX_ERROR_CHARS]) if error else None
        record = audit.run_record(
            result, user=user or self.settings.user, started_at=started, recorded_at=now,
            status="ok" if status == "ok" else "failed", error=error,
        )
        key = self._audit_key()
        # One transaction: a kill at any point leaves the run, its entries and its audit row all, or none of them.
        with self._transaction("store the run") as session:
            session.add(_run_row(result, record))
            session.flush()  # the run row before its entries: they reference it
            _pause("run")
            for round_no, ledger in audit.ledger_rounds(result):
                for position, entry in enumerate(ledger.entries):
                    session.add(_entry_row(result.session_id, round_no, position, entry))
            session.flush()
            _pause("entries")
            sealed, position = self._append(session, record, key)
            _pause("audit")
        _pause("committed")
        self.anchor.advance(key, rows=position, last_id=sealed.id or 0, last_hash=sealed.row_hash)
        return sealed

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
        real_now = datetime.now(UTC)
        # Retention is measured from the real time, never later: no option can purge a run inside its window.
        moment = min(as_utc(now), real_now) if now else real_now
        report = PurgeReport(now=moment, dry_run=dry_run)
        key = None if dry_run else self._audit_key()
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
            if dry_run or key is None:
                session.rollback()
                return report
            report.audit, position = self._append(session, _purge_record(report, removed, user or self.settings.user),
                                                  key)
        self.anchor.advance(key, rows=position, last_id=report.audit.id or 0, last_hash=report.audit.row_hash)
        return report

    def save_review(self, session_id: str, *, comment: str, decisions: Sequence[Mapping[str, Any]] = (),
                    reviewed_text: str | None = None, user: str | None = None) -> AuditRecord:
        """A reviewer's sign-off of a stored run, as its own chained audit row (event 'review').

        `decisions` are the reviewer's answers to the suggested changes (number, kind, before, after, reasons,
        decision); the reviewed text is kept by its sha256 and in full. The run itself is left untouched.
        """
        run = self.get_run(session_id)
        run_row = self.get_audit(session_id)
        now = datetime.now(UTC)
        details = {
            "run_session_id": session_id,
            "run_row_hash": run_row.row_hash,
            "comment": self._without_secrets(comment.strip()),
            "decisions": [dict(d) for d in decisions],
            "accepted": sum(1 for d in decisions if d.get("decision") == "accepted"),
            "rejected": sum(1 for d in decisions if d.get("decision") == "rejected"),
            "reviewed_text": reviewed_text,
            "reviewed_text_sha256": audit.sha256_hex(reviewed_text) if reviewed_text is not None else None,
        }
        record = AuditRecord(
            event="review", session_id=f"review-{uuid.uuid4().hex[:12]}", timestamp=now, recorded_at=now,
            user_id=user or self.settings.user, workspace_id=run.workspace, query=run.question, mode=run.mode,
            backend=run.backend, details=audit.normalise(details),
        )
        key = self._audit_key()
        with self._transaction("store the review") as session:
            sealed, position = self._append(session, record, key)
        self.anchor.advance(key, rows=position, last_id=sealed.id or 0, last_hash=sealed.row_hash)
        return sealed

    def reviews_of(self, session_id: str) -> list[AuditRecord]:
        """The sign-offs of a run, oldest first."""
        query = select(AuditRow).where(AuditRow.event == "review").order_by(col(AuditRow.id))
        with Session(self.engine) as session:
            records = [audit.record_from_row(row.model_dump()) for row in session.exec(query).all()]
        return [r for r in records if r.details.get("run_session_id") == session_id]

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
        """Re-derive the chain, check it against the key and checkpoint outside the database, then every stored run
        and ledger entry against the audit rows; the report names the first row that does not hold."""
        key, checkpoint, unreadable = self.anchor.read_key(), None, None
        try:
            checkpoint = self.anchor.read_checkpoint()  # before the rows: it only ever moves on after a commit
        except CheckpointUnreadable as exc:
            unreadable = str(exc)
        with Session(self.engine) as session:
            # Raw values as stored: the check must see exactly what an editor of the database left there.
            conn = session.connection()
            rows = [dict(r._mapping) for r in conn.execute(text("SELECT * FROM audit_log"))]
            head = session.get(AuditHeadRow, 1)
            runs = {r["session_id"]: r for r in (dict(x._mapping) for x in conn.execute(text("SELECT * FROM runs")))}
            entries = [dict(r._mapping) for r in conn.execute(text("SELECT * FROM ledger_entries ORDER BY id"))]
        report = audit.verify_chain(rows, head_hash=head.last_hash if head else None)
        if not report.ok:
            return report
        records = sorted((audit.record_from_row(r) for r in rows), key=lambda r: r.id or 0)
        macs = {int(r["id"]): (r.get("row_mac"), r.get("key_id")) for r in rows}
        verdict = anchor.check_anchor(audit.chain_items(records), macs, key, checkpoint, unreadable,
                                      key_path=str(self.anchor.key_path),
                                      checkpoint_path=str(self.anchor.checkpoint_path))
        report.keyed_rows, report.anchored, report.notes = verdict.keyed_rows, verdict.anchored, verdict.notes
        report.checkpoint_rows = checkpoint.rows if checkpoint else None
        bad = verdict.bad or self._check_runs(records, runs, entries, report)
        if bad is not None:
            report.ok = False
            report.first_bad = bad
        return report

    def _check_runs(self, records: list[AuditRecord], runs: dict[str, dict[str, Any]],
                    entries: list[dict[str, Any]], report: ChainReport) -> BadRow | None:
        """The first stored run or ledger entry that its audit row does not vouch for (None when all hold)."""
        run_records = [r for r in records if r.event == "run"]
        bad = audit.verify_runs([(r, runs[r.session_id]["result_json"] if r.session_id in runs else None)
                                 for r in run_records])
        report.runs_checked = len(run_records)
        if bad is not None:
            return bad
        by_session: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            by_session.setdefault(str(entry["session_id"]), []).append(entry)
        for record in run_records:
            stored = runs[record.session_id]
            result = RunResult.model_validate_json(stored["result_json"])
            written = audit.run_record(result, user=record.user_id, started_at=record.timestamp,
                                       recorded_at=record.recorded_at, status=record.status, error=record.error)
            column = _first_difference(stored, _run_row(result, written).model_dump(exclude={"result_json"}))
            if column is not None:
                return _bad(record, f"its run's {column} column no longer matches the run it stored (run edited)")
            expected = [_entry_row(result.session_id, rnd, pos, entry).model_dump(exclude={"id"})
                        for rnd, ledger in audit.ledger_rounds(result) for pos, entry in enumerate(ledger.entries)]
            problem = _entries_problem(by_session.pop(record.session_id, []), expected)
            report.ledger_entries_checked += len(expected)
            if problem is not None:
                return _bad(record, problem)
        audited = {r.session_id for r in run_records}
        for session_id in sorted(set(runs) - audited):
            return BadRow(id=None, session_id=session_id, reason="this stored run has no audit row (inserted)")
        for session_id, rows in by_session.items():
            return BadRow(id=None, session_id=session_id,
                          reason=f"ledger_entries row {rows[0]['id']} belongs to no audited run (inserted)")
        return None

    def start_checkpoint(self) -> Checkpoint:
        """Start the checkpoint of a trail that has none (a provisioned key, or a lost checkpoint): rows from the
        current end on must carry the key's HMAC. Refuses when a sound checkpoint exists or the chain is broken."""
        with self.anchor.locked():
            try:
                existing = self.anchor.read_checkpoint()
            except CheckpointUnreadable:
                existing = None  # an explicit act replaces a damaged one; verify has already reported it
            key = self.anchor.read_key()
            if existing is not None and key is not None and anchor.checkpoint_holds(key, existing):
                raise StoreError(f"the trail already has a checkpoint ({self.anchor.checkpoint_path}, row "
                                 f"{existing.rows}): nothing to do")
            with Session(self.engine) as session:
                rows = [dict(r._mapping) for r in session.connection().execute(text("SELECT * FROM audit_log"))]
            report = audit.verify_chain(rows)
            if not report.ok:
                bad = report.first_bad
                raise StoreError(f"the audit chain is broken ({bad.reason if bad else ''}): fix that first")
            length, last_id, last_hash = self._head()
            if key is None:
                if any(r.get("row_mac") for r in rows):
                    raise StoreError(f"the trail is sealed with a key, but there is no key at {self.anchor.key_path}")
                self.anchor.create(rows=length, last_id=last_id, last_hash=last_hash)
                checkpoint = self.anchor.read_checkpoint()
                assert checkpoint is not None
                return checkpoint
            checkpoint = anchor.seal_checkpoint(key, rows=length, last_id=last_id, last_hash=last_hash,
                                                keyed_from=length, written_at=datetime.now(UTC))
            self.anchor.write_checkpoint(checkpoint)
            return checkpoint

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

    def _append(self, session: Session, record: AuditRecord, key: bytes) -> tuple[AuditRecord, int]:
        """Chain and seal the record onto the head; returns it with its id, and the chain's new length."""
        head = self._lock_head(session)
        sealed = audit.seal(record, head.last_hash)
        row = _audit_row(sealed)
        row.row_mac = anchor.row_mac(key, sealed.row_hash)
        row.key_id = anchor.key_id(key)
        session.add(row)
        session.flush()
        head.last_id = row.id or 0
        head.last_hash = sealed.row_hash
        head.rows_written += 1
        session.add(head)
        return sealed.model_copy(update={"id": row.id}), head.rows_written

    def _head(self) -> tuple[int, int, str]:
        with Session(self.engine) as session:
            head = session.get(AuditHeadRow, 1)
            return (head.rows_written, head.last_id, head.last_hash) if head else (0, 0, audit.GENESIS_HASH)

    def _audit_key(self) -> bytes:
        """The audit key, made with its first checkpoint on first use; refuses when the anchor was tampered with."""
        key, checkpoint = self.anchor.read_key(), self._checkpoint_or_refuse()
        if key is not None and checkpoint is not None:
            return self._checked(key, checkpoint)
        with self.anchor.locked():  # one process creates the key; the others wait and read it
            key, checkpoint = self.anchor.read_key(), self._checkpoint_or_refuse()
            if key is not None and checkpoint is not None:
                return self._checked(key, checkpoint)
            rows, last_id, last_hash = self._head()
            if key is None and checkpoint is None:
                if self._keyed_rows_exist():
                    raise StoreError(f"the audit trail is sealed with a key, but there is no key at "
                                     f"{self.anchor.key_path}: restore it, or set EVIDENCE_AUDIT__KEY_FILE to it")
                return self.anchor.create(rows=rows, last_id=last_id, last_hash=last_hash)
            if key is None:
                raise StoreError(f"the audit checkpoint {self.anchor.checkpoint_path} exists but the audit key "
                                 f"{self.anchor.key_path} is missing: restore the key")
            if rows > 0:
                raise StoreError(f"the audit checkpoint {self.anchor.checkpoint_path} is missing, so rows cut from the "
                                 "end of the trail could go unnoticed: run `evidence audit verify`, then "
                                 "`evidence audit anchor` to start a new checkpoint")
            self.anchor.write_checkpoint(anchor.seal_checkpoint(key, rows=0, last_id=0, last_hash=last_hash,
                                                                keyed_from=0, written_at=datetime.now(UTC)))
            return key

    def _checked(self, key: bytes, checkpoint: Checkpoint) -> bytes:
        if not anchor.checkpoint_holds(key, checkpoint):
            raise StoreError(f"the audit checkpoint {self.anchor.checkpoint_path} does not match the audit key "
                             f"{self.anchor.key_path} (edited, or made with another key): run `evidence audit verify`")
        return key

    def _checkpoint_or_refuse(self) -> Checkpoint | None:
        try:
            return self.anchor.read_checkpoint()
        except CheckpointUnreadable as exc:
            raise StoreError(f"{exc}: run `evidence audit verify`") from exc

    def _keyed_rows_exist(self) -> bool:
        with Session(self.engine) as session:
            return session.exec(select(func.count()).select_from(AuditRow)
                                .where(col(AuditRow.row_mac).is_not(None))).one() > 0

    def _without_secrets(self, text_: str) -> str:
        """The text with the Claude API key masked: an error message may quote a request's headers."""
        secret = self.settings.anthropic.api_key
        value = secret.get_secret_value() if secret is not None else os.environ.get("ANTHROPIC_API_KEY", "")
        return text_.replace(value, "***") if len(value) >= 8 else text_

    def _purge_workspace(self, session: Session, workspace: str, cutoff: datetime, report: PurgeReport,
                         dry_run: bool) -> list[PurgedRow]:
        sessions = list(session.exec(
            select(RunRow.session_id).where(RunRow.workspace == workspace, RunRow.started_at < cutoff)
        ).all())
        audit_rows = session.exec(
            select(AuditRow).where(AuditRow.event == "run", AuditRow.workspace_id == workspace,
                                   AuditRow.timestamp < cutoff).order_by(col(AuditRow.id))
        ).all()
        removed = [PurgedRow(id=r.id or 0, session_id=r.session_id, prev_hash=r.prev_hash, row_hash=r.row_hash,
                             timestamp=as_utc(r.timestamp), workspace_id=r.workspace_id)
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


def _bad(record: AuditRecord, reason: str) -> BadRow:
    return BadRow(id=record.id, session_id=record.session_id, reason=reason)


def _same(stored: Any, expected: Any) -> bool:
    """A raw database value equals the value the row was written with (times as instants, JSON as text)."""
    if isinstance(expected, datetime):
        if isinstance(stored, str):
            try:
                stored = datetime.fromisoformat(stored.replace("Z", "+00:00"))
            except ValueError:
                return False
        return isinstance(stored, datetime) and as_utc(stored) == as_utc(expected)
    if isinstance(expected, float) and isinstance(stored, int | float) and not isinstance(stored, bool):
        return float(stored) == expected
    return type(stored) is type(expected) and stored == expected


def _first_difference(stored: Mapping[str, Any], expected: Mapping[str, Any]) -> str | None:
    """The first column whose stored value is not the expected one."""
    for name, value in expected.items():
        if not _same(stored.get(name), value):
            return name
    return None


def _entries_problem(stored: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str | None:
    """What is wrong with a run's ledger_entries rows, compared with the ledger its stored run holds."""
    place = {(e["round"], e["position"]): e for e in expected}
    seen = {(row.get("round"), row.get("position")): row for row in stored}
    for key, want in place.items():
        row = seen.get(key)
        if row is None:
            return f"claim {want['claim_id']} of round {key[0]} has no ledger_entries row (deleted)"
        column = _first_difference(row, want)
        if column is not None:
            return (f"ledger_entries row {row['id']} (round {key[0]}, claim {want['claim_id']}): its {column} "
                    "no longer matches the stored run (edited)")
    for key, row in seen.items():
        if key not in place:
            return f"ledger_entries row {row['id']} is not in the stored run (inserted)"
    order = [(row["round"], row["position"]) for row in stored]
    if order != sorted(order):
        return "its ledger_entries rows are out of the order they were written in (reordered)"
    return None


def _pause(stage: str) -> None:
    if os.environ.get(PAUSE_ENV) == stage:
        print(f"paused at {stage}", file=sys.stderr, flush=True)
        clock.sleep(60)


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
