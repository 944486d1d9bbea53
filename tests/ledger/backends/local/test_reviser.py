"""The deterministic reviser (seed 004 §6.2): fix wrong figures, drop or qualify invented rules, repair citations."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ledger.backends.local.reviser import RuleReviser, qualified
from ledger.backends.local.writer import LocalWriter
from ledger.core.settings import RevisionSettings, Settings
from ledger.core.types import (
    Chunk,
    EvidenceLedger,
    EvidenceMatch,
    LedgerEntry,
    RevisionDecision,
    Support,
    Verdict,
)
from ledger.judge.claims import exclusion_reason, extract_claims
from ledger.judge.judge import Judge
from ledger.judge.metrics import summarize
from ledger.judge.support import LocalSupportChecker
from ledger.loop.factory import build_ingestor, build_judge
from ledger.text.sentences import parse_citations, split_sentences
from tests.conftest import SAMPLE_DOCS
from tests.fakes import make_chunk

LODGING = make_chunk(
    "## 5. Lodging\n\nThe nightly hotel cap is $220 per night, before taxes and resort fees, in all locations except "
    "high-cost cities. In high-cost cities the nightly hotel cap is $340 per night.",
    "Travel and Expense Policy (2026 edition)", date(2026, 3, 1), "travel2026")
REPORTS = make_chunk(
    "## 10. Expense reports and reimbursement\n\nExpense reports must be submitted in ExpenseHub within 30 days after "
    "the trip ends. A receipt is required for every single expense of $40 or more.",
    "Travel and Expense Policy (2026 edition)", date(2026, 3, 1), "travel2026")
SECURITY = make_chunk(
    "Anyone who discovers a security incident, or suspects one, must report it to the Security Operations Center "
    "within 4 hours of discovery.", "Information Security Policy", date(2026, 4, 1), "security")
EVIDENCE = [LODGING, REPORTS, SECURITY]
QUESTION = "What are the rules for hotels and expense reports?"
DECISION = RevisionDecision(should_revise=True, reason="Claims contradict evidence")

WRONG = f"The nightly hotel cap is $180 per night [cite:{LODGING.hash}]."
INVENTED = f"Employees must book hotels at least 30 days before travel [cite:{REPORTS.hash}]."
UNCITED = "A receipt is required for every single expense of $40 or more."
GOOD = f"Expense reports must be submitted in ExpenseHub within 30 days after the trip ends [cite:{REPORTS.hash}]."


def match(chunk: Chunk, support: Support, quote: str, cited: bool = True) -> EvidenceMatch:
    return EvidenceMatch(chunk_hash=chunk.hash, document=chunk.title, doc_date=chunk.doc_date, similarity=0.8,
                         support=support, quote=quote, match_type="cited" if cited else "semantic")


Judged = tuple[Verdict, list[EvidenceMatch], list[str]]


def ledger_for(draft: str, verdicts: dict[str, Judged]) -> EvidenceLedger:
    """A ledger for `draft` with the given verdict, evidence and flags per claim (keyed by a word of its text)."""
    entries = []
    for claim in extract_claims(draft, QUESTION):
        key = next(k for k in verdicts if k in claim.text)
        verdict, evidence, flags = verdicts[key]
        entries.append(LedgerEntry(claim=claim, verdict=verdict, confidence=0.9 if evidence else 0.0,
                                   evidence=evidence, flags=flags))
    return EvidenceLedger(entries=entries, summary=summarize(entries))


CAP_2026 = ("The nightly hotel cap is $220 per night, before taxes and resort fees, in all locations except "
            "high-cost cities.")
RECEIPT = "A receipt is required for every single expense of $40 or more."
SUBMIT = "Expense reports must be submitted in ExpenseHub within 30 days after the trip ends."


def revise(draft: str, ledger: EvidenceLedger) -> str:
    return RuleReviser(LocalWriter(object(), RevisionSettings())).revise(QUESTION, draft, ledger, EVIDENCE)  # type: ignore[arg-type]


def test_a_wrong_figure_is_replaced_by_the_evidence_sentence_with_its_citation() -> None:
    ledger = ledger_for(WRONG, {"$180": ("contradicted", [match(LODGING, "contradicted", CAP_2026)], [])})
    assert revise(WRONG, ledger) == f"{CAP_2026[:-1]} [cite:{LODGING.hash}]."


def test_the_correction_is_the_quote_sentence_that_states_the_other_figure() -> None:
    quote = f"Lodging … {CAP_2026} In high-cost cities the nightly hotel cap is $340 per night."
    ledger = ledger_for(WRONG, {"$180": ("contradicted", [match(LODGING, "contradicted", quote)], [])})
    assert "$220 per night" in revise(WRONG, ledger)


def test_a_correction_leaves_the_clause_number_of_the_document_out() -> None:
    numbered = make_chunk("4. Payment\n\n4.2 The hirer pays a deposit of £250 when booking.", "Hire terms",
                          date(2026, 1, 5), "hire")
    draft = f"The hirer pays a deposit of £150 when booking [cite:{numbered.hash}]."
    quote = "4.2 The hirer pays a deposit of £250 when booking."
    ledger = ledger_for(draft, {"£150": ("contradicted", [match(numbered, "contradicted", quote)], [])})
    revised = RuleReviser(LocalWriter(object(), RevisionSettings())).revise(QUESTION, draft, ledger, [numbered])  # type: ignore[arg-type]
    assert revised == f"The hirer pays a deposit of £250 when booking [cite:{numbered.hash}]."


def test_a_correction_the_draft_already_states_is_not_repeated() -> None:
    right = f"{CAP_2026[:-1]} [cite:{LODGING.hash}]."
    draft = f"{right} {WRONG}"
    ledger = ledger_for(draft, {"$220": ("supported", [match(LODGING, "full", CAP_2026)], []),
                                "$180": ("contradicted", [match(LODGING, "contradicted", CAP_2026)], [])})
    assert revise(draft, ledger) == right


def test_an_invented_rule_is_removed_and_a_critical_one_qualified() -> None:
    draft = f"{GOOD} {INVENTED}"
    ok: Judged = ("supported", [match(REPORTS, "full", SUBMIT)], [])
    ledger = ledger_for(draft, {"ExpenseHub": ok, "book hotels": ("not_found", [], [])})
    assert ledger.entries[1].claim.importance == "critical"  # it states a number
    revised = revise(draft, ledger)
    assert revised == f"{GOOD} {qualified('Employees must book hotels at least 30 days before travel.')}"
    qualifier = split_sentences(revised)[1][0]
    assert qualifier == "The documents do not state that employees must book hotels at least 30 days before travel."
    assert exclusion_reason(qualifier) == "meta"  # no claim left for the judge to count
    non_critical = ledger.model_copy(deep=True)
    non_critical.entries[1].claim.importance = "material"
    assert revise(draft, non_critical) == GOOD


def test_an_uncited_true_sentence_gets_the_deciding_chunks_citation() -> None:
    ledger = ledger_for(UNCITED, {"receipt": ("supported", [match(REPORTS, "full", RECEIPT, cited=False)],
                                              ["uncited"])})
    assert revise(UNCITED, ledger) == f"{RECEIPT[:-1]} [cite:{REPORTS.hash}]."


def test_a_misattributed_or_phantom_citation_is_repointed() -> None:
    for bad in (SECURITY.hash, "deadbeef0000"):
        draft = f"{RECEIPT[:-1]} [cite:{bad}]."
        evidence = [match(REPORTS, "full", RECEIPT, cited=False), match(SECURITY, "none", "", cited=True)]
        ledger = ledger_for(draft, {"receipt": ("supported", evidence, ["misattributed"])})
        assert revise(draft, ledger) == f"{RECEIPT[:-1]} [cite:{REPORTS.hash}]."


def test_a_weak_claim_keeps_its_words_and_gains_the_supporting_citation() -> None:
    draft = "Receipts are needed for larger expenses."
    ledger = ledger_for(draft, {"Receipts": ("weak", [match(REPORTS, "partial", RECEIPT, cited=False)], [])})
    assert revise(draft, ledger) == f"Receipts are needed for larger expenses [cite:{REPORTS.hash}]."


def test_sentences_that_are_not_claims_stay_but_lose_phantom_citations() -> None:
    draft = f"Here is a summary of the rules. {GOOD}\n\nI hope this helps [cite:deadbeef0000]."
    ledger = ledger_for(draft, {"ExpenseHub": ("supported", [match(REPORTS, "full", SUBMIT)], [])})
    assert revise(draft, ledger) == f"Here is a summary of the rules. {GOOD}\n\nI hope this helps."


def test_a_list_keeps_its_shape_when_an_item_is_removed() -> None:
    last = f"{RECEIPT[:-1]} [cite:{REPORTS.hash}]."
    draft = f"Travel rules:\n\n- {GOOD}\n- Hotel rooms must be shared on team trips.\n- {last}"
    ok: Judged = ("supported", [match(REPORTS, "full", SUBMIT)], [])
    ledger = ledger_for(draft, {"ExpenseHub": ok, "shared": ("not_found", [], []),
                                "receipt": ("supported", [match(REPORTS, "full", RECEIPT)], [])})
    assert revise(draft, ledger) == f"Travel rules:\n\n- {GOOD}\n- {last}"


def test_revising_a_clean_draft_changes_nothing() -> None:
    draft = f"{GOOD}\n\n- {RECEIPT[:-1]} [cite:{REPORTS.hash}]."
    ledger = ledger_for(draft, {"ExpenseHub": ("supported", [match(REPORTS, "full", SUBMIT)], []),
                                "receipt": ("supported", [match(REPORTS, "full", RECEIPT)], [])})
    assert revise(draft, ledger) == draft


def test_revising_twice_with_the_ledger_of_the_revision_changes_nothing_more() -> None:
    draft = f"{WRONG} {INVENTED} {UNCITED}"
    first = revise(draft, ledger_for(draft, {
        "$180": ("contradicted", [match(LODGING, "contradicted", CAP_2026)], []),
        "book hotels": ("not_found", [], []),
        "receipt": ("supported", [match(REPORTS, "full", RECEIPT, cited=False)], ["uncited"]),
    }))
    second_ledger = ledger_for(first, {
        "$220": ("supported", [match(LODGING, "full", CAP_2026)], []),
        "receipt": ("supported", [match(REPORTS, "full", RECEIPT)], []),
    })
    assert len(second_ledger.entries) == 2  # the qualified statement is no claim
    assert revise(first, second_ledger) == first
    for sentence, _, _ in split_sentences(first):
        text, cited = parse_citations(sentence)
        assert cited or exclusion_reason(text) == "meta"


# --- the loop on the sample corpus with the real judge ------------------------------------------------------------

@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory, embedder) -> Judge:  # type: ignore[no-untyped-def]
    settings = Settings(home=tmp_path_factory.mktemp("reviser_home"))
    assert not build_ingestor(settings, embedder=embedder).run([SAMPLE_DOCS]).failed
    return build_judge(settings, embedder=embedder, checker=LocalSupportChecker(embedder, settings.judge),
                 today=date(2026, 11, 1))


def chunk_with(judge: Judge, text: str, file: str) -> Chunk:
    return next(c for c in judge.store.all_chunks() if text in c.text and Path(c.path).name == file)


@pytest.mark.model
def test_a_draft_with_planted_errors_ends_covered_with_nothing_contradicted(judge: Judge, embedder) -> None:  # type: ignore[no-untyped-def]
    lodging = chunk_with(judge, "$220 per night", "travel_expense_policy_2026.md")
    meals = chunk_with(judge, "$75 per day", "travel_expense_policy_2026.md")
    question = "What are the hotel and meal allowances for business travel?"
    draft = (f"The nightly hotel cap is $180 per night, before taxes [cite:{lodging.hash}]. "
             f"Employees may claim a gym membership of $50 per month while travelling [cite:{meals.hash}]. "
             "The meal per diem is $75 per day for domestic travel and $95 per day for international travel.")
    evidence = [lodging, meals]
    reviser = RuleReviser(LocalWriter(embedder, RevisionSettings()))
    before = judge.run(question, draft)
    assert before.summary.verdicts["contradicted"] >= 1 and before.summary.evidence_coverage < 0.85
    revised = reviser.revise(question, draft, before, evidence)
    after = judge.run(question, revised)
    assert after.summary.evidence_coverage >= 0.85
    assert after.summary.verdicts["contradicted"] == 0
    assert "$220 per night" in revised and "$180" not in revised
    assert "gym membership" not in [c.text for c in extract_claims(revised, question)]
    assert all(e.claim.cited for e in after.entries)
    again = reviser.revise(question, revised, after, evidence)
    assert again == revised


@pytest.mark.model
def test_when_every_claim_goes_the_answer_is_written_again_from_the_evidence(judge: Judge, embedder) -> None:  # type: ignore[no-untyped-def]
    lodging = chunk_with(judge, "$220 per night", "travel_expense_policy_2026.md")
    question = "What is the nightly hotel cap?"
    draft = "Hotel stays are always booked by the travel agency."
    ledger = judge.run(question, draft)
    assert [e.verdict for e in ledger.entries] == ["not_found"]
    revised = RuleReviser(LocalWriter(embedder, RevisionSettings())).revise(question, draft, ledger, [lodging])
    assert "$220 per night" in revised and f"[cite:{lodging.hash}]" in revised


# --- a contradicted claim is corrected only from a sentence about the same thing ----------------------------------

CLUB = make_chunk(
    "## Fees\n\nThe annual boat storage fee is $120 per member. Members also receive a locker rental discount of $15 "
    "per season, applied at renewal.", "Rowing Club Handbook", date(2025, 5, 1), "club")
STORAGE_FEE = "The annual boat storage fee is $120 per member."
LOCKER = "Members also receive a locker rental discount of $15 per season, applied at renewal."


def test_a_claim_about_something_else_under_the_same_name_is_removed_not_swapped_for_the_neighbouring_fact() -> None:
    wrong_fee = f"The annual boat storage fee is $150 per member [cite:{CLUB.hash}]."
    invented = "Members receive a $200 coaching discount."
    draft = f"{wrong_fee} {invented}"
    quote = f"Fees … {STORAGE_FEE} {LOCKER}"
    ledger = ledger_for(draft, {"$150": ("contradicted", [match(CLUB, "contradicted", quote)], []),
                                "coaching": ("contradicted", [match(CLUB, "contradicted", LOCKER, cited=False)], [])})
    reviser = RuleReviser(LocalWriter(object(), RevisionSettings()))  # type: ignore[arg-type]
    critical = reviser.revise(QUESTION, draft, ledger, [CLUB])
    assert ledger.entries[1].claim.importance == "critical"
    # The fee, stated wrongly about the same thing, is corrected; the discount is said not to be in the documents.
    assert critical == f"{STORAGE_FEE[:-1]} [cite:{CLUB.hash}]. {qualified(invented)}"
    assert "locker" not in critical and "$15" not in critical
    minor = ledger.model_copy(deep=True)
    minor.entries[1].claim.importance = "material"
    assert reviser.revise(QUESTION, draft, minor, [CLUB]) == f"{STORAGE_FEE[:-1]} [cite:{CLUB.hash}]."


@pytest.mark.parametrize(("claim", "sentence", "other"), [
    ("Members receive a $200 coaching discount.", LOCKER, True),
    ("Juniors pay a $40 entry fee.", "Seniors pay a $60 entry fee.", True),
    ("The annual boat storage fee is $150.", STORAGE_FEE, False),
    ("Members get 12 days of free storage.", "Members get 10 days of free boat storage.", False),
    ("New members pay the storage fee monthly.", "Members pay the annual storage fee at renewal.", False),
    # one thing in two forms of its words: "frequent absence" and "frequently absent"
    ("Frequent absence fell to 7% last year.", "The share of staff frequently absent fell to 12% last year.",
     False),
])
def test_other_subject_tells_a_neighbouring_fact_from_a_correction(claim: str, sentence: str, other: bool) -> None:
    from ledger.backends.local.reviser import other_subject

    assert other_subject(claim, sentence) is other


@pytest.mark.model
def test_with_the_real_judge_a_wrong_figure_is_corrected_and_a_neighbouring_fact_is_not_substituted(
        tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "club_handbook.md").write_text(
        "# Rowing Club Handbook\n\n## Fees\n\nThe annual boat storage fee is $120 per member. Members also receive a "
        "locker rental discount of $15 per season, applied at renewal.\n\n## Sessions\n\nCoached sessions run on "
        "Tuesday and Thursday evenings from April to October.\n")
    settings = Settings(home=tmp_path / "home")
    assert not build_ingestor(settings, embedder=embedder).run([docs]).failed
    judge = build_judge(settings, embedder=embedder, checker=LocalSupportChecker(embedder, settings.judge),
                        today=date(2026, 1, 1))
    question = "What fees and discounts apply to members?"
    draft = "The annual boat storage fee is $150 per member. Members receive a $200 coaching discount."
    before = judge.run(question, draft)
    assert [e.verdict for e in before.entries] == ["contradicted", "contradicted"]  # the discount too, by the locker
    evidence = list(judge.store.all_chunks())
    revised = RuleReviser(LocalWriter(embedder, RevisionSettings())).revise(question, draft, before, evidence)
    assert "$120 per member" in revised and "$150" not in revised
    assert "locker" not in revised.lower() and "$15 " not in revised
    assert "coaching discount" not in [c.text for c in extract_claims(revised, question)]


def test_an_abstention_names_no_closest_passage_once_its_quote_is_corrected() -> None:
    abstention = ('The documents do not state an answer to the question "What was the hotel cap in 2024"; the closest '
                  'passage is under "Lodging" in Travel and Expense Policy (2026 edition).')
    draft = f"{abstention} {WRONG}"
    ledger = ledger_for(draft, {"$180": ("contradicted", [match(LODGING, "contradicted", CAP_2026)], [])})
    assert revise(draft, ledger) == ('The documents do not state an answer to the question "What was the hotel cap in '
                                     f'2024". {CAP_2026[:-1]} [cite:{LODGING.hash}].')
    assert revise(abstention, ledger_for(abstention, {})) == abstention  # nothing changed: it stays as written


def test_a_correction_keeps_the_subject_its_heading_gives_it() -> None:
    policy = make_chunk("## Winter sports\n\nThe extension is not included in this policy.", "Policy schedule",
                        date(2026, 1, 5), "pol")
    draft = f"Winter sports are included in this policy [cite:{policy.hash}]."
    quote = "Winter sports … The extension is not included in this policy."
    ledger = ledger_for(draft, {"Winter": ("contradicted", [match(policy, "contradicted", quote)], [])})
    revised = RuleReviser(LocalWriter(object(), RevisionSettings())).revise(QUESTION, draft, ledger, [policy])  # type: ignore[arg-type]
    assert revised == f"Winter sports: the extension is not included in this policy [cite:{policy.hash}]."
