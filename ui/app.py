"""Entry point of the UI (`evidence ui` runs `streamlit run` on this file): sidebar, navigation, pages."""

from __future__ import annotations

import logging
from pathlib import Path

import streamlit as st

from ledger.core.errors import EvidenceError
from ledger.core.settings import Settings
from ui import pages_ask, pages_history, pages_ingest, pages_settings, pages_verify, services
from ui.outcome import plural
from ui.services import plain

# Static layout only: no document, model or user text ever goes through HTML.
STYLE = "<style>[data-testid='stMainBlockContainer']{padding-top:3rem;max-width:1280px}</style>"
# A local file: a ":material/…:" page icon makes the browser fetch the favicon from an external font host.
FAVICON = Path(__file__).with_name("favicon.png")


def sidebar(config: Settings) -> None:
    """The workspace every page works in, what it holds, and who is working."""
    st.text_input("Workspace", value=config.workspace, key=services.WORKSPACE_KEY, max_chars=63,
                  help="Documents, uploads, answers and history are kept per workspace. Letters, digits, - and _.")
    problem = services.workspace_problem(config)
    workspace = services.current_workspace(config)
    if problem:
        st.error(f"{plain(problem)}. Working in **{plain(workspace)}**.", icon=":material/error:")
    docs = services.guarded(lambda: services.documents(config, workspace))
    if docs is not None:
        dates = [d.date for d in docs if d.date]
        newest = f" · newest source {max(dates):%d %b %Y}" if dates else ""
        st.caption(f"{plural(len(docs), 'document')} · {plural(sum(d.chunks for d in docs), 'chunk')} indexed{newest}")
    st.text_input("Your name", value=config.user, key="user_name", max_chars=80,
                  help="Recorded on every run you start (default: EVIDENCE_USER, else the account running the UI).")
    where = str(config.home.resolve())
    if config.database_url:
        from ledger.storage.database import redact_url

        where = redact_url(config.database_url)
    st.caption(f"Data: {plain(where)}")


def quiet_libraries() -> None:
    """Libraries that log what a user cannot act on: errors only (the CLI does the same in `main`)."""
    # pypdf warns about every recoverable oddity of an uploaded PDF; real failures still raise.
    logging.getLogger("pypdf").setLevel(logging.ERROR)


quiet_libraries()
st.set_page_config(page_title="Evidence Ledger", page_icon=str(FAVICON), layout="wide")
st.html(STYLE)
pages = st.navigation(
    [
        st.Page(pages_ask.render, title="Ask", icon=":material/question_answer:", url_path="ask", default=True),
        st.Page(pages_verify.render, title="Check a draft", icon=":material/fact_check:", url_path="verify"),
        st.Page(pages_ingest.render, title="Documents", icon=":material/library_books:", url_path="documents"),
        st.Page(pages_history.render, title="History", icon=":material/history:", url_path="history"),
        st.Page(pages_settings.render, title="Settings", icon=":material/settings:", url_path="settings"),
    ],
    position="top",
)
with st.sidebar:
    st.markdown("### :material/fact_check: Evidence Ledger")
    st.caption("Answers from your own documents, with every sentence proved or visibly marked as not proved.")
    try:
        settings = services.settings()
    except EvidenceError:
        pass  # the page says what is wrong with the settings; once is enough
    else:
        sidebar(settings)
pages.run()
