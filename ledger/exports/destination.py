"""Where an export may be written: never into the data directory, never over a file unless asked, never over the
database. The one home of export file writes."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError

from ledger.audit.anchor_files import AnchorFiles
from ledger.core.settings import Settings


def protected_files(settings: Settings) -> list[Path]:
    """Files an export may never replace, even with --force: the SQLite database (and its journals), the audit key
    and checkpoint."""
    files = AnchorFiles.from_settings(settings).paths()
    try:
        url = make_url(settings.sqlalchemy_url)
    except ArgumentError:
        url = None
    if url is not None and url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        database = Path(url.database)
        files += [database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm"),
                  database.with_name(database.name + "-journal")]
    return files


def refusal(target: Path, settings: Settings, *, force: bool) -> str | None:
    """Why an export must not be written to `target` (None when it may). Symlinks are followed before deciding."""
    resolved = target.expanduser().resolve()
    home = settings.home.expanduser().resolve()
    if resolved == home or resolved.is_relative_to(home):
        return (f"refusing to write {target} inside the data directory {home} (EVIDENCE_HOME): "
                "choose a path outside it")
    if any(resolved == f.expanduser().resolve() for f in protected_files(settings)):
        return f"refusing to overwrite {target}: it is the database or the audit trail's own file"
    if resolved.is_dir():
        return f"{target} is a directory: name a file"
    if (target.exists() or target.is_symlink()) and not force:
        return f"{target} already exists: choose another name, or add --force to replace it"
    return None


def write_export(target: Path, data: bytes, *, force: bool) -> None:
    """Write the bytes; without `force` an existing file (appeared since the check, too) is never replaced."""
    if not force:
        with open(target, "xb") as fh:  # O_EXCL: fails on any existing file or symlink
            fh.write(data)
        return
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
        os.replace(tmp, target)  # replaces a symlink itself, never the file it points to
    finally:
        tmp.unlink(missing_ok=True)
