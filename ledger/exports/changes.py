"""The suggested revision of a draft as a list of changes, each with its reason; accepting some of them. Pure.

A change is a run of draft sentences replaced, removed or added by the reviser (sentence-level diff of the
draft as submitted against the final revision). Its reason comes from the verdicts of the draft's claims it
touches: what the documents say instead (the deciding quote) or that they do not say it.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Literal

from ledger.core.types import LedgerEntry, RunResult
from ledger.text.sentences import parse_citations, split_sentences

ChangeKind = Literal["replace", "delete", "insert"]
KIND_LABEL = {"replace": "Reworded", "delete": "Removed", "insert": "Added"}


@dataclass(frozen=True)
class Change:
    """One change of the suggested revision."""

    number: int
    kind: ChangeKind
    before: list[str]  # draft sentences, as written (citations included)
    after: list[str]  # revised sentences
    reasons: list[str] = field(default_factory=list)

    @property
    def before_text(self) -> str:
        """The draft's words, citation anchors removed."""
        return " ".join(parse_citations(s)[0] for s in self.before)

    @property
    def after_text(self) -> str:
        """The revision's words, citation anchors removed."""
        return " ".join(parse_citations(s)[0] for s in self.after)


def _sentences(text: str) -> list[tuple[str, int, int]]:
    return [(s.strip(), a, b) for s, a, b in split_sentences(text) if s.strip()]


def _key(sentence: str) -> str:
    return " ".join(parse_citations(sentence)[0].lower().split())


def _opcodes(old: list[tuple[str, int, int]], new: list[tuple[str, int, int]]) -> list[tuple[str, int, int, int, int]]:
    """Sentence-level diff opcodes; a block replacing n sentences by n others is n one-to-one changes, so each
    can be accepted on its own."""
    matcher = difflib.SequenceMatcher(a=[_key(s) for s, _, _ in old], b=[_key(s) for s, _, _ in new], autojunk=False)
    out: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1 > 1:
            out += [("replace", i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1)]
        else:
            out.append((tag, i1, i2, j1, j2))
    return out


def suggested_changes(result: RunResult) -> list[Change]:
    """The changes from the draft as submitted (revisions[0]) to the final text, in draft order."""
    if len(result.revisions) < 2:
        return []
    draft = result.revisions[0]
    old, new = _sentences(draft.response), _sentences(result.answer)
    changes: list[Change] = []
    for tag, i1, i2, j1, j2 in _opcodes(old, new):
        if tag == "equal":
            continue
        kind: ChangeKind = "replace" if tag == "replace" else "delete" if tag == "delete" else "insert"
        touched = [e for e in draft.ledger.entries if any(_overlaps(e, a, b) for _, a, b in old[i1:i2])]
        added = [e for e in result.ledger.entries if any(_overlaps(e, a, b) for _, a, b in new[j1:j2])]
        changes.append(Change(len(changes) + 1, kind, [s for s, _, _ in old[i1:i2]], [s for s, _, _ in new[j1:j2]],
                              _reasons(touched, added, kind)))
    return changes


def _overlaps(entry: LedgerEntry, start: int, end: int) -> bool:
    a, b = entry.claim.span
    return a < end and start < b


def _reasons(touched: list[LedgerEntry], added: list[LedgerEntry], kind: ChangeKind) -> list[str]:
    reasons = []
    for entry in touched:
        lead = entry.evidence[0] if entry.evidence else None
        if entry.verdict == "contradicted" and lead is not None:
            reasons.append(f"Contradicted: {lead.document} says \"{lead.quote}\"")
        elif entry.verdict == "not_found":
            reasons.append("Not found: no passage in the documents states this")
        elif entry.verdict == "weak" and lead is not None:
            reasons.append(f"Only weakly supported by {lead.document}: \"{lead.quote}\"")
        elif "phantom_citation" in entry.flags:
            reasons.append("Cites a source that does not exist")
        elif "misattributed" in entry.flags and lead is not None:
            reasons.append(f"Cited the wrong passage; the support is in {lead.document}")
    if kind != "delete":
        for entry in added:
            lead = entry.evidence[0] if entry.evidence else None
            if lead is not None and entry.verdict in ("supported", "weak"):
                reasons.append(f"The revision is {entry.verdict} by {lead.document}: \"{lead.quote}\"")
    if not reasons:
        reasons.append("Wording or citation changed by the reviser")
    return list(dict.fromkeys(reasons))


def apply_changes(result: RunResult, changes: list[Change], accepted: set[int]) -> str:
    """The draft with the accepted changes applied (rejected and undecided ones leave the draft as it was)."""
    if len(result.revisions) < 2:
        return result.answer
    old, new = _sentences(result.revisions[0].response), _sentences(result.answer)
    out: list[str] = []
    number = 0
    for tag, i1, i2, j1, j2 in _opcodes(old, new):
        if tag == "equal":
            out += [s for s, _, _ in old[i1:i2]]
            continue
        number += 1
        out += [s for s, _, _ in (new[j1:j2] if number in accepted else old[i1:i2])]
    return " ".join(out)


def review_record(result: RunResult, changes: list[Change], decisions: dict[int, str], reviewer: str,
                  row_hash: str) -> bytes:
    """The reviewer's decisions on the suggested changes, as JSON tied to the run's audit row."""
    accepted = {n for n, d in decisions.items() if d == "accepted"}
    body = {
        "session_id": result.session_id,
        "audit_row_hash": row_hash,
        "reviewer": reviewer,
        "changes": [{
            "number": c.number, "kind": c.kind, "before": c.before_text, "after": c.after_text,
            "reasons": c.reasons, "decision": decisions.get(c.number, "undecided"),
        } for c in changes],
        "reviewed_text": apply_changes(result, changes, accepted),
    }
    return json.dumps(body, indent=2, ensure_ascii=False).encode()
