"""Three `evidence` processes at once on one fresh home, in a short loop: nothing lost, nothing locked, no errors.

Round 1 starts on a fresh home (Chroma and the database are created by whichever process comes first): two
ingests of the same folder and one of another folder, all into one workspace. Round 2 adds files and runs an
ingest of them into another workspace beside two asks. Afterwards
every process exited 0, no stderr mentions a locked database, Chroma or a traceback, the doctor's check finds
nothing, and every document and every run is there with an intact audit chain. The processes use the instant
hash embedder (tests/stress/fast_cli.py); everything else is the product.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.consistency import check_workspace
from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor, build_registry, build_run_store
from tests.fakes import HashEmbedder
from tests.stress.fast_cli import start

BAD_STDERR = re.compile(r"database is locked|already exists|chroma|traceback|internal error|error:", re.IGNORECASE)


def _write(folder: Path, names: range, topic: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in names:
        (folder / f"{topic}_{i:02}.md").write_text(
            f"# {topic.title()} note {i}\n\nThe {topic} desk {i} opens at {i % 12 + 1} o'clock and serves "
            f"{i * 7} visitors a day. Requests for desk {i} need {i % 4 + 1} approvals.\n"
        )


def _run_round(home: Path, commands: list[tuple[str, ...]]) -> list[tuple[tuple[str, ...], int, str]]:
    procs = [(args, start(home, *args)) for args in commands]
    done = []
    for args, proc in procs:
        _, err = proc.communicate(timeout=300)
        done.append((args, proc.returncode, err))
    return done


def test_three_processes_at_once_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first, second = tmp_path / "first", tmp_path / "second"
    _write(first, range(0, 6), "parking")
    _write(second, range(0, 4), "canteen")
    results = _run_round(home, [("ingest", str(first)), ("ingest", str(first)), ("ingest", str(second))])
    _write(first, range(6, 10), "parking")  # the next ingest has work to do while the asks run
    results += _run_round(home, [("ask", "When does the parking desk open?"), ("ask", "How many approvals?"),
                                 ("ingest", str(first), "-w", "team a")])

    for args, code, err in results:
        assert code == 0, f"{args} exited {code}: {err[-2000:]}"
        assert not BAD_STDERR.search(err), f"{args} printed: {err[-2000:]}"

    settings = Settings(home=home)
    for workspace, expected in (("default", 6 + 4), ("team a", 10)):
        assert len(build_registry(settings, workspace).all()) == expected, workspace
        ingestor = build_ingestor(settings, workspace, embedder=HashEmbedder())
        assert check_workspace(ingestor) == []  # every document has all its vectors, and no vector is stray
    store = build_run_store(settings)
    assert len(store.list_runs()) == 2  # both asks were recorded
    report = store.verify()
    assert report.ok and report.rows_checked == 2, report
