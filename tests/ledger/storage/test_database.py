"""Opening the database: a password in the URL never reaches an error message."""

from __future__ import annotations

import pytest

from ledger.core.errors import StoreError
from ledger.core.settings import Settings
from ledger.storage.database import open_engine, redact_url

PASSWORD = "Tr0ub4dor&3"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql+psycopg://analyst:{PASSWORD}@127.0.0.1:1/ledger",  # parses; nothing listens on port 1
        f"postgresql+psycopg://analyst:{PASSWORD}@127.0.0.1:no-port/ledger",  # does not parse
        f"postgresql+nosuchdriver://analyst:{PASSWORD}@127.0.0.1/ledger",  # no such driver
    ],
)
def test_a_database_password_never_reaches_the_error(settings: Settings, url: str) -> None:
    with pytest.raises(StoreError) as caught:
        open_engine(settings.model_copy(update={"database_url": url}))
    message = str(caught.value)
    assert PASSWORD not in message
    assert message.startswith("cannot open the database at postgresql+") and "analyst:***@127.0.0.1" in message


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bob:s3cr%40t@db.example:5432/ledger", "postgresql://bob:***@db.example:5432/ledger"),
        ("postgresql://bob@db.example/ledger", "postgresql://bob@db.example/ledger"),
        ("sqlite:////var/lib/evidence/ledger.db", "sqlite:////var/lib/evidence/ledger.db"),
        ("postgresql://bob:s3cret@db.example:port/ledger", "postgresql://bob:***@db.example:port/ledger"),
        ("bob:s3cret@db.example", "bob:***@db.example"),
        ("not a url", "not a url"),
    ],
)
def test_redacted_urls(url: str, shown: str) -> None:
    assert redact_url(url) == shown
