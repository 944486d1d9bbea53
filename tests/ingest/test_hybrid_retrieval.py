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


def test_a_chunk_naming_the_asked_code_passes_the_relevance_bar(settings: Settings, docs: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    build_ingestor(settings, embedder=embedder).run([docs])
    retriever = build_retriever(settings, embedder=embedder)
    found = retriever.retrieve("What is QX-4471 for?", 3, min_relevance=0.99)  # no chunk is that similar
    assert [hit.chunk.text for hit in found if "QX-4471" in hit.chunk.text]
    assert all("QX-4471" in hit.chunk.text for hit in found)  # the others stay below the bar


def _one_document(settings: Settings, tmp_path: Path, embedder, text: str):  # type: ignore[no-untyped-def]
    """The retriever of a workspace holding one document of `text` (a guide of several topics, one chunk)."""
    folder = tmp_path / "guide"
    folder.mkdir()
    (folder / "guide.md").write_text(text)
    build_ingestor(settings, embedder=embedder).run([folder])
    return build_retriever(settings, embedder=embedder)


def test_a_chunk_of_several_topics_is_found_by_one_sentence(settings: Settings, tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    # One chunk: a timetable, fares and closures. The whole of it is far from a question about one fare; the
    # sentence stating the fare is not.
    retriever = _one_document(settings, tmp_path, embedder, (
        "# Ferry guide\n\nThe ferry crosses every 40 minutes between 06:20 and 21:40 on weekdays. At weekends the "
        "first crossing is at 08:00. The crossing takes 12 minutes.\n\nA single adult fare costs £4.60 and a "
        "return costs £8.00. Children under 5 travel free. Cars cost £18.50 each way.\n\nSailings are cancelled "
        "when winds exceed 45 knots. Passengers are told by text message 30 minutes before departure.\n"
    ))
    question = "How much is a return ticket for an adult?"
    whole = retriever.hybrid_many([question], 3)[0]
    assert len(whole) == 1 and whole[0].similarity < 0.3  # under the relevance bar as a whole chunk
    found = retriever.retrieve(question, 3, min_relevance=0.3)
    assert [hit.chunk.hash for hit in found] == [whole[0].chunk.hash] and found[0].similarity >= 0.3
    assert not retriever.retrieve("Which grape varieties grow on the island?", 3, min_relevance=0.3)


def test_a_far_chunk_is_read_when_it_has_the_question_s_words(settings: Settings, tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    # A visitor guide of hours, prices and rules as one chunk: as a whole it is less similar to "How deep is the
    # deep end?" than the sentence floor, but it holds the question's words and one of its sentences answers it.
    retriever = _one_document(settings, tmp_path, embedder, (
        "# Visitor guide\n\nThe main pool opens at 6:30 am on weekdays and at 8 am on weekends. It closes at 9 pm. "
        "An adult swim costs £5.20 and children under 16 swim for £2.60. A monthly membership costs £42 and "
        "includes two guest passes. Children under 8 must be accompanied by an adult. Diving is allowed only in "
        "the deep end, which is 3.8 metres deep. Lockers take a refundable £1 coin. Group lessons run in blocks "
        "of ten weeks and cost £65 per block.\n"
    ))
    question = "How deep is the deep end?"
    whole = retriever.hybrid_many([question], 3)[0]
    assert len(whole) == 1 and whole[0].similarity < 0.15  # under the sentence floor as a whole chunk
    found = retriever.retrieve(question, 3, min_relevance=0.3)
    assert [hit.chunk.hash for hit in found] == [whole[0].chunk.hash] and found[0].similarity >= 0.3
    assert not retriever.retrieve("Which grape varieties grow on the island?", 3, min_relevance=0.3)


def test_words_that_only_ask_for_a_kind_of_answer_do_not_count_against_a_chunk(  # type: ignore[no-untyped-def]
        settings: Settings, tmp_path: Path, embedder) -> None:
    # "How long did the trial last?": the abstract holds "trial" and "last" but not "how long", which no passage says
    retriever = _one_document(settings, tmp_path, embedder, (
        "# Morning light and sleep in shift workers: a randomised trial\n\nWe randomised 148 night-shift nurses to "
        "30 minutes of bright light after waking or to dim red light. The trial ran for eight weeks at two hospitals. "
        "Sleep onset latency fell by a mean of 11 minutes in the bright-light group. Total sleep time did not differ "
        "between the groups. Twelve participants withdrew, most often because of changes to their rota.\n"
    ))
    found = retriever.retrieve("How long did the trial last?", 3, min_relevance=0.3)
    assert len(found) == 1 and "eight weeks" in found[0].chunk.text


def test_judge_finds_claim_in_long_chunk_by_keyword(settings: Settings, tmp_path: Path, embedder, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ledger.loop.factory import build_judge

    folder = tmp_path / "ops"
    folder.mkdir()
    long_chunk = (f"{FILLER} Visitors sign in at the front desk and wear a badge. All backups are encrypted with "
                  f"AES-256. The car park closes at ten. {FILLER}")
    (folder / "ops.md").write_text(f"# Operations\n\n{long_chunk}\n")
    build_ingestor(settings, embedder=embedder).run([folder])
    judge = build_judge(settings, embedder=embedder)
    # Without any dense neighbour, the keyword index alone must bring the chunk to the support checker.
    monkeypatch.setattr(judge.retriever, "search_many", lambda texts, k: [[] for _ in texts])
    monkeypatch.setattr(judge.retriever, "keyword_many", lambda texts, words, k: [[] for _ in texts])  # Chroma's
    ledger = judge.run("Are backups encrypted?", "All backups are encrypted with AES-256.")
    assert [e.verdict for e in ledger.entries] == ["supported"]


def test_a_chunk_one_search_ranks_first_by_far_outranks_chunks_both_rank_middling() -> None:
    from ingest.retrieval import fuse

    similarity = {"answer": 0.90, "both-a": 0.50, "both-b": 0.50, "code": 0.40}
    keyword = {"code": 10.0, "both-a": 3.0, "both-b": 3.0}
    # reciprocal rank fusion put "both-a" first: it is second in both rankings
    assert set(fuse(similarity, keyword)[:2]) == {"answer", "code"}
    assert fuse(similarity, {}) == ["answer", "both-a", "both-b", "code"]  # no keyword hits: the dense order
    assert fuse({}, keyword) == []


def test_a_keyword_hit_sharing_one_common_word_with_the_question_does_not_push_the_answer_down() -> None:
    from ingest.retrieval import fuse

    # The best keyword hit gets the whole keyword weight by its BM25 share, however little of the question it holds.
    similarity = {"answer": 0.62, "museum": 0.50, "other": 0.55}
    keyword = {"museum": 4.0}
    assert fuse(similarity, keyword)[0] == "museum"
    assert fuse(similarity, keyword, matched={"museum": 0.25})[0] == "answer"  # one word of four
    assert fuse(similarity, keyword, matched={"museum": 1.0})[0] == "museum"  # every word: still a keyword match


def test_a_sentence_that_leaves_its_subject_to_the_title_is_read_with_the_title(  # type: ignore[no-untyped-def]
        settings: Settings, tmp_path: Path, embedder) -> None:
    # A trading statement of two chunks: the second never names the company, and its one sentence on the question's
    # other words ("Managing director Olu Bankole said: …") is far from the question on its own
    retriever = _one_document(settings, tmp_path, embedder, (
        "# Harrowgate Tiles plc — Half-Year Trading Statement\n\n"
        "Revenue for the six months was £48.2 million, up 3% on last year. Floor tile sales grew 7% while wall tile "
        "sales were flat. The gross margin narrowed to 31% because of higher gas prices at the kiln sites, and the "
        "board expects it to recover in the second half as the new gas contract starts in September. Net cash at the "
        "end of June was £6.1 million, after paying the final dividend of 3.1p per share. Export sales to Ireland and "
        "the Netherlands rose 12% and now make up a fifth of floor tile revenue. The Leyburn showroom closed in April "
        "and its staff moved to the Thirsk site, where the trade counter has been enlarged. Two new glazing lines "
        "were installed at the Ripon works in May at a cost of £2.4 million, and both were running at full speed by "
        "the end of June. Energy use per square metre of tile fell 9% compared with the same period last year.\n\n"
        "## Outlook\n\n"
        "Orders for the third quarter are 6% ahead of last year. The interim dividend will be 1.4p per share, paid on "
        "2 October to shareholders on the register on 4 September. Managing director Olu Bankole said: \"Demand from "
        "housebuilders picked up in May and our order book is the strongest it has been for two years.\" The full-year "
        "results will be announced on 11 March.\n"
    ))
    question = "Who is the managing director of Harrowgate Tiles?"
    found = retriever.retrieve(question, 3, min_relevance=0.3)
    assert any("Olu Bankole" in hit.chunk.text for hit in found), [hit.chunk.text[:60] for hit in found]


def test_a_chunk_with_the_question_s_words_side_by_side_is_read_before_chunks_with_them_apart() -> None:
    # Clauses of a grant letter say "period" and "end" apart and outrank a policy schedule of many fields, all under
    # the relevance bar; only a few such chunks are read sentence by sentence, and the schedule, whose "Period of
    # cover" has the question's words side by side, must be one of them.
    import numpy as np

    from ingest.retrieval import READ_CHUNKS, Retriever
    from ingest.vectorstore import ScoredChunk
    from ledger.judge.candidates import shared_pairs
    from tests.fakes import make_chunk

    clauses = [make_chunk(f"{n}. The grant period may be extended up to {n} months before its end.", doc=f"g{n}")
               for n in range(READ_CHUNKS + 1)]
    schedule = make_chunk("Policyholder: Ms I. Tarrant\nPeriod of cover: 12 March 2027 to 11 March 2028", doc="s")
    hits = [ScoredChunk(c, 0.2) for c in [*clauses, schedule]]

    class Ranked(Retriever):
        def _hybrid(self, texts, k):  # type: ignore[no-untyped-def]
            return np.zeros((1, 4)), [hits], [{}]

        def _best_sentences(self, question, vector, chunks):  # type: ignore[no-untyped-def]
            return [0.6 if chunk is schedule else 0.1 for chunk in chunks]  # the schedule's field answers

    retriever = Ranked(None, None, phrases=shared_pairs)  # type: ignore[arg-type]
    found = retriever.retrieve("When does the period of cover end?", 8, min_relevance=0.3)
    assert [hit.chunk for hit in found] == [schedule]
