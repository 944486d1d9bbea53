"""The extractive writer: cited sentences only, newer editions win, and an on-topic miss says what is missing."""

from __future__ import annotations

from datetime import date

import pytest

from ledger.backends.base import NO_EVIDENCE_ANSWER, Draft, WriteRequest
from ledger.backends.local.questions import period_conflict, question_parts, stem_covered
from ledger.backends.local.units import evidence_units
from ledger.backends.local.writer import (
    LocalWriter,
    WrittenAnswer,
    _fits,
    cite,
    figure_conflict,
    superseded_documents,
)
from ledger.core.settings import RevisionSettings
from ledger.core.types import Chunk
from ledger.judge.claims import exclusion_reason, extract_claims
from ledger.text.sentences import parse_citations, split_sentences
from tests.fakes import make_chunk


def write(embedder: object, question: str, evidence: list[Chunk]) -> Draft:
    """The local writer's draft."""
    return LocalWriter(embedder, RevisionSettings()).run(WriteRequest(question, evidence))  # type: ignore[arg-type]


T2026, T2024 = "Travel and Expense Policy (2026 edition)", "TRAVEL AND EXPENSE POLICY (2024 EDITION)"
D2026, D2024 = date(2026, 3, 1), date(2024, 1, 15)
LODGING_2026 = make_chunk(
    "## 5. Lodging\n\nThe nightly hotel cap is $220 per night, before taxes and resort fees, in all locations except "
    "high-cost cities. In high-cost cities the nightly hotel cap is $340 per night. A stay above the applicable cap "
    "is reimbursed only up to the cap, unless the department head approved the excess in writing before the stay.",
    T2026, D2026, "travel2026", 2, 1900)
MEALS_2026 = make_chunk(
    "## 6. Meals and per diem\n\nThe meal per diem is $75 per day for domestic travel and $95 per day for "
    "international travel. On the day of departure and on the day of return the traveler receives 80% of the daily "
    "per diem. Alcohol is not reimbursable, except as part of approved client entertainment.",
    T2026, D2026, "travel2026", 3, 2500)
GROUND_2026 = make_chunk(
    "## 7. Ground transport\n\nTaxis, ride-hailing services and public transport are reimbursable. A single taxi or "
    "ride-hailing fare above $120 needs a short written justification in the expense report. Rental cars must be "
    "compact or intermediate class. Employees who drive a personal car on company business are reimbursed at $0.70 "
    "per mile, which covers fuel and wear; tolls and parking are reimbursed separately.",
    T2026, D2026, "travel2026", 4, 3100)
HOTELS_2024 = make_chunk(
    "5. HOTELS\n\nThe nightly hotel cap is $180 per night, before taxes. Where no suitable hotel within the cap is "
    "available near the business location, the traveler may exceed the cap with the written approval of their "
    "department head.\n\n6. MEALS\n\nThe meal per diem is $60 per day for domestic travel. For international travel, "
    "the meal per diem is $95 per day.",
    T2024, D2024, "travel2024", 2, 1700)
REMOTE = make_chunk(
    "## 3. Hybrid schedule\n\nEmployees may work remotely for up to 3 days per week. Every employee who is not a fully "
    "remote employee must work from the office on at least 2 days per week. Core hours are 10:00 to 15:00 local time.",
    "Remote Work Policy", date(2026, 7, 1), "remote", 1, 900)
EVIDENCE = [LODGING_2026, MEALS_2026, GROUND_2026, HOTELS_2024, REMOTE]


def assert_every_sentence_cited(answer: str, evidence: list[Chunk]) -> None:
    hashes = {c.hash for c in evidence}
    for sentence, _, _ in split_sentences(answer):
        text, cited = parse_citations(sentence)
        if exclusion_reason(text) is None:
            assert cited, f"uncited: {sentence!r}"
            assert set(cited) <= hashes, f"cites an unknown chunk: {sentence!r}"


# --- pure parts: no model ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The meal per diem is $75 per day.", "The meal per diem is $75 per day [cite:abc123abc123]."),
        ("Above $20,000 (Who approves: Chief Financial Officer)",
         "Above $20,000 (Who approves: Chief Financial Officer) [cite:abc123abc123]."),
        ("Send it to Quillfeather Analytics, Inc.", "Send it to Quillfeather Analytics, Inc [cite:abc123abc123]."),
    ],
)
def test_cite_puts_the_anchor_where_the_sentence_splitter_keeps_it(sentence: str, expected: str) -> None:
    answer = cite(sentence, ["abc123abc123"]) + " " + cite("Rental cars must be compact.", ["def456def456"])
    assert answer.startswith(expected)
    sentences = [parse_citations(s) for s, _, _ in split_sentences(answer)]
    assert [cited for _, cited in sentences] == [["abc123abc123"], ["def456def456"]]
    assert sentences[0][0] == sentence.strip() + ("" if sentence.endswith(".") else ".")  # the text round-trips


def test_units_render_tables_labels_and_list_items_as_sentences() -> None:
    text = ("Policy owner: Finance Operations\nEffective date: 2026-03-01\n\n## 5. Approval limits\n\n"
            "| Refund amount | Who approves |\n|---|---|\n| Up to $750 | Support agent |\n"
            "| Above $20,000 | Chief Financial Officer |\n\n## 11. Items that are never reimbursed\n\n"
            "- Traffic and parking fines.\n- Minibar charges, in-room films and personal entertainment.\n")
    units = [u.text for u in evidence_units([make_chunk(text, "Customer Refund Procedure", D2026, "refund")])]
    assert "Up to $750 (Who approves: Support agent)." in units
    assert "Above $20,000 (Who approves: Chief Financial Officer)." in units
    assert {"Policy owner: Finance Operations", "Effective date: 2026-03-01"} <= set(units)
    assert "Items that are never reimbursed: traffic and parking fines." in units
    assert not any(u.startswith(("#", "|", "Refund amount")) for u in units)


def test_an_answer_sentence_leaves_the_document_s_clause_number_out() -> None:
    text = "## 3. Refunds\n\n3.1 A refund is paid within 14 days of the return.\n\n3.2.1 Vouchers expire after a year."
    units = [u.text for u in evidence_units([make_chunk(text, "Customer Refund Procedure", D2026, "refund")])]
    assert units == ["A refund is paid within 14 days of the return.", "Vouchers expire after a year."]


def test_a_hard_wrapped_line_that_is_full_goes_on_in_the_next_and_a_rule_line_heads_nothing() -> None:
    text = ("2. DECLARATIONS OF INTEREST\n"
            "Ngozi Eze declared an interest in item 7, as her employer, Kestlow\n"
            "Housing Association, is one of the charity's referral partners. The\n"
            "board approved the electric van. Vote: 4 in favour, 0 against, 1\n"
            "abstention (TF).\n"
            "----------------------------------------------------------------------\n"
            "DH left the meeting.\n\n"
            "Hotel Miradouro, Lisbon\nCheck-in 8 June")
    units = evidence_units([make_chunk(text, "Minutes", D2026, "minutes")])
    assert [u.text for u in units] == [
        "Ngozi Eze declared an interest in item 7, as her employer, Kestlow Housing Association, is one of the "
        "charity's referral partners.",
        "The board approved the electric van.", "Vote: 4 in favour, 0 against, 1 abstention (TF).",
        "DH left the meeting.", "Check-in 8 June"]
    assert units[3].section == "DECLARATIONS OF INTEREST"  # the rule of dashes is no heading


def test_a_chunk_that_starts_mid_sentence_does_not_offer_the_tail_as_a_sentence() -> None:
    text = "within 48 hours and opens a refund ticket.\n\nThe approver decides within two business days."
    units = [u.text for u in evidence_units([make_chunk(text, "Customer Refund Procedure", D2026, "refund")])]
    assert units == ["The approver decides within two business days."]


def test_a_unit_of_a_chunk_that_starts_inside_a_section_is_under_that_section_s_heading() -> None:
    chunk = make_chunk("There were 3 reportable incidents during the year, compared with 5 in 2022.").model_copy(
        update={"section": "Annual Review 2023 › Safety"})
    (unit,) = evidence_units([chunk])
    assert unit.section == "Safety"
    # the headings above the chunk date it: a question about 2023 is not about another year
    part = question_parts("How many reportable incidents were there in 2023?")[0]
    assert _fits(part, unit)
    assert not _fits(part, evidence_units([chunk.model_copy(update={"section": ""})])[0])


def test_a_newer_edition_supersedes_the_older_one_but_other_documents_do_not() -> None:
    assert superseded_documents(EVIDENCE) == {"travel2024"}
    renamed = HOTELS_2024.model_copy(update={"title": "Travel handbook"})
    assert superseded_documents([LODGING_2026, renamed]) == set()


def test_figure_conflicts_need_the_same_topic_and_a_clash_both_ways() -> None:
    assert figure_conflict("The nightly hotel cap is $180 per night, before taxes.",
                           "The nightly hotel cap is $220 per night, before taxes and resort fees.") == (
        "$180 per night", "$220 per night")
    assert figure_conflict("For international travel, the meal per diem is $95 per day.",
                           "The meal per diem is $75 per day for domestic travel and $95 per day for international "
                           "travel.") is None
    assert figure_conflict("Expense reports must be submitted within 30 days after the trip ends.",
                           "Reports submitted more than 90 days after the trip ends are not reimbursed.") is None


def test_no_evidence_gives_the_canned_answer_without_the_model() -> None:
    draft = write(object(), "What is the nightly hotel cap?", [])  # the embedder is never called
    assert draft.text == NO_EVIDENCE_ANSWER
    assert not draft.answered


# --- with the real embedding model -------------------------------------------------------------------------------

@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    ["What is the nightly hotel cap?", "What is the meal per diem for domestic travel?",
     "How many days per week can employees work remotely?", "What is the mileage reimbursement rate?"],
)
def test_every_answer_sentence_cites_an_evidence_chunk(embedder, question: str) -> None:  # type: ignore[no-untyped-def]
    draft = write(embedder, question, EVIDENCE)
    answer = draft.text
    assert draft.answered
    assert extract_claims(answer, question)
    assert_every_sentence_cited(answer, EVIDENCE)


@pytest.mark.model
def test_the_hotel_cap_comes_from_the_2026_edition_when_both_are_retrieved(embedder) -> None:  # type: ignore[no-untyped-def]
    answer = write(embedder, "What is the nightly hotel cap?", [HOTELS_2024, LODGING_2026]).text
    assert "$220 per night" in answer and f"[cite:{LODGING_2026.hash}]" in answer
    assert "$180" not in answer and HOTELS_2024.hash not in answer


@pytest.mark.model
def test_an_older_document_with_another_title_still_loses_a_figure_conflict(embedder) -> None:  # type: ignore[no-untyped-def]
    handbook = HOTELS_2024.model_copy(update={"title": "Travel handbook"})
    answer = write(embedder, "What is the nightly hotel cap?", [handbook, LODGING_2026]).text
    assert "$220 per night" in answer
    assert "$180" not in answer


@pytest.mark.model
def test_a_sentence_repeated_by_overlapping_chunks_is_written_once(embedder) -> None:  # type: ignore[no-untyped-def]
    overlap = make_chunk("The nightly hotel cap is $220 per night, before taxes and resort fees, in all locations "
                         "except high-cost cities. Laundry is reimbursable only on trips of more than one week.",
                         T2026, D2026, "travel2026", 3, 1950)
    answer = write(embedder, "What is the nightly hotel cap?", [LODGING_2026, overlap]).text
    assert answer.count("$220 per night") == 1


@pytest.mark.model
def test_a_list_item_repeated_by_the_next_chunk_without_its_heading_is_written_once(embedder) -> None:  # type: ignore[no-untyped-def]
    # one chunk ends in the list under its heading, the next (overlapping) opens with the list's last item
    first = make_chunk("## Timeline of the evening (all times local)\n\n- 09:12 — Alarm raised by the night porter.\n"
                       "- 09:20 — Fire brigade called; Ruth Amadi takes charge of the evacuation.",
                       "Fire drill report", D2026, "drill", 0, 0)
    second = make_chunk("- 09:20 — Fire brigade called; Ruth Amadi takes charge of the evacuation.\n"
                        "- 09:41 — All clear given.", "Fire drill report", D2026, "drill", 1, 120)
    answer = write(embedder, "Who took charge of the evacuation?", [first, second]).text
    assert answer.count("Ruth Amadi takes charge") == 1, answer


@pytest.mark.model
def test_a_heading_gives_its_sentences_the_topic_the_question_names(embedder) -> None:  # type: ignore[no-untyped-def]
    # the sentence says "contribution", its heading "field trip": together they answer the question
    handbook = make_chunk(
        "## Field trip to Dunmore Point\n\nThe residential field trip takes place on Friday 17 and Saturday 18 "
        "October 2025. Students pay a contribution of £45 towards accommodation and meals.\n\n"
        "## Entry and parking charges\n\n- Family ticket (two adults and up to three children): £15\n- Adults: £6",
        "Coastal Module Handbook", D2026, "handbook")
    assert "£45" in write(embedder, "field trip contribution cost", [handbook]).text
    assert "Adults: £6" in write(embedder, "adult entry price", [handbook]).text


@pytest.mark.model
def test_an_on_topic_question_the_documents_do_not_answer_says_what_is_missing(embedder) -> None:  # type: ignore[no-untyped-def]
    question = "What is the maximum daily cost for a rental car?"
    draft = write(embedder, question, EVIDENCE)
    answer = draft.text
    assert not draft.answered
    assert answer.startswith("The documents do not state the maximum daily cost for a rental car")
    assert T2026 in answer  # where the closest passage is
    # The closest passage is quoted with its citation, so the reader can judge it; it is the only claim the judge
    # sees (the abstention is none), and it is a sentence of the evidence, word for word.
    claims = extract_claims(answer, question)
    assert len(claims) == 1 and claims[0].cited
    quoted = claims[0].text.rstrip(".")
    assert any(quoted in chunk.text for chunk in EVIDENCE)


@pytest.mark.model
def test_a_question_with_an_unanswered_part_answers_the_rest_and_names_the_gap(embedder) -> None:  # type: ignore[no-untyped-def]
    draft = write(embedder, "What is the nightly hotel cap, and how many vacation days do employees get?", EVIDENCE)
    answer = draft.text
    assert draft.answered
    assert "$220 per night" in answer
    assert "vacation days" in draft.missing
    assert answer.rstrip().endswith('"how many vacation days do employees get".')
    assert_every_sentence_cited(answer, EVIDENCE)


# --- recall without losing "not answered": modifiers, synonyms, time frames, figure kinds ------------------------

PASSWORDS = make_chunk(
    "## 4. Passwords and authentication\n\nPasswords for standard accounts must be at least 16 characters long. "
    "Passwords for privileged accounts must be at least 20 characters long. Standard account passwords must be "
    "changed every 180 days, and privileged account passwords must be changed every 45 days. After 5 failed sign-in "
    "attempts an account is locked for 15 minutes.",
    "Information Security Policy", date(2026, 4, 1), "security", 3, 2100)
INCIDENTS = make_chunk(
    "## 6. Incident reporting\n\nAnyone who discovers a security incident, or suspects one, must report it to the "
    "Security Operations Center within 4 hours of discovery. The Security Operations Center classifies each incident "
    "as Severity 1, 2 or 3 within its first assessment.",
    "Information Security Policy", date(2026, 4, 1), "security", 5, 3400)
RETENTION = make_chunk(
    "3. Retention schedule\n\nRecord type | Retention period | Counted from\n"
    "Invoices and accounting records | 10 years | end of the financial year\n"
    "Security and audit logs | 400 days | creation of the log entry\n"
    "Office CCTV footage | 31 days | date of recording\n"
    "System backups | 35 days | date of the backup\n\n"
    "Where a law requires a longer period than the schedule, the longer period applies.",
    "Data Retention Policy", date(2026, 5, 18), "retention", 1, 1200)
VENDORS = make_chunk(
    "Step 3 - Due diligence. The vendor must provide its company registration, its tax identification number and "
    "proof of insurance. Professional liability cover of at least $2 million is required from every vendor, and "
    "Tier 1 vendors must also hold cyber insurance of at least $5 million.\n\n5. Timelines\n\nProcurement aims to "
    "complete onboarding of a Tier 3 vendor within one week and of a Tier 1 vendor within four weeks of a complete "
    "request.",
    "Vendor Onboarding Procedure", date(2026, 8, 12), "vendors", 2, 1500)
Q3_SUMMARY = make_chunk(
    "1. Summary\nRevenue for the third quarter of 2026 was $48.6 million, an increase of 12.4% from $43.2 million "
    "in the third quarter of 2025. Gross margin was 71.3%.",
    "Q3 2026 Quarterly Report", date(2026, 10, 20), "q3", 0, 200)
Q3_PEOPLE = make_chunk(
    "4. People\nHeadcount was 612 employees on September 30, 2026, up from 587 on June 30, 2026. The company hired "
    "41 people and 16 people left during the quarter.",
    "Q3 2026 Quarterly Report", date(2026, 10, 20), "q3", 3, 1400)
REPORTS = make_chunk(
    "## 10. Expense reports and reimbursement\n\nExpense reports must be submitted in ExpenseHub within 30 days "
    "after the trip ends. Reports submitted more than 90 days after the trip ends are not reimbursed.\n\n"
    "## 11. Items that are never reimbursed\n\n- Traffic and parking fines.\n"
    "- Airline lounge memberships and loyalty-programme fees.\n",
    T2026, D2026, "travel2026", 8, 5200)
CORPUS = [*EVIDENCE, PASSWORDS, INCIDENTS, RETENTION, VENDORS, Q3_SUMMARY, Q3_PEOPLE, REPORTS]


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        ("What general liability insurance must vendors hold?", {"liabil", "insur", "vendor"}),  # modifier, light verb
        ("What was headcount at the end of the third quarter?", {"headcount"}),  # the time frame is kept apart
        ("How much cash did the company hold on September 30, 2026?", {"cash"}),
        ("How many days per year can employees work from abroad?", {"abroad"}),  # "per year" is the figure's rate
        ("How long does the battery warranty last?", {"batteri", "warranti"}),  # "how long ... last" asks a duration
        ("How late is the library open on Fridays?", {"librari", "open", "friday"}),  # "how late" asks a time
        ("What happens if the rent is paid late?", {"rent", "paid", "late"}),  # "late" away from "how" is the topic
        ("Is there a discount for early booking?", {"discount", "earli", "book"}),
        ("What share of respondents supported the scheme?", {"respond", "support", "scheme"}),  # asks for a share
        ("What share of revenue came from exports?", {"revenu", "came", "export"}),
        ("When does the fair take place?", {"fair"}),  # "take place" says only that it happens
        ("How many nurses took part in the trial?", {"nurs", "trial"}),
        ("Can I take photos in the gallery?", {"photo", "galleri"}),  # "take photos" is to photograph
        ("Who do we tell when something in the house needs fixing?", {"hous", "fix"}),  # an indefinite pronoun
        ("What will Ms Brennan pay?", {"brennan", "pay"}),  # a title is no topic
        ("At what point does the library stop me borrowing because of money owed?",
         {"librari", "stop", "borrow", "owe"}),  # "at what point" asks when; "because" relates
        ("Who can I ask about a problem with my sick pay?", {"sick", "pay"}),  # the asking is no topic
        ("Can the seven of us share one black bin?", {"share", "black", "bin"}),  # a figure in words is no topic
        ("Do we have to cut the hedge ourselves?", {"cut", "hedg"}),  # object and reflexive pronouns are no topic
        ("Can I buy a garden shed for him?", {"buy", "garden", "shed"}),
        # a preposition of a limit or an absence, and an auxiliary denied, are function words
        ("Can my dog stay overnight without a vaccination card?", {"dog", "stay", "overnight", "vaccin", "card"}),
        ("Who do I call if the boiler doesn't restart?", {"call", "boiler", "restart"}),
    ],
)
def test_focus_words_leave_out_modifiers_light_verbs_and_time_frames(question: str, focus: set[str]) -> None:
    assert set(question_parts(question)[0].focus) == focus


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("What was headcount at the end of the third quarter?", {"q3"}),
        ("What was revenue in Q2 2026?", {"q2", "y2026"}),
        ("How many security incidents occurred in 2026?", {"y2026"}),
        ("What did the 2024 edition say about hotels?", set()),  # a name, not a time frame
    ],
)
def test_time_frames_give_a_part_its_periods(question: str, periods: set[str]) -> None:
    assert set(question_parts(question)[0].periods) == periods


def test_another_period_of_the_same_kind_conflicts_and_an_unnamed_one_does_not() -> None:
    asked = frozenset({"q2", "y2026"})
    assert period_conflict(asked, frozenset({"q3", "y2026"}))
    assert not period_conflict(asked, frozenset({"q2", "q3", "y2026"}))  # names the one asked too
    assert not period_conflict(asked, frozenset({"y2026"}))  # says nothing about quarters


@pytest.mark.parametrize(
    ("wanted", "have", "covered"),
    [("kept", "retent", True), ("purchas", "bought", True), ("cancel", "termin", True),
     ("ordinari", "standard", True), ("mileag", "mile", True), ("vacat", "leav", False), ("slack", "messag", False),
     ("headcount", "employe", False), ("rotat", "chang", False)],  # corpus words are a workspace's lexicon, not ours
)
def test_stems_cover_prefixes_and_general_synonyms_only(wanted: str, have: str, covered: bool) -> None:
    assert stem_covered(wanted, {have}) is covered


@pytest.mark.parametrize(
    ("question", "kinds", "counted", "actions"),
    [
        ("How often are old logs purged?", {"frequency", "duration", "count", "number"}, set(), {"purg"}),
        ("How long are invoices kept?", {"duration", "date", "time", "measure", "count", "number"}, set(), {"kept"}),
        ("How many written quotes are needed?", {"count", "measure", "number", "duration", "frequency", "ordinal"},
         {"quot"}, set()),
        ("What refund amount can an agent approve?", {"money", "percent", "number", "count"}, set(), set()),
    ],
)
def test_question_parts_know_the_figure_kind_the_thing_counted_and_the_action(
    question: str, kinds: set[str], counted: set[str], actions: set[str]
) -> None:
    part = question_parts(question)[0]
    assert (set(part.kinds), set(part.counted), set(part.actions)) == (kinds, counted, actions)


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "expected", "not_expected"),
    [
        ("How long must passwords be for ordinary accounts?", "16 characters", None),  # ordinary ≈ standard
        ("How long are security and audit logs retained?", "400 days", None),  # retained ≈ retention
        ("What general liability insurance must vendors hold?", "$2 million", None),  # "general" is a modifier
        ("What was headcount at the end of the third quarter?", "612 employees", "$48.6 million"),
        ("How long are office CCTV recordings stored?", "31 days", None),
        ("What was revenue in the third quarter of 2026?", "$48.6 million", None),
    ],
)
def test_documents_that_answer_in_other_words_are_answered(  # type: ignore[no-untyped-def]
    embedder, question: str, expected: str, not_expected: str | None
) -> None:
    draft = write(embedder, question, CORPUS)
    answer = draft.text
    assert draft.answered, answer
    assert expected in answer
    assert not_expected is None or not_expected not in answer
    assert_every_sentence_cited(answer, CORPUS)


@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    [
        "How many vacation days do employees get?",
        "How long are Slack messages retained?",
        "How many security incidents occurred in 2026?",
        "How long are employee expense reports kept?",  # a submission deadline is not a retention period
        "What was revenue in the second quarter of 2026?",  # the third quarter's revenue does not answer it
        "How many vendors were onboarded in 2026?",  # onboarding times are not a count of vendors
        "What is the maximum daily cost for a rental car?",
    ],
)
def test_on_topic_questions_the_documents_do_not_answer_stay_unanswered(embedder, question: str) -> None:  # type: ignore[no-untyped-def]
    draft = write(embedder, question, CORPUS)
    answer = draft.text
    assert not draft.answered, answer
    # The abstention first; then only the closest passage, quoted word for word with its citation.
    assert answer.startswith("The documents do not state")
    assert answer.count("[cite:") == 1
    assert_every_sentence_cited(answer.split(". ", 1)[1], CORPUS)


def _doc_chunk(text: str, seq: int) -> Chunk:
    return Chunk(hash=f"{seq:012x}", text=text, document_id="club", index=seq, start_char=0, end_char=len(text),
                 path="club.md", title="Rowing Club Handbook")


@pytest.mark.model
def test_who_is_answered_by_a_sentence_that_names_someone(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("The treasurer keeps the accounts of the club and reports to members every year. "
                           "The accounts are kept by Priya Okonkwo, who was elected treasurer in 2021.", 1)]
    answer = write(embedder, "Who keeps the club's accounts?", evidence).text
    assert "Priya Okonkwo" in answer


@pytest.mark.model
def test_who_is_answered_by_a_sentence_that_names_a_role(embedder) -> None:  # type: ignore[no-untyped-def]
    # Documents often name a role, not a person: "the finance manager" answers "who", in lower case.
    evidence = [_doc_chunk("Refunds of more than 500 euros are approved by the finance manager. Refunds are paid "
                           "back to the card used for the purchase.", 1)]
    draft = write(embedder, "Who approves refunds over 500 euros?", evidence)
    assert draft.answered, draft.text
    assert "approved by the finance manager" in draft.text


@pytest.mark.parametrize(("question", "who"), [
    ("Which soloist performs the Pie Jesu?", True),
    ("which trustee left the board", True),
    ("What officer signed the notice?", True),
    ("Which nurse was on duty?", True),
    ("Which patients benefit most?", False),  # a kind of patient, not a name
    ("which patient groups might the results not apply to", False),
    ("Which river floods most often?", False),
    ("What time does the office open?", False),
])
def test_which_and_a_word_for_a_person_before_its_verb_asks_who(question: str, who: bool) -> None:
    assert question_parts(question)[0].wants_person is who


@pytest.mark.model
def test_a_role_that_answers_who_brings_the_name_of_whoever_holds_it(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("Boat bookings are taken by the club bosun. The bosun for this season is Anna Brook. "
                           "Bookings open a week before each outing.", 1)]
    draft = write(embedder, "Who takes boat bookings?", evidence)
    assert "taken by the club bosun" in draft.text and "Anna Brook" in draft.text


@pytest.mark.model
def test_a_word_for_a_group_that_does_not_act_does_not_answer_who(embedder) -> None:  # type: ignore[no-untyped-def]
    # "club" here only says whose accounts they are: nobody is said to publish the report.
    evidence = [_doc_chunk("The report on the annual accounts of the club is published every summer. It lists the "
                           "income from boat hire.", 1)]
    draft = write(embedder, "Who publishes the report on the annual accounts?", evidence)
    assert not draft.answered, draft.text


@pytest.mark.model
def test_who_asked_about_a_fee_wants_someone_not_a_figure(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("Mooring fees are collected by the harbour clerk. Moorings are allocated each spring.", 1)]
    draft = write(embedder, "Who collects the mooring fees?", evidence)
    assert draft.answered and "collected by the harbour clerk" in draft.text, draft.text


@pytest.mark.model
def test_a_weekday_or_a_month_names_no_one(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("The boat shed is cleaned every Tuesday and repainted in March. It holds twelve boats.", 1)]
    draft = write(embedder, "Who cleans the boat shed?", evidence)
    assert not draft.answered, draft.text


@pytest.mark.model
def test_a_question_in_other_words_than_the_passage_is_answered(embedder) -> None:  # type: ignore[no-untyped-def]
    # "breeding" / "rearing" and "start" / "began" are one thing in WordNet; the passage answers the question.
    evidence = [_doc_chunk("A pony rearing programme at Fenwick Farm began in 2019 with six mares. Visitors may see "
                           "the foals in spring.", 1)]
    draft = write(embedder, "When did the pony breeding programme start?", evidence)
    assert draft.answered and "began in 2019" in draft.text, draft.text


@pytest.mark.model
def test_a_passage_word_counts_for_one_question_word_only(embedder) -> None:  # type: ignore[no-untyped-def]
    # "chief" is the question's own word: it does not also say "executive", so the chief engineer is no answer.
    evidence = [_doc_chunk("Owner: Chief Engineer of the rowing club (boat shed and slipway).", 1)]
    draft = write(embedder, "Who is the club's chief executive?", evidence)
    assert not draft.answered, draft.text


@pytest.mark.model
def test_how_many_people_is_answered_by_a_count_of_a_kind_of_person(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("Seaward: a card game for 2 to 6 players, ages 8 and up. Each player draws five cards.", 1)]
    draft = write(embedder, "How many people can play Seaward?", evidence)
    assert draft.answered and "2 to 6 players" in draft.text, draft.text
    draft = write(embedder, "How many people can sit at one Seaward table?",
                  [_doc_chunk("A Seaward table has 6 seats and 2 drawers for cards.", 2)])
    assert "do not state" in draft.text or not draft.answered, draft.text


@pytest.mark.model
def test_who_is_not_answered_by_a_sentence_naming_nobody(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("Refunds of more than 500 euros are approved within ten working days. Refunds are paid "
                           "back to the card used for the purchase.", 1)]
    draft = write(embedder, "Who approves refunds over 500 euros?", evidence)
    assert not draft.answered, draft.text


@pytest.mark.model
def test_the_code_asked_about_wins_over_a_sibling_code(embedder) -> None:  # type: ignore[no-untyped-def]
    evidence = [_doc_chunk("Hull HX-210 was repaired by Tomas Berg after the spring regatta. Hull HX-220 went to the "
                           "workshop of Anna Lind in May.", 1)]
    answer = write(embedder, "Who repaired hull HX-220?", evidence).text
    assert "Anna Lind" in answer and "Tomas Berg" not in answer  # HX-210's repairer answers another question


@pytest.mark.model
def test_a_short_second_part_is_read_with_the_part_before_it(embedder) -> None:  # type: ignore[no-untyped-def]
    # "who is told" alone is close to nothing; with "how quickly must incidents be reported" it is the sentence that
    # names whom incidents are reported to, which the answer gives instead of saying it is not stated.
    draft = write(embedder, "How quickly must security incidents be reported, and who is told?", CORPUS)
    assert "Security Operations Center within 4 hours" in draft.text
    assert "do not state" not in draft.text


@pytest.mark.model
def test_how_fast_is_answered_by_a_speed_as_well_as_by_a_deadline(embedder) -> None:  # type: ignore[no-untyped-def]
    hire = [_doc_chunk("Electric scooters carry a surcharge of 15p per minute and are limited to a top speed of "
                       "12.5 mph. Scooters are parked in marked bays only.", 1)]
    draft = write(embedder, "How fast can an electric scooter go?", hire)
    assert draft.answered and "12.5 mph" in draft.text, draft.text
    boat = [_doc_chunk("Inside the harbour wall the launch travels at no more than 6 knots.", 1)]
    assert "6 knots" in write(embedder, "How fast may the launch travel in the harbour?", boat).text
    faults = [_doc_chunk("Faults are reported in the app, and a technician inspects the scooter within 48 hours.", 1)]
    assert "within 48 hours" in write(embedder, "How quickly is a reported scooter inspected?", faults).text


@pytest.mark.model
def test_who_is_answered_by_a_role_a_participle_or_a_modal_follows(embedder) -> None:  # type: ignore[no-untyped-def]
    # "aged" can be a noun ("the aged") and "may" a month: neither makes "adult" the first word of a compound.
    evidence = [_doc_chunk("Children under 8 must be accompanied in the water by an adult aged 18 or over.", 1)]
    draft = write(embedder, "Who can supervise children under 8 in the water?", evidence)
    assert draft.answered and "an adult aged 18" in draft.text, draft.text
    evidence = [_doc_chunk("Each volunteer may lead no more than two walks a week.", 1)]
    draft = write(embedder, "Who can lead the walks?", evidence)
    assert draft.answered and "Each volunteer" in draft.text, draft.text


@pytest.mark.model
def test_a_way_of_doing_something_is_answered_without_a_figure_or_the_question_s_verb(embedder) -> None:  # type: ignore[no-untyped-def]
    # "How is ... measured?" asks for a way, not a figure; "measured" is a rare word but no concept the answer must
    # repeat. A rare noun the documents never use still means "not answered".
    fees = [_doc_chunk("Fees are charged per metre of boat length, including bowsprits and davits. Shore power costs "
                       "£5 per night for a 16-amp supply.", 1)]
    draft = write(embedder, "How is boat length measured for fees?", fees)
    assert draft.answered and "including bowsprits and davits" in draft.text, draft.text
    assert not write(embedder, "How is the humidity of the boat store controlled?", fees).answered


@pytest.mark.model
def test_a_superlative_over_a_table_is_answered_by_the_row_at_that_end(embedder) -> None:  # type: ignore[no-untyped-def]
    fees = make_chunk("# Berthing fees\n\nFees are charged per metre of boat length.\n\n| Berth type | Per night | "
                      "Per year |\n|---|---|---|\n| Visitor pontoon | £3.40 | n/a |\n| Finger berth | £2.90 | £395 |\n"
                      "| Swinging mooring | £1.20 | £160 |\n", "Marina fees", doc="marina")
    draft = write(embedder, "Which berth type is cheapest?", [fees])
    assert draft.answered and draft.text.startswith("Swinging mooring (Per night: £1.20"), draft.text
    assert write(embedder, "Which berth is the most expensive per night?", [fees]).text.startswith("Visitor pontoon")
    # a sentence that states the superlative itself answers in its own words
    stated = make_chunk("The swinging moorings are the cheapest berths in the harbour.\n\n| Berth type | Per night |\n"
                        "|---|---|\n| Visitor pontoon | £3.40 |\n| Swinging mooring | £1.20 |\n", "Marina", doc="m2")
    assert "cheapest berths in the harbour" in write(embedder, "Which berth type is cheapest?", [stated]).text


def test_a_word_that_asks_for_a_figure_after_how_is_the_topic_elsewhere(embedder) -> None:  # type: ignore[no-untyped-def]
    rent = make_chunk(
        "# Tenancy Agreement — Flat 2, 9 Alder Road\n\n## Parties and term\n"
        "This agreement is between the landlord, Wexley Homes Ltd, and the tenant, Mr Ravi Ostrowski.\n"
        "The tenancy begins on 1 March 2027 and runs for a fixed term of twelve months.\n"
        "After the fixed term, the tenancy continues month to month unless either party gives notice.\n\n## Rent\n"
        "The rent is £1,150 per calendar month, payable in advance on the first day of each month.\n"
        "Rent is paid by standing order to the landlord's account; cash is not accepted.\n"
        "If rent is more than 14 days late, the landlord may charge interest at 3% above the Bank of England base "
        "rate.\n"
        "The landlord may not increase the rent during the fixed term.\n"
        "After the fixed term, the rent may be increased once a year with at least one month's written notice.",
        "Tenancy Agreement", None, "t", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write("What happens if the rent is paid late?", [rent])
    assert "14 days late" in answer.text


@pytest.mark.parametrize("question", ["How many reviewers does each paper get?", "How many people review each paper?"])
def test_how_many_is_answered_by_a_count_of_whoever_does_what_is_asked(embedder, question: str) -> None:  # type: ignore[no-untyped-def]
    chunk = make_chunk("Full papers may be up to 8 pages, excluding references. Papers are reviewed by at least "
                       "three members of the programme committee.", "Call for papers", None, "cfp", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write(question, [chunk])
    assert answer.answered and "three members" in answer.text


def test_a_question_on_its_own_line_heads_the_answer_under_it(embedder) -> None:  # type: ignore[no-untyped-def]
    faq = make_chunk("# Campsite questions\n\n**Can I bring my dog?**\nYes. Dogs are welcome on all pitches but "
                     "must be kept on a lead. There is a charge of £3 per dog per night.\n\n**When do I have to "
                     "leave?**\nPitches must be vacated by 11 am on the day of departure.", "Campsite questions", None,
                     "faq", 1, 0)
    units = {u.text: u.section for u in evidence_units([faq])}
    assert units["Pitches must be vacated by 11 am on the day of departure."] == "When do I have to leave?"
    assert "Yes." not in units and "Yes" not in units.values()  # an answer word is no heading
    answer = LocalWriter(embedder, RevisionSettings()).write("What time do I need to leave?", [faq])
    assert answer.answered and "11 am" in answer.text


def test_a_long_sentence_is_relevant_by_the_clause_that_answers(embedder) -> None:  # type: ignore[no-untyped-def]
    news = make_chunk("The city council voted on Tuesday to build a protected cycle lane along Mill Road, after a "
                      "consultation in which 62% of the 1,840 respondents supported the scheme. Construction will "
                      "start in June.", "Cycle lane approved", None, "news", 1, 0)
    writer = LocalWriter(embedder, RevisionSettings(min_relevance=0.5))  # the whole sentence is below the bar
    answer = writer.write("What share of respondents supported the scheme?", [news])
    assert answer.answered and "62%" in answer.text



def test_list_items_finish_their_lead_in_and_label_items_stand_alone() -> None:
    policy = make_chunk("## What is not covered\n\nWe will not pay for:\n\n- loss caused by wear and tear;\n- theft "
                        "from a home left unoccupied for more than 60 days in a row;\n- any loss while the home is let "
                        "to paying guests.\n\nClaims must be reported within 30 days.\n\n# Senior Analyst\n\n"
                        "- Contract: permanent\n- Closing date: 15 December 2026", "Policy", None, "p", 1, 0)
    texts = [u.text for u in evidence_units([policy])]
    # every item says what it is (not only the short first one), and a paragraph after the list is its own
    assert "We will not pay for: theft from a home left unoccupied for more than 60 days in a row;" in texts
    assert "We will not pay for: any loss while the home is let to paying guests." in texts
    assert "Claims must be reported within 30 days." in texts
    # a "Label: value" item is neither a heading of the next item nor given the heading above it
    assert "Closing date: 15 December 2026" in texts
    assert not any("permanent:" in t or "Senior Analyst:" in t for t in texts)


def test_a_heading_that_restates_the_question_with_its_negation_leads_to_its_section(embedder) -> None:  # type: ignore[no-untyped-def]
    policy = make_chunk("## What is covered\n\nWe will pay for damage caused by fire, theft and flood. Jewellery and "
                        "watches are covered up to a total of £5,000.\n\n## What is not covered\n\nWe will not pay "
                        "for:\n\n- loss or damage caused by wear and tear, moths or vermin;\n- any loss that happens "
                        "while the home is let to paying guests.", "Home insurance", None, "ins", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write("What is not covered by the policy?", [policy])
    assert answer.answered and "wear and tear" in answer.text and "paying guests" in answer.text
    assert "Jewellery" not in answer.text  # what is covered answers the opposite question
    assert "vermin; [cite" not in answer.text  # an item's separator ends no quoted sentence


@pytest.mark.parametrize(("question", "text", "figure"), [
    ("How many people does the soup serve?", "Lentil soup\n\nServes 4. Cooking time 40 minutes.", "Serves 4"),
    ("How many guests does the cabin sleep?", "The cabin sleeps up to six. It has a wood stove.", "up to six"),
])
def test_how_many_is_answered_by_a_bare_count_after_the_questions_own_verb(  # type: ignore[no-untyped-def]
        embedder, question: str, text: str, figure: str) -> None:
    answer = LocalWriter(embedder, RevisionSettings()).write(question, [make_chunk(text, "Doc", None, "d", 1, 0)])
    assert answer.answered and figure in answer.text


def test_a_weak_verb_of_the_question_need_not_be_in_the_passage(embedder) -> None:  # type: ignore[no-untyped-def]
    visit = make_chunk("## Getting here\n\nThe museum is a ten-minute walk from the station. There is a car park with "
                       "60 spaces. Dogs are welcome in the grounds but, apart from assistance dogs, not inside the "
                       "galleries.", "Plan your visit", None, "v", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write("Can I bring my dog?", [visit])
    assert answer.answered and "Dogs are welcome" in answer.text


def test_a_request_in_an_email_answers_when_something_must_be_done(embedder) -> None:  # type: ignore[no-untyped-def]
    mail = make_chunk("Tomasz,\n\nWe have decided to go with the Corn Exchange. Could you confirm the catering numbers "
                      "with them by Friday 20 March? They need final numbers ten days before the event.", "Re: venue",
                      None, "mail", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write("When must the catering numbers be confirmed?", [mail])
    assert answer.answered and "by Friday 20 March" in answer.text


def test_a_salutation_is_no_heading() -> None:
    mail = make_chunk("Tomasz,\n\nWe have decided to go with the Corn Exchange rather than the hall.", "Re: venue",
                      None, "mail", 1, 0)
    (unit,) = evidence_units([mail])
    assert unit.section == ""  # the answer's passage was "under 'Tomasz,'"


def test_a_unit_is_under_its_whole_heading_path() -> None:
    notes = make_chunk("# Release notes\n\n## Version 5.2 (12 October 2026)\n\n### Fixed\n\n- Search now finds words "
                       "inside tables, including those of imported files.\n\n## Version 5.1 (3 August 2026)\n\n"
                       "### Changed\n\nThe free plan is limited to 2 devices.", "Release notes", None, "rn", 1, 0)
    units = {u.text: u.section for u in evidence_units([notes])}
    assert units == {"Search now finds words inside tables, including those of imported files.":
                     "Version 5.2 (12 October 2026) › Fixed",
                     "The free plan is limited to 2 devices.": "Version 5.1 (3 August 2026) › Changed"}


def test_a_version_a_heading_gives_is_the_sentences_version(embedder) -> None:  # type: ignore[no-untyped-def]
    notes = make_chunk("# Release notes\n\n## Version 5.2\n\n### Changed\n\n- Dark mode follows the system "
                       "setting.\n\n## Version 5.1\n\n### Changed\n\n- The free plan is limited to 2 devices.",
                       "Release notes", None, "rn", 1, 0)
    answer = LocalWriter(embedder, RevisionSettings()).write("What changed in version 5.2?", [notes])
    assert answer.answered and "dark mode" in answer.text.lower() and "free plan" not in answer.text


def answer_to(embedder: object, question: str, evidence: list[Chunk]) -> WrittenAnswer:
    """What the offline writer answers from the evidence, with how it was made."""
    return LocalWriter(embedder, RevisionSettings()).write(question, evidence)  # type: ignore[arg-type]


def test_a_year_before_1900_answers_when(embedder) -> None:  # type: ignore[no-untyped-def]
    history = make_chunk("## The working years\n\nThe ferry carried 2,000 passengers a week. The bridge opened in "
                         "1876. Traffic fell quickly after that.", "A river crossing", None, "h", 1, 0)
    answer = answer_to(embedder, "When did the bridge open?", [history])
    assert answer.answered and "1876" in answer.text


def test_a_field_line_heads_nothing_and_its_later_sentences_keep_its_label() -> None:
    chunk = make_chunk("Minutes of the allotment meeting\n\nPresent: Ana Ruiz, Tom Hale\nApologies: Ben Cole\n\n"
                       "The hut roof leaks.\n\nShop: At the north gate. Open Saturdays, 9am to noon.\n"
                       "Note: Seeds are sold at cost. The shop takes cards.", "Minutes", None, "m", 1, 0)
    units = {u.text: u.section for u in evidence_units([chunk])}
    assert units["The hut roof leaks."] != "Apologies: Ben Cole"  # "Label: value" is a field, not a heading
    assert "Shop: Open Saturdays, 9am to noon." in units  # a subjectless sentence is still the field's value
    assert "The shop takes cards." in units  # a sentence with its own subject stands alone


@pytest.mark.parametrize(
    ("text", "title", "question", "wanted", "unwanted"),
    [
        # the number of a code ("SEV-2") is no length of time
        ("# Outage report: payment failures\n\nSeverity: SEV-2\n\n## Summary\n\nPayments failed for 45 minutes on "
         "Monday morning.", "Outage report: payment failures", "How long did the payment outage last?", "45 minutes",
         "SEV-2"),
        # how often is not how long
        ("## Warranty\n\nTo keep the warranty, the boiler must be serviced every 12 months. The boiler has a 5-year "
         "parts and labour warranty when it is registered.", "Boiler guide", "How long is the boiler warranty?",
         "5-year", "every 12 months"),
    ],
)
def test_how_long_is_answered_by_a_length_of_time(  # type: ignore[no-untyped-def]
    embedder, text: str, title: str, question: str, wanted: str, unwanted: str
) -> None:
    answer = answer_to(embedder, question, [make_chunk(text, title, None, "o", 1, 0)])
    assert answer.answered and wanted in answer.text and unwanted not in answer.text


def test_a_question_s_amount_picks_the_passage_whose_limits_hold_it(embedder) -> None:  # type: ignore[no-untyped-def]
    rules = make_chunk("## Deposits\n\nNo deposit is needed for bookings under £500. For bookings of £500 or more, a "
                       "deposit of 20% is due when you book.", "Booking terms", None, "b", 1, 0)
    large = answer_to(embedder, "What deposit is needed for a £900 booking?", [rules])
    assert "20%" in large.text and "under £500" not in large.text
    small = answer_to(embedder, "Is a deposit needed for a £300 booking?", [rules])
    assert "under £500" in small.text


def test_a_speaker_who_says_i_will_answers_who(embedder) -> None:  # type: ignore[no-untyped-def]
    transcript = make_chunk("Volunteer meeting\n\nANA: The fence by the pond is broken.\nTOM: I can fix the fence "
                            "on Saturday.\nANA: Thanks.", "Volunteer meeting", None, "t", 1, 0)
    answer = answer_to(embedder, "Who will fix the fence?", [transcript])
    assert answer.answered and "TOM: I can fix the fence" in answer.text


def test_a_field_s_label_says_what_its_number_counts(embedder) -> None:  # type: ignore[no-untyped-def]
    impact = make_chunk("## Impact\n\n- Failed orders: about 900\n- Support calls received: 210\n- Refunds issued: 35",
                        "Outage report", None, "o", 1, 0)
    answer = answer_to(embedder, "How many support calls were received?", [impact])
    assert answer.answered and "Support calls received: 210" in answer.text


@pytest.mark.parametrize(("wanted", "have", "covered"), [
    ("own", {"owner"}, True), ("use", {"user"}, True), ("art", {"artist"}, False), ("own", {"town"}, False),
])
def test_a_short_stem_is_covered_by_itself_or_its_doer(wanted: str, have: set[str], covered: bool) -> None:
    # "Who owns the procedure?" missed "Owner: Laboratory Safety Officer"
    assert stem_covered(wanted, have) is covered


def test_a_noun_of_the_question_s_verb_names_what_is_asked(embedder) -> None:  # type: ignore[no-untyped-def]
    # WordNet derives "admission" from "admit": the weight on admission is asked for, not the one at discharge
    assert stem_covered("admit", {"admiss"}) and not stem_covered("admit", {"discharg"})
    note = make_chunk("## Patient\n\n- Name: Rex\n- Admitted: 3 May 2027\n- Weight on admission: 31.4 kg\n"
                      "- Weight at discharge: 30.9 kg\n\n## Treatment\n\nRex was admitted after two days of vomiting.",
                      "Discharge note: Rex", None, "d", 1, 0)
    answer = answer_to(embedder, "What did Rex weigh when he was admitted?", [note])
    assert answer.answered and "31.4 kg" in answer.text and "30.9 kg" not in answer.text


def test_a_long_quote_s_speaker_and_role_answer_who(embedder) -> None:  # type: ignore[no-untyped-def]
    release = make_chunk("# New library for Elmford\n\nThe library will open in May 2027.\n\n\"This building will give "
                         "every family in the town a warm and quiet place to read and study,\" said Councillor Ana "
                         "Ruiz, cabinet member for culture.", "Press release", None, "p", 1, 0)
    answer = answer_to(embedder, "Who is the cabinet member for culture?", [release])
    assert answer.answered and "Councillor Ana Ruiz" in answer.text


def test_unpunctuated_lines_of_a_form_are_separate_sentences() -> None:
    form = make_chunk("ITINERARY\n\nHOTEL\nHotel Alba, 4 Quay Street, Porto\nCheck-in 8 June, check-out 12 June "
                      "(4 nights)\n\nNOTES\nThe registration fee has been paid by the\nUniversity of Leeds.",
                      "Itinerary", None, "i", 1, 0)
    texts = [u.text for u in evidence_units([form])]
    assert "Hotel Alba, 4 Quay Street, Porto" in texts
    assert "Check-in 8 June, check-out 12 June (4 nights)" in texts
    # a heading line is no part of the sentence under it, and a line ending in "the" goes on
    assert "The registration fee has been paid by the University of Leeds." in texts


def test_a_code_block_is_the_item_of_its_lead_in_and_never_a_heading(embedder) -> None:  # type: ignore[no-untyped-def]
    readme = make_chunk("# yamlfix\n\n## Installation\n\nInstall from PyPI:\n\n```sh\npip install yamlfix\n```\n\n"
                        "## Usage\n\nThe default indent is 2 spaces.", "yamlfix", None, "r", 1, 0)
    texts = {u.text: u.section for u in evidence_units([readme])}
    assert "Install from PyPI: pip install yamlfix" in texts
    assert texts["The default indent is 2 spaces."] == "Usage"  # "pip install yamlfix" heads nothing
    answer = answer_to(embedder, "How do I install yamlfix?", [readme])
    assert answer.answered and "pip install yamlfix" in answer.text


def test_a_heading_and_the_document_s_title_together_restate_the_question(embedder) -> None:  # type: ignore[no-untyped-def]
    terms = make_chunk("# Fitwell gym: membership terms\n\n## Cancellation rules\n\nTell the front desk in writing. "
                       "Memberships end at the close of the month after the one in which notice is given.\n\n"
                       "## Opening hours\n\nThe gym opens at 6am on weekdays.", "Fitwell gym: membership terms",
                       None, "g", 1, 0)
    answer = answer_to(embedder, "What are the cancellation rules of the gym?", [terms])
    assert answer.answered and "close of the month" in answer.text and "6am" not in answer.text


def test_the_document_title_names_what_a_field_leaves_out_but_is_no_answer_alone(embedder) -> None:  # type: ignore[no-untyped-def]
    minutes = make_chunk("# Larkfield Cycling Club – Annual Meeting\n\nPresent: 28 members. Chair: Nina Brook. "
                         "Secretary: Joe Platt.\n\n## Elections\n\nOmar Reid was re-elected as treasurer. "
                         "Lena Voss was elected as ride leader.", "Larkfield Cycling Club – Annual Meeting", None,
                         "m", 1, 0)
    answer = answer_to(embedder, "Who is the treasurer of the cycling club?", [minutes])
    # the secretary's field shares only the title's words with the question; the treasurer's sentence the rest
    assert answer.answered and "Omar Reid" in answer.text and "Joe Platt" not in answer.text
    manual = make_chunk("# AIRWELL 9 HEAT PUMP – INSTALLATION GUIDE\n\n## Specifications\n\nHeat output: 6 kW\n"
                        "Refrigerant: R32, 0.9 kg\nWeight: 71 kg", "AIRWELL 9 HEAT PUMP – INSTALLATION GUIDE", None,
                        "p", 1, 0)
    answer = answer_to(embedder, "What refrigerant does the heat pump use?", [manual])
    assert answer.answered and "R32" in answer.text


def test_a_title_naming_every_question_word_leaves_the_answer_to_the_sentence_that_names_one(embedder) -> None:  # type: ignore[no-untyped-def]
    recipe = make_chunk("# Garlic roast lamb\n\nPreparation time: 25 minutes.\n\n## Method\n\n"
                        "1. Heat the oven to 190°C.\n2. Roast the lamb for 1 hour 40 minutes.\n3. Rest it for 20 "
                        "minutes.", "Garlic roast lamb", None, "r", 1, 0)
    answer = answer_to(embedder, "How long does the lamb roast?", [recipe])
    assert answer.answered and "1 hour 40 minutes" in answer.text and "25 minutes" not in answer.text


def test_an_abstention_under_a_question_heading_stays_one_sentence(embedder) -> None:  # type: ignore[no-untyped-def]
    faq = make_chunk("# Frequently asked questions\n\n## What are your opening hours?\n\nWe open at 7am on weekdays "
                     "and at 9am on Saturdays.", "Questions? Ask us!", None, "f", 1, 0)
    answer = answer_to(embedder, "What time does the sauna open on Sundays?", [faq])
    first = split_sentences(answer.text)[0][0]
    assert not answer.answered
    assert first.endswith('the closest passage is under "What are your opening hours" in Questions Ask us.')


def test_a_field_s_later_sentences_are_about_what_it_said_first(embedder) -> None:  # type: ignore[no-untyped-def]
    minutes = make_chunk("# Hillcrest Tennis Club – Annual Meeting\n\n## Motions\n\nMotion 1: to raise the junior fee "
                         "from £40 to £45. Proposed by Dev Rao, seconded by Mia Holt. Carried.\n\nMotion 2: to open "
                         "the courts at 7am on Sundays. Proposed by Ken Aldous. Withdrawn.", "Hillcrest Tennis Club – "
                         "Annual Meeting", None, "t", 1, 0)
    answer = answer_to(embedder, "Who proposed the motion to open the courts on Sundays?", [minutes])
    assert answer.answered and "Ken Aldous" in answer.text and "Dev Rao" not in answer.text
    assert "Withdrawn" not in answer.text  # a word opening a field's value names no one ("Motion 2: Withdrawn.")


def test_a_field_whose_label_names_the_question_is_relevant_however_its_value_embeds(embedder) -> None:  # type: ignore[no-untyped-def]
    guide = make_chunk("# The Marlow Hills Cider Route: A Visitor's Guide\n\n## Key facts\n\nProtected name: Marlow "
                       "Hills Cider, registered in 2001\nNumber of producers: 41 farms and 3 cooperatives\nMain apple: "
                       "Kingston Black\n\n## Visiting\n\nMost farms open at weekends.",
                       "The Marlow Hills Cider Route: A Visitor's Guide", None, "c", 1, 0)
    answer = answer_to(embedder, "When was Marlow Hills Cider registered, and how many producers are there?", [guide])
    assert "2001" in answer.text and "41 farms" in answer.text


def test_a_sentence_whose_subject_is_a_pronoun_is_about_what_the_sentence_before_names(embedder) -> None:  # type: ignore[no-untyped-def]
    terms = make_chunk("# Summer club terms\n\n## Meals\n\n- A packed tea can be booked for £2.50 a day. It must be "
                       "booked by 17:00 on the Thursday before.\n- Please bring a named water bottle.",
                       "Summer club terms", None, "s", 1, 0)
    units = {u.text: u for u in evidence_units([terms])}
    lead = units["It must be booked by 17:00 on the Thursday before."].lead
    assert lead == "A packed tea can be booked for £2.50 a day."
    answer = answer_to(embedder, "What's the deadline for booking a packed tea?", [terms])  # a time, not the price
    assert answer.answered and "17:00" in answer.text and "£2.50" not in answer.text


def test_a_code_s_later_sentences_are_about_its_code(embedder) -> None:  # type: ignore[no-untyped-def]
    manual = make_chunk("# DRYMASTER 7 – USER GUIDE\n\n## Fault codes\n\nF1 - Water tank full. Empty the tank and "
                        "press Start.\nF3 - Filter blocked. Rinse the filter under a cold tap.\nF5 - Door open. "
                        "Close the door firmly.", "DRYMASTER 7 – USER GUIDE", None, "d", 1, 0)
    units = {u.text: u for u in evidence_units([manual])}
    assert units["Rinse the filter under a cold tap."].lead == "F3 - Filter blocked."  # quoted as written
    answer = answer_to(embedder, "What should I do if I see F3?", [manual])
    assert answer.answered and "Rinse the filter" in answer.text and "Empty the tank" not in answer.text


def test_an_acronym_of_the_title_names_the_document(embedder) -> None:  # type: ignore[no-untyped-def]
    minutes = make_chunk("# Hillcrest Bowls Club – Annual General Meeting\n\nThe meeting closed at 9.15pm.",
                         "Hillcrest Bowls Club – Annual General Meeting", None, "m", 1, 0)
    advert = make_chunk("# Groundskeeper wanted\n\nClosing date: 30 June 2026 at noon.", "Groundskeeper wanted", None,
                        "j", 1, 0)
    answer = answer_to(embedder, "When did the AGM close?", [advert, minutes])
    assert answer.answered and "9.15pm" in answer.text and "30 June" not in answer.text


def test_a_numbered_line_in_capitals_heads_the_clauses_under_it() -> None:
    lease = make_chunk("5. REPAIRS\n5.1 The Owner shall keep the roof in repair.\n\n6. BREAK CLAUSE\n6.1 Either party "
                       "may end this lease after 1 May 2027.", "Lease", None, "l", 1, 0)
    sections = {u.text: u.section for u in evidence_units([lease])}
    assert sections["Either party may end this lease after 1 May 2027."] == "BREAK CLAUSE"
    unnumbered = make_chunk("REPAIRS\n5.1 The Owner shall keep the roof in repair.", "Lease", None, "u", 1, 0)
    assert [(u.text, u.section) for u in evidence_units([unnumbered])] == [
        ("The Owner shall keep the roof in repair.", "REPAIRS")]  # the heading is no part of the clause


def test_a_release_number_heads_its_section_and_picks_the_sentences_under_it(embedder) -> None:  # type: ignore[no-untyped-def]
    notes = make_chunk("# Inkwell release notes\n\nInkwell is a drawing app. This page lists every release since "
                       "version 2.0.\n\n## 2.7.1 — 4 May 2026\n\n### Fixed\n\n- Printing no longer cuts off the last "
                       "line of a page.\n- Emoji now display correctly in titles.\n\n## 2.7.0 — 20 April 2026\n\n"
                       "### Fixed\n\n- Login works again behind a proxy.", "Inkwell release notes", None, "n", 1, 0)
    sections = {u.text: u.section for u in evidence_units([notes])}
    assert sections["Fixed: login works again behind a proxy."] == "2.7.0 — 20 April 2026 › Fixed"  # no numbering
    answer = answer_to(embedder, "What was fixed in Inkwell 2.7.1?", [notes])
    assert answer.answered and "Printing" in answer.text and "login" not in answer.text


def test_a_long_title_above_a_sentence_does_not_hide_what_the_sentence_says(embedder) -> None:  # type: ignore[no-untyped-def]
    release = make_chunk("# Brookfield Dairy withdraws Morning Gold strawberry yoghurt pots\n\nThe affected pots "
                         "have a use-by date of 12 December 2026. The problem was found during a routine check at "
                         "the company's plant in Exeter. Customers can return the pots for a refund.",
                         "Brookfield Dairy withdraws Morning Gold strawberry yoghurt pots", None, "y", 1, 0)
    answer = answer_to(embedder, "Where was the problem found?", [release])
    assert answer.answered and "plant in Exeter" in answer.text


def test_a_field_after_a_sentence_of_its_line_is_that_sentence_s(embedder) -> None:  # type: ignore[no-untyped-def]
    review = make_chunk("# Outage review\n\n## Action items\n\n1. Add disk alerts to the storage dashboard. Owner: "
                        "Lena Park. Due: 31 May 2026.\n2. Test backups every month. Owner: Sam Idowu. Due: 30 June "
                        "2026.",
                        "Outage review", None, "o", 1, 0)
    units = {u.text: u for u in evidence_units([review])}
    assert units["Owner: Lena Park."].lead == "Add disk alerts to the storage dashboard."
    answer = answer_to(embedder, "Who owns the action to test backups?", [review])
    assert answer.answered and "Sam Idowu" in answer.text and "Lena Park" not in answer.text
    answer = answer_to(embedder, "When are the disk alerts due?", [review])
    assert answer.answered and "31 May" in answer.text and "30 June" not in answer.text


@pytest.mark.parametrize(("passage", "question", "said", "not_said"), [
    # a count of reports of something counts that thing
    ("The affected tins were sold in packs of 12. The company has received three reports of mild stomach upsets in "
     "dogs and no reports of serious illness.", "How many stomach upsets were reported?", "three reports", "packs"),
    # a count after "room for" counts that room
    ("Our coaches carry 49 passengers. Each coach has space for two wheelchairs and a lift at the rear door.",
     "How many wheelchair spaces does each coach have?", "two wheelchairs", "49"),
])
def test_how_many_is_answered_by_the_count_of_what_it_counts(  # type: ignore[no-untyped-def]
        embedder, passage: str, question: str, said: str, not_said: str) -> None:
    answer = answer_to(embedder, question, [make_chunk(f"# Notice\n\n{passage}", "Notice", None, "n", 1, 0)])
    assert answer.answered and said in answer.text and not_said not in answer.text


def test_a_sentence_with_a_subject_of_its_own_after_a_field_is_not_the_field_s_value() -> None:
    policy = make_chunk("# Data policy\n\nOwner: Records team. Version 4.1, approved on 2 May 2026 by Ana Lee.\n"
                        "Archive room: Basement. Open Mondays only.", "Data policy", None, "d", 1, 0)
    texts = [u.text for u in evidence_units([policy])]
    assert "Version 4.1, approved on 2 May 2026 by Ana Lee." in texts  # quoted as written, not "Owner: Version …"
    assert "Archive room: Open Mondays only." in texts  # a verb's sentence goes on from the field


def test_why_is_answered_by_a_passage_that_gives_a_reason(embedder) -> None:  # type: ignore[no-untyped-def]
    letter = make_chunk("# Allotment application\n\nApplicant: Tom Reed\nDecision: DECLINED\n\nThe application was "
                        "declined because the waiting list for plots is full until 2028.\n\nYou may apply again next "
                        "year.", "Allotment application", None, "a", 1, 0)
    assert "Decision: DECLINED" in [u.text for u in evidence_units([letter])]  # a one-word value is a fact
    answer = answer_to(embedder, "Why was the allotment application declined?", [letter])
    assert answer.answered and "waiting list" in answer.text and "Decision: DECLINED" not in answer.text


def test_sent_is_a_light_verb_and_a_label_answers_who() -> None:
    assert set(question_parts("Who sent apologies?")[0].focus) == {"apolog"}


def test_a_record_s_fields_are_about_whom_its_first_field_names(embedder) -> None:  # type: ignore[no-untyped-def]
    record = make_chunk("# Clinic letter\n\n**Patient:** Tomasz Wierzbicki  \n**Seen:** 4 February 2027  \n"
                        "**Clinician:** Dr Ines Carvalho  \n**Clinic:** Orthopaedics\n\n## Plan\n\nPhysiotherapy "
                        "twice a week for six weeks.\n\n## Allergies\n\nLatex (hives).",
                        "Clinic letter", None, "c", 1, 0)
    units = {u.text: u for u in evidence_units([record])}
    assert units["Seen: 4 February 2027"].subject == "Tomasz Wierzbicki"
    assert "Allergies: Latex (hives)." in units  # a phrase right under a heading is its value, not a heading
    for question, said, not_said in [("When was Tomasz Wierzbicki seen?", "4 February 2027", "Patient:"),
                                     ("Who was Tomasz Wierzbicki's clinician?", "Ines Carvalho", "Patient:"),
                                     ("What is Mr Wierzbicki allergic to?", "Latex", "Patient:")]:
        answer = answer_to(embedder, question, [record])
        assert answer.answered and said in answer.text and not_said not in answer.text, question


def test_a_record_under_a_letterhead_is_about_whom_its_fields_name(embedder) -> None:  # type: ignore[no-untyped-def]
    # the hospital's address and hours come first; the record's own block of fields names whom it is of
    note = make_chunk("KESTREL VETS\n\n12 Mill Lane, Hexby; Tel: 01234 567 890.\n\nOpening hours: Mon-Fri 8am-6pm\n\n"
                      "## Discharge instructions\n\nPatient: Pepper\nOwner: Mr Alan Roe\nAdmitted: 2 May 2027\n"
                      "Weight on admission: 4.2 kg\nWeight at discharge: 4.0 kg\n\n## Medication\n\nGive one "
                      "tablet of Meloxicam each morning with food.", "KESTREL VETS", None, "v", 1, 0)
    assert {u.subject for u in evidence_units([note])} == {"Pepper"}
    answer = answer_to(embedder, "What did Pepper weigh when she was admitted?", [note])
    assert answer.answered and "4.2 kg" in answer.text and "4.0 kg" not in answer.text, answer.text
    prose = make_chunk("KESTREL VETS\n\nWe saw your cat today and she is recovering well after her operation.\n\n"
                       "Patient: Pepper\nOwner: Mr Alan Roe", "KESTREL VETS", None, "w", 1, 0)
    assert {u.subject for u in evidence_units([prose])} == {""}  # fields after prose are no record's heading


def test_a_record_of_a_numbered_thing_answers_for_it(embedder) -> None:  # type: ignore[no-untyped-def]
    # the code asked about ("Unit 7") is named only by the record's first field, not by the sentence that answers
    lease = make_chunk("# Lease summary\n\nPremises: Unit 7, Mill Yard Estate\nTenant: Harbrook Joinery Ltd\n"
                       "Term: 5 years from 1 March 2027\n\n## Rent\n\nThe annual rent is £18,400, payable quarterly "
                       "in advance.\n\n## Service charge\n\nThe service charge is capped at £2,100 a year.",
                       "Lease summary", None, "l", 1, 0)
    assert {u.subject for u in evidence_units([lease])} == {"Unit 7, Mill Yard Estate"}
    answer = answer_to(embedder, "What is the rent for Unit 7?", [lease])
    assert answer.answered and "£18,400" in answer.text and "Premises:" not in answer.text, answer.text
    # the subject's address is no topic for embedding its other fields ("Term: 5 years from 1 March 2027")
    assert "Unit 7" not in {u.text: u for u in evidence_units([lease])}["Term: 5 years from 1 March 2027"].scored_text


def test_a_member_of_a_lettered_series_is_answered_by_its_own_row(embedder) -> None:  # type: ignore[no-untyped-def]
    table = make_chunk("# Boiler care plans\n\n| Plan | Visits | What is covered | Monthly price |\n|---|---|---|---|\n"
                       "| Plan A | 1 a year | Annual service | £9 |\n| Plan B | 2 a year | Plan A plus repairs to the "
                       "boiler | £16 |\n| Plan C | 2 a year | Plan B plus the pipes and radiators | £24 |",
                       "Boiler care plans", None, "b", 1, 0)
    answer = answer_to(embedder, "How much does Plan B cost?", [table])
    assert answer.answered and "£16" in answer.text and "£24" not in answer.text and "£9" not in answer.text
    answer = answer_to(embedder, "What does Plan C include?", [table])  # its row, though it names Plan B too
    assert answer.answered and "radiators" in answer.text and "£16" not in answer.text


def test_a_field_after_a_field_of_its_line_is_about_the_same_thing(embedder) -> None:  # type: ignore[no-untyped-def]
    report = make_chunk("Kingsmead Vale 1-0 Port Esk\nVenue: Ferry Lane. Crowd: 1,873.\n\nThe only goal came "
                        "from a free kick in the 70th minute. Port Esk had two shots on target all afternoon.",
                        "Kingsmead Vale 1-0 Port Esk", None, "k", 1, 0)
    units = {u.text: u for u in evidence_units([report])}
    assert units["Crowd: 1,873."].lead == "Venue: Ferry Lane."
    answer = answer_to(embedder, "How many people were in the crowd at Ferry Lane?", [report])
    assert answer.answered and "1,873" in answer.text


def test_a_label_naming_the_question_s_verb_counts_who_does_it(embedder) -> None:  # type: ignore[no-untyped-def]
    notes = make_chunk("# Open day\n\nThe open day ran from 10am to 4pm in the main hall.\n\nAttendance: 318.\n\n"
                       "Stalls were run by 14 local groups.", "Open day", None, "o", 1, 0)
    answer = answer_to(embedder, "How many people attended the open day?", [notes])
    assert answer.answered and "318" in answer.text and "14 local groups" not in answer.text


def test_a_number_word_compound_heads_a_section_and_a_cut_line_s_tail_heads_none() -> None:
    guide = make_chunk("Care of the mower\n\nClean the deck after each use.\nTwo-stroke engines\n\nMix the fuel at "
                       "50 to 1.", "Mower guide", None, "m", 1, 0)
    sections = {u.text: u.section for u in evidence_units([guide])}
    assert sections["Mix the fuel at 50 to 1."] == "Two-stroke engines"
    later = make_chunk("(Room 2)\nSpeaker: Ada Quist. Tea is served in the hall.", "Programme", None, "p", 2, 480)
    assert all(u.section != "(Room 2)" for u in evidence_units([later]))  # the tail of a line the chunk cut


def test_a_line_ending_a_block_of_fields_heads_nothing() -> None:
    ruling = make_chunk("Decision summary\nHearing date: 2 May 2026\nDecided: 9 May 2026\nTribunal Judge Oyelaran\n\n"
                        "1. The appeal is allowed in part.\n\n2. The fine is reduced to £400.",
                        "Tribunal decision", None, "t", 1, 0)
    sections = {u.text: u.section for u in evidence_units([ruling])}
    assert sections["The fine is reduced to £400."] == "Decision summary"


def test_a_document_s_first_line_is_its_heading_figures_and_all() -> None:
    report = make_chunk("Kettleby Reservoir dragonfly count 2026\n\nRecorders counted 14 species on 3 July 2026.",
                        "Dragonflies", None, "d", 1, 0)  # a file title other than its first line
    assert [(u.text, u.section) for u in evidence_units([report])] == [
        ("Recorders counted 14 species on 3 July 2026.", "Kettleby Reservoir dragonfly count 2026")]


def test_which_over_a_yes_no_column_quotes_every_row_it_marks(embedder) -> None:  # type: ignore[no-untyped-def]
    plans = make_chunk("# Broadband plans\n\n| Plan | Static IP | Phone line | Monthly |\n|---|---|---|---|\n"
                       "| Home | No | Yes | £28 |\n| Home Plus | Yes | Yes | £34 |\n| Studio | Yes | No | £45 |",
                       "Broadband plans", None, "p", 1, 0)
    answer = answer_to(embedder, "Which plans include a static IP?", [plans])
    assert answer.answered and "£34" in answer.text and "£45" in answer.text and "£28" not in answer.text


def test_how_heavy_asks_for_the_weight(embedder) -> None:  # type: ignore[no-untyped-def]
    sheet = make_chunk("# Trailmaster 2 tent\n\nA two-person tent for backpacking, with two porches.\n\n"
                       "## Specifications\n\n| Specification | Value |\n|---|---|\n| Packed size | 45 × 15 cm |\n"
                       "| Weight | 1.8 kg |\n| Peak height | 105 cm |", "Trailmaster 2 tent", None, "t", 1, 0)
    answer = answer_to(embedder, "How heavy is the Trailmaster 2?", [sheet])
    assert answer.answered and "1.8 kg" in answer.text and "105 cm" not in answer.text, answer.text
    answer = answer_to(embedder, "How tall is the Trailmaster 2?", [sheet])
    assert answer.answered and "105 cm" in answer.text and "1.8 kg" not in answer.text, answer.text


def test_what_something_weighed_asks_for_a_weight(embedder) -> None:  # type: ignore[no-untyped-def]
    note = make_chunk("# Discharge note\n\nPatient: Biscuit (dog)\nWeight on admission: 31.4 kg\n"
                      "Weight at discharge: 30.9 kg\n\nBiscuit was admitted on 3 August 2027 after two days of "
                      "vomiting and not eating.", "Discharge note", None, "d", 1, 0)
    answer = answer_to(embedder, "What did Biscuit weigh when he was admitted?", [note])
    assert answer.answered and "31.4 kg" in answer.text and "3 August" not in answer.text, answer.text


def test_a_table_row_named_by_a_word_that_also_means_a_change_counts_it(embedder) -> None:  # type: ignore[no-untyped-def]
    # "Falls" is also the verb of "sales falls"; as a row label it is what the row counts
    table = make_chunk("## Incidents by ward\n\n| Incident | Ward 4 | Ward 5 |\n|---|---|---|\n| Falls | 12 | 8 |\n"
                       "| Pressure sores | 3 | 5 |", "Quarterly safety report", None, "s", 1, 0)
    answer = answer_to(embedder, "How many falls were there on Ward 4?", [table])
    assert answer.answered and "12" in answer.text, answer.text


def test_what_caused_is_answered_by_a_reason(embedder) -> None:  # type: ignore[no-untyped-def]
    report = make_chunk("# Flooding at the depot, 12 March\n\n## What happened\n\nWater reached the loading bay at "
                        "06:40 and the depot closed until noon.\n\n## Root cause\n\nA blocked drain outside the gate "
                        "overflowed during heavy rain, so the water ran into the loading bay.\n\n## Follow-up\n\n"
                        "The drains will be cleared every month.", "Flooding at the depot", None, "f", 1, 0)
    answer = answer_to(embedder, "What caused the flooding at the depot?", [report])
    assert answer.answered and "blocked drain" in answer.text and "06:40" not in answer.text, answer.text


def test_a_document_s_opening_lines_say_what_its_sentences_are_about(embedder) -> None:  # type: ignore[no-untyped-def]
    # a PDF's title wrapped onto a second line: the study is a "trial" though no sentence says so
    paper = make_chunk("Effect of Morning Light Exposure on Sleep in Shift\nWorkers: A Randomised Crossover Trial\n\n"
                       "Methods. We enrolled 96 night-shift nurses. The primary outcome was total sleep time "
                       "measured by wrist actigraphy.\n\nResults. Sleep time rose by a mean of 34 minutes.",
                       "Paper", None, "p", 1, 0)
    assert {u.masthead for u in evidence_units([paper])} == {
        "Effect of Morning Light Exposure on Sleep in Shift Workers: A Randomised Crossover Trial"}
    answer = answer_to(embedder, "What was the primary outcome of the trial?", [paper])
    assert answer.answered and "total sleep time" in answer.text, answer.text


def test_when_is_answered_by_the_date_of_the_heading_above(embedder) -> None:  # type: ignore[no-untyped-def]
    log = make_chunk("# Tallybook changelog\n\n## 3.2.0 — 9 March 2027\n\n### Added\n\n- Receipts can be scanned with "
                     "the phone camera.\n\n## 3.1.0 — 2 February 2027\n\n### Added\n\n- Invoices can be sent in "
                     "Welsh and Irish.", "Tallybook changelog", None, "t", 1, 0)
    answer = answer_to(embedder, "When could receipts first be scanned with the phone camera?", [log])
    assert answer.answered and "9 March 2027" in answer.text and "2 February" not in answer.text, answer.text


def test_what_colour_or_temperature_asks_for_a_value_not_the_word(embedder) -> None:  # type: ignore[no-untyped-def]
    # the answer gives the value ("red brick", "5 °C"), seldom the word "colour" or "temperature"
    notice = make_chunk("NOTICE OF DECISION\n\nDecision: PERMISSION GRANTED subject to the conditions below.\n\n"
                        "Conditions\n1. The development must begin within three years of the date of this decision.\n"
                        "2. The new fence must be finished in dark green timber to match the gate.\n3. The shed must "
                        "not be used as a workshop.\n4. Seed for the meadow must be stored between 4 °C and 10 °C "
                        "until sowing.", "Decision notice", None, "n", 1, 0)
    for question, said in [("What colour must the new fence be?", "dark green"),
                           ("At what temperature should the seed be stored?", "4 °C")]:
        answer = answer_to(embedder, question, [notice])
        assert answer.answered and said in answer.text, (question, answer.text)


def test_a_passage_that_speaks_to_its_reader_answers_for_the_passenger_or_tenant_asked_about(embedder) -> None:  # type: ignore[no-untyped-def]
    notice = make_chunk("# Planned engineering works\n\n## Accessibility\n\nIf you need help, contact Assisted Travel "
                        "on 0808 157 0655 at least 24 hours before you travel and we will arrange a taxi.\n\n"
                        "## Tickets\n\nTickets dated for the closure are valid on the day before or after.",
                        "Engineering works", None, "w", 1, 0)
    answer = answer_to(embedder, "How far in advance should passengers contact Assisted Travel?", [notice])
    assert answer.answered and "24 hours" in answer.text, answer.text


def test_a_question_word_re_before_one_the_passage_says_is_said_and_what_role_asks_for_one(embedder) -> None:  # type: ignore[no-untyped-def]
    report = make_chunk("COMMENTS\n\nThe lead result at the fountain is above the limit. We recommend that the "
                        "fountain is taken out of use and that a flushed sample is taken within 14 days.\n\n"
                        "CONTACTS\n\nFoundation: Ms Fenella Dunmore, Grants Manager - questions about the terms of "
                        "this award.", "Report", None, "r", 1, 0)
    for question, said in [("Within how many days should the fountain be resampled?", "14 days"),
                           ("What role does Fenella Dunmore hold?", "Grants Manager")]:
        answer = answer_to(embedder, question, [report])
        assert answer.answered and said in answer.text, (question, answer.text)


def test_who_holds_a_role_is_the_signature_that_names_it_not_a_deputy_or_an_address(embedder) -> None:  # type: ignore[no-untyped-def]
    letter = make_chunk("# Hollins Brook Primary School\n\nMill Lane, Hollins Brook, Wexcombe WX9 4HB · "
                        "Tel 0113 496 0735\n\n## A message from Mrs Kerridge\n\nDear Parents and Carers,\n\n"
                        "Thank you to everyone who dressed up for World Book Day.\n\nWarm wishes,\n"
                        "Mrs Annabel Kerridge, Headteacher",
                        "Hollins Brook Primary School", None, "n", 1, 0)
    answer = answer_to(embedder, "Who is the headteacher of Hollins Brook Primary School?", [letter])
    assert answer.answered and "Annabel Kerridge" in answer.text and "Mill Lane" not in answer.text, answer.text
    from ingest.tables import aligned_tables

    minutes = make_chunk(aligned_tables(  # as the loader reads names and roles set out in columns
        "MINUTES OF THE MEETING OF THE BOARD OF TRUSTEES\nHeld on Tuesday 16 March 2027\n\nPRESENT\n"
        "  Dr Yvonne Achterberg     Chair\n  Claire Dunsford          Vice-Chair\n\n1. WELCOME\n"
        "The Chair welcomed everyone."), "Minutes", None, "m", 1, 0)
    answer = answer_to(embedder, "Who chaired the meeting?", [minutes])
    assert answer.answered and "Yvonne Achterberg" in answer.text, answer.text
    assert "Claire Dunsford" not in answer.text and "welcomed" not in answer.text, answer.text


def test_who_holds_a_title_written_as_one_is_the_field_that_names_it_not_the_address(embedder) -> None:  # type: ignore[no-untyped-def]
    terms = make_chunk("# Ironvale Fitness: Membership Terms Summary\n\nQuarrymoor Club, 27 Tannery Row, Quarrymoor "
                       "QM4 8JD\n\n## 10. Contacts\n\nClub Manager: Delphine Okafor-Walsh\n\nMembership Lead: Rhys "
                       "Abernethy\n\nEmail: quarrymoor@ironvalefitness.example", "Ironvale Fitness", None, "g", 1, 0)
    answer = answer_to(embedder, "Who is the Membership Lead at Ironvale Quarrymoor?", [terms])
    assert answer.answered and "Rhys Abernethy" in answer.text, answer.text
    assert "Tannery Row" not in answer.text and "Okafor-Walsh" not in answer.text, answer.text


def test_a_document_s_opening_says_what_its_later_sections_are_about(embedder) -> None:  # type: ignore[no-untyped-def]
    # the letterhead under the title names the club; the opening-hours section never names it again
    def terms(club: str) -> list[Chunk]:
        opening = make_chunk(f"# Membership Terms Summary\n\n{club} Club, 27 Tannery Row\n\nThis summary sets out "
                             "the main terms of membership.", "Membership Terms Summary", None, club, 1, 0)
        hours = make_chunk("## Opening hours\n\nThe club is open from 6am to 10pm on weekdays. The club is closed on "
                           "25 December, 26 December and 1 January.", "Membership Terms Summary", None, club, 2, 400)
        return [opening, hours]

    answer = answer_to(embedder, "Which days of the year is the Quarrymoor club shut?", terms("Quarrymoor"))
    assert answer.answered and "25 December" in answer.text, answer.text
    # the terms of another club say nothing of this one's
    answer = answer_to(embedder, "Which days of the year is the Quarrymoor club shut?", terms("Hollinmere"))
    assert not answer.answered, answer.text


def test_a_field_whose_label_has_a_comma_is_a_field_not_a_heading(embedder) -> None:  # type: ignore[no-untyped-def]
    contacts = make_chunk("## Contacts\n\nPort Manager, Port Alnach: Catriona MacVicar\n\nSkerrin Terminal "
                          "Supervisor: Euan Dalgleish\n\nPort Alnach office: open 06:45 to 19:30", "Ferry timetable",
                          None, "p", 1, 0)
    answer = answer_to(embedder, "Who is the Port Manager at Port Alnach?", [contacts])
    assert answer.answered and "Catriona MacVicar" in answer.text and "Dalgleish" not in answer.text, answer.text


def test_a_word_that_only_relates_two_places_is_no_word_the_passage_must_name(embedder) -> None:  # type: ignore[no-untyped-def]
    notice = make_chunk("# Caldra Sound Ferries - Port Alnach to Skerrin winter timetable\n\n## Summary of changes\n\n"
                        "The crossing takes 35 minutes in normal weather.", "Caldra Sound Ferries - Port Alnach to "
                        "Skerrin winter timetable", None, "c", 1, 0)
    answer = answer_to(embedder, "How long does the crossing between Port Alnach and Skerrin take?", [notice])
    assert answer.answered and "35 minutes" in answer.text, answer.text


def test_a_verb_that_only_says_something_happens_is_no_word_the_answer_must_have(embedder) -> None:  # type: ignore[no-untyped-def]
    clubs = make_chunk(
        "## After-school and lunchtime clubs (spring term)\n\n| Club | Day | Time | Year groups | Led by | Cost |\n"
        "|---|---|---|---|---|---|\n| Football | Monday | 3:15–4:15pm | Y3–Y6 | Mr Doyle | Free |\n"
        "| Coding | Tuesday | 3:15–4:30pm | Y5–Y6 | Ms Adeyemi | £2.00 per session |\n"
        "| Choir | Wednesday | 12:40–1:10pm (lunchtime) | Y3–Y6 | Mrs Pelham | Free |\n\n"
        "Coding Club is full; please ask the office to join the waiting list.", "Newsletter", None, "c", 1, 0)
    answer = answer_to(embedder, "When does Coding Club meet?", [clubs])
    assert answer.answered and "Tuesday" in answer.text and "Monday" not in answer.text, answer.text


def test_how_much_something_costs_is_answered_by_a_sum_of_money_not_its_age(embedder) -> None:  # type: ignore[no-untyped-def]
    notice = make_chunk("## What is happening?\n\nWe are replacing the 140-year-old deck of Cadwell Viaduct (built "
                        "1887) and installing new signalling.\n\n## Tickets\n\nA day return costs £12.40.",
                        "Engineering works", None, "v", 1, 0)
    answer = answer_to(embedder, "How much is the viaduct replacement costing?", [notice])
    assert not answer.answered, answer.text
    answer = answer_to(embedder, "How much does a day return cost?", [notice])
    assert answer.answered and "£12.40" in answer.text, answer.text


def test_a_list_item_s_later_sentences_are_about_what_it_opens_with(embedder) -> None:  # type: ignore[no-untyped-def]
    buses = make_chunk("### Replacement buses\n\nTwo types of bus will run:\n\n- **Stopping bus (route RB1)** — calls "
                       "at every station. Every 30 minutes. Journey time about 65 minutes.\n- **Express coach (route "
                       "RB2)** — non-stop. Hourly, departing at 20 minutes past each hour. Journey time about 50 "
                       "minutes.\n", "Engineering works", None, "b", 1, 0)
    answer = answer_to(embedder, "How often does the express coach run?", [buses])
    assert answer.answered and "Hourly" in answer.text and "Every 30 minutes" not in answer.text, answer.text


def test_when_something_begins_is_answered_by_the_span_it_runs_for(embedder) -> None:  # type: ignore[no-untyped-def]
    # the table says "Section closed" and gives the days, never "closure" or "begin"
    works = make_chunk("## What is happening?\n\n| Phase | Dates | Section closed | Times |\n|---|---|---|---|\n"
                       "| 1 | Sat 10 Apr – Sun 18 Apr 2027 (9 days) | Ashby Mount ↔ Fennick Bay | All day |\n"
                       "| 2 | Sun 25 Apr and Sun 2 May 2027 | Larchmont Central ↔ Ashby Mount | Until 11:00 |\n\n"
                       "## FAQ\n\n**Will the first train still run?**\n\nYes in Phase 1.", "Engineering works", None,
                       "p", 1, 0)
    answer = answer_to(embedder, "When does the Phase 1 closure begin?", [works])
    assert answer.answered and "10 Apr" in answer.text and "25 Apr" not in answer.text, answer.text


def test_a_letter_s_fields_are_about_whom_its_re_line_names(embedder) -> None:  # type: ignore[no-untyped-def]
    letter = make_chunk("ST ALDWYN'S GENERAL HOSPITAL\nDepartment of Cardiology\n\nDr Priya Venkataraman\n"
                        "Lindenbrook Medical Practice\n\nDear Dr Venkataraman,\n\nRE: Mr Gerald ASHWORTH-PRYCE DOB: "
                        "03/11/1958\n\nAdmitted: 09/05/2027\nDischarged: 14/05/2027\n\nDIAGNOSES\nPrimary: "
                        "Non-ST-elevation myocardial infarction (NSTEMI)\n\nPRESENTATION\nMr Ashworth-Pryce, a "
                        "68-year-old bus depot supervisor, presented to the Emergency Department on 09/05/2027 with "
                        "chest pain.", "Discharge letter", None, "l", 1, 0)
    for question, said in [("On what date was Mr Ashworth-Pryce discharged from hospital?", "14/05/2027"),
                           ("What was Mr Ashworth-Pryce's primary diagnosis?", "NSTEMI")]:
        answer = answer_to(embedder, question, [letter])
        assert answer.answered and answer.text.startswith(("Discharged", "Primary")) and said in answer.text, (
            question, answer.text)


def test_a_code_a_document_opens_with_names_what_its_later_lines_are_about(embedder) -> None:  # type: ignore[no-untyped-def]
    opening = make_chunk("PARTS RECEIPT\nReceipt No: RC-40718\nDate: 3 May 2027\nCustomer: Ms Ada Pell\n\n"
                         "Thank you for shopping with us.", "Parts receipt", None, "r", 0, 0)
    totals = make_chunk("Items: brake pads, wiper blades.\n\nGoods total: £84.20\nVAT: £16.84\nAmount paid: £101.04",
                        "Parts receipt", None, "r", 1, 120)
    answer = answer_to(embedder, "What was the amount paid on receipt RC-40718?", [opening, totals])
    assert answer.answered and "£101.04" in answer.text, answer.text
    other = make_chunk("PARTS RECEIPT\nReceipt No: RC-40719\nDate: 4 May 2027", "Parts receipt", None, "s", 0, 0)
    elsewhere = make_chunk("Goods total: £12.00\nAmount paid: £14.40", "Parts receipt", None, "s", 1, 60)
    answer = answer_to(embedder, "What was the amount paid on receipt RC-40718?",
                       [opening, totals, other, elsewhere])
    assert "£101.04" in answer.text and "£14.40" not in answer.text, answer.text  # not the other receipt's


def test_lodging_an_appeal_is_making_one(embedder) -> None:  # type: ignore[no-untyped-def]
    notice = make_chunk("RIGHT OF APPEAL\n\nFor householder applications, an appeal must be made within 12 weeks of "
                        "the date of this notice.", "Decision notice", None, "n", 1, 0)
    answer = answer_to(embedder, "How long does the applicant have to lodge an appeal?", [notice])
    assert answer.answered and "12 weeks" in answer.text, answer.text


@pytest.mark.model
def test_a_sentence_naming_its_doer_as_she_is_written_with_the_heading_that_names_her(embedder) -> None:  # type: ignore[no-untyped-def]
    programme = make_chunk(
        "# Spring Concert Programme\n\n## Tonight's performers\n\n### Maren Holloway, soprano\n\nMaren Holloway "
        "studied at the Eastgate Conservatoire and sings regularly with choirs across the region. This evening she "
        "sings the Pie Jesu in the Requiem, and she also takes the soprano solo in the closing anthem.\n\n"
        "### Tomas Reyes, organ\n\nTomas Reyes is organist of St Anne's. He plays the Toccata before the interval.",
        "Spring Concert Programme", date(2025, 3, 1), "programme")
    draft = write(embedder, "Which soloist performs the Pie Jesu?", [programme])
    (answer,) = [s for s, _, _ in split_sentences(draft.text) if "Pie Jesu" in s]
    assert "Maren Holloway" in answer  # the heading's name, not "she" alone


@pytest.mark.parametrize(("wanted", "have", "covered"), [
    ("led", "lead", True), ("paid", "pay", True), ("taught", "teach", True), ("children", "child", True),
    ("led", "project", False), ("paid", "fee", False),
])
def test_an_irregular_form_covers_what_it_is_a_form_of(wanted: str, have: str, covered: bool) -> None:
    # "Who led the study?" is answered by "Project lead: Dr Mirela Voss"
    assert stem_covered(wanted, {have}) is covered


def test_the_askers_situation_before_the_question_is_focus_an_answer_may_leave_out() -> None:
    (part,) = question_parts("There are seven of us living in the house. Can we have a bigger black bin?")
    assert part.situation == {"hous", "live"} and part.situation < part.focus
    (part,) = question_parts("Can we have a bigger black bin for the house?")
    assert not part.situation  # a question's own words are all its topic


@pytest.mark.model
def test_a_question_after_the_askers_situation_is_answered_by_a_passage_that_does_not_restate_it(
        embedder: object) -> None:
    fines = make_chunk("Late returns\nA fine of 20p a day is charged for each item returned after its due date.")
    draft = write(embedder, "My sister returned her library book two weeks late. Does she have to pay a fine?",
                  [fines])
    assert draft.answered and "20p a day" in draft.text


@pytest.mark.model
def test_a_telephone_number_is_no_amount_but_answers_a_question_about_contact_details(embedder: object) -> None:
    contact = make_chunk("Apprenticeships at Ashdown Engineering\n\nContact\n\n"
                         "apprentices@ashdown.co.uk; 01632 960 552.")
    assert not write(embedder, "How much does Ashdown Engineering pay its apprentices?", [contact]).answered
    rung = write(embedder, "What number do I ring about the Ashdown Engineering apprenticeships?", [contact])
    assert rung.answered and "01632 960 552" in rung.text


def test_the_year_of_a_course_is_a_period_a_passage_about_another_year_is_not_about() -> None:
    from ledger.backends.local.questions import periods

    (part,) = question_parts("How much would I earn in the second year of the apprenticeship?")
    assert part.periods == {"n2"}
    assert periods("Year 2 (Annual salary: £20,000).") == {"n2"} and not periods("The course lasts 2 years.")
    assert period_conflict(part.periods, periods("Year 3 (Annual salary: £23,500)."))
