#!/usr/bin/env python
"""Train the judge's learned contrasts (`ledger/judge/substitutions.py`) from the labelled NLI pairs.

    python scripts/train_substitutions.py [--data ../shared/data/nli] [--out ledger/judge/models/contrasts.json]

1. Mine substitutions: for each (premise, hypothesis) pair, the premise sentence closest to the hypothesis is
   aligned with it word by word (`aligned_substitutions`, the same function the judge uses). A pair counts when
   the hypothesis is that sentence with exactly one slot of other content words and nothing else of substance
   added, so the pair's label is the slot's: contradiction (the words rule each other out) or not.
2. Fit a logistic regression (scikit-learn, standardised features, balanced classes) on `pair_features` of the
   train split's slots, each slot in both directions.
3. Pick the threshold on the dev split: the lowest probability at which the contrasts found are at least
   --precision right (a contradiction called where there is none costs more than a missed one).
4. Write the weights, the threshold and the dev figures as JSON.

It takes about a minute on two cores. Every step is deterministic.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.core.models import bundled_word_vectors  # noqa: E402
from ledger.judge.substitutions import WEIGHTS, _zipf, aligned_substitutions, pair_features  # noqa: E402
from ledger.judge.word_relations import bundled_wordnet  # noqa: E402
from ledger.text.alignment import tokens  # noqa: E402
from ledger.text.sentences import split_sentences  # noqa: E402
from ledger.text.terms import coverage, key_terms  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "nli"


def closest_sentence(premise: str, hypothesis: str) -> str:
    """The premise sentence sharing most content words with the hypothesis (as the judge's quote choice)."""
    terms = key_terms(hypothesis)
    sentences = [s for s, _, _ in split_sentences(premise)] or [premise]
    return max(sentences, key=lambda s: (coverage(terms, key_terms(s))[0], -len(s)))


def single_slot(hypothesis: str, sentence: str) -> tuple[str, str] | None:
    """The one substituted slot of a hypothesis that is otherwise the sentence, or None."""
    slots = aligned_substitutions(hypothesis, sentence)
    if len(slots) != 1:
        return None
    ours, theirs = tokens(hypothesis), tokens(sentence)
    matcher = difflib.SequenceMatcher(a=[w.lower() for w in ours], b=[w.lower() for w in theirs], autojunk=False)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag == "delete" and key_terms(" ".join(ours[i1:i2])):
            return None  # the hypothesis adds content of its own: the label is not the slot's alone
        if tag == "replace" and key_terms(" ".join(ours[i1:i2])) and (
            " ".join(ours[i1:i2]) != slots[0].claim
        ):
            return None  # another changed slot that the filter left out (a figure, a negation, a rewording)
    return slots[0].claim, slots[0].evidence


def mine(path: Path) -> list[tuple[str, str, str]]:
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            hypothesis = row["hypothesis"]
            if len(tokens(hypothesis)) < 4:
                continue
            slot = single_slot(hypothesis, closest_sentence(row["premise"], hypothesis))
            if slot:
                out.append((slot[0], slot[1], row["label"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="folder with train.jsonl.gz and dev.jsonl.gz")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--c", type=float, default=0.03, help="inverse regularisation strength")
    parser.add_argument("--precision", type=float, default=0.8, help="dev precision the threshold must reach")
    args = parser.parse_args()
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.preprocessing import StandardScaler

    start = time.time()
    train, dev = mine(args.data / "train.jsonl.gz"), mine(args.data / "dev.jsonl.gz")
    print(f"mined {len(train)} train and {len(dev)} dev slots "
          f"({sum(y == 'contradiction' for *_, y in train)} / {sum(y == 'contradiction' for *_, y in dev)} "
          "contradictions)", flush=True)
    vectors, wordnet = bundled_word_vectors(), bundled_wordnet()

    def matrix(rows: list[tuple[str, str, str]]) -> np.ndarray:
        return np.stack([pair_features(a, b, vectors, _zipf, wordnet) for a, b, _ in rows])

    both = train + [(b, a, y) for a, b, y in train]
    x, y = matrix(both), np.array([r[2] == "contradiction" for r in both], dtype=int)
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=args.c, max_iter=5000, class_weight="balanced").fit(scaler.transform(x), y)
    x_dev = scaler.transform(matrix(dev))
    y_dev = np.array([r[2] == "contradiction" for r in dev], dtype=int)
    # A contrast called on a slot the premise leaves open (neutral) still keeps the claim from "supported";
    # only a call on an entailed slot is a wrong verdict. Precision counts that.
    not_entailed = np.array([r[2] != "entailment" for r in dev], dtype=int)
    p_dev = model.predict_proba(x_dev)[:, 1]
    threshold = next(
        (float(t) for t in np.arange(0.5, 0.99, 0.01)
         if (p_dev >= t).sum() >= 5 and not_entailed[p_dev >= t].mean() >= args.precision),
        0.99,
    )
    called = p_dev >= threshold
    figures = {
        "train_slots": len(train), "dev_slots": len(dev),
        "dev_balanced_accuracy_at_0.5": round(float(balanced_accuracy_score(y_dev, p_dev >= 0.5)), 4),
        "threshold": round(threshold, 2),
        "dev_calls_at_threshold": int(called.sum()),
        "dev_precision_at_threshold": round(float(not_entailed[called].mean()), 4) if called.any() else None,
        "dev_contradiction_recall_at_threshold": round(float(called[y_dev == 1].mean()), 4),
    }
    print(json.dumps(figures), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "about": "Learned contrasts of ledger/judge/substitutions.py; made by scripts/train_substitutions.py "
                 "from ../shared/data/nli (see its README for sources and licences).",
        "figures": figures,
        "threshold": round(threshold, 2),
        "intercept": float(model.intercept_[0]),
        "mean": [round(float(v), 6) for v in scaler.mean_],
        "scale": [round(float(v), 6) for v in scaler.scale_],
        "coef": [round(float(v), 6) for v in model.coef_[0]],
    }, indent=None) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
