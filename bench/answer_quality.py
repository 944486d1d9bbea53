"""How much of the right answer the offline writer gives, on documents of many genres it was not written for.

    python bench/answer_quality.py [--set a|b] [--mode writer|ask] [--limit N] [--home DIR] [--json]
    python bench/answer_quality.py --folder DIR [...]    # your own: DIR/docs/ and DIR/questions.jsonl

The questions are the labelled retrieval sets (`bench/data/retrieval/questions_{a,b}.jsonl`, documents in
`docs_{a,b}/`: river and beetle articles, a budget, a lease, a film programme, a trial summary, a recipe
book, …), each with a gold answer or none. Set `a` is the one the writer may be tuned on; set `b` is held
out and only measured.

For an answerable question: the share of the gold answer's tokens that appear in the answer (lower-cased,
punctuation and articles dropped, citations removed; the figure tracked by the issue is their mean), and
whether the writer wrongly said the documents do not answer. For an unanswerable one: whether that was
recognised (the writer declined, or the run was flagged `unanswered` / `no_evidence`). In `ask` mode also the
ledger's gaps ("Parts of the question not answered" in the UI): how many answers that give the whole gold answer
still list a gap (wrongly), and how many answers to unanswerable questions that were not declined list one.

`--mode writer` runs retrieval and the local writer only (seconds); `--mode ask` runs the whole `evidence ask`
loop (judge, revisions), which is what a user sees. `--home DIR` keeps the ingested store for the next run.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ledger.backends.local.writer import LocalWriter  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_pipeline  # noqa: E402
from ledger.loop.risks import quarantine  # noqa: E402

DATA = ROOT / "bench/data/retrieval"
_ARTICLES = {"a", "an", "the"}
_CITE = re.compile(r"\s*\[cite:[^\]]*\]")


def tokens(text: str) -> list[str]:
    """SQuAD-style normalisation: lower case, punctuation out, articles out, thousands separators joined."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", _CITE.sub("", text).lower())
    return [t for t in re.findall(r"[\w.]+", text.replace("-", " ")) if t.strip(".") and t not in _ARTICLES]


_ABSTENTION = re.compile(r"The documents do not state[^:.]*[:.]")


def without_abstentions(answer: str) -> str:
    """The answer without its "The documents do not state …" clauses, which restate the question's words."""
    return _ABSTENTION.sub(" ", answer)


def token_recall(gold: str, answer: str) -> float:
    """Share of the gold answer's distinct tokens that the answer contains."""
    want = {t.strip(".") for t in tokens(gold)}
    have = {t.strip(".") for t in tokens(answer)}
    return len(want & have) / len(want) if want else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("a", "b"), default="a")
    parser.add_argument("--folder", type=Path, help="questions of your own instead: DIR/docs/ and DIR/questions.jsonl")
    parser.add_argument("--mode", choices=("writer", "ask"), default="writer")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--home", type=Path, help="an EVIDENCE_HOME to keep (ingests only when it is empty)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="print every answer")
    args = parser.parse_args()
    questions = args.folder / "questions.jsonl" if args.folder else DATA / f"questions_{args.set}.jsonl"
    docs = args.folder / "docs" if args.folder else DATA / f"docs_{args.set}"
    if not questions.is_file():
        parser.error(f"no {questions} (a folder needs docs/ and questions.jsonl)")
    rows = [json.loads(line) for line in questions.read_text().splitlines() if line]
    rows = rows[: args.limit] if args.limit else rows
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp)
        settings = Settings(home=home)
        embedder = Embedder(settings.embedding)
        build_ingestor(settings, embedder=embedder).run([docs])
        pipeline = build_pipeline(settings, embedder=embedder)
        writer = LocalWriter(embedder, settings.revision)
        recalls: list[float] = []
        wrong_abstentions = flagged = full_with_gaps = unanswerable_with_gaps = 0
        seconds: list[float] = []
        for row in rows:
            started = time.perf_counter()
            if args.mode == "writer":
                hits = pipeline.retriever.retrieve(
                    row["question"], settings.revision.retrieve_k, settings.revision.min_relevance
                )
                evidence, _ = quarantine([h.chunk for h in hits])
                written = writer.write(row["question"], evidence)
                answer, declined = written.text, not written.answered
            else:
                result = pipeline.ask(row["question"])
                answer = result.answer
                declined = bool({f.type for f in result.risk_flags} & {"unanswered", "no_evidence"})
                gaps = bool(result.ledger.gaps)
            seconds.append(time.perf_counter() - started)
            if row["answerable"]:
                recall = token_recall(row["answer"], without_abstentions(answer))
                recalls.append(recall)
                wrong_abstentions += declined
                mark = f"{recall:4.2f}"
                full_with_gaps += args.mode == "ask" and recall == 1.0 and not declined and gaps
            else:
                flagged += declined
                unanswerable_with_gaps += args.mode == "ask" and not declined and gaps
                mark = "ok  " if declined else "MISS"
            if args.show or (row["answerable"] and recalls[-1] < 1.0) or (not row["answerable"] and not declined):
                print(f"{mark} {row['id']} [{row['kind']}] {row['question']}\n     gold: {row['answer']}\n"
                      f"     got:  {_CITE.sub('', answer)[:300]}")
        unanswerable = sum(1 for r in rows if not r["answerable"])
        summary = {
            "set": str(args.folder) if args.folder else args.set,
            "mode": args.mode,
            "answerable": len(recalls),
            "token_recall": round(statistics.fmean(recalls), 4) if recalls else None,
            "full_recall_share": round(sum(r == 1.0 for r in recalls) / len(recalls), 4) if recalls else None,
            "wrong_abstentions": wrong_abstentions,
            "unanswerable": unanswerable,
            "unanswerable_flagged": flagged,
            "median_s": round(statistics.median(seconds), 3) if seconds else None,
        }
        if args.mode == "ask":
            summary["full_answers_listing_gaps"] = full_with_gaps
            summary["unanswerable_answered_listing_gaps"] = unanswerable_with_gaps
        print(json.dumps(summary) if args.json else summary)


if __name__ == "__main__":
    main()
