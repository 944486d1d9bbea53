"""NLTK comes in without SciPy and scikit-learn, which stay importable for everyone else."""

from __future__ import annotations

import json
import subprocess
import sys

_CHECK = """
import json, sys
from ledger.text.nltk_parts import PorterStemmer, PunktParameters, PunktSentenceTokenizer
after_nltk = [m for m in ("scipy", "sklearn", "pandas") if m in sys.modules]
sentences = PunktSentenceTokenizer(PunktParameters()).tokenize("The fee is due. It is paid in March.")
import scipy.stats
from sklearn.feature_extraction import DictVectorizer
print(json.dumps({"after_nltk": after_nltk, "sentences": sentences, "stem": PorterStemmer().stem("retained"),
                  "later": [scipy.stats.fisher_exact.__module__, DictVectorizer.__name__]}))
"""


def test_nltk_without_scipy_or_sklearn_which_others_still_import() -> None:
    done = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["after_nltk"] == []
    assert report["sentences"] == ["The fee is due.", "It is paid in March."]
    assert report["stem"] == "retain"
    assert report["later"] == ["scipy.stats._stats_py", "DictVectorizer"]
