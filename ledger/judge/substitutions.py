"""Learned contrasts: the evidence says the claim's sentence with another word in one place.

"Interest on the deposit belongs to the landlord" against "Interest on the deposit belongs to the Tenant": the
two align word for word but for one slot. Whether the words of such a slot rule each other out (antonyms and
co-hyponyms: landlord/tenant, inside/outside, more/less, wheat/barley) or agree (synonyms and more general words:
physician/doctor, man/person, grew/increased) is learned, not listed. A logistic regression over how WordNet
relates the two (`ledger.judge.word_relations`: one sense, narrower, opposites, siblings and how close), their
similarity in the bundled model's static word vectors and their general frequencies was trained on the
substitutions mined from the labelled pairs in `../shared/data/nli` (`scripts/train_substitutions.py`, which also
picks the threshold on the NLI dev split). Figures, dates and negation are the rules' business and are left out.

`aligned_substitutions` is pure; `ContrastModel` loads its weights (a JSON file beside this module), the word
vectors and the WordNet table once.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ledger.judge.word_relations import WordNetTable, relation_features
from ledger.text.alignment import slots
from ledger.text.terms import key_terms, negation_cues

if TYPE_CHECKING:
    from ledger.core.models import WordVectors

WEIGHTS = Path(__file__).with_name("models") / "contrasts.json"
MAX_SLOT_WORDS = 3  # a slot longer than this is a rewording, not a substitution


@dataclass(frozen=True)
class Substitution:
    """One slot where the quote has other words than the claim, the rest of the sentence being the same."""

    claim: str
    evidence: str


def aligned_substitutions(claim: str, quote: str) -> tuple[Substitution, ...]:
    """The slots where the quote puts other content words in the claim's place. Pure.

    The claim and the quote must be one sentence in two versions (`ledger.text.alignment.slots`). A slot counts
    when both sides have content words, share none of them (stems), have at most three words each, are not two
    spellings of one word, are not said elsewhere in the other sentence and hold no figure or negation (those are the
    quantity and negation rules').
    """
    out = []
    said_by_claim, said_by_quote = set(key_terms(claim)), set(key_terms(quote))
    for slot in slots(claim, quote):
        if len(slot.ours) > MAX_SLOT_WORDS or len(slot.theirs) > MAX_SLOT_WORDS:
            continue
        a, b = " ".join(slot.ours), " ".join(slot.theirs)
        terms_a, terms_b = key_terms(a), key_terms(b)
        if not terms_a or not terms_b or set(terms_a) & set(terms_b) or _spelling(a, b):
            continue
        if set(terms_a) <= said_by_quote or set(terms_b) <= said_by_claim:
            continue  # a word the other sentence says elsewhere was moved, not replaced ("the grant ends" / "the end
            # of the Grant Period")
        if any(ch.isdigit() for ch in a + b) or negation_cues(a) or negation_cues(b):
            continue
        out.append(Substitution(a, b))
    return tuple(out)


def _spelling(a: str, b: str) -> bool:
    """Two spellings or forms of one word ("revolutionized", "revolutionised")."""
    return difflib.SequenceMatcher(a=a.lower(), b=b.lower(), autojunk=False).ratio() >= 0.8


def pair_features(
    a: str, b: str, vectors: WordVectors, frequency: Callable[[str], float], wordnet: WordNetTable,
) -> np.ndarray:
    """The features of one substitution (claim words `a`, evidence words `b`), as the model was trained on them.

    The two phrases' frequencies (Zipf scale / 8), whether one is the other with a negative prefix, capitalisation,
    length and the cosine of their static word vectors, then how WordNet relates them (`relation_features`). The
    vectors themselves are not features: with a few thousand labelled slots, 768 of them learned the training
    words rather than the relation (cross-validated AUC 0.62 with them, 0.68 with WordNet's relations instead).
    """
    u, v = vectors.phrase(a), vectors.phrase(b)
    la, lb = a.lower(), b.lower()
    za, zb = frequency(la) / 8, frequency(lb) / 8
    prefixed = any(x == p + y for x, y in ((la, lb), (lb, la)) for p in ("un", "in", "im", "non", "dis", "ir", "il"))
    scalars = [za, zb, zb - za, float(prefixed), float(a[:1].isupper()), float(b[:1].isupper()),
               len(a.split()) / 3, len(b.split()) / 3, float(u @ v)]
    return np.concatenate([np.asarray(scalars, dtype=np.float32), relation_features(a, b, wordnet)])


def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return float(np.mean([zipf_frequency(w, "en") for w in word.split()] or [0.0]))


@dataclass(frozen=True)
class ContrastWeights:
    """A trained logistic regression over standardised `pair_features`, and the threshold it is used at."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> ContrastWeights:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(np.asarray(data["mean"], np.float32), np.asarray(data["scale"], np.float32),
                   np.asarray(data["coef"], np.float32), float(data["intercept"]), float(data["threshold"]))


class ContrastModel:
    """P(the evidence's words rule the claim's out) for one substitution; remembers what it scored."""

    def __init__(self, weights: ContrastWeights, vectors: WordVectors, wordnet: WordNetTable,
                 frequency: Callable[[str], float] = _zipf) -> None:
        self.weights, self.vectors, self.wordnet, self.frequency = weights, vectors, wordnet, frequency
        self.threshold = weights.threshold
        self._seen: dict[tuple[str, str], float] = {}

    def __call__(self, a: str, b: str) -> float:
        key = (a, b)
        if key not in self._seen:
            w = self.weights
            x = (pair_features(a, b, self.vectors, self.frequency, self.wordnet) - w.mean) / w.scale
            self._seen[key] = float(1.0 / (1.0 + np.exp(-(x @ w.coef + w.intercept))))
            if len(self._seen) > 50_000:
                self._seen.clear()
        return self._seen[key]

    def contrasts(self, claim: str, quote: str) -> tuple[tuple[str, str], ...]:
        """(claim words, evidence words) of each slot the model calls a contrast."""
        return tuple((s.claim, s.evidence) for s in aligned_substitutions(claim, quote)
                     if self(s.claim, s.evidence) >= self.threshold)


@cache
def bundled_contrast_model() -> ContrastModel:
    """The shipped model over the bundled embedding model's word vectors and WordNet, loaded once per process."""
    from ledger.core.models import bundled_word_vectors
    from ledger.judge.word_relations import bundled_wordnet

    return ContrastModel(ContrastWeights.load(), bundled_word_vectors(), bundled_wordnet())
