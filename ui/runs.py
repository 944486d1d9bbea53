"""Run control shared by Ask and Check a draft: one run per click (the button is disabled while it runs), each
stage shown as it happens with a Cancel button, the run recorded under the user's name, and its id put in the URL so
a reload or a shared link reopens it.

The run goes on in a worker thread that never calls Streamlit; the page polls it from a fragment that reruns every
half second (Streamlit's documented pattern for work outside the script thread). So a click anywhere, Cancel
included, never interrupts the run halfway: Cancel sets the run's token, the pipeline stops at its next stage
boundary with RunCancelled, and nothing of the run is stored."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import streamlit as st

from ledger.backends.base import Roles
from ledger.core.cancellation import CancelToken
from ledger.core.errors import RunCancelled
from ledger.core.settings import Settings
from ledger.core.types import RunResult
from ui import services
from ui.services import guarded, plain

if TYPE_CHECKING:
    from ledger.judge.judge import Judge
    from ledger.loop.recorded import RecordedPipeline

RUN_PARAM = "run"
POLL_SECONDS = 0.5  # how often the status panel looks at the run
FIRST_WAIT_SECONDS = 0.5  # a run that is over this soon shows its outcome without a panel in between
CANCELLED_HEADLINE = "Run cancelled; nothing was stored."


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


def job_key(page: str) -> str:
    """Session key of the page's run in flight (a `Job`), absent when none is."""
    return f"{page}_job"


def cancelled_key(page: str) -> str:
    """Session key of where the page's last run was cancelled, shown once after the rerun."""
    return f"{page}_cancelled"


class Job:
    """One run in a worker thread: its stages as they happen, its cancel token and its outcome. The worker only
    appends to `log` and sets the outcome fields; the script thread reads them."""

    def __init__(self) -> None:
        self.token = CancelToken()
        self.started = time.perf_counter()
        self.label = "Starting…"
        self.log: list[str] = []
        self.others = 0  # runs already under way in this server when this one started
        self.result: RunResult | None = None
        self.problem: str | None = None  # one readable line, when the run failed
        self.cancelled: RunCancelled | None = None
        self.done = threading.Event()
        self.shown = False  # the status panel was drawn at least once

    def say(self, label: str) -> None:
        """A stage starts: it becomes the panel's label and a line of the log, with the time since the start."""
        self.log.append(f":gray[{time.perf_counter() - self.started:5.1f} s] {label}")
        self.label = label

    def work(self, run: Callable[[CancelToken], RunResult], counter: services.RunsInFlight) -> None:
        """The worker thread's body: run, and keep what came of it (never raises, never calls Streamlit)."""
        try:
            with counter.running() as others:
                self.others = others
                try:
                    self.result = run(self.token)
                except RunCancelled as exc:
                    self.cancelled = exc
                    self.say("Cancelled: nothing was stored")
                except Exception as exc:  # a worker thread has nobody to hand it to: keep its one-line message
                    _, self.problem = services.attempt(partial(_reraise, exc))
                else:
                    self.say("Stored with its audit row")
        finally:
            self.done.set()


def _reraise(exc: Exception) -> None:
    raise exc


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


def _announcing(base: RecordedPipeline, job: Job, user: str) -> RecordedPipeline:
    """The cached pipeline's parts, each announcing its stage, recorded under `user`; the parts (and the loaded
    model) are shared, nothing is rebuilt."""
    from ledger.loop.pipeline import Pipeline
    from ledger.loop.recorded import RecordedPipeline
    from ledger.storage.runs import RunStore

    inner = getattr(base, "pipeline", None)
    if inner is None:  # not a RecordedPipeline (a test's stand-in): run it as it is
        return base
    roles = inner.roles
    rounds = [0]

    def critique() -> None:
        rounds[0] += 1
        job.say(f"Critique of {'the draft' if rounds[0] == 1 else f'revision {rounds[0] - 1}'}")

    roles = Roles(
        writer=_Announced(roles.writer, lambda: job.say("Writing the answer from the evidence")),
        skeptic=_Announced(roles.skeptic, critique),
        extractor=_Announced(roles.extractor, lambda: job.say("Extracting the claims")),
        reviser=_Announced(roles.reviser, lambda: job.say(f"Revising (revision {rounds[0]})")),
    )
    pipeline = Pipeline(
        inner.settings, workspace=inner.workspace,
        retriever=_Announced(inner.retriever, lambda: job.say("Retrieving evidence")),
        judge=cast("Judge", _Announced(inner.judge, lambda: job.say("Judging every claim against the documents"))),
        roles=roles, today=inner.today,
    )
    store = RunStore(base.store.engine, base.store.settings.model_copy(update={"user": user}))
    return RecordedPipeline(base.settings, pipeline, store)


def start(page: str, config: Settings, backend: str, workspace: str,
          run: Callable[[RecordedPipeline, CancelToken], RunResult]) -> None:
    """Start a run in a worker thread; the page then shows it with `follow` until it is over."""
    job = Job()
    job.say("Loading the model and opening the workspace")  # the first time, the model loads (with a spinner)
    base, problem = services.attempt(lambda: services.recorder(config, backend, workspace))
    if base is None:
        st.session_state[error_key(page)] = problem
        st.session_state[busy_key(page)] = False
        st.rerun()  # the button comes back enabled, the message shows
    pipeline = _announcing(base, job, services.user_name(config))
    counter = services.runs_in_flight()
    worker = threading.Thread(target=job.work, args=(lambda token: run(pipeline, token), counter),
                              name=f"evidence-{page}-run", daemon=True)
    st.session_state[job_key(page)] = job
    st.session_state.pop(cancelled_key(page), None)
    worker.start()


def collect(page: str, config: Settings, result_key: str) -> None:
    """Before the page draws its form: a run that is over puts its outcome where the page shows it, and frees the
    run button."""
    job: Job | None = st.session_state.get(job_key(page))
    if job is not None and job.done.is_set():
        _finish(page, config, result_key, job)


def follow(page: str) -> bool:
    """After the form: the page's run in flight as a live status panel with a Cancel button (True), or False when
    none is in flight."""
    job: Job | None = st.session_state.get(job_key(page))
    if job is None:
        return False
    if job.done.is_set():
        st.rerun()  # over since `collect` looked: the page again, from the top
    _panel(page)
    return True


@st.fragment(run_every=POLL_SECONDS)
def _panel(page: str) -> None:
    """The status panel of the page's run; reruns on its own every POLL_SECONDS, and reruns the whole page (to show
    the outcome) once the run is over."""
    job: Job | None = st.session_state.get(job_key(page))
    if job is None or job.done.is_set():
        st.rerun()  # the whole page: it shows the outcome
        return
    stopping = job.token.cancelled
    log = list(job.log)  # one snapshot (the worker appends as it goes): the label is its last stage
    label = "Cancelling: the run stops at the end of this stage…" if stopping else \
        (log[-1].split("] ", 1)[-1] if log else job.label)
    # Not `with st.status(...)`: leaving that block marks the panel complete while the run is still going.
    status = st.status(label, expanded=True, state="running")
    if job.others:
        status.markdown(f":gray[{job.others} other run{'s are' if job.others > 1 else ' is'} in progress on this "
                        "server; runs do not wait for each other, but share its cores.]")
    status.markdown("  \n".join(log))
    st.button("Cancel", key=f"{page}_cancel", icon=":material/cancel:", on_click=job.token.cancel,
              disabled=stopping, help="Stop the run at the end of its current stage; nothing of it is stored.")
    if not job.shown:  # the first time: a quick run shows its outcome at once
        job.shown = True
        if job.done.wait(FIRST_WAIT_SECONDS):
            st.rerun()


def _finish(page: str, config: Settings, result_key: str, job: Job) -> None:
    """Put the outcome of a finished run where the page shows it, and free the page's run button."""
    st.session_state.pop(job_key(page), None)
    st.session_state[busy_key(page)] = False
    elapsed = time.perf_counter() - job.started
    if job.cancelled is not None:
        st.session_state[cancelled_key(page)] = job.cancelled.stage
        st.session_state.pop(result_key, None)  # the page shows the cancel, not an older run as if it were this one
        st.query_params.pop(RUN_PARAM, None)
    elif job.result is None:
        st.session_state[error_key(page)] = job.problem or "The run stopped without a result."
    else:
        record = guarded(lambda: services.run_store(config).get_audit(job.result.session_id))  # type: ignore[union-attr]
        st.session_state[result_key] = (job.result, record)
        st.query_params[RUN_PARAM] = job.result.session_id
        job.log.append(f":gray[{elapsed:5.1f} s] Done")
    st.session_state[f"{page}_stages"] = job.log


def show_cancelled(page: str) -> None:
    """Say, once, that the page's last run was cancelled and left nothing behind."""
    if cancelled_key(page) in st.session_state:
        stage = st.session_state.pop(cancelled_key(page))
        st.info(f"**{CANCELLED_HEADLINE}**" + (f"  \nIt stopped {plain(stage)}." if stage else ""),
                icon=":material/cancel:")


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
