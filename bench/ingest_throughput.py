"""Ingest throughput of ours vs the fp32 model alone vs LlamaIndex, and our encoder's retrieval quality, in one run.

Three ingests of the same generated corpus with the same model (all-MiniLM-L6-v2, 200-piece chunks, batch 32):
- ours: the product's ingest (load, chunk, embed with the configured backend, Chroma, registry);
- raw fp32: `SentenceTransformer.encode` of our chunk texts, nothing else (the fp32 ceiling);
- LlamaIndex: SimpleDirectoryReader + IngestionPipeline(SentenceSplitter, HuggingFaceEmbedding) into a
  ChromaVectorStore (needs `pip install -e ".[bench]"`; without the HuggingFace integration the same
  SentenceTransformer is wrapped in a BaseEmbedding, and the output says so).

Throughput is chunks of the corpus (as ours cuts it) per second of each ingest: LlamaIndex's splitter counts the
metadata into its chunk budget and cuts more, smaller nodes from the same text, so its own node rate is printed
too but not compared. Ours ingests the whole corpus; the two baselines ingest the first `--baseline-share` of its
files (default a quarter: same generator, same distribution of chunks) and their rates are chunks/s of that part,
so that `--chunks 1500` finishes in under 10 minutes on a busy 2-core machine (`--baseline-share 1`: every file).
Then recall@5 of fp32 and of our backend on bench/data/retrieval (see `recall_at_k`), and the cosine agreement
of their vectors. Ratios come from one run: on a shared CPU only they mean something.
Goal: ours ≥ 2× LlamaIndex with recall@5 within 1 point of fp32.

    python bench/ingest_throughput.py [--chunks 1500] [--backend torch|onnx-int8] [--baseline-share 0.25] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import sys
import tempfile
import time
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.chunking import chunk_document  # noqa: E402
from ingest.embedding import Embedder  # noqa: E402
from ingest.loaders import load_file  # noqa: E402
from ingest.tables import render_tables  # noqa: E402
from ledger.core.models import model_directory  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.core.types import Chunk  # noqa: E402
from ledger.loop.factory import build_ingestor  # noqa: E402

RETRIEVAL = Path(__file__).resolve().parent / "data" / "retrieval"
K = 5
WORDS = (
    "policy", "approval", "invoice", "vendor", "retention", "quarterly", "revenue", "headcount", "security",
    "incident", "report", "employee", "manager", "budget", "travel", "expense", "reimbursement", "contract",
    "renewal", "audit", "compliance", "deadline", "threshold", "review", "customer", "refund", "escalation",
    "procedure", "training", "record", "access", "password", "region", "office", "department",
)


def make_corpus(root: Path, target_chunks: int, seed: int = 7) -> None:
    """Markdown files of generated prose, about 12 chunks of ~200 word pieces each."""
    rng = random.Random(seed)
    for f in range(max(1, round(target_chunks / 12))):
        paragraphs = []
        for _ in range(25):
            sentences = []
            for _ in range(3):
                words = rng.choices(WORDS, k=rng.randint(10, 18))
                sentences.append(
                    f"{' '.join(words).capitalize()} within {rng.randint(1, 90)} days for ${rng.randint(10, 9999)}."
                )
            paragraphs.append(" ".join(sentences))
        (root / f"doc_{f:04}.md").write_text(
            f"# Document {f}\n\nEffective date: 2026-01-{f % 28 + 1:02}\n\n" + "\n\n".join(paragraphs)
        )


# --- retrieval quality -------------------------------------------------------------------------------------------


def retrieval_set(embedder: Embedder, settings: Settings) -> tuple[list[Chunk], list[dict[str, Any]]]:
    """The chunks of docs_a and docs_b, cut as ingest cuts them, and the answerable questions of both sets."""
    chunks: list[Chunk] = []
    for folder in ("docs_a", "docs_b"):
        for path in sorted((RETRIEVAL / folder).iterdir()):
            doc = load_file(path)
            text, rows = render_tables(doc.text)
            doc = doc.model_copy(update={"text": text, "table_rows": rows})
            chunks += chunk_document(
                doc, f"{folder}/{path.name}", embedder.tokenizer, settings.ingest.chunk_size,
                settings.ingest.chunk_overlap,
            )
    questions = []
    for name in ("questions_a.jsonl", "questions_b.jsonl"):
        for line in (RETRIEVAL / name).read_text().splitlines():
            item = json.loads(line)
            if item.get("answerable"):
                questions.append(item)
    return chunks, questions


def _squeeze(text: str) -> str:
    return " ".join(text.split()).lower()


def holds(chunk_text: str, passage: str) -> bool:
    """Whether a chunk holds an evidence passage: all of it (whitespace and case aside), every cell of a table row
    (ingest renders rows as sentences), or, where the chunker cut the passage in two, half its characters in one
    piece."""
    chunk, wanted = _squeeze(chunk_text), _squeeze(passage)
    if wanted in chunk:
        return True
    if wanted.startswith("|"):
        return all(cell.strip() in chunk for cell in wanted.strip("|").split("|"))
    match = SequenceMatcher(None, chunk, wanted, autojunk=False).find_longest_match(0, len(chunk), 0, len(wanted))
    return match.size >= 0.5 * len(wanted)


def passages(question: dict[str, Any]) -> list[str]:
    """The evidence passages a question needs (a multi-part question has two)."""
    return [question[key] for key in ("evidence", "evidence_2") if question.get(key)]


def gold_sets(chunks: list[Chunk], questions: list[dict[str, Any]]) -> list[list[set[int]]]:
    """For each question and each of its passages, the chunks of the question's document that hold it."""
    return [
        [{i for i, c in enumerate(chunks) if c.document_id == q["document"] and holds(c.text, p)} for p in passages(q)]
        for q in questions
    ]


def hits_at_k(
    chunk_vectors: np.ndarray, question_vectors: np.ndarray, gold: list[list[set[int]]], k: int
) -> list[bool]:
    """Per question: a hit when every passage it needs is held by one of its k nearest chunks (exact cosine)."""
    top = np.argsort(-(question_vectors @ chunk_vectors.T), axis=1)[:, :k]
    return [all(set(map(int, row)) & needed for needed in parts) for row, parts in zip(top, gold, strict=True)]


def recall_at_k(hits: list[bool], gold: list[list[set[int]]]) -> float:
    """Hits over the questions whose passages some chunk holds (the others no encoder can find)."""
    reachable = [h for h, parts in zip(hits, gold, strict=True) if all(parts)]
    return round(sum(reachable) / max(1, len(reachable)), 4)


def agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Mean and minimum cosine between matching rows of two normalised matrices."""
    cos = (a * b).sum(axis=1)
    return {"mean": round(float(cos.mean()), 4), "min": round(float(cos.min()), 4)}


# --- the three ingests -------------------------------------------------------------------------------------------


def llamaindex_ingest(corpus: Path, model_dir: str, settings: Settings, work: Path) -> tuple[float, int, str]:
    """Seconds and nodes of LlamaIndex's IngestionPipeline into a ChromaVectorStore, and which embedding ran."""
    import chromadb
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.ingestion import IngestionPipeline
    from llama_index.core.node_parser import SentenceSplitter
    from tokenizers import Tokenizer as RustTokenizer

    try:
        from llama_index.vector_stores.chroma import ChromaVectorStore
    except ImportError as exc:
        raise SystemExit("LlamaIndex's Chroma store is missing: pip install -e '.[bench]'") from exc
    batch = settings.embedding.batch_size
    embed: Any
    try:
        from llama_index.embeddings.huggingface import HuggingFaceEmbedding

        embed, how = HuggingFaceEmbedding(model_name=model_dir, device="cpu", embed_batch_size=batch), "huggingface"
    except ImportError:
        embed, how = _wrapped_embedding(model_dir, batch), "sentence-transformers wrapped in BaseEmbedding"
    # Same word-piece counting as ours, through the Rust tokenizer (the Python one is slower per call).
    fast = RustTokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    fast.no_truncation()
    fast.no_padding()
    splitter = SentenceSplitter(
        chunk_size=settings.ingest.chunk_size, chunk_overlap=settings.ingest.chunk_overlap,
        tokenizer=lambda text: fast.encode(text, add_special_tokens=False).ids,
    )
    client = chromadb.PersistentClient(path=str(work / "llamaindex-chroma"))
    collection = client.get_or_create_collection("bench", configuration={"hnsw": {"space": "cosine"}})
    pipeline = IngestionPipeline(transformations=[splitter, embed], vector_store=ChromaVectorStore(collection))
    embed.get_text_embedding_batch(["warm up the model"])
    started = time.perf_counter()
    nodes = pipeline.run(documents=SimpleDirectoryReader(str(corpus)).load_data())
    seconds = time.perf_counter() - started
    assert collection.count() == len(nodes)
    return seconds, len(nodes), how


def _wrapped_embedding(model_dir: str, batch: int) -> Any:
    """The same SentenceTransformer as a llama-index BaseEmbedding (when the HuggingFace integration is missing)."""
    from llama_index.core.embeddings import BaseEmbedding
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_dir, device="cpu")

    class Wrapped(BaseEmbedding):
        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return model.encode(texts, batch_size=batch, normalize_embeddings=True).tolist()  # type: ignore[no-any-return]

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._get_text_embeddings([text])[0]

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._get_text_embedding(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_text_embedding(query)

    return Wrapped(embed_batch_size=batch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=1500, help="approximate number of chunks to generate")
    parser.add_argument("--backend", choices=["torch", "onnx-int8"], help="our embedding backend (default: setting)")
    parser.add_argument(
        "--baseline-share", type=float, default=0.25,
        help="share of the corpus's files the fp32 and LlamaIndex baselines ingest (default 0.25; 1: all of them)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args()
    if not 0 < args.baseline_share <= 1:
        parser.error("--baseline-share must be above 0 and at most 1")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")

    def say(message: str) -> None:
        print(f"[{time.perf_counter() - began:6.1f} s] {message}", flush=True)

    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        corpus.mkdir()
        make_corpus(corpus, args.chunks)
        base = Settings(home=root / "home")
        ours_settings = base.embedding.model_copy(update={"backend": args.backend or base.embedding.backend})
        settings = base.model_copy(update={"embedding": ours_settings})
        fp32 = Embedder(ours_settings.model_copy(update={"backend": "torch"}))
        ours = Embedder(ours_settings)
        started = time.perf_counter()
        ours.encode(["warm up the model and its tokenizer"])  # an onnx export, if the cache has none, happens here
        warm_s = time.perf_counter() - started
        fp32.encode(["warm up the model"])
        ours.tokenizer.encode("warm up")
        say(f"models ready; ours is {ours.fingerprint} (its first load took {warm_s:.1f} s)")

        started = time.perf_counter()
        report = build_ingestor(settings, embedder=ours).run([corpus])
        ours_s = time.perf_counter() - started
        stored = build_ingestor(settings, embedder=ours).store.all_chunks()
        texts = [c.text for c in stored]
        assert report.chunks_added == len(texts) and not report.failed, report
        say(f"ours: {len(texts)} chunks in {ours_s:.1f} s")

        # The baselines' part of the corpus: its first files, and the chunks ours cut from them.
        files = sorted(corpus.iterdir())
        part = files[: max(1, min(len(files), round(len(files) * args.baseline_share)))]
        baseline_corpus = root / "baseline_corpus"
        baseline_corpus.mkdir()
        for path in part:
            shutil.copy2(path, baseline_corpus / path.name)
        names = {path.name for path in part}
        base_texts = [c.text for c in stored if Path(c.path).name in names]
        say(f"baselines ingest {len(part)} of {len(files)} files: {len(base_texts)} of the {len(texts)} chunks")

        started = time.perf_counter()
        fp32.model.encode(base_texts, batch_size=ours_settings.batch_size, normalize_embeddings=True)
        raw_s = time.perf_counter() - started
        say(f"raw fp32 encode: {raw_s:.1f} s")

        model_dir = str(model_directory(ours_settings.model))
        llama_s, llama_nodes, how = llamaindex_ingest(baseline_corpus, model_dir, settings, root)
        say(f"LlamaIndex ({how}): {llama_nodes} nodes in {llama_s:.1f} s")

        chunks, questions = retrieval_set(ours, settings)
        gold = gold_sets(chunks, questions)
        chunk_texts, question_texts = [c.text for c in chunks], [q["question"] for q in questions]
        vectors = {"fp32": (fp32.encode(chunk_texts), fp32.encode(question_texts))}
        # The torch backend is the fp32 model itself: its vectors are fp32's, not computed twice.
        same = ours.fingerprint == fp32.fingerprint
        vectors["ours"] = vectors["fp32"] if same else (ours.encode(chunk_texts), ours.encode(question_texts))
        hits = {name: hits_at_k(c, q, gold, K) for name, (c, q) in vectors.items()}
        say(f"retrieval set: {len(chunks)} chunks, {len(questions)} answerable questions, "
            f"{sum(all(p) for p in gold)} with their passages in some chunk")

    ours_rate, raw_rate, llama_rate = len(texts) / ours_s, len(base_texts) / raw_s, len(base_texts) / llama_s
    figures = {
        "chunks": len(texts),
        "ours_chunks_per_s": round(ours_rate, 2),
        "raw_fp32_chunks_per_s": round(raw_rate, 2),  # on the baselines' part: our chunk count of it, its time
        "llamaindex_chunks_per_s": round(llama_rate, 2),
        "vs_llamaindex": round(ours_rate / llama_rate, 3),
        "recall_at_5_fp32": recall_at_k(hits["fp32"], gold),
        "recall_at_5_ours": recall_at_k(hits["ours"], gold),
        "baseline_chunks": len(base_texts),
    }
    only_fp32 = sum(a and not b for a, b in zip(hits["fp32"], hits["ours"], strict=True))
    only_ours = sum(b and not a for a, b in zip(hits["fp32"], hits["ours"], strict=True))
    print(f"backend {ours.fingerprint}; batch size {ours_settings.batch_size}; LlamaIndex embedding: {how}")
    print(f"ours        {figures['ours_chunks_per_s']:8.2f} chunks/s  ({len(texts)} chunks, {ours_s:.1f} s)")
    print(f"raw fp32    {figures['raw_fp32_chunks_per_s']:8.2f} chunks/s  ({len(base_texts)} chunks, {raw_s:.1f} s)")
    print(f"LlamaIndex  {figures['llamaindex_chunks_per_s']:8.2f} chunks/s  ({llama_s:.1f} s for the same "
          f"{len(part)} files; it cut {llama_nodes} nodes, {llama_nodes / llama_s:.2f} nodes/s)")
    print(f"ours / LlamaIndex {figures['vs_llamaindex']:.3f} (goal >= 2); ours / raw fp32 "
          f"{figures['ours_chunks_per_s'] / figures['raw_fp32_chunks_per_s']:.3f}")
    print(f"recall@{K}: fp32 {figures['recall_at_5_fp32']:.4f}, ours {figures['recall_at_5_ours']:.4f} "
          f"(goal: within 0.01); found by fp32 only {only_fp32}, by ours only {only_ours}")
    print(f"cosine fp32 vs ours: chunks {agreement(vectors['fp32'][0], vectors['ours'][0])}, "
          f"questions {agreement(vectors['fp32'][1], vectors['ours'][1])}")
    print(f"total {time.perf_counter() - began:.1f} s")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
