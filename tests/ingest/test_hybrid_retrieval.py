"""Hybrid retrieval: the keyword index follows every ingest, heals when lost, and finds exact codes and figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor, build_retriever
from ledger.storage.database import open_engine
from ledger.storage.keywords import KeywordIndex

pytestmark = pytest.mark.model

FILLER = "The office kitchen is cleaned every evening and the recycling bins are emptied on Fridays. " * 3
DOCS = {
    "kitchen.md": f"# Kitchen\n\n{FILLER}\n",
    "parts.md": "# Spare parts\n\nPart QX-4471 replaces the worn hinge of the loading door.\n",
    "budget.md": "# Budget\n\nPurchases above $25,000 need three written quotes.\n",
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text)
    return folder


def test_the_keyword_index_follows_ingest_and_heals_when_lost(settings: Settings, docs: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    ingestor = build_ingestor(settings, embedder=embedder)
    ingestor.run([docs])
    index = KeywordIndex(open_engine(settings), settings.workspace)
    assert index.ids() == ingestor.store.ids() and index.count() >= 3

    (docs / "parts.md").unlink()
    ingestor.run([docs], prune=True)
    assert index.ids() == ingestor.store.ids() and not index.search("QX-4471", 5)

    index.delete(index.ids())  # lost, e.g. a database restored from before the index
    report = ingestor.run([docs])
    assert report.documents_unchanged == 2 and index.ids() == ingestor.store.ids()


def test_an_exact_code_is_retrieved_first(settings: Settings, docs: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    build_ingestor(settings, embedder=embedder).run([docs])
    retriever = build_retriever(settings, embedder=embedder)
    hits = retriever.hybrid_many(["Which part is QX-4471?", "quotes above $25,000"], 2)
    assert "QX-4471" in hits[0][0].chunk.text
    assert "$25,000" in hits[1][0].chunk.text


def test_codes_and_names_of_a_question_are_what_a_chunk_below_the_relevance_bar_may_still_answer() -> None:
    from ingest.retrieval import mentions, named_terms

    assert named_terms("What is form EC1 for?") == ["EC1"]
    assert named_terms("Who sponsored the LUMEN-2 trial in 2024?") == ["LUMEN-2"]  # a year is no code
    assert named_terms("What object has accession number 2023.201?") == ["2023.201"]
    assert "Harbourside" in named_terms("When does the Harbourside ferry leave?")
    assert mentions("Send form ec1 to payroll.", ["EC1"])
    assert not mentions("the LUMEN-10 trial", ["LUMEN-1"])  # another code that starts alike
