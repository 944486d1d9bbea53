"""Completeness and gaps (seed 003): which parts of a question an answer's claims cover. Pure.

A claim is read with the title and heading of the chunks it cites: "Group lessons cost £65 per block." cited from
the visitor guide of a leisure centre answers "How much does the leisure centre charge for lessons?", as the
writer, which read the same headings, meant it to; and a question word the claims say in other words ("charge" as
"costs", `said_otherwise`) is covered, as the writer counts it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from ingest.chunking import Headings, document_headings
from ledger.backends.local.questions import QuestionPart, question_parts, said_otherwise, stems_cover
from ledger.backends.local.units import states_a_figure
from ledger.core.types import Chunk, Claim
from ledger.judge.claims import content_stems

MIN_SHARE = 0.5  # a part is covered when the claims hold at least this share of its focus stems


def framing(claims: Sequence[Claim], evidence: Sequence[Chunk]) -> list[str]:
    """For each claim, the titles and headings of the evidence chunks it cites, with the headings inside the chunk
    above the line holding most of its words ("What is not covered" over "We will not pay for: … theft …"); for a
    claim that cites none (a draft written elsewhere), of the chunk holding most of its words, if that is at least
    half of them."""
    chunks = {c.hash: c for c in evidence}
    headings: dict[str, Headings] = {}  # each cited chunk's headings, read once by its text
    named = {c.hash: " ".join(dict.fromkeys(x for x in (c.title or "", c.section) if x)) for c in evidence}
    chunk_stems = {c.hash: content_stems(c.text) for c in evidence} if not all(c.cited for c in claims) else {}
    out = []
    for claim in claims:
        cited = list(claim.cited)
        own = content_stems(claim.text)
        if not cited and own and chunk_stems:
            best = max(chunk_stems, key=lambda h: len(own & chunk_stems[h]))
            cited = [best] if len(own & chunk_stems[best]) * 2 >= len(own) else []
        frames = [f"{named.get(h, '')} {_headings_over(own, chunks[h].text, headings)}".strip()
                  for h in cited if h in chunks]
        out.append(" ".join(dict.fromkeys(f for f in frames if f)))
    return out


def _headings_over(own: set[str], text: str, cache: dict[str, Headings]) -> str:
    """The heading or lead-in line nearest above the line of a chunk that holds most of a claim's words (`own`), with
    the Markdown heading above that; "" when none is. `cache` keeps each chunk's headings by its text."""
    if not own:
        return ""
    found = cache.get(text)
    if found is None:
        found = cache[text] = document_headings(text)
    if not found.lines:
        return ""
    best, at, pos = 0, -1, 0
    for line in text.splitlines(keepends=True):
        if (n := len(own & content_stems(line))) > best:
            best, at = n, pos
        pos += len(line)
    k = bisect_right(found.ends, at) - 1
    if at < 0 or k < 0:
        return ""
    above = found.markdown_before[k] if found.depths[k] == 0 else -1
    return " ".join(found.lines[i] for i in (above, k) if i >= 0)


def _stems(texts: list[str], frames: list[str] | None, i: int) -> set[str]:
    """The content stems of claim i and of the titles and headings of what it cites."""
    return content_stems(texts[i]) | (content_stems(frames[i]) if frames and frames[i] else set())


def part_coverage(part: QuestionPart, claim_texts: list[str], frames: list[str] | None = None) -> float:
    """Share of a part's focus stems found in the claims (and the titles and headings of what they cite, `frames`),
    1.0 when it has none."""
    if not part.focus:
        return 1.0
    have: set[str] = set()
    for i in range(len(claim_texts)):
        have |= _stems(claim_texts, frames, i)
    covered = {s for s in part.focus if stems_cover(frozenset({s}), have)}
    if len(covered) < len(part.focus):  # "charge" said as "costs"
        covered |= frozenset().union(*(said_otherwise(part, t, content_stems(t)) for t in claim_texts))
    return len(covered) / len(part.focus)


def part_covered(part: QuestionPart, claim_texts: list[str], min_share: float = MIN_SHARE,
                 frames: list[str] | None = None) -> bool:
    """Whether the claims answer a part: half of its focus stems, and a figure when it asks for one (in a claim's
    own words: the year of a title is no answer)."""
    if part_coverage(part, claim_texts, frames) < min_share:
        return False
    if part.wants_figure and part.focus:
        return any(states_a_figure(t) and (stems_cover(part.focus, _stems(claim_texts, frames, i))
                                            or said_otherwise(part, t, content_stems(t)))
                   for i, t in enumerate(claim_texts))
    return True


def gap_phrase(part: QuestionPart) -> str:
    """A brief statement of an uncovered part, for the ledger's gaps list."""
    text = re.sub(r"\s+", " ", part.text).strip(" ,.;:")
    return text[:1].upper() + text[1:] if text else text


def gap_report(question: str, claim_texts: list[str], min_share: float = MIN_SHARE,
               frames: list[str] | None = None) -> tuple[float, list[str]]:
    """(share of the question's parts the claims cover, the uncovered parts phrased briefly)."""
    parts = [p for p in question_parts(question) if p.focus]
    if not parts:
        return 1.0, []
    gaps = [gap_phrase(p) for p in parts if not part_covered(p, claim_texts, min_share, frames)]
    return round(1.0 - len(gaps) / len(parts), 4), gaps
