"""Hostile and mistaken input to `evidence`: one clear line, the right exit code, no traceback, no secret."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

KEY = "sk-ant-api03-NOT-A-REAL-KEY-0987654321"


def evidence(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "EVIDENCE_HOME": str(home), "HF_HUB_OFFLINE": "1", "COLUMNS": "200", **(env or {})}
    cmd = [sys.executable, "-c", "from ledger.cli import main; main()", *args]
    return subprocess.run(cmd, env=full, capture_output=True, text=True, timeout=600)


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_a_100_kb_question_is_refused_at_once_with_the_limit(home: Path) -> None:
    done = evidence(home, "ask", "What is the fee? " * 6000)
    assert done.returncode == 2
    assert "the question is 101,999 characters long; the limit is 2,000" in one_line_error(done)


def test_a_question_of_control_characters_only_is_empty(home: Path) -> None:
    done = evidence(home, "ask", "\x1b[31m\x07\u202e ")
    assert done.returncode == 2 and one_line_error(done) == "error: the question is empty"


def test_asking_a_workspace_without_documents_says_how_to_fill_it(home: Path) -> None:
    done = evidence(home, "ask", "-w", "legal", "What is the fee?")
    assert done.returncode == 2
    assert "the workspace 'legal' has no documents yet" in one_line_error(done)
    assert "evidence ingest FOLDER --workspace legal" in done.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "1", "claim": "x"\n', "1: not valid JSON"),
        ('{"id": "1", "claim": "x", "evidence": "not a list", "label": "supported"}\n', "1: field 'evidence'"),
        ("\n\n", "holds no items"),
    ],
)
def test_malformed_eval_files_name_the_line_and_the_problem(
    home: Path, tmp_path: Path, content: str, expected: str
) -> None:
    path = tmp_path / "items.jsonl"
    path.write_text(content)
    done = evidence(home, "eval", str(path))
    assert done.returncode == 2 and expected in one_line_error(done)


def test_brackets_and_escape_codes_in_an_error_are_printed_as_text(home: Path) -> None:
    done = evidence(home, "verify", "-q", "What is the fee?", "-f", "[/oops]\x1b[2J.md")
    assert done.returncode == 2
    line = one_line_error(done)
    assert "[/oops]" in line and "\x1b" not in done.stderr


def test_a_misspelt_key_setting_never_shows_the_key_anywhere(home: Path) -> None:
    done = evidence(home, "docs", env={"EVIDENCE_ANTHROPIC__KEY": KEY})
    assert done.returncode == 2 and "did you mean EVIDENCE_ANTHROPIC__API_KEY?" in one_line_error(done)
    assert KEY not in done.stdout + done.stderr
    leaked = [p for p in home.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
    assert leaked == []


def test_an_internal_error_masks_the_key_in_the_message_and_the_crash_log(home: Path) -> None:
    crash = (
        "import sys; from ledger.cli import main, app\n"
        "import typer\n"
        "@app.command('boom')\n"
        "def boom() -> None:\n"
        f"    raise RuntimeError('upstream said: bad key {KEY}')\n"
        "main()\n"
    )
    env = {**os.environ, "EVIDENCE_HOME": str(home), "EVIDENCE_ANTHROPIC__API_KEY": KEY}
    done = subprocess.run([sys.executable, "-c", crash, "boom"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3 and "internal error: RuntimeError" in done.stderr
    log = (home / "crash.log").read_text()
    assert "RuntimeError" in log and "[redacted]" in log
    assert KEY not in done.stderr and KEY not in log
