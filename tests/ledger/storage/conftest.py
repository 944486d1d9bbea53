"""Storage tests run on SQLite and, with EVIDENCE_TEST_POSTGRES_URL (set by .ci/run), on a real PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, make_url, text

from ledger.core.settings import Settings
from ledger.storage.database import open_engine

PG_URL = os.environ.get("EVIDENCE_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_db(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Settings]:
    """Settings whose database is a fresh SQLite file, or a fresh schema on the PostgreSQL test server."""
    if request.param == "sqlite":
        yield settings
        return
    if not PG_URL:
        pytest.skip("EVIDENCE_TEST_POSTGRES_URL is not set")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    # A session time zone far from UTC: stored instants must not depend on it.
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema} -ctimezone=Pacific/Auckland"})
    scoped = settings.model_copy(update={"database_url": url.render_as_string(hide_password=False)})
    yield scoped
    open_engine(scoped).dispose()
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()
