"""What every page shares: settings, the current workspace, the cached pipeline, the run store, the error guard."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import streamlit as st

from ledger.core.errors import EvidenceError
from ledger.core.settings import Settings, load_settings

if TYPE_CHECKING:
    from ledger.core.types import DocumentInfo
    from ledger.loop.recorded import RecordedPipeline
    from ledger.storage.runs import RunStore

T = TypeVar("T")
log = logging.getLogger("ui")

WORKSPACE_KEY = "workspace"
API_KEY_HINT = "`EVIDENCE_ANTHROPIC__API_KEY` (or `ANTHROPIC_API_KEY`)"
BACKEND_LABELS = {"local": "Local (offline)", "anthropic": "Claude (anthropic)"}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=^])")


def plain(text: str, *, keep_lines: bool = False) -> str:
    """Text from a document, a model or a user, escaped so Markdown shows it literally (no markup, no HTML)."""
    # Streamlit turns :material/name: into an icon even when escaped; a word joiner keeps it text.
    escaped = _MD_SPECIAL.sub(r"\\\1", text.replace(":material/", ":\u2060material/"))
    if keep_lines:
        return re.sub(r"(?<!\n)\n(?!\n)", "  \n", escaped.replace("\r\n", "\n"))
    return " ".join(escaped.split())


def code(text: str) -> str:
    """An identifier (hash, session id) as inline code: shown verbatim, whatever it contains."""
    return "`" + " ".join(text.replace("`", "'").split()) + "`" if text.strip() else "—"


def settings() -> Settings:
    """Settings from the environment, read on every rerun so the page always shows the data home in force."""
    return load_settings()  # an invalid setting is a one-line ConfigError


def current_workspace(config: Settings) -> str:
    """The workspace chosen in the sidebar, else the configured default."""
    chosen = st.session_state.get(WORKSPACE_KEY)
    return chosen.strip() if isinstance(chosen, str) and chosen.strip() else config.workspace


def anthropic_available(config: Settings) -> bool:
    """Whether the Claude backend has an API key to use."""
    return bool(config.anthropic.api_key or os.environ.get("ANTHROPIC_API_KEY"))


@st.cache_resource(show_spinner="Loading the embedding model and the corpus…", max_entries=4)
def _recorder(backend: str, workspace: str, where: tuple[str, str, str], _config: Settings) -> RecordedPipeline:
    from ledger.loop.factory import build_recorded

    return build_recorded(_config.model_copy(update={"backend": backend}), workspace)


def recorder(config: Settings, backend: str, workspace: str) -> RecordedPipeline:
    """The recording pipeline of (backend, workspace), built once per process (building it loads the model) and
    shared by every browser session: each run has its own call meter, so runs need not wait for each other."""
    where = (str(config.home.resolve()), config.database_url or "", str(config.chroma_url or ""))
    return _recorder(backend, workspace, where, config)


def forget_pipelines() -> None:
    """Drop the cached pipelines, so the next run sees a corpus that ingestion just changed."""
    _recorder.clear()


def run_store(config: Settings) -> RunStore:
    """The store of runs and audit rows."""
    from ledger.loop.factory import build_run_store

    return build_run_store(config)


def guarded(action: Callable[[], T]) -> T | None:
    """Run a product call; its errors become one readable message on the page, never a traceback."""
    try:
        return action()
    except EvidenceError as exc:
        st.error(plain(str(exc)), icon=":material/error:")
    except Exception as exc:  # a bug: say so plainly and keep the traceback in the server log
        log.exception("internal error in the UI")
        st.error(
            f"Internal error ({exc.__class__.__name__}): {plain(str(exc))}. "
            "This is a bug in Evidence Ledger; the details are in the server log.",
            icon=":material/bug_report:",
        )
    return None


def documents(config: Settings, workspace: str) -> list[DocumentInfo]:
    """The documents registered in a workspace."""
    from ledger.loop.factory import build_registry

    return build_registry(config, workspace).all()


def backend_picker(config: Settings, *, key: str) -> str:
    """Backend choice: local by default; Claude only when an API key is configured, else greyed out and explained."""
    has_key = anthropic_available(config)
    choice = st.radio(
        "Backend", ["local", "anthropic"], format_func=BACKEND_LABELS.__getitem__, horizontal=True, key=key,
        index=1 if has_key and config.backend == "anthropic" else 0, disabled=not has_key,
        help="Local runs offline and deterministically on this machine; Claude writes and judges with Anthropic's "
             "models (documents are sent to the API).",
    )
    if not has_key:
        st.caption(f":material/lock: Claude is unavailable: no API key is configured. Set {API_KEY_HINT} "
                   "where the UI is started to enable it.")
        return "local"
    return choice or "local"
