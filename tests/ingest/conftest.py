"""Fixtures of the ingest tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.core.settings import Settings


@pytest.fixture(params=["embedded", pytest.param("server", marks=pytest.mark.chroma)])
def where(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Settings]:
    """Settings whose vectors live in the embedded Chroma under the test's home, or in the Chroma test server."""
    if request.param == "embedded":
        yield settings
    else:
        yield request.getfixturevalue("chroma_server")
