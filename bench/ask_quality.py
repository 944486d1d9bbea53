"""Answer quality of `evidence ask` offline on sample_docs, with questions written by the team.

    python bench/ask_quality.py [--questions bench/data/questions.jsonl] [--json]

For answerable questions (`expect` holds a figure from the documents): does every answer sentence cite an
existing chunk, is the expected figure there, what is the coverage, was it wrongly given the no-evidence
answer? For questions the documents do not answer (`expect` null): was that recognised (the `unanswered`
or `no_evidence` flag, or an answer that says what is missing) instead of stitched sentences?
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.backends.base import NO_EVIDENCE_ANSWER  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_pipeline  # noqa: E402
from ledger.text.sentences import parse_citations, split_sentences  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=Path, default=ROOT / "bench/data/questions.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp))
        embedder = Embedder(settings.embedding)
        build_ingestor(settings, embedder=embedder).run([ROOT / "sample_docs"])
        pipeline = build_pipeline(settings, embedder=embedder)
        judge = pipeline.judge
        known = {c.hash for c in judge.store.all_chunks()}
        answered, unanswerable = [], []
        for row in rows:
            started = time.perf_counter()
            result = pipeline.ask(row["question"])
            seconds = time.perf_counter() - started
            flags = {f.type for f in result.risk_flags}
            if row["expect"] is None:
                recognised = bool(flags & {"unanswered", "no_evidence"}) or result.ledger.summary.total_claims == 0
                unanswerable.append(recognised)
                print(
                    f"{'ok  ' if recognised else 'MISS'} unanswerable  {row['question']}\n      {result.answer[:160]}"
                )
                continue
            sentences = [s for s, _, _ in split_sentences(result.answer)]
            cites_ok = bool(sentences) and all(
                (c := parse_citations(s)[1]) and set(c) <= known for s in sentences if "do not state" not in s
            )
            found = row["expect"].lower() in result.answer.lower()
            coverage = result.ledger.summary.evidence_coverage
            answered.append(
                {
                    "question": row["question"],
                    "cites_ok": cites_ok,
                    "found": found,
                    "coverage": coverage,
                    "no_evidence": result.answer == NO_EVIDENCE_ANSWER,
                    "rounds": len(result.revisions),
                    "seconds": round(seconds, 2),
                }
            )
            print(
                f"{'ok  ' if cites_ok and found else 'MISS'} cov {coverage:.2f} rounds {len(result.revisions)} "
                f"cites_ok={cites_ok} expected={found}  {row['question']}\n      {result.answer[:160]}"
            )
    mean_cov = statistics.mean(a["coverage"] for a in answered)
    summary = {
        "answerable": len(answered),
        "all_sentences_cite_existing_chunks": sum(a["cites_ok"] for a in answered),
        "expected_figure_present": sum(a["found"] for a in answered),
        "mean_coverage": round(mean_cov, 3),
        "no_evidence_on_answerable": sum(a["no_evidence"] for a in answered),
        "unanswerable": len(unanswerable),
        "unanswerable_recognised": sum(unanswerable),
        "median_seconds": statistics.median(a["seconds"] for a in answered),
    }
    print("\n" + "\n".join(f"{k:36} {v}" for k, v in summary.items()))
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
