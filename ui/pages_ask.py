"""Ask: a question answered from the workspace's documents, every sentence checked and shown with its proof."""

from __future__ import annotations

import streamlit as st

from ui import services
from ui.result import render_result
from ui.runs import (
    busy_key,
    clicked,
    collect,
    follow,
    linked_run,
    mark_busy,
    show_cancelled,
    show_error,
    show_stages,
    start,
)
from ui.services import guarded, plain

RESULT_KEY = "ask_run"
PAGE = "ask"
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
    cap = services.max_question_chars(config)
    collect(PAGE, config, RESULT_KEY)  # a run that is over: its outcome, and the button enabled
    pending, problem = None, None
    if clicked(PAGE):  # read before the form is drawn, so a refused question leaves the button enabled
        text = str(st.session_state.get("ask_question") or "").strip()
        if not text:
            problem = "Type a question first."
        elif len(text) > cap:
            problem = (f"The question is {len(text):,} characters long; the limit is {cap:,}. Ask about one thing "
                       "at a time.")
        else:
            pending = text
        st.session_state[busy_key(PAGE)] = pending is not None
    with st.form("ask_form"):
        st.text_area("Question", placeholder=f"e.g. {EXAMPLE}", height=80, key="ask_question", max_chars=cap)
        backend = services.backend_picker(config, key="ask_backend")
        st.form_submit_button("Ask", type="primary", icon=":material/send:", key="ask_submit",
                              disabled=bool(st.session_state.get(busy_key(PAGE))), on_click=mark_busy(PAGE))
    if problem:
        st.warning(problem, icon=":material/edit:")
    if pending is not None:
        question = pending
        start(PAGE, config, backend, workspace, lambda pipeline, token: pipeline.ask(question, cancel=token))
    if follow(PAGE):
        return  # the run's status panel (with Cancel) is the page until the run is over
    show_error(PAGE)
    show_cancelled(PAGE)
    show_stages(PAGE)
    linked_run(config, RESULT_KEY)
    shown = st.session_state.get(RESULT_KEY)
    if shown is not None:
        st.divider()
        render_result(*shown, key="ask", config=config)
