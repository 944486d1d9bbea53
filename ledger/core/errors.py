"""The error hierarchy: shallow, and every error carries the data a message needs."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar


class EvidenceError(Exception):
    """Base of every error the product raises on purpose; the CLI and UI turn these into messages."""

    retryable: ClassVar[bool] = False


class ConfigError(EvidenceError):
    """A setting is missing or invalid."""


class LoaderError(EvidenceError):
    """A file could not be read as a document; `path` says which and the message says why."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


class StoreError(EvidenceError):
    """The vector store or the database could not be reached or refused an operation."""

    retryable = True


class ModelError(EvidenceError):
    """A model could not be loaded or a model call failed."""

    def __init__(self, message: str, *, raw_output: str | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.raw_output = raw_output
        self.is_retryable = retryable


class MalformedOutputError(ModelError):
    """A model answered, but not in the structure asked for; `raw_output` keeps what it said."""


class InputError(EvidenceError):
    """A question, draft or file of questions the user gave cannot be used as it is; the message says why."""


class NotFoundError(EvidenceError):
    """A session, document or chunk the user named does not exist."""


class RunCancelled(EvidenceError):
    """The user cancelled a run; it stopped at a stage boundary and nothing of it was stored."""

    def __init__(self, stage: str = "") -> None:
        super().__init__("Run cancelled" + (f" {stage}" if stage else "") + "; nothing was stored.")
        self.stage = stage
