"""The hand-written migrations and the SQLModel tables describe the same schema.

The migrations create the tables; the SQLModel classes read and write them. A column added to one and not the
other fails at the first query on a user's machine, so a freshly migrated SQLite database is compared with the
models here: same tables, same columns, same nullability, same primary keys, indexes, foreign keys and unique
constraints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, Table, UniqueConstraint, create_engine, inspect
from sqlmodel import SQLModel

from ledger.storage import tables  # noqa: F401  # registers the tables on SQLModel.metadata
from ledger.storage.database import migrate

MODEL_TABLES = sorted(SQLModel.metadata.tables)
# The keyword index is dialect-specific SQL (an FTS5 table on SQLite, a tsvector column on PostgreSQL) that no
# model describes; ledger/storage/keywords.py is its only reader and writer, and its tests run on both databases.
RAW_SQL_PREFIXES = ("chunk_text", "chunk_fts")


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An inspector of a fresh SQLite database with every migration applied."""
    path: Path = tmp_path_factory.mktemp("parity") / "ledger.db"
    engine: Engine = create_engine(f"sqlite:///{path}")
    migrate(engine)
    yield inspect(engine)
    engine.dispose()


def _model(name: str) -> Table:
    return SQLModel.metadata.tables[name]


def test_every_migrated_table_has_a_model_and_every_model_a_table(migrated: Any) -> None:
    migrated_tables = {t for t in migrated.get_table_names() if not t.startswith(RAW_SQL_PREFIXES)}
    assert migrated_tables - {"schema_migrations"} == set(MODEL_TABLES)


@pytest.mark.parametrize("name", MODEL_TABLES)
def test_columns_match(migrated: Any, name: str) -> None:
    # Order is free: a column a later migration adds comes last in the table, wherever the model declares it.
    assert sorted(c["name"] for c in migrated.get_columns(name)) == sorted(c.name for c in _model(name).columns)


@pytest.mark.parametrize("name", MODEL_TABLES)
def test_primary_keys_match(migrated: Any, name: str) -> None:
    assert migrated.get_pk_constraint(name)["constrained_columns"] == [c.name for c in _model(name).primary_key]


@pytest.mark.parametrize("name", MODEL_TABLES)
def test_nullability_matches(migrated: Any, name: str) -> None:
    # Primary keys are left out: SQLite reports a non-integer primary key as nullable (a legacy quirk of
    # SQLite; PostgreSQL makes every primary key NOT NULL), and the model never writes one without a value.
    database = {c["name"]: c["nullable"] for c in migrated.get_columns(name) if not c.get("primary_key")}
    model = {c.name: c.nullable for c in _model(name).columns if not c.primary_key}
    assert database == model


@pytest.mark.parametrize("name", MODEL_TABLES)
def test_indexes_foreign_keys_and_unique_constraints_match(migrated: Any, name: str) -> None:
    table = _model(name)
    assert sorted((i["name"], tuple(i["column_names"])) for i in migrated.get_indexes(name)) == sorted(
        (i.name, tuple(c.name for c in i.columns)) for i in table.indexes
    )
    assert sorted(
        (tuple(fk["constrained_columns"]), fk["referred_table"], tuple(fk["referred_columns"]))
        for fk in migrated.get_foreign_keys(name)
    ) == sorted(
        ((fk.parent.name,), fk.column.table.name, (fk.column.name,)) for fk in table.foreign_keys
    )
    assert sorted(tuple(u["column_names"]) for u in migrated.get_unique_constraints(name)) == sorted(
        tuple(c.name for c in constraint.columns)
        for constraint in table.constraints
        if isinstance(constraint, UniqueConstraint)
    )
