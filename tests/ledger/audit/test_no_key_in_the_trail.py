"""The Claude API key never reaches the database, the audit rows, the exports or any file under EVIDENCE_HOME,
for a run that succeeds and one whose failure message quotes the key back (a proxy or a server echoing headers)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx2
import pytest

from ledger.core.settings import Settings
from ledger.exports.json_csv import FORMATS, export_run
from ledger.loop.factory import build_ingestor, build_recorded, build_run_store
from tests.fake_claude import FakeClaude

pytestmark = pytest.mark.model
KEY = "sk-ant-api03-FAKEKEY-do-not-leak-7f3a9c1e2b"


def _support_for_every_pair(request: httpx2.Request) -> httpx2.Response:
    body = json.loads(request.content)
    text = "".join(b.get("text", "") for m in body["messages"] for b in m["content"])
    results = [{"pair": int(n), "support": "full", "quote": "The nightly hotel cap is $220 per night",
                "reason": "states it"} for n, _ in re.findall(r'<pair n="(\d+)" evidence="([0-9a-f]+)"', text)]
    message = {"id": "msg_s", "type": "message", "role": "assistant", "model": "fake", "stop_reason": "tool_use",
               "stop_sequence": None, "usage": {"input_tokens": 90, "output_tokens": 8},
               "content": [{"type": "tool_use", "id": "toolu_s", "name": "submit_support",
                            "input": {"results": results}}]}
    return httpx2.Response(200, json=message)


def _echo_the_key(request: httpx2.Request) -> httpx2.Response:
    sent = request.headers.get("x-api-key") or request.headers.get("authorization", "")
    error = {"type": "permission_error", "message": f"key {sent} may not use this model"}
    return httpx2.Response(403, json={"type": "error", "error": error})


def test_the_api_key_is_nowhere_in_the_trail(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             embedder) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("EVIDENCE_ANTHROPIC__API_KEY", KEY)
    monkeypatch.setenv("EVIDENCE_BACKEND", "anthropic")
    settings = Settings()
    assert settings.anthropic.api_key is not None and settings.anthropic.api_key.get_secret_value() == KEY
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "travel.md").write_text("# Travel\n\nThe nightly hotel cap is $220 per night in standard cities.\n")
    assert not build_ingestor(settings, embedder=embedder).run([docs]).failed

    fake = FakeClaude()
    recorded = build_recorded(settings, embedder=embedder, http_client=fake.http_client())
    chunk = next(c for c in recorded.pipeline.judge.store.all_chunks() if "$220" in c.text)
    fake.enqueue_tool("submit_answer", {"answer": f"The nightly hotel cap is $220 per night [cite:{chunk.hash}]."})
    fake.enqueue_tool("submit_critique", {"issues": [], "summary": "Supported."})
    fake.enqueue_tool("submit_claims", {"claims": [{"sentence": 1, "type": "numeric", "importance": "critical"}],
                                        "completeness": 1.0, "gaps": []})
    fake.queue.append(_support_for_every_pair)
    ok = recorded.ask("What is the nightly hotel cap?")
    assert ok.ledger.entries and any(KEY in value for value in fake.headers[0].values())  # the key was really sent

    fake.queue.append(_echo_the_key)
    with pytest.raises(Exception, match="403"):
        recorded.ask("What is the nightly hotel cap in standard cities?")

    store = build_run_store(settings)
    failed = next(r for r in store.list_runs() if r.status == "failed")
    assert failed.error and "403" in failed.error and "***" in failed.error and KEY not in failed.error
    out = tmp_path / "exports"
    out.mkdir()
    for record in store.list_runs():
        for fmt in FORMATS:
            (out / f"{record.session_id}.{fmt}").write_bytes(
                export_run(store.get_run(record.session_id), record, fmt).data)
    store.engine.dispose()  # flush the WAL so the database file holds everything

    files = [p for root in (home, out) for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "ledger.db" for p in files) and len(list(out.iterdir())) == 6
    leaks = [p for p in files if KEY.encode() in p.read_bytes()]
    assert leaks == []
