"""Public fact-verification claims as `evidence eval` sets, from the NLI dev split the checker never trained on.

    python bench/nli_claims.py [--data ../shared/data/nli] [--out /tmp/nli_claims]
    evidence eval /tmp/nli_claims/public_heldout.jsonl --json

The FEVER-family items of `dev.jsonl.gz` (FEVER, FEVER-Symmetric, SufficientFacts, Fool Me Twice; SNLI and
MultiNLI left out: captions and fiction are not fact verification), shuffled with seed 7: the first 1,000 are
`public_tune.jsonl` (the NLI thresholds `nli_rescue` / `nli_refute` were chosen on it, with the two team sets),
the other 848 `public_heldout.jsonl` (never tuned on). Labels map entailment → supported, contradiction →
contradicted, neutral → not_found.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = {"entailment": "supported", "contradiction": "contradicted", "neutral": "not_found"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "nli")
    parser.add_argument("--out", type=Path, default=Path("/tmp/nli_claims"))
    args = parser.parse_args()
    with gzip.open(args.data / "dev.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    random.seed(7)
    random.shuffle(rows)
    public = [r for r in rows if r["source"] not in ("snli", "mnli")]
    args.out.mkdir(parents=True, exist_ok=True)
    for name, part, prefix in (("public_tune", public[:1000], "nli"), ("public_heldout", public[1000:], "nlih")):
        with (args.out / f"{name}.jsonl").open("w", encoding="utf-8") as f:
            for i, r in enumerate(part):
                f.write(json.dumps({"id": f"{prefix}-{i}", "claim": r["hypothesis"], "evidence": [r["premise"]],
                                    "label": LABELS[r["label"]], "kind": r["source"]}) + "\n")
        print(f"{args.out / name}.jsonl: {len(part)} items")


if __name__ == "__main__":
    main()
