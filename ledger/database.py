"""The database: engine creation and numbered migrations applied on open (SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from sqlalchemy import Connection, Engine, event, text
from sqlmodel import create_engine

from ledger.errors import StoreError
from ledger.settings import Settings

Migration = Callable[[Connection], None]
MIGRATIONS: list[tuple[int, str, Migration]] = []


def migration(number: int, name: str) -> Callable[[Migration], Migration]:
    """Register a schema migration; numbers only grow and a migration is never edited once shipped."""

    def register(fn: Migration) -> Migration:
        MIGRATIONS.append((number, name, fn))
        return fn

    return register


@migration(1, "documents")
def m001_documents(conn: Connection) -> None:
    conn.execute(
        text(
            """
            CREATE TABLE documents (
                id VARCHAR(32) PRIMARY KEY,
                workspace VARCHAR(200) NOT NULL,
                path TEXT NOT NULL,
                title TEXT NOT NULL,
                sha256 VARCHAR(64) NOT NULL,
                mime_type VARCHAR(100) NOT NULL,
                doc_date VARCHAR(10),
                date_source VARCHAR(100) NOT NULL DEFAULT 'none',
                chunk_count INTEGER NOT NULL DEFAULT 0,
                chunk_hashes TEXT NOT NULL DEFAULT '[]',
                ingested_at TIMESTAMP NOT NULL
            )
            """
        )
    )
    conn.execute(text("CREATE INDEX ix_documents_workspace ON documents (workspace)"))


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations the database has not seen, in order; returns the numbers applied."""
    applied: list[int] = []
    with engine.begin() as conn:
        conn.execute(
            text("CREATE TABLE IF NOT EXISTS schema_migrations (number INTEGER PRIMARY KEY, name VARCHAR(200) NOT NULL)")
        )
        done = {row[0] for row in conn.execute(text("SELECT number FROM schema_migrations"))}
    for number, name, fn in sorted(MIGRATIONS, key=lambda m: m[0]):
        if number in done:
            continue
        with engine.begin() as conn:  # one transaction per migration: a failure leaves the last good schema
            fn(conn)
            conn.execute(
                text("INSERT INTO schema_migrations (number, name) VALUES (:n, :name)"), {"n": number, "name": name}
            )
        applied.append(number)
    return applied


@cache
def _engine_for(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            # WAL + busy timeout: the UI can read while a CLI ingest writes.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    else:
        engine = create_engine(url, pool_pre_ping=True)
    try:
        migrate(engine)
    except Exception as exc:  # the driver's own errors vary by backend
        raise StoreError(f"cannot open the database at {_redact(url)}: {exc.__class__.__name__}: {exc}") from exc
    return engine


def open_engine(settings: Settings) -> Engine:
    """The migrated engine for the settings' database (one per URL per process)."""
    url = settings.sqlalchemy_url
    if url.startswith("sqlite:///"):
        settings.home.mkdir(parents=True, exist_ok=True) if not settings.database_url else None
    return _engine_for(url)


def _redact(url: str) -> str:
    """Hide a password in a database URL before it reaches a message."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
