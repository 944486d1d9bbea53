"""Sentence vectors kept between runs: one SQLite file per embedding backend, keyed by a hash of the text.

A question, a draft or a second question about the same documents embeds the same evidence sentences again; the
encoder gives a text the same vector every time (one text per call), so a vector read back is the vector the model
would give. The file holds hashes and vectors, no text. It is a cache: any error reading or writing it (a full
disk, a locked or damaged file) is logged once and the cache is switched off for the process; nothing is lost,
only time. It keeps at most `max_rows` vectors, the oldest written going first.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
MAX_ROWS = 100_000  # ~150 MB of 384-dimensional float32 vectors


def cache_file(directory: Path, fingerprint: str) -> Path:
    """The file of one backend's vectors ('onnx-int8.v2:all-MiniLM-L6-v2' → onnx-int8.v2_all-MiniLM-L6-v2.sqlite)."""
    return directory / (re.sub(r"[^A-Za-z0-9._-]+", "_", fingerprint) + ".sqlite")


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class VectorCache:
    """Vectors of texts embedded by one backend, read and written in batches."""

    def __init__(self, path: Path, max_rows: int = MAX_ROWS) -> None:
        self.path, self.max_rows = path, max_rows
        self._db: sqlite3.Connection | None = None
        self._off = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self._off:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=5, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
                self._db = db
            except (sqlite3.Error, OSError) as exc:
                self._disable(exc)
        return self._db

    def _disable(self, exc: Exception) -> None:
        log.warning("the vector cache %s is off for this run (%s: %s)", self.path, type(exc).__name__, exc)
        self._off = True
        if self._db is not None:
            self._db.close()
            self._db = None

    def get_many(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors of those `texts` that have one (a file holds one backend's, so one dimension)."""
        wanted = {_key(t): t for t in texts}
        db = self._connect()
        if db is None or not wanted:
            return {}
        found: dict[str, np.ndarray] = {}
        keys = list(wanted)
        try:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                marks = ",".join("?" * len(part))
                for key, blob in db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part):
                    found[wanted[bytes(key)]] = np.frombuffer(blob, dtype=np.float32).copy()
        except sqlite3.Error as exc:
            self._disable(exc)
            return {}
        return found

    def put_many(self, vectors: dict[str, np.ndarray]) -> None:
        """Remember `vectors` (text → vector); the oldest go when there are more than `max_rows`."""
        db = self._connect()
        if db is None or not vectors:
            return
        rows = [(_key(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in vectors.items()]
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", rows)
                (count,) = db.execute("SELECT COUNT(*) FROM vectors").fetchone()
                if count > self.max_rows:
                    db.execute("DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors ORDER BY rowid LIMIT ?)",
                               (count - self.max_rows + self.max_rows // 10,))
        except sqlite3.Error as exc:
            self._disable(exc)
