"""Types of the audit trail: the hash-chained audit record, chain reports, purge reports and metrics."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_serializer, field_validator

from ledger.core.types import RiskFlag, TokenUsage

AuditEvent = Literal["run", "purge", "review"]
RunStatus = Literal["ok", "failed"]
Period = Literal["day", "week", "month"]

GENESIS_HASH = "0" * 64
"""The `prev_hash` of the first audit row ever written."""


def as_utc(value: datetime) -> datetime:
    """The same instant as an aware UTC datetime (naive values are taken to be UTC already)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def iso_utc(value: datetime) -> str:
    """The one text form of a time used in hashes and exports: `2025-01-31T09:15:00.000000Z`."""
    return as_utc(value).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class RevisionSummary(BaseModel):
    """One round of the revision loop as the audit row records it (the full text lives with the run)."""

    round: int = Field(description="0 for the draft as first written or given, then 1, 2, ... per revision.")
    response_sha256: str = Field(description="sha256 of the round's response text (UTF-8).")
    response_chars: int = Field(description="Length of the round's response in characters.")
    claim_count: int = Field(description="Claims the judge found in the round's response.")
    evidence_coverage: float = Field(description="Evidence coverage of the round (seed 004 §7.1).")
    unsupported_rate: float = Field(description="Unsupported claim rate of the round (seed 004 §7.2).")
    verdicts: dict[str, int] = Field(default_factory=dict, description="Claims per verdict in the round.")
    critique_issues: int = Field(0, description="Issues the skeptic raised on the round's response.")
    should_revise: bool | None = Field(None, description="The loop's decision after the round; None when not taken.")
    reason: str = Field("", description="Why the loop decided as it did.")


class PurgedRow(BaseModel):
    """An audit row removed by a purge: enough to keep the chain verifiable without its content."""

    id: int = Field(description="Id of the removed audit row.")
    session_id: str = Field(description="Session of the removed audit row.")
    prev_hash: str = Field(description="The removed row's prev_hash.")
    row_hash: str = Field(description="The removed row's row_hash.")
    timestamp: datetime | None = Field(
        None, description="When the removed run started (UTC); absent in purges written before it was recorded."
    )
    workspace_id: str | None = Field(None, description="Workspace of the removed run (absent in older purges).")

    @field_serializer("timestamp", when_used="json")
    def _iso(self, value: datetime | None) -> str | None:
        return iso_utc(value) if value is not None else None


class AuditRecord(BaseModel):
    """One append-only, hash-chained audit row: a run (seed 004 §9.1 plus status) or a purge."""

    id: int | None = Field(None, description="Row id, assigned by the database; not part of the hash.")
    event: AuditEvent = Field(
        "run", description="'run' for an ask/verify run, 'purge' for a retention purge, 'review' for a sign-off."
    )
    session_id: str = Field(description="The run's session id; 'purge-<hex>' for a purge, 'review-<hex>' for a review.")
    timestamp: datetime = Field(description="When the run started (UTC); when a purge ran, for a purge.")
    recorded_at: datetime = Field(description="When the row was written (UTC).")
    user_id: str = Field(description="Who ran it.")
    workspace_id: str = Field(description="Workspace of the run; '*' for a purge (it spans workspaces).")
    query: str = Field("", description="The question asked.")
    mode: str = Field("", description="'answer' (ask) or 'verify'; empty for a purge.")
    backend: str = Field("", description="'local' or 'anthropic'; empty for a purge.")
    status: RunStatus = Field("ok", description="'ok', or 'failed' when the run raised before finishing.")
    error: str | None = Field(None, description="The error of a failed run.")
    retrieved_chunk_ids: list[str] = Field(default_factory=list, description="Hashes of the chunks retrieved.")
    revision_history: list[RevisionSummary] = Field(default_factory=list, description="Every round, draft first.")
    final_coverage: float | None = Field(None, description="Evidence coverage of the final answer; None if failed.")
    final_unsupported_rate: float | None = Field(None, description="Unsupported rate of the final answer.")
    claim_count: int = Field(0, description="Claims in the final answer.")
    verdict_distribution: dict[str, int] = Field(default_factory=dict, description="Final claims per verdict.")
    risk_flags: list[RiskFlag] = Field(default_factory=list, description="Risk flags raised by the run.")
    risk_level: str = Field("", description="Overall risk level of the run: low, medium, high or critical.")
    warnings: list[str] = Field(default_factory=list, description="Codes of the run's termination warnings.")
    claim_flags: dict[str, int] = Field(
        default_factory=dict, description="Final claims per entry flag (phantom_citation, misattributed, ...)."
    )
    total_duration_ms: int = Field(0, description="Wall time of the run in milliseconds.")
    llm_calls: int = Field(0, description="Model calls made by the run.")
    token_usage: TokenUsage = Field(default_factory=TokenUsage, description="Tokens spent by the run.")
    result_sha256: str | None = Field(
        None, description="sha256 of the canonical JSON of the stored run, so edits to the run are caught too."
    )
    details: dict[str, Any] = Field(
        default_factory=dict, description="Event data: for a purge the cutoffs, counts and removed rows."
    )
    prev_hash: str = Field(GENESIS_HASH, description="row_hash of the row written just before this one.")
    row_hash: str = Field("", description="sha256 of the canonical JSON of every field but id and row_hash.")

    @field_validator("timestamp", "recorded_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_serializer("timestamp", "recorded_at", when_used="json")
    def _iso(self, value: datetime) -> str:
        return iso_utc(value)

    def purged_rows(self) -> list[PurgedRow]:
        """The rows a purge record removed (empty for a run)."""
        return [PurgedRow.model_validate(row) for row in self.details.get("removed_audit_rows", [])]


class BadRow(BaseModel):
    """The first audit row that does not match the chain, and why."""

    id: int | None = Field(description="Id of the row (None when the chain's recorded head is what disagrees).")
    session_id: str = Field("", description="Session of the row.")
    reason: str = Field(description="What does not match, in words a compliance officer can act on.")


class ChainReport(BaseModel):
    """The outcome of re-deriving the audit hash chain (and the stored runs it vouches for)."""

    ok: bool = Field(description="True when every row and every stored run matches its hash.")
    rows_checked: int = Field(0, description="Audit rows re-hashed.")
    runs_checked: int = Field(0, description="Stored runs compared with their audit row's result_sha256.")
    purged_rows: int = Field(0, description="Rows removed by purges whose hashes the chain still links through.")
    head_hash: str = Field(GENESIS_HASH, description="row_hash of the last row: record it to anchor the chain.")
    first_bad: BadRow | None = Field(None, description="The first row that does not match, if any.")
    ledger_entries_checked: int = Field(0, description="ledger_entries rows compared with the runs they belong to.")
    keyed_rows: int = Field(0, description="Rows whose HMAC was checked with the audit key.")
    anchored: bool = Field(
        False, description="True when the key file and the checkpoint outside the database were checked too."
    )
    checkpoint_rows: int | None = Field(None, description="Chain length the checkpoint file recorded, if any.")
    notes: list[str] = Field(default_factory=list, description="What was not checked, and why.")


class Checkpoint(BaseModel):
    """The anchor kept outside the database: how long the chain was and its last hash, sealed with the audit key."""

    version: int = Field(1, description="Format version of the checkpoint file.")
    rows: int = Field(description="Chain length at the checkpoint, rows removed by purges included.")
    last_id: int = Field(0, description="Id of the row at that position (0 for an empty chain).")
    last_hash: str = Field(GENESIS_HASH, description="row_hash of the row at that position.")
    keyed_from: int = Field(
        description="Chain position from which every row carries an HMAC; rows before it predate the key."
    )
    key_id: str = Field(description="Id of the key that sealed the checkpoint (not the key).")
    written_at: datetime = Field(description="When the checkpoint was written (UTC).")
    mac: str = Field("", description="HMAC-SHA256 with the audit key over the canonical JSON of the other fields.")

    @field_validator("written_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_serializer("written_at", when_used="json")
    def _iso(self, value: datetime) -> str:
        return iso_utc(value)


class PurgeReport(BaseModel):
    """What a retention purge removed (or would remove, on a dry run)."""

    now: datetime = Field(description="The time the retention windows were measured from (UTC).")
    cutoffs: dict[str, datetime] = Field(default_factory=dict, description="Per workspace: runs before this go.")
    runs_deleted: int = Field(0, description="Runs removed with their ledger entries.")
    ledger_entries_deleted: int = Field(0, description="Ledger entry rows removed.")
    audit_rows_deleted: int = Field(0, description="Run audit rows removed (their hashes stay in the purge row).")
    sessions: list[str] = Field(default_factory=list, description="Sessions removed.")
    dry_run: bool = Field(False, description="True when nothing was removed.")
    audit: AuditRecord | None = Field(None, description="The audit row recording the purge (None on a dry run).")


class GroupMetrics(BaseModel):
    """Pass rate and averages over one group of runs."""

    total: int = Field(0, description="Runs in the group, failed ones included.")
    passed: int = Field(0, description="Runs that finished with coverage at or above the target.")
    failed_runs: int = Field(0, description="Runs that raised before finishing.")
    pass_rate: float = Field(0.0, description="passed / total (a failed run never passes); 0 when empty.")
    avg_coverage: float | None = Field(None, description="Mean final coverage of the finished runs.")
    avg_duration_ms: float | None = Field(None, description="Mean duration of the runs.")


class AuditMetrics(BaseModel):
    """Verification metrics over stored runs (seed 001): pass rate, verdicts, flags, by workspace and period."""

    coverage_target: float = Field(description="Coverage a run needs to pass.")
    period: Period = Field(description="Grouping of `by_period`: day, week (ISO) or month.")
    overall: GroupMetrics = Field(description="Every run together.")
    verdict_distribution: dict[str, int] = Field(default_factory=dict, description="Final claims per verdict.")
    risk_flags: dict[str, int] = Field(default_factory=dict, description="Runs' risk flags per type.")
    claim_flags: dict[str, int] = Field(default_factory=dict, description="Final claims per entry flag.")
    warnings: dict[str, int] = Field(default_factory=dict, description="Termination warnings per code.")
    errors: dict[str, int] = Field(default_factory=dict, description="Failed runs per error class.")
    by_workspace: dict[str, GroupMetrics] = Field(default_factory=dict)
    by_period: dict[str, GroupMetrics] = Field(
        default_factory=dict, description="Keys like 2025-01-31 (day), 2025-W05 (ISO week), 2025-01 (month)."
    )
    llm_calls: int = Field(0, description="Model calls over all runs.")
    token_usage: TokenUsage = Field(default_factory=TokenUsage, description="Tokens over all runs.")
