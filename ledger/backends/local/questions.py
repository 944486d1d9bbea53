"""Question analysis for the local backend: the parts of a question, their focus words, figures and periods.

Pure functions of text. A question is cut into parts at question marks, semicolons and conjunctions that
start a new request ("… and how long …", "… and the per diem"); each part has *focus* stems: its content
words minus the words that only say what kind of answer is wanted ("how long", "limit", "amount") or that
every company document uses ("employee", "company", "policy"). A part is covered when the answer's claims
contain at least half of its focus stems and, if the part asks for a figure, one of those claims states one
(`ledger.backends.local.gaps`).

Words are matched by Porter stem, by a shared prefix of four or more letters, and through a small map of
business synonyms ("kept" and "retention", "rotated" and "changed", "headcount" and "employees"). Generic
modifiers ("ordinary", "general", "alone") are not focus words, and a time frame ("at the end of the third
quarter", "in 2026") is kept apart as the part's *periods*: evidence about another period does not answer it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.judge.claims import content_stems

# Stems that say what kind of answer is wanted, or that nearly every company document contains: they must
# not decide whether a passage answers a question ("How long do employees have…" is about what, not "long").
_ASKING_WORDS = """long much many often soon quickly late early far big large high low old new current exact exactly
    limit cap maximum max minimum min amount number rate level size length duration period time deadline threshold
    figure value total count percentage percent price cost fee date day days year years allowed allow permit permitted
    employee employees staff company companies firm policy policies procedure procedures rule rules document
    documents quillfeather analytics inc happen happens apply applies say says state states work"""
# Modifiers that qualify without narrowing what is asked: "general liability insurance", "ordinary accounts".
_GENERIC_WORDS = """general generally overall actual actually specific specifically particular alone basic certain
    various typical typically usual usually normally currently present presently official officially now today still
    ever always really precisely approximately roughly altogether respectively relevant respective times
    require required requires requirement requirements needed mandatory obligatory hold held holds receive received
    receives give given provide provided after before during within until since frequently frequent spend spent
    distance cycle"""
_ASKING_STEMS = frozenset(content_stems(_ASKING_WORDS)) | frozenset(content_stems(_GENERIC_WORDS))
# Business vocabulary that names one thing several ways. Groups marked "!" are actions: a question asking how
# long records are *kept* is not answered by a sentence on when they are *submitted*, so a passage must name
# the action (or a synonym) to answer it. Groups are kept tight: every synonym weakens the "not answered" test.
_SYNONYM_GROUPS = """!keep kept held retain retained retention preserve preserved store stored
    !rotate rotated rotation change changed reset
    !delete deleted deletion erase erased purge purged destroy destroyed dispose disposed
    pay paid pays reimburse reimbursed reimbursement reimbursable
    report reported notify notified notification
    approve approved approval approver approves authorise authorised
    hire hired hires recruit recruited recruitment
    buy bought purchase purchased
    cancel cancelled cancellation terminate termination
    headcount employees staff workforce people
    leaver leavers depart departing departure departures leave leaves left
    standard ordinary regular normal
    hotel hotels lodging accommodation
    client clients customer customers
    login logon sign
    insurance insure insured cover coverage
    quote quotes quotation bid tender
    patch patches update updates
    remote remotely telework teleworking wfh
    vendor vendors supplier suppliers
    password passwords passphrase"""


def _groups() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    groups: dict[str, frozenset[str]] = {}
    actions: set[str] = set()
    for line in _SYNONYM_GROUPS.splitlines():
        stems = frozenset(content_stems(line.replace("!", " ")))
        for stem in stems:
            groups[stem] = groups.get(stem, frozenset()) | stems
        if line.strip().startswith("!"):
            actions |= stems
    return groups, frozenset(actions)


_SYNONYMS, _ACTION_STEMS = _groups()
# Nouns that make a question ask for a figure even without "how much" ("What is the hotel cap?").
_FIGURE_NOUNS = (
    r"limit|cap|maximum|minimum|rate|amount|deadline|fee|fees|cost|costs|price|percentage|percent|number|threshold|"
    r"period|length|duration|budget|allowance|stipend|salary|revenue|income|margin|headcount|per\s+diem|total|"
    r"share|ratio|value|date|age|frequency|timeline|timeframe|window|retention"
)
_WANTS_FIGURE = re.compile(
    r"\bhow\s+(?:much|many|long|often|soon|quickly|fast|late|early|far|big|large|high|low|old|frequently)\b|"
    r"\bwhen\b|\bby\s+when\b|\bwhat\s+(?:time|date|day|year|percentage|share)\b|\bwithin\s+what\b|"
    rf"\b(?:{_FIGURE_NOUNS})\b",
    re.IGNORECASE,
)
# Figure kinds (ledger.text.quantities) that can answer "how long", "how many", …; a unit stating only other kinds
# (a fee for "how long", a weekday for "how much") does not answer it.
DEADLINE_KINDS = frozenset({"duration", "time", "date", "weekday", "frequency"})  # "how soon", "when"
# A deadline stated without a figure ("by the end of their last working day") answers "how soon" or "when".
DEADLINE_WORDS = re.compile(
    r"\b(?:immediately|without\s+delay|by\s+the\s+end\s+of|same\s+(?:business\s+|working\s+)?day|"
    r"next\s+(?:business\s+|working\s+)?day)\b",
    re.I,
)
_KINDS_WANTED = (
    (re.compile(r"\bhow\s+(?:often|frequently)\b", re.I), frozenset({"frequency", "duration", "count", "number"})),
    (re.compile(r"\bhow\s+(?:soon|quickly|fast|late|early)\b|\bby\s+when\b|\bwithin\s+what\b", re.I), DEADLINE_KINDS),
    (re.compile(r"\bhow\s+long\b", re.I), frozenset({"duration", "date", "time", "count", "number", "frequency"})),
    (re.compile(r"\bhow\s+many\b", re.I), frozenset({"count", "number", "duration", "frequency", "ordinal"})),
    (re.compile(r"\bhow\s+much\b", re.I), frozenset({"money", "percent", "number", "count", "duration", "frequency"})),
    (re.compile(r"\bwhat\s+(?:percentage|percent|share|proportion)\b", re.I), frozenset({"percent", "number"})),
    (re.compile(r"^\s*when\b|\bwhat\s+(?:date|day|time)\b", re.I), DEADLINE_KINDS),
    # "What refund amount …", "What is the fee …": money (or a share of something), not a deadline.
    (re.compile(r"^\s*(?:what|which)\b.*\b(?:amount|fee|fees|cost|costs|price|budget|salary|spend|spending)\b", re.I),
     frozenset({"money", "percent", "number", "count"})),
)
# "How many written quotes are needed": the thing counted (a plural noun among the next words), which a count in
# the answer must be a count of.
_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[a-z0-9-]+[\s,]*){1,4})", re.I)
# A time frame: "at the end of the third quarter", "in Q3 2026", "during the quarter", "in fiscal 2025". Never a
# rate ("per year") or a span ("within one year"): those belong to the figure asked for.
_ORDINAL = r"(?:first|second|third|fourth|1st|2nd|3rd|4th|last|previous|prior|next|current|latest|same|full|this)"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may(?=\s+\d)|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+\d{1,2}(?:st|nd|rd|th)?)?"
          r"(?:,?\s+(?:19|20)\d\d)?")
_PERIOD = (
    rf"(?:{_MONTH}|\d{{1,2}}\s+{_MONTH}|(?:{_ORDINAL}\s+)?(?:(?:fiscal|financial|calendar)\s+)?(?:quarter|half|year|month)"
    r"(?:\s+(?:of\s+)?(?:fy\s*)?(?:19|20)\d\d)?|q[1-4](?:\s+(?:of\s+)?(?:19|20)\d\d)?|h[12](?:\s+(?:19|20)\d\d)?|"
    r"(?:fiscal\s+|fy\s*)?(?:19|20)\d\d)"
)
_TIME_FRAME = re.compile(
    rf"\b(?:(?:at|by|as\s+of|towards?)\s+the\s+(?:end|start|beginning|close)\s+of\s+(?:the\s+)?{_PERIOD}|"
    rf"(?:in|during|for|over|throughout|of|on|as\s+of)\s+(?:the\s+)?{_PERIOD})\b",
    re.I,
)
_QUARTER = re.compile(
    r"\b(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+|financial\s+)?quarter)\b", re.I
)
_HALF = re.compile(r"\b(?:h([12])|(first|second|1st|2nd)\s+half)\b", re.I)
_YEAR = re.compile(r"(?<![$\d.,])\b((?:19|20)\d\d)\b(?![\d.,]\d)")
_ORDINAL_NUMBER = {"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2", "3rd": "3",
                   "4th": "4"}
_PART_SPLIT = re.compile(r"\?+|;")
# A conjunction starts a new part when a question word, an auxiliary or a determiner follows it
# ("and how long…", "and is…", "and the per diem"), never inside names like "Travel and Expense Policy".
_CONJUNCTION = re.compile(
    r",?\s+(?:and|or|as\s+well\s+as|plus)\s+(?=(?:what|how|when|who|whom|which|where|why|whether|is|are|was|were|"
    r"do|does|did|can|could|should|must|will|would|may|the|a|an|its|their|his|her|our|your|any|each|every)\b)"
    r"|,\s+(?=(?:what|how|when|who|which|where|why|whether)\b)",
    re.IGNORECASE,
)
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


def without_time_frames(text: str) -> str:
    """The text with its time frames ("at the end of the third quarter", "in 2026") taken out."""
    return re.sub(r"\s{2,}", " ", _TIME_FRAME.sub(" ", text)).strip()


def periods(text: str) -> frozenset[str]:
    """The quarters, halves and years a text names: "Q3 2026 …" → {"q3", "y2026"}."""
    found = {f"q{m.group(1) or _ORDINAL_NUMBER[m.group(2).lower()]}" for m in _QUARTER.finditer(text)}
    found |= {f"h{m.group(1) or _ORDINAL_NUMBER[m.group(2).lower()]}" for m in _HALF.finditer(text)}
    found |= {f"y{m.group(1)}" for m in _YEAR.finditer(text)}
    return frozenset(found)


def question_periods(text: str) -> frozenset[str]:
    """The periods named in a question's time frames (not in its other words: "the 2024 edition" is a name)."""
    return frozenset().union(*(periods(m.group(0)) for m in _TIME_FRAME.finditer(text)))


def period_conflict(asked: frozenset[str], named: frozenset[str]) -> bool:
    """Whether a passage naming `named` periods is about another period than the one asked: for quarters, halves
    and years separately, the passage names some of that kind but not the one asked."""
    for kind in "qhy":
        want = {p for p in asked if p[0] == kind}
        have = {p for p in named if p[0] == kind}
        if want and have and not want & have:
            return True
    return False


def focus_stems(text: str) -> frozenset[str]:
    """Content stems of a question that name what it is about (not the kind of answer it wants, not a generic
    modifier, not its time frame)."""
    return frozenset(s for s in content_stems(without_time_frames(text)) if s not in _ASKING_STEMS and not s.isdigit())


def figure_kinds(question: str) -> frozenset[str]:
    """The figure kinds that can answer a question ("how often" → frequency or duration); empty when any can."""
    for pattern, kinds in _KINDS_WANTED:
        if pattern.search(question):
            return kinds
    return frozenset()


_PLURAL_NOUNS = frozenset({"people", "staff", "personnel", "children", "men", "women", "data"})
# Units a figure is measured in: "how many days" is answered by any duration, not by a count of days.
_MEASURES = frozenset(content_stems("days weeks months years hours minutes seconds times percent dollars"))


def counted_stems(question: str, focus: frozenset[str]) -> frozenset[str]:
    """The stems of what "how many …" counts ("quotes", "employees"; nothing for a unit such as "days"): the first
    plural noun of the next words ("customers", not the verb or object of "customers requested refunds"), else the
    first word; only stems that name the topic (focus words, or the people and things every document counts)."""
    match = _HOW_MANY.search(question)
    if not match:
        return frozenset()
    words = match.group(1).lower().split()
    plural = [w for w in words if w in _PLURAL_NOUNS or (len(w) > 3 and w.endswith("s") and not w.endswith("ss"))]
    head = content_stems(plural[0] if plural else words[0])
    return frozenset(s for s in head if s not in _MEASURES and (s in focus or s in _ASKING_STEMS))


def make_part(text: str, focus: frozenset[str] | None = None, wants: bool | None = None) -> QuestionPart:
    """A question part with everything derived from its text (focus and figure wish may be given)."""
    focus = focus_stems(text) if focus is None else focus
    actions = frozenset(s for s in content_stems(without_time_frames(text)) if s in _ACTION_STEMS)
    return QuestionPart(text, focus, wants_figure(text) if wants is None else wants, figure_kinds(text),
                        counted_stems(text, focus), question_periods(text), actions)


def whole_question(question: str, parts: list[QuestionPart]) -> QuestionPart:
    """The question as one part: the union of its parts' focus, counted things, periods and actions."""
    def union(name: str) -> frozenset[str]:
        return frozenset().union(*(getattr(p, name) for p in parts))

    return QuestionPart(question, union("focus"), wants_figure(question), figure_kinds(question), union("counted"),
                        union("periods"), union("actions"))


def wants_figure(question: str) -> bool:
    """Whether a question asks for a number, amount, duration or date."""
    return bool(_WANTS_FIGURE.search(question))


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
    return parts


def _has(stem: str, have: frozenset[str] | set[str]) -> bool:
    return stem in have or (len(stem) >= 4 and any(h.startswith(stem) or (len(h) >= 4 and stem.startswith(h))
                                                   for h in have))


def stem_covered(stem: str, have: frozenset[str] | set[str]) -> bool:
    """Whether `have` names a stem: itself, a word sharing a prefix of 4+ letters ("mileag" and "mile"), or a
    synonym ("kept" and "retention")."""
    return _has(stem, have) or any(_has(s, have) for s in _SYNONYMS.get(stem, ()) if s != stem)


def stems_cover(wanted: frozenset[str], have: frozenset[str] | set[str]) -> int:
    """How many wanted stems `have` names (see `stem_covered`)."""
    return sum(1 for stem in wanted if stem_covered(stem, have))
