"""What an export says of a run's review: each suggested change with the reviewer's decision, the reviewed text, who
signed off, when, and with what comment — or that the revision was not reviewed. Pure.

A sign-off is its own chained audit row (RunStore.save_review); the export carries that row whole, so a recipient
re-derives its row hash, and the readable fields beside it are recomputed from the row (`sign_off_view`): an edit
to either side shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from ledger.audit.types import AuditRecord
from ledger.core.types import RunResult
from ledger.exports.changes import suggested_changes

Decision = Literal["accepted", "rejected", "undecided", "not reviewed"]


class ReviewedChange(BaseModel):
    """One suggested change of a draft check and what the reviewer decided."""

    number: int = Field(description="The change's number in the suggested revision, from 1.")
    kind: str = Field(description="'replace', 'delete' or 'insert' (sentences reworded, removed or added).")
    before: str = Field(description="The draft's words the change replaces (empty for an insertion).")
    after: str = Field(description="The revision's words (empty for a removal).")
    reasons: list[str] = Field(description="Why the reviser suggested it: the verdicts and quotes behind it.")
    decision: Decision = Field(description="'accepted' or 'rejected' by the reviewer, 'undecided' when the sign-off "
                                           "left it open, 'not reviewed' when nobody signed off.")


class SignOff(BaseModel):
    """One reviewer's sign-off of the run, derived from its audit row (which is carried whole)."""

    reviewer: str = Field(description="Who signed off (the audit row's user).")
    signed_at: str = Field(description="When the sign-off was recorded (UTC, ISO 8601).")
    comment: str = Field(description="The reviewer's comment.")
    accepted: int = Field(description="Changes the reviewer accepted.")
    rejected: int = Field(description="Changes the reviewer rejected.")
    decisions: list[ReviewedChange] = Field(description="The reviewer's decision on each suggested change.")
    reviewed_text: str | None = Field(description="The draft with the accepted changes applied, as signed off.")
    reviewed_text_sha256: str | None = Field(description="sha256 of reviewed_text (UTF-8).")
    audit_row: AuditRecord = Field(description="The sign-off's own audit row (event 'review'), with its row_hash.")


class RunReview(BaseModel):
    """The review of a run: whether anybody signed it off, the suggested changes with the decisions in force (the
    latest sign-off's), and every sign-off, oldest first."""

    reviewed: bool = Field(description="Whether at least one reviewer signed the run off.")
    status: str = Field(description="One line for a reader: who signed off and what was accepted, or that the "
                                    "revision was not reviewed.")
    changes: list[ReviewedChange] = Field(description="Each suggested change with the decision in force.")
    sign_offs: list[SignOff] = Field(description="The sign-offs of the run, oldest first.")


def _change(raw: Mapping[str, Any], default: Decision) -> ReviewedChange:
    decision = str(raw.get("decision") or default)
    return ReviewedChange(
        number=int(raw.get("number") or 0), kind=str(raw.get("kind") or ""), before=str(raw.get("before") or ""),
        after=str(raw.get("after") or ""), reasons=[str(r) for r in raw.get("reasons") or []],
        decision=decision if decision in ("accepted", "rejected", "not reviewed") else "undecided",  # type: ignore[arg-type]
    )


def sign_off_view(audit_row: Mapping[str, Any]) -> dict[str, Any]:
    """The readable sign-off (SignOff, as JSON) of a review audit row given as JSON: what an export writes beside the
    row, and what a recipient recomputes to check it."""
    details = audit_row.get("details") or {}
    decisions = [_change(d, "undecided") for d in details.get("decisions") or [] if isinstance(d, Mapping)]
    return {
        "reviewer": str(audit_row.get("user_id", "")),
        "signed_at": str(audit_row.get("recorded_at", "")),
        "comment": str(details.get("comment") or ""),
        "accepted": sum(1 for d in decisions if d.decision == "accepted"),
        "rejected": sum(1 for d in decisions if d.decision == "rejected"),
        "decisions": [d.model_dump(mode="json") for d in decisions],
        "reviewed_text": details.get("reviewed_text"),
        "reviewed_text_sha256": details.get("reviewed_text_sha256"),
        "audit_row": dict(audit_row),
    }


def run_review(result: RunResult, reviews: Sequence[AuditRecord]) -> RunReview:
    """The review section of a run's export, from its sign-off rows (RunStore.reviews_of)."""
    mine = sorted((r for r in reviews if r.details.get("run_session_id") == result.session_id),
                  key=lambda r: (r.id or 0, r.recorded_at))
    sign_offs = [SignOff.model_validate(sign_off_view(r.model_dump(mode="json"))) for r in mine]
    suggested = suggested_changes(result) if result.mode == "verify" else []
    latest = sign_offs[-1] if sign_offs else None
    if latest is not None and latest.decisions:
        changes = list(latest.decisions)
    else:
        changes = [ReviewedChange(number=c.number, kind=c.kind, before=c.before_text, after=c.after_text,
                                  reasons=list(c.reasons), decision="undecided" if latest else "not reviewed")
                   for c in suggested]
    return RunReview(reviewed=latest is not None, status=_status(result, latest, changes), changes=changes,
                     sign_offs=sign_offs)


def _status(result: RunResult, latest: SignOff | None, changes: list[ReviewedChange]) -> str:
    if latest is None:
        if result.mode == "verify":
            return (f"Not reviewed: nobody has signed off this draft check, so none of its {len(changes)} suggested "
                    f"change{'s' if len(changes) != 1 else ''} was accepted or rejected.")
        return "Not reviewed: nobody has signed off this run."
    accepted = sum(1 for c in changes if c.decision == "accepted")
    rejected = sum(1 for c in changes if c.decision == "rejected")
    tally = f": {accepted} of {len(changes)} suggested changes accepted, {rejected} rejected" if changes else ""
    return f"Reviewed: signed off by {latest.reviewer} at {latest.signed_at}{tally}."


def review_problem(review: Mapping[str, Any], session_id: str, run_row_hash: str) -> str | None:
    """Why an export's review section does not hold (None when it does): each sign-off's row hash must match its
    row, the row must sign off this run, and the readable fields must be the row's."""
    from ledger.audit import chain as audit

    for n, entry in enumerate(review.get("sign_offs") or [], 1):
        row = entry.get("audit_row") if isinstance(entry, Mapping) else None
        if not isinstance(row, Mapping):
            return f"sign-off {n} carries no audit row"
        fields = {k: v for k, v in row.items() if k not in ("id", "row_hash")}
        if audit.content_sha256(fields) != row.get("row_hash"):
            return f"the audit row of sign-off {n} does not match its row_hash"
        details = row.get("details") or {}
        if details.get("run_session_id") != session_id or details.get("run_row_hash") != run_row_hash:
            return f"sign-off {n} is the sign-off of another run"
        if audit.content_sha256(sign_off_view(row)) != audit.content_sha256(dict(entry)):
            return f"sign-off {n} says something its audit row does not"
    sign_offs = review.get("sign_offs") or []
    if bool(review.get("reviewed")) != bool(sign_offs):
        return "it says the run was reviewed, but records no sign-off" if review.get("reviewed") else \
            "it says the run was not reviewed, but records a sign-off"
    latest = sign_offs[-1].get("decisions") if sign_offs else None
    if latest and audit.content_sha256(review.get("changes")) != audit.content_sha256(latest):
        return "its decisions on the changes are not those of its latest sign-off"
    return None


def review_row_hashes(review: Mapping[str, Any]) -> tuple[str, ...]:
    """The row hashes of the sign-offs an export's review section carries."""
    return tuple(str(e["audit_row"]["row_hash"]) for e in review.get("sign_offs") or []
                 if isinstance(e, Mapping) and isinstance(e.get("audit_row"), Mapping))
