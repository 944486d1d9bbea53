"""`evidence ask`, `evidence verify` and `evidence demo`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.console import console, err_console, shown
from ledger.cli.ingest_commands import JsonOpt, WorkspaceOpt

BackendOpt = Annotated[
    str | None, typer.Option("--backend", "-b", help="local (offline, default) or anthropic (Claude).")
]


def _settings(backend: str | None):  # type: ignore[no-untyped-def]
    from ledger.core.errors import ConfigError
    from ledger.core.settings import load_settings

    if backend not in (None, "local", "anthropic"):
        raise ConfigError(f"--backend must be 'local' or 'anthropic', not {backend!r}")
    return load_settings(**({"backend": backend} if backend else {}))


def _recorder(backend: str | None, workspace: str | None):  # type: ignore[no-untyped-def]
    from ledger.core.errors import NotFoundError
    from ledger.loop.factory import build_recorded, build_registry

    settings = _settings(backend)
    name = workspace or settings.workspace
    if not build_registry(settings, name).all():
        raise NotFoundError(
            f"the workspace {name!r} has no documents yet; add some first: evidence ingest FOLDER --workspace {name}"
        )
    with err_console.status("loading models…", spinner="dots"):
        return build_recorded(settings, workspace)


def _check_question(question: str, backend: str | None) -> None:
    from ledger.loop.inputs import clean_question

    clean_question(question, _settings(backend).revision.max_question_chars)


def _emit(result, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from ledger.cli.render import render_run

    if as_json:
        print(result.model_dump_json())
    else:
        render_run(console, result)


def ask(
    question: Annotated[str | None, typer.Argument(help="The question.", show_default=False)] = None,
    questions: Annotated[Path | None, typer.Option("--questions", help="File with one question per line.")] = None,
    workspace: WorkspaceOpt = None,
    backend: BackendOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer a question from your documents; every sentence is cited and checked, and revised if needed.

    Examples:

      evidence ask "How long is the warranty?"

      evidence ask "How often are the filters replaced?" --json

      evidence ask --questions questions.txt --json > answers.jsonl
    """
    from ledger.core.errors import EvidenceError

    if (question is None) == (questions is None):
        raise EvidenceError("give a QUESTION or --questions FILE (one of the two)")
    if questions is not None:
        _ask_many(questions, workspace, backend, as_json)
        return
    assert question is not None
    _check_question(question, backend)  # before the models load: a refused question fails at once
    recorder = _recorder(backend, workspace)
    with err_console.status("answering…", spinner="dots"):
        result = recorder.ask(question)
    _emit(result, as_json)


def _ask_many(path: Path, workspace: str | None, backend: str | None, as_json: bool) -> None:
    from rich.progress import Progress

    from ledger.core.errors import EvidenceError

    try:
        lines = [q.strip() for q in path.read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError) as exc:
        raise EvidenceError(f"cannot read {path}: {exc}") from exc
    asked = [q for q in lines if q and not q.startswith("#")]
    if not asked:
        raise EvidenceError(f"{path} holds no questions")
    recorder = _recorder(backend, workspace)
    failed = 0
    with Progress(console=err_console, disable=not err_console.is_terminal, transient=True) as bars:
        task = bars.add_task("questions", total=len(asked))
        for q in asked:
            try:
                result = recorder.ask(q)
            except EvidenceError as exc:
                failed += 1
                if as_json:
                    print(json.dumps({"question": q, "error": str(exc)}), flush=True)
                else:
                    err_console.print(f"[red]failed[/] {shown(q[:200])}: {shown(exc)}", highlight=False)
            else:
                _emit(result, as_json)
                sys.stdout.flush()
            bars.advance(task)
    raise typer.Exit(1 if failed else 0)


def verify(
    question: Annotated[str, typer.Option("--question", "-q", help="The question the draft answers.")],
    answer_file: Annotated[Path, typer.Option("--answer-file", "-f", help="File holding the draft ('-' for stdin).")],
    workspace: WorkspaceOpt = None,
    backend: BackendOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Judge a draft written elsewhere, then revise it until its evidence holds.

    Every claim gets a verdict, a confidence and the quote that decided it; `revisions[0]` is the draft as given.

    Examples:

      evidence verify -q "How long is the warranty?" -f draft.md

      cat draft.md | evidence verify -q "How long is the warranty?" -f - --json
    """
    from ledger.core.errors import EvidenceError

    try:
        draft = sys.stdin.read() if str(answer_file) == "-" else answer_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EvidenceError(f"cannot read the draft {answer_file}: {exc}") from exc
    if not draft.strip():
        raise EvidenceError(f"the draft {answer_file} is empty")
    _check_question(question, backend)
    recorder = _recorder(backend, workspace)
    with err_console.status("judging the draft…", spinner="dots"):
        result = recorder.verify(question, draft)
    _emit(result, as_json)


DEMO_QUESTIONS = [
    "What is the nightly hotel cap for standard locations?",
    "How quickly must a security incident be reported?",
    "How long are security and audit logs retained?",
]
DEMO_DRAFT = (
    "Under the travel policy, the nightly hotel cap for standard locations is $250. "
    "The domestic meal per diem is $75 per day. "
    "Expense reports must be submitted within 30 days after the trip ends. "
    "Every employee also receives a $1,000 annual wellness stipend."
)


def demo(
    docs: Annotated[Path, typer.Option("--docs", help="Folder to ingest.")] = Path("sample_docs"),
    workspace: WorkspaceOpt = None,
) -> None:
    """Ingest the sample documents and run the offline loop end to end: questions, then a flawed draft.

    Examples:

      evidence demo

      evidence demo --docs ~/policies --workspace trial
    """
    from ledger.cli.render import render_run, summary_line
    from ledger.core.errors import EvidenceError
    from ledger.loop.factory import build_ingestor

    if not docs.is_dir():
        raise EvidenceError(f"{docs} is not a folder; run the demo from the repository root or pass --docs")
    settings = _settings("local")
    console.rule("[bold]1. ingest")
    with err_console.status(f"ingesting {docs}…", spinner="dots"):
        report = build_ingestor(settings, workspace).run([docs])
    console.print(
        f"{report.documents_added} added, {report.documents_updated} updated, "
        f"{report.documents_unchanged} unchanged, {report.chunks_added} chunks, {len(report.failed)} failed"
    )
    recorder = _recorder("local", workspace)
    for i, question in enumerate(DEMO_QUESTIONS, 2):
        console.rule(f"[bold]{i}. ask")
        with err_console.status("answering…", spinner="dots"):
            result = recorder.ask(question)
        render_run(console, result)
    console.rule(f"[bold]{len(DEMO_QUESTIONS) + 2}. verify a flawed draft")
    with err_console.status("judging and revising…", spinner="dots"):
        result = recorder.verify("What do the travel and expense rules say?", DEMO_DRAFT)
    render_run(console, result)
    first, last = result.revisions[0].ledger, result.ledger
    console.rule("[bold]before → after")
    console.print(f"draft:  {summary_line(first)}", highlight=False)
    console.print(f"final:  {summary_line(last)}", highlight=False)
    console.print(
        f'\nNext: [bold]evidence ask "your question"[/], [bold]evidence audit list[/], '
        f"[bold]evidence export {result.session_id} --format html --out report.html[/]"
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command()(ask)
    app.command()(verify)
    app.command()(demo)
