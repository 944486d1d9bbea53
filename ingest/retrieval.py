"""Retrieval over a workspace: the question's evidence for the writer, candidate chunks for the judge.

Hybrid: the dense neighbours of a question (Chroma) and its keyword matches (the database's full-text index,
`ledger.storage.keywords`) are fused by their scores (`fuse`; a keyword match counts by the share of the
question's words it has), so a paraphrase and an exact figure or code both rank. Every result carries its dense
similarity, which the relevance bar reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ingest.embedding import Embedder
from ingest.vectorstore import ScoredChunk, VectorStore
from ledger.core.types import Chunk
from ledger.storage.keywords import KeywordHit, KeywordIndex

DENSE_WEIGHT = 0.7  # the dense similarity's share of a fused score; the keyword score has the rest
MIN_POOL = 20  # each ranking contributes at least this many candidates to the fusion
SENTENCE_FLOOR = 0.15  # a chunk under the relevance bar but at least this similar is read sentence by sentence
KEYWORD_FLOOR = 0.5  # ... and so is one that contains at least this share of the question's words, however dissimilar
READ_CHUNKS = 3  # ... the best-ranked few of them only: each sentence read is a pass of the encoder
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'._/-]*[A-Za-z0-9]")


def named_terms(question: str) -> list[str]:
    """The codes and names a question asks about ("HK-15", "EC1", "2023.201", "LUMEN-2", "Tidewright").

    A code has a digit and a letter or a separator; a name is a capitalised word that does not open the question.
    A chunk that contains one is relevant evidence even when its dense similarity is low: a whole chunk about a
    form scores little against "What is form EC1 for?", although it is the answer.
    """
    tokens = _TOKEN.findall(question)
    codes = [t for t in tokens if any(c.isdigit() for c in t) and (not t.isdigit() or "." in t)]
    names = [t for i, t in enumerate(tokens) if i and t[:1].isupper() and len(t) >= 3]
    return list(dict.fromkeys(codes + names))


def mentions(text: str, terms: Sequence[str]) -> bool:
    """Whether a text contains one of the terms as a whole word (codes in any case, names as written)."""
    for term in terms:
        flags = re.IGNORECASE if any(c.isdigit() for c in term) else 0
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, flags):
            return True
    return False


_DOTTED = re.compile(r"\d{1,3}(?:\.\d{1,3}){2,}")


# one of a series named by a word and a letter or a short number: "Service B", "Room A", "Zone 3"
DESIGNATION = re.compile(r"([A-Z][a-z]{2,}) ([A-Z]|\d{1,3})")


def code_shape(code: str) -> re.Pattern[str]:
    """Codes shaped like this one: "CFF25-038" → CFF\\d\\d-\\d\\d\\d, so "CFF25-001" is its sibling. Only codes with
    letters have siblings: "4.0" is shaped like every decimal number; a number of three or more short parts is a
    version or section number ("3.4.1"), and so are those with as many parts ("3.10.0"); the siblings of a series'
    member are its other letters or numbers ("Service A" of "Service B")."""
    if (member := DESIGNATION.fullmatch(code)) is not None:
        mark = r"[A-Z]" if member.group(2).isalpha() else r"\d{1,3}"
        return re.compile(rf"(?<![\w-]){member.group(1)} {mark}(?![\w-]|[.,]\d)")
    if _DOTTED.fullmatch(code):
        parts = r"\.".join([r"\d{1,3}"] * (code.count(".") + 1))
        return re.compile(rf"(?<![\w.-]){parts}(?![\w-]|\.\d)")
    if not any(c.isalpha() for c in code):
        return re.compile(r"(?!)")
    shape = "".join(r"\d" if c.isdigit() else re.escape(c) for c in code)
    return re.compile(rf"(?<![\w-]){shape}(?![\w-])", re.IGNORECASE)


def fuse(
    similarity: Mapping[str, float], keyword: Mapping[str, float], dense_weight: float = DENSE_WEIGHT,
    matched: Mapping[str, float] | None = None,
) -> list[str]:
    """Candidate ids, best first, by a weighted sum of their dense similarity and their keyword score. Pure.

    `similarity` is every candidate's cosine similarity to the question; `keyword` is the keyword score of those
    the keyword index found, taken as a share of the best one (0 for the others). Scores, not ranks, are fused:
    reciprocal rank fusion let chunks that both searches rank middling outrank the one a search ranks first by
    far. The cosine is used as it is: rescaling it over the candidates made noise of near-equal similarities
    decide. On the retrieval set tuned on (bench/retrieval_quality.py, set A), against reciprocal rank fusion:
    recall@5 0.935 -> 0.949, MRR 0.748 -> 0.815; the weight 0.7 was chosen there among 0.3-0.8.

    `matched` (the share of the question's words each keyword hit contains) scales its keyword score: BM25 as a share
    of the best one gives the best hit full weight even when it shares one common word with the question, and such
    hits pushed the passage dense search had ranked third below the fifth place. Set A: recall@5 0.944 -> 0.953.
    """
    best = max((s for s in keyword.values() if s > 0), default=0.0)

    def score(key: str) -> float:
        words = max(keyword.get(key, 0.0), 0.0) / best if best > 0 else 0.0
        words *= matched.get(key, 1.0) if matched is not None else 1.0
        return dense_weight * similarity[key] + (1 - dense_weight) * words

    return sorted(similarity, key=lambda key: (-score(key), key))


class Retriever:
    """Embeds queries (in one batch) and searches the workspace: dense, keyword, or both fused."""

    def __init__(
        self, store: VectorStore, embedder: Embedder, keywords: KeywordIndex | None = None,
        sentences: Callable[[str, Chunk], Sequence[str]] | None = None,
        keyword_text: Callable[[str], str] | None = None,
        phrases: Callable[[str, Chunk], int] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.keywords = keywords
        self.sentences = sentences  # the sentences of a chunk worth reading for a question (see `retrieve`)
        self.phrases = phrases  # how many of a question's word pairs a chunk has side by side (see `retrieve`)
        # what of a question the keyword index searches: without "how long" and the like, which no passage repeats
        self.keyword_text = keyword_text or (lambda text: text)

    def hybrid_many(self, texts: list[str], k: int) -> list[list[ScoredChunk]]:
        """The k best chunks of each text by fused dense and keyword rank (dense only without a keyword index)."""
        return self._hybrid(texts, k)[1] if texts else []

    def _hybrid(
        self, texts: list[str], k: int
    ) -> tuple[np.ndarray, list[list[ScoredChunk]], list[dict[str, float]]]:
        """`hybrid_many`, with the texts' vectors and, for each text, the share of its words each keyword hit
        contains (by chunk hash; empty without a keyword index)."""
        pool = max(2 * k, MIN_POOL)
        keywords = self.keywords
        if keywords is None:
            vectors = self.embedder.encode(texts)
            return vectors, [hits[:k] for hits in self.store.search_batch(list(vectors), pool)], [{} for _ in texts]
        vectors, nearest, by_keyword = self._dense_beside_keywords(keywords, texts, pool, pool, shares=True)
        found: list[list[ScoredChunk]] = []
        shared: list[dict[str, float]] = []
        for vector, dense, keyword in zip(vectors, nearest, by_keyword, strict=True):
            by_hash = {hit.chunk.hash: hit for hit in dense}
            missing = [hit.chunk_id for hit in keyword if hit.chunk_hash not in by_hash]
            if missing:  # keyword-only hits get their dense similarity too
                by_hash.update((hit.chunk.hash, hit) for hit in self._scored(vector, missing))
            bm25 = {hit.chunk_hash: hit.score for hit in keyword if hit.chunk_hash in by_hash}
            shares = {hit.chunk_hash: hit.matched for hit in keyword}
            order = fuse({h: hit.similarity for h, hit in by_hash.items()}, bm25, matched=shares)
            found.append([by_hash[h] for h in order][:k])
            shared.append(shares)
        return vectors, found, shared

    def _scored(self, vector: np.ndarray, ids: list[str]) -> list[ScoredChunk]:
        """These chunks (by vector id) with their cosine similarity to `vector`. Fetched by id: a nearest-neighbour
        query filtered by hash scans every vector's metadata (30 ms at 10k chunks, growing with the store)."""
        chunks, stored = self.store.chunks_with_embeddings(ids)
        if not chunks:
            return []
        norms = np.linalg.norm(stored, axis=1) * max(float(np.linalg.norm(vector)), 1e-12)
        similarity = stored @ np.asarray(vector, dtype=np.float32) / np.clip(norms, 1e-12, None)
        return [ScoredChunk(chunk, float(sim)) for chunk, sim in zip(chunks, similarity, strict=True)]

    def search_many(self, texts: list[str], k: int) -> list[list[ScoredChunk]]:
        """The k nearest chunks of each text, most similar first; all texts embedded in one call."""
        if not texts:
            return []
        return self.store.search_batch(list(self.embedder.encode(texts)), k)

    def keyword_many(self, texts: list[str], words: list[list[list[str]]], k: int) -> list[list[ScoredChunk]]:
        """For each text, up to k chunks containing its words: those with all of them first, then any of them,
        each group nearest first. `words[i]` lists the words of text i, each as its possible spellings."""
        if not texts:
            return []
        found: list[list[ScoredChunk]] = []
        for vector, own in zip(self.embedder.encode(texts), words, strict=True):
            if not own:
                found.append([])
                continue
            hits = self.store.search(vector, k, words=own, match_all=True) if len(own) > 1 else []
            hits += self.store.search(vector, k, words=own)
            found.append(list({h.chunk.hash: h for h in hits}.values())[:k])
        return found

    def indexed_many(self, texts: list[str], k: int) -> list[list[Chunk]]:
        """For each text, the k chunks the keyword index ranks best for its words (BM25 / ts_rank), best first."""
        return self._indexed_chunks([self.keywords.search(text, k) if self.keywords is not None else []
                                     for text in texts])

    def _indexed_chunks(self, found: list[list[KeywordHit]]) -> list[list[Chunk]]:
        chunks = self.store.chunks_by_ids(list(dict.fromkeys(hit.chunk_id for hits in found for hit in hits)))
        return [[chunks[hit.chunk_id] for hit in hits if hit.chunk_id in chunks] for hits in found]

    def nearest_and_indexed(
        self, texts: list[str], k: int, keyword_k: int
    ) -> tuple[list[list[ScoredChunk]], list[list[Chunk]]]:
        """`search_many(texts, k)` and `indexed_many(texts, keyword_k)` at once: the keyword index is read on a second
        core while the texts are embedded and searched (the judge's candidate search; at 100k chunks the keyword
        searches of ten claims took about half a second after the dense ones)."""
        keywords = self.keywords
        if keywords is None or not texts:
            return self.search_many(texts, k), [[] for _ in texts]
        _, nearest, found = self._dense_beside_keywords(keywords, texts, k, keyword_k)
        return nearest, self._indexed_chunks(found)

    def _dense_beside_keywords(
        self, keywords: KeywordIndex, texts: list[str], k: int, keyword_k: int, shares: bool = False
    ) -> tuple[np.ndarray, list[list[ScoredChunk]], list[list[KeywordHit]]]:
        """(vectors, the k nearest chunks, the keyword_k keyword hits) of each text. The keyword search needs no
        vector: it runs on a second core while the texts are embedded and searched."""
        with ThreadPoolExecutor(max_workers=1) as worker:
            matched = worker.submit(lambda: [keywords.search(self.keyword_text(text), keyword_k, shares)
                                             for text in texts])
            vectors = self.embedder.encode(texts)
            nearest = self.store.search_batch(list(vectors), k)
            return vectors, nearest, matched.result()

    def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
        """Chunks relevant to a question: the k best by hybrid rank that clear the relevance bar, contain a code or
        name the question asks about, or have a sentence that clears the bar.

        A short question scores low against a whole chunk that covers several things ("How much is a return
        ticket?" against a page of timetable, fares and cancellations: 0.23), so a chunk under the bar is read
        sentence by sentence (those `sentences` picks, each embedded) and kept, with its best sentence's
        similarity, when one clears it: the `READ_CHUNKS` best-ranked such chunks that are at least `SENTENCE_FLOOR`
        similar or contain at least `KEYWORD_FLOOR` of the question's words (others are about something else). A
        long guide of many topics scores 0.11 against "How deep is the deep end?" though one of its sentences,
        0.61, answers it: the words it shares with the question are why it is read. Of those, chunks that have
        more of the question's word pairs side by side (`phrases`: "period of cover" for "When does the period of
        cover end?", where three chunks of a grant letter share "period" and "end" apart) are read first.
        """
        terms = named_terms(question)
        vectors, found, shared = self._hybrid([question], k)
        hits, shares = found[0], shared[0]
        kept = {hit.chunk.hash: hit for hit in hits
                if hit.similarity >= min_relevance or mentions(hit.chunk.text, terms)}
        below = [hit for hit in hits if hit.chunk.hash not in kept
                 and (hit.similarity >= SENTENCE_FLOOR or shares.get(hit.chunk.hash, 0.0) >= KEYWORD_FLOOR)]
        if self.phrases is not None:  # a stable sort: the hybrid rank among chunks with as many pairs
            below.sort(key=lambda hit: -self.phrases(question, hit.chunk))  # type: ignore[misc]
        below = below[:READ_CHUNKS]
        for hit, best in zip(below, self._best_sentences(question, vectors[0], [hit.chunk for hit in below]),
                             strict=True):
            if best >= min_relevance:
                kept[hit.chunk.hash] = ScoredChunk(hit.chunk, best)
        return [kept[hit.chunk.hash] for hit in hits if hit.chunk.hash in kept]

    def _best_sentences(self, question: str, vector: np.ndarray, chunks: list[Chunk]) -> list[float]:
        """The similarity to the question (`vector`, already embedded) of each chunk's sentence closest to it (0
        without a sentence picker or a sentence to read)."""
        if self.sentences is None or not chunks:
            return [0.0 for _ in chunks]
        read = [list(self.sentences(question, chunk)) for chunk in chunks]
        flat = [s for sentences in read for s in sentences]
        vectors = self.embedder.encode(flat) if flat else np.zeros((0, len(vector)), dtype=np.float32)
        scores, start = [], 0
        for sentences in read:
            own = vectors[start:start + len(sentences)]
            start += len(sentences)
            scores.append(float(np.max(own @ vector)) if len(own) else 0.0)
        return scores
