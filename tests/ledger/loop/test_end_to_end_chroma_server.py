"""The user's whole path with EVIDENCE_CHROMA_URL pointing at a real Chroma server (.ci/run starts one and sets
EVIDENCE_TEST_CHROMA_URL; skipped without it): ingest, ask, verify, audit verify and doctor, as commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.embedding import backend_fingerprint
from ingest.vectorstore import VectorStore
from ledger.core.settings import Settings
from ledger.loop.factory import build_registry
from tests.conftest import SAMPLE_DOCS

pytestmark = [pytest.mark.model, pytest.mark.chroma]


def evidence(*args: str) -> subprocess.CompletedProcess[str]:
    """`evidence ARGS` with this test's environment (its home, EVIDENCE_CHROMA_URL)."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-c", "from ledger.cli import main; main()", *args], env=env,
                          capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_ingest_ask_verify_audit_and_doctor_with_the_vectors_in_a_chroma_server(chroma_server: Settings,
                                                                                tmp_path: Path) -> None:
    ingested = evidence("ingest", str(SAMPLE_DOCS), "--json")
    assert ingested.returncode == 0, ingested.stderr
    report = json.loads(ingested.stdout)
    assert report["chunks_added"] > 0 and not report["failed"]
    assert not (chroma_server.home / "chroma").exists()  # the vectors are in the server, nowhere else
    store = VectorStore(chroma_server, "default")
    registered = sum(doc.chunks for doc in build_registry(chroma_server).all())
    assert store.count() == registered == report["chunks_added"]
    assert store.backend_record().recorded == backend_fingerprint(chroma_server.embedding)

    asked = evidence("ask", "What is the nightly hotel cap for standard locations?", "--json")
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert "$220" in answer["answer"] and answer["ledger"]["summary"]["evidence_coverage"] >= 0.85

    draft = tmp_path / "draft.md"
    draft.write_text("The nightly hotel cap for standard locations is $250. "
                     "Expense reports must be submitted within 30 days after the trip ends.")
    verified = evidence("verify", "-q", "What are the travel expense rules?", "-f", str(draft), "--json")
    assert verified.returncode == 0, verified.stderr
    result = json.loads(verified.stdout)
    assert "$250" not in result["answer"] and result["ledger"]["summary"]["verdicts"]["contradicted"] == 0

    audited = evidence("audit", "verify", "--json")
    assert audited.returncode == 0, audited.stdout
    trail = json.loads(audited.stdout)
    assert trail["ok"] and trail["runs_checked"] == 2

    doctor = evidence("doctor", "--json")
    assert doctor.returncode == 0, doctor.stdout
    assert json.loads(doctor.stdout)["healthy"] is True
    store.delete(sorted(store.ids())[:1])  # a vector lost from the server: the doctor sees it
    found = json.loads(evidence("doctor", "--json").stdout)
    assert not found["healthy"] and [f["kind"] for f in found["findings"]] == ["missing_vectors"]
