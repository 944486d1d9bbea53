"""Words of a claim and its evidence: key terms, negation and swapped terms.

Pure functions for the local support checker. Key terms are content words with light (Porter) stemming;
figures are left to `ledger.text.quantities`. A swap is the evidence saying the same thing about another
named entity or alternative ("Dana" for "Lee", "quarterly" for "annually", "internal" for "external"). The word
lists (stopwords, negation cues, phrases, synonyms, contrast sets) are the lexicon's (`ledger.text.lexicon`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from ledger.text.alignment import in_one_slot, slots
from ledger.text.lexicon import LiveWords, lexicon
from ledger.text.nltk_parts import PorterStemmer

_STEMMER = PorterStemmer()
# A code of capitals and digits ("E2", "C4", "A321neo", "PM10") is one word: "Error E2" is not "Error E4".
_WORD_RE = re.compile(r"[A-Z]+\d+[A-Za-z\d]*(?![\d.,]*\d)|[A-Za-z][A-Za-z_']*|\d[\d,.]*")
# A negation inside a relative clause narrows the subject ("a member who is not on leave") and does not deny the
# statement; the lexicon's exemptions are the bounds and conditions ("no later than", "not to exceed"). After a
# comma the clause narrows nothing: it states a fact of its own ("the quote, which was not the cheapest").
_RELATIVE_NEGATION = (
    r"(?<![,;]\s)\b(?:who|that|which)\s+(?:(?:is|are|was|were|has|have|had|do|does|did|will|would|can|may)\s+)?"
    r"(?:not|never|no\s+longer)\b"
    r"|(?<![,;]\s)\b(?:who|that|which)\s+\w+n['’]t\b"
)
_PREDICATE = re.compile(r"\b(?:is|are|be|been|being|was|were|remains?|becomes?|considered|deemed|strictly|always)\s+$",
                        re.IGNORECASE)
# "may not be copied, shared or sold": every item of the list is what is negated.
_LIST = re.compile(r"\s*(?:be\s+)?(\w+(?:\s*,\s*\w+)*\s*,?\s+(?:or|and|nor)\s+\w+)")
_CLAUSE_END = re.compile(r"[.;…:]")
# Where one clause of a sentence ends and another begins, for counting negations.
# (a clause joined by "and"/"or"/"but" that opens with a negation is a clause of its own even without a comma: "No
# data was lost and no card data was exposed" is negated twice over, not double negation that cancels)
_CLAUSE_BREAK = re.compile(r"[.;…:]|,\s*(?:and|but|or|while|whereas)\b|\s(?:and|but|or)\s+(?=(?:no|not|never)\s)",
                           re.IGNORECASE)
# (... and so is one whose negation comes a word or two after the "and": "must not feed the deer and must not enter
# the meadow" forbids both, where "cannot enter and park without a permit" is one clause that cancels out)
# (not after a figure: "Students aged 22 or over are not eligible" is one clause)
_COORDINATED = re.compile(r"(?<![\d%])\s(?:and|but|or)\s+(?:[\w’'-]+\s+){1,2}$", re.IGNORECASE)
_AFFIRMED = re.compile(r"\b(?:but|whereas)\b", re.IGNORECASE)
_PHRASE_END = re.compile(r"[.;…:,]|\b(?:and|but|or|while|whereas)\b", re.IGNORECASE)


def phrase_pattern(phrases: Iterable[str]) -> str:
    """A regular expression alternation of phrases, longest first, any run of spaces or hyphens between words."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "|".join(re.escape(p).replace(r"\ ", r"[\s-]+") for p in ordered) or r"(?!x)x"


@dataclass(frozen=True)
class _Rules:
    """The word lists of this module, from the lexicon in force."""

    stopwords: frozenset[str]
    figure_words: frozenset[str]
    negation_words: frozenset[str]
    exempt: re.Pattern[str]
    negation: re.Pattern[str]
    postpositive: tuple[str, ...]
    short_scope: tuple[str, ...]
    phrases: Mapping[str, str]
    phrase_re: re.Pattern[str]
    canonical: Mapping[str, str]
    contrasts: tuple[frozenset[str], ...]
    converses: frozenset[frozenset[str]]  # contrasts.toml `converses`, as compared: {"buy", "sell"}
    up: frozenset[str]  # contrasts.toml directions_up, as compared (canonical stems): "increase", "higher"
    down: frozenset[str]  # ... directions_down: "decrease", "lower"
    cessation: frozenset[str]  # "stopped" (offering): negates its gerund alone ("quit farming and opened a shop")
    prefixes: tuple[str, ...]  # negative prefixes ("un", "dis"): "unguarded" denies "guarded"
    age_markers: frozenset[str]  # "old" after "year": part of an age
    exception: re.Pattern[str]  # negation.toml `restricting`: "unless", "except", ...
    # negation.toml: what a denial of each group of words (stems: "chang", "rise", ...) says in plain words ("stays
    # the same", "unchanged", ...): `changing`/`unchanged`, `added`/`usual`, `paying`/`free`
    restated: tuple[tuple[frozenset[str], re.Pattern[str]], ...]
    universal: re.Pattern[str]  # conditions.toml `universal`: "always", "however many", "any", ...
    alike: Mapping[str, frozenset[str]]  # conditions.toml `universal_alike`: each word of a group, and its group
    whatever_after: re.Pattern[str]  # conditions.toml `any_as_whatever_after`, ending a text: "before", "plus"
    concessive: re.Pattern[str]  # conditions.toml `concessive` at the end of a text: "even" (if)
    condition: re.Pattern[str]  # conditions.toml `restricting`: "only if", "whichever comes first", ...
    every: re.Pattern[str]  # conditions.toml `every`: "every", "all", "each"
    partial: re.Pattern[str]  # conditions.toml `partial`: "a sample of", "some", "most"
    days: re.Pattern[str]  # days of the week, as a condition: "on Fridays", "from Monday"


@cache
def _rules() -> _Rules:
    lex = lexicon()
    figure_words = frozenset().union(
        *(lex.words("numbers", n) for n in ("units", "tens", "scales", "times")),
        *(lex.words("figures", n) for n in ("units", "unit_modifiers", "currencies", "markers")),
        lex.words("calendar", "months"), lex.words("calendar", "weekdays"),
        lex.table("numbers", "times_of_day"),  # "noon", "midnight": a time, as "12:00" is
    )
    cues, predicate = lex.words("negation", "cues"), lex.words("negation", "predicate")
    short_scope = lex.words("negation", "short_scope")
    denying = lex.words("negation", "denying")
    words = phrase_pattern((*cues, *lex.words("negation", "preceding"), *denying, *predicate, *short_scope))
    cessation = phrase_pattern(lex.words("negation", "cessation"))  # only before a gerund: "stopped offering"
    phrases = lex.table("synonyms", "phrases")
    canonical = lex.table("synonyms", "canonical")
    return _Rules(
        stopwords=lex.word_set("stopwords", "key_terms"),
        figure_words=figure_words,
        negation_words=frozenset(cues) | {"n't"},
        exempt=re.compile(rf"\b(?:{phrase_pattern(lex.words('negation', 'exemptions'))})\b|{_RELATIVE_NEGATION}"
                          r"|\bno\.(?=\s?\d)", re.IGNORECASE),  # (and "No. 14": a number's label)
        negation=re.compile(rf"\b(?:{words}|non-\w+|(?:{cessation})(?=\s+\w+ing\b))\b|n['’]t\b", re.IGNORECASE),
        postpositive=(*predicate, "non-"),
        short_scope=(*short_scope, *denying, *lex.words("negation", "cessation")),
        cessation=lex.word_set("negation", "cessation"),
        phrases=phrases,
        phrase_re=re.compile(rf"\b(?:{phrase_pattern(phrases)})\b", re.IGNORECASE),
        canonical=canonical,
        contrasts=tuple(frozenset(stem(w) for w in s) for s in lex.groups("contrasts", "sets")),
        converses=frozenset(frozenset(stem(canonical.get(w, w)) for w in s) for s in lex.groups("contrasts",
                                                                                                  "converses")),
        up=frozenset(stem(canonical.get(w, w)) for w in lex.words("contrasts", "directions_up")),
        down=frozenset(stem(canonical.get(w, w)) for w in lex.words("contrasts", "directions_down")),
        prefixes=tuple(sorted(lex.words("negation", "prefixes"), key=len, reverse=True)),
        age_markers=lex.word_set("figures", "age_markers"),
        exception=_words_re(lex.words("negation", "restricting")),
        restated=tuple((frozenset(" ".join(stem(w) for w in p.split()) for p in lex.words("negation", denied)),
                        _words_re(lex.words("negation", plain)))
                       for denied, plain in (("changing", "unchanged"), ("added", "usual"), ("paying", "free"))),
        universal=_words_re(lex.words("conditions", "universal")),
        alike={w: frozenset(group) for group in lex.groups("conditions", "universal_alike") for w in group},
        whatever_after=re.compile(rf"\b(?:{phrase_pattern(lex.words('conditions', 'any_as_whatever_after'))})\s+$",
                                  re.IGNORECASE),
        condition=_words_re(lex.words("conditions", "restricting")),
        concessive=re.compile(rf"\b(?:{phrase_pattern(lex.words('conditions', 'concessive'))})\s*$", re.IGNORECASE),
        every=_words_re(lex.words("conditions", "every")),
        partial=_words_re(lex.words("conditions", "partial")),
        days=re.compile(rf"(?:on\s+|from\s+)?\b(?:{phrase_pattern(lex.words('calendar', 'weekdays'))})s?\b",
                        re.IGNORECASE),
    )


def _words_re(words: Iterable[str]) -> re.Pattern[str]:
    """Any of the words or phrases, as whole words, in any case."""
    return re.compile(rf"\b(?:{phrase_pattern(words)})\b", re.IGNORECASE)


# Function words (lexicon stopwords.toml); figures.py and numbers.py read them by this name.
STOPWORDS = LiveWords(lambda: _rules().stopwords)
# Words that quantities.py compares as figures; counting them again as terms would double-penalise "48 hours" vs
# "2 days".
FIGURE_WORDS = LiveWords(lambda: _rules().figure_words)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Porter stem of a lower-cased word; joined phrases ("full_time") stay as they are. Remembered: a judge's
    round stems the same few thousand words tens of thousands of times."""
    return word if "_" in word else _STEMMER.stem(word.lower())


def term_stem(word: str) -> str:
    """The stem a key term is compared by: its canonical form's ("failed" is "failure", as in `key_terms`), and -ly
    goes first (Porter keeps "voluntarily" apart from "voluntary")."""
    lower = word.lower()
    lower = _rules().canonical.get(lower, lower)
    return stem(lower[:-2]) if lower.endswith("ly") and len(lower) >= 7 and "_" not in lower else stem(lower)


@lru_cache(maxsize=8192)
def _canonical_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(canonical stem, surface) pairs; a multi-word name is one token whose surface is the phrase as written."""
    rules, originals = _rules(), dict[str, str]()

    def join(m: re.Match[str]) -> str:
        token = rules.phrases[" ".join(re.split(r"[\s-]+", m.group(0).lower()))]
        originals.setdefault(token, m.group(0))
        return " " + token + " "

    out = []
    for m in _WORD_RE.finditer(rules.phrase_re.sub(join, text.replace("’", "'"))):  # (a curly apostrophe too)
        surface = m.group(0)
        word = surface.lower().strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        out.append((stem(rules.canonical.get(word, word)), originals.get(surface, surface)))
    return tuple(out)


_CLITIC = re.compile(r"'(?:ll|re|ve|d|m)$")  # a verb joined to the word before it


@lru_cache(maxsize=16384)
def _key_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(stem, surface) of the content words of `text`, in order and repeated as written."""
    rules, tokens, previous = _rules(), [], ""
    for word, surface in _canonical_tokens(text.replace("_", " ")):
        lower = surface.lower().replace("’", "'")
        if lower.endswith("n't"):
            continue  # an auxiliary denied ("doesn't", "won't"): a function word and a negation, no topic
        if (clitic := _CLITIC.search(lower)) is not None:  # "you'll" is "you", "we've" "we"
            lower, word = lower[:clitic.start()], stem(lower[:clitic.start()])
        after_unit, previous = previous in rules.figure_words, lower
        if lower in rules.figure_words or lower in rules.negation_words or lower[0].isdigit() or len(lower) < 2:
            continue
        if after_unit and lower in rules.age_markers:  # "seven-year-old": the age is a figure, "old" is part of it
            continue
        if lower in rules.stopwords and not surface.isupper():  # "IT" the acronym is a term, "it" the pronoun not
            continue
        if " " in lower and all(w in rules.stopwords for w in lower.split()):  # "up from" names a change, no topic
            continue
        if lower.endswith("ly") and len(lower) >= 7 and "_" not in word:
            word = term_stem(lower)  # "voluntarily" is about being voluntary, "monthly" about a month
        tokens.append((word, surface))
    return tuple(tokens)


def key_words(text: str) -> tuple[tuple[str, str], ...]:
    """(stem, word as written where the text first has it) of the content words of `text`, in `key_terms`' order."""
    first: dict[str, str] = {}
    for term, surface in _key_tokens(text):
        first.setdefault(term, surface)
    return tuple(first.items())


@lru_cache(maxsize=16384)
def key_terms(text: str) -> tuple[str, ...]:
    """Stems of the content words of `text`, in order, without stopwords, figures or negation words."""
    return tuple(dict.fromkeys(term for term, _ in _key_tokens(text)))


def unstated_tail(claim: str, quote: str) -> tuple[str, ...]:
    """The content words that end the claim, as written, back to the last one the quote has: what a claim adds at
    its end ("..., reportedly of a fever", "... because the roof is being repaired") when the quote lacks them all.
    Figures and stopwords are skipped, not counted, and so is a word the claim said before ("... reads log files
    directly, including files compressed with gzip" adds three words). Pure."""
    said = set(key_terms(quote))
    tail: list[str] = []
    for term, surface in reversed(key_words(claim)):
        if term in said:
            break
        tail.append(surface)
    return tuple(reversed(tail))


def coverage(claim_terms: tuple[str, ...], quote_terms: tuple[str, ...]) -> tuple[float, tuple[str, ...]]:
    """Share of the claim's key terms the quote contains (1.0 when the claim has none), and the missing ones."""
    if not claim_terms:
        return 1.0, ()
    present = set(quote_terms)
    missing = tuple(t for t in claim_terms if t not in present)
    return 1.0 - len(missing) / len(claim_terms), missing


def _entity_runs(text: str) -> list[tuple[frozenset[str], str]]:
    """Names in a sentence: runs of capitalised words or acronyms ("Board of Trustees", "NASA"); a quote's heading
    and the sentence under it ("Speeding on Park Avenue … Leo Fischer will write") are read apart, and so are names
    a comma, colon or bracket parts ("Mr Gareth Price, Head of Research Finance, University of Northmoor")."""
    return [run for part in _RUN_BREAK.split(text)
            for n, piece in enumerate(_NAME_BREAK.split(part)) for run in _sentence_runs(piece, opening=n == 0)]


def _titled_apart(ours: str, theirs: str) -> bool:
    """Whether two names open with one title and share nothing else ("Cllr Adeyemi", "Cllr Lindqvist"; the lexicon's
    `honorifics`): two people."""
    a, b = ours.lower().split(), theirs.lower().split()
    titles = lexicon().word_set("stopwords", "honorifics")
    return len(a) >= 2 and len(b) >= 2 and a[0] == b[0] and a[0].rstrip(".") in titles and not set(a[1:]) & set(b[1:])


_RUN_BREAK = re.compile(r"\s…\s|\n+")
_NAME_BREAK = re.compile(r"[,;:()]\s|\s[-–—]\s")


def _sentence_runs(text: str, opening: bool = True) -> list[tuple[frozenset[str], str]]:
    tokens, stopwords = _canonical_tokens(text), _rules().stopwords
    runs: list[tuple[frozenset[str], str]] = []
    current: list[tuple[str, str]] = []

    def named(i: int) -> bool:
        surface = tokens[i][1]
        if len(surface) >= 2 and surface.isupper() and surface.isalpha():
            return True
        if surface[:1].isupper() and any(ch.isdigit() for ch in surface):
            return True  # a code: "E2", "C4"
        capital = surface[:1].isupper() and surface[1:].islower() and surface.lower() not in stopwords
        # A capital opening the sentence is only a name when the next word is capitalised too ("Harbour Authority").
        return capital and (i > 0 or not opening or (len(tokens) > 1 and tokens[1][1][:1].isupper()))

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


def _initials(name: str) -> str:
    """The initials of a name of several words, small words left out: "Board of Trustees" → "bt"."""
    words = [w for w in re.split(r"[\s-]+", name) if w and w.lower() not in ("of", "and", "&", "the", "for")]
    return "".join(w[0] for w in words).lower() if len(words) > 1 else ""


def _abbreviated(name: str, runs: list[tuple[frozenset[str], str]]) -> bool:
    """Whether a name of `runs` is `name` under another spelling: as an acronym or spelled out ("NASA", "National …
    Administration"), in part ("Ukrainian SSR", "Ukrainian Soviet Socialist Republic"), or misspelt by one letter
    ("Chief Minster" for "Chief Minister")."""
    return any(_same_name(name, other) for _, other in runs)


def _same_name(one: str, other: str) -> bool:
    a, b = one.split(), other.split()
    if (titled := _titled(a, b)) is not None:
        return titled
    while a and b and a[0].lower() == b[0].lower():  # the words both spell out are no difference
        a, b = a[1:], b[1:]
    if not a or not b:
        return False
    rest_a, rest_b = " ".join(a), " ".join(b)
    if rest_a.isupper() and len(rest_a) >= 2 and _initials(rest_b) == rest_a.lower():
        return True
    if rest_b.isupper() and len(rest_b) >= 2 and _initials(rest_a) == rest_b.lower():
        return True
    return len(a) == len(b) and all(_one_letter_apart(x.lower(), y.lower()) for x, y in zip(a, b, strict=True))


def _titled(a: list[str], b: list[str]) -> bool | None:
    """Whether two names, one or both after a title, are one person's ("Mrs Ellery", "Margaret Ellery"; "Dr Menon",
    "Dr Rahul Menon"): the shorter ends the longer; None when neither has a title, or both have different ones
    ("Mr Hale", "Mrs Hale")."""
    titles = lexicon().word_set("stopwords", "honorifics")
    ta, tb = bool(a) and a[0].lower().rstrip(".") in titles, bool(b) and b[0].lower().rstrip(".") in titles
    if not (ta or tb) or (ta and tb and a[0].lower().rstrip(".") != b[0].lower().rstrip(".")):
        return None
    short, long = sorted((a[1:] if ta else a, b[1:] if tb else b), key=len)
    return bool(short) and [w.lower() for w in long[len(long) - len(short):]] == [w.lower() for w in short]


def _one_letter_apart(x: str, y: str) -> bool:
    """The same word but for one letter left out, added or changed (words of five letters or more)."""
    if x == y:
        return True
    if min(len(x), len(y)) < 5 or abs(len(x) - len(y)) > 1:
        return False
    if len(x) == len(y):
        return sum(c != d for c, d in zip(x, y, strict=True)) == 1
    short, long = sorted((x, y), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _after_unit(tokens: tuple[tuple[str, str], ...], word: str) -> bool:
    """Whether `word` (a canonical stem) follows a unit wherever the tokens have it: "ten weeks before you leave" is a
    lead time, which "after the balance due date" is no rival of (two words in two roles)."""
    return any(w == word and n and tokens[n - 1][1].lower() in _rules().figure_words for n, (w, _) in enumerate(tokens))


def _passive(text: str, word: str) -> bool:
    """Whether `word` is a past participle of the passive voice in `text` ("are sold", "can be bought")."""
    return re.search(rf"\b(?:is|are|was|were|be|been|being)\s+(?:\w+ly\s+)?{re.escape(word)}\b", text,
                     re.IGNORECASE) is not None


def find_swaps(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim term, quote term) pairs where the quote names another alternative or entity in the claim's place.

    Known alternatives (the lexicon's contrast sets: periods, bounds, directions) swap when the claim's member is
    missing from the quote and another member is present; other names swap when a name of the claim is missing
    from the quote while the quote has a name the claim lacks in its place (the two sentences aligned, the names in
    one slot). A name and its acronym are the same name.
    """
    claim_tokens, quote_tokens = _canonical_tokens(claim), _canonical_tokens(quote)
    claim_set, quote_set = {w for w, _ in claim_tokens}, {w for w, _ in quote_tokens}
    surfaces = {w: s for w, s in (*quote_tokens, *claim_tokens)}
    swaps: list[tuple[str, str]] = []
    for contrast in _rules().contrasts:
        ours, theirs = (claim_set & contrast) - quote_set, (quote_set & contrast) - claim_set
        if ours and theirs and not (contrast in _rules().converses and (
                _passive(claim, surfaces[min(ours)]) or _passive(quote, surfaces[min(theirs)]))) and (
                _after_unit(claim_tokens, min(ours)) == _after_unit(quote_tokens, min(theirs))):
            swaps.append((surfaces[min(ours)], surfaces[min(theirs)]))
    taken = {w for pair in swaps for w in key_terms(" ".join(pair))}
    claim_runs, quote_runs = _entity_runs(claim), _entity_runs(quote)
    missing = [(ws, s) for ws, s in claim_runs
               if ws and not ws <= quote_set and not ws & taken and not _abbreviated(s, quote_runs)]
    # A name of the quote the claim lacks: one it does not mention at all, or another name that shares words with
    # one of the claim's ("Southern Water Board" for "Northern Water Board"), which it then replaces.
    extra = [(ws, s) for ws, s in quote_runs
             if ws and not ws <= claim_set and not ws & taken and not _abbreviated(s, claim_runs)
             and (not ws & claim_set or any(ws & m and not ws >= m for m, _ in missing))]
    # The rival name must stand in the claim's name's place (one slot of the aligned sentences): a quote that only
    # mentions other names ("She is a Gem, ..." for "Pearl is ...") swaps nothing.
    placed = [(name, rival) for name in missing for rival in extra if in_one_slot(claim, quote, name[1], rival[1])]
    if not placed:  # each opens its sentence as its subject, one title before two names: "Cllr Adeyemi, who …,
        # confirmed" against "Cllr Lindqvist reported that he had checked": the one who did it
        placed = [(name, rival) for name in missing[:1] for rival in extra[:1]
                  if claim.lstrip().startswith(name[1]) and any(
                      part.lstrip().startswith(rival[1]) for part in _RUN_BREAK.split(quote))  # (under a heading)
                  and _titled_apart(name[1], rival[1])]
    if placed:
        # the rival sharing most words with the name, then one of as many words ("Leo Fischer" for "Maria Duarte",
        # not the heading's "Speeding" above it)
        name, rival = max(placed, key=lambda pair: (len(pair[1][0] & pair[0][0]),
                                                    len(pair[1][1].split()) == len(pair[0][1].split()),
                                                    min(len(pair[1][1].split()), len(pair[0][1].split()))))
        swaps.append((name[1], rival[1]))
    return tuple(swaps)


def _moves(text: str) -> dict[str, list[str]]:
    """The words of a text that name a move or comparison, by way ("up", "down"): (canonical stem, as written)."""
    rules = _rules()
    tokens = _canonical_tokens(text)
    return {way: [s for w, s in tokens if w in words] for way, words in (("up", rules.up), ("down", rules.down))}


def _one_way(moves: dict[str, list[str]]) -> str | None:
    """The one way a text's moves go, or None for none or both."""
    ways = [way for way, words in moves.items() if words]
    return ways[0] if len(ways) == 1 else None


def opposite_direction(claim: str, quote: str) -> tuple[str, str] | None:
    """(claim's word, quote's word) when the claim speaks of a move or comparison one way only and the quote the
    other way only: "a higher fee from May" against "the fee will fall from £40 to £35", "a smaller discount"
    against "the discount will rise" (the lexicon's `directions_up` / `directions_down`, any form). Pure."""
    ours, theirs = _moves(claim), _moves(quote)
    said, answered = _one_way(ours), _one_way(theirs)
    if said is not None and answered is not None and said != answered:
        return ours[said][0], theirs[answered][0]
    signed = signed_change(claim, quote)
    if signed is not None and not signed[0] and not any(theirs.values()):
        return signed[1], signed[2]
    return None


def direction_stems() -> frozenset[str]:
    """The compared stems of the words of a move or comparison, either way ("increase", "decrease", "higher")."""
    return _rules().up | _rules().down


def same_direction(claim: str, quote: str) -> bool:
    """Whether the claim speaks of a move one way only and the quote that way only, in words or as a signed share:
    "Net debt fell to £118 million" and "£118 million, down from £131 million". Pure."""
    said = _one_way(_moves(claim))
    if said is not None and said == _one_way(_moves(quote)):
        return True
    signed = signed_change(claim, quote)
    return signed is not None and signed[0]


def signed_change(claim: str, quote: str) -> tuple[bool, str, str] | None:
    """(agrees, claim's word, quote's figure) when the quote gives a change of the claim's as a signed share or amount
    ("Change: −28%" for "fell by 28%": it agrees; for "rose by 28%" it goes the other way; "-483 kWh" for "rose by
    483 kWh") and the claim names its direction one way only. Pure."""
    rules = _rules()
    ours = _canonical_tokens(claim)
    shares = {m.group(1).replace(",", "") for m in _SHARE.finditer(claim)}
    amounts = {m.group(0).replace(",", "") for m in _NUMBER.finditer(claim)}
    signed = [(m, shares) for m in _SIGNED_SHARE.finditer(quote)] + [
        (m, amounts) for m in _SIGNED_AMOUNT.finditer(quote)]  # "-483 kWh" for "rose by 483 kWh"
    for m, said in signed:
        if m.group(2).replace(",", "") not in said:
            continue
        up = [s for w, s in ours if w in rules.up]
        down = [s for w, s in ours if w in rules.down]
        if bool(up) != bool(down):
            return (m.group(1) == "+") == bool(up), (up or down)[0], m.group(0).strip()
    return None


_SHARE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?%")
_SIGNED_SHARE = re.compile(r"(?:^|(?<=[\s(:;]))([+−–-])\s?(\d[\d,]*(?:\.\d+)?)\s?%")
# a signed amount in a unit, the sign right before it: "-483 kWh", "+£2.3m" (not "10 - 20", a range)
_SIGNED_AMOUNT = re.compile(r"(?:^|(?<=[\s(:;]))([+−–-])[£$€]?(\d[\d,]*(?:\.\d+)?)(?=\s?[A-Za-zµ£$€])")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def crossed_slots(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim words, quote words) where the quote puts two of the claim's parts in each other's places ("A won,
    outsprinting B" against "B won, outsprinting A"; "good at A but poor at B" against "good at B but poor at A").
    Pure.

    Two replaced slots of one alignment cross when the key terms of each slot of the claim are all in the other slot
    of the quote. Coordination ("A and B" against "B and A") and the passive voice do not align as two replaced
    slots, so they are not read as crossed.
    """
    found = slots(claim, quote)
    out = []
    for n, first in enumerate(found):
        for second in found[n + 1:]:
            a, b = set(key_terms(" ".join(first.ours))), set(key_terms(" ".join(second.ours)))
            if (a and b and not a & b and a <= set(key_terms(" ".join(second.theirs)))
                    and b <= set(key_terms(" ".join(first.theirs)))):
                out.append((" ".join(first.ours), " ".join(second.ours)))
    return tuple(out)


_CLAIM_PARTS = re.compile(r"[;…]|,\s*(?:and\s+|but\s+)?(?=while\b|whereas\b|but\b|and\b)|\s(?:while|whereas)\s",
                         re.IGNORECASE)
_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|\d+)\b)*")


def crossed_names(claim: str, quote: str) -> tuple[tuple[str, str], ...]:
    """(claim name, quote name) where the claim says of each of two names what the quote says of the other, in
    parts of their own: "Group A receives the booklet, while Group B uses the app" against "Group A will use the
    app. Group B will receive the booklet." Each name is in one part of the claim, and each such part shares more
    words with the quote's sentences of the other name than with those of its own. Pure."""
    parts = [p for p in _CLAIM_PARTS.split(claim) if p and p.strip()]
    sentences = [p for p in re.split(r"(?<=[.!?])\s+|\n+|\s…\s", quote) if p.strip()]
    if len(parts) < 2 or len(sentences) < 2:
        return ()
    stop = _rules().stopwords
    names = {m.group(0): set(key_terms(m.group(0))) for m in _CAPITALISED_RUN.finditer(claim)
             if m.group(0).lower() not in stop}
    placed: dict[str, tuple[set[str], set[str], bool]] = {}
    for name, words in names.items():
        said = re.compile(rf"\b{re.escape(name)}\b")
        ours = [p for p in parts if said.search(p)]
        theirs = [p for p in sentences if said.search(p)]
        said_here = set(key_terms(ours[0])) - words if len(ours) == 1 else set()
        if len(said_here) >= 2:  # (a part that says something of the name: not the last item of a list)
            placed[name] = (said_here, set(key_terms(" ".join(theirs))) - words, bool(theirs))
    for a, b in itertools.permutations(placed, 2):
        (said_a, quote_a, given_a), (said_b, quote_b, given_b) = placed[a], placed[b]
        if not given_b or quote_a == quote_b:
            continue
        # (a name the quote does not give, where what the claim says of it is what the quote says of the other)
        if len(said_a & quote_b) > len(said_a & quote_a) and (
                len(said_b & quote_a) > len(said_b & quote_b) if given_a
                else len(said_a & quote_b) >= 2 and len(said_a & quote_b) > len(said_b & quote_b)):
            return ((a, b),)
    return ()


_WORDS = re.compile(r"[A-Za-z][A-Za-z'-]*")


def qualified_role(claim: str, quote: str) -> tuple[str, str] | None:
    """(claim words, quote words) where one side gives a role with a rank qualifier and the other without it: "led
    by the Mayor" against "the deputy mayor ... signed" (the lexicon's `rank_qualifiers`). Only when
    the side without the qualifier never has it before that role, and the other never has the role without it.
    Pure."""
    qualifiers = lexicon().word_set("contrasts", "rank_qualifiers")
    claim_words, quote_words = ([w.lower() for w in _WORDS.findall(t)] for t in (claim, quote))
    for words, plain_words, flip in ((claim_words, quote_words, False), (quote_words, claim_words, True)):
        for i, word in enumerate(words):
            if word not in qualifiers:
                continue
            role = words[i + 1:i + 3]
            if not role or role[0] in STOPWORDS:
                continue
            for size in (2, 1):  # "deputy finance director": the longest role the other side names
                head = role[:size]
                spots = [j for j in range(len(plain_words) - size + 1) if plain_words[j:j + size] == head]
                if spots and all(j == 0 or plain_words[j - 1] not in qualifiers for j in spots) and not any(
                        words[j:j + size] == head and (j == 0 or words[j - 1] not in qualifiers)
                        for j in range(len(words) - size + 1)):
                    qualified, bare = f"{word} {' '.join(head)}", " ".join(head)
                    return (bare, qualified) if flip else (qualified, bare)
    return None


_ONLY = re.compile(r"\bonly\b", re.IGNORECASE)
_NOT_ONLY = re.compile(r"\bnot\s+only\b", re.IGNORECASE)


def only_denied(claim: str, quote: str) -> bool:
    """Whether the claim restricts something with "only" and the quote says "not only" ("suggests names only from the
    active table" against "from all open tables, not only from the active one"). Pure. ("Not only" is no negation
    elsewhere: "not only X but also Y" affirms X.)"""
    return bool(_ONLY.search(claim)) and not _NOT_ONLY.search(claim) and bool(_NOT_ONLY.search(quote))


_ONLY_AFTER = re.compile(r"((?:[\w'’-]+\s+){0,2}[\w'’-]+)\s+only\b", re.IGNORECASE)  # "the marathon course only"
_ONLY_BEFORE = re.compile(r"\bonly\s+(?:(?:to|for|on|in|at|by|from|with)\s+)?((?:[\w'’-]+\s+){0,3}[\w'’-]+)",
                          re.IGNORECASE)  # "open only to members", "only the first 100 runners"
_COORDINATION = re.compile(r"\s+(?:and|as\s+well\s+as|plus)\s+", re.IGNORECASE)


def beyond_only(claim: str, quote: str) -> tuple[str, str] | None:
    """(the words of the item the claim adds, the quote's "… only" phrase) when the quote restricts something with
    "only" and the claim joins to it, with "and", an item the quote does not name: "on both the marathon and the half
    marathon courses" against "on the marathon course only", "in English and Welsh" against "in English only". Not
    when the claim restricts with "only" too, nor against "not only". Pure."""
    if not _ONLY.search(quote) or _ONLY.search(claim) or _NOT_ONLY.search(quote):
        return None  # (most quotes say no "only": the phrase patterns are not scanned for them)
    restricted = [(m.group(0), terms) for pattern in (_ONLY_AFTER, _ONLY_BEFORE) for m in pattern.finditer(quote)
                  if (terms := frozenset(key_terms(m.group(1))))]
    if not restricted:
        return None
    said = set(key_terms(quote))
    auxiliaries = lexicon().word_set("claims", "auxiliaries")  # an item ends where its verb begins
    for m in _COORDINATION.finditer(claim):
        left = _CLAUSE_END.split(claim[max(0, m.start() - 40):m.start()])[-1].split(",")[-1].split()[-3:]
        right = _CLAUSE_END.split(claim[m.end():m.end() + 40])[0].split(",")[0].split()[:4]
        right = list(itertools.takewhile(lambda w: w.lower() not in auxiliaries, right))
        for ours, other in ((left, right), (right, left)):
            named = set(key_terms(" ".join(ours)))
            added = [w for t, w in key_words(" ".join(other)) if t not in said and not any(c.isdigit() for c in t)]
            for phrase, terms in restricted:
                if named & terms and added:
                    return " ".join(other), phrase
    return None


_NAME_RUN = r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
_PLACES_ONLY = re.compile(  # "at Mill Lane and Hatherley Road only", "only at Mill Lane"
    rf"\b(at|in|on|from)\s+({_NAME_RUN}(?:(?:,\s*|\s+(?:and|or)\s+){_NAME_RUN})*)\s+only\b"
    rf"|\bonly\s+(at|in|on|from)\s+({_NAME_RUN}(?:(?:,\s*|\s+(?:and|or)\s+){_NAME_RUN})*)")


def other_name_than_only(claim: str, quote: str) -> tuple[str, str] | None:
    """(the claim's name, the quote's "… only" phrase) when the quote restricts a statement to places or things it
    names ("at Mill Lane and Hatherley Road only") and the claim puts it at another name after the same preposition
    ("at Coronation Fields"), one the quote never mentions. Pure."""
    said = set(key_terms(quote))
    for m in _PLACES_ONLY.finditer(quote):
        preposition = (m.group(1) or m.group(3)).lower()
        for named in re.finditer(rf"\b{preposition}\s+(?:the\s+)?({_NAME_RUN})", claim):
            terms = set(key_terms(named.group(1)))
            if terms and not terms & said:
                return named.group(1), m.group(0)
    return None


def restriction_restated(plain: str, negated: str) -> bool:
    """Whether `plain` restricts with "only" what `negated` denies with an exception: "covered only if there was
    forced entry" against "not covered unless there was forced entry" (the lexicon's `restricting` words). Pure."""
    if not _ONLY.search(plain) or _NOT_ONLY.search(plain):
        return False
    return _rules().exception.search(negated) is not None


def exception_restated(plain: str, negated: str) -> bool:
    """Whether `plain` makes with "unless" or "except" the exception that `negated` names with its negation: "refunded
    in full unless the ticket is marked as final" against "a ticket not marked as final is refunded in full" (the
    lexicon's `restricting` words; the words after the exception are what the negation denies). Not "not given"
    against "given unless damaged": the negation there denies the statement. Pure."""
    pattern = _rules().exception
    exception = pattern.search(plain)
    if exception is None or pattern.search(negated):
        return False
    condition = set(key_terms(_CLAUSE_END.split(plain[exception.end():])[0]))
    scopes = negation_scopes(negated)  # one negation, whose first word is in the exception
    return len(scopes) == 1 and bool(scopes[0][2] & condition)


# a word denied just before it: "is not free", "isn't really free"
_DENIED_BEFORE = re.compile(r"(?:\b(?:not|no|never)|n['’]t)\s+(?:\w+\s+)?$", re.IGNORECASE)


def denial_restated(negated: str, plain: str) -> bool:
    """Whether `negated` denies what `plain` states in other words: a change denied ("There is no change to the
    standing charge", "will not rise") is a value kept ("the standing charge will stay the same at 32.67p"), an extra
    amount denied ("no extra charge for Saturday lessons") the usual one ("charged at the normal rate"), paying denied
    ("without paying") a thing free ("free of charge"): one statement, not opposite ones (the lexicon's `changing` and
    `unchanged`, `added` and `usual`, `paying` and `free`, each in `negation.toml`). Not "will not change" against
    "will change", nor against a plain side that denies its own words ("is not free"). Pure."""
    scopes = negation_scopes(negated)
    for denied, stated in _rules().restated:
        said = [m for m in stated.finditer(plain) if not _DENIED_BEFORE.search(plain, 0, m.start())]
        if said and any(heads & denied or " ".join(scope[:2]) in denied for _, scope, heads in scopes):
            return True
    return False


def dropped_condition(claim: str, quote: str) -> tuple[str, str] | None:
    """(the claim's word for "in every case", the quote's condition) when the claim says that what it states holds
    without condition and the quote states it only under one it does not repeat: "always gets a full refund" against
    "... a full refund only if ...", "however many miles" against "3 years or 60,000 miles, whichever
    comes first" (the lexicon's `conditions.toml`). Pure."""
    rules = _rules()
    universal = holds_in_every_case(claim, quote)
    if universal is None:
        return None
    # a condition word, or days of the week the claim does not name ("closes at 17:00 from Monday to Thursday, but at
    # 20:00 on Fridays" against "closes at 20:00 every day"); a claim about days of its own is about those days
    patterns = [rules.condition] + ([] if rules.days.search(claim) else [rules.days])
    said = {" ".join(m.group(0).lower().split()) for p in patterns for m in p.finditer(claim)}
    conditions = sorted((m for p in patterns for m in p.finditer(quote)), key=lambda m: m.start())
    for condition in conditions:
        if rules.concessive.search(quote, 0, condition.start()):
            continue  # "even if there is no visible damage": the statement holds then too
        if " ".join(condition.group(0).lower().split()) not in said:  # a condition of its own is another one
            return universal, condition.group(0)
    return None


def holds_in_every_case(claim: str, quote: str) -> str | None:
    """The claim's word for "in every case" ("always", "however many", "any"; the lexicon's `conditions.toml`
    `universal`) when the quote does not use it, or one of its group, too ("always ... unless": the quote's own
    statement; `universal_alike`), else None. An "any" after "before" or "plus" names whatever there is ("before any
    third-party fees": `any_as_whatever_after`), not every case. Pure."""
    rules = _rules()
    said = {" ".join(m.group(0).lower().split()) for m in rules.universal.finditer(quote)}
    said |= {w for phrase in said for w in rules.alike.get(phrase, ())}  # "whatever" says what "regardless" says
    for m in rules.universal.finditer(claim):  # "at any time on any day": each of them, as the quote's are read
        if (" ".join(m.group(0).lower().split()) not in said and not _denied_any(claim, m)
                and not _RESTRICTED.match(claim, m.end())
                and not (m.group(0).lower() == "any" and rules.whatever_after.search(claim, 0, m.start()))):
            return m.group(0)
    return None


_RESTRICTED = re.compile(r"\s+(?:who|that|whose|which)\b", re.IGNORECASE)  # "anyone who fails to cancel": those only


def _denied_any(text: str, found: re.Match[str]) -> bool:
    """Whether `found` is an "any" ("anyone") that a negation in the four words before it in its clause takes
    ("without paying any fee", "does not charge anyone", "you won't be charged for any dose"): "none at all", not "in
    every case" (not "without notice at any time")."""
    if not found.group(0).lower().startswith("any"):
        return False
    clause = re.split(r"[,;:.!?]", text[:found.start()])[-1]
    before = " ".join(re.findall(r"[\w'’]+", clause)[-4:])
    return _rules().negation.search(before) is not None


def overstated_quantifier(claim: str, quote: str) -> tuple[str, str] | None:
    """(the claim's "every", the quote's "a small sample of") when the claim says a statement holds for every member
    of a group and the quote for a part of it only ("every invoice is checked" against "a sample of invoices is
    checked"; the lexicon's `conditions.toml` `every` and `partial`), and the quote does not say
    "every" itself. Pure."""
    rules = _rules()
    every = rules.every.search(claim)
    if every is None:
        return None
    part = None if rules.every.search(quote) else rules.partial.search(quote) or _some_of_all(quote)
    if part and not rules.partial.search(claim):
        return every.group(0), part.group(0)
    restricted = _restricted_group(claim, every.end(), quote)
    return (every.group(0), restricted.group(0)) if restricted else None


_RESTRICTING_CLAUSE = re.compile(r"\b([A-Za-z-]+)\s+(?:who|that|whose)\b", re.IGNORECASE)


def _restricted_group(claim: str, after: int, quote: str) -> re.Match[str] | None:
    """The quote's group with a clause that picks some of its members ("Children who have never had a flu vaccine
    before … need two doses"), where the claim says "all" of that group ("All children aged 2 to 11 need two doses")
    without the clause, and the quote never says "all" of it."""
    named = {stem(w) for w in re.findall(r"[A-Za-z-]+", claim[after:])[:3] if w.lower() not in STOPWORDS}
    said = {stem(m.group(1)) for m in _RESTRICTING_CLAUSE.finditer(claim)}
    whole = {stem(m.group(1)) for m in _ALL_OF.finditer(quote)}
    return next((m for m in _RESTRICTING_CLAUSE.finditer(quote)
                 if (group := stem(m.group(1))) in named and group not in said and group not in whole), None)


_ALL_OF = re.compile(r"\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+|your\s+)?([A-Za-z-]+)", re.IGNORECASE)
_SOME_OF = re.compile(r"\b(\d[\d,]*)\s+(?:out\s+)?of\s+(?:the\s+|our\s+|its\s+|their\s+|all\s+)?(\d[\d,]*)\b",
                      re.IGNORECASE)


def _some_of_all(text: str) -> re.Match[str] | None:
    """"30 of our 45 pitches", "7 out of 10": a figure that is part of a group in figures."""
    for m in _SOME_OF.finditer(text):
        part, whole = (float(g.replace(",", "")) for g in m.groups())
        if part < whole:
            return m
    return None


def names_a_part(words: str) -> bool:
    """Whether `words` are a quantifier of part of a group ("a small sample of", "most"; `conditions.toml`
    `partial`)."""
    return _rules().partial.fullmatch(words.strip()) is not None or _SOME_OF.fullmatch(words.strip()) is not None


def negation_scopes(text: str) -> list[tuple[str, tuple[str, ...], frozenset[str]]]:
    """Each negation cue, the key terms it negates (nearest first) and its heads: the word it negates first, or
    every item of a list it negates. The scope is the next few words of the clause, and for predicate adjectives
    ("Smoking is prohibited") the few words before too."""
    return [(cue, scope, heads) for cue, scope, heads, _, _ in _negations(text)]


# Where the subject of a clause's verb begins, at the latest: after a relative word or a conjunction
_SUBJECT_START = re.compile(r"\b(?:which|that|who|whom|whose|where|when|if|and|or|but)\b", re.IGNORECASE)


def _negations(text: str) -> list[tuple[str, tuple[str, ...], frozenset[str], int, bool]]:
    """`negation_scopes`, each with where its cue starts and whether it is elliptical (`_elided`): such a negation
    bears on the other side only through its subject."""
    rules = _rules()
    cleaned = rules.exempt.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for m in rules.negation.finditer(cleaned):
        cue = " ".join(m.group(0).lower().split())
        adjective = cue.startswith(rules.postpositive)
        predicative = _PREDICATE.search(cleaned[max(0, m.start() - 30):m.start()])
        if adjective and not predicative:
            continue
        # (what follows "but" or "whereas" is affirmed: "are not eligible for the card but may buy a pass")
        after = _AFFIRMED.split(_CLAUSE_END.split(cleaned[m.end():m.end() + 80])[0], maxsplit=1)[0]
        # "Concrete bases are not allowed.": a "not" before the one word that ends its clause reaches back to the
        # subject, as "prohibited" does; what it denies first is still that word ("available" of "… are not available")
        ends_clause = bool(cue == "not" and predicative and len(key_terms(after)) == 1
                           and re.fullmatch(r"\s*[\w-]+\s*", after))
        if _fronted(cleaned, m.start()):  # "If you cannot attend, a friend may …": the "if" clause ends at its comma
            after = after.split(",", 1)[0]
        scope = key_terms(after)[:2 if cue.startswith(rules.short_scope) else 4]
        if adjective or ends_clause:
            before = _CLAUSE_END.split(cleaned[max(0, m.start() - 60):m.start()])[-1]
            if ends_clause:  # (its own subject only: "report which areas were not checked" denies no reporting)
                before = _SUBJECT_START.split(before)[-1]
            scope = key_terms(before)[-4:][::-1] + scope
        if cue.startswith("non-"):
            scope = (stem(cue[4:]), *scope)
        listed = _LIST.match(after)
        heads = (frozenset(key_terms(listed.group(1))) if listed and not adjective and cue not in rules.cessation
                 else frozenset(key_terms(after)[:1]) if ends_clause else frozenset(scope[:1]))
        # only a cue with nothing after it in its clause leaves its verb out: "instead of 200" has its object
        bare = not re.search(r"\w", after)
        elided = _elided(cleaned, m.start()) if not scope and not adjective and bare else None
        if elided:
            scope, heads = elided
        out.append((cue, scope, heads, m.start(), elided is not None))
    return out


@cache
def _subordinator() -> re.Pattern[str]:
    return re.compile(rf"^\W*(?:{phrase_pattern(lexicon().words('stopwords', 'subordinators'))})\b", re.IGNORECASE)


def _fronted(text: str, at: int) -> bool:
    """Whether the word at `at` lies in a clause that opens its sentence (or a clause after ";" or ":") with a
    subordinator ("If", "Unless", "When") and is closed by a comma after it: a clause put before the main one."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, at)), default=0)
    return bool(_subordinator().search(text[start:at])) and "," not in text[start:at] and "," in text[at:at + 80]


def _elided(text: str, at: int) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """(scope, heads) of a negation that ends its clause with its verb left out ("Nodule numbers recovered within
    two weeks, but nitrogenase activity did not."): it denies the previous clause's predicate of this clause's
    subject. The scope is the subject's key terms, then the previous clause's; the heads are the subject's terms that
    the previous clause does not have."""
    breaks = [b for b in _CLAUSE_BREAK.finditer(text) if b.end() <= at]
    if not breaks:
        return None
    subject = key_terms(text[breaks[-1].end():at])
    start = breaks[-2].end() if len(breaks) > 1 else 0
    previous = key_terms(text[start:breaks[-1].start()])
    own = frozenset(subject) - set(previous)  # what sets this subject apart ("exports" of "exports to Chile")
    if not own or not previous:
        return None
    return (*subject, *previous), own


def _prefixed_negations(text: str, others: set[str]) -> list[tuple[str, int]]:
    """The stems of the other side's terms that a word here denies by a negative prefix: "unguarded"
    against "guarded", "uncommon" against "common", "dishonest" against "honest". The word itself must be absent
    from the other side, the plain word absent from this one ("unprofitable stores" beside "profit fell" leaves the
    profit alone), and what follows the prefix a word of four letters or more."""
    found = []
    own = set(key_terms(text))
    for m in _WORD_RE.finditer(text):
        word = m.group(0).lower()
        if stem(word) in others:
            continue
        for prefix in _rules().prefixes:
            rest = word[len(prefix):].lstrip("-")
            if word.startswith(prefix) and len(rest) >= 4 and stem(rest) in others and stem(rest) not in own:
                found.append((stem(rest), m.start()))
                break
    return found


_PHRASE_BREAK = re.compile(r"[.;…:,]")


@cache
def _condition_opener() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{phrase_pattern(lexicon().words('conditions', 'opening_conditions'))})\b", re.IGNORECASE)


def condition_terms(text: str, denied: bool = False) -> frozenset[str]:
    """The key terms of a text's conditions: from each opener ("if", "as long as" …) to the end of its phrase
    ("If you do not pay the fee, …": pay, fee); with `denied`, of those with a negation only. Pure."""
    phrases = (_PHRASE_BREAK.split(text[m.end():], maxsplit=1)[0] for m in _condition_opener().finditer(text))
    return frozenset(t for phrase in phrases if not denied or negation_cues(phrase) for t in key_terms(phrase))


def conditions_opposed(one: str, other: str) -> bool:
    """Whether one text negates a condition the other states on the same thing ("If you do not pay the fee" / "If you
    pay the fee"): the negation is then an opposite statement, not one that asserts nothing. Pure."""
    return bool(condition_terms(one, denied=True) & condition_terms(other)
                or condition_terms(other, denied=True) & condition_terms(one))


def in_condition(text: str, at: int) -> bool:
    """Whether the word at `at` lies in a condition: after "if", "when", "unless" … in its own clause ("In the weeks
    when your black bin is not collected, …", "…, and if we cannot bring your speed back …"). Pure."""
    start = max((m.end() for m in _PHRASE_BREAK.finditer(text, 0, at)), default=0)
    return bool(_condition_opener().search(text, start, at))


def polarity(text: str, other_terms: Iterable[str], loose: bool = False,
             denied_out: set[str] | None = None, asserted: bool = False) -> tuple[bool, int]:
    """(negated, anchor) of `text` against the other side's terms.

    Only negations that bear on those terms count (their head is one of the terms, or two of their words are;
    any one when `loose` or when the negation's clause names every one of the terms: "The syrup is not
    recommended for children" bears on "Children may take the syrup"): a "never" in a clause about something
    else leaves the polarity alone. A word with a
    negative prefix that denies one of the terms ("unguarded" against "guarded") is a negation too. `anchor` is
    how many of the terms the strongest negation covers when its head is one of them ("may not repair a damaged
    appliance" against a claim about repairing). `denied_out`, when given, receives the terms the negations deny by
    their heads ("enclos" of "It shall not be enclosed"). With `asserted`, a negation in a condition ("when it is not
    collected, …") does not count: it asserts nothing.
    """
    others = set(other_terms)
    # "not guarded" bears on the other side's "unguarded": what its prefix denies is a term of that side too
    others |= {t[len(p):] for t in others for p in _rules().prefixes if t.startswith(p) and len(t) - len(p) >= 4}
    negations = _negations(text)
    breaks = sorted({m.start() for m in _CLAUSE_BREAK.finditer(text)}
                    | {max(0, start - 40) + m.start() for cue, _, _, start, _ in negations
                       if not cue.startswith(_rules().short_scope)
                       and (m := _COORDINATED.search(text[max(0, start - 40):start]))})

    def bears(scope: tuple[str, ...], start: int) -> bool:
        shared = len(set(scope) & others)
        if loose or shared >= 2 or not shared:
            return shared >= 1
        # one shared word is enough when the clause names all the other side's terms and the word is in the
        # negation's own phrase, before any comma or "and" ("quit coaching and published" denies no publishing)
        n = bisect.bisect(breaks, start)
        clause = text[breaks[n - 1] if n else 0:breaks[n] if n < len(breaks) else len(text)]
        phrase = _PHRASE_END.split(text[start:], maxsplit=1)[0]
        return others <= set(key_terms(clause)) and bool(set(key_terms(phrase)) & others)

    relevant = [(scope, heads, start) for _, scope, heads, start, elided in negations
                if heads & others or (not elided and bears(scope, start))]
    relevant += [((term,), frozenset({term}), start) for term, start in _prefixed_negations(text, others)]
    if asserted:  # only what the text asserts: a negation in a condition states nothing ("when it is not collected")
        relevant = [r for r in relevant if not in_condition(text, r[2])]
    if denied_out is not None:
        denied_out.update(h for _, heads, _ in relevant for h in heads & others)
    anchor = max((len(set(scope) & others) for scope, heads, _ in relevant if heads & others), default=0)
    # Two negations cancel inside one clause ("cannot ... without"), not across clauses ("Do not take more than
    # three, and do not take it for longer than 5 days" is negated twice, not affirmed).
    per_clause = Counter(bisect.bisect(breaks, start) for _, _, start in relevant)
    return any(n % 2 == 1 for n in per_clause.values()), anchor


def affirmed_terms(text: str, anywhere: bool = False) -> frozenset[str]:
    """The key terms of a text's phrases that hold no negation (split at punctuation and "and", "but", "or"), but for
    terms a negated phrase has too: "enclos" of "The shed may be enclosed, as long as it is not used as ..."; not
    "approv" of "Approvers may not sign off refunds". With `anywhere`, those a negated phrase has too. Pure."""
    phrases = [p for p in _PHRASE_END.split(text) if p and p.strip()]
    negated = [bool(negation_cues(p)) for p in phrases]
    said = frozenset(t for p, n in zip(phrases, negated, strict=True) if not n for t in key_terms(p))
    denied = frozenset(t for p, n in zip(phrases, negated, strict=True) if n for t in key_terms(p))
    return said if anywhere else said - denied


def negation_cues(text: str) -> list[str]:
    """Negating words in `text`; bounds such as "no later than" and "not to exceed" are not negations."""
    return [cue for cue, _, _ in negation_scopes(text)]


def is_negated(text: str) -> bool:
    """Whether `text` has negative polarity: an odd number of negation cues ("not ... without" cancels out)."""
    return len(negation_cues(text)) % 2 == 1
