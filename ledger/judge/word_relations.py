"""How two words relate in WordNet: one sense, one a kind of the other, opposites, or two kinds of one thing.

The learned contrasts (`ledger.judge.substitutions`) decide whether the evidence's word in the claim's place rules
the claim out. Word vectors alone put "landlord" near "tenant" and "physician" near "doctor" alike; WordNet tells
them apart: landlord and tenant are two kinds of holder (siblings), physician and doctor one sense, "grew" a kind
of "increased" (a hyponym), "inside" the opposite of "outside". These relations are features of the model, which
learned from the labelled pairs how much each one counts; no relation decides on its own.

The table is a compact copy of Princeton WordNet 3.0's senses, hypernyms, antonyms, part holonyms, derivations and
inflections (`scripts/build_word_relations.py`; licence in `models/WORDNET_LICENSE.txt`), loaded once per process.
`relation_features` is pure given the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from ledger.text.nltk_parts import WORDNET_SUFFIXES
from ledger.text.terms import stem

TABLE = Path(__file__).with_name("models") / "wordnet.npz"
POS_CODES = {"n": 0, "v": 1, "a": 2, "r": 3}
SENSES = 3  # a word's commonest senses per phrase that count: rarer ones would make every pair related
NEAR, MID = 2, 4  # siblings at most this many hypernym steps apart (both sides together)
_RELATIONS = ("same sense", "opposites", "claim word narrower", "claim word broader", "near siblings", "siblings",
              "far siblings")
_POS_NAMES = ("noun", "verb", "adjective", "adverb")
# The relations, their closeness, the part of speech of the claim word's commonest sense, and each relation again
# for that part of speech: two kinds of one thing rule each other out far more often as nouns (landlord, tenant)
# than as verbs (earn, receive).
RELATION_FEATURES = (
    "claim word known", "evidence word known", *_RELATIONS, "closeness", *_POS_NAMES,
    *(f"{pos} {name}" for pos in _POS_NAMES for name in _RELATIONS),
)


@dataclass(frozen=True, eq=False)  # hashed by identity: one table per process
class WordNetTable:
    """Senses, hypernyms (with distances), antonyms and inflections of WordNet, as flat arrays."""

    lemma_index: dict[str, int]
    sense_start: np.ndarray
    senses: np.ndarray
    pos: np.ndarray
    ancestor_start: np.ndarray
    ancestors: np.ndarray
    distances: np.ndarray
    antonym_start: np.ndarray
    antonyms: np.ndarray
    exceptions: dict[tuple[str, str], tuple[str, ...]]
    part_start: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int32))  # none in an older table
    parts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    lemmas: tuple[str, ...] = ()
    derived_start: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int32))  # none in an older table
    derived: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))

    @classmethod
    def load(cls, path: Path = TABLE) -> WordNetTable:
        with np.load(path) as data:
            lemmas = data["lemmas"].tobytes().decode("utf-8").split("\n")
            exceptions: dict[tuple[str, str], tuple[str, ...]] = {}
            for line in data["exceptions"].tobytes().decode("utf-8").split("\n"):
                p, form, base = line.split(" ")
                exceptions[(p, form)] = (*exceptions.get((p, form), ()), base)
            optional = {name: data[name] for name in ("part_start", "parts", "derived_start", "derived")
                        if name in data.files}
            return cls({lemma: i for i, lemma in enumerate(lemmas)}, data["sense_start"], data["senses"],
                       data["pos"], data["ancestor_start"], data["ancestors"], data["distances"],
                       data["antonym_start"], data["antonyms"], exceptions, lemmas=tuple(lemmas), **optional)

    def _lemma_senses(self, lemma: str, pos: str) -> tuple[int, ...]:
        i = self.lemma_index.get(lemma)
        if i is None:
            return ()
        found = self.senses[self.sense_start[i]:self.sense_start[i + 1]]
        return tuple(int(s) for s in found if self.pos[s] == POS_CODES[pos])

    def _base_candidates(self, form: str, pos: str) -> list[str]:
        """The forms `form` may be a form of for this part of speech, itself first (NLTK's morphy: its exception
        lists, else its suffix rules)."""
        if (pos, form) in self.exceptions:
            return [form, *self.exceptions[(pos, form)]]
        return [form] + [form[: -len(old)] + new for old, new in WORDNET_SUFFIXES[pos] if form.endswith(old)]

    def _base_form(self, form: str, pos: str) -> str | None:
        """The first base form of `form` that WordNet has for this part of speech."""
        return next((c for c in self._base_candidates(form, pos) if c and self._lemma_senses(c, pos)), None)

    def every_reading(self, word: str) -> tuple[int, ...]:
        """A word's senses under every base form WordNet has for it, as NLTK's morphy gives them: "costs" is a noun of
        its own (legal costs) and the plural of "cost"; `word_senses` reads only the first."""
        word = word.lower()
        found = [s for pos in POS_CODES for base in dict.fromkeys(c for c in self._base_candidates(word, pos) if c)
                 for s in self._lemma_senses(base, pos)]
        return tuple(dict.fromkeys(found)) or self.word_senses(word)

    def word_senses(self, word: str) -> tuple[int, ...]:
        """A word's or phrase's senses, nouns first, each part of speech commonest first; a phrase WordNet does not
        know is read by its last word ("practice nurse" as "nurse")."""
        return _senses(self, " ".join(word.lower().split()))

    def hypernyms(self, sense: int) -> dict[int, int]:
        """{ancestor: fewest steps up to it}, the sense itself at 0."""
        a, b = self.ancestor_start[sense], self.ancestor_start[sense + 1]
        return dict(zip(self.ancestors[a:b].tolist(), self.distances[a:b].tolist(), strict=True))

    def opposites(self, sense: int) -> set[int]:
        a, b = self.antonym_start[sense], self.antonym_start[sense + 1]
        return set(self.antonyms[a:b].tolist())

    def derivations(self, lemma: str) -> tuple[str, ...]:
        """The nouns of a verb, and the verbs of a noun, that share its root in its commonest senses ("admit":
        "admission", "admittance"; "pay": "payment", "payer"; but "art" has no "artist", a noun of a noun)."""
        i = self.lemma_index.get(lemma)
        if i is None or i + 1 >= len(self.derived_start):
            return ()
        return tuple(self.lemmas[j] for j in self.derived[self.derived_start[i]:self.derived_start[i + 1]].tolist())

    def wholes(self, sense: int) -> set[int]:
        """Every whole the sense is part of, however far up ("Edinburgh": Scotland, the United Kingdom, Europe)."""
        if sense + 1 >= len(self.part_start):
            return set()
        a, b = self.part_start[sense], self.part_start[sense + 1]
        return set(self.parts[a:b].tolist())


def one_inside_the_other(a: str, b: str, table: WordNetTable) -> bool:
    """Whether one of two names is a part of the other in WordNet ("Edinburgh" and "United Kingdom", "Europe" and
    "Greece"), by their commonest senses: a claim about the one is not contradicted by the quote naming the other."""
    def senses(name: str) -> tuple[int, ...]:  # the name as one lemma ("united_kingdom"), not its last word alone:
        return table.word_senses("_".join(name.split()))[:SENSES]  # "Southwestern Mexico" is not all of Mexico

    ours, theirs = senses(a), senses(b)
    return any(y in table.wholes(x) or x in table.wholes(y) for x in ours for y in theirs)


PARTY_ROOTS = ("person", "social_group")  # what a word for someone who acts is a kind of


def names_a_party(word: str, table: WordNetTable, *, noun_here: bool = False, head_here: bool = False) -> bool:
    """Whether a word's commonest noun sense is a kind of person or of social group ("manager", "technician",
    "committee"): who can do or be responsible for something, as a "who" question asks.

    Its place in the sentence says whether it is a noun at all: a word that can be a verb ("guide", "nurse", and the
    verbs WordNet also knows as someone's name, "begin") counts only when `noun_here` (it follows "the", "a",
    "by" ...); one that can be an adjective ("master", "national") only when it also ends its noun phrase,
    `head_here` ("the harbour master decides", not "the master bedroom")."""
    senses = table.word_senses(word.lower()) or _compound_head(word.lower(), table)
    kinds = {int(table.pos[s]) for s in senses}
    if not senses or int(table.pos[senses[0]]) != POS_CODES["n"]:
        return False
    if kinds & {POS_CODES["a"], POS_CODES["r"]} and not (noun_here and head_here):
        return False
    if POS_CODES["v"] in kinds and not noun_here:
        return False
    ancestors = table.hypernyms(senses[0])
    return any(_root(table, name) in ancestors for name in PARTY_ROOTS)


def _compound_head(word: str, table: WordNetTable) -> tuple[int, ...]:
    """The senses of the longest known word that ends a compound WordNet does not know ("headteacher" is a kind of
    "teacher", "caseworker" of "worker"): English compounds are head-final."""
    if len(word) > LONGEST_COMPOUND:
        return ()  # no word of English; a 10,000-letter token must not cost 10,000 look-ups
    for start in range(1, len(word) - 3):
        if senses := table.word_senses(word[start:]):
            return senses
    return ()


LONGEST_COMPOUND = 40


def is_participle(word: str, table: WordNetTable) -> bool:
    """Whether a word is a verb's -ed or -ing form ("aged", "acting"), which after a noun qualifies it."""
    word = word.lower()
    return word.endswith(("ed", "ing")) and table._base_form(word, "v") not in (None, word)


def verb_base(word: str, table: WordNetTable) -> str | None:
    """The base form of a word read as a verb ("left": "leave", "performs": "perform"), or None if it is none."""
    return table._base_form(word.lower(), "v")


def can_be_a_noun(word: str, table: WordNetTable) -> bool:
    """Whether WordNet knows the word (or its base form) as a noun."""
    return any(int(table.pos[s]) == POS_CODES["n"] for s in table.word_senses(word.lower()))


@cache
def _root(table: WordNetTable, lemma: str) -> int:
    return table._lemma_senses(lemma, "n")[0]


NEAR_IN_MEANING = 2  # hypernym steps at most between a word and a kind of it that says the same thing in a question


def near_in_meaning(a: str, b: str, table: WordNetTable) -> bool:
    """Whether two words can say the same thing: a shared sense, or one a kind of the other at most
    `NEAR_IN_MEANING` steps apart ("helpers" / "volunteers", "grub" / "larvae"), by their commonest senses."""
    ours, theirs = _commonest_by_pos(table, a), _commonest_by_pos(table, b)
    if set(ours) & set(theirs):
        return True
    for x in ours:
        up_x = table.hypernyms(x)
        for y in theirs:
            if table.pos[x] == table.pos[y] and (up_x.get(y, 99) <= NEAR_IN_MEANING
                                                  or table.hypernyms(y).get(x, 99) <= NEAR_IN_MEANING):
                return True
    return False


def is_a_kind_of(word: str, general: str, table: WordNetTable) -> bool:
    """Whether a noun's commonest senses include a kind of one of the general word's, however far up ("resident"
    of "person", "car" of "vehicle"), or the same sense."""
    theirs = set(_commonest_by_pos(table, general, "n"))
    return any(theirs & table.hypernyms(s).keys() for s in _commonest_by_pos(table, word, "n"))


def _commonest_by_pos(table: WordNetTable, word: str, *only: str) -> tuple[int, ...]:
    """A word's `SENSES` commonest senses of each part of speech ("start" as a noun and as a verb), or of the parts
    of speech named in `only` ("n")."""
    senses = table.every_reading(word)
    codes = [POS_CODES[p] for p in only] or list(POS_CODES.values())
    return tuple(s for pos in codes for s in [x for x in senses if table.pos[x] == pos][:SENSES])


@lru_cache(maxsize=50_000)
def _senses(table: WordNetTable, phrase: str) -> tuple[int, ...]:
    words = phrase.split(" ")
    if 1 < len(words) <= 3:  # a phrasal verb or compound is one lemma ("put off" is "put_off", a postponement)
        for pos in POS_CODES:
            head = table._base_form(words[0], pos)
            if head is not None and (senses := table._lemma_senses("_".join([head, *words[1:]]), pos)):
                return senses + tuple(s for p in POS_CODES if p != pos
                                      for s in table._lemma_senses("_".join(words), p))
    for candidate in dict.fromkeys([phrase, phrase.split(" ")[-1]] if phrase else []):
        found: list[int] = []
        for pos in POS_CODES:
            base = table._base_form(candidate, pos)
            if base is not None:
                found += table._lemma_senses(base, pos)
        if found:
            return tuple(found)
    return ()


def same_sense(a: str, b: str, table: WordNetTable) -> bool:
    """Whether two words say one thing: one's `SENSES` commonest senses (nouns first) among the other's senses
    ("quickly" and "promptly", "cut" and "reduce"), as `relation_features`' "same sense"; not "mother" and "father",
    which share a sense only as the rare verbs of begetting."""
    ours, theirs = table.word_senses(a), table.word_senses(b)
    return bool(set(ours[:SENSES]) & set(theirs) or set(theirs[:SENSES]) & set(ours))


def relation_features(a: str, b: str, table: WordNetTable) -> np.ndarray:
    """The `RELATION_FEATURES` of claim words `a` against evidence words `b`, as 0/1 flags and a closeness.

    Only the commonest senses (`SENSES`) of each side are compared, and only within one part of speech: "same sense"
    when they share one, "narrower" when the claim's is a kind of the evidence's ("grew" of "increased"),
    "opposites" by WordNet's antonyms, otherwise siblings by how many hypernym steps apart their nearest shared
    ancestor puts them; closeness is 1 / (1 + those steps).
    """
    f = np.zeros(len(RELATION_FEATURES), dtype=np.float32)
    ours, theirs = table.word_senses(a), table.word_senses(b)
    f[0], f[1] = bool(ours), bool(theirs)
    if not ours or not theirs:
        return f
    relations = 2 + len(_RELATIONS) + 1  # the first features: known, known, the relations, closeness
    top_ours, top_theirs = ours[:SENSES], theirs[:SENSES]
    if set(top_ours) & set(theirs) or set(top_theirs) & set(ours):
        f[2] = 1
    steps = 99
    for x in top_ours:
        up_x, opposite = table.hypernyms(x), table.opposites(x)
        for y in top_theirs:
            if y in opposite:
                f[3] = 1
            if table.pos[x] != table.pos[y]:
                continue
            up_y = table.hypernyms(y)
            if y in up_x and x != y:
                f[4] = 1
            if x in up_y and x != y:
                f[5] = 1
            shared = up_x.keys() & up_y.keys()
            if shared:
                steps = min(steps, min(up_x[s] + up_y[s] for s in shared))
    if not (f[2] or f[4] or f[5]) and steps < 99:
        f[6 if steps <= NEAR else 7 if steps <= MID else 8] = 1
    f[9] = 1.0 / (1 + steps) if steps < 99 else 0.0
    pos = int(table.pos[ours[0]])
    f[relations + pos] = 1
    start = relations + len(_POS_NAMES) + pos * len(_RELATIONS)
    f[start:start + len(_RELATIONS)] = f[2:2 + len(_RELATIONS)]
    return f


@cache
def _stems_by_root(table: WordNetTable) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for i in np.flatnonzero(np.diff(table.derived_start)).tolist():
        lemma = table.lemmas[i]
        if "_" not in lemma:
            found.setdefault(stem(lemma), set()).update(stem(d) for d in table.derivations(lemma) if "_" not in d)
    return {k: frozenset(v - {k}) for k, v in found.items()}


def same_root_stems(word_stem: str, table: WordNetTable) -> frozenset[str]:
    """The (Porter) stems of the nouns or verbs WordNet derives from the words of a stem, or they from it:
    "admit" gives "admiss" (admission), "pai" (pay) gives "payment". A question about who was admitted is
    answered by "Weight on admission"."""
    return _stems_by_root(table).get(word_stem, frozenset())


@cache
def bundled_wordnet() -> WordNetTable:
    """The shipped table, loaded once per process."""
    return WordNetTable.load()
