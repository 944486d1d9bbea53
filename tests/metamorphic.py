"""Metamorphic renaming for judge tests: the same claim and evidence about invented names must get the same verdict.

Names are runs of capitalised words that do not open a sentence (people, organisations, places, products,
job titles written as names), acronyms (HR, CFO) and capitalised words that open a sentence but recur
capitalised elsewhere in the item. Each distinct name is replaced, in claim and evidence alike, by an
invented word made of random syllables: a word no list of the product can contain, so a verdict that
changes under renaming was decided by vocabulary, not by reading.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

_ONSETS = ("b", "br", "d", "dr", "f", "g", "gl", "k", "kr", "l", "m", "n", "p", "pl", "r", "s", "st", "t", "tr",
           "v", "z", "sk", "th", "qu")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ou", "ea")
_CODAS = ("", "", "n", "r", "l", "s", "th", "m", "x", "nd")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)$")
_NAME = re.compile(r"\b(?:[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?|[A-Z]{2,6})(?:\s+(?:of\s+|and\s+|&\s+)?"
                   r"(?:[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?|[A-Z]{2,6}))*\b")  # "Castlegate's": the name is "Castlegate"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_KEEP = frozenset((*_MONTHS, *_DAYS, "I", "Q1", "Q2", "Q3", "Q4", "AM", "PM", "USD", "EUR", "GBP"))


def invented_word(rng: random.Random, taken: set[str]) -> str:
    """A pronounceable word of three syllables that no dictionary or list contains."""
    while True:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(3))
        word = word.capitalize()
        if word not in taken:
            taken.add(word)
            return word


def names_in(texts: Iterable[str]) -> list[str]:
    """The names of an item, longest first (so "Chief Financial Officer" is renamed before "Officer").

    A capitalised word is part of a name only if it never appears in lower case in the item ("Every 24 months"
    in a table cell is not a name: "every" occurs elsewhere); a word opening a sentence or a cell is not a name
    on that evidence alone, so it is dropped from the front of its run.
    """
    texts = list(texts)
    lower = {w for t in texts for w in re.findall(r"\b[a-z][a-z'-]*\b", t)}
    found: set[str] = set()
    for text in texts:
        for m in _NAME.finditer(text):
            words = m.group(0).split()
            if _SENTENCE_START.search(text[: m.start()]) or text[: m.start()].rstrip().endswith(("|", "(", '"')):
                words = words[1:]
            while words and words[0] in ("of", "and", "&"):
                words = words[1:]
            while words and words[-1] in ("of", "and", "&"):
                words = words[:-1]
            name = " ".join(words)
            plain = [w for w in words if w not in ("of", "and", "&")]
            if not plain or any(w.lower() in lower or w.rstrip("s") in _KEEP or w in _KEEP for w in plain):
                continue
            found.add(name)
    return sorted(found, key=len, reverse=True)


def rename(claim: str, evidence: list[str], seed: int) -> tuple[str, list[str], dict[str, str]]:
    """The item with every name replaced consistently by an invented word; and the mapping used."""
    rng = random.Random(seed)
    taken: set[str] = set()
    mapping = {name: invented_word(rng, taken) for name in names_in([claim, *evidence])}
    if not mapping:
        return claim, list(evidence), {}
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in mapping) + r")\b")

    def apply(text: str) -> str:
        return pattern.sub(lambda m: mapping[m.group(0)], text)

    return apply(claim), [apply(e) for e in evidence], mapping
