"""`evidence ingest` and `evidence docs`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ledger.cli.console import console, err_console, shown

WorkspaceOpt = Annotated[
    str | None, typer.Option("--workspace", "-w", help="Workspace (default: $EVIDENCE_WORKSPACE or 'default').")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


class _BarProgress:
    """Rich progress bars for files read and chunks embedded."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.files = progress.add_task("files", total=None)
        self.chunks = progress.add_task("chunks embedded", total=0)

    def files_found(self, total: int) -> None:
        self.progress.update(self.files, total=total)

    def file_read(self, path: Path) -> None:
        self.progress.update(self.files, advance=1, description=f"files ({shown(path.name[:40])})")

    def chunks_queued(self, count: int) -> None:
        task = self.progress.tasks[self.chunks]
        self.progress.update(self.chunks, total=(task.total or 0) + count)

    def chunks_embedded(self, count: int) -> None:
        self.progress.update(self.chunks, advance=count)


def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files and folders to ingest.", show_default=False)],
    workspace: WorkspaceOpt = None,
    prune: Annotated[bool, typer.Option("--prune", help="Drop documents whose files are gone.")] = False,
    reparse: Annotated[bool, typer.Option(
        "--reparse", help="Read unchanged files again too: after an upgrade that reads files better (PDF tables).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Index documents (txt, md, pdf, html, docx) so questions can be answered from them.

    Unchanged files are skipped, changed files replace their chunks, and a file that cannot be read
    is reported without stopping the rest. Exit code 0 when every file went in, 1 when some failed.

    Examples:

      evidence ingest sample_docs

      evidence ingest ~/policies report.pdf --workspace legal --json

      evidence ingest ~/policies --prune

      evidence ingest ~/policies --reparse    # after upgrading Evidence Ledger
    """
    from ledger.core.settings import load_settings
    from ledger.loop.factory import build_ingestor

    settings = load_settings()
    ingestor = build_ingestor(settings, workspace)
    show_bars = not as_json and err_console.is_terminal
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        disable=not show_bars,
        transient=True,
    ) as bars:
        report = ingestor.run(paths, prune=prune, progress=_BarProgress(bars), on_wait=_say_waiting, reparse=reparse)
    if as_json:
        data = report.model_dump(mode="json")
        if not prune:
            data.pop("documents_pruned")
        console.print_json(json.dumps(data)) if console.is_terminal else print(json.dumps(data))
    else:
        console.print(
            f"[bold]{shown(ingestor.workspace)}[/]: {report.documents_added} added, "
            f"{report.documents_updated} updated, {report.documents_unchanged} unchanged"
            + (f", {report.documents_rebuilt} rebuilt (their vectors were missing)" if report.documents_rebuilt else "")
            + (f", {report.documents_pruned} pruned" if prune else "")
            + f"; {report.chunks_added} chunks written in {report.seconds:.1f}s"
            + (f"; {len(report.failed)} failed:" if report.failed else ""),
            highlight=False,
            soft_wrap=True,
        )
        for failure in report.failed:  # one line each, never wrapped, so it can be grepped
            err_console.print(
                f"[red]failed[/] {shown(failure.path)}: {shown(failure.error)}", highlight=False, soft_wrap=True
            )
    raise typer.Exit(1 if report.failed else 0)


def _say_waiting(message: str) -> None:
    err_console.print(message, style="yellow", markup=False, highlight=False)


def docs(workspace: WorkspaceOpt = None, as_json: JsonOpt = False) -> None:
    """List the documents of a workspace.

    Examples:

      evidence docs

      evidence docs --workspace legal --json
    """
    from ledger.core.settings import load_settings
    from ledger.loop.factory import build_registry, workspace_of
    from ledger.storage.listing import list_documents

    settings = load_settings()
    name = workspace_of(settings, workspace)
    # The default SQLite database is read without SQLAlchemy (half a second of start-up); anything else, through
    # the registry.
    documents = list_documents(settings, name)
    if documents is None:
        documents = build_registry(settings, name).all()
    if as_json:
        rows = [
            {
                "path": d.path,
                "title": d.title,
                "date": d.date.isoformat() if d.date else None,
                "date_source": d.date_source,
                "chunks": d.chunks,
                "ingested_at": d.ingested_at.isoformat(),
            }
            for d in documents
        ]
        print(json.dumps(rows, indent=2))
        return
    if not documents:
        console.print(
            f"No documents in workspace [bold]{shown(name)}[/]. Add some with: evidence ingest PATH"
        )
        return
    table = Table(title=f"{len(documents)} documents in {shown(name)}")
    table.add_column("title", ratio=3)
    table.add_column("date", no_wrap=True)
    table.add_column("chunks", justify="right")
    table.add_column("file", ratio=2, overflow="fold")
    for d in documents:
        source = d.date_source.removeprefix("text:")
        date = f"{d.date.isoformat()}\n[dim]{shown(source)}[/]" if d.date else "[dim]unknown[/]"
        # Cells are Rich markup: a title such as "Policy [/x] update" must be escaped, and stripped of escape codes.
        table.add_row(shown(d.title), date, str(d.chunks), shown(_short(d.path)))
    console.print(table)


def _short(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command()(ingest)
    app.command()(docs)
