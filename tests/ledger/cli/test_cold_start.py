"""Cold start: commands that need no model, no vector store and no NLP load none of them.

Behavioural guards, not timings: each command runs in a fresh interpreter, which then reports the heavy
packages it imported (torch alone is seconds of start-up on a small machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ["torch", "transformers", "sentence_transformers", "chromadb", "llama_index", "nltk", "onnxruntime",
         "streamlit", "anthropic", "sklearn", "scipy"]

_RUN = """
import json, sys
from ledger.cli import main
heavy = json.loads(sys.argv[2])
sys.argv = ["evidence", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules]}), file=sys.stderr)
"""


def _loaded(home: Path, *args: str, heavy: list[str] = HEAVY, script: str = _RUN) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")}
    env.update(EVIDENCE_HOME=str(home), HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(list(args)), json.dumps(heavy)], env=env,
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], report["loaded"]


@pytest.mark.parametrize("args", [["--help"], ["ask", "--help"], ["ingest", "--help"], ["audit", "--help"]])
def test_help_imports_no_heavy_package(tmp_path: Path, args: list[str]) -> None:
    code, loaded = _loaded(tmp_path / "home", *args)
    assert code == 0
    assert loaded == []


def test_docs_imports_no_model_store_or_nlp(tmp_path: Path) -> None:
    code, loaded = _loaded(tmp_path / "home", "docs", "--json")
    assert code == 0
    assert loaded == []


def test_docs_reads_the_default_database_without_sqlalchemy(tmp_path: Path) -> None:
    """SQLAlchemy and SQLModel are half a second of start-up: listing documents needs neither."""
    (tmp_path / "empty").mkdir()
    sql = ["sqlalchemy", "sqlmodel"]
    assert _loaded(tmp_path / "home", "ingest", str(tmp_path / "empty"), heavy=sql) == (0, sql)  # makes the database
    assert (tmp_path / "home" / "ledger.db").exists()
    assert _loaded(tmp_path / "home", "docs", "--json", heavy=sql) == (0, [])
    assert _loaded(tmp_path / "home", "docs", heavy=sql) == (0, [])


_BUILD = """
import json, sys
from pathlib import Path
from ledger.core.settings import Settings
from ledger.loop.factory import build_recorded
build_recorded(Settings(home=Path(json.loads(sys.argv[1])[0])), "default")
print(json.dumps({"code": 0, "loaded": [m for m in json.loads(sys.argv[2]) if m in sys.modules]}), file=sys.stderr)
"""


def test_asking_builds_without_the_ingest_only_packages(tmp_path: Path) -> None:
    """The loop of `evidence ask` needs no chunker (LlamaIndex), no document parsers, no Claude SDK offline and not
    the SciPy and scikit-learn that a plain `import nltk` brings, and loads no model until it embeds something."""
    heavy = ["llama_index", "anthropic", "streamlit", "pypdf", "docx", "torch", "sentence_transformers", "scipy",
             "sklearn"]
    code, loaded = _loaded(tmp_path, str(tmp_path / "home"), heavy=heavy, script=_BUILD)
    assert code == 0
    assert loaded == []


def test_ingest_with_nothing_new_loads_no_chunker_or_model(tmp_path: Path) -> None:
    """An ingest that finds nothing to chunk (here: an empty folder) answers without LlamaIndex or the model."""
    (tmp_path / "empty").mkdir()
    code, loaded = _loaded(tmp_path / "home", "ingest", str(tmp_path / "empty"), "--json",
                           heavy=["llama_index", "torch", "sentence_transformers", "onnxruntime", "nltk"])
    assert code == 0
    assert loaded == []
