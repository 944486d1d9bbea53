"""The Streamlit pages, driven in-process with AppTest against an isolated EVIDENCE_HOME."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from ledger.core.errors import EvidenceError
from ledger.core.settings import Settings
from ledger.core.types import Claim, LedgerEntry
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import DRAFT, HANDBOOK, POLICY, flawed_run, simple_run
from ui.components import answer_markdown
from ui.services import plain

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"
LONG = 600  # seconds: pages that load the embedding model
QUICK = 60  # seconds: the first page that opens Chroma imports it (slow on 2 busy cores)


def _history() -> None:
    from ui.pages_history import render

    render()


def _ask() -> None:
    from ui.pages_ask import render

    render()


def _verify() -> None:
    from ui.pages_verify import render

    render()


def _documents() -> None:
    from ui.pages_ingest import render

    render()


def _store(settings: Settings) -> RunStore:
    return RunStore(open_engine(settings), settings)


def _all_markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def _unescaped(markdown: str) -> str:
    """What a reader sees of escaped text: Markdown backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", markdown)


def _done(at: AppTest, timeout: float = QUICK) -> AppTest:
    """Rerun until the run started by a click is over (it goes on in a worker thread), as the page's poll would."""
    deadline = time.monotonic() + timeout
    while any(f"{page}_job" in at.session_state for page in ("ask", "verify")):
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.1)
        at.run()
    return at


def _no_html(at: AppTest) -> None:
    assert not [m.value for m in at.markdown if m.allow_html], "no text may be rendered as HTML"


# -- history ------------------------------------------------------------------------------------------


def test_history_lists_stored_runs_and_opens_one_with_its_ledger(settings: Settings) -> None:
    store = _store(settings)
    store.save_run(simple_run("sess-simple-0001"))
    store.save_run(flawed_run())
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    assert not at.exception
    runs = at.dataframe[0].value
    assert list(runs["Session"]) == ["sess-flawed-0001", "sess-simple-0001"]  # newest first
    assert "Draft check" in set(runs["Mode"])

    at.selectbox(key="history_session").set_value("sess-flawed-0001").run()
    assert not at.exception
    assert at.subheader[0].value.startswith("How long are customer records kept")
    ledger = at.table[0].value
    assert list(ledger["Id"]) == ["c1", "c2"]
    assert all(":green-badge[Supported]" in v for v in ledger["Verdict"])
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Evidence coverage"] == "100%"
    assert metrics["Claims"] == "2"
    assert [b.label for b in at.get("download_button")][:3] == ["JSON", "CSV", "HTML"]
    text = _unescaped(_all_markdown(at))
    assert "Draft as given" in " ".join(e.label for e in at.expander)  # revision history, round 0 first
    assert "Correct c1 from the quote: seven years." in text  # the decision's instructions
    assert "Customer records are retained for seven (7) years after account closure." in text  # the deciding quote
    _no_html(at)


def test_a_run_shows_the_backend_models_and_thresholds_it_was_held_to(settings: Settings) -> None:
    run = simple_run("sess-simple-0002")
    run.settings_used = {"backend": "local", "coverage_target": 0.95, "similarity_threshold": 0.8}
    _store(settings).save_run(run)
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    at.selectbox(key="history_session").set_value("sess-simple-0002").run()
    assert not at.exception
    used = next(t.value for t in at.table if "coverage target" in t.value.index)
    assert used.loc["coverage target"].iloc[0] == "0.95" and used.loc["backend"].iloc[0] == "local"


def test_history_escapes_markup_from_documents(settings: Settings) -> None:
    _store(settings).save_run(flawed_run())
    at = AppTest.from_function(_history, default_timeout=QUICK)
    at.query_params["session"] = "sess-flawed-0001"
    at.run()
    assert not at.exception
    shown = [e.value for e in at.info] + list(at.table[0].value["Deciding evidence"])
    assert any("\\<script\\>alert\\(1\\)\\</script\\>" in s for s in shown)  # shown as text, never as a tag
    assert not any("<script>" in s for s in shown)
    _no_html(at)


def test_history_filters_by_workspace(settings: Settings) -> None:
    store = _store(settings)
    store.save_run(simple_run("sess-alpha-0001", workspace="alpha"))
    store.save_run(simple_run("sess-beta-0001", workspace="beta"))
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    assert set(at.dataframe[0].value["Session"]) == {"sess-alpha-0001", "sess-beta-0001"}
    at.selectbox(key="history_workspace").set_value("beta").run()
    assert list(at.dataframe[0].value["Session"]) == ["sess-beta-0001"]


def test_history_shows_a_failed_run_with_its_error(settings: Settings) -> None:
    _store(settings).save_failed_run("sess-failed-0001", "Why?", "answer", "default", EvidenceError("Chroma is down"))
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    assert list(at.dataframe[0].value["Status"]) == ["failed"]
    at.selectbox(key="history_session").set_value("sess-failed-0001").run()
    assert not at.exception
    assert "Chroma is down" in at.error[0].value


def test_audit_chain_check_says_ok_then_names_the_first_bad_row(settings: Settings) -> None:
    store = _store(settings)
    store.save_run(simple_run("sess-one-0001"))
    store.save_run(simple_run("sess-two-0001"))
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    at.button[0].click().run()
    assert "Audit chain OK" in at.success[0].value
    assert "2 rows" in at.success[0].value

    with sqlite3.connect(settings.home / "ledger.db") as db:
        db.execute("UPDATE audit_log SET query = 'edited' WHERE session_id = 'sess-one-0001'")
    at.button[0].click().run()
    assert not at.success
    assert "Audit chain broken at row 1" in at.error[0].value


def test_history_without_runs_says_so(settings: Settings) -> None:
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    assert not at.exception
    assert "No runs stored yet" in at.info[0].value


# -- ask and verify, with the pipeline faked ------------------------------------------------------------


class _FakeRecorder:
    """Stands in for RecordedPipeline: stores a canned run, or raises."""

    def __init__(self, settings: Settings, error: Exception | None = None) -> None:
        self.settings, self.error, self.asked = settings, error, []

    def ask(self, question: str, cancel=None):  # type: ignore[no-untyped-def]
        self.asked.append(question)
        if self.error:
            raise self.error
        result = simple_run("sess-asked-0001")
        _store(self.settings).save_run(result)
        return result

    def verify(self, question: str, draft: str, cancel=None):  # type: ignore[no-untyped-def]
        self.asked.append(question)
        result = flawed_run("sess-verified-0001")
        _store(self.settings).save_run(result)
        return result


def test_ask_shows_the_answer_with_numbered_sources_and_verdicts(settings: Settings,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    at.text_area(key="ask_question").input("How long are customer records kept?")
    _done(at.button[0].click().run())
    assert not at.exception
    assert fake.asked == ["How long are customer records kept?"]
    text = _all_markdown(at)
    assert ":green-background[Customer records are kept for seven years \\[1\\]\\.]" in text
    assert "**[1]** Records Retention Policy v3" in text
    assert ":green-badge[Supported]" in at.table[0].value["Verdict"][0]
    assert [b.label for b in at.get("download_button")] == ["JSON", "CSV", "HTML"]


def test_ask_shows_product_errors_as_one_message(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings, error=EvidenceError("the vector store at /srv/x_y is locked"))
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    at.text_area(key="ask_question").input("Anything?")
    _done(at.button[0].click().run())
    assert not at.exception  # no traceback on the page
    assert at.error[0].value == plain("the vector store at /srv/x_y is locked")


def test_ask_needs_a_question(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    _done(at.button[0].click().run())
    assert fake.asked == []
    assert "Type a question first" in at.warning[0].value


def test_claude_is_offered_only_with_an_api_key(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("EVIDENCE_ANTHROPIC__API_KEY", raising=False)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    backend = at.radio(key="ask_backend")
    assert backend.disabled and backend.value == "local"
    assert any("no API key" in c.value for c in at.caption)

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-used")
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    assert not at.radio(key="ask_backend").disabled
    assert not any("no API key" in c.value for c in at.caption)


def test_verify_page_runs_the_draft_and_shows_the_revision_history(settings: Settings,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_verify, default_timeout=QUICK).run()
    at.text_input(key="verify_question").input("How long are customer records kept?")
    at.text_area(key="verify_draft").input(DRAFT)
    _done(at.button[0].click().run())
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert any("Draft as given" in label and "coverage 33%" in label for label in labels)
    assert any("Revision 1" in label and "final" in label for label in labels)
    assert any(":red-badge[Contradicted]" in c for c in _all_markdown(at).splitlines())


def test_verify_shows_the_draft_as_submitted_with_its_problems_then_changes_to_accept(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_verify, default_timeout=QUICK).run()
    at.text_input(key="verify_question").input("How long are customer records kept?")
    at.text_area(key="verify_draft").input(DRAFT)
    _done(at.button(key="verify_submit").click().run())
    assert not at.exception
    outcome = at.error[0].value
    assert outcome.startswith("**The draft as submitted contains 1 contradicted claim")
    contradicted = next(e.value for e in at.error if ":red-badge[Contradicted]" in e.value)
    assert "five years" in contradicted and "seven \\(7\\) years" in contradicted  # the quote, in plain sight
    assert any("phantom citation" in e.value for e in at.error)
    text = _all_markdown(at)
    assert ":red-background[Customer records are kept for five years" in text  # the draft, shaded by verdict
    assert "Change 1 · Reworded" in text and "Change 2 · Removed" in text
    at.get("button_group")[0].set_value("Accept").run()
    reviewed = _unescaped(_all_markdown(at))
    assert "1 of 2 changes accepted, 0 rejected" in reviewed
    assert "Customer records are kept for seven years after the account closes [1]. Deletion requests" in reviewed
    assert "Backups are encrypted with AES-256" in reviewed  # change 2 not accepted: the draft's sentence stays
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["JSON", "CSV", "HTML", "Reviewed text", "Review record"]


def test_a_reviewer_signs_off_a_draft_check_as_its_own_audit_row(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.exports.json_csv import export_run

    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    exported: dict[str, list[bytes]] = {}

    def offered(result, record, fmt, reviews=()):  # type: ignore[no-untyped-def]
        made = export_run(result, record, fmt, reviews)
        exported.setdefault(fmt, []).append(made.data)
        return made

    monkeypatch.setattr("ui.components.export_run", offered)
    at = AppTest.from_function(_verify, default_timeout=QUICK).run()
    at.text_input(key="verify_question").input("How long are customer records kept?")
    at.text_area(key="verify_draft").input(DRAFT)
    _done(at.button(key="verify_submit").click().run())
    at.get("button_group")[0].set_value("Accept").run()
    sign = next(b for b in at.button if b.label == "Sign off")
    sign.click().run()
    assert any("Add a comment" in w.value for w in at.warning)  # an empty sign-off is refused
    assert _store(settings).reviews_of("sess-verified-0001") == []
    comment = next(t for t in at.text_area if t.label == "Reviewer's comment")
    comment.input("Checked the retention figure against the policy.")  # a form: sent with its submit button
    next(b for b in at.button if b.label == "Sign off").click().run()
    assert not at.exception
    reviews = _store(settings).reviews_of("sess-verified-0001")
    assert len(reviews) == 1 and reviews[0].details["accepted"] == 1
    assert reviews[0].details["comment"] == "Checked the retention figure against the policy."
    assert any("Signed off as audit row" in s.value for s in at.success)
    assert _store(settings).verify().ok
    # The JSON download offered after the sign-off records it: change 1 accepted, by whom, with the comment.
    offered = json.loads(exported["json"][-1])["review"]
    assert offered["reviewed"] and [c["decision"] for c in offered["changes"]] == ["accepted", "undecided"]
    assert offered["sign_offs"][0]["comment"] == "Checked the retention figure against the policy."


def test_the_run_id_goes_in_the_url_and_a_reload_reopens_the_run(settings: Settings,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    at.text_area(key="ask_question").input("How long are customer records kept?")
    _done(at.button(key="ask_submit").click().run())
    assert at.query_params["run"] == "sess-asked-0001"
    assert not at.button(key="ask_submit").disabled  # enabled again once the run is over
    reloaded = AppTest.from_function(_ask, default_timeout=QUICK)
    reloaded.query_params["run"] = "sess-asked-0001"
    reloaded.run()
    assert not reloaded.exception
    assert fake.asked == ["How long are customer records kept?"]  # reopened from the store, not asked again
    assert reloaded.success[0].value.startswith("**The answer is fully answered")
    assert "**[1]** Records Retention Policy v3" in _all_markdown(reloaded)


def test_a_run_records_the_user_named_in_the_sidebar_and_shows_its_stages(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import date

    from ledger.loop.pipeline import Pipeline
    from ledger.loop.recorded import RecordedPipeline

    class _NothingFound:
        def retrieve(self, question: str, k: int, min_relevance: float) -> list[object]:
            return []  # no evidence: the pipeline answers with its canned refusal, no role is needed

    unused = SimpleNamespace(writer=None, skeptic=None, extractor=None, reviser=None)
    pipeline = Pipeline(settings, workspace="default", retriever=_NothingFound(), judge=None,  # type: ignore[arg-type]
                        roles=unused, today=date(2026, 1, 1))  # type: ignore[arg-type]
    recorded = RecordedPipeline(settings, pipeline, _store(settings))
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: recorded)
    at = AppTest.from_file(str(APP), default_timeout=QUICK).run()
    at.sidebar.text_input(key="user_name").input("Reviewer Ana").run()
    at.text_area(key="ask_question").input("How long are customer records kept?")
    _done(at.button(key="ask_submit").click().run())
    assert not at.exception
    assert [r.user_id for r in _store(settings).list_runs()] == ["Reviewer Ana"]
    assert "Retrieving evidence" in _stage_labels(at)
    assert "Stored with its audit row" in _stage_labels(at)


def _stage_labels(at: AppTest) -> list[str]:
    log = next(e for e in at.expander if e.label.startswith("Stages of the last run"))
    return [line.split("] ", 1)[-1] for m in log.markdown for line in m.value.split("  \n")]


def test_cancel_in_the_status_panel_stops_the_run_and_nothing_is_stored(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    from datetime import date

    from ingest.vectorstore import ScoredChunk
    from ledger.backends.base import Draft
    from ledger.core.types import Chunk
    from ledger.loop.pipeline import Pipeline
    from ledger.loop.recorded import RecordedPipeline

    chunk = Chunk(hash="cccccccccccc", text="Records are kept for seven years.", document_id="d", index=0,
                  start_char=0, end_char=33)
    writing, release = threading.Event(), threading.Event()

    class _OneChunk:
        def retrieve(self, question: str, k: int, min_relevance: float) -> list[ScoredChunk]:
            return [ScoredChunk(chunk, 0.9)]

    class _SlowWriter:  # a long drafting stage, during which the user presses Cancel
        def run(self, request: object) -> Draft:
            writing.set()
            release.wait(30)
            return Draft("Records are kept for seven years.")

    roles = SimpleNamespace(writer=_SlowWriter(), skeptic=None, extractor=None, reviser=None)
    pipeline = Pipeline(settings, workspace="default", retriever=_OneChunk(), judge=None,  # type: ignore[arg-type]
                        roles=roles, today=date(2026, 1, 1))  # type: ignore[arg-type]
    recorded = RecordedPipeline(settings, pipeline, _store(settings))
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: recorded)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    at.text_area(key="ask_question").input("How long are customer records kept?")
    at.button(key="ask_submit").click().run()
    assert writing.wait(10)
    at.run()  # the panel polls
    assert at.button(key="ask_submit").disabled  # one run at a time
    assert at.status[0].label == "Writing the answer from the evidence"
    cancel = at.button(key="ask_cancel")
    assert cancel.label == "Cancel" and not cancel.disabled
    cancel.click().run()
    assert at.status[0].label.startswith("Cancelling")
    assert at.button(key="ask_cancel").disabled
    release.set()  # the drafting stage ends; the pipeline stops at the boundary
    _done(at)
    assert not at.exception
    assert "**Run cancelled; nothing was stored.**  \nIt stopped after the draft." in [i.value for i in at.info]
    assert not at.button(key="ask_submit").disabled
    assert "run" not in at.query_params
    assert _store(settings).list_runs() == []
    with sqlite3.connect(settings.home / "ledger.db") as db:
        assert db.execute("SELECT count(*) FROM audit_log").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 0


def test_a_refusal_shows_coverage_n_a_and_not_answerable(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.core.types import EvidenceLedger, RiskFlag, RunResult

    class _Refuses(_FakeRecorder):
        def ask(self, question: str, cancel=None):  # type: ignore[no-untyped-def]
            result = RunResult(session_id="sess-refused-0001", mode="answer", question=question,
                               answer="The documents do not say.", ledger=EvidenceLedger(completeness=0.0,
                                                                                          gaps=[question]),
                               risk_flags=[RiskFlag(type="no_evidence", severity="high", description="nothing")])
            _store(self.settings).save_run(result)
            return result

    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: _Refuses(settings))
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    at.text_area(key="ask_question").input("Who won the cup?")
    _done(at.button(key="ask_submit").click().run())
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Evidence coverage"] == "n/a" and metrics["Completeness"] == "0%"
    assert any(i.value.startswith("**Not answerable from these documents.**") for i in at.info)


def test_a_question_is_capped_at_the_configured_length(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRecorder(settings)
    monkeypatch.setattr("ui.services.recorder", lambda config, backend, workspace: fake)
    monkeypatch.setattr("ui.services.max_question_chars", lambda config: 50)
    at = AppTest.from_function(_ask, default_timeout=QUICK).run()
    assert at.text_area(key="ask_question").max_chars == 50  # the browser shows a counter and stops typing there
    at.text_area(key="ask_question").input("why " * 30)
    _done(at.button(key="ask_submit").click().run())
    assert fake.asked == []  # an over-long question never reaches the pipeline


def test_an_invalid_workspace_name_is_refused_in_the_sidebar(settings: Settings) -> None:
    at = AppTest.from_file(str(APP), default_timeout=QUICK).run()
    at.sidebar.text_input(key="workspace").input("../../etc").run()
    assert not at.exception
    assert "workspace name" in at.sidebar.error[0].value and "Working in **default**" in at.sidebar.error[0].value
    assert "workspace **default**" in at.caption[0].value  # the page works in the default workspace
    assert not (settings.home / "chroma").exists() or not any("etc" in p.name for p in settings.home.rglob("*"))


def test_settings_page_shows_thresholds_and_the_chain_status(settings: Settings) -> None:
    _store(settings).save_run(simple_run("sess-one-0001"))
    at = AppTest.from_function(_settings_page, default_timeout=QUICK).run()
    assert not at.exception
    rows = dict(zip(at.dataframe[0].value["Setting"], at.dataframe[0].value["Value"], strict=True))
    assert rows["EVIDENCE_JUDGE__SIMILARITY_THRESHOLD"] == "0.7"
    assert rows["EVIDENCE_REVISION__COVERAGE_TARGET"] == "0.85"
    assert rows["EVIDENCE_BACKEND"] == "local"
    assert rows["EVIDENCE_ANTHROPIC__API_KEY"] in ("configured", "not configured")  # never the key itself
    assert at.success[0].value.startswith("Intact: 1 audit rows re-hashed")


def _settings_page() -> None:
    from ui.pages_settings import render

    render()


def test_history_search_and_problem_filter(settings: Settings) -> None:
    store = _store(settings)
    store.save_run(simple_run("sess-simple-0001"))
    store.save_run(flawed_run())  # has a risk flag: a problem
    at = AppTest.from_function(_history, default_timeout=QUICK).run()
    at.toggle(key="history_problems").set_value(True).run()
    assert list(at.dataframe[0].value["Session"]) == ["sess-flawed-0001"]
    at.toggle(key="history_problems").set_value(False).run()
    at.text_input(key="history_search").input("deletion").run()
    assert list(at.dataframe[0].value["Session"]) == ["sess-flawed-0001"]
    at.text_input(key="history_search").input("nothing like this").run()
    assert "No runs" in at.info[0].value


def test_app_opens_on_the_ask_page(settings: Settings) -> None:
    at = AppTest.from_file(str(APP), default_timeout=QUICK).run()
    assert not at.exception
    assert at.title[0].value == "Ask"
    assert at.sidebar.text_input(key="workspace").value == "default"
    assert any("0 documents" in c.value for c in at.sidebar.caption)


# -- the answer rendering ----------------------------------------------------------------------------------


def _entry(answer: str, sentence: str, verdict: str) -> LedgerEntry:
    start = answer.index(sentence)
    claim = Claim(id="c1", text=sentence, type="fact", importance="material", span=(start, start + len(sentence)))
    return LedgerEntry(claim=claim, verdict=verdict, confidence=0.9)  # type: ignore[arg-type]


def test_answer_markdown_numbers_citations_shades_claims_and_escapes_text() -> None:
    first = f"Costs rose 5% *overall* <b>[cite:{POLICY}]."
    second = f"Approval is by the DPO [cite:{HANDBOOK}][cite:{POLICY}]."
    answer = f"{first} {second}"
    shown = answer_markdown(answer, [_entry(answer, first, "supported"), _entry(answer, second, "not_found")])
    assert shown == (
        ":green-background[Costs rose 5% \\*overall\\* \\<b\\> \\[1\\]\\.] "
        ":violet-background[Approval is by the DPO \\[2\\]\\[1\\]\\.]"
    )


def test_plain_leaves_no_markup_in_document_text() -> None:
    assert plain("**b** <i>x</i> :red[y] $z$ [a](http://e.x)") == (
        "\\*\\*b\\*\\* \\<i\\>x\\</i\\> \\:red\\[y\\] \\$z\\$ \\[a\\]\\(http\\://e\\.x\\)"
    )
    assert "material/" not in plain(":material/home:").replace("\u2060material/", "")
    assert plain("line one\nline two\n\nnext", keep_lines=True) == "line one  \nline two\n\nnext"


def test_answer_markdown_falls_back_to_plain_text_when_spans_are_stale() -> None:
    answer = f"Records are kept [cite:{POLICY}]."
    stale = _entry(answer, "Records are kept", "supported").model_copy(deep=True)
    stale.claim.span = (0, 999)
    assert answer_markdown(answer, [stale]) == "Records are kept \\[1\\]\\."


# -- the command ---------------------------------------------------------------------------------------------


def test_evidence_ui_runs_streamlit_on_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.cli import ui_command

    launched: list[list[str]] = []

    class _Child:
        def __init__(self, command: list[str], **options: object) -> None:
            launched.append(command)

        def wait(self, timeout: float | None = None) -> int:
            return 0

        def poll(self) -> int:
            return 0

    monkeypatch.setattr(ui_command.subprocess, "Popen", _Child)
    app = typer.Typer()
    ui_command.register(app)
    app.command(name="noop")(lambda: None)  # a second command keeps `ui` a subcommand
    outcome = CliRunner().invoke(app, ["ui", "--port", "8642"])
    assert outcome.exit_code == 0, outcome.output
    command = launched[0]
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]) == APP
    flags = dict(zip(command[5::2], command[6::2], strict=False))
    assert flags["--server.port"] == "8642"
    assert flags["--server.headless"] == "true"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert flags["--server.address"] == "127.0.0.1"


# -- with the real model ---------------------------------------------------------------------------------------


TRAVEL = """# Travel Policy

Effective date: 2026-01-15

The nightly hotel cap for standard locations is $250. The domestic meal per diem is $75 per day.
Expense reports must be submitted within 30 days after the trip ends.
"""


@pytest.mark.model
def test_documents_page_uploads_ingests_and_reports_failures(settings: Settings) -> None:
    at = AppTest.from_function(_documents, default_timeout=LONG).run()
    assert "No documents yet" in at.info[0].value
    at.file_uploader[0].set_value([
        ("travel.md", TRAVEL.encode(), "text/markdown"),
        ("broken.pdf", b"this is not a pdf", "application/pdf"),
    ])
    at.run()
    at.button[0].click().run()
    assert not at.exception
    assert (settings.home / "uploads" / "default" / "travel.md").read_text() == TRAVEL  # the workspace's own folder
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Added"] == "1" and metrics["Failed"] == "1"
    failures = at.dataframe[0].value
    assert list(failures["File"]) == [str((settings.home / "uploads" / "default" / "broken.pdf").resolve())]
    assert failures["Reason"][0]
    documents = at.dataframe[1].value
    assert list(documents["File"]) == ["travel.md"]
    assert any(c.value.startswith("1 document, ") for c in at.caption)  # not "1 documents"


@pytest.mark.model
def test_verify_page_judges_a_draft_against_the_corpus(settings: Settings, tmp_path: Path) -> None:
    from ledger.loop.factory import build_ingestor

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "travel.md").write_text(TRAVEL)
    report = build_ingestor(settings).run([tmp_path / "docs"])
    assert report.documents_added == 1
    at = AppTest.from_function(_verify, default_timeout=LONG).run()
    at.text_input(key="verify_question").input("What are the travel rules?")
    at.text_area(key="verify_draft").input(
        "The nightly hotel cap for standard locations is $250. "
        "Every employee receives a $1,000 annual wellness stipend."
    )
    _done(at.button[0].click().run(), LONG)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    first_round = next(e for e in at.expander if "Draft as given" in e.label)
    draft_text = "\n".join(m.value for m in first_round.markdown)
    assert ":green-background[The nightly hotel cap" in draft_text  # supported, shaded green
    assert ":violet-background[Every employee receives" in draft_text  # not found, shaded purple
    stored = _store(settings).list_runs()
    assert [r.mode for r in stored] == ["verify"]


def _problem_with_a_closest_passage() -> None:
    from ledger.core.types import Claim, EvidenceMatch, LedgerEntry
    from ui.review import problems

    claim = Claim(id="c1", text="The ferry takes 90 minutes, mostly because of strong currents.", type="numeric",
                  importance="critical")
    closest = EvidenceMatch(
        chunk_hash="a" * 12, document="Ferry guide", similarity=0.9, support="none", match_type="semantic",
        quote="The ferry takes about 90 minutes.",
        reason="the model reads the claim as saying more than the quote: the quote does not give 'mostly because "
               "strong currents' (NLI: entailment 0.27)")
    problems([LedgerEntry(claim=claim, verdict="not_found", confidence=0.0, evidence=[closest])])


def test_a_claim_not_found_shows_its_closest_passage_and_why_it_is_not_enough() -> None:
    at = AppTest.from_function(_problem_with_a_closest_passage, default_timeout=QUICK).run()
    assert not at.exception
    shown = _unescaped(at.warning[0].value)
    assert "Closest passage (not enough): “The ferry takes about 90 minutes.”" in shown
    assert "Why not: the model reads the claim as saying more than the quote: the quote does not give 'mostly " \
           "because strong currents'" in shown
