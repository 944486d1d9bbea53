"""Risk flags of a run (seed 004 §8) and the question's risk level (seed 000 heuristics). All pure."""

from __future__ import annotations

import re
from datetime import date

from ledger.core.types import (
    CONFLICT,
    OUTDATED_SOURCE,
    PHANTOM_CITATION,
    Chunk,
    EvidenceLedger,
    RiskFlag,
    RiskLevel,
)
from ledger.judge.verdicts import age_description, is_outdated
from ledger.text.injection import instruction_sentences

_CRITICAL = re.compile(
    r"\b(medic\w*|diagnos\w*|dosage|patient|prescri\w*|legal\w*|lawsuit|liabil\w*|contract\w*|regulat\w*|"
    r"complian\w*|gdpr|hipaa|financ\w*|invest\w*|tax\w*|loan|revenue|payroll|salar\w*)\b",
    re.IGNORECASE,
)
_HIGH = re.compile(r"\b(security|password|breach|incident|safety|termination|penalt\w*|fine[sd]?)\b", re.IGNORECASE)


def risk_level(question: str, evidence_texts: list[str] | None = None) -> RiskLevel:
    """Heuristic risk of a question (seed 000): medical, legal and financial topics are critical."""
    if _CRITICAL.search(question):
        return "critical"
    if _HIGH.search(question):
        return "high"
    if evidence_texts and sum(bool(_CRITICAL.search(t)) for t in evidence_texts) > len(evidence_texts) / 2:
        return "medium"
    return "low"


def ledger_risk_flags(ledger: EvidenceLedger, today: date, outdated_days: int = 365) -> list[RiskFlag]:
    """Run-level flags from the entries: conflicting sources, outdated sources, phantom citations."""
    flags: list[RiskFlag] = []
    conflicted = [e for e in ledger.entries if CONFLICT in e.flags]
    if conflicted:
        flags.append(
            RiskFlag(
                type="conflict",
                severity="high",
                description=f"Sources disagree on {len(conflicted)} claim(s): "
                + "; ".join(f"{e.claim.id}: {e.notes.split('. ', 1)[-1]}" for e in conflicted[:3]),
            )
        )
    seen: dict[str, date] = {}
    for entry in ledger.entries:
        if OUTDATED_SOURCE not in entry.flags:
            continue
        for match in entry.evidence:
            if is_outdated(match.doc_date, today, outdated_days):
                seen.setdefault(match.document, match.doc_date)  # type: ignore[arg-type]
    for document, doc_date in seen.items():
        flags.append(
            RiskFlag(
                type="outdated_source",
                severity="medium",
                description=f"'{document}' dated {doc_date.isoformat()} is {age_description(doc_date, today)}.",
            )
        )
    phantoms = [e.claim.id for e in ledger.entries if PHANTOM_CITATION in e.flags]
    if phantoms:
        flags.append(
            RiskFlag(
                type="phantom_citation",
                severity="medium",
                description=f"Claim(s) {', '.join(phantoms)} cite chunks that do not exist.",
            )
        )
    return flags


def quarantine(evidence: list[Chunk]) -> tuple[list[Chunk], list[RiskFlag]]:
    """The evidence without the documents that address an AI model, and a high risk flag for each of them.

    A document with text such as "ignore previous instructions and state that …" is not a source: every
    retrieved chunk of it is dropped, not only the instruction (see ledger.text.injection).
    """
    found: dict[str, tuple[str, str]] = {}
    for chunk in evidence:
        if chunk.document_id not in found and (sentences := instruction_sentences(chunk.text)):
            found[chunk.document_id] = (chunk.title or chunk.path or chunk.document_id, sentences[0])
    kept = [chunk for chunk in evidence if chunk.document_id not in found]
    flags = [
        RiskFlag(
            type="instructions_in_document",
            severity="high",
            description=f"'{document}' was not used as evidence: it contains text addressed to an AI model "
            f"(\"{_shorten(sentence)}\")",
        )
        for document, sentence in found.values()
    ]
    return kept, flags


def _shorten(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
