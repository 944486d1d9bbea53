"""Verdict and confidence rules (seed 004 §5), conflict resolution (§8.2) and freshness (§8.3). All pure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ledger.core.types import EvidenceMatch, Support, Verdict
from ledger.judge.support_rules import states_outright
from ledger.text.quantities import compare_quantities, extract_quantities

BASE_CONFIDENCE: dict[Support, float] = {"full": 0.85, "partial": 0.6, "none": 0.0, "contradicted": 0.85}
MULTI_SOURCE_STEP = 0.05
MULTI_SOURCE_MAX = 3
HIGH_SIMILARITY = 0.85
HIGH_SIMILARITY_BOOST = 0.05
INFERENCE_PENALTY = 0.1
# A contradicting passage much less similar to the claim than a supporting one is about something else.
CONTRADICTION_MARGIN = 0.1


def confidence(support: Support, similarities: list[float], requires_inference: bool = False) -> float:
    """Seed 004 §5.2: base by support level, +0.05 per extra source (max 3), +0.05 when mean similarity > 0.85,
    −0.1 when the evidence only implies the claim; clamped to [0, 1]."""
    score = BASE_CONFIDENCE[support]
    if score == 0.0:
        return 0.0
    if len(similarities) > 1:
        score += MULTI_SOURCE_STEP * min(len(similarities) - 1, MULTI_SOURCE_MAX)
    if similarities and sum(similarities) / len(similarities) > HIGH_SIMILARITY:
        score += HIGH_SIMILARITY_BOOST
    if requires_inference:
        score -= INFERENCE_PENALTY
    return round(min(max(score, 0.0), 1.0), 4)


def verdict_for(support: Support, conf: float, supported_above: float = 0.8) -> Verdict:
    """Seed 004 §5.1: contradicted wins; full support is 'supported' only above the confidence bar, else 'weak'."""
    if support == "contradicted":
        return "contradicted"
    if support == "full":
        return "supported" if conf > supported_above else "weak"
    if support == "partial":
        return "weak"
    return "not_found"


@dataclass(frozen=True)
class Resolution:
    """How the matches of one claim resolve: the deciding support, the matches that carry it, and a conflict."""

    support: Support
    deciding: list[EvidenceMatch]
    conflict_with: EvidenceMatch | None = None
    conflict_unresolved: bool = False


def _newest(matches: list[EvidenceMatch]) -> date | None:
    dates = [m.doc_date for m in matches if m.doc_date]
    return max(dates) if dates else None


def _figures_given(claim: str, quote: str) -> int:
    """How many of a claim's figures a quote gives, the same or another."""
    agreement = compare_quantities(extract_quantities(claim), extract_quantities(quote))
    return sum(m.evidence is not None for m in (*agreement.matched, *agreement.conflicts))


def resolve(matches: list[EvidenceMatch], claim: str = "") -> Resolution:
    """Pick the deciding support of a claim's matches.

    Supporting and contradicting evidence from different documents is a conflict (§8.2): the newer
    document prevails and the older one is named; with no dates to tell them apart the claim stays
    contradicted and the conflict is unresolved. A contradicting passage far less similar to the claim
    than a supporting one speaks of something else and is set aside, and so does one of the same document that gives
    fewer of the `claim`'s figures than a passage stating them all: "Each player takes 5 ship tokens" against "In
    the two-player game each player uses 7 ship tokens", stated by "With two players, … each player uses 7".
    """
    supporting = [m for m in matches if m.support in ("full", "partial")]
    contradicting = [m for m in matches if m.support == "contradicted"]
    if supporting:
        closest = max(m.similarity for m in supporting)
        contradicting = [m for m in contradicting if m.similarity >= closest - CONTRADICTION_MARGIN]
    if contradicting and supporting:
        support_docs = {m.path or m.document for m in supporting}
        contra_docs = {m.path or m.document for m in contradicting}
        stated = [m for m in supporting if m.support == "full" and states_outright(m.reason)
                  and (m.path or m.document) in contra_docs]
        best = max(stated, key=lambda m: m.similarity, default=None)
        if best is not None and (best.similarity >= max(m.similarity for m in contradicting) or (claim and all(
                _figures_given(claim, m.quote) < _figures_given(claim, best.quote) for m in contradicting))):
            # A passage that gives every figure of the claim (or the claim word for word) outweighs a less similar one
            # of the same document that gives another: the document states the claim, and the other passage is about
            # something else.
            return Resolution("full", stated)
        if support_docs != contra_docs:
            newest_support, newest_contra = _newest(supporting), _newest(contradicting)
            if newest_support and newest_contra and newest_support != newest_contra:
                if newest_support > newest_contra:
                    return Resolution(_best_support(supporting), supporting, conflict_with=contradicting[0])
                return Resolution("contradicted", contradicting, conflict_with=supporting[0])
            return Resolution("contradicted", contradicting, conflict_with=supporting[0], conflict_unresolved=True)
    if contradicting:
        return Resolution("contradicted", contradicting)
    if supporting:
        return Resolution(_best_support(supporting), supporting)
    return Resolution("none", [])


def _best_support(matches: list[EvidenceMatch]) -> Support:
    return "full" if any(m.support == "full" for m in matches) else "partial"


def is_outdated(doc_date: date | None, today: date, max_age_days: int = 365) -> bool:
    """Seed 004 §8.3: a source older than `max_age_days` is outdated; an undated one is not judged."""
    return doc_date is not None and (today - doc_date).days > max_age_days


def age_description(doc_date: date, today: date) -> str:
    """'2 years old', '14 months old' — how a reader wants a source's age said."""
    days = (today - doc_date).days
    if days >= 730:
        return f"{days // 365} years old"
    return f"{days // 30} months old"
