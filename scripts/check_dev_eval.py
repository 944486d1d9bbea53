"""Validate the labelled developer set used by `evidence eval` and print its counts.

Checks, for every line of the JSONL file:
- it is a JSON object with exactly the keys id, claim, evidence, label, kind (right types, non-empty);
- ids are unique; label is supported | contradicted | not_found;
- evidence holds 1-3 distinct passages, each of which occurs verbatim (modulo whitespace) in the
  text of some document in sample_docs/ as loaded by ingest.loaders.load_file;
- no item takes evidence from both travel policies (2024 and 2026 conflict on purpose).

Prints counts per label and per (label, kind) and exits 1 if any check fails.

Usage: python scripts/check_dev_eval.py [FILE] [--docs DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.loaders import SUPPORTED_EXTENSIONS, load_file  # noqa: E402

LABELS = ("supported", "contradicted", "not_found")
KEYS = {"id", "claim", "evidence", "label", "kind"}
CONFLICTING = ({"travel_expense_policy_2024.txt", "travel_expense_policy_2026.md"},)
MIN_ITEMS = 150


def squash(text: str) -> str:
    return " ".join(text.split())


def load_docs(docs_dir: Path) -> dict[str, str]:
    docs = {}
    for path in sorted(docs_dir.iterdir()):
        if path.suffix.lower() in SUPPORTED_EXTENSIONS:
            docs[path.name] = squash(load_file(path).text)
    return docs


def check(path: Path, docs: dict[str, str]) -> tuple[list[str], list[dict]]:
    errors: list[str] = []
    items: list[dict] = []
    seen_ids: set[str] = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"line {lineno}"
        if not line.strip():
            errors.append(f"{where}: blank line")
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{where}: invalid JSON ({exc})")
            continue
        if not isinstance(item, dict) or set(item) != KEYS:
            got = sorted(item) if isinstance(item, dict) else type(item).__name__
            errors.append(f"{where}: keys must be {sorted(KEYS)}, got {got}")
            continue
        where = f"line {lineno} ({item['id']})"
        for key in ("id", "claim", "label", "kind"):
            if not isinstance(item[key], str) or not item[key].strip():
                errors.append(f"{where}: {key} must be a non-empty string")
        if item["id"] in seen_ids:
            errors.append(f"{where}: duplicate id")
        seen_ids.add(item["id"])
        if item["label"] not in LABELS:
            errors.append(f"{where}: label {item['label']!r} not in {LABELS}")
        evidence = item["evidence"]
        if not isinstance(evidence, list) or not 1 <= len(evidence) <= 3:
            errors.append(f"{where}: evidence must be a list of 1-3 passages")
            continue
        if len({squash(e) for e in evidence if isinstance(e, str)}) != len(evidence):
            errors.append(f"{where}: duplicate evidence passage")
        sources: set[str] = set()
        for n, passage in enumerate(evidence, 1):
            if not isinstance(passage, str) or not passage.strip():
                errors.append(f"{where}: evidence {n} must be a non-empty string")
                continue
            found = [name for name, text in docs.items() if squash(passage) in text]
            if not found:
                errors.append(f"{where}: evidence {n} not found verbatim in any sample doc: {passage[:80]!r}")
            sources.update(found)
        for pair in CONFLICTING:
            if pair <= sources:
                errors.append(f"{where}: evidence mixes {' and '.join(sorted(pair))}")
        if squash(item["claim"]) in {squash(e) for e in evidence if isinstance(e, str)}:
            errors.append(f"{where}: claim is identical to a whole evidence passage")
        items.append(item)
    if len(items) < MIN_ITEMS:
        errors.append(f"only {len(items)} valid items; at least {MIN_ITEMS} are required")
    return errors, items


def report(items: list[dict]) -> None:
    labels = Counter(item["label"] for item in items)
    kinds = Counter((item["label"], item["kind"]) for item in items)
    print(f"items: {len(items)}")
    for label in LABELS:
        print(f"  {label:<13} {labels.get(label, 0):>4}")
        for (lab, kind), count in sorted(kinds.items()):
            if lab == label:
                print(f"      {kind:<24} {count:>4}")
    per_item = Counter(len(item["evidence"]) for item in items)
    print("evidence passages per item: " + ", ".join(f"{k}: {v}" for k, v in sorted(per_item.items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=ROOT / "bench" / "data" / "dev_eval.jsonl")
    parser.add_argument("--docs", type=Path, default=ROOT / "sample_docs")
    args = parser.parse_args(argv)
    docs = load_docs(args.docs)
    errors, items = check(args.file, docs)
    report(items)
    for error in errors:
        print(f"ERROR {error}", file=sys.stderr)
    print("OK" if not errors else f"{len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
