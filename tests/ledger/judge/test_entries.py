"""decide_entry: which searched quotes count, and the verdict they give."""

from __future__ import annotations

from datetime import date

import pytest

from ledger.core.settings import JudgeSettings
from ledger.core.types import Claim, EvidenceMatch
from ledger.judge.entries import decide_entry

CLAIM = Claim(id="c1", text="Trouble with the Curve is a film.", type="fact", importance="material")


def searched(similarity: float, support: str = "full", entailment: float | None = None) -> EvidenceMatch:
    return EvidenceMatch(
        chunk_hash="abc123", document="Films", similarity=similarity, support=support,  # type: ignore[arg-type]
        quote="Trouble with the Curve is a 2012 sports-drama film directed by Robert Lorenz.",
        match_type="semantic", reason="the quote states the claim", entailment=entailment,
    )


@pytest.mark.parametrize(
    ("match", "verdict"),
    [
        (searched(0.66, entailment=0.92), "weak"),  # below the bar, but the model reads the claim in the quote
        (searched(0.66, support="partial", entailment=0.55), "weak"),
        (searched(0.66, entailment=0.3), "not_found"),  # the model does not: the seed's bar decides
        (searched(0.66), "not_found"),  # no model read it (rules alone): the seed's bar decides
        (searched(0.66, support="none", entailment=0.99), "not_found"),  # no support, whatever the model says
        (searched(0.9), "supported"),  # above the bar, as before
    ],
)
def test_a_searched_quote_below_the_similarity_bar_counts_when_the_model_reads_the_claim_in_it(
    match: EvidenceMatch, verdict: str
) -> None:
    entry = decide_entry(CLAIM, [], [match], [], date(2026, 1, 1), JudgeSettings())
    assert entry.verdict == verdict
    if verdict != "not_found":
        assert entry.evidence[0].quote == match.quote


@pytest.mark.parametrize(
    ("claim", "quote", "counts", "plain"),
    [
        # "three fifths" for "61%" lowers the cosine as a changed figure does; the rules matched it where the claim's
        # words are, so the quote counts (with the inference penalty: weak). The same quote without the figure does not.
        ("Roughly three fifths of turnover came from port dues.", "Port dues accounted for 61% of turnover.",
         "the quote states the claim (similarity 0.62); figures agree (three fifths of, stated as 61%)",
         "the quote states the claim (similarity 0.62)"),
        # two figures of the claim where its words are: no coincidence; one alone is not enough below the bar
        ("The core grant made up 38% of income, down from 44% a year earlier.",
         "The core grant provided 38% of income, down from 44% the year before.",
         "the quote states the claim (similarity 0.64); both figures agree (38%, 44%)",
         "the quote states the claim (similarity 0.64); figures agree (38%)"),
        # an amount to the penny that the quote repeats as written is no coincidence either; a round one may be
        ("Time beyond the funded hours is charged at £8.40 an hour.",
         "Any hours your child attends beyond their funded hours are charged at £8.40 an hour.",
         "the quote states the claim (similarity 0.68); figures agree (£8.40 an hour)",
         "the quote states the claim (similarity 0.68)"),
    ],
)
def test_full_support_on_figures_written_otherwise_or_on_two_figures_counts_below_the_similarity_bar(
    claim: str, quote: str, counts: str, plain: str
) -> None:
    stated = Claim(id="c1", text=claim, type="numeric", importance="material")
    kept = searched(0.63).model_copy(update={"quote": quote, "reason": counts})
    dropped = kept.model_copy(update={"reason": plain})
    assert decide_entry(stated, [], [kept], [], date(2026, 1, 1), JudgeSettings()).verdict == "weak"
    assert decide_entry(stated, [], [dropped], [], date(2026, 1, 1), JudgeSettings()).verdict == "not_found"


def test_the_confirming_probability_is_a_setting() -> None:
    match = searched(0.66, entailment=0.6)
    assert decide_entry(CLAIM, [], [match], [], date(2026, 1, 1), JudgeSettings(nli_confirm=0.5)).verdict == "weak"
    assert decide_entry(CLAIM, [], [match], [], date(2026, 1, 1), JudgeSettings(nli_confirm=0.8)).verdict == "not_found"


def test_a_match_no_model_read_dumps_as_runs_stored_before_the_field_existed() -> None:
    # An old run reloaded and dumped again must hash the same, or its audit row would say it was edited.
    stored = searched(0.9).model_dump(mode="json")
    assert "entailment" not in stored
    assert EvidenceMatch.model_validate(stored).model_dump(mode="json") == stored
    assert searched(0.66, entailment=0.92).model_dump(mode="json")["entailment"] == 0.92


def test_a_claim_a_document_states_word_for_word_is_never_not_found() -> None:
    # A short claim inside a long sentence scores under the similarity bar, and no model read it (the model is not
    # asked about a quote that repeats the claim): the words themselves are the evidence.
    claim = Claim(id="c2", text="All backups are encrypted with AES-256.", type="fact", importance="material")
    quote = ("All backups are encrypted with AES-256 and copied nightly to a second region, where they are kept for "
             "35 days and tested every quarter by restoring a sample of them.")
    match = EvidenceMatch(chunk_hash="def456", document="Backups", similarity=0.41, support="full", quote=quote,
                          match_type="semantic", reason="the quote states the claim word for word")
    entry = decide_entry(claim, [], [match], [], date(2026, 1, 1), JudgeSettings())
    # Supported, not "weak": a low similarity is read as "the quote only implies the claim" (seed 004 §5.2), but this
    # quote states it in so many words.
    assert entry.verdict == "supported" and entry.evidence[0].quote == quote
    assert "only implies" not in entry.notes
    paraphrase = match.model_copy(update={"quote": "Every backup is encrypted (AES-256) and copied nightly."})
    assert decide_entry(claim, [], [paraphrase], [], date(2026, 1, 1), JudgeSettings()).verdict == "not_found"


def test_support_the_model_dropped_leaves_a_not_found_that_shows_the_passage_and_says_why() -> None:
    from ledger.judge.support import SAYS_MORE

    claim = Claim(id="c2", text="Trouble with the Curve is a film about baseball scouts.", type="fact",
                  importance="material")
    dropped = searched(0.86, support="none").model_copy(
        update={"reason": f"{SAYS_MORE} (NLI: neutral 0.91, entailment 0.03)"})
    entry = decide_entry(claim, [], [dropped], [], date(2026, 1, 1), JudgeSettings())
    assert entry.verdict == "not_found" and entry.confidence == 0.0
    assert entry.notes.startswith("No passage in the documents states this.")
    assert "The closest passage, 'Films' [abc123], says less than the claim" in entry.notes
    assert "neutral 0.91" in entry.notes
    assert [m.quote for m in entry.evidence] == [dropped.quote]  # the reviewer can read what was not enough



def test_a_claim_not_found_shows_the_closest_passage_the_rules_read_and_why_it_is_not_enough() -> None:
    claim = Claim(id="c3", text="The port recorded three incidents in 2023.", type="numeric", importance="material")
    read = searched(0.76, support="none").model_copy(update={
        "quote": "There were 3 incidents during the year, compared with 5 in 2022.",
        "reason": "the evidence gives 2022, not 2023, in a statement only partly like the claim"})
    far = searched(0.42, support="none").model_copy(update={"chunk_hash": "fff000", "quote": "Cargo grew by 7%."})
    entry = decide_entry(claim, [], [far, read], [], date(2026, 1, 1), JudgeSettings())
    assert entry.verdict == "not_found"
    assert entry.notes == ("No passage in the documents states this. The closest passage, 'Films' [abc123], does not "
                           "state it: the evidence gives 2022, not 2023, in a statement only partly like the claim.")
    assert [m.quote for m in entry.evidence] == [read.quote]
    # nothing at least somewhat similar: nothing to show
    alone = decide_entry(claim, [], [far], [], date(2026, 1, 1), JudgeSettings())
    assert alone.notes == "No passage in the documents states this." and alone.evidence == []


def test_support_in_a_passage_too_far_from_the_claim_leaves_a_not_found_that_shows_the_passage() -> None:
    claim = Claim(id="c4", text="Visitors must not bring food into the galleries.", type="policy",
                  importance="material")
    loose = searched(0.62, support="partial").model_copy(update={
        "quote": "Eating is not allowed in any gallery.", "entailment": 0.2,
        "reason": "the quote supports part of the claim; not found: 'visitor', 'bring'"})
    entry = decide_entry(claim, [], [loose], [], date(2026, 1, 1), JudgeSettings())
    assert entry.verdict == "not_found" and entry.confidence == 0.0
    assert ("The closest passage, 'Films' [abc123], is too loose a match to count (similarity 0.62, not above 0.70; "
            "the model finds it entailed 0.20): the quote supports part of the claim") in entry.notes
    assert [m.quote for m in entry.evidence] == [loose.quote]


@pytest.mark.model
def test_a_figure_the_documents_work_out_to_is_supported_and_shows_the_working(embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # "four years after" is in no sentence; 1889 and 1893 are. The claim is far from the sentence by cosine (under
    # the similarity bar) and the model reads such arithmetic as a contradiction: the rules do the sum.
    from ledger.core.settings import Settings
    from ledger.judge.evaluation import EvalItem, judge_items
    from ledger.loop.factory import build_support_checker

    evidence = ["Margarethe Oyen (1841–1907) was a botanist best known for her study of mosses. Her two-volume Flora "
                "of the Mosses of Western Norway, published in 1889 and 1893, described 212 species."]
    items = [EvalItem(id=f"i{n}", claim=f"The second volume of Oyen's moss flora appeared {years} after the first.",
                      evidence=evidence, label="supported") for n, years in enumerate(("four years", "six years"))]
    ages = ["The herbarium is open from 10:00 to 16:30. Children under 12 must be accompanied by an adult."]
    items += [EvalItem(id=f"a{n}", claim=f"A {age} must be accompanied by an adult.", evidence=ages, label="supported")
              for n, age in enumerate(("nine-year-old", "14-year-old"))]
    right, wrong, child, teenager = judge_items(items, build_support_checker(Settings(home=tmp_path), embedder))
    assert right.verdict in ("supported", "weak")
    assert "worked out: 1893 − 1889" in right.evidence[0].reason and "1893 − 1889" in right.notes
    assert wrong.verdict not in ("supported", "weak")
    # an age in an age group: the group's rule applies to it, and the note says why; outside the group it does not
    assert child.verdict in ("supported", "weak") and "9 is under 12" in child.notes
    assert teenager.verdict == "not_found"


@pytest.mark.model
def test_drafts_judged_against_passages_a_user_would_check_them_by(embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # each was wrong before: a change stated the claim's way among other changes read as a contradiction by the model,
    # a "Do not …" sentence beside the one stating the claim's figure read as denying it, a bound held by an
    # unrelated figure ("a day" within "up to six months"), and an irregular verb form kept apart from its verb
    from ledger.core.settings import Settings
    from ledger.judge.evaluation import EvalItem, judge_items
    from ledger.loop.factory import build_support_checker

    update = ["Highlights\nRevenue was £312 million, up 6.4% on the same quarter last year (Q3 2025: £293 million). "
              "Like-for-like sales grew 4.1%. Operating profit was £27.5 million, compared with £24.0 million a year "
              "earlier.\n\nThe frozen division grew fastest, with revenue up 11% to £96 million. Chilled revenue was "
              "flat at £141 million. Bakery revenue fell 2% to £75 million after the closure of a site in June.\n\n"
              "Net debt at the end of the quarter was £118 million, down from £131 million at 30 June 2026.\n\n"
              "Outlook\nThe board now expects full-year revenue of between £1.22 billion and £1.25 billion, raised "
              "from the previous range of £1.19 billion to £1.23 billion."]
    pump = ["Do not use the pump for salt water, flammable liquids or water above 35 °C. The pump must be connected "
            "through a residual current device (RCD) with a tripping current of no more than 30 mA."]
    soup = ["Serves 6. Cooking time: 2 hours 30 minutes.\n\nThis stew is best made a day ahead: the spices mellow "
            "overnight and the sauce thickens. It freezes well for up to three months."]
    items = [EvalItem(id="debt", claim="Net debt fell to £118 million.", evidence=update, label="supported"),
             EvalItem(id="rcd", claim="The pump must be used with an RCD of no more than 30 mA.", evidence=pump,
                      label="supported"),
             EvalItem(id="six", claim="The stew can be frozen for up to six months.", evidence=soup,
                      label="contradicted"),
             EvalItem(id="three", claim="The stew can be frozen for up to three months.", evidence=soup,
                      label="supported")]
    debt, rcd, six, three = judge_items(items, build_support_checker(Settings(home=tmp_path), embedder))
    assert debt.verdict in ("supported", "weak"), debt.notes
    assert rcd.verdict in ("supported", "weak"), rcd.notes
    assert six.verdict not in ("supported", "weak"), six.notes
    assert three.verdict in ("supported", "weak"), three.notes


@pytest.mark.model
def test_a_claim_s_figure_in_the_table_row_it_names_is_supported(embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a short row is far from the claim by cosine (0.68 here, under the bar); the row's name and figure are the claim's
    from ledger.core.settings import Settings
    from ledger.judge.evaluation import EvalItem, judge_items
    from ledger.loop.factory import build_support_checker

    prices = ["# Visiting the harbour museum\n\n## Opening hours\n\nTuesday to Friday (Museum: 10:00 to 17:00; Ship: "
              "10:30 to 16:00).\n\nMonday (Museum: Closed; Ship: Closed).\n\nLast entry is 45 minutes before closing. "
              "The museum is closed on 24, 25 and 26 December.\n\n## Tickets\n\nAdult (Price: £12.50).\n\n"
              "Concession (over 65, student) (Price: £9.00).\n\nChild (5 to 16) (Price: £6.00)."]
    items = [EvalItem(id="adult", claim="An adult ticket costs £12.50.", evidence=prices, label="supported"),
             EvalItem(id="other", claim="An adult ticket costs £9.00.", evidence=prices, label="contradicted")]
    adult, other = judge_items(items, build_support_checker(Settings(home=tmp_path), embedder))
    assert adult.verdict in ("supported", "weak"), adult.notes
    assert other.verdict not in ("supported", "weak"), other.notes
