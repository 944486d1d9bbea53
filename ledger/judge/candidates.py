"""Candidate evidence for a claim: chunks found by meaning or by a distinctive word, ranked by their best sentence.

A one-sentence claim scores low against a whole 200-piece chunk even when the chunk states it word for word,
so chunks are not gated by their own similarity. Each candidate is scored by its sentence most similar to the
claim, and keyword matches (a code, a figure, a name, a rare long word of the claim) join the dense results,
so evidence that states a claim is never missed because the rest of its chunk is about other things.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ledger.core.types import Chunk
from ledger.text.sentences import split_sentences

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'._/-]*[A-Za-z0-9]|[A-Za-z0-9]")
LONG_WORD = 7  # a lower-case word this long is usually a content word, rare enough to search by
MAX_WORDS = 3


def keyword_terms(claim: str, limit: int = MAX_WORDS) -> list[list[str]]:
    """The claim's most distinctive words, each with the spellings a document may use for it.

    Codes and figures ("ISO-9001", "12,500") first, then names (capitalised words; the claim's first word only when
    it is long), then the longest other words. A lower-case word may open a sentence in the document, and a
    claim's first word may sit mid-sentence there, so both casings are searched.
    """
    tokens = _TOKEN.findall(claim)
    coded = [t for t in tokens if any(ch.isdigit() for ch in t) and len(t) >= 2]
    named = [t for i, t in enumerate(tokens) if t[:1].isupper() and len(t) >= (3 if i else LONG_WORD)]
    plain = sorted((t for t in tokens if t.islower() and len(t) >= LONG_WORD), key=len, reverse=True)
    chosen = list(dict.fromkeys(t for t in coded + named + plain))[:limit]
    groups = []
    for word in chosen:
        if word.islower():
            groups.append([word, word.capitalize()])
        elif word[:1].isupper() and word[1:].islower() and word == tokens[0]:
            groups.append([word, word.lower()])
        else:
            groups.append([word])
    return groups


def chunk_sentences(chunk: Chunk) -> list[str]:
    """The sentences of a chunk as the support checker reads them (so their embeddings are shared)."""
    return [s for s, _, _ in split_sentences(chunk.text)] or ([chunk.text.strip()] if chunk.text.strip() else [])


def best_sentence_scores(claim_vector: np.ndarray, sentence_vectors: Sequence[np.ndarray]) -> float:
    """Cosine similarity of the claim and the chunk sentence closest to it (vectors are normalised)."""
    if not len(sentence_vectors):
        return 0.0
    return float(np.max(np.asarray(sentence_vectors) @ claim_vector))


def rank_candidates(
    claim_vector: np.ndarray,
    chunks: Sequence[Chunk],
    vectors: dict[str, np.ndarray],
    min_similarity: float,
    limit: int,
) -> list[tuple[Chunk, float]]:
    """Chunks whose best sentence reaches `min_similarity`, best first, at most `limit`. Pure."""
    scored = []
    for chunk in chunks:
        score = best_sentence_scores(claim_vector, [vectors[s] for s in chunk_sentences(chunk)])
        if score >= min_similarity:
            scored.append((chunk, score))
    scored.sort(key=lambda pair: -pair[1])
    return scored[:limit]
