"""The two consoles every command prints to, and the one way user text reaches them.

Text that came from a user or a document (paths, titles, questions, quotes, workspace and session names)
is printed through `shown()`: terminal control sequences are removed, so a title cannot move the cursor
or recolour the terminal, and square brackets are escaped, so `[/x]` in a title cannot break Rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ledger.text.control import strip_control

console = Console()
err_console = Console(stderr=True)


def plain(text: object) -> str:
    """The text without terminal escape sequences, control characters or bidi overrides (newlines and tabs kept)."""
    return strip_control(str(text))


def shown(text: object) -> str:
    """User or document text made safe to embed in a Rich markup string: `plain`, with brackets escaped."""
    return escape(plain(text))
