"""Units of measure written after a figure: "26 miles", "26-kilometre route", "3.5 kg", "40 litres". Pure lookups.

pint reads the unit word (any spelling and plural it knows) and gives its dimension and its size in base units, so
"26 miles" and "41.8 km" are the same length and "26 miles" and "26 km" are not. Only length, mass, area, volume
and speed count; a word pint reads as a unit but prose mostly uses for things counted ("3 points") is in the
lexicon's `not_measures` list. pint and its registry (about 0.6 s) load at the first figure pair that needs them.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from ledger.text.figures import Quantity
from ledger.text.lexicon import lexicon

SPEED = "[length] / [time]"
MEASURED = frozenset({"[length]", "[mass]", "[length] ** 2", "[length] ** 3", SPEED})
# "km/h", "miles per hour", "metres a second"
_PER_TIME = re.compile(r"^\s*(?:/\s*(?:h|hr|hour|s|sec|min)\b|(?:per|an?)\s+(?:hour|second|minute)\b)", re.IGNORECASE)
BY = re.compile(r"\s*(?:by|x|×)\s*", re.IGNORECASE)  # "6 by 4 feet", "3.0 metres by 2.4 metres": two sides of a size
_UNIT_WORD = re.compile(r"^[^A-Za-z]*?([A-Za-z]+)")  # the first word after the figure: "26-kilometre route"


@cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def unit_size(word: str) -> tuple[str, float] | None:
    """(dimension, size in base units) of a unit word ("miles" -> ("[length]", 1609.344)), None for other words."""
    word = word.lower()
    if len(word) < 2 or word in lexicon().word_set("figures", "not_measures"):
        return None
    try:
        registry = _registry()
        parses = registry.parse_unit_name(word)
        if len(parses) != 1:  # no unit, or two readings ("amps": ampere, or atto-metre per second): not a measure
            return None
        prefix, name, _ = parses[0]
        one = registry.Quantity(1, prefix + name)
        dimension = str(one.dimensionality)
        size = float(one.to_base_units().magnitude)
    except Exception:  # noqa: BLE001 - pint raises many kinds of errors for a word that is no unit
        return None
    return (dimension, size) if dimension in MEASURED and size > 0 else None


@lru_cache(maxsize=4096)
def measure_word(text: str) -> str:
    """The word after a figure, lower case ("26-kilometre circular route" -> "kilometre"); "" when none."""
    found = _UNIT_WORD.match(re.sub(r"^[\d.,\s]+", "", text))
    return found.group(1).lower() if found else ""


def is_measure(q: Quantity) -> bool:
    """A count written with a unit of measure ("3.0 metres", "40 litres"), not a count of things ("one shed")."""
    return q.kind == "count" and unit_size(measure_word(q.text)) is not None


def is_speed(figure: str, after: str) -> bool:
    """Whether a figure ("15.5 mph", "40 km" followed by "/h", "30 miles" by "an hour") is a speed. `after` is the
    text that follows the figure."""
    size = unit_size(measure_word(figure))
    return size is not None and (size[0] == SPEED or (size[0] == "[length]" and bool(_PER_TIME.match(after))))
