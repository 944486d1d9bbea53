"""The document registry in SQL: one row per document with its chunk hashes (the home of its writes)."""

from __future__ import annotations

import json

from sqlalchemy import Engine, func
from sqlmodel import Session, select

from ledger.core.types import DocumentInfo
from ledger.storage.listing import document_info
from ledger.storage.tables import DocumentRow


class Registry:
    """Reads and writes the `documents` table of one workspace."""

    def __init__(self, engine: Engine, workspace: str) -> None:
        self.engine = engine
        self.workspace = workspace

    def all(self) -> list[DocumentInfo]:
        """Every document of the workspace, by path."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(DocumentRow).where(DocumentRow.workspace == self.workspace).order_by(DocumentRow.path)
            ).all()
            return [_info(row) for row in rows]

    def version(self) -> str:
        """Changes whenever a document of the workspace is added, replaced or removed (by any process)."""
        with Session(self.engine) as session:
            count, newest = session.exec(
                select(func.count(), func.max(DocumentRow.ingested_at)).where(DocumentRow.workspace == self.workspace)
            ).one()
        return f"{count}:{newest}"  # an add or a replace moves the newest time; a removal lowers the count

    def by_id(self) -> dict[str, DocumentInfo]:
        """Every document of the workspace keyed by id."""
        return {doc.id: doc for doc in self.all()}

    def upsert(self, info: DocumentInfo) -> None:
        """Record (or replace) a document and its chunk hashes, in one transaction."""
        with Session(self.engine) as session:
            row = session.get(DocumentRow, info.id) or DocumentRow(
                id=info.id, workspace=self.workspace, path=info.path, title="", sha256="", mime_type="",
                ingested_at=info.ingested_at,
            )
            row.path = info.path
            row.title = info.title
            row.sha256 = info.sha256
            row.mime_type = info.mime_type
            row.doc_date = info.date.isoformat() if info.date else None
            row.date_source = info.date_source
            row.chunk_count = len(info.chunk_hashes)
            row.chunk_hashes = json.dumps(info.chunk_hashes)
            row.ingested_at = info.ingested_at
            session.add(row)
            session.commit()

    def delete(self, doc_ids: list[str]) -> None:
        """Remove documents from the registry."""
        if not doc_ids:
            return
        with Session(self.engine) as session:
            for row in session.exec(select(DocumentRow).where(DocumentRow.id.in_(doc_ids))).all():  # type: ignore[attr-defined]
                session.delete(row)
            session.commit()


def workspaces(engine: Engine) -> list[str]:
    """Every workspace that has registered documents, sorted."""
    with Session(engine) as session:
        return sorted(set(session.exec(select(DocumentRow.workspace).distinct()).all()))


def _info(row: DocumentRow) -> DocumentInfo:
    return document_info(
        row.id, row.workspace, row.path, row.title, row.sha256, row.mime_type, row.doc_date, row.date_source,
        row.chunk_count, row.chunk_hashes, row.ingested_at,
    )
