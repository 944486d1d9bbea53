"""Hand-built runs for the store, audit, export and CLI tests: a flawed draft revised once, and its pieces."""

from __future__ import annotations

import re
from datetime import date

from ledger.core.types import (
    Claim,
    Critique,
    CritiqueIssue,
    EvidenceLedger,
    EvidenceMatch,
    LedgerEntry,
    LedgerSummary,
    RevisionAttempt,
    RevisionDecision,
    RiskFlag,
    RunResult,
    RunWarning,
    TokenUsage,
)

POLICY = "a1b2c3d4e5f6"  # records-retention policy chunk
HANDBOOK = "0f9e8d7c6b5a"  # employee handbook chunk whose text carries a script tag
PHANTOM = "deadbeef0000"  # cited by the draft, exists nowhere
SCRIPT = "<script>alert(1)</script>"

DRAFT = (
    f"Customer records are kept for five years after the account closes [cite:{POLICY}]. "
    f"Deletion requests are approved by the Data Protection Officer [cite:{HANDBOOK}]. "
    f"Backups are encrypted with AES-256 [cite:{PHANTOM}]."
)
REVISED = (
    f"Customer records are kept for seven years after the account closes [cite:{POLICY}]. "
    f"Deletion requests are approved by the Data Protection Officer [cite:{HANDBOOK}]."
)


def _match(chunk: str, support: str, quote: str, similarity: float = 0.83) -> EvidenceMatch:
    document = "Records Retention Policy v3" if chunk == POLICY else "Employee Handbook <2024>"
    return EvidenceMatch(
        chunk_hash=chunk, document=document, path=f"/docs/{chunk}.md", doc_date=date(2024, 3, 1),
        similarity=similarity, support=support, quote=quote, match_type="cited",  # type: ignore[arg-type]
    )


def _claim(cid: str, answer: str, sentence: str, ctype: str, importance: str, cited: list[str]) -> Claim:
    start = answer.index(sentence)
    text = re.sub(r"\s*\[cite:[0-9a-f]+\]", "", sentence)
    return Claim(id=cid, text=text, type=ctype, importance=importance, cited=cited,  # type: ignore[arg-type]
                 span=(start, start + len(sentence)))


def _ledger(entries: list[LedgerEntry]) -> EvidenceLedger:
    non_minor = [e for e in entries if e.claim.importance != "minor"]
    verdicts: dict[str, int] = {}
    for entry in entries:
        verdicts[entry.verdict] = verdicts.get(entry.verdict, 0) + 1
    covered = sum(e.verdict in ("supported", "weak") for e in non_minor)
    missing = sum(e.verdict == "not_found" for e in non_minor)
    critical = sum(e.claim.importance == "critical" and e.verdict in ("not_found", "contradicted") for e in entries)
    return EvidenceLedger(entries=entries, summary=LedgerSummary(
        total_claims=len(entries), evidence_coverage=covered / len(non_minor) if non_minor else 1.0,
        unsupported_rate=missing / len(non_minor) if non_minor else 0.0, verdicts=verdicts,
        critical_unsupported=critical,
    ))


def _sentences(answer: str) -> list[str]:
    return [s.strip() + "." for s in answer.split(".") if s.strip()]


def flawed_run(session_id: str = "sess-flawed-0001", workspace: str = "default") -> RunResult:
    """A verify run: a draft with a contradicted, a phantom-cited and a supported claim, revised once to coverage 1."""
    s = _sentences(DRAFT)
    handbook_quote = f"Deletion requests are approved by the Data Protection Officer. {SCRIPT}"
    draft_ledger = _ledger([
        LedgerEntry(claim=_claim("c1", DRAFT, s[0], "numeric", "critical", [POLICY]), verdict="contradicted",
                    confidence=0.91, evidence=[_match(POLICY, "contradicted", "Customer records are retained for "
                                                      "seven (7) years after account closure.")],
                    notes="The policy says seven years, not five."),
        LedgerEntry(claim=_claim("c2", DRAFT, s[1], "policy", "material", [HANDBOOK]), verdict="supported",
                    confidence=0.88, evidence=[_match(HANDBOOK, "full", handbook_quote)]),
        LedgerEntry(claim=_claim("c3", DRAFT, s[2], "fact", "critical", [PHANTOM]), verdict="not_found",
                    confidence=0.0, flags=["phantom_citation"], notes="Cited chunk does not exist; nothing found."),
    ])
    r = _sentences(REVISED)
    final_ledger = _ledger([
        LedgerEntry(claim=_claim("c1", REVISED, r[0], "numeric", "critical", [POLICY]), verdict="supported",
                    confidence=0.93, evidence=[_match(POLICY, "full", "Customer records are retained for seven (7) "
                                                      "years after account closure.", 0.91)]),
        LedgerEntry(claim=_claim("c2", REVISED, r[1], "policy", "material", [HANDBOOK]), verdict="supported",
                    confidence=0.88, evidence=[_match(HANDBOOK, "full", handbook_quote)]),
    ])
    critique = Critique(summary="One figure disagrees with the policy; one citation points nowhere.", issues=[
        CritiqueIssue(kind="unknown_figure", sentence=s[0], message="'five years' is not in the evidence."),
        CritiqueIssue(kind="phantom_citation", sentence=s[2], message=f"{PHANTOM} is not a known chunk."),
    ])
    return RunResult(
        session_id=session_id, mode="verify", workspace=workspace, backend="local", risk_level="medium",
        question="How long are customer records kept, and who approves deletion?",
        answer=REVISED, ledger=final_ledger,
        revisions=[
            RevisionAttempt(response=DRAFT, critique=critique, ledger=draft_ledger, decision=RevisionDecision(
                should_revise=True, reason="coverage 0.33 < 0.85",
                instructions=["Correct c1 from the quote: seven years.", "Remove or support c3."])),
            RevisionAttempt(response=REVISED, ledger=final_ledger, decision=RevisionDecision(
                should_revise=False, reason="coverage 1.00 >= 0.85")),
        ],
        warnings=[RunWarning(code="UNSUPPORTED_CLAIMS", message="The draft had unsupported critical claims.",
                             details=["c3 removed: Backups are encrypted with AES-256."])],
        risk_flags=[RiskFlag(type="outdated_source", severity="low", description=f"Handbook is old {SCRIPT}")],
        retrieved_chunks=[POLICY, HANDBOOK],
        duration_ms=1834, llm_calls=0, token_usage=TokenUsage(),
    )


def simple_run(session_id: str, workspace: str = "default", coverage: float = 1.0) -> RunResult:
    """A one-round answer run with one supported claim (or a not_found one when coverage is 0)."""
    answer = f"Customer records are kept for seven years [cite:{POLICY}]."
    verdict = "supported" if coverage >= 0.5 else "not_found"
    entry = LedgerEntry(claim=_claim("c1", answer, answer, "numeric", "critical", [POLICY]),
                        verdict=verdict,  # type: ignore[arg-type]
                        confidence=0.9 if verdict == "supported" else 0.0,
                        evidence=[_match(POLICY, "full", "Records are retained for seven years.")]
                        if verdict == "supported" else [])
    ledger = _ledger([entry])
    return RunResult(
        session_id=session_id, mode="answer", question="How long are customer records kept?", answer=answer,
        ledger=ledger, revisions=[RevisionAttempt(response=answer, ledger=ledger)], workspace=workspace,
        retrieved_chunks=[POLICY], duration_ms=250, llm_calls=2,
        token_usage=TokenUsage(input_tokens=1200, output_tokens=150),
    )
