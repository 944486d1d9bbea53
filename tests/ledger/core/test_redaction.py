"""Secrets never leave in text: error messages and the crash log mask them by name and by shape."""

from __future__ import annotations

import pytest

from ledger.core.errors import ConfigError
from ledger.core.redaction import MASK, redact
from ledger.core.settings import load_settings

KEY = "sk-ant-api03-NOT-A-REAL-KEY-1234567890"


def test_known_secret_values_key_shapes_and_url_passwords_are_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_ANTHROPIC__API_KEY", "plain-looking-secret")
    text = f"failed with plain-looking-secret, {KEY} and postgresql://ledger:hunter22@db:5432/x"
    shown = redact(text)
    assert "plain-looking-secret" not in shown and KEY not in shown and "hunter22" not in shown
    assert shown.count(MASK) == 3 and "postgresql://ledger:" in shown


def test_a_misspelt_key_setting_is_named_with_a_suggestion_but_its_value_is_never_echoed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVIDENCE_ANTHROPIC__KEY", KEY)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert KEY not in message
    assert "EVIDENCE_ANTHROPIC__KEY: no such setting; did you mean EVIDENCE_ANTHROPIC__API_KEY?" in message


def test_an_ordinary_invalid_value_is_still_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_JUDGE__SEARCH_K", "many")
    with pytest.raises(ConfigError, match=r"EVIDENCE_JUDGE__SEARCH_K: .*\(got 'many'\)"):
        load_settings()
