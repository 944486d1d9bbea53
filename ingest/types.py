"""Domain types of ingestion: loaded documents, chunks, registry records and the ingest report."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field


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


class Chunk(BaseModel):
    """A span of a document, the unit of evidence."""

    hash: str = Field(description="Chunk hash (12 hex chars of sha256 of the normalised text).")
    text: str = Field(description="The chunk text as it appears in the document.")
    document_id: str = Field(description="Id of the document it belongs to.")
    index: int = Field(description="Position of the chunk in its document, from 0.")
    start_char: int = Field(description="Offset of the first character in the document text.")
    end_char: int = Field(description="Offset one past the last character in the document text.")
    path: str = Field("", description="Path of the source document.")
    title: str = Field("", description="Title of the source document.")
    doc_date: dt.date | None = Field(None, description="Date of the source document, if known.")


class DocumentInfo(BaseModel):
    """A registered document as `evidence docs` shows it."""

    id: str = Field(description="Document id.")
    workspace: str = Field(description="Workspace it belongs to.")
    path: str = Field(description="Absolute path at ingest time.")
    title: str = Field(description="Document title.")
    sha256: str = Field(description="sha256 of the file's bytes when ingested.")
    mime_type: str = Field(description="MIME type.")
    date: dt.date | None = Field(None, description="Inferred document date.")
    date_source: str = Field("none", description="Where the date came from.")
    chunks: int = Field(description="Number of chunks.")
    chunk_hashes: list[str] = Field(default_factory=list, description="Hashes of its chunks, in order.")
    ingested_at: dt.datetime = Field(description="When this version was ingested (UTC).")


class FailedFile(BaseModel):
    """A file that could not be ingested, and why."""

    path: str = Field(description="The file.")
    error: str = Field(description="One-line reason.")


class IngestReport(BaseModel):
    """What one `evidence ingest` run did (the --json contract of DESIGN.md)."""

    documents_added: int = Field(0, description="New documents.")
    documents_updated: int = Field(0, description="Documents whose content changed and were re-chunked.")
    documents_unchanged: int = Field(0, description="Documents skipped because their bytes did not change.")
    documents_pruned: int = Field(0, description="Documents removed because their files are gone (--prune).")
    chunks_added: int = Field(0, description="Chunks written to the vector store.")
    failed: list[FailedFile] = Field(default_factory=list, description="Files that failed, with reasons.")
    seconds: float = Field(0.0, description="Wall time of the run.")
