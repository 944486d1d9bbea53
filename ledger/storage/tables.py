"""SQL tables (SQLModel). Created and changed only by the numbered migrations in `database.py`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class DocumentRow(SQLModel, table=True):
    """One registered document of a workspace, with the hashes of the chunks it has in Chroma."""

    __tablename__ = "documents"

    id: str = Field(primary_key=True, description="document_id(workspace, path)")
    workspace: str = Field(index=True)
    path: str
    title: str
    sha256: str
    mime_type: str
    doc_date: str | None = None  # ISO date; text keeps SQLite and PostgreSQL alike
    date_source: str = "none"
    chunk_count: int = 0
    chunk_hashes: str = "[]"  # JSON list, in document order
    ingested_at: datetime


class RunRow(SQLModel, table=True):
    """One ask or verify run: its metadata and the complete RunResult as JSON (written by `ledger.storage.runs`)."""

    __tablename__ = "runs"

    session_id: str = Field(primary_key=True)
    workspace: str = Field(index=True)
    user_id: str
    mode: str
    question: str
    answer: str
    status: str  # ok | failed
    error: str | None = None
    backend: str
    started_at: datetime = Field(index=True)  # naive UTC
    recorded_at: datetime  # naive UTC
    evidence_coverage: float | None = None
    unsupported_rate: float | None = None
    claim_count: int = 0
    result_json: str  # RunResult.model_dump_json()


class LedgerEntryRow(SQLModel, table=True):
    """One claim of one round of a run, with its verdict and deciding evidence (for queries; the run JSON is whole)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (UniqueConstraint("session_id", "round", "position"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="runs.session_id", index=True)
    round: int  # 0 = the draft as first written or given
    position: int  # order of the claim in its answer
    claim_id: str
    claim_text: str
    claim_type: str
    importance: str
    cited: str = "[]"  # JSON list of chunk hashes
    verdict: str
    confidence: float
    chunk_hash: str | None = None  # the deciding evidence, if any
    document: str | None = None
    quote: str | None = None
    flags: str = "[]"  # JSON list
    notes: str = ""
    evidence_json: str = "[]"  # every EvidenceMatch, JSON


class AuditRow(SQLModel, table=True):
    """One append-only, hash-chained audit row; columns are the fields of `ledger.audit.types.AuditRecord`."""

    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    event: str
    session_id: str = Field(index=True)
    timestamp: datetime = Field(index=True)  # naive UTC
    recorded_at: datetime  # naive UTC
    user_id: str
    workspace_id: str = Field(index=True)
    query: str
    mode: str
    backend: str
    status: str
    error: str | None = None
    retrieved_chunk_ids: str  # JSON columns hold canonical JSON text
    revision_history: str
    final_coverage: float | None = None
    final_unsupported_rate: float | None = None
    claim_count: int
    verdict_distribution: str
    risk_flags: str
    risk_level: str
    warnings: str
    claim_flags: str
    total_duration_ms: int
    llm_calls: int
    token_usage: str
    result_sha256: str | None = None
    details: str
    prev_hash: str
    row_hash: str
    row_mac: str | None = None  # HMAC-SHA256 of row_hash with the audit key (ledger.audit.anchor); NULL before it
    key_id: str | None = None  # public id of that key


class AuditHeadRow(SQLModel, table=True):
    """The single row naming the chain's last audit row; updating it first serialises concurrent writers."""

    __tablename__ = "audit_head"

    id: int = Field(default=1, primary_key=True)
    last_id: int = 0
    last_hash: str
    rows_written: int = 0


class CalibrationRow(SQLModel, table=True):
    """The Platt scaling of one workspace's judge confidence (`evidence calibrate`)."""

    __tablename__ = "calibrations"

    workspace: str = Field(primary_key=True)
    a: float
    b: float
    n: int
    ece_before: float
    ece_after: float
    fitted_at: datetime
