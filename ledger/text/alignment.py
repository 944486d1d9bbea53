"""Word alignment of a claim with a quote: are they one sentence in two versions, and which slots differ?

"Interest on the deposit belongs to the landlord" and "Interest on the deposit belongs to the Tenant" align word
for word but for one slot. A rival name or word only says something about the claim when it stands in the claim's
place like that: a quote that merely mentions other names ("She is a Gem, a fictional alien being", against
"Pearl is a fictional alien being") does not swap anything. Pure functions over `difflib`'s longest matching blocks.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from ledger.text.lexicon import lexicon

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d[\d,.]*\d|\d")
MAX_CLAUSE_READINGS = 6  # clause ends a quote is also read up to (a row of many cells is no sentence of six clauses)
MIN_ALIGNED = 0.5  # share of the claim's words the quote repeats in order: below it, the two are not one sentence
SHARED_OPENING = 4  # words a claim and a quote open with, word for word, before the names that tell them apart


@dataclass(frozen=True)
class Slot:
    """Words of the claim (`ours`) that the quote replaces by other words (`theirs`), the rest being aligned."""

    ours: tuple[str, ...]
    theirs: tuple[str, ...]


def tokens(text: str) -> list[str]:
    """Words and figures of a text, as written."""
    return _TOKEN.findall(text)


def states_verbatim(claim: str, quote: str) -> bool:
    """Whether the quote repeats the claim word for word: every word and figure of it, in order and side by side
    (case and punctuation aside; "$5" is not "$5.50"). A claim of fewer than 3 words never is. Pure."""
    ours = [w.lower() for w in tokens(claim)]
    if len(ours) < 3:
        return False
    theirs = [w.lower() for w in tokens(quote)]
    n = len(ours)
    return any(theirs[i] == ours[0] and theirs[i:i + n] == ours for i in range(len(theirs) - n + 1))


_CLAUSE_END = re.compile(r"\s*(?:[;:–—]\s+|,\s+(?=(\w+)))")  # where a clause of a quote may end (after a comma, by
# `clause_openers`)


@lru_cache(maxsize=1)
def _clause_openers() -> frozenset[str]:
    return frozenset(lexicon().words("stopwords", "clause_openers"))


@lru_cache(maxsize=8192)
def slots(claim: str, quote: str, min_aligned: float = MIN_ALIGNED) -> tuple[Slot, ...]:
    """The replaced slots of the claim against the quote, or () when the two are not one sentence in two versions
    (fewer than `min_aligned` of the claim's words found in the quote in the same order).

    The quote is read whole and up to the end of each of its clauses, and the reading that repeats most of the
    claim's words with the fewest replaced is kept: against "The best beaches are on the sheltered southern coast,
    while the northern cliffs are home to gannets", the claim "The best beaches are on the exposed northern coast"
    puts "exposed northern" in the place of "sheltered southern", not "northern" in the cliffs' clause."""
    ours = tokens(claim)
    if len(ours) < 3:
        return ()
    ends = (m.start() for m in _CLAUSE_END.finditer(quote) if m.group(1) is None
            or m.group(1).lower() in _clause_openers())
    readings = [quote, *(quote[:end] for end in islice(ends, MAX_CLAUSE_READINGS))]
    best: tuple[int, int, tuple[Slot, ...]] | None = None
    for reading in readings:
        theirs = tokens(reading)
        if not theirs:
            continue
        matcher = difflib.SequenceMatcher(a=[w.lower() for w in ours], b=[w.lower() for w in theirs], autojunk=False)
        opcodes = matcher.get_opcodes()
        equal = sum(i2 - i1 for tag, i1, i2, _, _ in opcodes if tag == "equal")
        replaced = tuple(Slot(tuple(ours[i1:i2]), tuple(theirs[j1:j2]))
                         for tag, i1, i2, j1, j2 in opcodes if tag == "replace")
        size = sum(len(r.ours) + len(r.theirs) for r in replaced)
        if best is None or (equal, -size) > best[:2]:
            best = (equal, -size, replaced)
    if best is None or best[0] / len(ours) < min_aligned:
        return ()
    return best[2]


def in_one_slot(claim: str, quote: str, ours: str, theirs: str) -> bool:
    """Whether the quote puts `theirs` where the claim has `ours`: the words that tell them apart inside one replaced
    slot of an alignment ("Northern" for "Southern" in "... Water Board"). A long slot naming someone with their
    role is that sentence's only difference ("… are prescribed by the Lead Travel Health Nurse, Gemma Okafor-Reid"
    against "… are prescribed by our pharmacist prescriber, Daniel Whitcombe, after …"): then the rest of the
    sentence need not be half of it."""
    words_ours, words_theirs = {w.lower() for w in tokens(ours)}, {w.lower() for w in tokens(theirs)}
    mine, rival = words_ours - words_theirs, words_theirs - words_ours
    if not mine or not rival:
        return False

    if any(mine <= {w.lower() for w in s.ours} and rival <= {w.lower() for w in s.theirs}
           for s in slots(claim, quote)):
        return True
    return _ends_apart(claim, quote, mine, rival) and _placed_alike(claim, quote, ours, theirs)


def _placed_alike(claim: str, quote: str, ours: str, theirs: str) -> bool:
    """Whether both names stand after a comma, each beside a description of its own ("the Lead Travel Health Nurse,
    Gemma Okafor-Reid" / "our pharmacist prescriber, Daniel Whitcombe"): the two are in one place of the sentence."""
    first = [tokens(name)[:1] for name in (ours, theirs)]
    return all(word and re.search(rf",\s*{re.escape(word[0])}\b", text)
               for word, text in zip(first, (claim, quote), strict=True))


def _ends_apart(claim: str, quote: str, mine: set[str], rival: set[str]) -> bool:
    """Whether the quote repeats the claim's opening word for word (at least `SHARED_OPENING` words) and goes on with
    the rival where the claim goes on to end with its name: "Malaria tablets are prescribed by | the Lead Travel Health
    Nurse, Gemma Okafor-Reid" against "Malaria tablets are prescribed by | our pharmacist prescriber, Daniel
    Whitcombe, after …"."""
    ours, theirs = [w.lower() for w in tokens(claim)], [w.lower() for w in tokens(quote)]
    if not mine <= set(ours[-len(mine):]):
        return False  # the name ends the claim: the opening is all the rest of it
    for k in range(len(ours) - 1, SHARED_OPENING - 1, -1):
        rest = ours[k:]
        if not mine <= set(rest):
            continue
        at = next((i for i in range(len(theirs) - k + 1) if theirs[i:i + k] == ours[:k]), None)
        if at is not None:
            return rival <= set(theirs[at + k:at + k + len(rest) + 2])
    return False
