"""Workspace names: what a valid one is, and the vector collection each one maps to (one-to-one).

A workspace name is what the user typed, checked and NFC-normalised. Its Chroma collection name is a readable
slug plus 16 hex characters of the sha256 of the exact name, so "legal team", "legal_team" and "Legal Team" are
three collections: names that differ only in punctuation or case can no longer share one.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from ledger.core.errors import ConfigError

MAX_WORKSPACE_CHARS = 64
RULE = (
    f"a workspace name is 1-{MAX_WORKSPACE_CHARS} letters, digits, spaces, '.', '_' or '-', "
    "starting with a letter or digit, with no '/', '\\' or '..'"
)
COLLECTION_PREFIX = "ws-"
LEGACY_PREFIX = "evidence_"  # how collections were named before names were checked (several names, one collection)

_PUNCTUATION_OK = frozenset(" ._-")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_LEGACY_NOT_OK = re.compile(r"[^a-zA-Z0-9._-]")


class InvalidWorkspace(ConfigError):
    """A workspace name that cannot be used; the message says which rule it breaks and what is allowed."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"invalid workspace name {name[:80]!r}: {problem}; {RULE}")
        self.name = name
        self.problem = problem


def validate_workspace(name: str) -> str:
    """The workspace name, NFC-normalised and stripped of surrounding spaces; raises InvalidWorkspace."""
    if not isinstance(name, str):
        raise InvalidWorkspace(repr(name), "not text")
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise InvalidWorkspace(name, "it is empty")
    if len(cleaned) > MAX_WORKSPACE_CHARS:
        raise InvalidWorkspace(name, f"it is {len(cleaned)} characters long")
    if "/" in cleaned or "\\" in cleaned:
        raise InvalidWorkspace(name, "it contains a path separator")
    if ".." in cleaned:
        raise InvalidWorkspace(name, "it contains '..'")
    bad = sorted({ch for ch in cleaned if not (ch.isalnum() or ch in _PUNCTUATION_OK)})
    if bad:
        shown = " ".join(repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}" for ch in bad[:5])
        raise InvalidWorkspace(name, f"it contains {shown}")
    if not cleaned[0].isalnum():
        raise InvalidWorkspace(name, "it does not start with a letter or digit")
    return cleaned


def collection_name(workspace: str) -> str:
    """The Chroma collection of a workspace: `ws-<slug>-<16 hex of sha256(name)>`, 3-60 chars of [a-z0-9-]."""
    name = validate_workspace(workspace)
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = _NOT_SLUG.sub("-", ascii_name).strip("-")[:40].rstrip("-")
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return f"{COLLECTION_PREFIX}{slug}-{digest}" if slug else f"{COLLECTION_PREFIX}{digest}"


def legacy_collection_name(workspace: str) -> str:
    """The collection name a workspace had before names were checked (punctuation folded to '_')."""
    cleaned = _LEGACY_NOT_OK.sub("_", workspace.strip())
    return f"{LEGACY_PREFIX}{cleaned}"[:500].rstrip("._-")
