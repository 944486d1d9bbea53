"""`evidence ingest` and `evidence docs` as a user runs them: odd names and titles print as they are, safely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder


def evidence(home: Path, *args: str, columns: int = 250) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EVIDENCE_HOME": str(home), "HF_HUB_OFFLINE": "1", "COLUMNS": str(columns)}
    cmd = [sys.executable, "-c", "from ledger.cli import main; main()", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)


def test_a_path_with_markup_brackets_is_reported_not_a_crash(home: Path) -> None:
    done = evidence(home, "ingest", "[/oops]")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "failed [/oops]: no such file or directory" in done.stderr
    assert "0 added" in done.stdout and "1 failed:" in done.stdout


def test_failed_files_are_listed_one_line_each_without_escape_codes(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "empty [z] \x1b[2J.txt").write_bytes(b"")
    (folder / "elf.html").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    os.mkfifo(folder / "pipe.md")
    (folder / "zero.txt").symlink_to("/dev/zero")
    done = evidence(home, "ingest", str(folder), columns=80)  # each failure stays on one line, however long
    assert done.returncode == 1
    assert "\x1b" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    failed = sorted(line for line in done.stderr.splitlines() if line.startswith("failed "))
    assert failed == [
        f"failed {folder}/elf.html: binary content, not text (it looks like an ELF executable)",
        f"failed {folder}/empty [z] .txt: file is empty",
        f"failed {folder}/pipe.md: skipped: a named pipe (FIFO), not a regular file",
        f"failed {folder}/zero.txt: skipped: a character device, not a regular file",
    ]
    assert "4 failed:" in done.stdout


def test_docs_prints_titles_with_brackets_and_escape_codes_safely(
    home: Path, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "docs [" / "w]"  # the path contains "[/w]"
    folder.mkdir(parents=True)
    (folder / "policy.md").write_text("# Policy [/x] update\n\nThe cap is $220 per night.\n")
    (folder / "alert.md").write_text("# \x1b[31mRed\x1b[0m alert [bold]now[/bold]\n\nCall the desk.\n")
    (folder / "plain.txt").write_text("[/] \x1b]0;pwned\x07 first line\n\nBody text.\n")
    report = build_ingestor(settings, embedder=HashEmbedder()).run([folder])
    assert report.documents_added == 3 and not report.failed
    done = evidence(home, "docs")
    assert done.returncode == 0, done.stderr
    assert "Policy [/x] update" in done.stdout
    assert "Red alert [bold]now[/bold]" in done.stdout
    assert "[/] first line" in done.stdout
    assert "docs [/w]" in done.stdout
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
