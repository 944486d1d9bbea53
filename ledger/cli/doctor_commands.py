"""`evidence doctor`: do the registry, the vector store, the keyword index and the ledger agree, and were the
vectors made by the configured embedding backend?

Each check is a function `(settings, workspace or None, repair) -> list[Finding]` in CHECKS; a new check is one
more function in that list. Findings print one line each, then a summary; exit 0 when nothing is left to fix.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.console import console, err_console, shown
from ledger.core.errors import EvidenceError

if TYPE_CHECKING:  # the settings and domain types load when a check runs, not for `evidence --help`
    from ingest.pipeline import Ingestor
    from ledger.core.settings import Settings
    from ledger.core.types import Finding

Check = Callable[["Settings", "str | None", bool], "list[Finding]"]


def vectors_check(settings: Settings, workspace: str | None, repair: bool) -> list[Finding]:
    """Registry ↔ Chroma ↔ source files, per workspace; then collections left by the old workspace naming."""
    from ingest.consistency import check_legacy_collections, check_workspace
    from ledger.core.types import Finding
    from ledger.loop.factory import build_ingestor

    names = _workspaces(settings, workspace)
    findings: list[Finding] = []
    healthy: set[str] = set()
    for name in names:
        try:
            ingestor = build_ingestor(settings, name)
        except EvidenceError as exc:  # e.g. a name stored before names were checked
            findings.append(Finding(kind="invalid_workspace", subject=name, workspace=name, detail=str(exc)))
            continue
        own = check_workspace(ingestor, repair, on_wait=_say_waiting)
        if not any(f.kind == "missing_vectors" and not f.repaired for f in own):
            healthy.add(name)
        findings.extend(own)
    if workspace is None:
        findings.extend(check_legacy_collections(settings, names, healthy, repair))
    return findings


def _workspaces(settings: Settings, workspace: str | None) -> list[str]:
    """The workspace named (checked), else every workspace with documents."""
    from ledger.core.workspaces import validate_workspace
    from ledger.loop.factory import known_workspaces

    return [validate_workspace(workspace)] if workspace is not None else known_workspaces(settings)


def _ingestors(settings: Settings, workspace: str | None) -> Iterator[tuple[str, Ingestor]]:
    """(name, ingestor) of each workspace checked whose store opens (the vectors check reports the others)."""
    from ledger.loop.factory import build_ingestor

    for name in _workspaces(settings, workspace):
        try:
            yield name, build_ingestor(settings, name)
        except EvidenceError:
            continue


def keywords_check(settings: Settings, workspace: str | None, repair: bool) -> list[Finding]:
    """The keyword index holds exactly the chunks Chroma holds, per workspace (ingest keeps them in step)."""
    from ingest.pipeline import sync_keywords
    from ledger.core.types import Finding

    findings: list[Finding] = []
    for name, ingestor in _ingestors(settings, workspace):
        assert ingestor.keywords is not None
        if ingestor.missing_vectors():
            continue  # the vectors check reports it; rebuilding the vectors brings the keyword index in step too
        present, indexed = ingestor.store.ids(), ingestor.keywords.ids()
        lacking, stale = len(present - indexed), len(indexed - present)
        if not lacking and not stale:
            continue
        detail = f"the keyword index lacks {lacking} chunk(s) and holds {stale} stale one(s)"
        if repair:
            with ingestor.lock.hold(_say_waiting):
                sync_keywords(ingestor.store, ingestor.keywords)
            detail += "; brought in step with the vector store"
        else:
            detail += "; `evidence doctor --repair` or the next ingest brings it in step"
        findings.append(Finding(kind="keyword_index", subject=name, workspace=name, detail=detail, repaired=repair))
    return findings


def ledger_check(settings: Settings, workspace: str | None, repair: bool) -> list[Finding]:
    """The stored runs, their ledger entries and the audit chain agree (what `evidence audit verify` checks).

    Never repaired: a run, its entries and its audit row are written in one transaction, so a run without its
    audit row, or an entry without its run, was made outside the product, and is evidence to keep.
    """
    from ledger.core.types import Finding
    from ledger.loop.factory import build_run_store

    report = build_run_store(settings).verify()
    if report.ok:
        return []
    bad = report.first_bad
    subject = (bad.session_id or f"row {bad.id}") if bad else "audit chain"
    reason = bad.reason if bad else "the audit chain does not verify"
    return [Finding(kind="ledger", subject=subject, detail=f"{reason}; not repairable (the product writes runs, "
                    "entries and audit rows together): see `evidence audit verify`")]


def embedding_check(settings: Settings, workspace: str | None, repair: bool) -> list[Finding]:
    """Each workspace's vectors were made by the configured embedding backend, and no re-embedding was left
    unfinished. Either way queries stay correct (they follow the store, or refuse a half re-embedded one); the
    next ingest into the workspace re-embeds it, and so does `--repair` (an ingest of nothing)."""
    from ingest.embedding import settings_for_store, stored_fingerprint
    from ledger.core.types import Finding

    findings: list[Finding] = []
    for name, ingestor in _ingestors(settings, workspace):
        record = ingestor.store.backend_record()
        configured = ingestor.embedder.settings
        current = ingestor.embedder.fingerprint
        stored = stored_fingerprint(record.recorded, record.count, configured)
        vectors = f"{record.count} vector{'s' if record.count != 1 else ''}"
        then = (f"until the next `evidence ingest` into the workspace (or `evidence doctor --repair`) re-embeds "
                f"them with {current}")
        if record.pending:
            kind = "unfinished_reembedding"
            detail = (f"a re-embedding of its {vectors} with {record.pending} started and did not "
                      f"finish: questions to it are refused {then}")
        elif record.count and stored != current:
            kind = "embedding_backend"
            made = f"its {vectors} were made by {stored}"
            if not record.recorded:
                made += " (before backends were recorded)"
            setting = f"the configured backend is {configured.backend} (EVIDENCE_EMBEDDING__BACKEND)"
            follow = settings_for_store(record.recorded, record.count, configured)
            effect = (f"questions use {stored}, as its vectors require," if follow is not None
                      else "no configured backend can search them (another model or export), so questions are refused")
            detail = f"{made} but {setting}: {effect} {then}"
        else:
            continue
        if repair:
            ingestor.run([], on_wait=_say_waiting)
            detail += f"; re-embedded with {current}"
        findings.append(Finding(kind=kind, subject=name, workspace=name, detail=detail, repaired=repair))
    return findings


# The embedding check comes last: repairing missing vectors is an ingest, which re-embeds a store of another backend
# first, and its repair (an ingest of nothing) sweeps orphans the vectors check reports.
CHECKS: list[Check] = [vectors_check, keywords_check, ledger_check, embedding_check]


def doctor(
    workspace: Annotated[
        str | None, typer.Option("--workspace", "-w", help="Check only this workspace (default: every workspace).")
    ] = None,
    repair: Annotated[bool, typer.Option("--repair", help="Fix what can be fixed, and say what was done.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Check that the document registry and the vector store agree, and repair what can be repaired.

    Finds vectors no registered document lists (orphans), registered documents whose vectors are missing
    (a lost or renamed vector store: no question can find them), and registered files that are gone or
    changed. Also reports a workspace whose vectors another embedding backend made than the configured one
    (EVIDENCE_EMBEDDING__BACKEND; its questions follow the vectors until it is re-embedded) and a re-embedding
    left unfinished (its questions are refused). --repair deletes orphans, writes missing vectors again from the
    source file when it is still there and unchanged, and re-embeds such workspaces with the configured backend;
    what cannot be repaired is said, with the command that fixes it.
    Exit code 0 when everything agrees (or was repaired), 1 when problems remain.

    Examples:

      evidence doctor

      evidence doctor --repair

      evidence doctor --workspace legal --json
    """
    from ledger.core.settings import load_settings

    settings = load_settings()
    findings = [finding for check in CHECKS for finding in check(settings, workspace, repair)]
    left = [f for f in findings if not f.repaired]
    if as_json:
        print(json.dumps({
            "healthy": not left,
            "findings": [f.model_dump(mode="json") for f in findings],
            "summary": {"found": len(findings), "repaired": len(findings) - len(left), "remaining": len(left)},
        }, indent=2))
        raise typer.Exit(1 if left else 0)
    for f in findings:
        mark = "[green]repaired[/]" if f.repaired else "[red]problem[/] "
        where = f" [dim]({shown(f.workspace)})[/]" if f.workspace else ""
        console.print(f"{mark} {f.kind}{where} {shown(f.subject)}: {shown(f.detail)}", highlight=False,
                      soft_wrap=True)
    if not findings:
        agree = "the registry, the vector store, the keyword index and the ledger agree"
        console.print(f"[green]healthy:[/] {agree}", highlight=False)
    else:
        hint = "" if repair or not left else "; run `evidence doctor --repair` to fix what can be fixed"
        console.print(f"{len(findings)} found, {len(findings) - len(left)} repaired, {len(left)} remaining{hint}",
                      highlight=False, soft_wrap=True)
    raise typer.Exit(1 if left else 0)


def _say_waiting(message: str) -> None:
    err_console.print(message, style="yellow", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command()(doctor)
