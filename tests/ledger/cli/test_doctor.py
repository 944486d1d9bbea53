"""`evidence doctor`: each disagreement between the registry, the vectors and the files is one line; --repair
fixes what it can and says what it cannot; exit 0 only when nothing is left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.hashing import vector_id
from ledger.cli import app
from ledger.core.settings import Settings
from ledger.loop import factory
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder
from tests.stress.fast_cli import evidence


@pytest.fixture
def docs(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(factory, "build_embedder", lambda s: HashEmbedder())
    monkeypatch.setenv("COLUMNS", "300")
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(4):
        (folder / f"memo_{i}.md").write_text(f"# Memo {i}\n\nDesk {i} opens at {i + 7} o'clock.\n")
    build_ingestor(settings).run([folder])
    return folder


def doctor(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["doctor", *args])
    return done.exit_code, done.output


def test_a_healthy_home_says_so_and_exits_0(docs: Path) -> None:
    assert doctor() == (0, "healthy: the registry, the vector store, the keyword index and the ledger agree\n")


def test_every_kind_of_disagreement_is_one_line_and_repair_fixes_what_it_can(docs: Path, settings: Settings) -> None:
    ingestor = build_ingestor(settings)
    by_name = {Path(d.path).name: d for d in ingestor.registry.all()}
    lost = by_name["memo_0.md"]
    ingestor.store.delete([vector_id(lost.id, h) for h in lost.chunk_hashes])  # vectors lost, file unchanged
    ingestor.registry.delete([by_name["memo_1.md"].id])  # its vectors are now orphans
    (docs / "memo_2.md").write_text("# Memo 2\n\nDesk 2 moved.\n")  # changed since it was indexed
    (docs / "memo_3.md").unlink()  # gone

    code, out = doctor()
    lines = out.splitlines()
    assert code == 1
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["problem", "orphan_vectors"], ["problem", "missing_vectors"], ["problem", "source_changed"],
        ["problem", "source_missing"],
    ]
    assert "memo_1.md: 1 vector that no registered document lists" in lines[0]
    assert "memo_0.md: 1 of 1 chunks have no vectors" in lines[1] and "--repair" in lines[1]
    assert lines[-1].startswith("4 found, 0 repaired, 4 remaining")

    code, out = doctor("--repair")
    lines = out.splitlines()
    assert code == 1  # a changed and a gone file are for the user to decide (ingest, --prune)
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["repaired", "orphan_vectors"], ["repaired", "missing_vectors"], ["problem", "source_changed"],
        ["problem", "source_missing"],
    ]
    assert "re-embedded from the source file" in lines[1] and "evidence ingest FOLDER --prune" in lines[3]
    assert lines[-1] == "4 found, 2 repaired, 2 remaining"
    assert ingestor.missing_vectors() == {} and ingestor.orphans() == []

    build_ingestor(settings).run([docs], prune=True)  # what doctor told the user to do
    code, out = doctor("--json")
    assert code == 0 and json.loads(out) == {"healthy": True, "findings": [],
                                            "summary": {"found": 0, "repaired": 0, "remaining": 0}}


def test_missing_vectors_of_a_changed_file_are_reported_not_guessed(docs: Path, settings: Settings) -> None:
    ingestor = build_ingestor(settings)
    doc = ingestor.registry.all()[0]
    ingestor.store.delete([vector_id(doc.id, h) for h in doc.chunk_hashes])
    Path(doc.path).write_text("# Other\n\nA different text.\n")
    code, out = doctor("--repair", "--json")
    report = json.loads(out)
    assert code == 1 and not report["healthy"]
    assert [(f["kind"], f["repaired"]) for f in report["findings"]] == [("missing_vectors", False)]
    assert "changed since it was indexed" in report["findings"][0]["detail"]
    assert report["findings"][0]["workspace"] == "default"


def test_help_has_examples_and_a_bad_workspace_is_one_line(home: Path) -> None:
    shown = evidence(home, "doctor", "--help")
    assert shown.returncode == 0 and "evidence doctor --repair" in shown.stdout
    bad = evidence(home, "doctor", "-w", "../x")
    assert bad.returncode == 2 and bad.stderr.startswith("error: invalid workspace name '../x'")
    assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_a_lost_keyword_index_is_reported_and_repaired(docs: Path, settings: Settings) -> None:
    ingestor = build_ingestor(settings)
    assert ingestor.keywords is not None
    ingestor.keywords.delete(sorted(ingestor.keywords.ids())[:2])
    code, out = doctor()
    assert code == 1 and "keyword_index" in out and "lacks 2 chunk(s)" in out
    code, out = doctor("--repair")
    assert code == 0 and "brought in step with the vector store" in out
    assert ingestor.keywords.ids() == ingestor.store.ids()


def test_a_stored_run_edited_outside_the_product_is_reported_and_never_repaired(docs: Path, settings: Settings) -> None:
    from sqlalchemy import text

    from ledger.storage.database import open_engine
    from ledger.storage.runs import RunStore
    from tests.ledger.audit_fixtures import simple_run

    RunStore(open_engine(settings), settings).save_run(simple_run("sess-doctor-0001"))
    with open_engine(settings).begin() as conn:
        conn.execute(text("UPDATE ledger_entries SET verdict = 'supported', claim_text = 'edited'"))
    for args in ((), ("--repair",)):
        code, out = doctor(*args)
        assert code == 1 and "ledger" in out and "sess-doctor-0001" in out and "not repairable" in out


def _honouring_the_backend(settings: Settings) -> HashEmbedder:
    """The hash embedder under the configured embedding settings, so its fingerprint names the configured backend."""
    embedder = HashEmbedder()
    embedder.settings = settings.embedding
    return embedder


def test_a_store_another_backend_made_is_reported_with_what_happens_next(
    docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(factory, "build_embedder", _honouring_the_backend)
    monkeypatch.setenv("EVIDENCE_EMBEDDING__BACKEND", "torch")  # the docs were embedded with the default, onnx-int8
    code, out = doctor()
    assert code == 1
    assert out.splitlines()[0] == (
        "problem  embedding_backend (default) default: its 4 vectors were made by onnx-int8.v2:all-MiniLM-L6-v2 but "
        "the configured backend is torch (EVIDENCE_EMBEDDING__BACKEND): questions use onnx-int8.v2:all-MiniLM-L6-v2, "
        "as its vectors require, until the next `evidence ingest` into the workspace (or `evidence doctor --repair`) "
        "re-embeds them with torch:all-MiniLM-L6-v2"
    )
    code, out = doctor("--repair")
    notice, repaired = out.splitlines()[:2]  # the ingest's notice (stderr), then the finding
    assert code == 0 and notice.startswith("re-embedding the 4 chunks of workspace 'default' with torch")
    assert repaired.startswith("repaired embedding_backend (default) default: its 4 vectors")
    assert repaired.endswith("; re-embedded with torch:all-MiniLM-L6-v2")
    assert doctor()[0] == 0
    monkeypatch.delenv("EVIDENCE_EMBEDDING__BACKEND")  # back to the default: now the store is torch's
    assert "made by torch:all-MiniLM-L6-v2 but the configured backend is onnx-int8" in doctor()[1]


def test_an_unfinished_reembedding_is_reported_and_repair_finishes_it(docs: Path, settings: Settings) -> None:
    from ingest.embedding import backend_fingerprint
    from ledger.core.errors import StoreError
    from ledger.core.settings import EmbeddingSettings

    store = build_ingestor(settings).store
    current = store.backend_record().recorded
    store.record_backend(current, pending=backend_fingerprint(EmbeddingSettings(backend="torch")))  # interrupted
    with pytest.raises(StoreError):  # what the doctor says happens to questions
        store.query_embedder(HashEmbedder())
    code, out = doctor("--json")
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert (finding["kind"], finding["workspace"], finding["repaired"]) == ("unfinished_reembedding", "default", False)
    assert finding["detail"] == (
        "a re-embedding of its 4 vectors with torch:all-MiniLM-L6-v2 started and did not finish: questions to it are "
        "refused until the next `evidence ingest` into the workspace (or `evidence doctor --repair`) re-embeds them "
        f"with {current}"
    )
    code, out = doctor("--repair")
    assert code == 0 and "\nrepaired unfinished_reembedding (default) default:" in out
    assert store.backend_record().pending is None
    assert store.query_embedder(HashEmbedder()).fingerprint == current  # questions are answered again
