"""Shared fixtures: no network, an isolated EVIDENCE_HOME per test, one real embedder per session."""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as settings_profiles

from ledger.core.settings import Settings

SAMPLE_DOCS = Path(__file__).resolve().parent.parent / "sample_docs"
CHROMA_TEST_URL = os.environ.get("EVIDENCE_TEST_CHROMA_URL")  # a Chroma server for the tests (.ci/run starts one)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "chroma: needs EVIDENCE_TEST_CHROMA_URL (a Chroma server; .ci/run starts one)")


def _is_loopback(address: object) -> bool:
    if not isinstance(address, tuple):
        return True  # unix sockets
    host = str(address[0])
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test that opens a socket to anything but this machine."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> None:
        if not _is_loopback(address):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh EVIDENCE_HOME for one test."""
    path = tmp_path / "home"
    monkeypatch.setenv("EVIDENCE_HOME", str(path))
    for var in ("EVIDENCE_DATABASE_URL", "EVIDENCE_CHROMA_URL", "EVIDENCE_WORKSPACE", "EVIDENCE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    return path


@pytest.fixture
def settings(home: Path) -> Settings:
    """Settings pointing at the test's own home."""
    return Settings(home=home)


@pytest.fixture
def chroma_server(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Settings whose vectors live in the Chroma test server (EVIDENCE_CHROMA_URL set for the test, so the CLI and
    the factory use it too); skipped without EVIDENCE_TEST_CHROMA_URL. The collections the test made are dropped."""
    if not CHROMA_TEST_URL:
        pytest.skip("EVIDENCE_TEST_CHROMA_URL is not set (.ci/run starts a Chroma server and sets it)")
    from ingest.vectorstore import collection_names, drop_collection

    monkeypatch.setenv("EVIDENCE_CHROMA_URL", CHROMA_TEST_URL)
    settings = Settings(home=home)
    assert settings.chroma_url is not None
    before = set(collection_names(settings))
    yield settings
    for name in sorted(set(collection_names(settings)) - before):
        drop_collection(settings, name)


@pytest.fixture(scope="session")
def embedder() -> Iterator[object]:
    """The real bundled embedding model, loaded once for the whole session."""
    from ingest.embedding import Embedder

    yield Embedder()


# Property tests stay bounded in CI; `pytest --hypothesis-profile=thorough tests/...` searches harder. Failing
# examples are printed with the failure; they are not written to a local example database.
settings_profiles.register_profile("ci", max_examples=60, deadline=None, database=None, print_blob=True)
settings_profiles.register_profile("thorough", max_examples=2000, deadline=None, database=None, print_blob=True)
settings_profiles.load_profile("ci")
