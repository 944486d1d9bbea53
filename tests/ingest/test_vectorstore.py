"""The Chroma client: a configured server is reached at the host and port of the parsed URL."""

from __future__ import annotations

import pytest

from ingest.vectorstore import VectorStore
from ledger.core.errors import StoreError
from ledger.core.settings import Settings


def test_a_chroma_server_that_is_not_running_is_a_store_error_naming_it(home: object,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", "http://127.0.0.1:1")  # nothing listens on port 1
    with pytest.raises(StoreError, match=r"^cannot open Chroma at http://127\.0\.0\.1:1/: "):
        VectorStore(Settings(), "default")
