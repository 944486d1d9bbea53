"""The documents of a workspace read straight from the SQLite file, for `evidence docs`: no SQLAlchemy.

Importing SQLAlchemy and SQLModel costs about half a second of CPU, as much as the rest of `evidence docs`
together. This module answers the one read that command needs with the standard library's `sqlite3`: one
SELECT of the `documents` table, rows turned into `DocumentInfo` by `document_info`, which `Registry` uses too
(one conversion, so both read the same values). It answers only when it can answer exactly as the registry
would: the default SQLite database (or a plain `sqlite:///FILE` URL) whose schema is at the newest migration.
Otherwise (PostgreSQL, a schema an older version wrote, a file it cannot read) it returns None and the caller
reads through `Registry`, which migrates and reports errors. Writes always go through `Registry`.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

from ledger.core.settings import Settings
from ledger.core.types import DocumentInfo

SCHEMA_VERSION = 5  # the newest migration of ledger.storage.database (tests/ledger/storage/test_listing.py)
_COLUMNS = (
    "id, workspace, path, title, sha256, mime_type, doc_date, date_source, chunk_count, chunk_hashes, ingested_at"
)


def sqlite_file(settings: Settings) -> Path | None:
    """The SQLite file of the settings' database; None for another database or a URL with options."""
    url = settings.database_url
    if url is None:
        return settings.home / "ledger.db"
    prefix = "sqlite:///"
    if not url.startswith(prefix) or "?" in url or url[len(prefix):] in ("", ":memory:"):
        return None
    return Path(url[len(prefix):])


def list_documents(settings: Settings, workspace: str) -> list[DocumentInfo] | None:
    """Every document of `workspace` by path, as `Registry.all()` gives them; [] when the database file does not
    exist yet (nothing is created); None when this cannot answer (the caller then reads through `Registry`)."""
    path = sqlite_file(settings)
    if path is None:
        return None
    if not path.exists():
        return []
    try:
        # mode=rw: never creates a file; the same 30 s busy timeout as the engine's connections.
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
    except sqlite3.Error:
        return None
    try:
        done = {number for (number,) in conn.execute("SELECT number FROM schema_migrations")}
        if not set(range(1, SCHEMA_VERSION + 1)) <= done or max(done) != SCHEMA_VERSION:
            return None  # an older schema (migrating is the engine's job) or a newer one (this code may be stale)
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM documents WHERE workspace = ? ORDER BY path", (workspace,)
        ).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return [document_info(*row) for row in rows]


def document_info(
    id: str,
    workspace: str,
    path: str,
    title: str,
    sha256: str,
    mime_type: str,
    doc_date: str | None,
    date_source: str,
    chunk_count: int,
    chunk_hashes: str,
    ingested_at: datetime | str,
) -> DocumentInfo:
    """A `documents` row as a DocumentInfo; `ingested_at` as SQLModel reads it (an aware UTC instant) or as SQLite
    stores it (UTC text without an offset)."""
    if isinstance(ingested_at, str):
        ingested_at = datetime.fromisoformat(ingested_at)
    return DocumentInfo(
        id=id,
        workspace=workspace,
        path=path,
        title=title,
        sha256=sha256,
        mime_type=mime_type,
        date=date.fromisoformat(doc_date) if doc_date else None,
        date_source=date_source,
        chunks=chunk_count,
        chunk_hashes=json.loads(chunk_hashes),
        ingested_at=ingested_at.replace(tzinfo=UTC) if ingested_at.utcoffset() is None else ingested_at.astimezone(UTC),
    )
