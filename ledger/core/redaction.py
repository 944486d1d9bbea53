"""Secrets never leave in text: which settings are secret, and text with their values masked.

Used wherever text may reach a person or a file outside the database: error messages, the crash log,
logs. The rule is by name (any setting or variable whose name mentions a key, secret, token, password or
credential, and database URLs, which may carry a password) and by shape (API-key-looking strings).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

MASK = "[redacted]"
_SECRET_NAME = re.compile(r"key|secret|token|passw|credential|auth|database_url|dsn", re.IGNORECASE)
_SECRET_SHAPE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{8,}|\b(?:ghp|gho|xox[abp])_?[A-Za-z0-9_\-]{16,}")
_URL_PASSWORD = re.compile(r"(?<=://)([^:/@\s]+):([^@\s]+)@")
_MIN_SECRET_LENGTH = 6  # shorter values would mask ordinary words


def is_secret_name(name: str) -> bool:
    """True for a setting or environment variable whose value must never be shown."""
    return bool(_SECRET_NAME.search(name))


def looks_secret(value: str) -> bool:
    """True for a string shaped like an API key or a URL with a password."""
    return bool(_SECRET_SHAPE.search(value) or _URL_PASSWORD.search(value))


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """Values of this process's secret-named EVIDENCE_* and ANTHROPIC_* variables, longest first."""
    env = os.environ if environ is None else environ
    values = {
        value
        for name, value in env.items()
        if name.upper().startswith(("EVIDENCE_", "ANTHROPIC_"))
        and is_secret_name(name)
        and len(value) >= _MIN_SECRET_LENGTH
    }
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """The text with every known secret value, key-shaped string and URL password replaced by a mask."""
    for value in [*secrets, *secret_values()]:
        if len(value) >= _MIN_SECRET_LENGTH:
            text = text.replace(value, MASK)
    text = _SECRET_SHAPE.sub(MASK, text)
    return _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:{MASK}@", text)
