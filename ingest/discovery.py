"""Which files an ingest reads: folders walked, and anything that is not a regular file skipped with a reason.

Nothing here opens a file. Every candidate is classified with `os.stat` (which follows symlinks) before
the loaders ever open it, so a FIFO, a device such as `/dev/zero` behind a `.txt` symlink, a socket, a
dangling symlink or a symlink loop is reported in one line instead of hanging or exhausting memory.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ingest.types import FailedFile

_KINDS: tuple[tuple[object, str], ...] = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def special_file_reason(mode: int) -> str | None:
    """Why a file of this `st_mode` is not read ("skipped: a named pipe (FIFO), ..."), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")  # type: ignore[operator]
    return f"skipped: {kind}, not a regular file"


def stat_reason(path: Path) -> tuple[os.stat_result | None, str | None]:
    """`os.stat` of the file a path leads to, or the one-line reason it cannot be followed or read."""
    try:
        return os.stat(path), None
    except FileNotFoundError:
        return None, "skipped: dangling symlink (its target does not exist)" if os.path.islink(path) else (
            "no such file or directory"
        )
    except PermissionError:
        return None, "permission denied"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "skipped: symlink loop"
        return None, f"cannot be read ({exc.strerror or exc})"


def discover(paths: Iterable[Path], extensions: list[str]) -> tuple[list[Path], list[FailedFile]]:
    """Regular files to ingest under `paths` (resolved, sorted, unique) and what was skipped or failed, with why."""
    wanted = {e.lower() for e in extensions}
    files: dict[str, Path] = {}
    failed: list[FailedFile] = []
    for root in paths:
        info, reason = stat_reason(root)
        if info is None:
            failed.append(FailedFile(path=str(root), error=reason or "cannot be read"))
        elif stat.S_ISDIR(info.st_mode):
            _walk(root, wanted, files, failed)
        elif root.suffix.lower() not in wanted:
            failed.append(FailedFile(path=str(root), error=f"unsupported file type {root.suffix or '(none)'!r}"))
        elif special := special_file_reason(info.st_mode):
            failed.append(FailedFile(path=str(root), error=special))
        else:
            files.setdefault(str(root.resolve()), root.resolve())
    return sorted(files.values()), failed


def _walk(root: Path, wanted: set[str], files: dict[str, Path], failed: list[FailedFile]) -> None:
    seen_dirs: set[tuple[int, int]] = set()

    def on_error(err: OSError) -> None:
        reason = "permission denied" if isinstance(err, PermissionError) else (err.strerror or str(err))
        failed.append(FailedFile(path=str(err.filename), error=reason))

    for dirpath, dirnames, filenames in os.walk(root, followlinks=True, onerror=on_error):
        try:
            st = os.stat(dirpath)
        except OSError as exc:  # the folder went away or turned unreadable mid-walk
            failed.append(FailedFile(path=dirpath, error=exc.strerror or str(exc)))
            dirnames[:] = []
            continue
        if (st.st_dev, st.st_ino) in seen_dirs:
            failed.append(FailedFile(path=dirpath, error="directory symlink loop (already visited), skipped"))
            dirnames[:] = []
            continue
        seen_dirs.add((st.st_dev, st.st_ino))
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.startswith(".") or path.suffix.lower() not in wanted:
                continue
            info, reason = stat_reason(path)
            if info is not None:
                reason = special_file_reason(info.st_mode)
            if reason:
                failed.append(FailedFile(path=str(path), error=reason))
                continue
            files.setdefault(str(path.resolve()), path.resolve())
