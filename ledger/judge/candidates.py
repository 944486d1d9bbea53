"""Candidate evidence for a claim: chunks found by meaning or by a distinctive word, ranked by their best sentence.

A one-sentence claim scores low against a whole 200-piece chunk even when the chunk states it word for word,
so chunks are not gated by their own similarity. Each candidate is scored by its sentence most similar to the
claim, and keyword matches (a code, a figure, a name, a rare long word of the claim) join the dense results,
so evidence that states a claim is never missed because the rest of its chunk is about other things.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache

import numpy as np

from ledger.core.types import Chunk
from ledger.judge.claims import content_stems
from ledger.text.lexicon import lexicon
from ledger.text.sentences import label_lines, split_sentences
from ledger.text.terms import STOPWORDS, stem

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'._/-]*[A-Za-z0-9]|[A-Za-z0-9]")
LONG_WORD = 7  # a lower-case word this long is usually a content word, rare enough to search by
MAX_WORDS = 3
LIKELY_SENTENCES = 2  # sentences of a chunk embedded per claim (with their neighbours and headings)
_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")


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


@lru_cache(maxsize=4096)
def text_sentences(text: str) -> tuple[str, ...]:
    """The sentences of a chunk's text as the support checker reads them (so their embeddings are shared); cached:
    each chunk is read once per claim it may support."""
    return tuple(s for s, _, _ in label_lines(split_sentences(text))) or ((text.strip(),) if text.strip() else ())


def chunk_sentences(chunk: Chunk) -> list[str]:
    """The sentences of a chunk as the support checker reads them (so their embeddings are shared)."""
    return list(text_sentences(chunk.text))


@cache
def _number_words() -> dict[str, str]:
    """Numbers written as words, as figures ("twelve" -> "12"), from the lexicon's number words."""
    words = lexicon()
    units, tens = words.words("numbers", "units")[:20], words.words("numbers", "tens")[:8]  # zero..19, 20..90
    return {w: str(i) for i, w in enumerate(units)} | {w: str(20 + 10 * i) for i, w in enumerate(tens)}


@lru_cache(maxsize=65_536)
def _words(text: str) -> tuple[str, ...]:
    """A text's words as compared for overlap: stems, figures without separators, number words as figures."""
    numbers = _number_words()
    out = []
    for token in _WORD.findall(text.lower()):
        if token[:1].isdigit():
            out.append(token.replace(",", ""))
        else:
            out.append(numbers.get(token) or stem(token))
    return tuple(out)


PREFIX = 6  # words sharing this many first letters are mostly one word's forms ("pregnancy", "pregnant")


def _bag(text: str) -> frozenset[str | tuple[str, str]]:
    """Words (a long one by its first letters: a stem does not join "pregnancy" and "pregnant") and neighbouring word
    pairs of a text."""
    words = [f"{w[:PREFIX]}…" if len(w) > PREFIX and w.isalpha() else w for w in _words(text)]
    return frozenset([*words, *zip(words, words[1:], strict=False)])


def likely_sentences(
    claim: str,
    sentences: Sequence[str],
    keep: int | None = LIKELY_SENTENCES,
    is_heading: Callable[[str], bool] | None = None,
) -> list[str]:
    """The `keep` sentences sharing most with the claim, with their neighbours and the nearest heading above them
    (`is_heading`), in document order; all of them when `keep` is None. Pure.

    Embedding a sentence costs a pass of the encoder, so the judge embeds only these. A sentence scores the words
    and word pairs it shares with the claim, each weighted by how rare it is among the chunk's sentences (a word
    every sentence has tells nothing). Ties go to the earlier sentence: the choice depends on the claim and the
    chunk alone, never on what else a run judges. Neighbours and headings are kept because a quote may be a
    sentence with the one before it, or with the heading it stands under.
    """
    if keep is None or len(sentences) <= keep:
        return list(sentences)
    wanted = _bag(claim)
    bags = [_bag(s) & wanted for s in sentences]
    counts = Counter(item for bag in bags for item in bag)
    weight = {item: math.log((len(sentences) + 1) / n) for item, n in counts.items()}
    shared = [sum(weight[item] for item in bag) for bag in bags]
    best = sorted(range(len(sentences)), key=lambda i: -shared[i])[:keep]
    chosen = set(best)
    if is_heading is not None:
        headings = [i for i, s in enumerate(sentences) if is_heading(s)]
        for i in best:
            chosen.update(j for j in (i - 1, i + 1) if 0 <= j < len(sentences))
            chosen.update([h for h in headings if h < i][-1:])
    return [sentences[i] for i in sorted(chosen)]


def _content_pairs(text: str) -> frozenset[tuple[str, str]]:
    """Neighbouring content words of a text, the words between them that are no content ("of", "the") skipped:
    ("period", "cover") of "the period of cover"."""
    words = [w for token, w in zip(_WORD.findall(text.lower()), _words(text), strict=True)
             if token[:1].isdigit() or content_stems(token)]
    return frozenset(zip(words, words[1:], strict=False))


def shared_pairs(question: str, chunk: Chunk) -> int:
    """How many of a question's pairs of neighbouring content words a chunk has side by side too (`_content_pairs`):
    "period of cover" in a policy schedule for "When does the period of cover end?". Pure."""
    return len(_content_pairs(question) & _content_pairs(chunk.text))


QUESTION_SENTENCES = 3  # sentences of a chunk under the relevance bar read for a question


def sentences_to_read(question: str, chunk: Chunk) -> list[str]:
    """The sentences of a chunk that share most with a question, for retrieval to embed when the whole chunk
    scores under the relevance bar (`ingest.retrieval.Retriever.retrieve`); only sentences that share a content
    word with it (none, for a chunk that shares none: embedding costs a pass of the encoder each). A sentence that
    leaves to its document's title some words of the question it does not use itself is read after the title too
    ("Brightwater Foods plc — Q3 Trading Update: Chief executive Hannah Corrie said: …" for "Who is the chief
    executive of Brightwater Foods?"); retrieval keeps whichever reading is closer."""
    wanted = content_stems(question)
    sharing = [s for s in chunk_sentences(chunk) if content_stems(s) & wanted]
    read = likely_sentences(question, sharing, QUESTION_SENTENCES)
    title = (chunk.title or "").strip()
    titled = frozenset(content_stems(title)) & wanted
    return read + [f"{title}: {s}" for s in read if titled - frozenset(content_stems(s))]


NAMED_SIMILARITY = 0.3  # a sentence naming someone or something the claim names needs only this much similarity
_FULL_NAME = re.compile(r"\b[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)+")


def claim_names(claim: str) -> list[str]:
    """The claim's names of two or more capitalised words ("Jonah Blackwood", "Finance Committee"), not counting a
    function word that opens the sentence ("The Board" is "Board"). Pure."""
    found = []
    for match in _FULL_NAME.finditer(claim):
        words = match.group(0).split()
        if match.start() == 0 and words[0].lower() in STOPWORDS:
            words = words[1:]
        if len(words) >= 2:
            found.append(" ".join(words))
    return found


def _normalised(vector: np.ndarray) -> np.ndarray:
    return vector / (float(np.linalg.norm(vector)) or 1.0)


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
    sentences: Mapping[str, Sequence[str]] | None = None,
    names: Sequence[str] = (),
) -> list[tuple[Chunk, float]]:
    """Chunks whose best sentence reaches `min_similarity` (or `NAMED_SIMILARITY`, when a sentence read names one of
    the claim's `names` as written: "Jonah Blackwood, Finance and Operations Manager" for "Jonah Blackwood is the
    General Manager"), best first, at most `limit`: the best among
    `sentences[chunk.hash]` when given (the ones embedded for this claim), else among all of the chunk's. A sentence
    of a chunk that starts inside a section is also read with the section's headings (the mean of the two vectors,
    as the support checker reads a heading with a sentence under it): "The board moved to defer the decision"
    is about parking only under "Car park charges". Pure."""
    scored = []
    for chunk in chunks:
        read = sentences[chunk.hash] if sentences is not None else chunk_sentences(chunk)
        own = [vectors[s] for s in read]
        if chunk.section and chunk.section in vectors:
            own += [_normalised(vectors[chunk.section] + v) for v in own]
        score = best_sentence_scores(claim_vector, own)
        if score >= min_similarity or (score >= NAMED_SIMILARITY and any(n in s for n in names for s in read)):
            scored.append((chunk, score))
    scored.sort(key=lambda pair: -pair[1])
    return scored[:limit]
