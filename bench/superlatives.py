"""Does the offline writer answer "which is the cheapest / longest / highest" over a table?

    python bench/superlatives.py [--set tune|holdout] [--json]

Tables of several kinds (fees, sales, routes; plans, reservoirs, clinics) in `bench/data/superlatives/tables_*.md`,
with questions asking for the row at one end of a column (`questions_*.jsonl`, each with the row's label). An answer
is right when the writer answers (does not decline) and its first sentence is the row with that label. `tune` is the
set the writer may be tuned on; `holdout` was written at the same time and is only measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.backends.local.writer import LocalWriter  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_pipeline  # noqa: E402
from ledger.text.sentences import parse_citations, split_sentences  # noqa: E402

DATA = ROOT / "bench/data/superlatives"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("tune", "holdout"), default="tune")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in (DATA / f"questions_{args.set}.jsonl").read_text().splitlines() if line]
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        (docs / "tables.md").write_text((DATA / f"tables_{args.set}.md").read_text())
        settings = Settings(home=Path(tmp) / "home")
        embedder = Embedder(settings.embedding)
        build_ingestor(settings, embedder=embedder).run([docs])
        pipeline = build_pipeline(settings, embedder=embedder)
        writer = LocalWriter(embedder, settings.revision)
        right = 0
        for row in rows:
            hits = pipeline.retriever.retrieve(row["question"], settings.revision.retrieve_k,
                                               settings.revision.min_relevance)
            written = writer.write(row["question"], [h.chunk for h in hits])
            sentences = [parse_citations(s)[0] for s, _, _ in split_sentences(written.text)]
            ok = written.answered and bool(sentences) and sentences[0].startswith(row["answer"])
            right += ok
            if not args.json or not ok:
                print(f"{'ok  ' if ok else 'MISS'} {row['question']}\n     want: {row['answer']}\n"
                      f"     got:  {' '.join(sentences)[:200]}")
        summary = {"set": args.set, "n": len(rows), "right": right}
        print(json.dumps(summary) if args.json else summary)


if __name__ == "__main__":
    main()
