"""Check a draft, the reviewer's view: the draft as submitted with each claim marked by its verdict, its problems
with their quotes in plain sight, then the suggested revision as changes to accept or reject one by one."""

from __future__ import annotations

import streamlit as st

from ledger.audit.types import AuditRecord
from ledger.core.settings import Settings
from ledger.core.types import LedgerEntry, RunResult
from ledger.exports.changes import KIND_LABEL, apply_changes, review_record, suggested_changes
from ui import services
from ui.components import _answer, _sources, verdict_badge
from ui.evidence import citation_panels
from ui.outcome import is_phantom
from ui.services import code, plain

DECISIONS = ["Accept", "Reject"]


def draft_review(result: RunResult, record: AuditRecord | None, *, key: str, config: Settings | None) -> None:
    """The draft as submitted, its problems, the suggested changes with accept/reject, and the revised text."""
    draft = result.revisions[0]
    _answer(draft.response, draft.ledger, title="Draft as submitted")
    problems(draft.ledger.entries)
    changes = suggested_changes(result)
    st.subheader("Suggested revision", anchor=False)
    if not changes:
        st.caption("The reviser suggests no change to the draft.")
    decisions: dict[int, str] = {}
    for change in changes:
        with st.container(border=True):
            st.markdown(f"**Change {change.number} · {KIND_LABEL[change.kind]}**")
            if change.before:
                st.markdown(f":red[~~{plain(change.before_text)}~~]")
            if change.after:
                st.markdown(f":green[{plain(change.after_text)}]")
            st.markdown("\n".join(f"- {plain(reason)}" for reason in change.reasons))
            choice = st.segmented_control(
                f"Change {change.number}", DECISIONS, key=f"{key}-change-{result.session_id}-{change.number}",
                label_visibility="collapsed",
            )
            if choice:
                decisions[change.number] = "accepted" if choice == "Accept" else "rejected"
    if changes:
        accepted = {n for n, d in decisions.items() if d == "accepted"}
        reviewed = apply_changes(result, changes, accepted)
        st.markdown(f"**Reviewed text** · {len(accepted)} of {len(changes)} changes accepted, "
                    f"{sum(1 for d in decisions.values() if d == 'rejected')} rejected")
        with st.container(border=True):
            from ledger.exports.citations import numbered_answer

            st.markdown(plain(numbered_answer(reviewed)[0], keep_lines=True))
        reviewer = services.user_name(config) if config else (record.user_id if record else "")
        with st.container(horizontal=True):
            st.download_button("Reviewed text", reviewed.encode(), file_name=f"reviewed-{result.session_id}.txt",
                               mime="text/plain", on_click="ignore", icon=":material/download:",
                               key=f"{key}-reviewed-text")
            st.download_button(
                "Review record", review_record(result, changes, decisions, reviewer, record.row_hash if record else ""),
                file_name=f"review-{result.session_id}.json", mime="application/json", on_click="ignore",
                icon=":material/download:", key=f"{key}-review-record",
                help="Each change with its reason and your decision, tied to the run's audit row hash",
            )
        if config is not None:
            choices = [{"number": c.number, "kind": c.kind, "before": c.before_text, "after": c.after_text,
                        "reasons": c.reasons, "decision": decisions.get(c.number, "undecided")} for c in changes]
            sign_off(result, config, key=key, reviewer=reviewer, decisions=choices, reviewed_text=reviewed)
    left, right = st.columns([3, 2], gap="large")
    with left:
        _answer(result.answer, result.ledger, title="Suggested revision (all changes applied)")
        citation_panels(result, config, key=key)
    with right:
        _sources(result)


def sign_off(result: RunResult, config: Settings, *, key: str, reviewer: str, decisions: list[dict],
             reviewed_text: str | None) -> None:
    """The reviewer's sign-off with a comment, stored as its own audit row; earlier sign-offs of the run listed."""
    store = services.run_store(config)
    signed = st.session_state.pop(f"{key}-signed-{result.session_id}", None)
    if signed is not None:
        st.success(f"Signed off as audit row {signed}. The exports above now record your decisions.",
                   icon=":material/verified:")
    for review in services.guarded(lambda: store.reviews_of(result.session_id)) or []:
        when = review.recorded_at.strftime("%Y-%m-%d %H:%M UTC")
        accepted, rejected = review.details.get("accepted", 0), review.details.get("rejected", 0)
        st.success(f"Signed off by **{plain(review.user_id)}** on {when} ({accepted} accepted, {rejected} rejected): "
                   f"{plain(str(review.details.get('comment', '')))}", icon=":material/verified:")
    with st.form(f"{key}-sign-off-{result.session_id}", clear_on_submit=True, border=True):
        comment = st.text_area("Reviewer's comment", max_chars=2000, placeholder="What you checked, and your decision")
        if st.form_submit_button("Sign off", icon=":material/verified:"):
            if not comment.strip():
                st.warning("Add a comment: a sign-off says what was checked.")
            else:
                done = services.guarded(lambda: store.save_review(
                    result.session_id, comment=comment, decisions=decisions, reviewed_text=reviewed_text,
                    user=reviewer or None))
                if done is not None:  # the whole view again: the exports at the top include the sign-off
                    st.session_state[f"{key}-signed-{result.session_id}"] = done.id
                    st.rerun()


def problems(entries: list[LedgerEntry]) -> None:
    """Every contradicted, not-found or phantom-citing claim of the draft, with what the documents say."""
    bad = [e for e in entries if e.verdict in ("contradicted", "not_found") or is_phantom(e)]
    if not bad:
        return
    st.markdown(f"**Problems in the draft ({len(bad)})**")
    for entry in bad:
        lead = entry.evidence[0] if entry.evidence else None
        head = f"{verdict_badge(entry.verdict)} **{entry.claim.id}** {plain(entry.claim.text)}"
        if entry.verdict == "contradicted" and lead is not None:
            day = f", {lead.doc_date:%d %b %Y}" if lead.doc_date else ""
            st.error(f"{head}  \nThe documents say: “{plain(lead.quote)}”  \n:gray[— {plain(lead.document)}{day} · "
                     f"{code(lead.chunk_hash)}]", icon=":material/cancel:")
        elif entry.verdict == "not_found":
            closest = f"  \nClosest passage (not enough): “{plain(lead.quote)}” :gray[— {plain(lead.document)}]" \
                if lead else ""
            if lead is not None and lead.reason:  # why it is not enough ("the quote does not give 'because ...'")
                closest += f"  \n:gray[Why not: {plain(lead.reason)}]"
            st.warning(f"{head}  \nNo passage in the documents states this.{closest}", icon=":material/search_off:")
        if is_phantom(entry):
            cited = ", ".join(code(h) for h in entry.claim.cited)
            st.error(f"{head}  \nCites {cited}: no such passage exists in this workspace (phantom citation).",
                     icon=":material/link_off:")
