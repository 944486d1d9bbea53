"""The two consoles every command prints to, and the one way user text reaches them.

Text that came from a user or a document (paths, titles, questions, quotes, workspace and session names)
is printed through `shown()`: terminal control sequences are removed, so a title cannot move the cursor
or recolour the terminal, and square brackets are escaped, so `[/x]` in a title cannot break Rich markup.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape

console = Console()
err_console = Console(stderr=True)

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(text: object) -> str:
    """The text without terminal escape sequences, control characters or bidi overrides (newlines and tabs kept)."""
    return _CONTROL.sub("", _ANSI.sub("", str(text)))


def shown(text: object) -> str:
    """User or document text made safe to embed in a Rich markup string: `plain`, with brackets escaped."""
    return escape(plain(text))
