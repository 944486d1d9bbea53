"""The UI process sees documents that a CLI ingest beside it added, without a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.loop import factory
from tests.fakes import HashEmbedder
from tests.stress.fast_cli import evidence
from ui import services


def test_a_cli_ingest_beside_the_ui_is_searched_by_the_next_run(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(factory, "build_embedder", lambda s: HashEmbedder())
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "desk.md").write_text("# Desk\n\nThe front desk opens at seven.\n")
    (second / "parking.md").write_text("# Parking\n\nParking permit QX-4471 costs forty a month.\n")
    assert evidence(settings.home, "ingest", str(first)).returncode == 0
    before = services.recorder(settings, "local", "default")
    assert before.pipeline.retriever.store.count() == 1

    done = evidence(settings.home, "ingest", str(second))  # another process, as a CLI beside the UI
    assert done.returncode == 0, done.stderr
    after = services.recorder(settings, "local", "default")
    assert after is not before
    hits = after.pipeline.retriever.hybrid_many(["parking permit QX-4471"], 2)[0]
    assert hits and "QX-4471" in hits[0].chunk.text
