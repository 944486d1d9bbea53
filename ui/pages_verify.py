"""Check a draft: a text written elsewhere is judged claim by claim against the workspace, then revised."""

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

RESULT_KEY = "verify_run"
PAGE = "verify"


def render() -> None:
    """The Check a draft page."""
    config = guarded(services.settings)
    if config is None:
        return
    workspace = services.current_workspace(config)
    st.title("Check a draft", anchor=False)
    st.caption(f"Paste an answer written elsewhere (by a colleague or another tool). Each claim is matched to the "
               f"documents in workspace **{plain(workspace)}** and given a verdict; then the revision is suggested "
               "change by change, for you to accept or reject.")
    q_cap, d_cap = services.max_question_chars(config), services.max_draft_chars(config)
    collect(PAGE, config, RESULT_KEY)  # a run that is over: its outcome, and the button enabled
    pending, problem = None, None
    if clicked(PAGE):  # read before the form is drawn, so a refused draft leaves the button enabled
        q = str(st.session_state.get("verify_question") or "").strip()
        d = str(st.session_state.get("verify_draft") or "").strip()
        if not q or not d:
            problem = "Give both the question and the draft."
        elif len(q) > q_cap or len(d) > d_cap:
            problem = f"Too long: the question may have {q_cap:,} characters and the draft {d_cap:,}."
        else:
            pending = (q, d)
        st.session_state[busy_key(PAGE)] = pending is not None
    with st.form("verify_form"):
        st.text_input("Question the draft answers", key="verify_question", max_chars=q_cap,
                      placeholder="e.g. What do the leave rules say?")
        st.text_area("Draft", height=200, key="verify_draft", max_chars=d_cap,
                     placeholder="Paste the draft here. Citations like [cite:1a2b3c4d5e6f] are checked too.")
        backend = services.backend_picker(config, key="verify_backend")
        st.form_submit_button("Check draft", type="primary", icon=":material/fact_check:", key="verify_submit",
                              disabled=bool(st.session_state.get(busy_key(PAGE))), on_click=mark_busy(PAGE))
    if problem:
        st.warning(problem, icon=":material/edit:")
    if pending is not None:
        question, draft = pending
        start(PAGE, config, backend, workspace, lambda pipeline, token: pipeline.verify(question, draft, cancel=token))
    if follow(PAGE):
        return  # the run's status panel (with Cancel) is the page until the run is over
    show_error(PAGE)
    show_cancelled(PAGE)
    show_stages(PAGE)
    linked_run(config, RESULT_KEY)
    shown = st.session_state.get(RESULT_KEY)
    if shown is not None:
        st.divider()
        render_result(*shown, key="verify", config=config)
