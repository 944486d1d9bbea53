"""Advisory file locks under $EVIDENCE_HOME/locks/: one per workspace for writers, one for first-time set-up.

`fcntl.flock` rather than a lock-file library: the kernel drops the lock when its holder dies (a SIGKILLed ingest
leaves no stale lock to clean up), a waiter blocks without polling, and it adds no dependency. Locks are per
machine: processes on other machines sharing a Chroma server and a PostgreSQL database are not serialised by them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ledger.core.errors import StoreError
from ledger.core.workspaces import collection_name

WaitNotice = Callable[[str], None]


class FileLock:
    """An exclusive lock on one file, re-entrant within a thread; other threads and processes wait for it."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.what = what
        self._local = threading.local()

    @property
    def _owner_file(self) -> Path:
        return self.path.with_suffix(".owner")

    @contextmanager
    def hold(self, on_wait: WaitNotice | None = None, timeout: float | None = None) -> Iterator[None]:
        """Hold the lock for the block; `on_wait` hears once why we wait; `timeout` seconds, else StoreError."""
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        fd = self._open()
        try:
            self._acquire(fd, on_wait, timeout)
            self._local.depth = 1
            self._note_owner()
            try:
                yield
            finally:
                self._local.depth = 0
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _open(self) -> int:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot create the lock file {self.path}: {exc.strerror or exc}") from exc

    def _acquire(self, fd: int, on_wait: WaitNotice | None, timeout: float | None) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if on_wait:
            on_wait(f"waiting for {self.what} to finish{self._owner()}…")
        if timeout is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StoreError(
                        f"gave up after {timeout:.0f}s waiting for {self.what}{self._owner()} (lock {self.path})"
                    ) from None
                time.sleep(0.05)

    def _note_owner(self) -> None:
        with contextlib.suppress(OSError):  # the owner note only makes the wait message friendlier
            self._owner_file.write_text(str(os.getpid()))

    def _owner(self) -> str:
        try:
            pid = self._owner_file.read_text().strip()
        except OSError:
            return ""
        return f" (process {pid})" if pid.isdigit() else ""


def locks_dir(home: Path) -> Path:
    """Where the lock files of a home live."""
    return home / "locks"


def workspace_lock(home: Path, workspace: str) -> FileLock:
    """The lock every writer of a workspace's vectors holds: ingest, the sweep, `evidence doctor`."""
    name = collection_name(workspace)
    return _shared(locks_dir(home) / f"workspace-{name}.lock", f"another ingest of workspace {workspace!r}")


def setup_lock(home: Path) -> FileLock:
    """The lock held while a process opens (and, the first time, creates) the home's embedded Chroma."""
    return _shared(locks_dir(home) / "setup.lock", "another process to set up the vector store")


_LOCKS: dict[Path, FileLock] = {}
_LOCKS_GUARD = threading.Lock()


def _shared(path: Path, what: str) -> FileLock:
    # One object per file per process: two holders in one thread then nest instead of deadlocking on flock.
    key = path.absolute()
    with _LOCKS_GUARD:
        lock = _LOCKS.get(key)
        if lock is None:
            lock = _LOCKS[key] = FileLock(key, what)
        return lock
