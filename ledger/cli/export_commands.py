"""`evidence export SESSION` and `evidence export verify FILE`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.console import console, err_console, shown

if TYPE_CHECKING:
    from ledger.audit.types import AuditRecord
    from ledger.core.settings import Settings
    from ledger.exports.verification import ExportCheck


def export(
    session: Annotated[str, typer.Argument(help="Session id (see: evidence audit list), or 'verify'.",
                                           show_default=False)],
    file: Annotated[str | None, typer.Argument(help="With 'verify': the export file to check.",
                                               show_default=False)] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="json, csv or html.")] = "json",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File to write; '-' for stdout. "
                                             "Default: evidence-SESSION.FORMAT")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file (never the database, never a "
                                                         "file under EVIDENCE_HOME).")] = False,
) -> None:
    """Export a stored run for compliance: JSON (schema-checked), CSV (a row per claim per round) or HTML;
    or check an export with `evidence export verify FILE`.

    Each export records the run's review: every suggested change of a draft check with the reviewer's decision
    (accepted or rejected), the reviewed text, reviewer, time and comment of each sign-off; or that it was not
    reviewed.

    Each export carries its own content hash and the run's audit chain hash: embedded fields in JSON, a last
    '# sha256=... audit_chain_hash=...' line in CSV, a meta tag and the footer in HTML. `export verify`
    recomputes that hash (exit 0 when it matches, 1 when not) and, with the database at hand, compares the file
    with the run and audit row the database holds and checks the audit chain.

    Exports are never written inside EVIDENCE_HOME, and an existing file is replaced only with --force.

    Examples:

      evidence export 3f9c2a71b0d4 --format html --out report.html

      evidence export 3f9c2a71b0d4 --format csv --out claims.csv

      evidence export verify report.html
    """
    if session == "verify":
        if file is None:
            raise typer.BadParameter("name the export to check: evidence export verify FILE", param_hint="FILE")
        _verify(Path(file))
        return
    if file is not None:
        raise typer.BadParameter(f"unexpected {file!r}: export one session at a time", param_hint="FILE")
    _export(session, fmt, out, force)


def _settings() -> Settings:
    from ledger.core.settings import load_settings

    return load_settings()


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {shown(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _export(session: str, fmt: str, out: Path | None, force: bool) -> None:
    from ledger.exports.destination import refusal, write_export
    from ledger.exports.json_csv import FORMATS, export_run
    from ledger.loop.factory import build_run_store

    if fmt not in FORMATS:
        raise typer.BadParameter(f"use one of {', '.join(FORMATS)}", param_hint="--format")
    settings = _settings()
    to_stdout = out is not None and str(out) == "-"
    target = out or Path(f"evidence-{session}.{fmt}")
    if not to_stdout and (reason := refusal(target, settings, force=force)):
        raise _fail(reason)  # before anything is read: a refused path costs nothing
    store = build_run_store(settings)
    record = store.get_audit(session)
    reviews = store.reviews_of(session)
    exported = export_run(store.get_run(session), record, fmt, reviews)
    if to_stdout:
        sys.stdout.buffer.write(exported.data)
        sys.stdout.flush()
        return
    try:
        write_export(target, exported.data, force=force)
    except FileExistsError:
        raise _fail(f"{target} already exists: choose another name, or add --force to replace it") from None
    except OSError as exc:
        raise _fail(f"cannot write {target}: {exc.strerror or exc}") from None
    console.print(f"wrote {shown(target)} ({fmt}, {len(exported.data):,} bytes)\n"
                  f"  sha256 of file     {exported.sha256}\n"
                  f"  content sha256     {exported.content_sha256}\n"
                  f"  audit chain hash   {exported.audit_chain_hash}\n"
                  f"  review             {_review_line(reviews)}", highlight=False)


def _review_line(reviews: list[AuditRecord]) -> str:
    if not reviews:
        return "not reviewed (no sign-off stored)"
    last = reviews[-1]
    accepted, rejected = last.details.get("accepted", 0), last.details.get("rejected", 0)
    return (f"{len(reviews)} sign-off{'s' if len(reviews) > 1 else ''}; latest by {shown(last.user_id)}: "
            f"{accepted} accepted, {rejected} rejected")


def _verify(path: Path) -> None:
    from ledger.exports.verification import check_export

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _fail(f"cannot read {path}: {exc.strerror or exc}") from None
    check = check_export(data)
    if check.fmt is None:
        raise _fail(f"{path}: {check.problem}")
    name = shown(path)
    if not check.ok:
        err_console.print(f"[bold red]{name}: does not hold[/] ({check.fmt}): {shown(check.problem)}", highlight=False,
                          soft_wrap=True)
        raise typer.Exit(1)
    console.print(f"[green]{name}: content hash matches[/] ({check.fmt}, sha256 {check.actual})", highlight=False,
                  soft_wrap=True)
    problem = _against_database(check)
    if problem:
        err_console.print(f"[bold red]{name}: does not match the database[/]: {shown(problem)}", highlight=False,
                          soft_wrap=True)
        raise typer.Exit(1)


def _against_database(check: ExportCheck) -> str | None:
    """Compare with the run and audit row in the database, when there is one; prints what it found."""
    from ledger.core.errors import NotFoundError
    from ledger.exports.verification import compare_with_database
    from ledger.loop.factory import build_run_store

    settings = _settings()
    if not settings.database_url and not (settings.home / "ledger.db").exists():
        console.print(f"no database at {shown(settings.home)}: the audit chain was not checked", highlight=False,
                      soft_wrap=True)
        return None
    if not check.session_id:
        return "the export names no session, so it cannot be found in the database"
    store = build_run_store(settings)
    try:
        record = store.get_audit(check.session_id)
        result = store.get_run(check.session_id)
    except NotFoundError:
        return f"session {check.session_id} is not in this database (purged, or exported from another one)"
    reviews = store.reviews_of(check.session_id)
    problem = compare_with_database(check, result, record, reviews)
    if problem:
        return problem
    later = len(reviews) - len(check.review_hashes)
    report = store.verify()
    if not report.ok:
        bad = report.first_bad
        return f"it matches audit row {record.id}, but the audit chain is broken: {bad.reason if bad else ''}"
    console.print(f"[green]matches audit row {record.id}[/] of session {shown(record.session_id)} "
                  f"(result sha256 {record.result_sha256}) and its {len(check.review_hashes)} recorded sign-off(s); "
                  "audit chain intact", highlight=False, soft_wrap=True)
    if later > 0:
        console.print(f"note: the database holds {later} later sign-off(s) of this run that this export does not "
                      "record; export it again to include them", highlight=False, soft_wrap=True)
    return None


def register(app: typer.Typer) -> None:
    """Add `export` to the app."""
    app.command()(export)
