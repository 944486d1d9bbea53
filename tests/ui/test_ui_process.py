"""`evidence ui` never leaves its Streamlit server behind: SIGTERM, SIGHUP, Ctrl+C or even SIGKILL of the command
stops the server too (issue 12, item 8). Real processes on a loopback port; no browser."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

EVIDENCE = Path(sys.executable).with_name("evidence")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _as_from_a_shell() -> None:
    """The child starts with the signal state a shell gives it: nothing blocked, nothing ignored. The test process
    may carry another (libraries loaded by earlier tests, or `nohup`), which the child would otherwise inherit."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _wait_until(check, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`evidence ui` on a free port, serving; yields (the command's process, the Streamlit server's pid)."""
    if not Path("/proc").exists():
        pytest.skip("needs /proc to find the server process")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")}
    env |= {"EVIDENCE_HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1"}
    command = subprocess.Popen([str(EVIDENCE), "ui", "--port", str(port)], env=env, cwd=tmp_path,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_as_from_a_shell)

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as answer:
                return answer.status == 200
        except OSError:
            return False

    try:
        assert _wait_until(healthy, 60), "the UI did not start"
        servers = _children(command.pid)
        assert len(servers) == 1
        yield command, servers[0]
    finally:
        for pid in [command.pid, *_children(command.pid)]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        command.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_stopping_evidence_ui_stops_its_server(started: tuple[subprocess.Popen[bytes], int], sig: int) -> None:
    command, server = started
    command.send_signal(sig)  # to the command only, as `kill` or a service manager sends it
    assert command.wait(timeout=45) == 128 + sig  # the server gets 10 s, then SIGKILL; a loaded machine is slow
    assert _wait_until(lambda: not _alive(server), 5), "the Streamlit server was left running"


def test_a_killed_evidence_ui_takes_its_server_down(started: tuple[subprocess.Popen[bytes], int]) -> None:
    command, server = started
    command.kill()  # SIGKILL: no handler runs; Linux's parent-death signal stops the server
    command.wait(timeout=5)
    assert _wait_until(lambda: not _alive(server), 15), "the Streamlit server was left running"
