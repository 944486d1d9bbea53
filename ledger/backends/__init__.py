"""Model backends of the roles; the Claude names load lazily so offline runs never import the anthropic SDK."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.backends.anthropic_roles import (
        ClaudeClaimExtractor,
        ClaudeReviser,
        ClaudeSkeptic,
        ClaudeSupportChecker,
        ClaudeWriter,
    )
    from ledger.backends.claude import ClaudeClient

_LAZY = {
    "ClaudeClient": "ledger.backends.claude",
    "ClaudeWriter": "ledger.backends.anthropic_roles",
    "ClaudeSkeptic": "ledger.backends.anthropic_roles",
    "ClaudeClaimExtractor": "ledger.backends.anthropic_roles",
    "ClaudeSupportChecker": "ledger.backends.anthropic_roles",
    "ClaudeReviser": "ledger.backends.anthropic_roles",
}

__all__ = [
    "ClaudeClaimExtractor",
    "ClaudeClient",
    "ClaudeReviser",
    "ClaudeSkeptic",
    "ClaudeSupportChecker",
    "ClaudeWriter",
]


def __getattr__(name: str) -> Any:
    """Import a Claude name on first use (importing the SDK costs about 1.5 s)."""
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
