"""History: stored runs, filtered by workspace; open one in full; check the audit chain."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ledger.audit.types import AuditRecord
from ui import services
from ui.components import MODE_LABEL
from ui.outcome import has_problems
from ui.result import render_result
from ui.services import code, guarded, plain

if TYPE_CHECKING:
    from ledger.storage.runs import RunStore

ALL = "All workspaces"
SHOWN = 300  # rows in the runs table
SCAN = 2000  # recent runs scanned for the workspace filter's choices
OPEN_KEY = "history_session"


def render() -> None:
    """The History page."""
    config = guarded(services.settings)
    if config is None:
        return
    st.title("History", anchor=False)
    st.caption("Every run is stored with an append-only, hash-chained audit row — failed runs included.")
    store = guarded(lambda: services.run_store(config))
    if store is None:
        return
    recent = guarded(lambda: store.list_runs(limit=SCAN))
    if recent is None:
        return
    filters, check = st.columns([3, 1], vertical_alignment="bottom")
    workspaces = sorted({r.workspace_id for r in recent} | {services.current_workspace(config)})
    chosen = filters.selectbox("Workspace", [ALL, *workspaces], key="history_workspace")
    if check.button("Verify audit chain", icon=":material/verified_user:", width="stretch"):
        _verify_chain(store)
    runs = recent if chosen == ALL else guarded(lambda: store.list_runs(workspace=chosen, limit=SCAN))
    if runs is None:
        return
    runs = _filtered(runs)[:SHOWN]
    if len(runs) == SHOWN:
        st.caption(f"Showing the latest {SHOWN} runs; older ones are in the exports and `evidence audit list`.")
    if not runs:
        st.info("No runs stored yet. Ask a question or check a draft; every run appears here.", icon=":material/info:")
        return
    session = _runs_table(runs)
    if session is None:
        return
    st.divider()
    result = guarded(lambda: store.get_run(session))
    record = guarded(lambda: store.get_audit(session))
    if result is not None and record is not None:
        render_result(result, record, key="history", config=config)


VERDICT_FILTERS = {"contradicted": "Contradicted", "not_found": "Not found", "weak": "Weak", "supported": "Supported"}


def _filtered(runs: list[AuditRecord]) -> list[AuditRecord]:
    """Runs matching the search box and the filters: words of the question, verdicts present, date, user,
    has problems."""
    with st.container(horizontal=True, vertical_alignment="bottom"):
        words = st.text_input("Search questions", key="history_search", placeholder="words of the question")
        verdicts = st.multiselect("Has a claim that is", list(VERDICT_FILTERS), format_func=VERDICT_FILTERS.__getitem__,
                                  key="history_verdicts")
        users = sorted({r.user_id for r in runs})
        user = st.selectbox("User", ["Anyone", *users], key="history_user")
        days = st.date_input("Started between", value=[], key="history_dates", format="YYYY-MM-DD")
        problems = st.toggle("Has problems", key="history_problems",
                             help="Failed, a claim contradicted or not found, a phantom citation, or a risk flag")
    wanted = [w for w in (words or "").lower().split() if w]
    out = []
    for r in runs:
        if wanted and not all(w in r.query.lower() for w in wanted):
            continue
        if verdicts and not any(r.verdict_distribution.get(v, 0) for v in verdicts):
            continue
        if user != "Anyone" and r.user_id != user:
            continue
        if isinstance(days, tuple) and len(days) == 2 and not days[0] <= r.timestamp.date() <= days[1]:
            continue
        if problems and not has_problems(r.verdict_distribution, r.status, len(r.risk_flags), r.claim_flags):
            continue
        out.append(r)
    if len(out) != len(runs):
        st.caption(f"{len(out)} of {len(runs)} runs match.")
    return out


def _verify_chain(store: RunStore) -> None:
    report = guarded(store.verify)
    if report is None:
        return
    if report.ok:
        st.success(
            f"Audit chain OK: {report.rows_checked} rows re-hashed, {report.runs_checked} stored runs match their "
            f"audit rows, {report.purged_rows} purged rows linked through. Head hash {code(report.head_hash)}.",
            icon=":material/verified:",
        )
    elif report.first_bad is not None:
        bad = report.first_bad
        where = f"row {bad.id}" if bad.id is not None else "the chain head"
        session = f" (session {code(bad.session_id)})" if bad.session_id else ""
        st.error(f"Audit chain broken at {where}{session}: {plain(bad.reason)}", icon=":material/gpp_bad:")
    else:
        st.error("Audit chain broken.", icon=":material/gpp_bad:")


def _runs_table(runs: list[AuditRecord]) -> str | None:
    frame = pd.DataFrame([{
        "Started (UTC)": r.timestamp.replace(tzinfo=None),
        "Workspace": r.workspace_id,
        "Mode": MODE_LABEL.get(r.mode, r.mode),
        "Question": r.query,
        "Status": r.status,
        "Coverage": r.final_coverage if r.claim_count else None,
        "Problems": "yes" if has_problems(r.verdict_distribution, r.status, len(r.risk_flags), r.claim_flags) else "",
        "Claims": r.claim_count,
        "Topic risk": r.risk_level,
        "User": r.user_id,
        "Session": r.session_id,
    } for r in runs])
    sessions = [r.session_id for r in runs]
    styled = frame.style.map(lambda v: "color:#b42318;font-weight:600" if v == "failed" else "", subset=["Status"])
    event = st.dataframe(
        styled, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row", key="history_table",
        column_config={
            "Started (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
            "Question": st.column_config.TextColumn(width=300),
            "Coverage": st.column_config.ProgressColumn(min_value=0.0, max_value=1.0, format="percent"),
        },
    )
    picked = event.selection.rows if event is not None else []
    if picked and sessions[picked[0]] != st.session_state.get("history_picked"):
        st.session_state["history_picked"] = sessions[picked[0]]
        st.session_state[OPEN_KEY] = sessions[picked[0]]
    if OPEN_KEY not in st.session_state:
        linked = st.query_params.get("session")
        st.session_state[OPEN_KEY] = linked if linked in sessions else None
    if st.session_state[OPEN_KEY] not in sessions:
        st.session_state[OPEN_KEY] = None
    labels = {r.session_id: f"{r.timestamp:%Y-%m-%d %H:%M} · {r.query[:80] or '(no question)'} · {r.session_id}"
              for r in runs}
    session: str | None = st.selectbox(
        "Open a run", sessions, format_func=labels.__getitem__, key=OPEN_KEY,
        placeholder="Select a row above, or choose a run here",
    )
    if session:
        st.query_params["session"] = session
    return session
