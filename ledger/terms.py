"""Words of a claim and its evidence: key terms, negation and swapped terms.

Pure functions for the local support checker. Key terms are content words with light (Porter) stemming;
figures are left to `ledger.quantities`. A swap is the evidence saying the same thing about another
entity, role, department or period ("CFO" for "CEO", "Finance" for "Legal", "quarterly" for "annually").
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from nltk.stem.porter import PorterStemmer

_STEMMER = PorterStemmer()

# Function words, auxiliaries and modals: they carry no topic, and modality is not what the terms compare.
_STOPWORDS = """a an the of in on at to for from by with and or but nor is are was were be been being am as that
this these those it its it's their theirs his her hers our ours your yours my we you they he she them us i me who whom
whose which what when where while why how if then than so such per each every any all some both either within up
into onto over under out about also only just very more most less least much many other others same own do does did
done doing has have having had must may might can could will would shall should need needs needed ought there here
once upon via etc e g ie eg"""
STOPWORDS = frozenset(_STOPWORDS.split())
# Words that quantities.py compares as figures; counting them again as terms would double-penalise "48 hours" vs
# "2 days".
_FIGURE_WORDS = """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million
billion dozen once twice percent cent minute minutes min mins hour hours hr hrs day days week weeks month months year
years quarter quarters business working calendar dollar dollars usd eur euro euros gbp pound pounds january february
march april may june july august september october november december monday tuesday wednesday thursday friday
saturday sunday am pm"""
FIGURE_WORDS = frozenset(_FIGURE_WORDS.split())
_NEGATION_WORDS = frozenset({"not", "no", "never", "cannot", "none", "nobody", "nothing", "neither", "without", "n't"})

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z_']*|\d[\d,.]*")
_NEGATION_EXEMPT = re.compile(
    r"\b(?:no|not)\s+(?:later|earlier|more|less|fewer|sooner)\s+than\b|\bnot\s+(?:to\s+)?exceed|\bnot\s+only\b"
    r"|\bwhether\s+or\s+not\b|\bno\s+matter\b|\bif\s+not\b",
    re.IGNORECASE,
)
_NEGATION_RE = re.compile(
    r"\b(?:not|no|never|cannot|none|nobody|nothing|neither|without|prohibited|forbidden|banned|disallowed"
    r"|ineligible|unable|unpaid|unauthori[sz]ed|unapproved|non-\w+)\b|n['’]t\b",
    re.IGNORECASE,
)

# Multi-word names first become one token, so "Chief Financial Officer" and "CFO" compare as the same thing.
_PHRASES = {
    "chief executive officer": "ceo", "chief financial officer": "cfo", "chief operating officer": "coo",
    "chief technology officer": "cto", "chief information officer": "cio",
    "chief information security officer": "ciso", "vice president": "vp", "department head": "department_head",
    "head of department": "department_head", "line manager": "manager", "team lead": "team_lead",
    "team leader": "team_lead", "human resources": "hr", "people operations": "hr",
    "information technology": "it", "economy class": "economy_class", "business class": "business_class",
    "first class": "first_class", "premium economy": "premium_economy", "full time": "full_time",
    "part time": "part_time", "every day": "daily", "each day": "daily", "every week": "weekly",
    "every month": "monthly", "every quarter": "quarterly", "every year": "annually", "each year": "annually",
    "once a year": "annually", "once per year": "annually", "once a quarter": "quarterly",
    "once per quarter": "quarterly", "once a month": "monthly", "once a week": "weekly",
}
_PHRASE_RE = re.compile(r"\b(?:" + "|".join(re.escape(p).replace(r"\ ", r"[\s-]+") for p in
                                            sorted(_PHRASES, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_CANONICAL = {"yearly": "annually", "annual": "annually", "biweekly": "fortnightly", "semiannually": "biannually",
              "maximum": "max", "minimum": "min", "reduce": "decrease", "verbal": "oral", "denied": "reject",
              "deny": "reject", "declined": "reject", "compulsory": "mandatory", "required": "mandatory",
              "voluntary": "optional"}
# Sets of mutually exclusive alternatives: the evidence naming another member than the claim is a swap.
_CONTRAST_SETS = (
    "daily weekly fortnightly monthly quarterly annually biannually",
    "ceo cfo coo cto cio ciso vp controller department_head manager team_lead director",
    "finance legal hr it procurement security compliance sales marketing engineering payroll facilities",
    "economy_class premium_economy business_class first_class",
    "before after", "max min", "increase decrease", "domestic international", "internal external",
    "written oral", "full_time part_time", "public internal confidential restricted", "approve reject",
    "mandatory optional", "employee contractor", "permanent temporary",
)


def stem(word: str) -> str:
    """Porter stem of a lower-cased word; joined names ("department_head") stay as they are."""
    return word if "_" in word else _STEMMER.stem(word.lower())


_CONTRASTS = tuple(frozenset(stem(w) for w in s.split()) for s in _CONTRAST_SETS)


@lru_cache(maxsize=8192)
def _canonical_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(canonical stem, surface word) pairs, multi-word names joined into one token."""
    joined = _PHRASE_RE.sub(lambda m: " " + _PHRASES[re.sub(r"[\s-]+", " ", m.group(0).lower())] + " ", text)
    out = []
    for m in _WORD_RE.finditer(joined):
        surface = m.group(0)
        word = surface.lower().strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        out.append((stem(_CANONICAL.get(word, word)), surface))
    return tuple(out)


def key_terms(text: str) -> tuple[str, ...]:
    """Stems of the content words of `text`, in order, without stopwords, figures or negation words."""
    terms = []
    for word, surface in _canonical_tokens(text.replace("_", " ")):
        lower = surface.lower()
        if lower in STOPWORDS or lower in FIGURE_WORDS or lower in _NEGATION_WORDS or lower[0].isdigit():
            continue
        if len(lower) < 2:
            continue
        terms.append(word)
    return tuple(dict.fromkeys(terms))


def coverage(claim_terms: tuple[str, ...], quote_terms: tuple[str, ...]) -> tuple[float, tuple[str, ...]]:
    """Share of the claim's key terms the quote contains (1.0 when the claim has none), and the missing ones."""
    if not claim_terms:
        return 1.0, ()
    present = set(quote_terms)
    missing = tuple(t for t in claim_terms if t not in present)
    return 1.0 - len(missing) / len(claim_terms), missing


def _is_entity(surface: str, position: int) -> bool:
    """Acronyms and capitalised words inside a sentence look like names: of people, roles, teams, tools, places."""
    if len(surface) >= 2 and surface.isupper() and surface.isalpha():
        return True
    return position > 0 and surface[:1].isupper() and surface[1:].islower() and surface.lower() not in STOPWORDS


def find_swaps(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim term, quote term) pairs where the quote names a different alternative or entity in the claim's place."""
    claim_tokens, quote_tokens = _canonical_tokens(claim), _canonical_tokens(quote)
    claim_words, quote_words = [w for w, _ in claim_tokens], [w for w, _ in quote_tokens]
    claim_set, quote_set = set(claim_words), set(quote_words)
    swaps: list[tuple[str, str]] = []
    for contrast in _CONTRASTS:
        ours = (claim_set & contrast) - quote_set
        theirs = (quote_set & contrast) - claim_set
        if ours and theirs:
            swaps.append((sorted(ours)[0], sorted(theirs)[0]))
    # Names outside the known sets: an aligned replacement of one capitalised word or acronym by another.
    matcher = SequenceMatcher(None, claim_words, quote_words, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op != "replace" or a1 - a0 > 3 or b1 - b0 > 3:
            continue
        ours_e = [claim_tokens[i][1] for i in range(a0, a1) if _is_entity(claim_tokens[i][1], i)
                  and claim_words[i] not in quote_set]
        theirs_e = [quote_tokens[i][1] for i in range(b0, b1) if _is_entity(quote_tokens[i][1], i)
                    and quote_words[i] not in claim_set]
        if ours_e and theirs_e and (ours_e[0].lower(), theirs_e[0].lower()) not in swaps:
            swaps.append((ours_e[0], theirs_e[0]))
    return tuple(swaps)


def negation_cues(text: str) -> list[str]:
    """Negating words in `text`; bounds such as "no later than" and "not to exceed" are not negations."""
    cleaned = _NEGATION_EXEMPT.sub(" ", text)
    cues = [m.group(0).lower() for m in _NEGATION_RE.finditer(cleaned)]
    if "neither" in cues:  # "neither ... nor" negates once
        cues = [c for c in cues if c != "nor"]
    return cues


def is_negated(text: str) -> bool:
    """Whether `text` has negative polarity: an odd number of negation cues ("not ... without" cancels out)."""
    return len(negation_cues(text)) % 2 == 1
