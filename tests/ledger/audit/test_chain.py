"""Pure audit decisions: canonical JSON, row hashes, chain verification and verification metrics."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from ledger.audit import chain as audit
from ledger.audit.types import GENESIS_HASH, AuditRecord, PurgedRow
from ledger.core.types import RiskFlag
from tests.ledger.audit_fixtures import flawed_run, simple_run

T0 = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"b": 1, "a": [1, 2]}, b'{"a":[1,2],"b":1}'),  # sorted keys, no whitespace
        ({"x": 0.1 + 0.2}, b'{"x":0.3}'),  # floats rounded to 6 decimals
        ({"x": 2 / 3}, b'{"x":0.666667}'),
        ({"x": float("nan")}, b'{"x":null}'),
        ({"s": "Zoë — §9"}, '{"s":"Zoë — §9"}'.encode()),  # UTF-8, not \\u escapes
        ({"t": datetime(2025, 1, 2, 3, 4, 5, 6)}, b'{"t":"2025-01-02T03:04:05.000006Z"}'),  # naive = UTC
        ({"t": datetime(2025, 1, 2, 4, 4, 5, tzinfo=UTC) + timedelta(hours=0)}, b'{"t":"2025-01-02T04:04:05.000000Z"}'),
        ({"span": (3, 9), 1: True}, b'{"1":true,"span":[3,9]}'),
    ],
)
def test_canonical_json(value: object, expected: bytes) -> None:
    assert audit.canonical_json(value) == expected


def test_canonical_json_is_stable_across_a_round_trip() -> None:
    value = {"z": [1.23456789, {"b": None, "a": "x"}], "a": 1}
    once = audit.canonical_json(value)
    assert audit.canonical_json(json.loads(once)) == once


def _record(session: str = "s1", **changes: object) -> AuditRecord:
    record = audit.run_record(flawed_run(session), user="alice", started_at=T0, recorded_at=T0 + timedelta(seconds=2))
    return record.model_copy(update=changes)


def _chain(n: int) -> list[AuditRecord]:
    records, prev = [], GENESIS_HASH
    for i in range(1, n + 1):
        sealed = audit.seal(_record(f"s{i}"), prev).model_copy(update={"id": i})
        records.append(sealed)
        prev = sealed.row_hash
    return records


def test_run_record_has_every_field_of_the_audit_spec() -> None:
    record = _record()
    assert record.session_id == "s1" and record.user_id == "alice" and record.workspace_id == "default"
    assert record.query.startswith("How long") and record.mode == "verify"
    assert record.retrieved_chunk_ids == ["a1b2c3d4e5f6", "0f9e8d7c6b5a"]
    assert [r.round for r in record.revision_history] == [0, 1]
    assert record.revision_history[0].verdicts == {"contradicted": 1, "not_found": 1, "supported": 1}
    assert record.revision_history[0].should_revise is True
    assert record.final_coverage == 1.0 and record.final_unsupported_rate == 0.0
    assert record.claim_count == 2 and record.verdict_distribution == {"supported": 2}
    assert [f.type for f in record.risk_flags] == ["outdated_source"]
    assert record.total_duration_ms == 1834 and record.llm_calls == 0 and record.token_usage.input_tokens == 0
    assert record.status == "ok" and record.error is None and record.warnings == ["UNSUPPORTED_CLAIMS"]
    assert record.result_sha256 == audit.content_sha256(flawed_run("s1").model_dump(mode="json"))


@pytest.mark.parametrize(
    "change",
    [
        {"query": "Who approves deletion?"}, {"user_id": "mallory"}, {"final_coverage": 0.99},
        {"claim_count": 3}, {"verdict_distribution": {"supported": 1}}, {"status": "failed"},
        {"timestamp": T0 + timedelta(microseconds=1)}, {"prev_hash": "f" * 64}, {"details": {"x": 1}},
        {"risk_flags": []}, {"retrieved_chunk_ids": []}, {"token_usage": {"input_tokens": 1}},
    ],
)
def test_any_field_change_changes_the_row_hash(change: dict[str, object]) -> None:
    original = audit.seal(_record(), GENESIS_HASH)
    edited = AuditRecord.model_validate(original.model_dump() | change)
    assert audit.row_hash(edited) != original.row_hash


def test_id_is_not_part_of_the_hash() -> None:
    sealed = audit.seal(_record(), GENESIS_HASH)
    assert audit.row_hash(sealed.model_copy(update={"id": 99})) == sealed.row_hash


def test_untouched_chain_verifies() -> None:
    records = _chain(4)
    report = audit.verify_chain(records, head_hash=records[-1].row_hash)
    assert report.ok and report.rows_checked == 4 and report.head_hash == records[-1].row_hash
    assert audit.verify_chain([]).ok


def test_edited_row_is_named() -> None:
    records = _chain(4)
    records[2] = records[2].model_copy(update={"final_coverage": 0.2})
    report = audit.verify_chain(records)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.id == 3 and report.first_bad.session_id == "s3"
    assert "edited" in report.first_bad.reason


def test_removed_row_is_caught_at_the_next_row() -> None:
    records = _chain(4)
    del records[1]
    report = audit.verify_chain(records)
    assert not report.ok and report.first_bad is not None and report.first_bad.id == 3
    assert "prev_hash" in report.first_bad.reason


def test_rows_cut_from_the_end_are_caught_by_the_head() -> None:
    records = _chain(4)
    report = audit.verify_chain(records[:3], head_hash=records[-1].row_hash)
    assert not report.ok and report.first_bad is not None and report.first_bad.id is None


def test_purge_gap_links_through_recorded_hashes() -> None:
    records = _chain(3)

    def purge_of(removed: list[AuditRecord]) -> AuditRecord:
        kept = [PurgedRow(id=r.id or 0, session_id=r.session_id, prev_hash=r.prev_hash, row_hash=r.row_hash)
                for r in removed]
        purge = AuditRecord(event="purge", session_id="purge-1", timestamp=T0, recorded_at=T0, user_id="admin",
                            workspace_id="*", details={"removed_audit_rows": [p.model_dump() for p in kept]})
        return audit.seal(purge, records[-1].row_hash).model_copy(update={"id": 4})

    sealed = purge_of(records[:2])
    report = audit.verify_chain([records[2], sealed], head_hash=sealed.row_hash)
    assert report.ok and report.purged_rows == 2 and report.rows_checked == 2
    # a removed row the purge does not account for still breaks the chain
    report = audit.verify_chain([records[2], purge_of(records[:1])])
    assert not report.ok and report.first_bad is not None and report.first_bad.id == 3


def test_raw_rows_with_json_text_verify_and_unreadable_rows_are_named() -> None:
    records = _chain(2)
    rows = []
    for r in records:
        row = r.model_dump(mode="json")
        for name in audit.JSON_FIELDS:
            row[name] = audit.canonical_json(row[name]).decode()
        rows.append(row)
    assert audit.verify_chain(rows).ok
    rows[1]["risk_flags"] = "[{broken"
    report = audit.verify_chain(rows)
    assert not report.ok and report.first_bad is not None and report.first_bad.id == 2
    assert "risk_flags" in report.first_bad.reason


def test_verify_runs_names_an_edited_run() -> None:
    record = audit.seal(_record(), GENESIS_HASH).model_copy(update={"id": 1})
    good = flawed_run("s1").model_dump_json()
    assert audit.verify_runs([(record, good)]) is None
    edited = json.loads(good)
    edited["ledger"]["entries"][0]["verdict"] = "contradicted"
    bad = audit.verify_runs([(record, json.dumps(edited))])
    assert bad is not None and bad.session_id == "s1"
    assert audit.verify_runs([(record, None)]) is not None


def test_ledger_rounds_one_per_revision() -> None:
    rounds = audit.ledger_rounds(flawed_run())
    assert [(n, len(ledger.entries)) for n, ledger in rounds] == [(0, 3), (1, 2)]
    bare = flawed_run().model_copy(update={"revisions": []})
    assert [(n, len(ledger.entries)) for n, ledger in audit.ledger_rounds(bare)] == [(0, 2)]


@pytest.mark.parametrize(
    ("moment", "period", "key"),
    [
        (datetime(2025, 1, 31, 23, 0, tzinfo=UTC), "day", "2025-01-31"),
        (datetime(2025, 1, 31, tzinfo=UTC), "week", "2025-W05"),
        (datetime(2024, 12, 30, tzinfo=UTC), "week", "2025-W01"),  # ISO week belongs to the next year
        (datetime(2025, 1, 31, tzinfo=UTC), "month", "2025-01"),
    ],
)
def test_period_key(moment: datetime, period: str, key: str) -> None:
    assert audit.period_key(moment, period) == key  # type: ignore[arg-type]


def test_metrics_over_runs() -> None:
    def rec(session: str, workspace: str, coverage: float, day: int, **extra: object) -> AuditRecord:
        result = simple_run(session, workspace, coverage)
        when = datetime(2025, 2, day, tzinfo=UTC)
        return audit.run_record(result, user="u", started_at=when, recorded_at=when).model_copy(update=extra)

    records = [
        rec("a", "legal", 1.0, 3, risk_flags=[RiskFlag(type="conflict", severity="high", description="x")]),
        rec("b", "legal", 0.0, 4, claim_flags={"phantom_citation": 1}),
        rec("c", "hr", 1.0, 20, warnings=["NO_IMPROVEMENT"]),
        rec("d", "hr", 1.0, 21, status="failed", error="ModelError: 529 overloaded", final_coverage=None),
        AuditRecord(event="purge", session_id="p", timestamp=T0, recorded_at=T0, user_id="u", workspace_id="*"),
    ]
    m = audit.audit_metrics(records, coverage_target=0.85, period="month")
    assert m.overall.total == 4 and m.overall.passed == 2 and m.overall.pass_rate == 0.5
    assert m.overall.failed_runs == 1 and m.overall.avg_coverage == pytest.approx(2 / 3)
    assert m.verdict_distribution == {"not_found": 1, "supported": 3}
    assert m.risk_flags == {"conflict": 1} and m.claim_flags == {"phantom_citation": 1}
    assert m.warnings == {"NO_IMPROVEMENT": 1} and m.errors == {"ModelError": 1}
    assert m.by_workspace["legal"].pass_rate == 0.5 and m.by_workspace["hr"].passed == 1
    assert list(m.by_period) == ["2025-02"] and m.by_period["2025-02"].total == 4
    assert m.llm_calls == 8 and m.token_usage.input_tokens == 4800
    weekly = audit.audit_metrics(records, coverage_target=0.85, period="week")
    assert {k: g.total for k, g in weekly.by_period.items()} == {"2025-W06": 2, "2025-W08": 2}


@pytest.mark.parametrize(
    ("error", "category"),
    [("StoreError: locked", "StoreError"), ("boom", "error"), (None, "error"), ("a b: c", "error")],
)
def test_error_category(error: str | None, category: str) -> None:
    assert audit.error_category(error) == category


@pytest.mark.parametrize(
    ("measured_from", "removed_started", "reason"),
    [
        (T0 + timedelta(days=3000), T0 - timedelta(days=1), "after it ran"),  # the old hidden --now 2030-01-01
        (T0, T0 - timedelta(days=10), "still inside its retention"),  # a row newer than the cutoff
        (T0, T0 - timedelta(days=100), None),  # a legitimate purge
    ],
)
def test_a_purge_inside_retention_is_named(measured_from: datetime, removed_started: datetime,
                                           reason: str | None) -> None:
    removed = PurgedRow(id=1, session_id="s1", prev_hash=GENESIS_HASH, row_hash="a" * 64, timestamp=removed_started,
                        workspace_id="default")
    purge = AuditRecord(event="purge", session_id="purge-1", timestamp=measured_from, recorded_at=T0, user_id="admin",
                        workspace_id="*", details=audit.normalise({
                            "cutoffs": {"default": measured_from - timedelta(days=90)},
                            "removed_audit_rows": [removed.model_dump()]}))
    found = audit.purge_too_early(purge)
    assert (found is None) if reason is None else (found is not None and reason in found)
