"""Finding files: special files, bad symlinks and unreadable folders are skipped with a reason, never opened."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from ingest.discovery import discover
from ingest.types import FailedFile

EXTENSIONS = [".txt", ".md", ".html", ".pdf", ".docx"]
T = TypeVar("T")


def within(seconds: float, work: Callable[[], T]) -> T:
    """Run `work` in a thread and fail the test (instead of hanging it) if it blocks, e.g. on a FIFO."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the test below
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds} s"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def reasons(failed: list[FailedFile]) -> dict[str, str]:
    return {Path(f.path).name: f.error for f in failed}


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A folder with one good file and every kind of thing that is not a readable regular file."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "good.md").write_text("# Good\n\nA policy.\n")
    os.mkfifo(root / "pipe.txt")
    (root / "zero.txt").symlink_to("/dev/zero")
    (root / "loop_a.md").symlink_to(root / "loop_b.md")
    (root / "loop_b.md").symlink_to(root / "loop_a.md")
    (root / "dangling.html").symlink_to(root / "gone.html")
    (root / "ignored.bin").symlink_to("/dev/zero")  # not a wanted extension: silently left alone
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(root / "sock.txt"))
    try:
        yield root
    finally:
        server.close()


def test_only_regular_files_are_returned_and_each_special_file_has_a_reason(folder: Path) -> None:
    files, failed = within(10, lambda: discover([folder], EXTENSIONS))
    assert [p.name for p in files] == ["good.md"]
    assert reasons(failed) == {
        "pipe.txt": "skipped: a named pipe (FIFO), not a regular file",
        "zero.txt": "skipped: a character device, not a regular file",
        "loop_a.md": "skipped: symlink loop",
        "loop_b.md": "skipped: symlink loop",
        "dangling.html": "skipped: dangling symlink (its target does not exist)",
        "sock.txt": "skipped: a socket, not a regular file",
    }


def test_special_files_named_on_the_command_line_are_skipped_too(folder: Path) -> None:
    names = ["pipe.txt", "zero.txt", "loop_a.md", "dangling.html", "sock.txt", "good.md"]
    files, failed = within(10, lambda: discover([folder / n for n in names], EXTENSIONS))
    assert [p.name for p in files] == ["good.md"]
    assert set(reasons(failed)) == {"pipe.txt", "zero.txt", "loop_a.md", "dangling.html", "sock.txt"}
    assert all(error.startswith("skipped: ") for error in reasons(failed).values())


def test_a_block_device_is_skipped(tmp_path: Path) -> None:
    device = next((Path(p) for p in ("/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1") if Path(p).exists()), None)
    if device is None or not device.is_block_device():
        pytest.skip("no block device on this machine")
    (tmp_path / "disk.txt").symlink_to(device)
    files, failed = discover([tmp_path], EXTENSIONS)
    assert files == [] and reasons(failed) == {"disk.txt": "skipped: a block device, not a regular file"}


def test_missing_paths_and_unsupported_files_are_reported(tmp_path: Path) -> None:
    (tmp_path / "sheet.xlsx").write_bytes(b"x")
    files, failed = discover([tmp_path / "nope", tmp_path / "sheet.xlsx", tmp_path / "[/oops]"], EXTENSIONS)
    assert files == []
    assert [f.error for f in failed] == [
        "no such file or directory",
        "unsupported file type '.xlsx'",
        "no such file or directory",
    ]


def test_directory_symlink_loops_are_walked_once(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "back").symlink_to(tmp_path, target_is_directory=True)
    files, failed = within(10, lambda: discover([tmp_path], EXTENSIONS))
    assert [p.name for p in files] == ["a.md"]
    assert [f.error for f in failed] == ["directory symlink loop (already visited), skipped"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder whatever its mode")
def test_an_unreadable_folder_is_reported_and_the_rest_is_walked(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.md").write_text("# B\n")
    locked.chmod(0)
    try:
        files, failed = discover([tmp_path], EXTENSIONS)
    finally:
        locked.chmod(0o755)
    assert [p.name for p in files] == ["a.md"]
    assert [(Path(f.path).name, f.error) for f in failed] == [("locked", "permission denied")]
