"""Text from outside (documents, questions, drafts, names) without terminal control sequences or bidi tricks."""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def strip_control(text: str) -> str:
    """The text without ANSI escape sequences, control characters, zero-width or bidi-override characters.

    Line feeds and tabs are kept; a carriage return is a line feed.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", _ANSI.sub("", text))
