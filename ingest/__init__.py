"""Ingestion: load documents, chunk them, embed the chunks and keep Chroma and the registry in step."""
