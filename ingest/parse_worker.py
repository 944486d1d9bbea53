"""Parsing with a time and memory limit: a runaway parser fails its own file, never the batch.

A thread cannot be stopped, so files are parsed in one long-lived child process (`python -m
ingest.parse_worker`) that serves the whole run: each file costs a pipe round trip (well under a
millisecond for a typical document), not a process start. When a file takes longer than the limit the
child is killed, the file fails with "parsing took longer than N s", and the next file gets a fresh child.
The child is a new interpreter, not a fork of the caller, so no lock held by the caller's threads (Chroma,
torch, tokenizers) can deadlock it, and it limits its own address space, so a decompression bomb ends in a
MemoryError there instead of the kernel's OOM killer picking the caller.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import threading
import warnings
from multiprocessing.connection import Connection
from pathlib import Path

from ingest.loaders import parse_file
from ingest.types import LoadedDocument
from ledger.core.errors import LoaderError
from ledger.core.settings import IngestSettings

# The child announces itself once its imports are done; the clock of the first file starts after that.
_START_TIMEOUT_S = 120.0
_READY = "ready"


class ParseWorker:
    """One child process that parses files on request; restarted after a timeout or a crash."""

    def __init__(self, memory_mb: int = 0) -> None:
        self.memory_mb = memory_mb
        self._proc: subprocess.Popen[bytes] | None = None
        self._to_child: Connection | None = None
        self._from_child: Connection | None = None

    def parse(self, path: Path, data: bytes, mtime: float | None, timeout_s: float) -> LoadedDocument:
        """`parse_file` in the child; LoaderError when it fails, takes longer than `timeout_s` or the child dies."""
        request = (str(path), data, mtime, timeout_s)
        to_child, from_child = self._connections()
        try:
            try:
                to_child.send(request)
            except OSError:  # it died after the previous file, before anyone noticed: one fresh start
                self.close()
                to_child, from_child = self._connections()
                to_child.send(request)
            if not from_child.poll(timeout_s):
                self.close()
                raise LoaderError(path, f"parsing took longer than {timeout_s:g} s, stopped")
            status, value = from_child.recv()
        except (EOFError, OSError):
            code = self._exit_code()
            self.close()
            raise LoaderError(path, f"the parser stopped unexpectedly{_exit_reason(code)}") from None
        if status == "ok":
            assert isinstance(value, LoadedDocument)
            return value
        raise LoaderError(path, str(value))

    def _exit_code(self) -> int | None:
        """The child's exit code once its pipe has closed (it may take a moment to be reaped)."""
        if self._proc is None:
            return None
        try:
            return self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return None

    def _connections(self) -> tuple[Connection, Connection]:
        if self._proc is not None and self._proc.poll() is not None:
            self.close()  # it died between files
        if self._to_child is None or self._from_child is None:
            self._start()
        assert self._to_child is not None and self._from_child is not None
        return self._to_child, self._from_child

    def _start(self) -> None:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        command = [sys.executable, "-m", "ingest.parse_worker", str(down_r), str(up_w), str(self.memory_mb)]
        try:
            self._proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module, no shell
                command, pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env, close_fds=True,
            )  # fmt: skip
        finally:
            os.close(down_r)
            os.close(up_w)
        self._to_child = Connection(down_w, readable=False)
        self._from_child = Connection(up_r, writable=False)
        try:
            ready = self._from_child.poll(_START_TIMEOUT_S) and self._from_child.recv() == _READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.close()
            raise OSError("the parser process did not start")

    def close(self) -> None:
        """Stop the child (killed if busy) and forget it; the next parse starts a new one."""
        for conn in (self._to_child, self._from_child):
            if conn is not None:
                conn.close()
        self._to_child = self._from_child = None
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._proc = None


def _exit_reason(code: int | None) -> str:
    if code is None or code == 0:
        return ""
    if code < 0:
        try:
            return f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f" (signal {-code})"
    return f" (exit code {code})"


_shared: ParseWorker | None = None
_shared_lock = threading.Lock()


def parse_isolated(path: Path, data: bytes, mtime: float | None, limits: IngestSettings) -> LoadedDocument:
    """Parse bytes read from `path` within `limits.parse_timeout_s` and `limits.parse_memory_mb`.

    One child serves every caller of this process (in turn); a limit of 0 seconds parses in this process.
    """
    global _shared
    if limits.parse_timeout_s <= 0:
        return parse_file(path, data, mtime)
    with _shared_lock:
        if _shared is None or _shared.memory_mb != limits.parse_memory_mb:
            if _shared is not None:
                _shared.close()
            _shared = ParseWorker(limits.parse_memory_mb)
        try:
            return _shared.parse(path, data, mtime, limits.parse_timeout_s)
        except OSError:  # no child process could be started here: parse without the limit rather than not at all
            return parse_file(path, data, mtime)


@atexit.register
def _close_shared() -> None:
    if _shared is not None:
        _shared.close()


# ------------------------------------------------------------------------------------------------ child


def _limit_memory(memory_mb: int) -> None:
    if memory_mb <= 0:
        return
    import resource

    limit = memory_mb * 2**20
    with contextlib.suppress(ValueError, OSError):  # a hard limit below ours is already stricter
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _answer(path: str, data: bytes, mtime: float | None) -> tuple[str, object]:
    try:
        return "ok", parse_file(Path(path), data, mtime)
    except LoaderError as exc:
        return "failed", exc.reason
    except MemoryError:
        return "failed", "parsing needed more memory than allowed (setting ingest.parse_memory_mb)"
    except RecursionError:
        return "failed", "too deeply nested to parse"
    except Exception as exc:  # a parser bug must fail this file only, with a reason that can be reported
        message = " ".join(str(exc).split())[:160]
        return "failed", f"could not be parsed ({type(exc).__name__}: {message})"


def serve(down_fd: int, up_fd: int, memory_mb: int) -> None:
    """The child's loop: read (path, bytes, mtime, timeout) requests, answer ("ok", document) or ("failed", reason)."""
    warnings.simplefilter("ignore")  # parser warnings would only reach /dev/null
    _limit_memory(memory_mb)
    requests, answers = Connection(down_fd, writable=False), Connection(up_fd, readable=False)
    answers.send(_READY)
    while True:
        try:
            path, data, mtime, timeout_s = requests.recv()
        except (EOFError, OSError):
            return  # the parent has gone
        # If the parent dies while this file runs away, the alarm still ends this process.
        signal.alarm(min(int(timeout_s) + 5, 2**31 - 1))
        answer = _answer(path, data, mtime)
        signal.alarm(0)
        try:
            answers.send(answer)
        except (EOFError, OSError):
            return


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
