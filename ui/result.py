"""The view of one run, outcome first: the outcome line, metrics, then the answer with openable citations (or,
for a draft check, the reviewer's view of the draft), then the ledger, the revision history and the audit row."""

from __future__ import annotations

import streamlit as st

from ledger.audit.types import AuditRecord
from ledger.core.settings import Settings
from ledger.core.types import RunResult
from ui import components, services
from ui.evidence import citation_panels
from ui.outcome import Outcome, run_outcome
from ui.review import draft_review
from ui.services import plain

OUTCOME_ICON = {"proved": ":material/verified:", "partial": ":material/rule:", "unanswerable": ":material/help:",
                "contradicted": ":material/cancel:", "failed": ":material/error:"}


def render_result(result: RunResult, record: AuditRecord | None = None, *, key: str = "run",
                  config: Settings | None = None) -> None:
    """The whole view of one run, outcome first; `record` (its audit row) enables the exports and the audit tab,
    `config` lets citations open their passages from the workspace."""
    reviews = services.guarded(lambda: services.run_store(config).reviews_of(result.session_id)) \
        if config is not None and record is not None else None
    components._header(result, record, key, reviews or [])
    failed = record is not None and record.status == "failed"
    outcome = run_outcome(result, failed=failed)
    if failed and record is not None:
        outcome = Outcome("failed", outcome.headline, [record.error or "no reason recorded"])
    outcome_line(outcome)
    if failed:
        return
    components._metrics(result)
    components._alerts(result)
    if result.mode == "verify" and result.revisions:
        draft_review(result, record, key=key, config=config)
    else:
        left, right = st.columns([3, 2], gap="large")
        with left:
            components._answer(result.answer, result.ledger)
            citation_panels(result, config, key=key)
        with right:
            components._sources(result)
    tabs = st.tabs([
        f"Evidence ledger ({len(result.ledger.entries)})",
        f"Revision history ({len(result.revisions)})",
        "Audit record",
    ])
    with tabs[0]:
        components.ledger_table(result.ledger)
        components.claim_details(result.ledger)
    with tabs[1]:
        components.revision_history(result)
    with tabs[2]:
        components.audit_details(result, record)
        if result.settings_used:  # runs stored before this was recorded have none
            st.caption("How this run was made: backend, models and the thresholds it was held to")
            st.table({name.replace("_", " "): str(value) for name, value in result.settings_used.items()})


def outcome_line(outcome: Outcome) -> None:
    """The one line that says what the run amounts to, coloured by how far it can be trusted."""
    text = f"**{outcome.headline}**" + "".join(f"  \n- {plain(d)}" for d in outcome.details)
    icon = OUTCOME_ICON[outcome.kind]
    if outcome.kind == "proved":
        st.success(text, icon=icon)
    elif outcome.kind in ("contradicted", "failed"):
        st.error(text, icon=icon)
    elif outcome.kind == "unanswerable":
        st.info(text, icon=icon)
    else:
        st.warning(text, icon=icon)


