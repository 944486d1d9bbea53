"""Citation markers for readers: `[cite:hash]` anchors as numbered sources [1], [2], ... Pure."""

from __future__ import annotations

import re

_CITE = re.compile(r"\s*\[cite:\s*([0-9a-fA-F,\s]+)\]")


def numbered_answer(answer: str) -> tuple[str, list[str]]:
    """The answer with [cite:hash] anchors replaced by [1], [2], ... and the hashes in that order."""
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        marks = []
        for h in re.split(r"[,\s]+", match.group(1).strip()):
            if h:
                if h not in order:
                    order.append(h)
                marks.append(f"[{order.index(h) + 1}]")
        return " " + "".join(marks)

    return _CITE.sub(number, answer).replace("] [", "]["), order
