"""`evidence eval`."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ledger.cli.console import console, err_console
from ledger.cli.ingest_commands import JsonOpt


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
    from ledger.core.settings import load_settings
    from ledger.judge.evaluation import judge_items, load_items, predicted_label, score, write_predictions
    from ledger.loop.factory import build_embedder, build_support_checker

    settings = load_settings()
    items = load_items(file)
    checker = build_support_checker(settings, build_embedder(settings))
    with err_console.status(f"judging {len(items)} items…", spinner="dots") if not as_json else nullcontext():
        entries = judge_items(items, checker, settings.judge)
    report = score([i.label for i in items], [predicted_label(e) for e in entries])
    if predictions:
        write_predictions(predictions, items, entries)
    if as_json:
        print(report.model_dump_json())
        return
    console.print(
        f"{report.n} items · balanced accuracy [bold]{report.balanced_accuracy:.3f}[/] · "
        f"accuracy {report.accuracy:.3f}",
        highlight=False,
    )
    table = Table(title="per label")
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
    app.command("eval")(eval_)
