"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import pytest
import typer

from ledger.cli import audit_commands


@pytest.fixture
def app() -> typer.Typer:
    """A small app with only the audit and export commands."""
    app = typer.Typer()
    audit_commands.register(app)
    return app
