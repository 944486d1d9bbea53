"""Run control shared by Ask and Check a draft: one run per click (the button is disabled while it runs), each
stage shown as it happens, the run recorded under the user's name, and its id put in the URL so a reload or a
shared link reopens it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import streamlit as st

from ledger.backends.base import Roles
from ledger.core.settings import Settings
from ledger.core.types import RunResult
from ui import services
from ui.services import guarded, plain

if TYPE_CHECKING:
    from ledger.audit.types import AuditRecord
    from ledger.judge.judge import Judge
    from ledger.loop.recorded import RecordedPipeline

RUN_PARAM = "run"


def error_key(page: str) -> str:
    """Session key of the message of the page's last failed run, shown once after the rerun."""
    return f"{page}_error"


def show_error(page: str) -> None:
    """The last run's error, once."""
    problem = st.session_state.pop(error_key(page), None)
    if problem:
        st.error(problem, icon=":material/error:")


def busy_key(page: str) -> str:
    """Session key that is true while this page's run is under way."""
    return f"{page}_busy"


def mark_busy(page: str) -> Callable[[], None]:
    """The button's on_click callback: marks the page busy, so the rerun the click starts renders the button
    disabled before the run begins; the page then takes the click from `clicked`, not from the button's value
    (a widget rendered disabled reports no click)."""
    def mark() -> None:
        st.session_state[busy_key(page)] = True
        st.session_state[f"{page}_clicked"] = True

    return mark


def clicked(page: str) -> bool:
    """Whether the page's run button was clicked for this rerun (once)."""
    return bool(st.session_state.pop(f"{page}_clicked", False))


class _Stages:
    """Writes each stage of the run into a status panel as it starts, with the time since the run began."""

    def __init__(self, status: Any) -> None:
        self.status = status
        self.started = time.perf_counter()
        self.rounds = 0
        self.log: list[str] = []

    def say(self, label: str) -> None:
        elapsed = time.perf_counter() - self.started
        self.status.update(label=label)
        line = f":gray[{elapsed:5.1f} s] {label}"
        self.log.append(line)
        self.status.markdown(line)


class _Announced:
    """A role, retriever or judge that announces its stage before doing its work."""

    def __init__(self, inner: Any, announce: Callable[[], None]) -> None:
        self._inner = inner
        self._announce = announce

    def run(self, request: Any) -> Any:
        self._announce()
        return self._inner.run(request)

    def retrieve(self, *args: Any, **kwargs: Any) -> Any:
        self._announce()
        return self._inner.retrieve(*args, **kwargs)

    def judge_claims(self, *args: Any, **kwargs: Any) -> Any:
        self._announce()
        return self._inner.judge_claims(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _announcing(base: RecordedPipeline, stages: _Stages, user: str) -> RecordedPipeline:
    """The cached pipeline's parts, each announcing its stage, recorded under `user`; the parts (and the loaded
    model) are shared, nothing is rebuilt."""
    from ledger.loop.pipeline import Pipeline
    from ledger.loop.recorded import RecordedPipeline
    from ledger.storage.runs import RunStore

    inner = getattr(base, "pipeline", None)
    if inner is None:  # not a RecordedPipeline (a test's stand-in): run it as it is
        return base
    roles = inner.roles

    def critique() -> None:
        stages.rounds += 1
        stages.say(f"Critique of {'the draft' if stages.rounds == 1 else f'revision {stages.rounds - 1}'}")

    roles = Roles(
        writer=_Announced(roles.writer, lambda: stages.say("Writing the answer from the evidence")),
        skeptic=_Announced(roles.skeptic, critique),
        extractor=_Announced(roles.extractor, lambda: stages.say("Extracting the claims")),
        reviser=_Announced(roles.reviser, lambda: stages.say(f"Revising (revision {stages.rounds})")),
    )
    pipeline = Pipeline(
        inner.settings, workspace=inner.workspace,
        retriever=_Announced(inner.retriever, lambda: stages.say("Retrieving evidence")),
        judge=cast("Judge", _Announced(inner.judge, lambda: stages.say("Judging every claim against the documents"))),
        roles=roles, today=inner.today,
    )
    store = RunStore(base.store.engine, base.store.settings.model_copy(update={"user": user}))
    return RecordedPipeline(base.settings, pipeline, store)


def execute(page: str, config: Settings, backend: str, workspace: str,
            run: Callable[[RecordedPipeline], RunResult]) -> tuple[RunResult, AuditRecord | None] | None:
    """Run once with a live status panel; store (result, audit row) for the page and put the run id in the URL."""
    try:
        with st.status("Starting…", expanded=True) as status:
            stages = _Stages(status)
            with services.runs_in_flight().running() as others:
                if others:
                    status.markdown(f":gray[{others} other run{'s are' if others > 1 else ' is'} in progress on this "
                                    "server; runs do not wait for each other, but share its two cores.]")
                stages.say("Loading the model and opening the workspace")
                base, problem = services.attempt(lambda: services.recorder(config, backend, workspace))
                if base is None:
                    st.session_state[error_key(page)] = problem
                    status.update(label="Could not start the run", state="error")
                    return None
                pipeline = _announcing(base, stages, services.user_name(config))
                result, problem = services.attempt(lambda: run(pipeline))
                if result is None:
                    st.session_state[error_key(page)] = problem
                    status.update(label="The run stopped (recorded as failed in History)", state="error")
                    return None
            stages.say("Stored with its audit row")
            status.update(label=f"Done in {time.perf_counter() - stages.started:.1f} s", state="complete",
                          expanded=False)
    finally:
        st.session_state[busy_key(page)] = False
        if "stages" in locals():
            st.session_state[f"{page}_stages"] = stages.log
    record = guarded(lambda: services.run_store(config).get_audit(result.session_id))
    st.query_params[RUN_PARAM] = result.session_id
    return result, record


def show_stages(page: str) -> None:
    """The stages of the page's last run, with their times, folded."""
    log = st.session_state.get(f"{page}_stages")
    if log:
        with st.expander(f"Stages of the last run ({len(log)})", icon=":material/timeline:"):
            st.markdown("  \n".join(log))


def linked_run(config: Settings, result_key: str) -> None:
    """Open the run named in the URL (?run=<session>) when the page does not show it yet."""
    linked = st.query_params.get(RUN_PARAM)
    shown = st.session_state.get(result_key)
    if not linked or (shown is not None and shown[0].session_id == linked):
        return
    store = guarded(lambda: services.run_store(config))
    if store is None:
        return
    from ledger.core.errors import EvidenceError

    try:
        st.session_state[result_key] = (store.get_run(linked), store.get_audit(linked))
    except EvidenceError:
        st.warning(f"The run in the link ({plain(linked)}) is not stored here.", icon=":material/link_off:")
