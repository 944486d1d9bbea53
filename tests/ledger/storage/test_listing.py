"""The SQLAlchemy-free listing `evidence docs` reads: the registry's documents exactly, or no answer at all."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from ledger.core.settings import Settings
from ledger.core.types import DocumentInfo
from ledger.storage.database import MIGRATIONS, open_engine
from ledger.storage.documents import Registry
from ledger.storage.listing import SCHEMA_VERSION, list_documents


def _doc(workspace: str, name: str, **extra: object) -> DocumentInfo:
    fields: dict[str, object] = dict(
        id=f"{workspace}-{name}", workspace=workspace, path=f"/docs/{name}", title=f"Title [b]{name}[/b]",
        sha256="ab" * 32, mime_type="text/markdown", chunks=2, chunk_hashes=["h1", "h2"],
        ingested_at=datetime(2025, 3, 4, 5, 6, 7, 890123, tzinfo=UTC),
    )
    fields.update(extra)
    return DocumentInfo.model_validate(fields)


def test_the_listing_is_what_the_registry_reads(settings: Settings) -> None:
    legal = Registry(open_engine(settings), "legal")
    legal.upsert(_doc("legal", "b.md", date=date(2024, 2, 29), date_source="text:effective date"))
    # an instant given in another zone, and one with no fraction of a second
    legal.upsert(_doc("legal", "a.md", ingested_at=datetime(2025, 1, 1, 9, 0, tzinfo=timezone(timedelta(hours=2)))))
    legal.upsert(_doc("legal", "c.md", chunks=0, chunk_hashes=[]))
    Registry(open_engine(settings), "other").upsert(_doc("other", "a.md"))

    listed = list_documents(settings, "legal")
    assert listed == legal.all()
    assert listed is not None and [Path(d.path).name for d in listed] == ["a.md", "b.md", "c.md"]
    assert listed[0].ingested_at.isoformat() == "2025-01-01T07:00:00+00:00"
    assert list_documents(settings, "nobody") == []


def test_a_home_without_a_database_lists_nothing_and_creates_nothing(settings: Settings) -> None:
    assert list_documents(settings, "default") == []
    assert not settings.home.exists()


def test_it_declines_what_only_the_registry_can_read(settings: Settings, tmp_path: Path) -> None:
    Registry(open_engine(settings), "default").upsert(_doc("default", "a.md"))
    pg = settings.model_copy(update={"database_url": "postgresql+psycopg://u@127.0.0.1/ledger"})
    assert list_documents(pg, "default") is None
    with_options = settings.model_copy(update={"database_url": f"sqlite:///{tmp_path / 'x.db'}?timeout=5"})
    assert list_documents(with_options, "default") is None
    as_url = settings.model_copy(update={"database_url": f"sqlite:///{settings.home / 'ledger.db'}"})
    assert list_documents(as_url, "default") == Registry(open_engine(settings), "default").all()

    with sqlite3.connect(settings.home / "ledger.db") as conn:  # a schema an older version wrote: migrating is not
        conn.execute("DELETE FROM schema_migrations WHERE number = ?", (SCHEMA_VERSION,))  # this reader's job
    assert list_documents(settings, "default") is None


def test_it_knows_the_newest_migration() -> None:
    """A new migration may change the documents table: the listing must be looked at again (and this bumped)."""
    assert max(number for number, _, _ in MIGRATIONS) == SCHEMA_VERSION
