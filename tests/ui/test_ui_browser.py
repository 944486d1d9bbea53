"""The real UI in a real browser: `streamlit run` in a child process, headless Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.cli.ui_command import streamlit_command

pytestmark = pytest.mark.browser

SAMPLE_DOCS = Path(__file__).resolve().parents[2] / "sample_docs"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
VERDICT = re.compile(r"^(Supported|Weak|Contradicted|Not found)$")
SLOW_MS = 300_000  # first run loads the embedding model and ingests the corpus on 2 cores


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The UI served on a free localhost port over a fresh EVIDENCE_HOME; yields (url, folder for screenshots)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    base = tmp_path_factory.mktemp("ui")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EVIDENCE_", "ANTHROPIC_"))}
    env |= {"EVIDENCE_HOME": str(base / "home"), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    port = _free_port()
    log = (base / "streamlit.log").open("w")
    child = subprocess.Popen(streamlit_command(port), env=env, cwd=base, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if child.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not start:\n{(base / 'streamlit.log').read_text()}")
                time.sleep(0.5)
        yield url, base
    finally:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        log.close()


@pytest.fixture(scope="module")
def browser(served: tuple[str, Path]) -> Iterator[object]:
    """Headless Chromium (the Debian build), one for the module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until Streamlit has finished the current script run."""
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="detached", timeout=SLOW_MS)


SCREENS = Path(os.environ.get("EVIDENCE_UI_SCREENS", "/work/notes/screens"))
XSS_DOC = """# Kiosk notice

The lobby kiosk code is 4417 for all visitors. <script>alert(1)</script>
<img src=x onerror="alert(2)"> See http://example.com/kiosk for the rota.
"""
DRAFT = ("Under the travel policy, the nightly hotel cap for standard locations is $250 per night. "
         "Every employee also receives a $1,000 annual wellness stipend.")
QUESTION = "What is the nightly hotel cap for standard locations?"
# A draft long enough (many claims to judge and revise) that Cancel is pressed while it is being checked.
# Long enough that a warm local run (about 1.5 s for 40 sentences) is still judging when Cancel is clicked.
LONG_DRAFT = " ".join(f"In region {n} the nightly hotel cap is ${200 + n} per night and meals are ${40 + n} per day."
                      for n in range(1, 401))
COMMENT = "Checked the hotel cap against the 2026 policy; the stipend line is not in the documents."
# Opening a page's own URL (/documents), Streamlit's frontend first probes /documents/_stcore/… for a path prefix,
# gets 404, and falls back to the root: its way of finding the server, not a failure of this app.
STREAMLIT_PROBE = re.compile(r"://127\.0\.0\.1:\d+/[\w-]+/_stcore/(host-config|health)$")


def _outcome(page):  # type: ignore[no-untyped-def]
    """Wait for the outcome line of a result (or an error) and return it; fail with the message if it is an error."""
    first = page.locator("[data-testid='stAlertContainer']").filter(
        has_text=re.compile(r"(fully answered|partly answered|Not answerable|contradicted claim|failed)")).first
    first.wait_for(timeout=SLOW_MS)
    return first


def _shot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1440, "height": 2400})
    page.wait_for_timeout(800)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": 1440, "height": 1000})
    print(f"screenshot: {path}")
    return path


def _audit_rows(page, url: str) -> int:  # type: ignore[no-untyped-def]
    """How many audit rows the Settings page counts."""
    page.goto(f"{url}/settings")
    line = page.get_by_text(re.compile(r"^Intact: \d+ audit rows"))
    line.wait_for(timeout=30_000)
    return int(re.findall(r"\d+", line.inner_text())[0])


def _ask(page, question: str) -> float:  # type: ignore[no-untyped-def]
    """Ask on the Ask page; seconds from the click to the outcome line."""
    page.get_by_label("Question", exact=True).fill(question)
    before = page.url
    started = time.monotonic()
    page.get_by_role("button", name="Ask", exact=True).click()
    page.wait_for_url(lambda u: "run=" in u and u != before, timeout=SLOW_MS)  # this run's id, not the last one's
    _settle(page)
    _outcome(page)
    return time.monotonic() - started


def test_the_analyst_and_reviewer_path_in_a_real_browser(served: tuple[str, Path], browser,  # type: ignore[no-untyped-def]
                                                         tmp_path: Path) -> None:
    url, _ = served
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    hosts: set[str] = set()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    # A failed load is judged by its URL (below); its console line carries none.
    page.on("console", lambda msg: errors.append(f"console: {msg.text}")
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 and not STREAMLIT_PROBE.search(r.url) else None)
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: hosts.add(re.sub(r"^\w+://([^/:]+).*$", r"\1", request.url)))

    # 1. ingest sample_docs and a hostile document through the upload widget
    (tmp_path / "kiosk_notice.md").write_text(XSS_DOC)
    page.goto(f"{url}/documents")
    page.locator("input[type='file']").first.set_input_files(
        [str(p) for p in sorted(SAMPLE_DOCS.iterdir())] + [str(tmp_path / "kiosk_notice.md")])
    page.get_by_text("kiosk_notice.md").first.wait_for(timeout=60_000)
    _settle(page)
    page.get_by_role("button", name="Ingest", exact=True).click()
    page.get_by_text("Every file was ingested.").wait_for(timeout=SLOW_MS)
    documents = len(list(SAMPLE_DOCS.iterdir())) + 1
    page.get_by_text(re.compile(rf"^{documents} documents · \d+ chunks indexed")).wait_for(timeout=30_000)
    _shot(page, "01-documents")

    # 2. ask (cold: the model loads), then open a citation: its passage shows the quote highlighted
    page.get_by_role("link", name="Ask", exact=True).click()
    cold = _ask(page, QUESTION)
    assert "run=" in page.url  # a reload or a shared link reopens the run
    page.get_by_role("button", name=re.compile(r"^\[1\]")).first.click()
    popover = page.locator("[data-testid='stPopoverBody']").first
    popover.wait_for(timeout=10_000)
    highlight = popover.locator("span[class*='stMarkdownColoredBackground'], span[style*='background']").filter(
        has_text="$220 per night")
    # the popover opens with its title first and renders the passage after it (CI once counted in between)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        highlight.first.wait_for(timeout=10_000)
    assert highlight.count() >= 1, popover.inner_text()
    assert "Travel and Expense Policy" in popover.inner_text()
    _shot(page, "02-ask-citation-open")
    page.keyboard.press("Escape")
    warm = [_ask(page, QUESTION) for _ in range(5)]
    print(f"timing: cold first ask {cold:.1f} s; warm asks {', '.join(f'{w:.1f}' for w in warm)} s; "
          f"median {statistics.median(warm):.1f} s")

    # 3. a reload reopens the run from the URL
    page.reload()
    _settle(page)
    _outcome(page)

    # 4. the exports download
    for fmt in ("JSON", "CSV", "HTML"):
        with page.expect_download(timeout=30_000) as download:
            page.get_by_role("button", name=fmt, exact=True).first.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.stat().st_size > 200, fmt

    # 5. check a flawed draft: the contradicted claim with its quote, then accept one change
    page.get_by_role("link", name="Check a draft").click()
    page.get_by_label("Question the draft answers").fill("What do the travel and expense rules say?")
    page.get_by_label("Draft", exact=True).fill(DRAFT)
    page.get_by_role("button", name="Check draft").click()
    outcome = _outcome(page)
    assert "The draft as submitted" in outcome.inner_text()
    problems = page.locator("[data-testid='stAlertContainer']").filter(has_text=re.compile("The documents say: “"))
    problems.first.wait_for(timeout=10_000)
    assert "$220 per night" in problems.first.inner_text()
    _shot(page, "03-check-draft")
    page.get_by_text("Accept", exact=True).first.click()
    page.get_by_text(re.compile(r"1 of \d+ changes accepted")).wait_for(timeout=60_000)
    with page.expect_download(timeout=30_000) as download:
        page.get_by_role("button", name="Review record").click()
    assert b'"decision": "accepted"' in Path(download.value.path()).read_bytes()
    _shot(page, "03b-change-accepted")
    # sign off, then the run's JSON export records the accepted change, the reviewer's comment and the sign-off
    page.get_by_label("Reviewer's comment").fill(COMMENT)
    page.get_by_role("button", name="Sign off").click()
    page.get_by_text(re.compile(r"Signed off as audit row \d+")).first.wait_for(timeout=60_000)
    _settle(page)
    with page.expect_download(timeout=30_000) as download:
        page.get_by_role("button", name="JSON", exact=True).first.click()
    review = json.loads(Path(download.value.path()).read_bytes())["review"]
    assert review["reviewed"] and review["changes"][0]["decision"] == "accepted", review
    assert review["sign_offs"][-1]["comment"] == COMMENT and review["sign_offs"][-1]["accepted"] == 1
    assert review["status"].startswith("Reviewed: signed off by ")
    _shot(page, "03c-signed-off")

    # 5b. cancel a long draft check from its status panel: the page says so, and nothing is stored
    rows_before = _audit_rows(page, url)
    page.goto(f"{url}/verify")
    page.get_by_label("Question the draft answers").fill("What do the travel rules say for each region?")
    page.get_by_label("Draft", exact=True).fill(LONG_DRAFT)
    page.get_by_role("button", name="Check draft").click()
    cancel = page.get_by_role("button", name="Cancel")
    cancel.wait_for(timeout=SLOW_MS)
    page.get_by_text(re.compile(r"Critique of the draft|Extracting the claims|Judging every claim")).first.wait_for(
        timeout=SLOW_MS)
    page.screenshot(path=str(SCREENS / "03d-run-in-flight-with-cancel.png"), full_page=True)
    assert page.get_by_role("button", name="Check draft").is_disabled()  # one run at a time
    cancel.click()
    page.get_by_text("Run cancelled; nothing was stored.").wait_for(timeout=SLOW_MS)
    _settle(page)
    _shot(page, "03e-run-cancelled")
    assert "run=" not in page.url
    assert _audit_rows(page, url) == rows_before  # no run, no audit row

    # 6. the hostile document is quoted as text: nothing runs, no link is made
    page.get_by_role("link", name="Ask", exact=True).click()
    _ask(page, "What is the lobby kiosk code for visitors?")
    body = page.locator("[data-testid='stMain']")
    _shot(page, "04-xss-document")
    assert "4417" in body.inner_text(), body.inner_text()[:2000]
    page.get_by_role("button", name=re.compile(r"^\[1\]")).first.click()
    passage = page.locator("[data-testid='stPopoverBody']").first
    passage.wait_for(timeout=10_000)
    assert "<script>alert(1)</script>" in passage.inner_text(), passage.inner_text()  # shown as text
    assert 'onerror="alert(2)"' in passage.inner_text()
    assert passage.locator("script, img").count() == 0
    assert page.locator("[data-testid='stMain'] a[href*='example.com']").count() == 0

    # 7. another workspace sees none of these documents
    page.get_by_role("textbox", name="Workspace").fill("other-team")
    page.keyboard.press("Enter")
    _settle(page)
    page.get_by_text(re.compile(r"^0 documents · 0 chunks indexed")).wait_for(timeout=30_000)
    _ask(page, QUESTION)
    main_text = page.locator("[data-testid='stMain']").inner_text()
    assert "$220" not in main_text and "Not answerable from these documents" in main_text
    _shot(page, "05-other-workspace")

    # 8. the read-only settings and the audit chain
    page.get_by_role("link", name="Settings").click()
    page.get_by_text(re.compile(r"^Intact: \d+ audit rows")).wait_for(timeout=30_000)
    _shot(page, "06-settings")

    assert not dialogs, dialogs
    assert not errors, errors
    assert hosts <= {"127.0.0.1"}, f"requests left the machine: {sorted(hosts - {'127.0.0.1'})}"
    context.close()
