"""`evidence eval`: judge labelled claims against their own evidence and score the verdicts."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from ingest.hashing import chunk_hash
from ingest.tables import render_tables
from ledger.core.errors import EvidenceError
from ledger.core.settings import JudgeSettings
from ledger.core.types import Chunk, Claim, LedgerEntry
from ledger.judge.calibration import Platt, expected_calibration_error
from ledger.judge.claims import assess_importance, classify_type
from ledger.judge.entries import calibrated, decide_entry
from ledger.judge.judge import to_match
from ledger.judge.support import UNCHECKED, SupportChecker

LABELS = ("supported", "contradicted", "not_found")


class EvalItem(BaseModel):
    """One labelled item of an eval file."""

    id: str
    claim: str
    evidence: list[str] = Field(default_factory=list)
    label: str


class EvalReport(BaseModel):
    """Scores of one eval run (the --json contract of DESIGN.md)."""

    n: int
    balanced_accuracy: float
    accuracy: float
    per_label: dict[str, dict[str, float]]
    confusion: dict[str, dict[str, int]] = Field(description="confusion[true][predicted]")
    ece: float = Field(0.0, description="Expected calibration error of the confidence of supported, weak and "
                       "contradicted verdicts (a not_found verdict carries no confidence).")
    ece_n: int = Field(0, description="Verdicts the calibration error is measured on.")
    unchecked: int = Field(0, description="Items with a passage the checker could not read (a bug in it, never the "
                           "item's fault; the log names the passage): their verdicts may be wrong.")


class EvalFileError(EvidenceError):
    """The eval file is not valid JSONL of labelled items; names the line."""


def load_items(path: Path) -> list[EvalItem]:
    """Items of a JSONL file; a bad line is an error naming its number."""
    items = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalFileError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = EvalItem.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            if first["type"] == "json_invalid":
                problem = f"not valid JSON ({str(first['msg']).removeprefix('Invalid JSON: ')})"
            else:
                problem = f"field '{'.'.join(map(str, first['loc']))}': {first['msg']}"
            raise EvalFileError(f"{path}:{number}: {problem}; each line must be one JSON object") from exc
        if item.label not in LABELS:
            raise EvalFileError(f"{path}:{number}: label must be one of {', '.join(LABELS)}, not {item.label!r}")
        items.append(item)
    if not items:
        raise EvalFileError(f"{path} holds no items")
    return items


def predicted_label(entry: LedgerEntry) -> str:
    """weak counts as supported."""
    return "supported" if entry.verdict in ("supported", "weak") else entry.verdict


def passage_chunk(item_id: str, index: int, passage: str) -> Chunk:
    """An evidence passage as ingest would chunk it: its tables rendered as sentences, their cells kept."""
    text, rows = render_tables(passage)
    return Chunk(
        hash=chunk_hash(text), text=text, document_id=item_id, index=index, start_char=0, end_char=len(text),
        path=f"{item_id}#{index}", title=f"evidence {index + 1}", table_rows=rows,
    )


def judge_items(
    items: list[EvalItem], checker: SupportChecker, settings: JudgeSettings | None = None,
    calibration: Platt | None = None,
) -> list[LedgerEntry]:
    """Judge every item against its own evidence, all support checks in one batch."""
    settings = settings or JudgeSettings()
    chunks_per_item = [[passage_chunk(item.id, i, text) for i, text in enumerate(item.evidence)] for item in items]
    checks = iter(
        checker.check([(item.claim, c) for item, chunks in zip(items, chunks_per_item, strict=True) for c in chunks])
    )
    today = date.today()
    entries = []
    for item, chunks in zip(items, chunks_per_item, strict=True):
        claim_type = classify_type(item.claim)
        claim = Claim(
            id=item.id, text=item.claim, type=claim_type, importance=assess_importance(item.claim, claim_type)
        )
        matches = [to_match(chunk, next(checks), "semantic") for chunk in chunks]
        entries.append(calibrated(decide_entry(claim, [], matches, [], today, settings), calibration))
    return entries


def unchecked_items(entries: list[LedgerEntry]) -> int:
    """How many entries have a passage the checker could not read (`ledger.judge.entries` notes it). Pure."""
    return sum(UNCHECKED in e.notes for e in entries)


def confidence_pairs(gold: list[str], entries: list[LedgerEntry]) -> tuple[list[float], list[bool]]:
    """(confidence, right) of every verdict that carries a confidence (supported, weak, contradicted)."""
    pairs = [(e.confidence, predicted_label(e) == g) for g, e in zip(gold, entries, strict=True)
             if e.verdict != "not_found"]
    return [c for c, _ in pairs], [r for _, r in pairs]


def score(
    gold: list[str], predicted: list[str], confidences: tuple[list[float], list[bool]] | None = None
) -> EvalReport:
    """Balanced accuracy, accuracy, per-label precision/recall/F1, the confusion matrix and the calibration error
    of the given (confidence, right) pairs. Pure."""
    confusion = {t: {p: 0 for p in LABELS} for t in LABELS}
    for t, p in zip(gold, predicted, strict=True):
        confusion[t][p] += 1
    per_label: dict[str, dict[str, float]] = {}
    recalls = []
    for label in LABELS:
        tp = confusion[label][label]
        n_true = sum(confusion[label].values())
        n_pred = sum(confusion[t][label] for t in LABELS)
        precision = tp / n_pred if n_pred else 0.0
        recall = tp / n_true if n_true else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "n": n_true,
        }
        if n_true:
            recalls.append(recall)
    n = len(gold)
    return EvalReport(
        n=n,
        balanced_accuracy=round(sum(recalls) / len(recalls), 4) if recalls else 0.0,
        accuracy=round(sum(confusion[label][label] for label in LABELS) / n, 4) if n else 0.0,
        per_label=per_label,
        confusion=confusion,
        ece=expected_calibration_error(*confidences) if confidences else 0.0,
        ece_n=len(confidences[0]) if confidences else 0,
    )


def write_predictions(path: Path, items: list[EvalItem], entries: list[LedgerEntry]) -> None:
    """One JSON line per item: gold, predicted, confidence and the deciding quote, for error analysis."""
    with path.open("w", encoding="utf-8") as fh:
        for item, entry in zip(items, entries, strict=True):
            lead = entry.evidence[0] if entry.evidence else None
            fh.write(
                json.dumps(
                    {
                        "id": item.id,
                        "claim": item.claim,
                        "label": item.label,
                        "predicted": predicted_label(entry),
                        "verdict": entry.verdict,
                        "confidence": entry.confidence,
                        "quote": lead.quote if lead else "",
                        "support": lead.support if lead else "none",
                        "similarity": lead.similarity if lead else 0.0,
                        "notes": entry.notes,
                    }
                )
                + "\n"
            )
