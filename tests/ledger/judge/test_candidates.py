"""Candidate search: a claim the documents state is found, however much else its chunk says."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from ledger.core.settings import Settings
from ledger.judge.candidates import claim_names, keyword_terms, rank_candidates
from ledger.loop.factory import build_ingestor, build_judge
from tests.fakes import make_chunk

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "data" / "retrieval"


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("All backups are encrypted with AES-256.", [["AES-256"], ["encrypted", "Encrypted"]]),
        ("The Velt orchid flowers in June.", [["Velt"], ["June"]]),
        ("Model SX-3000 weighs 21 kg.", [["SX-3000"], ["21"]]),
        ("Enrolment ran from March 2021 to August 2022.", [["2021"], ["2022"], ["Enrolment", "enrolment"]]),
    ],
)
def test_keyword_terms_are_codes_and_figures_then_names_then_long_words(claim: str,
                                                                        expected: list[list[str]]) -> None:
    assert keyword_terms(claim)[: len(expected)] == expected


def test_a_chunk_is_ranked_by_its_best_sentence_not_by_its_whole_text() -> None:
    long_chunk = make_chunk("First topic sentence. Second topic sentence. The stated claim.", doc="a")
    other = make_chunk("Something else entirely.", doc="b")
    vectors = {"First topic sentence.": np.array([0.0, 1.0]), "Second topic sentence.": np.array([0.0, 1.0]),
               "The stated claim.": np.array([1.0, 0.0]), "Something else entirely.": np.array([0.6, 0.8])}
    ranked = rank_candidates(np.array([1.0, 0.0]), [other, long_chunk], vectors, 0.5, 5)
    assert [(c.document_id, round(s, 2)) for c, s in ranked] == [("a", 1.0), ("b", 0.6)]
    assert rank_candidates(np.array([1.0, 0.0]), [other], vectors, 0.7, 5) == []


def test_a_sentence_of_a_section_is_also_ranked_with_the_section_s_headings() -> None:
    # "moved to defer the decision" says nothing of parking but under the heading "High Street parking changes"
    chunk = make_chunk("Councillor Marsh moved to defer the decision.").model_copy(
        update={"section": "High Street parking changes"})
    vectors = {"Councillor Marsh moved to defer the decision.": np.array([0.0, 1.0]),
               "High Street parking changes": np.array([1.0, 0.0])}
    claim = np.array([0.8, 0.6])
    ranked = rank_candidates(claim, [chunk], vectors, 0.9, 5)
    assert [round(s, 2) for _, s in ranked] == [0.99]  # (0.8 + 0.6) / sqrt(2): the mean of heading and sentence
    assert rank_candidates(claim, [chunk.model_copy(update={"section": ""})], vectors, 0.9, 5) == []


def test_a_sentence_naming_someone_the_claim_names_needs_less_similarity() -> None:
    # "Jonah Blackwood is the General Manager": the one sentence naming him scores 0.39, under the 0.45 bar
    chunk = make_chunk("Prepared by Ruth Ellingham, General Manager, with Jonah Blackwood, Finance Manager.", doc="r")
    vectors = {chunk.text: np.array([0.4, np.sqrt(1 - 0.16)])}
    claim = np.array([1.0, 0.0])
    names = claim_names("Jonah Blackwood is the centre's General Manager.")
    assert names == ["Jonah Blackwood", "General Manager"] and claim_names("The Board met.") == []
    assert [c.document_id for c, _ in rank_candidates(claim, [chunk], vectors, 0.45, 5, names=names)] == ["r"]
    assert rank_candidates(claim, [chunk], vectors, 0.45, 5, names=["Tom Achebe"]) == []
    vectors = {chunk.text: np.array([0.2, np.sqrt(1 - 0.04)])}
    assert rank_candidates(claim, [chunk], vectors, 0.45, 5, names=names) == []  # a name alone is not enough


DOCUMENTS = ["beetle_pelorix_ambraensis.md", "beetle_pelorix_montivagus.md", "lumen2_trial_summary.md",
             "lease_agreement_12_quarry_lane.txt", "nordvik_dw4410_dishwasher_manual.md", "river_ostrel.md",
             "tessellate_changelog.md", "wrenfield_bridge_inspection_2024.md"]


@pytest.mark.model
def test_a_sentence_stated_in_a_long_mixed_chunk_is_never_not_found(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in DOCUMENTS:  # other-genre documents with long chunks that mix topics, two of them near-duplicates
        (docs / name).write_text((CORPUS / "docs_a" / name).read_text())
    settings = Settings(home=tmp_path / "home")
    assert not build_ingestor(settings, embedder=embedder).run([docs]).failed
    questions = [json.loads(line) for line in (CORPUS / "questions_a.jsonl").read_text().splitlines() if line]
    # Whole sentences of the documents (not table rows or list items), as a draft would state them.
    stated = [q["evidence"] for q in questions if q["answerable"] and q["document"].split("/")[-1] in DOCUMENTS
              and q["evidence"].endswith(".") and "|" not in q["evidence"] and not q["evidence"].startswith("-")]
    assert len(stated) >= 20
    judge = build_judge(settings, embedder=embedder, today=date(2026, 11, 21))
    ledger = judge.run("What do the documents say?", " ".join(stated))
    missed = [e.claim.text for e in ledger.entries if e.verdict == "not_found"]
    assert len(ledger.entries) >= 20 and not missed, missed


def test_retrieval_reads_only_the_sentences_of_a_chunk_that_share_a_word_with_the_question() -> None:
    from ledger.judge.candidates import sentences_to_read

    chunk = make_chunk("The ferry crosses every 40 minutes. A return ticket costs £8.00. Dogs travel free. "
                       "Sailings stop in gales. The café sells tea.")
    read = sentences_to_read("How much is a return ticket?", chunk)
    assert read and read[0] == "A return ticket costs £8.00."
    assert len(read) <= 3 and "The café sells tea." not in read
    assert sentences_to_read("Which grapes grow on the island?", chunk) == []  # nothing shared: nothing embedded
