"""Domain types of ingestion: loaded documents and the ingest report (chunks, documents: ledger.core.types)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from ledger.core.types import TableRow


class LoadedDocument(BaseModel):
    """A file read into text, with what we know about it."""

    path: str = Field(description="Absolute path of the file.")
    title: str = Field(description="Title from the document, else the file name.")
    text: str = Field(description="Extracted plain text.")
    sha256: str = Field(description="sha256 of the file's bytes.")
    mime_type: str = Field(description="MIME type inferred from the extension.")
    doc_date: dt.date | None = Field(None, description="The document's own date, inferred from its text or its mtime.")
    date_source: str = Field(
        "none", description="Where doc_date came from: 'text:<label>' (e.g. 'text:effective date'), 'mtime' or 'none'."
    )
    table_rows: list[TableRow] = Field(
        default_factory=list, description="Table rows, each also written into `text` as one sentence."
    )




class FailedFile(BaseModel):
    """A file that could not be ingested, and why."""

    path: str = Field(description="The file.")
    error: str = Field(description="One-line reason.")


class IngestReport(BaseModel):
    """What one `evidence ingest` run did (the --json contract of DESIGN.md)."""

    documents_added: int = Field(0, description="New documents.")
    documents_updated: int = Field(0, description="Documents whose content changed and were re-chunked.")
    documents_unchanged: int = Field(0, description="Documents skipped because their bytes did not change.")
    documents_rebuilt: int = Field(
        0, description="Unchanged documents whose vectors were missing from the store and were written again."
    )
    documents_pruned: int = Field(0, description="Documents removed because their files are gone (--prune).")
    chunks_added: int = Field(0, description="Chunks written to the vector store.")
    failed: list[FailedFile] = Field(default_factory=list, description="Files that failed, with reasons.")
    seconds: float = Field(0.0, description="Wall time of the run.")
