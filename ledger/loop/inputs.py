"""What a run accepts as a question or a draft: pure checks that turn unusable input into one clear message."""

from __future__ import annotations

import unicodedata

from ledger.core.errors import InputError
from ledger.text.control import strip_control


def clean_question(question: str, max_chars: int) -> str:
    """The question in NFC on one line without control or bidi characters; InputError if empty or too long."""
    text = " ".join(strip_control(unicodedata.normalize("NFC", question)).split())
    if not text:
        raise InputError("the question is empty")
    if len(text) > max_chars:
        raise InputError(
            f"the question is {len(text):,} characters long; the limit is {max_chars:,} "
            "(ask one question; put a long text to check in a draft instead)"
        )
    return text


def clean_draft(draft: str, max_chars: int) -> str:
    """The draft in NFC without control characters (line breaks kept); InputError if empty or too long."""
    text = strip_control(unicodedata.normalize("NFC", draft)).replace("\t", " ").strip()
    if not text:
        raise InputError("the draft is empty")
    if len(text) > max_chars:
        raise InputError(f"the draft is {len(text):,} characters long; the limit is {max_chars:,}")
    return text
