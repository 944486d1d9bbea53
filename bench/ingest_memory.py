"""Peak memory of ingesting ~10k chunks, and how much faster the re-ingest of the unchanged corpus is.

A folder of markdown documents is generated from the sentences of bench/data/retrieval (shuffled, figures
varied, 4-40 chunks per document) until it holds about `--chunks` chunks of the configured size. Then, each in
a new process on a fresh EVIDENCE_HOME, exactly as a user would run it:

1. `evidence ingest CORPUS --json` (the first ingest: parse, chunk, embed, Chroma, registry, keyword index);
2. the same command again (nothing changed: every file must be recognised as unchanged).

Memory is the peak resident set of the ingest's process tree: `peak_rss_mib` is the largest single process
(the kernel's ru_maxrss of the child and the parse worker it waited for, from os.wait4), `peak_tree_rss_mib` the
largest sum over the tree sampled every 0.2 s. Goal: <= 1.5 GiB. Speed-up is the first ingest's wall time over the
re-ingest's (both whole commands, start-up included), goal >= 50; the in-process ratio (the JSON `seconds` each
ingest reports) is printed too.

    python bench/ingest_memory.py [--chunks 10000] [--work DIR] [--json]

The first ingest of 10k chunks takes 10-30 minutes on 2 busy cores: run it under `nice -n 10`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.core.models import load_fast_tokenizer, model_directory  # noqa: E402
from ledger.core.settings import Settings  # noqa: E402

SOURCES = ROOT / "bench" / "data" / "retrieval"
GOAL_RSS_GIB = 1.5
GOAL_SPEEDUP = 50.0
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")


def source_sentences() -> list[str]:
    """Prose sentences of the retrieval set's documents (headings, tables and list markers left out)."""
    found: list[str] = []
    for path in sorted(SOURCES.glob("docs_*/*")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line[0] in "#|-*>" or line[0].isdigit():
                continue
            found.extend(s for s in _SENTENCE_END.split(line) if len(s.split()) >= 6)
    return list(dict.fromkeys(found))


def make_corpus(root: Path, target_chunks: int, seed: int = 11) -> tuple[int, int]:
    """Documents of shuffled source sentences (figures varied) totalling about `target_chunks` chunks of the
    configured size, counted in the model's own word pieces. Returns (files, word pieces)."""
    settings = Settings()
    tokenizer = load_fast_tokenizer(str(model_directory(settings.embedding.model)), 10**9)
    per_chunk = settings.ingest.chunk_size - settings.ingest.chunk_overlap
    pool = source_sentences()
    pieces_of = {s: len(tokenizer.encode(s, add_special_tokens=False).ids) for s in pool}
    rng = random.Random(seed)
    budget = target_chunks * per_chunk
    total, index = 0, 0
    root.mkdir(parents=True, exist_ok=True)
    while total < budget:
        want = min(rng.randint(4, 40) * per_chunk, budget - total)
        paragraphs: list[str] = []
        pieces = 0
        while pieces < want:
            sentences = []
            for _ in range(rng.randint(2, 6)):
                s = rng.choice(pool)
                pieces += pieces_of[s]
                sentences.append(_NUMBER.sub(lambda m: str(rng.randint(2, 9999)), s))
            paragraphs.append(" ".join(sentences))
        (root / f"doc_{index:05}.md").write_text(f"# Generated document {index}\n\n" + "\n\n".join(paragraphs) + "\n")
        total += pieces
        index += 1
    return index, total


def _tree_rss_kib(pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc (0 once it is gone)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/statm") as fh:
                rss[int(entry)] = int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def run_ingest(corpus: Path, home: Path) -> dict[str, Any]:
    """One `evidence ingest CORPUS --json` in a new process: its report, wall time and peak memory."""
    env = dict(os.environ, EVIDENCE_HOME=str(home), HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    for var in ("EVIDENCE_DATABASE_URL", "EVIDENCE_CHROMA_URL", "EVIDENCE_WORKSPACE"):
        env.pop(var, None)
    evidence = Path(sys.executable).parent / "evidence"
    with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
        return _measured(evidence, corpus, env, out_file, err_file)


def _measured(evidence: Path, corpus: Path, env: dict[str, str], out_file: Any, err_file: Any) -> dict[str, Any]:
    started = time.perf_counter()
    proc = subprocess.Popen([str(evidence), "ingest", str(corpus), "--json"], env=env, stdout=out_file,
                            stderr=err_file, text=True)
    peak_tree = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_tree
        while not done.wait(0.2):
            peak_tree = max(peak_tree, _tree_rss_kib(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)  # reaped here, with its rusage (Popen.wait would discard it)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    sampler.join()
    out_file.seek(0)
    err_file.seek(0)
    out, err = out_file.read(), err_file.read()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"evidence ingest failed ({proc.returncode}): {err.strip()[-2000:]}")
    report = json.loads(out.strip().splitlines()[-1])
    return {"report": report, "wall_s": round(seconds, 2), "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
            "peak_tree_rss_mib": round(peak_tree / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=10_000, help="about how many chunks the corpus holds")
    parser.add_argument("--work", type=Path, help="working folder (default: a temporary one, removed after)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="ingest_memory_"))
    try:
        corpus, home = work / "corpus", work / "home"
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
        files, pieces = make_corpus(corpus, args.chunks)
        print(f"corpus: {files} files, {pieces} word pieces (aiming at {args.chunks} chunks); embedding backend "
              f"{Settings().embedding.backend}", flush=True)
        first = run_ingest(corpus, home)
        r = first["report"]
        print(f"first ingest: {r['chunks_added']} chunks from {r['documents_added']} documents, {first['wall_s']} s "
              f"(in-process {r['seconds']} s, {r['chunks_added'] / max(r['seconds'], 1e-9):.1f} chunks/s), "
              f"{len(r['failed'])} failed; peak RSS {first['peak_rss_mib']} MiB (process), "
              f"{first['peak_tree_rss_mib']} MiB (tree, sampled)", flush=True)
        again = run_ingest(corpus, home)
        a = again["report"]
        print(f"re-ingest: {a['documents_unchanged']} unchanged, {a['documents_added']} added, "
              f"{a['documents_updated']} updated, {a['chunks_added']} chunks, {again['wall_s']} s "
              f"(in-process {a['seconds']} s); peak RSS {again['peak_rss_mib']} MiB", flush=True)
        speedup = first["wall_s"] / again["wall_s"]
        inner = r["seconds"] / max(a["seconds"], 1e-9)
        peak = max(first["peak_rss_mib"], first["peak_tree_rss_mib"])
        rss_met = "met" if peak <= GOAL_RSS_GIB * 1024 else "NOT met"
        print(f"peak RSS {peak} MiB (goal <= {GOAL_RSS_GIB * 1024:.0f}): {rss_met}; "
              f"re-ingest {speedup:.1f}x faster, whole commands (goal >= {GOAL_SPEEDUP:.0f}): "
              f"{'met' if speedup >= GOAL_SPEEDUP else 'NOT met'}; {inner:.1f}x in-process")
        if args.json:
            print(json.dumps({
                "chunks": r["chunks_added"], "documents": r["documents_added"], "backend": Settings().embedding.backend,
                "first_ingest_s": first["wall_s"], "first_ingest_inprocess_s": r["seconds"],
                "peak_rss_mib": first["peak_rss_mib"], "peak_tree_rss_mib": first["peak_tree_rss_mib"],
                "reingest_s": again["wall_s"], "reingest_inprocess_s": a["seconds"],
                "reingest_peak_rss_mib": again["peak_rss_mib"],
                "reingest_speedup": round(speedup, 1), "reingest_speedup_inprocess": round(inner, 1),
            }))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
