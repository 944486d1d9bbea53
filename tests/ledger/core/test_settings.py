"""Settings: the API key stays secret, a Chroma URL is checked when the settings load, errors name the variable."""

from __future__ import annotations

import pytest

from ledger.core.errors import ConfigError
from ledger.core.settings import Settings, load_settings

KEY = "sk-ant-api03-do-not-print-me"


def test_the_api_key_never_shows_in_repr_or_json(monkeypatch: pytest.MonkeyPatch, home: object) -> None:
    monkeypatch.setenv("EVIDENCE_ANTHROPIC__API_KEY", KEY)
    settings = load_settings()
    assert KEY not in repr(settings) and KEY not in str(settings)
    assert KEY not in settings.model_dump_json() and KEY not in repr(settings.model_dump())
    assert settings.anthropic.api_key is not None and settings.anthropic.api_key.get_secret_value() == KEY


def test_an_assigned_api_key_is_kept_secret_too(settings: Settings) -> None:
    settings.anthropic.api_key = KEY  # type: ignore[assignment]  # tests and scripts assign plain text
    assert KEY not in repr(settings) and settings.anthropic.api_key.get_secret_value() == KEY  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("given", "host", "port", "scheme"),
    [
        ("http://chroma.internal:9000", "chroma.internal", 9000, "http"),
        ("https://chroma.example.com", "chroma.example.com", 8000, "https"),  # Chroma's own port when none is named
        ("http://127.0.0.1:8000/", "127.0.0.1", 8000, "http"),
    ],
)
def test_a_chroma_url_is_parsed_once(home: object, monkeypatch: pytest.MonkeyPatch, given: str, host: str, port: int,
                                     scheme: str) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", given)
    url = load_settings().chroma_url
    assert url is not None and (url.host, url.port, url.scheme) == (host, port, scheme)


def test_a_blank_chroma_url_means_embedded_chroma(home: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", "  ")
    assert load_settings().chroma_url is None


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("chroma.internal:8000", "URL scheme should be 'http' or 'https'"),
        ("ftp://chroma.internal", "URL scheme should be 'http' or 'https'"),
        ("http://chroma.internal:port", "invalid port number"),
        ("http://chroma.internal:8000/api/v2", "with no path, query or user name"),
    ],
)
def test_a_malformed_chroma_url_is_refused_at_load(home: object, monkeypatch: pytest.MonkeyPatch, given: str,
                                                   reason: str) -> None:
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", given)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert message.startswith("invalid settings: EVIDENCE_CHROMA_URL: ") and reason in message
    assert f"(got {given!r})" in message and "\n" not in message


def test_every_invalid_setting_is_named_and_secrets_are_not_echoed(
    home: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVIDENCE_BACKEND", "gpt")
    monkeypatch.setenv("EVIDENCE_CHROMA_URL", "http://admin:hunter2@chroma.internal:8000")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert "EVIDENCE_BACKEND: Input should be 'local' or 'anthropic' (got 'gpt')" in message
    assert "EVIDENCE_CHROMA_URL: " in message and "hunter2" not in message
