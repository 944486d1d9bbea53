"""The offline claim extractor: Punkt sentences and the rules of seed 004 §3, with completeness and gaps."""

from __future__ import annotations

from ledger.backends.base import Extraction, ExtractRequest
from ledger.backends.local.gaps import framing, gap_report
from ledger.judge.claims import extract_claims


class RuleClaimExtractor:
    """Claims by rule; completeness and gaps by the question's parts the claims cover (no model)."""

    def run(self, request: ExtractRequest) -> Extraction:
        """The claims of the answer, and how completely they answer the question."""
        claims = extract_claims(request.answer, request.question)
        completeness, gaps = gap_report(request.question, [c.text for c in claims],
                                        frames=framing(claims, request.evidence))
        return Extraction(claims, completeness, gaps)
