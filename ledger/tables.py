"""SQL tables (SQLModel). Created and changed only by the numbered migrations in `database.py`."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel


class DocumentRow(SQLModel, table=True):
    """One registered document of a workspace, with the hashes of the chunks it has in Chroma."""

    __tablename__ = "documents"

    id: str = Field(primary_key=True, description="document_id(workspace, path)")
    workspace: str = Field(index=True)
    path: str
    title: str
    sha256: str
    mime_type: str
    doc_date: str | None = None  # ISO date; text keeps SQLite and PostgreSQL alike
    date_source: str = "none"
    chunk_count: int = 0
    chunk_hashes: str = "[]"  # JSON list, in document order
    ingested_at: datetime
