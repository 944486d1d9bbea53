"""`evidence audit list|show|verify|anchor|purge|stats` (and, through export_commands, `evidence export`)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ledger.cli import export_commands
from ledger.cli.console import console, err_console, shown

if TYPE_CHECKING:
    from ledger.audit.types import AuditRecord
    from ledger.storage.runs import RunStore

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
_VERDICT_STYLE = {"supported": "green", "weak": "yellow", "contradicted": "red", "not_found": "dark_orange"}

audit_app = typer.Typer(
    name="audit",
    help=(
        "The audit trail: every ask and verify run, hash-chained so edits show.\n\n"
        "Examples:\n\n"
        "  evidence audit list --since 7d\n\n"
        "  evidence audit verify\n\n"
        "  evidence audit stats --period month --json"
    ),
    no_args_is_help=True,
)


def parse_when(value: str, now: datetime | None = None) -> datetime:
    """A time from 'YYYY-MM-DD', an ISO date-time, or 'Nd' / 'Nh' (that long ago); naive values are UTC."""
    now = now or datetime.now(UTC)
    relative = re.fullmatch(r"(\d+)([dh])", value.strip())
    if relative:
        amount = int(relative.group(1))
        return now - (timedelta(days=amount) if relative.group(2) == "d" else timedelta(hours=amount))
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a date: use 2025-01-31, 2025-01-31T09:00 or 7d") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _store() -> RunStore:
    from ledger.core.settings import load_settings
    from ledger.loop.factory import build_run_store

    return build_run_store(load_settings())


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


@audit_app.command("list")
def list_(
    workspace: Annotated[str | None, typer.Option("--workspace", "-w", help="Only this workspace.")] = None,
    since: Annotated[str | None, typer.Option("--since", help="Only runs started since: 2025-01-31, or 7d.")] = None,
    include_purges: Annotated[bool, typer.Option("--purges", help="Show purge events too.")] = False,
    limit: Annotated[int, typer.Option("--limit", help="Most rows shown (newest first).")] = 200,
    as_json: JsonOpt = False,
) -> None:
    """List stored runs, newest first.

    Examples:

      evidence audit list

      evidence audit list --workspace legal --since 2025-01-01 --json
    """
    records = _store().list_runs(workspace, parse_when(since) if since else None,
                                 include_purges=include_purges, limit=limit)
    if as_json:
        _print_json([r.model_dump(mode="json") for r in records])
        return
    if not records:
        console.print("No runs stored yet. Run: evidence ask \"QUESTION\"")
        return
    table = Table(title=f"{len(records)} audit rows (newest first)")
    table.add_column("id", justify="right")
    table.add_column("UTC", no_wrap=True)
    table.add_column("session", no_wrap=True)
    table.add_column("workspace", overflow="fold")
    table.add_column("run", no_wrap=True)
    table.add_column("claims", justify="right")
    table.add_column("cover", justify="right")
    table.add_column("flags", overflow="fold")
    for r in records:
        coverage = f"{r.final_coverage:.0%}" if r.final_coverage is not None else "—"
        run = r.mode or r.event
        run = f"[green]{run}[/]" if r.status == "ok" else f"[red]{run} (failed)[/]"
        table.add_row(str(r.id), r.timestamp.strftime("%y-%m-%d %H:%M"), shown(r.session_id),
                      shown(r.workspace_id), run, str(r.claim_count),
                      coverage, shown(", ".join(f.type for f in r.risk_flags)))
    console.print(table)


@audit_app.command()
def show(
    session: Annotated[str, typer.Argument(help="Session id (see: evidence audit list).", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """Show one stored run: the answer, every claim with its verdict, the rounds and the audit row.

    Examples:

      evidence audit show 3f9c2a71b0d4

      evidence audit show 3f9c2a71b0d4 --json
    """
    store = _store()
    record = store.get_audit(session)
    result = store.get_run(session) if record.event == "run" else None
    if as_json:
        _print_json({"run": result.model_dump(mode="json") if result else None,
                     "audit": record.model_dump(mode="json")})
        return
    _show_record(record)
    if result is None:
        console.print_json(json.dumps(record.details))
        return
    console.print(f"\n[bold]Question:[/] {shown(result.question)}")
    console.print(f"[bold]Answer:[/]\n{shown(result.answer) or '(none)'}\n")
    table = Table(title="Claims of the final answer")
    for column in ("id", "verdict", "conf.", "claim", "evidence"):
        table.add_column(column)
    for entry in result.ledger.entries:
        best = entry.evidence[0] if entry.evidence else None
        style = _VERDICT_STYLE.get(entry.verdict, "white")
        table.add_row(shown(entry.claim.id), f"[{style}]{entry.verdict}[/]", f"{entry.confidence:.2f}",
                      shown(entry.claim.text), shown(f"{best.document}: \"{best.quote}\"") if best else "—")
    console.print(table)
    for summary in record.revision_history:
        decision = "" if summary.should_revise is None else (" → revise" if summary.should_revise else " → stop")
        console.print(f"round {summary.round}: {summary.claim_count} claims, coverage {summary.evidence_coverage:.0%}"
                      f", unsupported {summary.unsupported_rate:.0%}{decision} {shown(summary.reason)}")
    for flag in result.risk_flags:
        console.print(f"[red]risk[/] {shown(flag.type)} ({flag.severity}): {shown(flag.description)}")
    for warning in result.warnings:
        console.print(f"[yellow]warning[/] {shown(warning.code)}: {shown(warning.message)}")


def _show_record(record: AuditRecord) -> None:
    usage = record.token_usage
    rows = [
        ("session", record.session_id), ("event", record.event), ("status", record.status),
        ("error", record.error or ""), ("started", record.timestamp.isoformat()), ("user", record.user_id),
        ("workspace", record.workspace_id), ("mode", record.mode), ("backend", record.backend),
        ("duration", f"{record.total_duration_ms} ms"), ("llm calls", str(record.llm_calls)),
        ("tokens", f"{usage.input_tokens} in / {usage.output_tokens} out"),
        ("audit row", f"{record.id}  hash {record.row_hash}"), ("prev hash", record.prev_hash),
    ]
    for key, value in rows:
        if value:
            console.print(f"[dim]{key:>10}[/] {shown(value)}", highlight=False)


@audit_app.command()
def verify(as_json: JsonOpt = False) -> None:
    """Check the audit trail end to end; exit 1 naming the first row that does not hold.

    Re-derives the hash chain, checks every row's HMAC and the checkpoint kept outside the database (so rows cut
    from the end show too), then every stored run and ledger entry against its audit row. See docs/audit.md.

    Examples:

      evidence audit verify

      evidence audit verify --json
    """
    report = _store().verify()
    if as_json:
        _print_json(report.model_dump(mode="json"))
    elif report.ok:
        purged = f", {report.purged_rows} purged rows linked" if report.purged_rows else ""
        keyed = f"; {report.keyed_rows} rows sealed with the audit key, checkpoint at row {report.checkpoint_rows}" \
            if report.anchored else ""
        console.print(f"[green]audit chain intact[/]: {report.rows_checked} rows, {report.runs_checked} runs, "
                      f"{report.ledger_entries_checked} ledger entries checked{purged}{keyed}; "
                      f"head {report.head_hash}", highlight=False)
        for note in report.notes:
            console.print(f"[yellow]note[/]: {shown(note)}", highlight=False)
    else:
        bad = report.first_bad
        if bad and bad.id is not None:
            where = f"row {bad.id} (session {shown(bad.session_id)})"
        elif bad and bad.session_id:
            where = f"session {shown(bad.session_id)}"
        else:
            where = "chain head"
        err_console.print(f"[bold red]audit chain broken[/] at {where}: {shown(bad.reason if bad else '')}",
                          highlight=False, soft_wrap=True)
    raise typer.Exit(0 if report.ok else 1)


@audit_app.command()
def anchor() -> None:
    """Start the checkpoint outside the database for a trail that has none (a key provisioned for an existing
    trail, or a checkpoint lost). Rows written before it are then checked by their sha256 chain only.

    Examples:

      EVIDENCE_AUDIT__KEY_FILE=/etc/evidence/audit.key evidence audit anchor
    """
    checkpoint = _store().start_checkpoint()
    console.print(f"checkpoint started at row {checkpoint.rows} (key id {checkpoint.key_id}); rows from "
                  f"{checkpoint.keyed_from + 1} on must carry the key's HMAC", highlight=False)


@audit_app.command()
def purge(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would go; remove nothing.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove runs older than their workspace's retention (90 days by default) and audit the purge.

    Retention per workspace: EVIDENCE_AUDIT__RETENTION_BY_WORKSPACE='{"legal": 365}'; 0 keeps forever.
    Retention is measured from the current time: nothing inside the window can be purged.
    The purge is itself an audit row that keeps the removed rows' hashes, so `audit verify` still passes.

    Examples:

      evidence audit purge --dry-run

      evidence audit purge --json
    """
    report = _store().purge_expired(dry_run=dry_run)
    if as_json:
        _print_json(report.model_dump(mode="json"))
        return
    verb = "would remove" if dry_run else "removed"
    console.print(f"{verb} {report.runs_deleted} runs ({report.ledger_entries_deleted} ledger entries, "
                  f"{report.audit_rows_deleted} audit rows)", highlight=False)
    for workspace, cutoff in report.cutoffs.items():
        console.print(f"  {shown(workspace)}: runs started before {cutoff:%Y-%m-%d %H:%M} UTC", highlight=False)
    if report.audit:
        console.print(f"recorded as audit row {report.audit.id} ({report.audit.session_id})", highlight=False)


@audit_app.command()
def stats(
    period: Annotated[str, typer.Option("--period", help="Group runs by day, week or month.")] = "week",
    workspace: Annotated[str | None, typer.Option("--workspace", "-w", help="Only this workspace.")] = None,
    since: Annotated[str | None, typer.Option("--since", help="Only runs started since: 2025-01-31, or 30d.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Verification metrics over stored runs: pass rate, verdicts, flags, by workspace and by period.

    A run passes when it finished with evidence coverage at or above EVIDENCE_REVISION__COVERAGE_TARGET (0.85).

    Examples:

      evidence audit stats

      evidence audit stats --period month --json
    """
    from ledger.audit.chain import audit_metrics

    if period not in ("day", "week", "month"):
        raise typer.BadParameter("use day, week or month", param_hint="--period")
    store = _store()
    records = store.list_runs(workspace, parse_when(since) if since else None)
    metrics = audit_metrics(records, store.settings.revision.coverage_target, period)  # type: ignore[arg-type]
    if as_json:
        _print_json(metrics.model_dump(mode="json"))
        return
    o = metrics.overall
    console.print(f"[bold]{o.total} runs[/]: {o.passed} passed ({o.pass_rate:.0%} at coverage ≥ "
                  f"{metrics.coverage_target:.0%}), {o.failed_runs} failed", highlight=False)
    for title, counts in (("verdicts", metrics.verdict_distribution), ("risk flags", metrics.risk_flags),
                          ("claim flags", metrics.claim_flags), ("warnings", metrics.warnings),
                          ("errors", metrics.errors)):
        if counts:
            console.print(f"{title}: " + ", ".join(f"{shown(k)} {v}" for k, v in counts.items()), highlight=False)
    for title, groups in (("workspace", metrics.by_workspace), (period, metrics.by_period)):
        table = Table(title=f"by {title}")
        for column in (title, "runs", "passed", "pass rate", "failed", "avg coverage"):
            table.add_column(column)
        for key, g in groups.items():
            avg = f"{g.avg_coverage:.0%}" if g.avg_coverage is not None else "—"
            table.add_row(shown(key), str(g.total), str(g.passed), f"{g.pass_rate:.0%}", str(g.failed_runs), avg)
        if groups:
            console.print(table)


def register(app: typer.Typer) -> None:
    """Add `audit` and `export` to the app."""
    app.add_typer(audit_app, name="audit")
    export_commands.register(app)
