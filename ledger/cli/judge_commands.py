"""`evidence verify` and `evidence eval`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ledger.cli.console import console, err_console
from ledger.cli.ingest_commands import JsonOpt, WorkspaceOpt

BackendOpt = Annotated[
    str | None, typer.Option("--backend", "-b", help="local (offline, default) or anthropic (Claude).")
]


def _settings(backend: str | None):  # type: ignore[no-untyped-def]
    from ledger.errors import ConfigError
    from ledger.settings import load_settings

    if backend not in (None, "local", "anthropic"):
        raise ConfigError(f"--backend must be 'local' or 'anthropic', not {backend!r}")
    return load_settings(**({"backend": backend} if backend else {}))


def verify(
    question: Annotated[str, typer.Option("--question", "-q", help="The question the draft answers.")],
    answer_file: Annotated[Path, typer.Option("--answer-file", "-f", help="File holding the draft ('-' for stdin).")],
    workspace: WorkspaceOpt = None,
    backend: BackendOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Judge a draft answer written elsewhere: every claim gets a verdict, a confidence and its evidence.

    Examples:

      evidence verify -q "What is the hotel cap?" -f draft.md

      cat draft.md | evidence verify -q "What is the hotel cap?" -f - --json
    """
    import sys

    from ledger.errors import EvidenceError
    from ledger.pipeline import verify_draft

    try:
        draft = sys.stdin.read() if str(answer_file) == "-" else answer_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EvidenceError(f"cannot read the draft {answer_file}: {exc}") from exc
    if not draft.strip():
        raise EvidenceError(f"the draft {answer_file} is empty")
    settings = _settings(backend)
    with err_console.status("judging the draft…", spinner="dots") if not as_json else _nothing():
        result = verify_draft(question, draft, settings=settings, workspace=workspace)
    _emit(result, as_json)


def _emit(result, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from ledger.cli.render import render_run

    if as_json:
        print(result.model_dump_json())
    else:
        render_run(console, result)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def eval_(
    file: Annotated[Path, typer.Argument(help="JSONL of {id, claim, evidence: [text...], label}.")],
    as_json: JsonOpt = False,
    predictions: Annotated[
        Path | None, typer.Option("--predictions", help="Write one JSON line per item with the prediction.")
    ] = None,
) -> None:
    """Score the judge on labelled claims (supported / contradicted / not_found; weak counts as supported).

    Examples:

      evidence eval bench/data/dev_eval.jsonl

      evidence eval bench/data/dev_eval.jsonl --json --predictions /tmp/pred.jsonl
    """
    from ingest.embedding import Embedder
    from ledger.evaluation import judge_items, load_items, predicted_label, score, write_predictions
    from ledger.nli import load_support_checker

    settings = _settings(None)
    items = load_items(file)
    checker = load_support_checker(settings, Embedder(settings.embedding))
    with err_console.status(f"judging {len(items)} items…", spinner="dots") if not as_json else _nothing():
        entries = judge_items(items, checker, settings.judge)
    report = score([i.label for i in items], [predicted_label(e) for e in entries])
    if predictions:
        write_predictions(predictions, items, entries)
    if as_json:
        print(report.model_dump_json())
        return
    table = Table(title=f"{report.n} items · balanced accuracy {report.balanced_accuracy:.3f} · "
                        f"accuracy {report.accuracy:.3f}")
    for col in ("label", "precision", "recall", "f1", "n"):
        table.add_column(col, justify="right" if col != "label" else "left")
    for label, row in report.per_label.items():
        table.add_row(label, f"{row['precision']:.3f}", f"{row['recall']:.3f}", f"{row['f1']:.3f}", str(int(row["n"])))
    console.print(table)
    confusion = Table(title="confusion (rows: true, columns: predicted)")
    confusion.add_column("")
    labels = list(report.confusion)
    for label in labels:
        confusion.add_column(label, justify="right")
    for label in labels:
        confusion.add_row(label, *(str(report.confusion[label][p]) for p in labels))
    console.print(confusion)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command()(verify)
    app.command("eval")(eval_)
