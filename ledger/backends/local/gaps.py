"""Completeness and gaps (seed 003): which parts of a question an answer's claims cover. Pure."""

from __future__ import annotations

import re

from ledger.backends.local.questions import QuestionPart, question_parts, stems_cover
from ledger.judge.claims import contains_numeric, content_stems

MIN_SHARE = 0.5  # a part is covered when the claims hold at least this share of its focus stems


def part_coverage(part: QuestionPart, claim_texts: list[str]) -> float:
    """Share of a part's focus stems found in the claims that mention any of them (1.0 when it has none)."""
    if not part.focus:
        return 1.0
    have: set[str] = set()
    for text in claim_texts:
        have |= content_stems(text)
    return stems_cover(part.focus, have) / len(part.focus)


def part_covered(part: QuestionPart, claim_texts: list[str], min_share: float = MIN_SHARE) -> bool:
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


def gap_report(question: str, claim_texts: list[str], min_share: float = MIN_SHARE) -> tuple[float, list[str]]:
    """(share of the question's parts the claims cover, the uncovered parts phrased briefly)."""
    parts = [p for p in question_parts(question) if p.focus]
    if not parts:
        return 1.0, []
    gaps = [gap_phrase(p) for p in parts if not part_covered(p, claim_texts, min_share)]
    return round(1.0 - len(gaps) / len(parts), 4), gaps
