"""Retrieval latency and a 10-claim verify at 1k, 10k and 100k chunks, with the model loaded.

The stores are synthetic, built once under `--cache-dir` and reused by the next run (embedding 100k real chunks
would take hours on 2 cores). A pool of real sentences (about 1,800: the prose of bench/data/retrieval's
documents and the evidence passages of bench/data/genres_*.jsonl) is embedded once with the configured model and
backend; each synthetic chunk is 6-10 sentences of the pool (figures varied in half of them, so texts and keyword
statistics are not one repeated set) and its vector is the normalised mean of its sentences' vectors: close
neighbours are chunks that share sentences, as in a corpus that repeats itself. The chunks go in through the
product's own writes, VectorStore.upsert and KeywordIndex.upsert, in batches; the store records the embedder's
backend like an ingest does. With so small a pool every sentence recurs in hundreds of the 100k chunks, so the
keyword index sees few rare words: a harder case for it than most real collections.

Measured per size, in this process, after warming up:
- retrieval: `Retriever.retrieve` of the product's hybrid search (build_retriever: the question embedded, Chroma's
  nearest neighbours and the keyword index's BM25 matches fused by reciprocal rank, the keyword-only hits'
  similarities fetched) for `--queries` real questions (bench/data/retrieval/questions_*.jsonl), p50 and p95;
  then the median of each part alone (embedding, dense search, keyword search, the keyword-only fetch), and what
  the keyword index's scoring budget changes (results identical to scoring every match, overlap, times);
- verify: `Judge.run` (build_judge, as `evidence verify` builds it) of a 10-claim draft of pool sentences, three
  with a changed figure, with a fresh embedding cache each time (median of `--verifies` drafts); then the same
  drafts reworded (a word left out of each sentence), so that no claim is a document's sentence word for word and
  the support model reads every supported quote, as for a draft written in other words.

Goals at 100k: retrieval p95 <= 50 ms, verify <= 2 s (both drafts).

    python bench/query_scale.py [--sizes 1000,10000,100000] [--queries 100] [--verifies 3] [--cache-dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import statistics
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest_memory import source_sentences  # noqa: E402
from retrieval_quality import words  # noqa: E402

from ingest.embedding import Embedder  # noqa: E402
from ingest.hashing import chunk_hash, document_id, vector_id  # noqa: E402
from ingest.retrieval import MIN_POOL, Retriever  # noqa: E402
from ingest.vectorstore import VectorStore  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.core.types import Chunk  # noqa: E402
from ledger.judge.claims import extract_claims  # noqa: E402
from ledger.loop.factory import build_embedder, build_judge, build_retriever  # noqa: E402
from ledger.storage import keywords as keywords_module  # noqa: E402
from ledger.storage.database import open_engine  # noqa: E402
from ledger.storage.keywords import KeywordIndex  # noqa: E402

QUESTIONS = ROOT / "bench" / "data" / "retrieval"
DEFAULT_CACHE = Path.home() / ".cache" / "evidence-ledger" / "bench" / "query_scale"
RECIPE = "query-scale.v1"  # bump when the synthetic chunks change, so an old cache is rebuilt
CHUNKS_PER_DOC = 10
BATCH = 2000
GOAL_P95_MS = 50.0
GOAL_VERIFY_S = 2.0
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def pool_sentences() -> list[str]:
    """The retrieval set's prose sentences and those of the genre sets' evidence passages, each once."""
    found = source_sentences()
    for path in sorted((ROOT / "bench" / "data").glob("genres_*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for passage in json.loads(line)["evidence"] if line.strip() else []:
                found.extend(s for s in _SENTENCE_END.split(passage) if len(s.split()) >= 6)
    return list(dict.fromkeys(found))


def pool_vectors(embedder: Embedder, pool: list[str], cache: Path) -> np.ndarray:
    """The pool's sentence vectors, embedded once per model, backend and pool (cached as .npy)."""
    key = hashlib.sha256(("\n".join(pool) + embedder.fingerprint).encode()).hexdigest()[:16]
    path = cache / f"pool-{key}.npy"
    if path.exists():
        return np.load(path)
    started = time.perf_counter()
    vectors = embedder.encode(pool)
    print(f"embedded the pool of {len(pool)} sentences in {time.perf_counter() - started:.0f} s", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def synthetic_chunks(workspace: str, n: int, pool: list[str], vectors: np.ndarray) -> tuple[list[Chunk], np.ndarray]:
    """n distinct chunks of pool sentences, with the normalised mean of their sentences' vectors. Deterministic."""
    rng = random.Random(f"{RECIPE}:{n}")
    chunks: list[Chunk] = []
    rows: list[np.ndarray] = []
    seen: set[str] = set()
    i = 0
    while len(chunks) < n:
        picked = rng.sample(range(len(pool)), rng.randint(6, 10))
        sentences = [pool[j] for j in picked]
        if rng.random() < 0.5:
            sentences = [_NUMBER.sub(lambda m: str(rng.randint(2, 9999)), s) for s in sentences]
        text = " ".join(sentences)
        digest = chunk_hash(text)
        if digest in seen:
            continue
        seen.add(digest)
        doc = i // CHUNKS_PER_DOC
        path = f"/synthetic/{workspace}/doc_{doc:06}.md"
        chunks.append(Chunk(
            hash=digest, text=text, document_id=document_id(workspace, path), index=i % CHUNKS_PER_DOC,
            start_char=0, end_char=len(text), path=path, title=f"Synthetic document {doc}",
            doc_date=date(2025, 1 + doc % 12, 1 + doc % 28),
        ))
        mean = vectors[picked].mean(axis=0)
        rows.append(mean / np.linalg.norm(mean))
        i += 1
    return chunks, np.asarray(rows, dtype=np.float32)


def ensure_store(settings: Settings, embedder: Embedder, n: int, pool: list[str], vectors: np.ndarray) -> str:
    """The workspace holding the n-chunk store, built now unless the cache already holds it whole."""
    workspace = f"scale-{n}"
    marker = settings.home / f"{workspace}.json"
    want = {"recipe": RECIPE, "chunks": n, "backend": embedder.fingerprint, "pool": len(pool)}
    store = VectorStore(settings, workspace)
    keywords = KeywordIndex(open_engine(settings), workspace)
    if marker.exists() and json.loads(marker.read_text()) == want and store.count() == n and keywords.count() == n:
        return workspace
    started = time.perf_counter()
    store.delete(sorted(store.ids()))
    keywords.delete(sorted(keywords.ids()))
    store.record_backend(embedder.fingerprint)
    chunks, rows = synthetic_chunks(workspace, n, pool, vectors)
    for start in range(0, n, BATCH):
        part = chunks[start : start + BATCH]
        store.upsert(part, rows[start : start + BATCH])
        keywords.upsert((vector_id(c.document_id, c.hash), c) for c in part)
        if (start // BATCH) % 10 == 9:
            print(f"  {start + len(part)} of {n} written", flush=True)
    marker.write_text(json.dumps(want))
    print(f"built {workspace}: {n} chunks in {time.perf_counter() - started:.0f} s", flush=True)
    return workspace


def questions() -> list[str]:
    """The retrieval set's questions, in file order."""
    found: list[str] = []
    for path in sorted(QUESTIONS.glob("questions_*.jsonl")):
        found.extend(json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line)
    return found


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (linear interpolation between the nearest ranks)."""
    return float(np.percentile(np.asarray(values), q))


def time_retrieval(retriever: Retriever, settings: Settings, asked: list[str]) -> dict[str, Any]:
    """Latency of the product's retrieval per question (ms), and the median of each of its parts alone."""
    k, bar = settings.revision.retrieve_k, settings.revision.min_relevance
    for q in asked[:5]:  # warm up: the HNSW index loads, the model's first batch
        retriever.retrieve(q, k, bar)
    totals = []
    for q in asked:
        started = time.perf_counter()
        retriever.retrieve(q, k, bar)
        totals.append((time.perf_counter() - started) * 1000)
    pool = max(2 * k, MIN_POOL)
    parts: dict[str, list[float]] = {"embed": [], "dense": [], "keyword": [], "keyword_only_fetch": []}
    assert retriever.keywords is not None
    for q in asked:
        t0 = time.perf_counter()
        vector = retriever.embedder.encode([q])[0]
        t1 = time.perf_counter()
        dense = retriever.store.search(vector, pool)
        t2 = time.perf_counter()
        keyword = retriever.keywords.search(q, pool)
        t3 = time.perf_counter()
        seen = {hit.chunk.hash for hit in dense}
        missing = [hit.chunk_id for hit in keyword if hit.chunk_hash not in seen]
        if missing:
            retriever._scored(vector, missing)  # what hybrid_many does for the keyword-only hits
        t4 = time.perf_counter()
        for name, ms in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name].append(ms * 1000)
    return {
        "p50": percentile(totals, 50), "p95": percentile(totals, 95),
        "parts": {name: round(statistics.median(v), 1) for name, v in parts.items()},
        "parts_p95": {name: round(percentile(v, 95), 1) for name, v in parts.items()},
        "keyword_budget": keyword_budget_effect(retriever.keywords, asked, pool),
    }


def budget_recall(retriever: Retriever, prefix: str) -> dict[str, float]:
    """Recall of the answer passage with the keyword index's scoring budget and with every match scored, over the
    answerable questions of the retrieval set whose ids start with `prefix` ("ra": set A, "rb": held-out set B).
    Their evidence sentences are in the pool, so the store holds them (figures varied in half its chunks): a chunk
    holding 80% of the evidence's words is a hit. `hybrid_r5`: the product's hybrid search, top 5; `keyword_r20`:
    the keyword index alone, top 20."""
    rows = [json.loads(line) for path in sorted(QUESTIONS.glob("questions_*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line]
    rows = [r for r in rows if r.get("answerable") and r.get("evidence") and r["id"].startswith(prefix)]
    assert retriever.keywords is not None

    def held(text: str, evidence: str) -> bool:  # retrieval_quality's hit, less its document (the store has none)
        wanted = words(evidence)
        return len(wanted & words(text)) >= 0.8 * len(wanted)

    budget, out = keywords_module.SCORING_BUDGET, {"questions": float(len(rows))}
    for name, limit in (("budget", budget), ("every_match", 10**12)):
        keywords_module.SCORING_BUDGET = limit
        hybrid = keyword = 0
        for row in rows:
            found = retriever.hybrid_many([row["question"]], 5)[0]
            hybrid += any(held(hit.chunk.text, row["evidence"]) for hit in found)
            chunks = retriever.indexed_many([row["question"]], 20)[0]
            keyword += any(held(chunk.text, row["evidence"]) for chunk in chunks)
        out[f"{name}_hybrid_r5"] = round(hybrid / max(len(rows), 1), 3)
        out[f"{name}_keyword_r20"] = round(keyword / max(len(rows), 1), 3)
    keywords_module.SCORING_BUDGET = budget
    return out


def keyword_budget_effect(index: KeywordIndex, asked: list[str], pool: int) -> dict[str, float]:
    """What the keyword index's scoring budget changes: the share of questions whose keyword results (ids, in
    order) equal those of the same query with every match scored, the mean overlap of the two result sets, and the
    median time of each."""
    budget = keywords_module.SCORING_BUDGET
    runs: dict[int, tuple[list[list[str]], list[float]]] = {}
    for limit in (budget, 10**12):
        keywords_module.SCORING_BUDGET = limit
        found, ms = [], []
        for q in asked:
            started = time.perf_counter()
            found.append([hit.chunk_id for hit in index.search(q, pool)])
            ms.append((time.perf_counter() - started) * 1000)
        runs[limit] = (found, ms)
    keywords_module.SCORING_BUDGET = budget
    (bounded, bounded_ms), (whole, whole_ms) = runs[budget], runs[10**12]
    pairs = [(a, b) for a, b in zip(bounded, whole, strict=True) if b]
    return {
        "identical": round(sum(a == b for a, b in pairs) / max(len(pairs), 1), 3),
        "overlap": round(statistics.mean(len(set(a) & set(b)) / len(b) for a, b in pairs) if pairs else 1.0, 3),
        "budget_ms_p50": round(statistics.median(bounded_ms), 1),
        "every_match_ms_p50": round(statistics.median(whole_ms), 1),
    }


def drafts(pool: list[str], count: int) -> list[str]:
    """`count` drafts of 10 one-claim sentences from the pool, three with a figure changed (seeded)."""
    rng = random.Random(RECIPE)
    claimable = [s for s in pool if _NUMBER.search(s)]
    made = []
    for _ in range(count):
        sentences: list[str] = []
        while len(sentences) < 10:
            s = rng.choice(claimable)
            if len(sentences) < 3:
                s = _NUMBER.sub(lambda m: str(rng.randint(2, 9999)), s, count=1)
            if len(extract_claims(s, "")) == 1 and s not in sentences:
                sentences.append(s)
        rng.shuffle(sentences)
        made.append(" ".join(sentences))
    return made


_ARTICLE = re.compile(r" (?:the|a|an) ")


def reworded(draft: str) -> str:
    """The draft with one word of every sentence left out (its first article, else its first lower-case word after
    the first), so that no
    claim is a sentence of the documents word for word: the judge then asks its model about every supported quote,
    as it does for a draft written in other words (a Claude draft). The pool's sentences are the documents'
    sentences, so `drafts` alone would measure only the word-for-word case."""
    out = []
    for sentence in _SENTENCE_END.split(draft):
        cut = _ARTICLE.sub(" ", sentence, count=1)
        if cut == sentence:
            words = sentence.split(" ")
            drop = next((i for i, w in enumerate(words[1:-1], 1) if w.isalpha() and w.islower()), None)
            cut = " ".join(words[:drop] + words[drop + 1:]) if drop is not None else sentence
        out.append(cut)
    return " ".join(out)


def time_verify(settings: Settings, workspace: str, embedder: Embedder, texts: list[str]) -> dict[str, Any]:
    """Seconds of Judge.run per draft (a fresh judge, so a fresh embedding cache, each time), and its claims."""
    build_judge(settings, workspace, embedder=embedder).run("What do the documents say?", texts[0])  # warm up
    seconds, claims = [], []
    for text in texts:
        judge = build_judge(settings, workspace, embedder=embedder)
        started = time.perf_counter()
        ledger = judge.run("What do the documents say?", text)
        seconds.append(time.perf_counter() - started)
        claims.append(len(ledger.entries))
    return {"median_s": statistics.median(seconds), "runs_s": [round(s, 2) for s in seconds], "claims": claims}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="corpus sizes in chunks, comma-separated")
    parser.add_argument("--queries", type=int, default=100, help="questions timed per size")
    parser.add_argument("--verifies", type=int, default=3, help="10-claim drafts judged per size")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, help="where the stores are kept")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    parser.add_argument("--budget-recall", default="", metavar="ra,rb",
                        help="also the answer passage's recall with the keyword budget and without it, for the "
                        "retrieval set's questions with these id prefixes (ra: set A, rb: held-out set B); minutes")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    settings = Settings(home=args.cache_dir, database_url=None, chroma_url=None)
    embedder = build_embedder(settings)
    pool = pool_sentences()
    print(f"embedding backend {embedder.fingerprint}; pool of {len(pool)} sentences", flush=True)
    vectors = pool_vectors(embedder, pool, args.cache_dir)
    asked = questions()[: args.queries]
    texts = drafts(pool, args.verifies)
    results = []
    for n in sizes:
        workspace = ensure_store(settings, embedder, n, pool, vectors)
        retrieval = time_retrieval(build_retriever(settings, workspace, embedder=embedder), settings, asked)
        for prefix in filter(None, args.budget_recall.split(",")):
            recall = budget_recall(build_retriever(settings, workspace, embedder=embedder), prefix)
            print(f"{n:>7} chunks, questions {prefix}: answer passage recall with the keyword budget and with every "
                  f"match scored: {recall}", flush=True)
        verify = time_verify(settings, workspace, embedder, texts)
        verify_reworded = time_verify(settings, workspace, embedder, [reworded(t) for t in texts])
        print(f"{n:>7} chunks: retrieval p50 {retrieval['p50']:.1f} ms, p95 {retrieval['p95']:.1f} ms "
              f"(medians of the parts alone, ms: {retrieval['parts']}; p95: {retrieval['parts_p95']}; "
              f"the keyword index's scoring budget against scoring every match: {retrieval['keyword_budget']}); "
              f"verify of 10 claims {verify['median_s']:.2f} s (runs {verify['runs_s']}, claims {verify['claims']}); "
              f"reworded, so that no claim is verbatim: {verify_reworded['median_s']:.2f} s "
              f"(runs {verify_reworded['runs_s']}, claims {verify_reworded['claims']})", flush=True)
        results.append({"chunks": n, "retrieval_p50_ms": round(retrieval["p50"], 1),
                         "retrieval_p95_ms": round(retrieval["p95"], 1),
                         "verify_10_claims_s": round(verify["median_s"], 2),
                         "verify_10_claims_reworded_s": round(verify_reworded["median_s"], 2)})
    if len(results) > 1:
        first, last = results[0], results[-1]
        grow = last["chunks"] / first["chunks"]
        print(f"from {first['chunks']} to {last['chunks']} chunks ({grow:.0f}x): retrieval p95 "
              f"x{last['retrieval_p95_ms'] / first['retrieval_p95_ms']:.2f}, verify "
              f"x{last['verify_10_claims_s'] / first['verify_10_claims_s']:.2f}")
    top = results[-1]
    slowest = max(top["verify_10_claims_s"], top["verify_10_claims_reworded_s"])
    print(f"at {top['chunks']}: retrieval p95 {top['retrieval_p95_ms']} ms (goal <= {GOAL_P95_MS:.0f}): "
          f"{'met' if top['retrieval_p95_ms'] <= GOAL_P95_MS else 'NOT met'}; verify {top['verify_10_claims_s']} s, "
          f"reworded {top['verify_10_claims_reworded_s']} s (goal <= {GOAL_VERIFY_S:.0f}): "
          f"{'met' if slowest <= GOAL_VERIFY_S else 'NOT met'}")
    if args.json:
        print(json.dumps({"sizes": results}))


if __name__ == "__main__":
    main()
