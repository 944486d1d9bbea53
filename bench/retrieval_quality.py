"""Retrieval quality of dense, keyword and hybrid search on a labelled set, measured in one run.

    python bench/retrieval_quality.py [--set a|b|both] [--json]

The set is `bench/data/retrieval`: 44 documents of many genres (none from sample_docs) and 518 questions,
each naming the document and the verbatim evidence that answers it (465 answerable). Set A is the one
retrieval was tuned on; set B is held out and never tuned on. The documents of both sets are ingested into
one workspace, so each question competes with all 44 documents.

A retrieved chunk is a hit when it comes from the question's document and holds at least 80% of the
evidence's words (chunk boundaries and table rendering keep verbatim containment from being a fair test).
Printed: recall@1/5/10 and MRR@10 per method, per set and per question kind; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.embedding import Embedder  # noqa: E402
from ingest.hashing import vector_id  # noqa: E402
from ingest.retrieval import Retriever  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor, build_retriever  # noqa: E402

DATA = ROOT / "bench/data/retrieval"
KS = (1, 5, 10)
_WORD = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def is_hit(chunk_text: str, chunk_path: str, row: dict) -> bool:
    if not chunk_path.endswith(row["document"].split("/", 1)[-1]):
        return False
    wanted = words(row["evidence"])
    return bool(wanted) and len(wanted & words(chunk_text)) >= 0.8 * len(wanted)


def scores(ranked: list[tuple[str, str]], row: dict) -> dict[str, float]:
    first = next((i for i, (text, path) in enumerate(ranked, 1) if is_hit(text, path, row)), None)
    out = {f"recall@{k}": float(first is not None and first <= k) for k in KS}
    out["mrr@10"] = 1.0 / first if first is not None and first <= 10 else 0.0
    return out


def mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=["a", "b", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="only the JSON line")
    args = parser.parse_args()
    sets = ["a", "b"] if args.set == "both" else [args.set]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp))
        embedder = Embedder(settings.embedding)
        started = time.perf_counter()
        report = build_ingestor(settings, embedder=embedder).run([DATA / "docs_a", DATA / "docs_b"])
        ingest_s = time.perf_counter() - started
        retriever = build_retriever(settings, embedder=embedder)
        assert retriever.keywords is not None
        if retriever.keywords.count() == 0:  # a home whose ingest did not fill the keyword index
            retriever.keywords.upsert((vector_id(c.document_id, c.hash), c) for c in retriever.store.all_chunks())
        dense_only = Retriever(retriever.store, embedder)
        results: dict[str, dict] = {}
        for name in sets:
            rows = [json.loads(line) for line in (DATA / f"questions_{name}.jsonl").read_text().splitlines()]
            rows = [r for r in rows if r["answerable"]]
            per: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
            kinds: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
            timing: dict[str, list[float]] = defaultdict(list)
            for row in rows:
                q = row["question"]
                runs = {
                    "dense": lambda q=q: [(h.chunk.text, h.chunk.path) for h in dense_only.hybrid_many([q], 10)[0]],
                    "keyword": lambda q=q: _keyword(retriever, q),
                    "hybrid": lambda q=q: [(h.chunk.text, h.chunk.path) for h in retriever.hybrid_many([q], 10)[0]],
                }
                for method, run in runs.items():
                    t = time.perf_counter()
                    ranked = run()
                    timing[method].append((time.perf_counter() - t) * 1000)
                    for metric, value in scores(ranked, row).items():
                        per[method][metric].append(value)
                        kinds[f"{method}:{row['kind']}"][metric].append(value)
            results[name] = {
                "questions": len(rows),
                **{m: {k: mean(v) for k, v in metrics.items()} for m, metrics in per.items()},
                "by_kind_recall@5": {k: mean(v["recall@5"]) for k, v in sorted(kinds.items())},
                "median_ms": {m: round(sorted(v)[len(v) // 2], 1) for m, v in timing.items()},
            }
        if not args.json:
            print(f"ingested {report.documents_added} documents, {report.chunks_added} chunks in {ingest_s:.1f} s")
            for name, res in results.items():
                label = "A (tuned on)" if name == "a" else "B (held out)"
                print(f"\nset {label}: {res['questions']} answerable questions")
                print(f"  {'method':8} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'ms':>6}")
                for method in ("dense", "keyword", "hybrid"):
                    m = res[method]
                    print(
                        f"  {method:8} {m['recall@1']:6.3f} {m['recall@5']:6.3f} {m['recall@10']:6.3f} "
                        f"{m['mrr@10']:6.3f} {res['median_ms'][method]:6.1f}"
                    )
                print("  recall@5 by kind: " + ", ".join(f"{k}={v:.2f}" for k, v in res["by_kind_recall@5"].items()))
        summary = {
            name: {
                "questions": res["questions"],
                **{f"{m}_recall_at_5": res[m]["recall@5"] for m in ("dense", "keyword", "hybrid")},
                **{f"{m}_mrr": res[m]["mrr@10"] for m in ("dense", "keyword", "hybrid")},
                "hybrid_minus_dense_recall_at_5": round(res["hybrid"]["recall@5"] - res["dense"]["recall@5"], 4),
            }
            for name, res in results.items()
        }
        print(json.dumps(summary))


def _keyword(retriever: Retriever, question: str) -> list[tuple[str, str]]:
    assert retriever.keywords is not None
    hits = retriever.keywords.search(question, 10)
    chunks = retriever.store.get_by_hashes([h.chunk_hash for h in hits])
    return [(chunks[h.chunk_hash].text, chunks[h.chunk_hash].path) for h in hits if h.chunk_hash in chunks]


if __name__ == "__main__":
    main()
