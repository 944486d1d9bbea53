"""Workspace names: what is refused and why, and a collection per exact name."""

from __future__ import annotations

import re

import pytest

from ledger.core.errors import ConfigError, EvidenceError
from ledger.core.workspaces import InvalidWorkspace, collection_name, validate_workspace

CHROMA_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]")


@pytest.mark.parametrize("name", ["default", "legal team", "legal_team", "Legal-Team.2026", "équipe juridique", "7"])
def test_ordinary_names_are_accepted_as_typed(name: str) -> None:
    assert validate_workspace(name) == name


def test_surrounding_spaces_go_and_unicode_is_normalised() -> None:
    assert validate_workspace("  legal  ") == "legal"
    assert validate_workspace("e\u0301quipe") == "\u00e9quipe"  # the same name however it was typed


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("../x", "'..'"),
        ("a..b", "'..'"),
        ("team/a", "path separator"),
        ("team\\a", "path separator"),
        ("[/oops]", "path separator"),
        ("[oops]", "'['"),
        ("a\x1b[31mred", "U+001B"),
        ("-flag", "start with a letter or digit"),
        (".hidden", "start with a letter or digit"),
        ("x" * 65, "65 characters"),
    ],
)
def test_bad_names_are_refused_saying_what_is_wrong_and_what_is_allowed(name: str, problem: str) -> None:
    with pytest.raises(InvalidWorkspace) as caught:
        validate_workspace(name)
    message = str(caught.value)
    assert problem in message and "letters, digits, spaces, '.', '_' or '-'" in message
    assert isinstance(caught.value, ConfigError) and isinstance(caught.value, EvidenceError)
    assert "\n" not in message and "\x1b" not in message


def test_names_that_differ_only_in_punctuation_or_case_get_their_own_collection() -> None:
    names = ["legal team", "legal_team", "legal-team", "legal.team", "Legal Team", "LEGAL TEAM", "équipe", "equipe"]
    collections = [collection_name(n) for n in names]
    assert len(set(collections)) == len(names)
    assert collection_name("legal team") == collection_name(" legal team ")  # the same workspace
    for collection in collections + [collection_name("x" * 64), collection_name("日本語")]:
        assert CHROMA_NAME.fullmatch(collection) and ".." not in collection and len(collection) <= 64
    assert collection_name("legal team").startswith("ws-legal-team-")  # still readable in the store
