"""Does the offline writer answer "who" questions, and decline the ones a passage does not answer?

    python bench/who_answers.py [--set bench/data/who_questions.jsonl] [--misses] [--json]

Each item is a short passage, a "who" question and the phrase of the passage that answers it, or null when the
passage never says who (`bench/data/README.md`). The writer gets the passage as one chunk, as `evidence ask` would
after retrieval. An answerable item is right when the writer answers (no "The documents do not state …") and the
answer holds the phrase; an unanswerable one when the writer declines. Figures per kind: a role in lower case ("the
duty pharmacist"), a proper name, both (the role in one sentence, the name of whoever holds it in another; the name
is the answer), and unanswerable.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.backends.local.writer import LocalWriter  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.judge.evaluation import passage_chunk  # noqa: E402


def right(item: dict, answered: bool, text: str) -> bool:
    """Whether the writer's answer is what the item expects."""
    if item["answer"] is None:
        return not answered
    return answered and " ".join(item["answer"].lower().split()) in " ".join(text.lower().split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=ROOT / "bench/data/who_questions.jsonl")
    parser.add_argument("--misses", action="store_true", help="print each wrong item")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    items = [json.loads(line) for line in args.set.read_text().splitlines() if line.strip()]
    settings = Settings()
    writer = LocalWriter(Embedder(settings.embedding), settings.revision)
    ok: collections.Counter[str] = collections.Counter()
    seen: collections.Counter[str] = collections.Counter()
    for item in items:
        written = writer.write(item["question"], [passage_chunk(item["id"], 0, item["passage"])])
        good = right(item, written.answered, written.text)
        seen[item["kind"]] += 1
        ok[item["kind"]] += good
        if args.misses and not good:
            print(f"{item['id']} [{item['kind']}] {item['question']}")
            print(f"   want: {item['answer']}\n   got:  {written.text}")
    result = {"n": len(items), "right": sum(ok.values()), **{k: f"{ok[k]}/{seen[k]}" for k in sorted(seen)}}
    print(json.dumps(result) if args.json else "\n".join(f"{k:<14} {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
