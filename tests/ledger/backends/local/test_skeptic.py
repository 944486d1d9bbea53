"""The rule-based skeptic finds each kind of issue, and the local gap finder splits questions into parts. No model."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ledger.backends.base import CritiqueRequest, ExtractRequest
from ledger.backends.local.extractor import RuleClaimExtractor
from ledger.backends.local.questions import question_parts
from ledger.backends.local.skeptic import RuleSkeptic, source_conflicts
from ledger.core.types import Chunk, Critique
from tests.fakes import make_chunk


def critique_of(question: str, draft: str, evidence: list[Chunk]) -> Critique:
    """The rule skeptic's critique."""
    return RuleSkeptic().run(CritiqueRequest(question, draft, evidence))


def gaps_of(question: str, answer: str, evidence: list[Chunk]) -> tuple[float | None, list[str]]:
    """(completeness, gaps) as the offline extractor reports them."""
    found = RuleClaimExtractor().run(ExtractRequest(question, answer, evidence))
    return found.completeness, found.gaps


LODGING_2026 = make_chunk(
    "## 5. Lodging\n\nThe nightly hotel cap is $220 per night, before taxes and resort fees, in all locations except "
    "high-cost cities. In high-cost cities the nightly hotel cap is $340 per night.\n\n## 6. Meals and per diem\n\n"
    "The meal per diem is $75 per day for domestic travel and $95 per day for international travel.",
    "Travel and Expense Policy (2026 edition)", date(2026, 3, 1), "travel2026")
HOTELS_2024 = make_chunk(
    "5. HOTELS\n\nThe nightly hotel cap is $180 per night, before taxes.\n\n6. MEALS\n\nThe meal per diem is $60 per "
    "day for domestic travel. For international travel, the meal per diem is $95 per day.",
    "TRAVEL AND EXPENSE POLICY (2024 EDITION)", date(2024, 1, 15), "travel2024")
REFUNDS = make_chunk(
    "Card refunds may take up to 10 further banking days to appear on the customer's statement, depending on the "
    "card issuer. Support usually answers a refund request within 48 hours.",
    "Customer Refund Procedure", date(2026, 2, 9), "refunds")
EVIDENCE = [LODGING_2026, REFUNDS]
QUESTION = "What is the nightly hotel cap?"
CLEAN = f"The nightly hotel cap is $220 per night, before taxes and resort fees [cite:{LODGING_2026.hash}]."


def kinds(critique: Critique) -> list[str]:
    return [issue.kind for issue in critique.issues]


def test_a_clean_draft_has_no_issues_and_the_summary_says_what_was_checked() -> None:
    critique = critique_of(QUESTION, CLEAN, EVIDENCE)
    assert critique.issues == []
    assert critique.summary.startswith("Checked 1 claim sentence against 2 evidence chunks: every claim is cited")


def test_an_uncited_claim_is_reported() -> None:
    draft = CLEAN + " In high-cost cities the nightly hotel cap is $340 per night."
    critique = critique_of(QUESTION, draft, EVIDENCE)
    assert kinds(critique) == ["uncited"]
    assert critique.issues[0].sentence == "In high-cost cities the nightly hotel cap is $340 per night."
    assert "1 uncited sentence" in critique.summary


def test_a_figure_no_chunk_states_is_reported_with_the_figure_the_evidence_has() -> None:
    draft = f"The nightly hotel cap is $250 per night [cite:{LODGING_2026.hash}]."
    issues = critique_of(QUESTION, draft, EVIDENCE).issues
    assert [i.kind for i in issues] == ["unknown_figure"]
    assert issues[0].message.startswith("$250 per night appears in none of the evidence retrieved")


def test_the_figure_compared_with_is_the_one_in_the_quote_named() -> None:
    draft = f"The nightly hotel cap for standard locations is $250 per night [cite:{LODGING_2026.hash}]."
    issue = critique_of(QUESTION, draft, EVIDENCE).issues[0]
    assert issue.kind == "unknown_figure"
    assert ("the evidence on the same subject states $220 per night ('Travel and Expense Policy (2026 edition)': "
            '"The nightly hotel cap is $220 per night, before taxes and resort fees') in issue.message
    assert "$340" not in issue.message  # the high-cost cap is about other locations: never "compares $250 with $340"


def test_an_ambiguous_figure_names_every_candidate_with_its_own_quote() -> None:
    draft = f"The nightly hotel cap is $250 per night [cite:{LODGING_2026.hash}]."
    message = critique_of(QUESTION, draft, EVIDENCE).issues[0].message
    named = re.findall(r"(\$\d+ per night) \('[^']+': \"([^\"]+)\"\)", message)
    assert [figure for figure, _ in named] == ["$220 per night", "$340 per night"]
    assert all(figure in quote for figure, quote in named)


def test_a_figure_on_another_subject_is_never_offered_as_the_right_one() -> None:
    draft = f"Card refunds appear within 99 banking days [cite:{REFUNDS.hash}]. The hotel cap is $250 [cite:x]."
    messages = [i.message for i in critique_of(QUESTION, draft, [REFUNDS]).issues if i.kind == "unknown_figure"]
    assert any(m.startswith("99 banking days") and "10 further banking days" in m for m in messages)
    assert any(m == "$250 appears in none of the evidence retrieved for the question." for m in messages)


def test_the_older_figure_is_blamed_only_when_the_draft_states_it() -> None:
    evidence = [LODGING_2026, HOTELS_2024]
    third = critique_of(QUESTION, f"The nightly hotel cap is $250 per night [cite:{HOTELS_2024.hash}].", evidence)
    assert not any("The draft states the older figure" in i.message for i in third.issues)
    newer = critique_of(QUESTION, f"The nightly hotel cap is $220 per night [cite:{LODGING_2026.hash}].", evidence)
    assert not any("The draft states the older figure" in i.message for i in newer.issues)


def test_a_paraphrased_figure_is_not_unknown() -> None:
    draft = f"Support usually answers a refund request within two days [cite:{REFUNDS.hash}]."
    assert "unknown_figure" not in kinds(critique_of("How fast is a refund request answered?", draft, EVIDENCE))


def test_a_citation_to_a_chunk_outside_the_evidence_is_a_phantom() -> None:
    draft = "The nightly hotel cap is $220 per night [cite:deadbeef0000]."
    issues = critique_of(QUESTION, draft, EVIDENCE).issues
    assert [i.kind for i in issues] == ["phantom_citation"]
    assert "deadbeef0000" in issues[0].message


def test_conflicting_editions_are_reported_with_both_documents_and_dates() -> None:
    draft = f"The nightly hotel cap is $180 per night [cite:{HOTELS_2024.hash}]."
    critique = critique_of(QUESTION, draft, [LODGING_2026, HOTELS_2024])
    conflicts = [i for i in critique.issues if i.kind == "conflict"]
    hotel = next(i for i in conflicts if "$180" in i.message)
    for name in ("Travel and Expense Policy (2026 edition)", "2026-03-01", "TRAVEL AND EXPENSE POLICY (2024 EDITION)",
                 "2024-01-15", "$220 per night", "the newer document prevails", "The draft states the older figure"):
        assert name in hotel.message
    assert hotel.sentence == "The nightly hotel cap is $180 per night."
    assert any("$60 per day" in i.message for i in conflicts)  # the per diem differs too
    assert not any("$95" in i.message.split("(")[0] for i in conflicts)  # $95 international agrees in both


def test_source_conflicts_pair_each_sentence_with_its_own_counterpart() -> None:
    pairs = {(c.older_figure, c.newer_figure) for c in source_conflicts([LODGING_2026, HOTELS_2024])}
    assert pairs == {("$180 per night", "$220 per night"), ("$60 per day", "$75 per day")}  # never $180 vs $340


@pytest.mark.parametrize(
    ("sentence", "hedge"),
    [("The nightly hotel cap is probably $220 per night", "probably"),
     ("I believe the nightly hotel cap is $220 per night", "I believe"),
     ("The nightly hotel cap is typically $220 per night", "typically"),
     ("The nightly hotel cap might be $220 per night", "might")],
)
def test_hedges_are_reported(sentence: str, hedge: str) -> None:
    issues = critique_of(QUESTION, f"{sentence} [cite:{LODGING_2026.hash}].", EVIDENCE).issues
    assert "hedge" in [i.kind for i in issues]
    assert f'"{hedge}"' in next(i.message for i in issues if i.kind == "hedge")


def test_a_hedge_quoted_from_the_evidence_is_not_the_writers_hedge() -> None:
    draft = f"Support usually answers a refund request within 48 hours [cite:{REFUNDS.hash}]."
    assert "hedge" not in kinds(critique_of("How fast is a refund request answered?", draft, EVIDENCE))


def test_a_part_of_the_question_the_draft_leaves_out_is_unanswered() -> None:
    question = "What is the nightly hotel cap and the meal per diem?"
    critique = critique_of(question, CLEAN, EVIDENCE)
    assert kinds(critique) == ["unanswered"]
    assert critique.issues[0].message == "The draft does not answer: The meal per diem."


def test_an_abstention_leaves_the_whole_question_unanswered() -> None:
    draft = "The documents do not state the maximum daily cost for a rental car."
    critique = critique_of("What is the maximum daily cost for a rental car?", draft, EVIDENCE)
    assert kinds(critique) == ["unanswered"]


@pytest.mark.parametrize(
    ("question", "parts"),
    [("What is the nightly hotel cap?", ["What is the nightly hotel cap"]),
     ("What are the hotel cap and the per diem?", ["What are the hotel cap", "the per diem"]),
     ("What does the travel and expense policy say about hotels?",
      ["What does the travel and expense policy say about hotels"]),
     ("How many days can I work remotely, and how long can I work from abroad?",
      ["How many days can I work remotely", "how long can I work from abroad"]),
     ("Who approves business class? What is the mileage rate?", ["Who approves business class",
                                                                  "What is the mileage rate"])],
)
def test_questions_split_at_question_marks_and_conjunctions_that_start_a_request(question: str,
                                                                                 parts: list[str]) -> None:
    assert [p.text for p in question_parts(question)] == parts


def test_the_gap_finder_reports_completeness_and_the_uncovered_parts() -> None:
    question = "What is the nightly hotel cap, and how many vacation days do employees get?"
    assert gaps_of(question, CLEAN, EVIDENCE) == (0.5, ["How many vacation days do employees get"])
    assert gaps_of(QUESTION, CLEAN, EVIDENCE) == (1.0, [])
    # A part that asks for a figure is not covered by a claim without one.
    assert gaps_of(QUESTION, f"Hotels have a nightly cap [cite:{LODGING_2026.hash}].", EVIDENCE)[0] == 0.0
    # Word forms count: "mileage" is covered by "per mile".
    mileage = "Employees are reimbursed at $0.70 per mile [cite:abc]."
    assert gaps_of("What is the mileage rate?", mileage, []) == (1.0, [])


def test_a_claim_answers_with_the_title_of_what_it_cites_and_in_other_words() -> None:
    guide = make_chunk("Group lessons run in blocks of ten weeks and cost £65 per block. An adult swim costs £5.20.",
                       "Riverside Leisure Centre: Visitor Guide", date(2026, 5, 1), "guide")
    lessons = f"Group lessons run in blocks of ten weeks and cost £65 per block [cite:{guide.hash}]."
    # "leisure centre" is the title of the cited guide; the claim need not repeat it
    assert gaps_of("How much does the leisure centre charge for lessons?", lessons, [guide]) == (1.0, [])
    # ... and only of a chunk it cites, or, citing none (a draft written elsewhere), of the chunk holding its words
    other = make_chunk("Parking is free for visitors.", "Harbour Car Park", date(2026, 5, 1), "park")
    assert gaps_of("How much do leisure centre lessons cost?", f"{lessons[:-21]} [cite:{other.hash}].",
                   [guide, other])[0] == 0.0
    uncited = "Group lessons run in blocks of ten weeks and cost £65 per block."
    assert gaps_of("How much do leisure centre lessons cost?", uncited, [guide, other]) == (1.0, [])
    assert gaps_of("How much do leisure centre lessons cost?", "Lessons cost £65 per term at the harbour sailing club.",
                   [guide, other])[0] == 0.0  # the guide holds under half its words
    # "charge" said as "costs"
    adult = f"An adult swim costs £5.20 [cite:{guide.hash}]."
    assert gaps_of("What does the pool charge an adult?", adult, [guide]) == (1.0, [])
    assert gaps_of("What does the pool charge a child?", adult, [guide])[0] == 0.0


def test_a_claim_answers_with_the_heading_above_it_inside_the_chunk_it_cites() -> None:
    policy = make_chunk("## What is covered\n\nJewellery is covered up to £5,000.\n\n## What is not covered\n\nWe "
                        "will not pay for:\n\n- loss caused by wear and tear;\n- theft from a home left empty for "
                        "more than 60 days.", "Home insurance", date(2026, 5, 1), "ins")
    items = (f"We will not pay for: loss caused by wear and tear [cite:{policy.hash}]. We will not pay for: theft "
             f"from a home left empty for more than 60 days [cite:{policy.hash}].")
    assert gaps_of("What is not covered by the policy?", items, [policy]) == (1.0, [])
    # the heading over the lines the claims come from, not every heading of the chunk
    assert gaps_of("What is the excess?", items, [policy])[0] == 0.0


@pytest.mark.parametrize(("question", "wants"), [
    ("How is boat length measured?", False), ("How are late fees calculated?", False),
    ("How much is the late fee?", True), ("How long is the course?", True), ("What is the length of a berth?", True),
    ("How is the fee worked out, and how much is it?", True),
])
def test_a_question_about_a_way_of_doing_something_asks_for_no_figure(question: str, wants: bool) -> None:
    from ledger.backends.local.questions import wants_figure

    assert wants_figure(question) is wants


def test_a_day_in_words_answers_when() -> None:
    cut = "Every release is cut from the main branch on Tuesday mornings [cite:abc]."
    assert gaps_of("When are releases cut?", cut, []) == (1.0, [])
    assert gaps_of("When are releases cut?", "Releases are cut from the main branch [cite:abc].", [])[0] == 0.0
