"""Check a draft: a text written elsewhere is judged claim by claim against the workspace, then revised."""

from __future__ import annotations

import streamlit as st

from ledger.core.settings import Settings
from ui import services
from ui.components import render_result
from ui.services import guarded, plain

RESULT_KEY = "verify_run"


def render() -> None:
    """The Check a draft page."""
    config = guarded(services.settings)
    if config is None:
        return
    workspace = services.current_workspace(config)
    st.title("Check a draft", anchor=False)
    st.caption(f"Paste an answer written elsewhere (by a colleague or another tool). Each claim is matched to the "
               f"documents in workspace **{plain(workspace)}**, given a verdict, and the draft is revised.")
    with st.form("verify_form"):
        question = st.text_input("Question the draft answers", key="verify_question",
                                 placeholder="e.g. What do the leave rules say?")
        draft = st.text_area("Draft", height=200, key="verify_draft",
                             placeholder="Paste the draft here. Citations like [cite:1a2b3c4d5e6f] are checked too.")
        backend = services.backend_picker(config, key="verify_backend")
        checked = st.form_submit_button("Check draft", type="primary", icon=":material/fact_check:")
    if checked:
        q, d = (question or "").strip(), (draft or "").strip()
        if not q or not d:
            st.warning("Give both the question and the draft.", icon=":material/edit:")
        else:
            with st.spinner("Judging every claim of the draft and revising it…"):
                _run(config, backend, workspace, q, d)
    shown = st.session_state.get(RESULT_KEY)
    if shown is not None:
        st.divider()
        render_result(*shown, key="verify")


def _run(config: Settings, backend: str, workspace: str, question: str, draft: str) -> None:
    pipeline = guarded(lambda: services.recorder(config, backend, workspace))
    if pipeline is None:
        return
    result = guarded(lambda: pipeline.verify(question, draft))
    if result is None:
        return
    record = guarded(lambda: services.run_store(config).get_audit(result.session_id))
    st.session_state[RESULT_KEY] = (result, record)
