"""The whole loop on the sample corpus: offline (local backend) and with Claude faked at the HTTP layer."""

from __future__ import annotations

import json
import re
from datetime import date

import httpx2
import pytest

from ledger.backends.base import NO_EVIDENCE_ANSWER
from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor, build_pipeline
from ledger.loop.pipeline import Pipeline
from ledger.text.sentences import parse_citations, split_sentences
from tests.conftest import SAMPLE_DOCS
from tests.fake_claude import FakeClaude

pytestmark = pytest.mark.model
TODAY = date(2026, 11, 21)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, embedder) -> Settings:  # type: ignore[no-untyped-def]
    settings = Settings(home=tmp_path_factory.mktemp("e2e_home"))
    assert not build_ingestor(settings, embedder=embedder).run([SAMPLE_DOCS]).failed
    return settings


@pytest.fixture(scope="module")
def local(corpus: Settings, embedder) -> Pipeline:  # type: ignore[no-untyped-def]
    return build_pipeline(corpus, today=TODAY, embedder=embedder)


def test_offline_answer_cites_existing_chunks_in_every_sentence(local: Pipeline) -> None:
    result = local.ask("What is the nightly hotel cap for standard locations?")
    known = {c.hash for c in local.judge.store.all_chunks()}
    sentences = [s for s, _, _ in split_sentences(result.answer)]
    assert sentences
    for sentence in sentences:
        _, cited = parse_citations(sentence)
        assert cited and set(cited) <= known, sentence
    assert "$220" in result.answer and "$180" not in result.answer  # the current edition, not the outdated one
    assert result.ledger.summary.evidence_coverage >= 0.85


def test_offline_verify_fixes_a_planted_wrong_figure_and_invented_rule(local: Pipeline) -> None:
    draft = (
        "The nightly hotel cap for standard locations is $250. "
        "Expense reports must be submitted within 30 days after the trip ends. "
        "Every employee receives a $1,000 annual wellness stipend."
    )
    result = local.verify("What are the travel expense rules?", draft)
    first, final = result.revisions[0].ledger, result.ledger
    assert result.revisions[0].response == draft
    assert first.summary.verdicts["contradicted"] >= 1
    assert final.summary.evidence_coverage >= 0.85
    assert final.summary.verdicts["contradicted"] == 0
    assert "$250" not in result.answer and "wellness stipend" not in result.answer.split("do not state")[0]


def test_offline_question_with_no_relevant_evidence_gets_the_canned_answer(local: Pipeline) -> None:
    result = local.ask("What is the airspeed velocity of an unladen swallow?")
    assert result.answer == NO_EVIDENCE_ANSWER
    assert [f.type for f in result.risk_flags] == ["no_evidence"]


def _support_reply(good: str) -> object:
    """A support reply that answers every pair: full for the `good` chunk, none for the rest."""

    def reply(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        text = "".join(b.get("text", "") for m in body["messages"] for b in m["content"])
        pairs = re.findall(r'<pair n="(\d+)" evidence="([0-9a-f]+)"', text)
        results = [
            {
                "pair": int(n),
                "support": "full" if h == good else "none",
                "quote": "The nightly hotel cap is $220 per night" if h == good else "",
                "reason": "states it",
            }
            for n, h in pairs
        ]
        message = {
            "id": "msg_s",
            "type": "message",
            "role": "assistant",
            "model": "fake",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 900, "output_tokens": 80},
            "content": [{"type": "tool_use", "id": "toolu_s", "name": "submit_support", "input": {"results": results}}],
        }
        return httpx2.Response(200, json=message)

    return reply


def test_claude_backend_runs_the_loop_within_four_calls_per_round(corpus: Settings, embedder) -> None:  # type: ignore[no-untyped-def]
    settings = corpus.model_copy(update={"backend": "anthropic"}, deep=True)
    settings.anthropic.api_key = "test-key"
    fake = FakeClaude()
    pipeline = build_pipeline(settings, today=TODAY, embedder=embedder, http_client=fake.http_client())
    judge = pipeline.judge
    hotel = next(c for c in judge.store.all_chunks() if "$220 per night" in c.text)
    fake.enqueue_tool("submit_answer", {"answer": f"The nightly hotel cap is $220 per night [cite:{hotel.hash}]."})
    fake.enqueue_tool("submit_critique", {"issues": [], "summary": "Well supported."})
    fake.enqueue_tool(
        "submit_claims",
        {"claims": [{"sentence": 1, "type": "numeric", "importance": "critical"}], "completeness": 1.0, "gaps": []},
    )
    fake.queue.append(_support_reply(hotel.hash))  # type: ignore[arg-type]
    result = pipeline.ask("What is the nightly hotel cap?")
    assert fake.tool_names == ["submit_answer", "submit_critique", "submit_claims", "submit_support"]
    assert result.llm_calls == 4 and len(result.revisions) == 1
    assert result.token_usage.input_tokens >= 900
    entry = result.ledger.entries[0]
    assert entry.verdict == "supported" and entry.evidence[0].chunk_hash == hotel.hash
    # The chunk text reaches the model only inside evidence blocks.
    for request in fake.requests:
        for text in FakeClaude.texts(request):
            outside = re.sub(r"<evidence\b.*?</evidence>", "", text, flags=re.S)
            assert "$220 per night, before taxes" not in outside


def test_claude_backend_makes_no_call_when_nothing_is_relevant(corpus: Settings, embedder) -> None:  # type: ignore[no-untyped-def]
    settings = corpus.model_copy(update={"backend": "anthropic"}, deep=True)
    settings.anthropic.api_key = "test-key"
    fake = FakeClaude()
    pipeline = build_pipeline(settings, today=TODAY, embedder=embedder, http_client=fake.http_client())
    result = pipeline.ask("What is the airspeed velocity of an unladen swallow?")
    assert result.answer == NO_EVIDENCE_ANSWER and fake.requests == [] and result.llm_calls == 0
