"""The parts of NLTK the product uses (Punkt, the Porter stemmer, WordNet's suffix rules), imported without SciPy
and scikit-learn.

`import nltk` imports every NLTK sub-package, and two of them pull in SciPy (collocation statistics) and
scikit-learn with pandas (a classifier wrapper): seconds of start-up for `evidence ask`, for nothing it uses. Both
imports sit in NLTK behind `except ImportError` fallbacks, so while NLTK is first imported here, an import of
either package made *by an NLTK module* is refused and NLTK keeps its fallbacks (which the product never calls).
Imports made by anyone else, in this or another thread, are untouched; and once NLTK is in, so is the rest of
SciPy and scikit-learn for whoever asks later. When NLTK is already imported, nothing is done.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from types import ModuleType

_SKIPPED = frozenset({"scipy", "sklearn"})


class _RefuseForNltk(importlib.abc.MetaPathFinder):
    """Refuses SciPy and scikit-learn to NLTK's modules only (see the module docstring)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> None:
        if fullname.partition(".")[0] in _SKIPPED and _imported_by_nltk():
            raise ImportError(f"{fullname} is not imported for NLTK (ledger.text.nltk_parts)")
        return None


def _imported_by_nltk() -> bool:
    """Whether the code asking for the current import is an NLTK module (the first frame outside importlib)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back  # type: ignore[assignment]
    return frame is not None and str(frame.f_globals.get("__name__", "")).partition(".")[0] == "nltk"


def _import_nltk() -> None:
    if "nltk" in sys.modules:
        return
    finder = _RefuseForNltk()
    sys.meta_path.insert(0, finder)
    try:
        import nltk  # noqa: F401
    finally:
        sys.meta_path.remove(finder)


_import_nltk()

from nltk.corpus.reader.wordnet import WordNetCorpusReader  # noqa: E402
from nltk.stem.porter import PorterStemmer  # noqa: E402
from nltk.tokenize import punkt  # noqa: E402
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer, PunktTrainer  # noqa: E402

# WordNet's suffix rules for inflected forms, by part of speech ("ies" -> "y" for nouns): morphy's, without its data.
WORDNET_SUFFIXES: dict[str, list[tuple[str, str]]] = WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS

__all__ = ["WORDNET_SUFFIXES", "PorterStemmer", "PunktParameters", "PunktSentenceTokenizer", "PunktTrainer", "punkt"]
