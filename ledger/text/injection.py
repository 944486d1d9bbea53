"""Instructions hidden in documents ("prompt injection"): which sentences address a model instead of a reader.

Such text is never evidence. A document that holds one is quarantined for the run: none of its retrieved
chunks reaches the writer or the judge (a planted "the fee is $0" usually sits next to the instruction that
asks for it), and the run carries a risk flag naming the document and the sentence. As defence in depth, the
writer's quotable units and the Claude prompt's evidence blocks also drop any instruction sentence and any
`[cite:…]` anchor written inside a document. Detection is a rule over the word lists of
`lexicon/injection.toml` (see that file): it needs an override verb and its object, or an address to the model
and a directive, or a chat-template marker; one list alone never decides, so ordinary policy text that says
"ignore" or "state that" is untouched.
"""

from __future__ import annotations

import re
from functools import cache

from ledger.text.lexicon import lexicon
from ledger.text.sentences import CITE_RE, split_sentences

FILE = "injection"
# What comes right before an answer verb when it is said to the model: "you (must|should|will)", or a command
# at the start of a clause ("...: state that", "and say that", "please reply with").
_SAID_TO_THE_MODEL = re.compile(
    r"(?:\byou(?:\s+(?:must|should|will|shall|need\s+to|have\s+to|are\s+to))?|^|[:;,.!?\-]|\band|\bplease|\bjust|"
    r"\bsimply|\balways|\bonly)\s*$"
)


@cache
def _pattern(name: str) -> re.Pattern[str]:
    words = sorted(lexicon().words(FILE, name), key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(rf"(?<![\w<|\[])(?:{alternatives})(?![\w>|\]])", re.IGNORECASE)


@cache
def _markers() -> tuple[str, ...]:
    return tuple(lexicon().words(FILE, "markers"))


def is_instruction(sentence: str) -> bool:
    """True when the sentence speaks to an AI model rather than states something to a reader."""
    lowered = " ".join(sentence.lower().split())
    if any(marker in lowered for marker in _markers()):
        return True
    if _pattern("override_verbs").search(lowered) and _pattern("override_targets").search(lowered):
        return True
    if not _pattern("addressees").search(lowered):
        return False
    if _pattern("directives").search(lowered):
        return True
    return any(_SAID_TO_THE_MODEL.search(lowered[: m.start()]) for m in _pattern("answer_verbs").finditer(lowered))


def has_instructions(text: str) -> bool:
    """True when any sentence of `text` is an instruction to a model."""
    return bool(instruction_sentences(text))


def instruction_sentences(text: str) -> list[str]:
    """The sentences of `text` that are instructions to a model, in order."""
    if not _might_hold_instructions(text):
        return []
    return [sentence for sentence, _, _ in split_sentences(text) if is_instruction(sentence)]


def without_instructions(text: str) -> str:
    """`text` with every instruction sentence removed (the rest, and its line breaks, unchanged)."""
    if not _might_hold_instructions(text):
        return text
    kept, last = [], 0
    for sentence, start, end in split_sentences(text):
        if is_instruction(sentence):
            kept.append(text[last:start])
            last = end
    kept.append(text[last:])
    return "".join(kept)


def as_evidence(text: str) -> str:
    """Document text as it may be used as evidence: instructions to a model and citation anchors removed.

    An anchor inside a document (`[cite:…]`) is text, not a citation: copied into an answer it would cite
    some chunk on the document's say-so, so it goes.
    """
    return CITE_RE.sub("", without_instructions(text))


def _might_hold_instructions(text: str) -> bool:
    """A cheap pre-test: most chunks hold no override verb, no address to a model and no marker."""
    lowered = text.lower()
    return (
        any(marker in lowered for marker in _markers())
        or bool(_pattern("override_verbs").search(lowered) or _pattern("addressees").search(lowered))
    )
