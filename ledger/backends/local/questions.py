"""Question analysis for the local backend: the parts of a question, their focus words, figures and periods.

Pure functions of text. A question is cut into parts at question marks, semicolons and conjunctions that
start a new request ("… and how long …", "… and the late fee"); each part has *focus* stems: its content
words minus the words that only say what kind of answer is wanted ("how long", "limit", "amount") or that
nearly every document uses ("employee", "company", "policy"). A part is covered when the answer's claims
contain at least half of its focus stems and, if the part asks for a figure, one of those claims states one
(`ledger.backends.local.gaps`).

Words are matched by Porter stem, by a shared prefix of four or more letters, and through the lexicon's synonym
groups ("kept" and "retention", "buy" and "purchase"; a workspace adds its own). Generic modifiers ("ordinary",
"general", "alone") are not focus words, and a time frame ("at the end of the third
quarter", "in 2026") is kept apart as the part's *periods*: evidence about another period does not answer it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from ingest.retrieval import DESIGNATION
from ledger.judge.claims import content_stems
from ledger.judge.word_relations import (
    WordNetTable,
    bundled_wordnet,
    can_be_a_noun,
    is_a_kind_of,
    near_in_meaning,
    same_root_stems,
    verb_base,
)
from ledger.text.lexicon import lexicon
from ledger.text.terms import STOPWORDS, phrase_pattern


@dataclass(frozen=True)
class _Words:
    """The word lists of question analysis, from the lexicon in force (questions.toml, synonyms.toml, figures.toml)."""

    asking: frozenset[str]  # stems of answer-kind words and generic modifiers: never focus words
    synonyms: dict[str, frozenset[str]]  # stem → the stems of its synonym groups
    actions: frozenset[str]  # stems of action verbs a passage must name to answer (“kept”: a retention)
    wants_figure: re.Pattern[str]
    plural_nouns: frozenset[str]
    measures: frozenset[str]  # units a figure is measured in: "how many days" is answered by any duration
    answer_kind: re.Pattern[str]  # "how late", "what share", "take place": words that say only what kind of answer
    measured: re.Pattern[str]  # "how heavy", "how deep", "what does it weigh": a physical measure is asked for


@cache
def _words() -> _Words:
    lex = lexicon()
    asking = frozenset(content_stems(" ".join((*lex.words("questions", "asking"), *lex.words("questions", "generic")))))
    synonyms: dict[str, frozenset[str]] = {}
    actions: set[str] = set()
    for kind in ("actions", "groups"):
        for group in lex.groups("synonyms", kind):
            stems = frozenset(content_stems(" ".join(group)))
            for stem in stems:
                synonyms[stem] = synonyms.get(stem, frozenset()) | stems
            if kind == "actions":
                actions |= stems
    nouns = phrase_pattern(lex.words("figures", "question_nouns"))
    adjectives = phrase_pattern(lex.words("questions", "measure_adjectives"))
    verbs = phrase_pattern(lex.words("questions", "measure_verbs"))
    measured = re.compile(rf"\bhow\s+(?:{adjectives})\b|^\W*what\b[^?]*\b(?:{verbs})\b", re.IGNORECASE)
    measures = " ".join((*lex.words("figures", "units"), *lex.words("figures", "currencies"),
                         *lex.words("figures", "markers"), "times"))
    return _Words(
        asking=asking,
        synonyms=synonyms,
        actions=frozenset(actions),
        wants_figure=re.compile(_WANTS_FIGURE + rf"|\b(?:{nouns})\b|{measured.pattern}", re.IGNORECASE),
        measured=measured,
        plural_nouns=lex.word_set("questions", "plural_nouns"),
        measures=frozenset(content_stems(measures)),
        answer_kind=re.compile(rf"\bhow\s+(?:{phrase_pattern(lex.words('questions', 'degree'))})"
                              rf"(?:\s+(?:{phrase_pattern(lex.words('questions', 'ahead'))}))?\b"
                              rf"|\bwhat\s+(?:{phrase_pattern(lex.words('questions', 'what_kind'))})\b"
                              rf"|\b(?:{phrase_pattern(lex.words('questions', 'light_phrases'))})\b"
                              rf"|\b(?:{phrase_pattern(lex.words('questions', 'closing_light_verbs'))})(?=\W*$)",
                              re.IGNORECASE),
    )


# A question asks for a figure with "how much", "when", … or a figure noun of the lexicon ("What is the fee?").
_HOW_MUCH = r"\bhow\s+(?:much|many|long|often|soon|quickly|fast|late|early|far|big|large|high|low|old|frequently)\b"
_HOW_MUCH_RE = re.compile(_HOW_MUCH, re.IGNORECASE)  # the figure wish of a "who" question
_WANTS_FIGURE = (
    _HOW_MUCH + r"|\bwhen\b|\bby\s+when\b|\bwhat\s+(?:time|date|day|year|percentage|share)\b|\bwithin\s+what\b"
)
# Figure kinds (ledger.text.quantities) that can answer "how long", "how many", …; a unit stating only other kinds
# (a fee for "how long", a weekday for "how much") does not answer it. "speed" is a count in a unit of speed
# ("15.5 mph", `ledger.text.measures`).
DEADLINE_KINDS = frozenset({"duration", "time", "date", "weekday", "frequency"})  # "how soon", "when"
# A deadline stated without a figure ("by the end of the next working day") answers "how soon" or "when".
DEADLINE_WORDS = re.compile(
    r"\b(?:immediately|without\s+delay|by\s+the\s+end\s+of|same\s+(?:business\s+|working\s+)?day|"
    r"next\s+(?:business\s+|working\s+)?day)\b",
    re.I,
)
_KINDS_WANTED = (
    (re.compile(r"\bhow\s+(?:often|frequently)\b", re.I), frozenset({"frequency", "duration", "count", "number"})),
    # "How fast can it go?" asks for a speed, "how quickly must it be reported?" for a deadline: either answers.
    (re.compile(r"\bhow\s+(?:quickly|fast)\b", re.I), DEADLINE_KINDS | {"speed"}),
    (re.compile(r"\bhow\s+(?:soon|late|early)\b|\bby\s+when\b|\bwithin\s+what\b", re.I), DEADLINE_KINDS),
    # "How long is the lane?" is a length, "how long does it take?" a duration, "how long must passwords be?" a count
    # ("every 12 months" says how often, not how long)
    (re.compile(r"\bhow\s+long\b", re.I), frozenset({"duration", "date", "time", "measure", "count", "number"})),
    (re.compile(r"\bhow\s+many\b", re.I), frozenset({"count", "measure", "number", "duration", "frequency",
                                                       "ordinal"})),
    (re.compile(r"\bhow\s+much\b", re.I), frozenset({"money", "percent", "number", "count", "measure", "duration",
                                                       "frequency"})),
    (re.compile(r"\bwhat\s+(?:percentage|percent|share|proportion)\b", re.I), frozenset({"percent", "number"})),
    (re.compile(r"^\s*when\b|\bwhat\s+(?:date|day|time)\b|\bdeadline\b", re.I), DEADLINE_KINDS),
    # "What deposit amount …", "What is the fee …": money (or a share of something), not a deadline.
    (re.compile(r"^\s*(?:what|which)\b.*\b(?:amount|fee|fees|cost|costs|price|budget|salary|spend|spending)\b", re.I),
     frozenset({"money", "percent", "number", "count"})),
)
_MEASURED_KINDS = frozenset({"measure", "count", "number"})  # "how heavy": "3.9 kg", "about 4 kilograms"
# "How many reference letters are needed": the thing counted (a plural noun among the next words), which a count in
# the answer must be a count of.
_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[a-z0-9-]+[\s,]*){1,4})", re.I)
# A time frame: "at the end of the third quarter", "in Q3 2026", "during the quarter", "in fiscal 2025". Never a
# rate ("per year") or a span ("within one year"): those belong to the figure asked for.
# the year of a course, term or scheme: "Year 2" (not "2 years", a duration, nor "year 2026")
_COURSE_YEAR = r"year\s+([1-6])\b(?![.,:/-]?\d)"
_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th|last|previous|prior|next|current|latest|"
            r"same|full|this)")
_DAY_AND_YEAR = r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?(?:,?\s+(?:19|20)\d\d)?"


def _month_pattern() -> str:
    """Month names and their short forms (calendar.toml); "may" only before a number, where it is no modal verb."""
    lex = lexicon()
    names = [*lex.words("calendar", "months"), *lex.words("calendar", "month_abbreviations")]
    return "(?:" + "|".join("may(?=\\s+\\d)" if n == "may" else re.escape(n)
                            for n in sorted(set(names), key=len, reverse=True)) + ")" + _DAY_AND_YEAR


@cache
def _time_frame() -> re.Pattern[str]:
    """A time frame: "at the end of the third quarter", "in Q3 2026", "during the quarter", "in fiscal 2025"."""
    month = _month_pattern()
    period = (
        rf"(?:{_COURSE_YEAR}|{month}|\d{{1,2}}\s+{month}|(?:{_ORDINAL}\s+)?(?:(?:fiscal|financial|calendar)\s+)?"
        r"(?:quarter|half|year|month)(?:\s+(?:of\s+)?(?:fy\s*)?(?:19|20)\d\d)?|q[1-4](?:\s+(?:of\s+)?(?:19|20)\d\d)?|"
        r"h[12](?:\s+(?:19|20)\d\d)?|(?:fiscal\s+|fy\s*)?(?:19|20)\d\d)"
    )
    return re.compile(
        rf"\b(?:(?:at|by|as\s+of|towards?)\s+the\s+(?:end|start|beginning|close)\s+of\s+(?:the\s+)?{period}|"
        rf"(?:in|during|for|over|throughout|of|on|as\s+of)\s+(?:the\s+)?{period})\b",
        re.I,
    )


_QUARTER = re.compile(
    r"\b(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+|financial\s+)?quarter)\b", re.I
)
_HALF = re.compile(r"\b(?:h([12])|(first|second|1st|2nd)\s+half)\b", re.I)
_YEAR = re.compile(r"(?<![$\d.,])\b((?:19|20)\d\d)\b(?![\d.,]\d)")
_ORDINAL_NUMBER = {"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2", "3rd": "3",
                   "4th": "4", "fifth": "5", "sixth": "6", "5th": "5", "6th": "6"}
# ... or as an ordinal: "the second year"
_NTH_YEAR = re.compile(rf"\b{_COURSE_YEAR}|\b({'|'.join(_ORDINAL_NUMBER)})\s+year\b", re.I)
_PART_SPLIT = re.compile(r"\?+|;")
# A conjunction starts a new part when a question word, an auxiliary or a determiner follows it
# ("and how long…", "and is…", "and the late fee"), never inside names like "Terms and Conditions".
_CONJUNCTION = re.compile(
    r",?\s+(?:and|or|as\s+well\s+as|plus)\s+(?=(?:what|how|when|who|whom|which|where|why|whether|is|are|was|were|"
    r"do|does|did|can|could|should|must|will|would|may|the|a|an|its|their|his|her|our|your|any|each|every)\b)"
    r"|,\s+(?=(?:what|how|when|who|which|where|why|whether)\b)",
    re.IGNORECASE,
)
_WHO = re.compile(r"^\W*(?:who|whom|whose)\b|\b(?:by|to|from|with|for)\s+whom\b", re.IGNORECASE)
# "Which soloist performs …?", "What officer signed …?": a word for a kind of person, then its verb
_WHICH_ONE = re.compile(r"^\W*(?:which|what)\s+([a-z]+)\s+([a-z'’]+)", re.IGNORECASE)
_MANNER = re.compile(r"^\W*how\s+(?:is|are|was|were|do|does|did)\b", re.IGNORECASE)  # "How is X measured?"
_LEADING_FILLER = re.compile(r"^(?:and|or|also|plus|then|so|but)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class QuestionPart:
    """One request inside a question: its text, its focus stems, whether it asks for a figure, and more detail:
    the figure kinds that can answer it (empty: any), the stems of the thing counted by "how many …" (when they
    are focus words), the periods of its time frame ("q3", "y2026"), and the actions it asks about ("kept",
    "rotated", "held") that an answering passage must name too (or a synonym: "retention")."""

    text: str
    focus: frozenset[str]
    wants_figure: bool
    kinds: frozenset[str] = frozenset()
    counted: frozenset[str] = frozenset()
    periods: frozenset[str] = frozenset()

    actions: frozenset[str] = frozenset()
    wants_person: bool = False  # "who …", "by whom …": answered by a name, or failing one a role
    # focus stems only the asker's situation gives ("There are seven of us living in the house. Can we …"): an answer
    # may leave them out
    situation: frozenset[str] = frozenset()


def without_time_frames(text: str) -> str:
    """The text with its time frames ("at the end of the third quarter", "in 2026") taken out."""
    return re.sub(r"\s{2,}", " ", _time_frame().sub(" ", text)).strip()


def periods(text: str) -> frozenset[str]:
    """The quarters, halves, years and years of a course a text names: "Q3 2026 …" → {"q3", "y2026"}; "Year 2" →
    {"n2"}."""
    found = {f"q{m.group(1) or _ORDINAL_NUMBER[m.group(2).lower()]}" for m in _QUARTER.finditer(text)}
    found |= {f"h{m.group(1) or _ORDINAL_NUMBER[m.group(2).lower()]}" for m in _HALF.finditer(text)}
    found |= {f"y{m.group(1)}" for m in _YEAR.finditer(text)}
    found |= {f"n{m.group(1) or _ORDINAL_NUMBER[m.group(2).lower()]}" for m in _NTH_YEAR.finditer(text)}
    return frozenset(found)


def question_periods(text: str) -> frozenset[str]:
    """The periods named in a question's time frames (not in its other words: "the 2024 edition" is a name)."""
    return frozenset().union(*(periods(m.group(0)) for m in _time_frame().finditer(text)))


def period_conflict(asked: frozenset[str], named: frozenset[str]) -> bool:
    """Whether a passage naming `named` periods is about another period than the one asked: for quarters, halves
    and years separately, the passage names some of that kind but not the one asked."""
    for kind in "qhyn":
        want = {p for p in asked if p[0] == kind}
        have = {p for p in named if p[0] == kind}
        if want and have and not want & have:
            return True
    return False


def without_answer_kind(text: str) -> str:
    """A question without the words that only say what kind of answer it wants ("how long", "what share"): what a
    keyword search for its passage should look for ("How long did the trial last?" → "did the trial last?")."""
    return _words().answer_kind.sub(" ", text)


def focus_stems(text: str) -> frozenset[str]:
    """Content stems of a question that name what it is about (not the kind of answer it wants, not a generic
    modifier, not its time frame)."""
    asking, titles = _words().asking, lexicon().word_set("stopwords", "honorifics")
    # (a title is no topic: "Ms"; nor a figure, in digits or words: "seven of us" is compared as a figure)
    return frozenset(s for s in content_stems(without_answer_kind(without_time_frames(text)))
                     if s not in asking and s not in titles and not s.isdigit() and s not in _number_stems())


@cache
def _number_stems() -> frozenset[str]:
    """Numbers written as words ("seven", "twenty"), as stems."""
    words = lexicon().words("numbers", "units") + lexicon().words("numbers", "tens")
    return frozenset(s for w in words for s in content_stems(w))


_STATEMENT_END = re.compile(r"(?<=[.!])\s+(?=[A-Z])")


def situation_stems(question: str) -> frozenset[str]:
    """The focus stems only the asker's own situation gives: the statements before the question ("There are seven of
    us living in the house. Can we have a bigger black bin?"). Who asks, and why, is no topic an answering passage
    names ("Households with 6 or more permanent residents can apply for a 240-litre black bin"). Pure."""
    sentences = _STATEMENT_END.split(question.strip())
    if len(sentences) < 2 or "?" in " ".join(sentences[:-1]) or "?" not in sentences[-1]:
        return frozenset()
    return focus_stems(" ".join(sentences[:-1])) - focus_stems(sentences[-1])


_PRICED_KINDS = frozenset({"money", "percent"})


@cache
def _priced() -> re.Pattern[str]:
    """"How much … cost(s/ing)", "how much … charge": a sum of money is asked for (the lexicon's money words)."""
    words = phrase_pattern(lexicon().words("figures", "money_dimensions"))
    return re.compile(rf"\bhow\s+much\b.*\b(?:{words})\b", re.IGNORECASE)


def figure_kinds(question: str) -> frozenset[str]:
    """The figure kinds that can answer a question ("how often" → frequency or duration; "how much does it cost"
    → money, not "140 years"); empty when any can."""
    if _priced().search(question):
        return _PRICED_KINDS
    for pattern, kinds in _KINDS_WANTED:
        if pattern.search(question):
            return kinds
    return _MEASURED_KINDS if _words().measured.search(question) else frozenset()


def counted_stems(question: str, focus: frozenset[str]) -> frozenset[str]:
    """The stems of what "how many …" counts ("visits", "members"; nothing for a unit such as "days"): the first
    plural noun of the next words ("members", not the verb or object of "members booked tickets"), else the
    first word; only stems that name the topic (focus words, or the people and things every document counts)."""
    match = _HOW_MANY.search(question)
    if not match:
        return frozenset()
    words, lists = match.group(1).lower().split(), _words()
    plural = [w for w in words if w in lists.plural_nouns or (len(w) > 3 and w.endswith("s") and not w.endswith("ss"))]
    head = content_stems(plural[0] if plural else words[0])
    return frozenset(s for s in head if s not in lists.measures and (s in focus or s in lists.asking))


def make_part(text: str, focus: frozenset[str] | None = None, wants: bool | None = None) -> QuestionPart:
    """A question part with everything derived from its text (focus and figure wish may be given)."""
    focus = focus_stems(text) if focus is None else focus
    actions = frozenset(s for s in content_stems(without_time_frames(text)) if s in _words().actions)
    return QuestionPart(text, focus, wants_figure(text) if wants is None else wants, figure_kinds(text),
                        counted_stems(text, focus), question_periods(text), actions, asks_for_someone(text))


def asks_for_someone(question: str) -> bool:
    """Whether a question asks who: "who", "by whom", or "which" / "what" and one word for a kind of person before its
    verb ("Which soloist performs the Pie Jesu?", "Which trustee left the board?"). Not a group of them ("Which
    patients …", "Which patient groups …"): a plural or a noun after the person's word asks for a kind, not a name."""
    if _WHO.search(question):
        return True
    asked = _WHICH_ONE.search(question)
    if asked is None:
        return False
    person, verb = asked.group(1).lower(), asked.group(2).lower()
    table = bundled_wordnet()
    if person.endswith("s") or not is_a_kind_of(person, "person", table):
        return False
    if verb in lexicon().word_set("claims", "auxiliaries"):
        return True
    base = verb_base(verb, table)  # "left", "signed", "performs": a verb's form; "groups" may be a noun too
    return base is not None and (not can_be_a_noun(verb, table) or (base != verb and not verb.endswith("s")))


def whole_question(question: str, parts: list[QuestionPart]) -> QuestionPart:
    """The question as one part: the union of its parts' focus, counted things, periods and actions."""
    def union(name: str) -> frozenset[str]:
        return frozenset().union(*(getattr(p, name) for p in parts))

    return QuestionPart(question, union("focus"), wants_figure(question), figure_kinds(question), union("counted"),
                        union("periods"), union("actions"), any(p.wants_person for p in parts))


_MEMBER = re.compile(rf"(?<![\w'’-]){DESIGNATION.pattern}(?![\w'’-]|[.,]\d)")


def designations(question: str) -> list[str]:
    """The members of a lettered or numbered series a question names ("Service B", "Room A", "Zone 3"): a passage
    on one of them answers it, not one on its sibling ("Service C"). Not a date ("June 3") or a word before "I"."""
    lex = lexicon()
    calendar = lex.word_set("calendar", "months") | lex.word_set("calendar", "weekdays")
    return [m.group(0) for m in _MEMBER.finditer(question)
            if m.group(1).lower() not in calendar and m.group(1).lower() not in STOPWORDS]


_WHY = re.compile(r"^\W*why\b|\bfor what reasons?\b|\bwhat (?:is|was|are|were) the (?:reasons?|(?:root )?causes?)\b"
                  r"|^\W*what (?:caused|causes|has caused)\b", re.IGNORECASE)


def asks_reason(question: str) -> bool:
    """Whether a question asks why: "Why was the application refused?", "What was the reason for the delay?", "What
    caused the outage?"."""
    return bool(_WHY.search(question))


@cache
def _reason_cues() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{phrase_pattern(lexicon().words('questions', 'reason_cues'))})\b", re.IGNORECASE)


def gives_reason(text: str) -> bool:
    """Whether a text gives a reason: "withdrawn because of low use", "contrary to Policy H7" (questions.toml)."""
    return bool(_reason_cues().search(text))


def wants_figure(question: str) -> bool:
    """Whether a question asks for a number, amount, duration or date. A "who" question asks for someone, and "how is
    ... measured" for a way of doing something: their figure words ("Who pays the fee?", "How is the boat's length
    measured?") are their topic, unless they also ask "how much"."""
    if _WHO.search(question) or _MANNER.search(question):
        return bool(_HOW_MUCH_RE.search(question))
    return bool(_words().wants_figure.search(question))


def question_parts(question: str) -> list[QuestionPart]:
    """The separate requests of a question; parts without focus words are folded into their neighbours."""
    pieces: list[str] = []
    for sentence in _PART_SPLIT.split(question):
        pieces.extend(p for p in _CONJUNCTION.split(sentence) if p and p.strip())
    parts: list[QuestionPart] = []
    for raw in pieces:
        text = _LEADING_FILLER.sub("", raw.strip(" ,.:")).strip()
        if not text:
            continue
        focus = focus_stems(text)
        if not focus and parts:
            # "…, and how long?" adds no topic of its own: it asks about the previous part's topic.
            prev = parts.pop()
            parts.append(make_part(f"{prev.text}, {text}", prev.focus, prev.wants_figure or wants_figure(text)))
            continue
        parts.append(make_part(text, focus))
    if len(parts) > 1 and not parts[0].focus:
        first = parts.pop(0)
        parts[0] = make_part(parts[0].text, parts[0].focus, parts[0].wants_figure or first.wants_figure)
    if situation := situation_stems(question):
        parts = [replace(p, situation=p.focus & situation) for p in parts]
    return parts


def _has(stem: str, have: frozenset[str] | set[str]) -> bool:
    # a short stem only as itself or its doer ("own" in "owner", "use" in "user"): "art" is not in "artist"
    doers = (f"{stem}r",) if stem.endswith("e") else (f"{stem}er", f"{stem}or")
    # a noun in "-ure" is its verb's ("closure" of "closed", "departure" of "departs")
    verb = stem[:-2] if stem.endswith("ur") and len(stem) >= 6 else ""
    return stem in have or any(d in have for d in doers) or (
        len(stem) >= 4 and any(h.startswith(stem) or (len(h) >= 4 and stem.startswith(h)) for h in have)) or (
        bool(verb) and any(h.startswith(verb) for h in have))


def stem_covered(stem: str, have: frozenset[str] | set[str]) -> bool:
    """Whether `have` names a stem: itself, its doer ("own", "owner"), a word sharing a prefix of 4+ letters ("mileag"
    and "mile"), its verb ("closur" and "close"), a noun or verb of its root in WordNet ("admit" and "admiss"), a
    synonym ("kept" and "retention"), or what it is an irregular form of ("led" and "lead")."""
    return (_has(stem, have) or any(_has(s, have) for s in _words().synonyms.get(stem, ()) if s != stem)
            or not same_root_stems(stem, bundled_wordnet()).isdisjoint(have)
            or any(_has(s, have) for s in _irregular_base_stems(stem)))


@cache
def _irregular_base_stems(word: str) -> frozenset[str]:
    """The stems of what an irregular form is a form of, by WordNet's exception lists: "led" is "lead", "paid" is
    "pay", "children" is "child"."""
    table = bundled_wordnet()
    return frozenset(s for pos in ("v", "n") for base in table.exceptions.get((pos, word), ()) if base != word
                     for s in content_stems(base))


def stems_cover(wanted: frozenset[str], have: frozenset[str] | set[str]) -> int:
    """How many wanted stems `have` names (see `stem_covered`)."""
    return sum(1 for stem in wanted if stem_covered(stem, have))


def _again(word: str, stems: frozenset[str] | set[str], table: WordNetTable) -> bool:
    """Whether a word no dictionary knows is "re-" before one the text says: "resampled" is "sampled" again ("a
    flushed sample taken within 14 days"). A known word is its own ("release" is no "lease" again)."""
    rest = word[2:]
    return (word.startswith("re") and len(rest) >= 4 and not table.every_reading(word)
            and bool(table.every_reading(rest)) and stems_cover(frozenset(content_stems(rest)), stems) > 0)


def said_otherwise(part: QuestionPart, text: str, stems: frozenset[str] | set[str]) -> frozenset[str]:
    """The focus stems of a part that a text (its content `stems` given) does not name but says in other words: a
    WordNet synonym, or a kind of the word or what it is a kind of, close by ("grub" / "larvae", "breeding" /
    "rearing", "charge" / "costs"); a kind of person the text speaks to as "you"; a word "re-" before one it says."""
    missing = {s for s in part.focus if not stem_covered(s, stems)}
    if not missing:
        return frozenset()
    table = bundled_wordnet()
    # A word of the text that is already one of the question's own ("chief") says nothing else ("executive").
    theirs = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)
              if content_stems(w) and not stems_cover(part.focus, content_stems(w))}
    # a text that speaks to its reader ("before you travel") names the passenger or customer a question asks about
    reader = bool(set(re.findall(r"[a-z]+", text.lower())) & lexicon().word_set("questions", "reader"))
    found = set()
    for word in re.findall(r"[A-Za-z]{3,}", part.text):
        found_stems = content_stems(word) & missing
        if found_stems and (any(near_in_meaning(word.lower(), other, table) for other in theirs)
                            or reader and is_a_kind_of(word.lower(), "person", table)
                            or _again(word.lower(), stems, table)):
            found |= found_stems
    return frozenset(found)
