"""Ingest throughput against the embedding model alone, measured in one run.

Generates a corpus, ingests it into a fresh home (load, chunk, embed, Chroma, registry), then times
plain `SentenceTransformer.encode` over the same chunk texts with the same batch size. The goal is a
ratio pipeline/raw ≥ 0.85: the pipeline adds at most 15% over the embedding itself.

    python bench/ingest_throughput.py [--chunks 3000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.embedding import Embedder  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402
from ledger.loop.factory import build_ingestor  # noqa: E402

WORDS = [
    "policy",
    "approval",
    "invoice",
    "vendor",
    "retention",
    "quarterly",
    "revenue",
    "headcount",
    "security",
    "incident",
    "report",
    "employee",
    "manager",
    "budget",
    "travel",
    "expense",
    "reimbursement",
    "contract",
    "renewal",
    "audit",
    "compliance",
    "deadline",
    "threshold",
    "review",
    "customer",
    "refund",
    "escalation",
    "procedure",
    "training",
    "record",
    "access",
    "password",
    "region",
    "office",
    "department",
]


def make_corpus(root: Path, target_chunks: int, seed: int = 7) -> None:
    """Files of policy-like prose, about 12 chunks of ~200 word pieces each."""
    rng = random.Random(seed)
    n_files = max(1, target_chunks // 12)
    for f in range(n_files):
        paragraphs = []
        for _ in range(40):
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=3000, help="approximate number of chunks to generate")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        corpus.mkdir()
        make_corpus(corpus, args.chunks)
        settings = Settings(home=root / "home")
        embedder = Embedder(settings.embedding)
        embedder.encode(["warm up the model and its tokenizer"])
        embedder.tokenizer.encode("warm up")

        ingestor = build_ingestor(settings, embedder=embedder)
        started = time.perf_counter()
        report = ingestor.run([corpus])
        pipeline_s = time.perf_counter() - started
        texts = [c.text for c in ingestor.store.all_chunks()]
        assert report.chunks_added == len(texts) and not report.failed

        started = time.perf_counter()
        embedder.model.encode(texts, batch_size=settings.embedding.batch_size, normalize_embeddings=True)
        raw_s = time.perf_counter() - started

    figures = {
        "chunks": len(texts),
        "pipeline_seconds": round(pipeline_s, 2),
        "raw_encode_seconds": round(raw_s, 2),
        "pipeline_chunks_per_s": round(len(texts) / pipeline_s, 2),
        "raw_encode_chunks_per_s": round(len(texts) / raw_s, 2),
        "ratio": round(raw_s / pipeline_s, 3),
    }
    print(f"{figures['chunks']} chunks, batch size {settings.embedding.batch_size}")
    print(f"pipeline   {figures['pipeline_seconds']:8.2f} s  {figures['pipeline_chunks_per_s']:7.2f} chunks/s")
    print(f"raw encode {figures['raw_encode_seconds']:8.2f} s  {figures['raw_encode_chunks_per_s']:7.2f} chunks/s")
    print(f"ratio      {figures['ratio']:8.3f}  (goal >= 0.85)")
    if args.json:
        print(json.dumps({k: figures[k] for k in ("pipeline_chunks_per_s", "raw_encode_chunks_per_s", "ratio")}))


if __name__ == "__main__":
    main()
