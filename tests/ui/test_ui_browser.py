"""The real UI in a real browser: `streamlit run` in a child process, headless Chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import socket
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


def _outcome(page):  # type: ignore[no-untyped-def]
    """Wait for a result view (its ledger table) or an error message; fail with the message if it is an error."""
    first = page.locator("[data-testid='stTable'], [data-testid='stAlertContentError']").first
    first.wait_for(timeout=SLOW_MS)
    if first.get_attribute("data-testid") == "stAlertContentError":
        pytest.fail(f"the page showed an error: {first.inner_text()}")
    return first


def _full_shot(page, path: Path) -> Path:  # type: ignore[no-untyped-def]
    # Streamlit scrolls inside its own container, so a tall window is the way to capture the whole page.
    page.set_viewport_size({"width": 1440, "height": 2600})
    page.wait_for_timeout(800)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": 1440, "height": 1000})
    print(f"screenshot: {path}")
    return path


def test_ingest_ask_and_check_a_draft_in_the_browser(served: tuple[str, Path], browser) -> None:  # type: ignore[no-untyped-def]
    url, shots = served
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # 1. ingest the sample corpus by folder path
    page.goto(f"{url}/documents")
    page.get_by_label("…or a folder or file on the server").fill(str(SAMPLE_DOCS))
    page.keyboard.press("Enter")
    _settle(page)
    page.get_by_role("button", name="Ingest", exact=True).click()
    page.get_by_text("Every file was ingested.").wait_for(timeout=SLOW_MS)
    documents = len(list(SAMPLE_DOCS.iterdir()))
    page.get_by_text(re.compile(rf"^{documents} documents · \d+ chunks indexed$")).wait_for(timeout=10_000)
    _full_shot(page, shots / "documents.png")

    # 2. ask a question: the answer appears with verdicts in the ledger
    page.get_by_role("link", name="Ask", exact=True).click()
    page.get_by_label("Question", exact=True).fill("What is the nightly hotel cap for standard locations?")
    page.get_by_role("button", name="Ask", exact=True).click()
    ledger = _outcome(page)
    verdicts = ledger.get_by_text(VERDICT)
    verdicts.first.wait_for(timeout=10_000)
    assert verdicts.count() >= 1
    assert page.get_by_text("Evidence coverage").count() == 1
    assert page.locator("[data-testid='stException']").count() == 0
    _full_shot(page, shots / "ask.png")

    # 3. check a flawed draft: the invented stipend is not found in the corpus
    page.get_by_role("link", name="Check a draft").click()
    page.get_by_label("Question the draft answers").fill("What do the travel and expense rules say?")
    page.get_by_label("Draft", exact=True).fill(
        "Under the travel policy, the nightly hotel cap for standard locations is $250. "
        "Every employee also receives a $1,000 annual wellness stipend."
    )
    page.get_by_role("button", name="Check draft").click()
    _outcome(page)
    page.get_by_role("tab", name=re.compile("Revision history")).click()
    page.get_by_text("Draft as given").first.click()
    page.get_by_text("Not found").first.wait_for(timeout=10_000)
    assert page.locator("[data-testid='stException']").count() == 0
    _full_shot(page, shots / "verify.png")
    assert not errors, errors
