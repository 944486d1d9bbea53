"""Ask: a question answered from the workspace's documents, every sentence checked and shown with its proof."""

from __future__ import annotations

import streamlit as st

from ledger.core.settings import Settings
from ui import services
from ui.components import render_result
from ui.services import guarded, plain

RESULT_KEY = "ask_run"
EXAMPLE = "How many days of leave do new staff get?"


def render() -> None:
    """The Ask page."""
    config = guarded(services.settings)
    if config is None:
        return
    workspace = services.current_workspace(config)
    st.title("Ask", anchor=False)
    st.caption(f"Answers come only from the documents in workspace **{plain(workspace)}**; every sentence is "
               "cited, checked against its source and revised until the evidence holds.")
    docs = guarded(lambda: services.documents(config, workspace))
    if docs == []:
        st.info(f"Workspace **{plain(workspace)}** has no documents yet: add some on the Documents page first.",
                icon=":material/upload_file:")
    with st.form("ask_form"):
        question = st.text_area("Question", placeholder=f"e.g. {EXAMPLE}", height=80, key="ask_question")
        backend = services.backend_picker(config, key="ask_backend")
        asked = st.form_submit_button("Ask", type="primary", icon=":material/send:")
    if asked:
        text = (question or "").strip()
        if not text:
            st.warning("Type a question first.", icon=":material/edit:")
        else:
            with st.spinner("Retrieving evidence, writing the answer and checking every claim…"):
                _run(config, backend, workspace, text)
    shown = st.session_state.get(RESULT_KEY)
    if shown is not None:
        st.divider()
        render_result(*shown, key="ask")


def _run(config: Settings, backend: str, workspace: str, question: str) -> None:
    pipeline = guarded(lambda: services.recorder(config, backend, workspace))
    if pipeline is None:
        return
    result = guarded(lambda: pipeline.ask(question))
    if result is None:
        return
    record = guarded(lambda: services.run_store(config).get_audit(result.session_id))
    st.session_state[RESULT_KEY] = (result, record)
