"""`evidence eval`."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ledger.cli.console import console, err_console, shown
from ledger.cli.ingest_commands import JsonOpt, WorkspaceOpt


def eval_(
    file: Annotated[Path, typer.Argument(help="JSONL of {id, claim, evidence: [text...], label}.")],
    as_json: JsonOpt = False,
    predictions: Annotated[
        Path | None, typer.Option("--predictions", help="Write one JSON line per item with the prediction.")
    ] = None,
    workspace: WorkspaceOpt = None,
) -> None:
    """Score the judge on labelled claims (supported / contradicted / not_found; weak counts as supported).

    Confidences are the workspace's calibrated ones when `evidence calibrate` fitted a calibration for it.

    Examples:

      evidence eval bench/data/dev_eval.jsonl

      evidence eval bench/data/dev_eval.jsonl --json --predictions /tmp/pred.jsonl
    """
    from ledger.core.settings import load_settings
    from ledger.judge.evaluation import (
        confidence_pairs,
        judge_items,
        load_items,
        predicted_label,
        score,
        unchecked_items,
        write_predictions,
    )
    from ledger.loop.factory import build_calibration, build_embedder, build_support_checker

    settings = load_settings()
    items = load_items(file)
    checker = build_support_checker(settings, build_embedder(settings))
    with err_console.status(f"judging {len(items)} items…", spinner="dots") if not as_json else nullcontext():
        entries = judge_items(items, checker, settings.judge, build_calibration(settings, workspace))
    gold = [i.label for i in items]
    report = score(gold, [predicted_label(e) for e in entries], confidence_pairs(gold, entries))
    report = report.model_copy(update={"unchecked": unchecked_items(entries)})
    if predictions:
        write_predictions(predictions, items, entries)
    if as_json:
        print(report.model_dump_json())
        return
    console.print(
        f"{report.n} items · balanced accuracy [bold]{report.balanced_accuracy:.3f}[/] · "
        f"accuracy {report.accuracy:.3f} · calibration error {report.ece:.3f} (on {report.ece_n} verdicts)",
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
    if report.unchecked:
        err_console.print(
            f"[yellow]warning:[/] {report.unchecked} item(s) had a passage the checker could not read (a bug in it, "
            "logged above); their verdicts may be wrong. --predictions shows which.",
            highlight=False,
        )


def calibrate(
    file: Annotated[Path, typer.Argument(help="JSONL of {id, claim, evidence: [text...], label}: your own claims.")],
    workspace: WorkspaceOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Fit the judge's confidence to your labelled claims (Platt scaling) and keep it for the workspace.

    Afterwards a supported, weak or contradicted verdict's confidence in that workspace is the fitted chance
    that the verdict is right. Prints the calibration error before and after.

    Examples:

      evidence calibrate my_claims.jsonl

      evidence calibrate my_claims.jsonl --workspace legal --json
    """
    from ledger.core.errors import EvidenceError
    from ledger.core.settings import load_settings
    from ledger.judge.calibration import expected_calibration_error, fit_platt
    from ledger.judge.evaluation import confidence_pairs, judge_items, load_items
    from ledger.loop.factory import build_calibration_store, build_embedder, build_support_checker

    settings = load_settings()
    workspace = workspace or settings.workspace
    items = load_items(file)
    checker = build_support_checker(settings, build_embedder(settings))
    with err_console.status(f"judging {len(items)} items…", spinner="dots") if not as_json else nullcontext():
        entries = judge_items(items, checker, settings.judge)
    confidences, right = confidence_pairs([i.label for i in items], entries)
    try:
        platt = fit_platt(confidences, right)
    except ValueError as exc:
        raise EvidenceError(f"cannot calibrate on {file}: {exc}") from exc
    before = expected_calibration_error(confidences, right)
    after = expected_calibration_error([platt.apply(c) for c in confidences], right)
    build_calibration_store(settings).put(workspace, platt.a, platt.b, platt.n, before, after)
    if as_json:
        print(json.dumps({"workspace": workspace, "n": platt.n, "a": platt.a, "b": platt.b,
                          "ece_before": before, "ece_after": after}))
        return
    console.print(f"workspace {shown(workspace)}: calibrated on {platt.n} verdicts · calibration error "
                  f"{before:.3f} → {after:.3f} · P(right | c) = 1 / (1 + exp({platt.a:.3f}·c + {platt.b:.3f}))",
                  highlight=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("eval")(eval_)
    app.command()(calibrate)
