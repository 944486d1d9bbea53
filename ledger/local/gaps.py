"""Question analysis for the local backend, and the local gap finder (which parts of a question an answer covers).

Pure functions of text. A question is cut into parts at question marks, semicolons and conjunctions that
start a new request ("… and how long …", "… and the per diem"); each part has *focus* stems: its content
words minus the words that only say what kind of answer is wanted ("how long", "limit", "amount") or that
every company document uses ("employee", "company", "policy"). A part is covered when the answer's claims
contain at least half of its focus stems and, if the part asks for a figure, one of those claims states one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.types import Chunk
from ledger.claims import contains_numeric, content_stems, extract_claims

# Stems that say what kind of answer is wanted, or that nearly every company document contains: they must
# not decide whether a passage answers a question ("How long do employees have…" is about what, not "long").
_ASKING_WORDS = """long much many often soon quickly late early far big large high low old new current exact exactly
    limit cap maximum max minimum min amount number rate level size length duration period time deadline threshold
    figure value total count percentage percent price cost fee date day days year years allowed allow permit permitted
    employee employees staff company companies firm policy policies procedure procedures rule rules document
    documents quillfeather analytics inc happen happens apply applies say says state states work"""
_ASKING_STEMS = frozenset(content_stems(_ASKING_WORDS))
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
    """One request inside a question: its text, its focus stems, and whether it asks for a figure."""

    text: str
    focus: frozenset[str]
    wants_figure: bool


def focus_stems(text: str) -> frozenset[str]:
    """Content stems of a question that name what it is about (not the kind of answer it wants)."""
    return frozenset(s for s in content_stems(text) if s not in _ASKING_STEMS and not s.isdigit())


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
            parts.append(QuestionPart(f"{prev.text}, {text}", prev.focus, prev.wants_figure or wants_figure(text)))
            continue
        parts.append(QuestionPart(text, focus, wants_figure(text)))
    if len(parts) > 1 and not parts[0].focus:
        first = parts.pop(0)
        parts[0] = QuestionPart(parts[0].text, parts[0].focus, parts[0].wants_figure or first.wants_figure)
    return parts


def stems_cover(wanted: frozenset[str], have: frozenset[str] | set[str]) -> int:
    """How many wanted stems `have` contains; a shared prefix of 4+ letters counts ("mileag" and "mile")."""
    count = 0
    for stem in wanted:
        if stem in have or (len(stem) >= 4 and any(h.startswith(stem) or (len(h) >= 4 and stem.startswith(h))
                                                    for h in have)):
            count += 1
    return count


def part_coverage(part: QuestionPart, claim_texts: list[str]) -> float:
    """Share of a part's focus stems found in the claims that mention any of them (1.0 when it has none)."""
    if not part.focus:
        return 1.0
    have: set[str] = set()
    for text in claim_texts:
        have |= content_stems(text)
    return stems_cover(part.focus, have) / len(part.focus)


def part_covered(part: QuestionPart, claim_texts: list[str], min_share: float = 0.5) -> bool:
    """Whether the claims answer a part: half of its focus stems, and a figure when it asks for one."""
    if part_coverage(part, claim_texts) < min_share:
        return False
    if part.wants_figure and part.focus:
        return any(contains_numeric(t) and stems_cover(part.focus, content_stems(t)) for t in claim_texts)
    return True


def gap_phrase(part: QuestionPart) -> str:
    """A brief statement of an uncovered part, for the ledger's gaps list."""
    text = re.sub(r"\s+", " ", part.text).strip(" ,.;:")
    return text[:1].upper() + text[1:] if text else text


class LocalGapFinder:
    """Completeness and gaps by question parts and the answer's claims (no model)."""

    def __init__(self, min_share: float = 0.5) -> None:
        self.min_share = min_share

    def run(self, question: str, answer: str, evidence: list[Chunk]) -> tuple[float, list[str]]:
        """(share of the question's parts the answer covers, the uncovered parts phrased briefly)."""
        del evidence  # coverage is judged on the answer itself; the evidence decided its claims already
        parts = [p for p in question_parts(question) if p.focus]
        if not parts:
            return 1.0, []
        claim_texts = [c.text for c in extract_claims(answer, question)]
        gaps = [gap_phrase(p) for p in parts if not part_covered(p, claim_texts, self.min_share)]
        return round(1.0 - len(gaps) / len(parts), 4), gaps
