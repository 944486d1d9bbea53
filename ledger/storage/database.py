"""The database: engine creation and numbered migrations applied on open (SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from sqlalchemy import Connection, Engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, OperationalError, ProgrammingError
from sqlmodel import create_engine

from ledger.core.errors import StoreError
from ledger.core.settings import Settings

Migration = Callable[[Connection], None]
MIGRATIONS: list[tuple[int, str, Migration]] = []


def migration(number: int, name: str) -> Callable[[Migration], Migration]:
    """Register a schema migration; numbers only grow and a migration is never edited once shipped.

    A new one also bumps `ledger.storage.listing.SCHEMA_VERSION` (and changes its SELECT if it changes `documents`).
    """

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
                ingested_at TIMESTAMP WITH TIME ZONE NOT NULL
            )
            """
        )
    )
    conn.execute(text("CREATE INDEX ix_documents_workspace ON documents (workspace)"))


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations the database has not seen, in order; returns the numbers applied.

    Safe when several processes open a fresh database at once: each migration runs in its own transaction that
    first takes the database's write lock (SQLite `BEGIN IMMEDIATE`, a PostgreSQL advisory lock) and then checks
    again whether another process applied it meanwhile.
    """
    if not _pending(engine):
        return []
    applied: list[int] = []
    for number, name, fn in sorted(MIGRATIONS, key=lambda m: m[0]):
        with engine.begin() as conn:  # one transaction per migration: a failure leaves the last good schema
            _lock_schema(conn)
            conn.execute(text(_MIGRATIONS_TABLE))
            if conn.execute(text("SELECT 1 FROM schema_migrations WHERE number = :n"), {"n": number}).first():
                continue
            fn(conn)
            conn.execute(
                text("INSERT INTO schema_migrations (number, name) VALUES (:n, :name)"), {"n": number, "name": name}
            )
        applied.append(number)
    return applied


_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (number INTEGER PRIMARY KEY, name VARCHAR(200) NOT NULL)"
)
_SCHEMA_LOCK_KEY = 0x65766964  # PostgreSQL advisory lock id of the schema ("evid")


def _pending(engine: Engine) -> bool:
    """Whether some migration is not applied yet (read-only: most opens find nothing to do and take no lock)."""
    try:
        with engine.connect() as conn:
            done = {row[0] for row in conn.execute(text("SELECT number FROM schema_migrations"))}
    except OperationalError:
        return True  # no schema_migrations table yet
    except ProgrammingError:  # PostgreSQL: undefined table
        return True
    return any(number not in done for number, _, _ in MIGRATIONS)


def _lock_schema(conn: Connection) -> None:
    """Take the database's write lock for the rest of this transaction."""
    if conn.dialect.name == "sqlite":
        # pysqlite opens a transaction only before DML and would run the DDL outside one: begin it ourselves.
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    elif conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK_KEY})


@cache
def _engine_for(url: str) -> Engine:
    try:
        engine = _create(url)
        migrate(engine)
    except Exception as exc:  # the driver's own errors vary by backend; a bad URL or a missing driver fails here too
        reason = _mask_password(url, f"{exc.__class__.__name__}: {exc}")
        raise StoreError(f"cannot open the database at {redact_url(url)}: {reason}") from exc
    return engine


def _create(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        # Busy timeout first (switching a fresh file to WAL needs the lock too), then WAL: readers never wait
        # for a writer, and writers queue for up to 30 s instead of failing with "database is locked".
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return engine


def open_engine(settings: Settings) -> Engine:
    """The migrated engine for the settings' database (one per URL per process)."""
    if not settings.database_url:  # the default SQLite file lives in the home, which may not exist yet
        settings.home.mkdir(parents=True, exist_ok=True)
    return _engine_for(settings.sqlalchemy_url)


def redact_url(url: str) -> str:
    """A database URL fit for a message: its password shown as ***, even when the URL does not parse."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # not a URL SQLAlchemy reads: mask what looks like user:password@ by hand
        credentials, at, host = url.rpartition("@")
        scheme_end = credentials.find("://")
        colon = credentials.find(":", scheme_end + 3 if scheme_end >= 0 else 0)
        return f"{credentials[:colon]}:***{at}{host}" if at and colon >= 0 else url


def _mask_password(url: str, message: str) -> str:
    """`message` (a driver's error, say) with the URL and its password, as written or decoded, masked."""
    message = message.replace(url, redact_url(url))
    credentials = url.rpartition("@")[0]
    written = credentials.split("://", 1)[-1].partition(":")[2]
    try:
        decoded = make_url(url).password
    except (ArgumentError, ValueError):
        decoded = None
    for password in {written, str(decoded or "")} - {""}:
        message = message.replace(password, "***")
    return message


@migration(2, "runs_ledger_audit")
def m002_runs_ledger_audit(conn: Connection) -> None:
    # AUTOINCREMENT (SQLite) and identity columns (PostgreSQL) never reuse an id after a purge.
    postgres = conn.dialect.name == "postgresql"
    serial = "SERIAL PRIMARY KEY" if postgres else "INTEGER PRIMARY KEY AUTOINCREMENT"
    # Times are instants: PostgreSQL keeps the zone; SQLite stores UTC text (SQLModel writes aware UTC values).
    stamp = "TIMESTAMPTZ" if postgres else "TIMESTAMP"
    conn.execute(
        text(
            f"""
            CREATE TABLE runs (
                session_id VARCHAR(64) PRIMARY KEY,
                workspace VARCHAR(200) NOT NULL,
                user_id VARCHAR(200) NOT NULL,
                mode VARCHAR(20) NOT NULL,
                question TEXT NOT NULL,
                answer TEXT NOT NULL,
                status VARCHAR(10) NOT NULL,
                error TEXT,
                backend VARCHAR(50) NOT NULL,
                started_at {stamp} NOT NULL,
                recorded_at {stamp} NOT NULL,
                evidence_coverage DOUBLE PRECISION,
                unsupported_rate DOUBLE PRECISION,
                claim_count INTEGER NOT NULL DEFAULT 0,
                result_json TEXT NOT NULL
            )
            """
        )
    )
    conn.execute(text("CREATE INDEX ix_runs_workspace ON runs (workspace)"))
    conn.execute(text("CREATE INDEX ix_runs_started_at ON runs (started_at)"))
    conn.execute(
        text(
            f"""
            CREATE TABLE ledger_entries (
                id {serial},
                session_id VARCHAR(64) NOT NULL REFERENCES runs (session_id) ON DELETE CASCADE,
                round INTEGER NOT NULL,
                position INTEGER NOT NULL,
                claim_id VARCHAR(64) NOT NULL,
                claim_text TEXT NOT NULL,
                claim_type VARCHAR(20) NOT NULL,
                importance VARCHAR(20) NOT NULL,
                cited TEXT NOT NULL DEFAULT '[]',
                verdict VARCHAR(20) NOT NULL,
                confidence DOUBLE PRECISION NOT NULL,
                chunk_hash VARCHAR(64),
                document TEXT,
                quote TEXT,
                flags TEXT NOT NULL DEFAULT '[]',
                notes TEXT NOT NULL DEFAULT '',
                evidence_json TEXT NOT NULL DEFAULT '[]',
                UNIQUE (session_id, round, position)
            )
            """
        )
    )
    conn.execute(text("CREATE INDEX ix_ledger_entries_session_id ON ledger_entries (session_id)"))
    conn.execute(
        text(
            f"""
            CREATE TABLE audit_log (
                id {serial},
                event VARCHAR(10) NOT NULL,
                session_id VARCHAR(64) NOT NULL,
                timestamp {stamp} NOT NULL,
                recorded_at {stamp} NOT NULL,
                user_id VARCHAR(200) NOT NULL,
                workspace_id VARCHAR(200) NOT NULL,
                query TEXT NOT NULL,
                mode VARCHAR(20) NOT NULL,
                backend VARCHAR(50) NOT NULL,
                status VARCHAR(10) NOT NULL,
                error TEXT,
                retrieved_chunk_ids TEXT NOT NULL,
                revision_history TEXT NOT NULL,
                final_coverage DOUBLE PRECISION,
                final_unsupported_rate DOUBLE PRECISION,
                claim_count INTEGER NOT NULL,
                verdict_distribution TEXT NOT NULL,
                risk_flags TEXT NOT NULL,
                risk_level VARCHAR(20) NOT NULL,
                warnings TEXT NOT NULL,
                claim_flags TEXT NOT NULL,
                total_duration_ms INTEGER NOT NULL,
                llm_calls INTEGER NOT NULL,
                token_usage TEXT NOT NULL,
                result_sha256 VARCHAR(64),
                details TEXT NOT NULL,
                prev_hash VARCHAR(64) NOT NULL,
                row_hash VARCHAR(64) NOT NULL
            )
            """
        )
    )
    conn.execute(text("CREATE INDEX ix_audit_log_session_id ON audit_log (session_id)"))
    conn.execute(text("CREATE INDEX ix_audit_log_workspace_id ON audit_log (workspace_id)"))
    conn.execute(text("CREATE INDEX ix_audit_log_timestamp ON audit_log (timestamp)"))
    conn.execute(
        text(
            """
            CREATE TABLE audit_head (
                id INTEGER PRIMARY KEY,
                last_id INTEGER NOT NULL DEFAULT 0,
                last_hash VARCHAR(64) NOT NULL,
                rows_written INTEGER NOT NULL DEFAULT 0
            )
            """
        )
    )
    conn.execute(
        text("INSERT INTO audit_head (id, last_id, last_hash, rows_written) VALUES (1, 0, :h, 0)"), {"h": "0" * 64}
    )


@migration(3, "calibrations")
def m003_calibrations(conn: Connection) -> None:
    stamp = "TIMESTAMPTZ" if conn.dialect.name == "postgresql" else "TIMESTAMP"
    conn.execute(
        text(
            f"""
            CREATE TABLE calibrations (
                workspace VARCHAR(200) PRIMARY KEY,
                a DOUBLE PRECISION NOT NULL,
                b DOUBLE PRECISION NOT NULL,
                n INTEGER NOT NULL,
                ece_before DOUBLE PRECISION NOT NULL,
                ece_after DOUBLE PRECISION NOT NULL,
                fitted_at {stamp} NOT NULL
            )
            """
        )
    )


@migration(4, "audit_row_macs")
def m004_audit_row_macs(conn: Connection) -> None:
    # The keyed chain (docs/audit.md): each audit row's HMAC and the id of the key that made it. Rows written
    # before this migration keep NULL here and are verified by their sha256 chain alone.
    conn.execute(text("ALTER TABLE audit_log ADD COLUMN row_mac VARCHAR(64)"))
    conn.execute(text("ALTER TABLE audit_log ADD COLUMN key_id VARCHAR(16)"))


@migration(5, "keyword_index")
def m005_keyword_index(conn: Connection) -> None:
    # The keyword index of chunks (ledger/storage/keywords.py). Filled by ingest; a home that predates it is
    # filled from Chroma by the next ingest (its documents' keyword rows are missing, so they are rebuilt).
    if conn.dialect.name == "postgresql":
        conn.execute(
            text(
                """
                CREATE TABLE chunk_text (
                    chunk_id VARCHAR(300) PRIMARY KEY,
                    workspace VARCHAR(200) NOT NULL,
                    chunk_hash VARCHAR(64) NOT NULL,
                    body TEXT NOT NULL,
                    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED
                )
                """
            )
        )
        conn.execute(text("CREATE INDEX ix_chunk_text_tsv ON chunk_text USING GIN (tsv)"))
        conn.execute(text("CREATE INDEX ix_chunk_text_workspace ON chunk_text (workspace)"))
        return
    conn.execute(
        text(
            "CREATE TABLE chunk_text (rowid INTEGER PRIMARY KEY, chunk_id VARCHAR(300) NOT NULL UNIQUE, "
            "workspace VARCHAR(200) NOT NULL, chunk_hash VARCHAR(64) NOT NULL, body TEXT NOT NULL)"
        )
    )
    conn.execute(text("CREATE INDEX ix_chunk_text_workspace ON chunk_text (workspace)"))
    conn.execute(
        text(
            "CREATE VIRTUAL TABLE chunk_fts USING fts5(body, content='chunk_text', content_rowid='rowid', "
            "tokenize='porter unicode61')"
        )
    )
    conn.execute(
        text(
            "CREATE TRIGGER chunk_text_ai AFTER INSERT ON chunk_text BEGIN "
            "INSERT INTO chunk_fts(rowid, body) VALUES (new.rowid, new.body); END"
        )
    )
    conn.execute(
        text(
            "CREATE TRIGGER chunk_text_ad AFTER DELETE ON chunk_text BEGIN "
            "INSERT INTO chunk_fts(chunk_fts, rowid, body) VALUES ('delete', old.rowid, old.body); END"
        )
    )
