"""Words of a claim and its evidence: key terms, negation and swapped terms.

Pure functions for the local support checker. Key terms are content words with light (Porter) stemming;
figures are left to `ledger.text.quantities`. A swap is the evidence saying the same thing about another
entity, role, department or period ("CFO" for "CEO", "Finance" for "Legal", "quarterly" for "annually").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from nltk.stem.porter import PorterStemmer

_STEMMER = PorterStemmer()

# Function words, auxiliaries and modals: they carry no topic, and modality is not what the terms compare.
_STOPWORDS = """a an the of in on at to for from by with and or but nor is are was were be been being am as that
this these those it its it's their theirs his her hers our ours your yours my we you they he she them us i me who whom
whose which what when where while why how if then than so such per each every any all some both either within up
into onto over under out about also only just very more most less least much many other others same own do does did
done doing has have having had must may might can could will would shall should need needs needed ought there here
once upon via etc e g ie eg about around approximately roughly nearly almost circa get gets got getting make makes
made take takes took come comes came go goes went after before during through"""
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
    r"|\bwhether\s+or\s+not\b|\bno\s+matter\b|\bif\s+not\b|\bnot\s+even\b"
    # A negation inside a relative clause narrows the subject ("an employee who is not fully remote") and does
    # not deny the statement.
    r"|\b(?:who|that|which)\s+(?:(?:is|are|was|were|has|have|had|do|does|did|will|would|can|may)\s+)?(?:not|never)\b"
    r"|\b(?:who|that|which)\s+\w+n['’]t\b",
    re.IGNORECASE,
)
_SHORT_SCOPE = ("rather than", "instead of", "without")  # these negate the next phrase only
_NEGATION_RE = re.compile(
    r"\b(?:not|no|never|cannot|none|nobody|nothing|neither|without|prohibited|forbidden|banned|disallowed|blocked"
    r"|barred|ineligible|unable|unpaid|unauthori[sz]ed|unapproved|non-\w+|rather\s+than|instead\s+of)\b|n['’]t\b",
    re.IGNORECASE,
)
# Adjectives that negate the statement only as its predicate ("Smoking is prohibited", not "prohibited items";
# "fares are non-refundable", not "non-critical systems"); their scope reaches back to what they negate.
_POSTPOSITIVE = ("prohibited", "forbidden", "banned", "disallowed", "blocked", "barred", "ineligible", "unpaid",
                 "unauthorised", "unauthorized", "unapproved", "non-")
_PREDICATE = re.compile(r"\b(?:is|are|be|been|being|was|were|remains?|becomes?|considered|deemed|strictly|always)\s+$",
                        re.IGNORECASE)
# "may not be deleted, changed or moved": every item of the list is what is negated.
_LIST = re.compile(r"\s*(?:be\s+)?(\w+(?:\s*,\s*\w+)*\s*,?\s+(?:or|and|nor)\s+\w+)")
_CLAUSE_END = re.compile(r"[.;…:]")

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
    "in person": "in_person", "video call": "video_call",
    "r&d": "r_and_d", "research and development": "r_and_d", "g&a": "g_and_a", "general and administrative": "g_and_a",
}
_PHRASE_RE = re.compile(r"\b(?:" + "|".join(re.escape(p).replace(r"\ ", r"[\s-]+") for p in
                                            sorted(_PHRASES, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_CANONICAL = {"yearly": "annually", "annual": "annually", "biweekly": "fortnightly", "semiannually": "biannually",
              "maximum": "max", "minimum": "min", "reduce": "decrease", "verbal": "oral", "denied": "reject",
              "deny": "reject", "declined": "reject", "compulsory": "mandatory", "required": "mandatory"}
# Sets of mutually exclusive alternatives: the evidence naming another member than the claim is a swap.
_CONTRAST_SETS = (
    "daily weekly fortnightly monthly quarterly annually biannually",
    "ceo cfo coo cto cio ciso vp controller department_head manager team_lead director agent",
    "finance legal hr procurement compliance sales marketing engineering",
    "economy_class premium_economy business_class first_class",
    "before after", "max min", "increase decrease", "domestic international", "internal external",
    "written oral", "full_time part_time", "public internal confidential restricted", "approve reject",
    "mandatory optional", "employee contractor", "permanent temporary", "in_person video_call",
)


def stem(word: str) -> str:
    """Porter stem of a lower-cased word; joined names ("department_head") stay as they are."""
    return word if "_" in word else _STEMMER.stem(word.lower())


def term_stem(word: str) -> str:
    """The stem a key term is compared by: Porter keeps "voluntarily" apart from "voluntary", so -ly goes first."""
    lower = word.lower()
    return stem(lower[:-2]) if lower.endswith("ly") and len(lower) >= 7 and "_" not in lower else stem(lower)


_CONTRASTS = tuple(frozenset(stem(w) for w in s.split()) for s in _CONTRAST_SETS)


@lru_cache(maxsize=8192)
def _canonical_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(canonical stem, surface) pairs; a multi-word name is one token whose surface is the phrase as written."""
    originals: dict[str, str] = {}

    def join(m: re.Match[str]) -> str:
        token = _PHRASES[re.sub(r"[\s-]+", " ", m.group(0).lower())]
        originals.setdefault(token, m.group(0))
        return " " + token + " "

    out = []
    for m in _WORD_RE.finditer(_PHRASE_RE.sub(join, text)):
        surface = m.group(0)
        word = surface.lower().strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        out.append((stem(_CANONICAL.get(word, word)), originals.get(surface, surface)))
    return tuple(out)


@lru_cache(maxsize=16384)
def key_terms(text: str) -> tuple[str, ...]:
    """Stems of the content words of `text`, in order, without stopwords, figures or negation words."""
    terms = []
    for word, surface in _canonical_tokens(text.replace("_", " ")):
        lower = surface.lower()
        if lower in FIGURE_WORDS or lower in _NEGATION_WORDS or lower[0].isdigit() or len(lower) < 2:
            continue
        if lower in STOPWORDS and not surface.isupper():  # "IT" the team is a term, "it" the pronoun is not
            continue
        if lower.endswith("ly") and len(lower) >= 7 and "_" not in word:
            word = term_stem(lower)  # "voluntarily" is about being voluntary, "monthly" about a month
        terms.append(word)
    return tuple(dict.fromkeys(terms))


def coverage(claim_terms: tuple[str, ...], quote_terms: tuple[str, ...]) -> tuple[float, tuple[str, ...]]:
    """Share of the claim's key terms the quote contains (1.0 when the claim has none), and the missing ones."""
    if not claim_terms:
        return 1.0, ()
    present = set(quote_terms)
    missing = tuple(t for t in claim_terms if t not in present)
    return 1.0 - len(missing) / len(claim_terms), missing


def _entity_runs(text: str) -> list[tuple[frozenset[str], str]]:
    """Names in a sentence: runs of capitalised words or acronyms, and known roles and teams ("Head of Procurement")."""
    tokens = _canonical_tokens(text)
    runs: list[tuple[frozenset[str], str]] = []
    current: list[tuple[str, str]] = []

    def named(i: int) -> bool:
        word, surface = tokens[i]
        if re.sub(r"[\s-]+", " ", surface.lower()) in _PHRASES:
            return True  # a known role or team, however it is capitalised
        if len(surface) >= 2 and surface.isupper() and surface.isalpha():
            return True
        capital = surface[:1].isupper() and surface[1:].islower() and surface.lower() not in STOPWORDS
        # A capital opening the sentence is only a name when the next word is capitalised too ("Finance Operations").
        return capital and (i > 0 or (len(tokens) > 1 and tokens[1][1][:1].isupper()))

    for i in range(len(tokens) + 1):
        if i < len(tokens) and (named(i) or (current and tokens[i][1] in ("of", "and", "&") and i + 1 < len(tokens)
                                              and named(i + 1))):
            current.append(tokens[i])
            continue
        if current:
            words = frozenset(w for w, s in current if s not in ("of", "and", "&"))
            runs.append((words, " ".join(s for _, s in current)))
            current = []
    return runs


def find_swaps(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim term, quote term) pairs where the quote names another alternative or entity in the claim's place.

    Known alternatives (roles, departments, periods, classes) swap when the claim's member is missing from the
    quote and another member is present; other names swap when a name of the claim is missing from the quote
    while the quote has a name the claim lacks.
    """
    claim_tokens, quote_tokens = _canonical_tokens(claim), _canonical_tokens(quote)
    claim_set, quote_set = {w for w, _ in claim_tokens}, {w for w, _ in quote_tokens}
    surfaces = {w: s for w, s in (*quote_tokens, *claim_tokens)}
    swaps: list[tuple[str, str]] = []
    for contrast in _CONTRASTS:
        ours, theirs = (claim_set & contrast) - quote_set, (quote_set & contrast) - claim_set
        if ours and theirs:
            swaps.append((surfaces[min(ours)], surfaces[min(theirs)]))
    taken = {w for pair in swaps for w in key_terms(" ".join(pair))}
    missing = [(ws, s) for ws, s in _entity_runs(claim) if ws and not ws <= quote_set and not ws & taken]
    extra = [(ws, s) for ws, s in _entity_runs(quote) if ws and not ws & claim_set and not ws & taken]
    if missing and extra:
        swaps.append((missing[0][1], extra[0][1]))
    return tuple(swaps)


def negation_scopes(text: str) -> list[tuple[str, tuple[str, ...], frozenset[str]]]:
    """Each negation cue, the key terms it negates (nearest first) and its heads: the word it negates first, or
    every item of a list it negates. The scope is the next few words of the clause, and for predicate adjectives
    ("Smoking is prohibited") the few words before too."""
    cleaned = _NEGATION_EXEMPT.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for m in _NEGATION_RE.finditer(cleaned):
        cue = m.group(0).lower()
        adjective = cue.startswith(_POSTPOSITIVE)
        if adjective and not _PREDICATE.search(cleaned[max(0, m.start() - 30):m.start()]):
            continue
        after = _CLAUSE_END.split(cleaned[m.end():m.end() + 80])[0]
        scope = key_terms(after)[:2 if cue.startswith(_SHORT_SCOPE) else 4]
        if adjective:
            scope = key_terms(_CLAUSE_END.split(cleaned[max(0, m.start() - 60):m.start()])[-1])[-4:][::-1] + scope
        if cue.startswith("non-"):
            scope = (stem(cue[4:]), *scope)
        listed = _LIST.match(after)
        heads = frozenset(key_terms(listed.group(1))) if listed and not adjective else frozenset(scope[:1])
        out.append((cue, scope, heads))
    return out


def polarity(text: str, other_terms: Iterable[str], loose: bool = False) -> tuple[bool, int]:
    """(negated, anchor) of `text` against the other side's terms.

    Only negations that bear on those terms count (their head is one of the terms, or two of their words are;
    any one when `loose`): a "never" in a clause about something else leaves the polarity alone. `anchor` is
    how many of the terms the strongest negation covers when its head is one of them ("may not investigate a
    suspected incident" against a claim about investigating).
    """
    others = set(other_terms)
    relevant = [(scope, heads) for _, scope, heads in negation_scopes(text)
                if heads & others or len(set(scope) & others) >= (1 if loose else 2)]
    anchor = max((len(set(scope) & others) for scope, heads in relevant if heads & others), default=0)
    return len(relevant) % 2 == 1, anchor


def negation_cues(text: str) -> list[str]:
    """Negating words in `text`; bounds such as "no later than" and "not to exceed" are not negations."""
    return [cue for cue, _, _ in negation_scopes(text)]


def is_negated(text: str) -> bool:
    """Whether `text` has negative polarity: an odd number of negation cues ("not ... without" cancels out)."""
    return len(negation_cues(text)) % 2 == 1
