"""What every page shares: settings, the current workspace, the cached pipeline, the run store, the error guard."""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

import streamlit as st

from ledger.core.errors import EvidenceError
from ledger.core.settings import Settings, load_settings

if TYPE_CHECKING:
    from ledger.core.types import Chunk, DocumentInfo
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


_WORKSPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


def validate_workspace(name: str) -> str:
    """The workspace name, checked: `ledger.core.workspaces.validate_workspace` when the product has it, else the
    same conservative rule (letters, digits, '-' and '_', 1-63 characters, starting with a letter or digit)."""
    try:
        from ledger.core.workspaces import validate_workspace as product_rule  # type: ignore[import-not-found]
    except ImportError:
        if not _WORKSPACE.fullmatch(name):
            raise InvalidWorkspace(
                f"workspace name {name[:80]!r} is not valid: use 1-63 letters, digits, '-' or '_', starting with a "
                "letter or digit") from None
        return name
    return str(product_rule(name))


class InvalidWorkspace(EvidenceError):
    """A workspace name that cannot be used."""


def current_workspace(config: Settings) -> str:
    """The workspace chosen in the sidebar if its name is valid, else the configured default."""
    chosen = st.session_state.get(WORKSPACE_KEY)
    if not isinstance(chosen, str) or not chosen.strip():
        return config.workspace
    try:
        return validate_workspace(chosen.strip())
    except EvidenceError:
        return config.workspace


def workspace_problem(config: Settings) -> str | None:
    """Why the workspace typed in the sidebar cannot be used (the pages then work in the default one), or None."""
    chosen = st.session_state.get(WORKSPACE_KEY)
    if not isinstance(chosen, str) or not chosen.strip():
        return None
    try:
        validate_workspace(chosen.strip())
    except EvidenceError as exc:
        return str(exc)
    return None


def max_question_chars(config: Settings) -> int:
    """Longest question accepted (the product's setting when it has one)."""
    return int(getattr(config.revision, "max_question_chars", 2000))


def max_draft_chars(config: Settings) -> int:
    """Longest draft accepted."""
    return int(getattr(config.revision, "max_draft_chars", 100_000))


def user_name(config: Settings) -> str:
    """Who is working: the name typed in the sidebar, else the settings' user (the OS user by default)."""
    typed = st.session_state.get("user_name")
    return typed.strip()[:80] if isinstance(typed, str) and typed.strip() else config.user


class RunsInFlight:
    """Runs under way in this server process, across browser sessions (runs do not queue: each has its own meter)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    @contextmanager
    def running(self) -> Iterator[int]:
        """Count one run while it lasts; yields how many others were already running."""
        with self._lock:
            others = self.count
            self.count += 1
        try:
            yield others
        finally:
            with self._lock:
                self.count -= 1


@st.cache_resource
def runs_in_flight() -> RunsInFlight:
    """The process-wide counter of runs."""
    return RunsInFlight()


def anthropic_available(config: Settings) -> bool:
    """Whether the Claude backend has an API key to use."""
    return bool(config.anthropic.api_key or os.environ.get("ANTHROPIC_API_KEY"))


@st.cache_resource(show_spinner="Loading the embedding model and the corpus…", max_entries=4)
def _recorder(backend: str, workspace: str, where: tuple[str, str, str], corpus: str,
              _config: Settings) -> RecordedPipeline:
    from ledger.loop.factory import build_recorded

    return build_recorded(_config.model_copy(update={"backend": backend}), workspace)


def recorder(config: Settings, backend: str, workspace: str) -> RecordedPipeline:
    """The recording pipeline of (backend, workspace), built once per process (building it loads the model) and
    shared by every browser session: each run has its own call meter, so runs need not wait for each other."""
    where = (str(config.home.resolve()), config.database_url or "", str(config.chroma_url or ""))
    # The corpus version is part of the key: after an ingest by any process (a CLI beside the UI) the next run
    # builds a pipeline on a freshly opened store, which sees the new vectors.
    from ledger.loop.factory import build_registry

    corpus = build_registry(config, workspace).version()
    seen = _corpus_seen.setdefault((backend, workspace, where), corpus)
    if seen != corpus:
        from ingest.vectorstore import reopen_embedded_stores

        reopen_embedded_stores()
        _corpus_seen[(backend, workspace, where)] = corpus
    return _recorder(backend, workspace, where, corpus, config)


_corpus_seen: dict[tuple[str, str, tuple[str, str, str]], str] = {}


def forget_pipelines() -> None:
    """Drop the cached pipelines, so the next run sees a corpus that ingestion just changed."""
    _recorder.clear()


def run_store(config: Settings) -> RunStore:
    """The store of runs and audit rows."""
    from ledger.loop.factory import build_run_store

    return build_run_store(config)


def attempt(action: Callable[[], T]) -> tuple[T | None, str | None]:
    """Run a product call; (its value, None), or (None, one readable Markdown line saying what went wrong)."""
    try:
        return action(), None
    except EvidenceError as exc:
        return None, plain(str(exc))
    except Exception as exc:  # a bug: say so plainly and keep the traceback in the server log
        log.exception("internal error in the UI")
        return None, (f"Internal error ({exc.__class__.__name__}): {plain(str(exc))}. "
                      "This is a bug in Evidence Ledger; the details are in the server log.")


def guarded(action: Callable[[], T]) -> T | None:
    """Run a product call; its errors become one readable message on the page, never a traceback."""
    value, problem = attempt(action)
    if problem is not None:
        st.error(problem, icon=":material/bug_report:" if problem.startswith("Internal error") else ":material/error:")
    return value


def documents(config: Settings, workspace: str) -> list[DocumentInfo]:
    """The documents registered in a workspace."""
    from ledger.loop.factory import build_registry

    return build_registry(config, workspace).all()


def chunks(config: Settings, workspace: str, hashes: list[str]) -> dict[str, Chunk]:
    """Chunks of a workspace by hash (the passages behind citations, or a document's chunks); a read, no model."""
    from ingest.vectorstore import VectorStore

    return VectorStore(config, workspace).get_by_hashes(hashes) if hashes else {}


def delete_document(config: Settings, workspace: str, doc_id: str) -> int:
    """Remove a document from a workspace: its registry row, then its vectors; returns how many chunks went."""
    from ledger.loop.factory import build_ingestor, build_registry

    build_registry(config, workspace).delete([doc_id])
    return build_ingestor(config, workspace).sweep()


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
