"""The home of the audit anchor's files: the HMAC key and the checkpoint, both kept outside the database.

Writes are atomic (a temporary file in the same folder, then a rename) and serialised by an advisory lock, so
two processes appending at once never leave a torn checkpoint or one that goes backwards.
"""

from __future__ import annotations

import fcntl
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from ledger.audit import anchor
from ledger.audit.types import Checkpoint
from ledger.core.errors import StoreError
from ledger.core.settings import Settings

KEY_NAME = "audit.key"
CHECKPOINT_NAME = "audit.checkpoint"


class CheckpointUnreadable(ValueError):
    """The checkpoint file exists but is not a checkpoint (edited, truncated or replaced)."""


class AnchorFiles:
    """The key file and the checkpoint file of one database's audit chain."""

    def __init__(self, key_path: Path, checkpoint_path: Path) -> None:
        self.key_path = key_path
        self.checkpoint_path = checkpoint_path

    @classmethod
    def from_settings(cls, settings: Settings) -> AnchorFiles:
        """The anchor files the settings name: EVIDENCE_AUDIT__KEY_FILE / __CHECKPOINT_FILE, else in the home."""
        return cls(
            (settings.audit.key_file or settings.home / KEY_NAME).expanduser(),
            (settings.audit.checkpoint_file or settings.home / CHECKPOINT_NAME).expanduser(),
        )

    def paths(self) -> list[Path]:
        """Every file of the anchor (an export must never overwrite one)."""
        return [self.key_path, self.checkpoint_path, self._lock_path]

    # -- reads ---------------------------------------------------------------------------------------

    def read_key(self) -> bytes | None:
        """The key, or None when there is no key file: 64 hex digits (as we write it), or any 32+ bytes used raw."""
        try:
            raw = self.key_path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read the audit key {self.key_path}: {exc.strerror or exc}") from exc
        text = raw.strip()
        try:
            if len(text) == 2 * anchor.KEY_BYTES:
                return bytes.fromhex(text.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            pass
        if len(raw) < anchor.KEY_BYTES:
            raise StoreError(f"the audit key {self.key_path} is too short ({len(raw)} bytes; 32 at least)")
        return raw

    def read_checkpoint(self) -> Checkpoint | None:
        """The checkpoint, or None when there is none; CheckpointUnreadable when the file is not one."""
        try:
            data = self.checkpoint_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise CheckpointUnreadable(f"cannot read the checkpoint {self.checkpoint_path}: {exc}") from exc
        try:
            return Checkpoint.model_validate_json(data)
        except ValidationError as exc:
            raise CheckpointUnreadable(f"the checkpoint {self.checkpoint_path} is not a checkpoint") from exc

    # -- writes --------------------------------------------------------------------------------------

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the anchor's advisory lock (across processes and threads) for the block."""
        self.checkpoint_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def create(self, *, rows: int, last_id: int, last_hash: str) -> bytes:
        """Make a new key and its first checkpoint (rows from `rows` on will be keyed). Call under `locked()`.

        The checkpoint is written before the key: a crash between the two leaves a checkpoint without a key, which
        every later write refuses loudly, never a key without a checkpoint, which would hide a truncation.
        """
        key = secrets.token_bytes(anchor.KEY_BYTES)
        self.write_checkpoint(anchor.seal_checkpoint(key, rows=rows, last_id=last_id, last_hash=last_hash,
                                                     keyed_from=rows, written_at=datetime.now(UTC)))
        self.key_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_atomic(self.key_path, (key.hex() + "\n").encode("ascii"), exclusive=True)
        return key

    def write_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Replace the checkpoint file atomically (mode 0600). Call under `locked()`."""
        self.checkpoint_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_atomic(self.checkpoint_path, (checkpoint.model_dump_json(indent=2) + "\n").encode("utf-8"))

    def advance(self, key: bytes, *, rows: int, last_id: int, last_hash: str) -> None:
        """Move the checkpoint to the chain's new end; a checkpoint already further on stays (another writer's)."""
        with self.locked():
            try:
                current = self.read_checkpoint()
            except CheckpointUnreadable:
                return  # `audit verify` reports the damage; a write must not cover it up
            if current is None or current.rows >= rows:
                return
            self.write_checkpoint(anchor.seal_checkpoint(key, rows=rows, last_id=last_id, last_hash=last_hash,
                                                         keyed_from=current.keyed_from, written_at=datetime.now(UTC)))

    @property
    def _lock_path(self) -> Path:
        return self.checkpoint_path.with_name(self.checkpoint_path.name + ".lock")


def _write_atomic(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write `data` to `path` through a temporary file and a rename; `exclusive` refuses to replace a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if exclusive:
            os.link(tmp, path)  # fails if the file exists: never replace a key
        else:
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
