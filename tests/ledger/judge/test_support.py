"""The local support checker: rules on features (pure), batching and caching, and real checks with the model."""

from __future__ import annotations

import pytest

from ledger.core.types import Chunk
from ledger.judge.support import LocalSupportChecker
from ledger.judge.support_rules import SupportFeatures, decide_support, features, figures_stated_otherwise
from ledger.text.quantities import Agreement, compare_quantities, extract_quantities
from tests.fakes import HashEmbedder, make_chunk


def figures(claim: str, evidence: str) -> Agreement:
    return compare_quantities(extract_quantities(claim), extract_quantities(evidence))


def feats(**overrides: object) -> SupportFeatures:
    values: dict[str, object] = {"similarity": 0.9, "coverage": 1.0}
    values.update(overrides)
    return SupportFeatures(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("case", "f", "support", "reason_has"),
    [
        ("paraphrase with the figure",
         feats(similarity=0.8, coverage=0.7, quantities=figures("$220 a night", "$220 per night")),
         "full", "$220 a night"),
        ("every key term present", feats(similarity=0.62, coverage=1.0), "full", "states the claim"),
        ("close paraphrase, other words", feats(similarity=0.86, coverage=0.3), "full", "states the claim"),
        ("changed figure", feats(similarity=0.9, coverage=0.8, quantities=figures("$250 per night", "$220 per night")),
         "contradicted", "evidence says $220 per night, claim says $250 per night"),
        ("changed date", feats(similarity=0.7, coverage=0.8, quantities=figures("on 1 May 2026", "on 2026-03-01")),
         "contradicted", "evidence says 2026-03-01"),
        ("changed figure, but about something else", feats(similarity=0.6, coverage=0.4,
                                                            quantities=figures("$50 per night", "$340 per night")),
         "none", "gives $340 per night, not $50 per night"),
        ("labelled date of the same document", feats(similarity=0.38, coverage=0.3, quantities=figures(
            "The policy took effect on 1 May 2026.", "Effective date: 2026-03-01")), "contradicted", "2026-03-01"),
        ("negation flipped", feats(similarity=0.82, coverage=1.0, quote_negated=True, negation_anchor=1),
         "contradicted", "opposite polarity"),
        ("negation flipped, weak topic but the negation is about the claim's words",
         feats(similarity=0.62, coverage=0.55, claim_negated=True, negation_anchor=3), "contradicted", "polarity"),
        ("negation flipped, different topic", feats(similarity=0.4, coverage=0.3, quote_negated=True), "none", ""),
        ("negation flipped, claim figure missing", feats(similarity=0.8, coverage=0.8, quote_negated=True,
                                                         quantities=figures("within 5 days", "no figure")), "none", ""),
        ("swapped role", feats(similarity=0.9, coverage=0.9, swaps=(("CEO", "CFO"),)), "contradicted",
         "evidence says CFO, claim says CEO"),
        ("swapped role, different topic", feats(similarity=0.45, coverage=0.4, swaps=(("CEO", "CFO"),)), "none", ""),
        ("part of the claim", feats(similarity=0.7, coverage=0.75, missing_terms=("receipt",)), "partial", "receipt"),
        ("claim figure not in the quote", feats(similarity=0.7, coverage=0.8, quantities=figures("$40", "no figures")),
         "none", "$40"),
        ("unrelated", feats(similarity=0.2, coverage=0.1), "none", "does not address"),
        ("the claim word for word in a long sentence", feats(similarity=0.42, coverage=1.0, verbatim=True), "full",
         "word for word"),
        ("word for word, but a negation in the quote", feats(similarity=0.82, coverage=1.0, verbatim=True,
                                                            quote_negated=True, negation_anchor=2),
         "contradicted", "opposite polarity"),
    ],
)
def test_decide_support(case: str, f: SupportFeatures, support: str, reason_has: str) -> None:
    decided, reason = decide_support(f)
    assert decided == support, case
    assert reason_has in reason


@pytest.mark.parametrize(
    ("claim", "quote", "flipped"),
    [
        ("Alcohol is reimbursable.", "Alcohol is not reimbursable, except for client entertainment.", True),
        ("Approvers may not sign off refunds for accounts they manage.",
         "An approver may not approve a refund for a customer account that they personally manage.", False),
        ("Service credits must be requested within 8 weeks.",
         "Service credits must be requested within 8 weeks and are never paid out as a refund.", False),
        ("Paper records go to the shredder rather than the recycling bin.",
         "Paper records are shredded; they may not be placed in recycling bins.", False),
        ("Records under legal hold can be moved once the period has ended.",
         "A record under legal hold may not be deleted, changed or moved.", True),  # every item of the list
        ("USB storage devices are allowed on managed laptops.",
         "USB storage devices are blocked on all managed laptops.", True),
        ("Vendor bank details are verified by calling a number from an independent source.",
         "Finance verifies bank details by calling a number from an independent source, never from the email that "
         "sent the details.", False),  # the "never" is about the email
        ("Patches for non-critical systems can be deferred.",
         "Critical security patches must be installed within 7 days.", False),  # "non-" narrows the subject
        ("Employees working remotely must keep a timesheet.",
         "Every employee who is not a fully remote employee must work from the office.", False),  # relative clause
        # A negative prefix denies the plain word of the other side ...
        ("Dizziness is listed among the common side effects.", "Uncommon side effects include dizziness.", True),
        ("The lord of the castle was honorable.", "He was a dishonorable lord of the castle.", True),
        ("The troops crossed where the river was not guarded.", "The troops crossed at an unguarded point.", False),
        # ... but not when this side uses the plain word too, nor in a word that only starts like a prefix.
        ("Pre-tax profit rose 14%.", "Pre-tax profit rose 14%, after closing 22 unprofitable stores.", False),
        ("The plan is under review.", "The plan is under review until March.", False),
        # Two negations cancel inside a clause, not across two.
        ("Staff may not enter the lab without a badge.", "Staff can enter the lab only with a badge.", False),
        ("Guests should not bring more than two bags aboard.",
         "Do not bring more than two bags aboard, and do not bring bags wider than 40 cm.", False),
        ("Guests may bring more than two bags aboard.",
         "Do not bring more than two bags aboard, and do not bring bags wider than 40 cm.", True),
        # A negation with its verb left out denies the previous clause of its own subject only.
        ("Exports to Chile rose in March.", "Imports from Chile rose in March, but exports to Chile did not.", True),
        ("Imports from Chile rose in March.", "Imports from Chile rose in March, but exports to Chile did not.", False),
        # ... but a cue with an object after it leaves no verb out: "instead of 200" is no elided denial
        ("The fault set the pool to 20 instead of 200.", "Cause … A typo set the pool size to 20 instead of 200.",
         False),
        # "excluded" negates as a predicate, like "prohibited".
        ("Wear parts such as tyres and brake pads are excluded from the warranty.",
         "The warranty does not cover wear parts such as tyres and brake pads.", False),
        ("Wear parts such as tyres and brake pads are included in the warranty.",
         "The warranty does not cover wear parts such as tyres and brake pads.", True),
        # "only if" restricts what "not ... unless" denies: one statement
        ("Stolen belongings are covered only if there was forced entry.",
         "Stolen belongings are not covered unless there was forced entry.", False),
        ("Trainees may operate the autoclave only once they hold a sign-off.",
         "Trainees may not operate the autoclave until they hold a sign-off.", False),
        ("Stolen belongings are covered if there was forced entry.",  # no restriction: a plain denial
         "Stolen belongings are not covered, even if there was forced entry.", True),
        # "stopped doing" denies the doing, as "no longer does" does; "stopped" before anything else denies nothing
        ("The library has stopped lending laptops.", "The library no longer lends laptops.", False),
        ("The library still lends laptops.", "The library stopped lending laptops in June.", True),
        ("The coach stopped at the depot.", "The coach called at the depot.", False),
        ("She quit coaching and published her third novel.", "She published her third novel.", False),
        # a verb that denies its object: "forbids", "avoid", "refused to"
        ("Pupils may use phones at lunch.", "The school forbids pupils from using phones at lunch.", True),
        ("Patients should not drink alcohol during treatment.", "Patients should avoid alcohol during treatment.",
         False),
        ("Staff should use the lift in a fire.", "Staff should avoid the lift in a fire.", True),
        ("Book early to get a seat.", "To avoid delays, book early to get a seat.", False),  # its object alone
        # what follows "but" is affirmed: "not eligible for the card but may buy a pass" denies no buying
        ("Students aged 22 or over can buy a Term Pass for £165.",
         "Students aged 22 or over are not eligible for the YouthCard but may buy a Term Pass for £165.", False),
        ("Students aged 22 or over can get a YouthCard.",
         "Students aged 22 or over are not eligible for the YouthCard but may buy a Term Pass for £165.", True),
        # both deny something, but the quote denies what the claim affirms
        ("The shed may be enclosed, as long as it is not used as living accommodation.",
         "It shall not be enclosed, and it shall not be used as living accommodation.", True),
        ("The shed may not be enclosed or used as living accommodation.",
         "It shall not be enclosed, and it shall not be used as living accommodation.", False),
        # ... which the quote does not also affirm in another clause
        ("Instead of text codes, admin accounts must use a hardware key as the second factor.",
         "Text codes may not be used as a second factor for admin accounts; those accounts must use a hardware key.",
         False),
        # a relative clause denies nothing of the sentence: "kit that is no longer used is recycled"
        ("Old kit must be recycled.", "Kit that is no longer used must be recycled.", False),
        ("Essays must be no longer than 3,000 words.", "Essays may not exceed 3,000 words.", False),
        # a negation whose clause names all the claim's terms bears on it, though it shares one word with it
        ("Children under 12 may take Dolvarin.", "Dolvarin is not recommended for children under 12 years.", True),
        ("Chile is a member of the Group of 15.", "Chile and Kenya have since joined the Group of 15, whereas "
         "Yugoslavia is no longer part of the group.", False),  # the denying clause is about another member
        # "X are not allowed." denies X, as "X are prohibited" does: the claim denies X too
        ("It can stand on paving slabs laid on sand, but not on a concrete base.",
         "Concrete bases are not allowed. Paving slabs laid on sand are acceptable.", False),
        ("It can stand on a concrete base.", "Concrete bases are not allowed.", True),
        # ... but what it denies first is the word it ends on: "unavailable" says "not available"
        ("Columnar tables and point-in-time recovery stay unavailable until the upgrade is finalised.",
         "Until this command has been run, columnar tables and point-in-time recovery are not available.", False),
    ],
)
def test_only_negations_about_the_claim_flip_it(claim: str, quote: str, flipped: bool) -> None:
    f = features(claim, quote, 0.8)
    assert (f.claim_negated != f.quote_negated) is flipped


@pytest.mark.parametrize(
    ("claim", "quote", "flipped"),
    [
        # a change denied is a value kept: one statement, which both sides deny (so the model may not flip it)
        ("There is no change to the monthly parking fee, which continues at £42.",
         "Season tickets will rise by 4%, and the monthly parking fee will stay the same at £42.", False),
        ("The membership fee for students will not rise.",
         "The membership fee rises to £90 for adults but remains at £40 for students.", False),
        # ... not a change denied against a change stated, nor a value kept against a change denied of another kind
        ("There is no change to the monthly parking fee.", "The monthly parking fee will change in May.", True),
        ("The parking fee will stay the same.", "Visitors may not park overnight at the same fee.", True),
    ],
)
def test_a_change_denied_is_a_value_kept(claim: str, quote: str, flipped: bool) -> None:
    f = features(claim, quote, 0.8)
    assert (f.claim_negated != f.quote_negated) is flipped
    assert (f.claim_negated and f.quote_negated) is not flipped  # (two denials: the model's contradiction is no say)


@pytest.mark.parametrize(
    ("claim", "quote", "flipped"),
    [
        # an extra amount denied is the usual amount, and paying denied is a thing free: one statement
        ("Bank holiday bookings are charged at the standard price.",
         "Evening bookings cost £6 more. There is no extra charge for bank holiday bookings.", False),
        ("Visitors can look round the gallery twice without paying.",
         "A season pass costs £30; you pay for it at the desk. Visitors may look round the gallery twice free of "
         "charge.", False),
        ("Carers do not pay for entry.", "Entry for carers is complimentary.", False),
        # ... not an extra denied against an extra stated
        ("There is no extra charge for bank holiday bookings.", "Bank holiday bookings cost £6 extra.", True),
    ],
)
def test_an_extra_or_a_payment_denied_is_the_usual_price_or_a_free_thing(claim: str, quote: str,
                                                                          flipped: bool) -> None:
    f = features(claim, quote, 0.8)
    assert (f.claim_negated != f.quote_negated) is flipped


@pytest.mark.parametrize(
    ("claim", "quote", "flipped"),
    [
        # "no …" is the zero the quote counts, in the claim's column
        ("No otters were seen in March 2026.", "Otters (March 2025: 41; March 2026: 0).", False),
        ("No otters were seen in March 2026.", "Otters (March 2025: 0; March 2026: 57).", True),
        ("No complaints were upheld.", "Complaints upheld: 0.", False),
        # "the absence of", "a lack of" deny what they name
        ("Otters were seen this winter.", "The absence of otters this winter worried the wardens.", True),
        ("The hall has no parking.", "The lack of parking at the hall worries visitors.", False),
    ],
)
def test_none_is_a_count_of_zero_and_an_absence_a_denial(claim: str, quote: str, flipped: bool) -> None:
    f = features(claim, quote, 0.8)
    assert (f.claim_negated != f.quote_negated) is flipped


def test_a_figure_the_quote_writes_otherwise_is_named_as_the_quote_writes_it() -> None:
    quote = "Port dues and cargo charges accounted for 61% of turnover."
    support, reason = decide_support(features("Roughly three fifths of turnover came from port dues.", quote, 0.75))
    assert support == "full" and "three fifths of, stated as 61%" in reason
    _, same = decide_support(features("Port dues and cargo charges were 61% of turnover.", quote, 0.9))
    assert "stated as" not in same


def test_a_change_the_quote_gives_the_other_way_round_contradicts() -> None:
    f = features("Version 4.0 extended the backup retention period from 7 to 14 days.",
                 "backup_retention_days: reduced from 14 to 7.", 0.79)
    assert decide_support(f) == ("contradicted", "evidence says from 14 to 7, claim says from 7 to 14: the change "
                                                 "goes the other way")


def test_a_reason_says_when_several_figures_agree() -> None:
    quote = "The core grant provided 38% of income, down from 44% the year before."
    _, reason = decide_support(features("The core grant made up 38% of income, down from 44% a year earlier.", quote,
                                        0.8))
    assert "both figures agree (38%, 44%)" in reason
    _, single = decide_support(features("The core grant made up 38% of income.", quote, 0.8))
    assert "; figures agree (38%)" in single


def test_a_year_that_frames_the_claim_or_names_the_document() -> None:
    quote = "The nightly hotel cap is $180 per night."
    framed = features("In 2024 the nightly hotel cap was $180 per night.", quote, 0.9)
    assert decide_support(framed)[0] == "full"
    titled = features("The 2024 policy caps hotels at $180 per night.", quote, 0.9,
                      context="Travel and Expense Policy (2024 edition)")
    assert [m.status for m in titled.quantities.matches] == ["matched", "matched"]


@pytest.mark.parametrize(
    ("claim", "quote", "support"),
    [
        # a limit turned the other way round and a negation cancel out
        ("Samples may be measured only once the correlation coefficient is at least 0.995.",
         "If the correlation coefficient is below 0.995, no samples may be measured.", "full"),
        ("Staff with at least two years of service may apply.",
         "Staff with less than two years of service may not apply.", "full"),
        # one turn alone is still a contradiction
        ("Samples may be measured once the correlation coefficient is below 0.995.",
         "If the correlation coefficient is below 0.995, no samples may be measured.", "contradicted"),
        ("Staff with at least two years of service may not apply.",
         "Staff with less than two years of service may not apply.", "contradicted"),
    ],
)
def test_a_limit_and_a_negation_both_turned_round_state_the_same_rule(claim: str, quote: str, support: str) -> None:
    assert decide_support(features(claim, quote, 0.75))[0] == support


def test_a_pronoun_with_a_verb_joined_to_it_is_no_word_a_figure_is_about() -> None:
    """"you'll get £15 off" is about what is off, as "get £10 off" is: the two amounts are rivals."""
    support, reason = decide_support(features("If you renew your membership before the end of March, you'll get £15 "
                                              "off.", "Members who renew before the end of March get £10 off the "
                                              "annual fee.", 0.7))
    assert support == "contradicted" and "£10" in reason


def test_a_limit_the_quote_sets_is_not_dropped_by_a_claim_that_says_the_quotes_whatever_in_other_words() -> None:
    """"regardless of the tide gauge" says what "whatever the tide gauge shows" says: the claim drops no limit."""
    f = features("Drawing 2 m, a boat must not enter at low water, regardless of the tide gauge.",
                 "Boats drawing more than 1.5 metres must not enter at low water, whatever the tide gauge shows.", 0.8)
    assert f.dropped_condition is None and decide_support(f)[0] != "contradicted"


def test_a_figure_of_another_line_of_a_plain_text_price_list_contradicts() -> None:
    """A .txt price list, one "label figure" a line: the figure beside the claim's label is the claim's rival."""
    quote = "Up to 1 hour £2.00\nUp to 3 hours £4.50\nUp to 6 hours £6.00\nLost ticket £12.00"
    support, reason = decide_support(features("Parking for up to three hours costs £6.00.", quote, 0.6))
    assert support == "contradicted" and "£4.50" in reason
    assert decide_support(features("Parking for up to six hours costs £6.00.", quote, 0.6))[0] != "contradicted"
    # two such lines are no list: the figure may be of something else
    assert decide_support(features("Parking for up to three hours costs £6.00.",
                                   "Up to 3 hours £4.50\nUp to 6 hours £6.00", 0.6))[0] != "contradicted"


def test_a_claim_that_drops_the_quote_s_condition_is_contradicted() -> None:
    quote = "The batch results may still be reported, with a comment, only if every result is ten times the blank."
    support, reason = decide_support(features("A batch can always be reported, as long as the results carry a "
                                              "comment.", quote, 0.85))
    assert support == "contradicted" and "'always'" in reason and "'only if ...'" in reason
    assert decide_support(features("A batch can be reported with a comment.", quote, 0.85))[0] != "contradicted"


def test_a_claim_about_every_member_against_a_quote_about_a_sample_is_contradicted_and_says_so() -> None:
    support, reason = decide_support(features("Every complaint is reviewed by a director.",
                                              "A small sample of complaints is reviewed by a director.", 0.85))
    assert support == "contradicted" and "only of part of them ('A small sample of ...')" in reason
    sample = "A small sample of complaints is reviewed by a director."
    plain = features("Complaints are reviewed by a director.", sample, 0.85)
    assert decide_support(plain)[0] != "contradicted"


def test_an_item_not_named_is_one_the_quote_excepts_unless_named() -> None:
    quote = "The most we will pay for any single item is £2,000 unless the item is listed by name in your schedule."
    f = features("Any single item not named in the schedule is capped at £2,000.", quote, 0.8)
    assert f.claim_negated == f.quote_negated
    assert decide_support(features("Refunds are not given.", "Refunds are given unless the item is damaged.",
                                   0.8))[0] == "contradicted"


def test_several_agreeing_figures_in_a_close_quote_are_full_support_whatever_the_other_words() -> None:
    quote = "In 2023 there were 3 reportable incidents, compared with 5 in 2022."
    claim = "The port recorded three reportable incidents in 2023, two fewer than in the previous year."
    support, reason = decide_support(features(claim, quote, 0.76))
    assert support == "full" and "all 3 figures agree" in reason and "worked out: 5 − 3" in reason
    assert decide_support(features(claim, quote, 0.70))[0] == "none"  # not as close as a paraphrase


def test_a_claim_for_anyone_against_a_quote_with_a_limit_in_figures_drops_the_limit() -> None:
    quote = "Employees with at least 26 weeks of service can request flexible working."
    support, reason = decide_support(features("Any employee can request flexible working.", quote, 0.74))
    assert support == "contradicted" and "at least 26 weeks" in reason
    # the claim that gives the limit itself drops nothing
    assert decide_support(features("Any employee with at least 26 weeks of service can request flexible working.",
                                   quote, 0.9))[0] == "full"


def test_a_limit_the_claim_gives_in_other_words_is_not_dropped_from_one_sentence_of_the_quote() -> None:
    quote = ("Guests can stay for up to 3 nights in any 7-night period. Guests must be 18 or over and must be signed "
             "in at reception.")
    claim = "Guests can stay for up to three nights in any seven, provided they are at least 18 and signed in."
    f = features(claim, quote, 0.84, polarity_text=quote.split(". ")[1])
    assert f.dropped_condition is None


def test_a_not_that_ends_a_relative_clause_denies_its_own_subject_only() -> None:
    f = features("Fourth-floor fire wardens must also check the roof terrace before they leave the floor.",
                 "If a fire prevents a sweep, they must leave and report which areas were not checked.", 0.72)
    assert f.negation_anchor < 2 and decide_support(f)[0] != "contradicted"


def test_another_name_where_the_quote_restricts_to_the_names_it_gives_is_contradicted() -> None:
    quote = "You may keep up to 6 hens, with written permission from the Allotments Officer, at Mill Lane and " \
            "Hatherley Road only."
    support, reason = decide_support(features("Hens are allowed at Coronation Fields with written permission, up to a "
                                              "maximum of six.", quote, 0.75))
    assert support == "contradicted" and "Coronation Fields" in reason
    assert decide_support(features("Hens are allowed at Mill Lane with written permission, up to a maximum of six.",
                                   quote, 0.8))[0] != "contradicted"


def test_the_cells_of_one_table_row_are_no_crossed_pairs() -> None:
    quote = "Alder Court (Room type: En-suite; Weekly fee: £176.40; Licence length: 40 weeks; Total fee: £7,056.00)."
    claim = "The en-suite room costs £176.40 a week on a 40-week licence, which is £7,056 for the year."
    assert decide_support(features(claim, quote, 0.58))[0] == "full"


def test_a_figure_in_another_form_in_a_close_quote_is_full_support() -> None:
    quote = "Construction is expected to last 18 months."
    support, reason = decide_support(features("Construction will run for a year and a half.", quote, 0.73))
    assert support == "full" and "a year and a half, stated as 18 months" in reason
    assert figures_stated_otherwise("A fifth of the site stays woodland.", "20% of the site stays woodland.")
    # not a date, a limit met, a range it falls in, or the same number without the thing counted
    assert not figures_stated_otherwise("The launch is before the end of 2024.", "It was filed in February 2024.")
    assert not figures_stated_otherwise("It reaches 1,288 metres.", "It lies between 900 and 1,300 metres.")
    assert not figures_stated_otherwise("It accepted five recommendations.", "It accepted all five.")


def test_a_limit_of_the_claim_is_no_figure_of_the_document_s_title() -> None:
    # "less than 88" is not met by a "12" in the title, "at least 0.995" not by a "1"
    f = features("There were less than 88 cases by 25 March.", "As of 25 March, there are confirmed cases.", 0.8,
                 context="Pandemic report for the 12 districts")
    assert [m.status for m in f.quantities.matches] == ["absent", "matched"]


def test_a_figure_the_rest_of_the_passage_states() -> None:
    quote = "No transits were seen, so the radii of the moons remain unknown."
    passage = "The probe found two moons orbiting the asteroid. " + quote
    claim = "The sizes of the two moons are still unknown."
    assert [m.status for m in features(claim, quote, 0.8).quantities.matches] == ["absent"]
    assert [m.status for m in features(claim, quote, 0.8, passage=passage).quantities.matches] == ["matched"]
    # only as written: among a passage's figures some pair works out to almost any number
    rooms = "The survey counted 30 rooms in the east wing and 12 rooms in the west wing. The wings share a roof."
    difference = "The east wing has 18 more rooms than the west wing."
    assert [m.status for m in features(difference, rooms, 0.7).quantities.matches] == ["matched"]  # 30 − 12
    beside = features(difference, "The wings share a roof.", 0.7, passage=rooms)
    assert [m.status for m in beside.quantities.matches] == ["absent"]


def test_a_rise_where_the_quote_gives_a_reduction_is_a_swap() -> None:
    f = features("The parks budget grows by 4.1% to $141 million.",
                 "The parks budget falls from $147 million to $141 million, a reduction of 4.1%.", 0.85)
    assert f.swaps == (("grows", "reduction"),)
    assert decide_support(f)[0] == "contradicted"


def test_swaps_and_figures_of_another_entity() -> None:
    # Names read as names mid-sentence, whatever they are: no list of departments is involved.
    f = features("The Sales team is the second-largest department, with 150 employees.",
                 "The Engineering team is the largest department, with 248 employees.", 0.6)
    assert f.swaps == (("Sales", "Engineering"),)
    # 248 is Engineering's headcount: it says nothing about Sales, so the claim is unsupported, not contradicted.
    assert not f.quantities.conflicts
    assert decide_support(f)[0] == "none"


def test_another_code_of_the_same_shape_is_a_swap() -> None:
    f = features("Fault code F7 means the filter is blocked.", "FAULT CODES\nF2 - The filter is blocked.", 0.85)
    assert decide_support(f) == ("contradicted", "evidence says F2, claim says F7")
    same = features("Fault F2 means the filter is blocked.", "F2 - The filter is blocked. F7 - Low pressure.", 0.85)
    assert not same.swaps
    # a number of three parts is a release's, not a decimal: another release is another code
    f = features("The export bug was fixed in version 2.7.1.", "Version 2.7.0 fixed the export bug.", 0.85)
    assert decide_support(f) == ("contradicted", "evidence says 2.7.0, claim says 2.7.1")
    assert not features("The pump runs at 2.5 bar.", "The pump runs at 2.4 bar.", 0.85).swaps  # decimals are figures


def test_two_parties_in_each_others_places_contradict() -> None:
    claim = "Ana Ruiz won the final, beating Lea Marsh in three sets."
    f = features(claim, "Lea Marsh won the final on Sunday, beating the Spanish player Ana Ruiz in three sets.", 0.8)
    assert decide_support(f) == ("contradicted", "evidence says Lea Marsh, claim says Ana Ruiz")
    same = features(claim, "Ana Ruiz won the final on Sunday, beating the Spanish player Lea Marsh in three sets.", 0.9)
    assert decide_support(same)[0] == "full"


def test_only_is_denied_by_not_only() -> None:
    quote = "Members may now borrow e-books from every library in the county, not only from their home branch."
    f = features("Members may borrow e-books only from their home branch.", quote, 0.85)
    assert decide_support(f)[0] == "contradicted"
    # "not only X but also Y" affirms X: a claim of X alone stands
    g = features("Members may borrow e-books from their home branch.", quote, 0.85)
    assert decide_support(g)[0] != "contradicted"


def chunk(text: str) -> Chunk:
    """A chunk as ingest makes it (tables rendered as sentences), under a fixed hash."""
    return make_chunk(text).model_copy(update={"hash": "c0ffee000000"})


POLICY = chunk(
    "## 5. Lodging\n\n"
    "The nightly hotel cap is $220 per night, before taxes, in all locations except high-cost cities. "
    "In high-cost cities the nightly hotel cap is $340 per night.\n\n"
    "## 6. Approvals and exclusions\n\n"
    "Business class requires written approval from the Chief Financial Officer. "
    "Alcohol is not reimbursable, except as part of approved client entertainment. "
    "Expense reports must be submitted within 30 days after the trip ends.\n"
)
REFUNDS = chunk(
    "| Refund amount | Who approves |\n|---|---|\n| Up to $750 | Support agent |\n"
    "| $750.01 to $5,000 | Support team lead |\n| Above $5,000 | Finance Controller |\n"
)


def test_one_encode_call_per_batch_and_sentences_cached() -> None:
    embedder = HashEmbedder()
    checker = LocalSupportChecker(embedder)
    claims = ["Hotels cost $220.", "Alcohol is reimbursable.", "Reports are due in 30 days."]
    checks = checker.check([(c, ch) for c in claims for ch in (POLICY, REFUNDS)])
    assert len(checks) == 6
    assert len(embedder.calls) == 1
    checker.check([("A new claim about hotels.", POLICY)])
    assert embedder.calls[1:] == [1]  # only the new claim; the chunk's sentences are remembered


def test_quote_points_into_the_chunk() -> None:
    checker = LocalSupportChecker(HashEmbedder())
    (check,) = checker.check([("Alcohol is not reimbursable.", POLICY)])
    assert POLICY.text[check.quote_start:check.quote_end].startswith(check.quote.split(" … ")[0][:20])


@pytest.mark.model
def test_a_sentence_is_read_with_the_heading_of_its_section_when_the_heading_is_in_an_earlier_chunk(
    embedder: object,
) -> None:
    text = ("The lowest bid was $386,500. The motion carried unanimously, 6 to 0. Work is expected to begin in May and "
            "to last about ten weeks; the library will stay open.")
    claim = "The library roof replacement should start in May and take roughly ten weeks."
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (alone,) = checker.check([(claim, make_chunk(text))])
    under = make_chunk(text).model_copy(update={"section": "Library roof replacement"})
    (headed,) = checker.check([(claim, under)])
    assert alone.support == "none"
    assert headed.support == "full", headed.reason
    assert headed.quote.startswith("Library roof replacement … Work is expected")


def test_a_list_item_is_quoted_with_its_lead_in_line_not_the_item_above_it() -> None:
    text = ("4.1 From the start date, the Tenants are responsible for paying:\n\n- electricity and gas;\n"
            "- the TV licence;\n- council tax (the Property is in Band C).")
    joined = [c.text for c in LocalSupportChecker(HashEmbedder()).candidates(text) if " … " in c.text]
    assert "4.1 From the start date, the Tenants are responsible for paying: … council tax (the Property is in " \
           "Band C)." in joined
    assert not any(c.startswith("the TV licence;") for c in joined)


def test_a_list_item_under_a_lead_in_is_never_read_without_it() -> None:
    text = ("We will not pay for:\n\n- loss or damage caused by wear and tear;\n- any loss that happens while the "
            "home is let to paying guests.\n\nClaims must be reported within 30 days.")
    quotes = [c.text for c in LocalSupportChecker(HashEmbedder()).candidates(text)]
    assert "We will not pay for: … any loss that happens while the home is let to paying guests." in quotes
    # the item alone states the opposite of what the document says
    assert not any(q.startswith(("any loss", "loss or damage")) for q in quotes)
    assert "Claims must be reported within 30 days." in quotes


def test_empty_chunk_is_no_support() -> None:
    (check,) = LocalSupportChecker(HashEmbedder()).check([("Anything.", chunk("   "))])
    assert check.support == "none" and check.quote == ""


@pytest.mark.model
@pytest.mark.parametrize(
    ("claim", "evidence", "support", "quote_has", "reason_has"),
    [
        ("Hotel rooms outside high-cost cities are capped at $220 a night.", POLICY, "full", "$220 per night", ""),
        ("Expense reports are due no later than 30 days after the trip.", POLICY, "full", "30 days", ""),
        ("In high-cost cities the hotel cap is $380 a night.", POLICY, "contradicted", "$340", "$380"),
        ("Expense reports must be submitted within 45 days after the trip ends.", POLICY, "contradicted", "30 days",
         "45 days"),
        ("Alcohol is reimbursable.", POLICY, "contradicted", "Alcohol", "polarity"),
        ("Business class requires written approval from the Chief Executive Officer.", POLICY, "contradicted",
         "Chief Financial Officer", "Chief Executive Officer"),
        ("A refund of $3,000 is approved by a support team lead.", REFUNDS, "full", "Support team lead", ""),
        ("Support agents can approve refunds of up to $1,000.", REFUNDS, "contradicted", "$750", "$1,000"),
        ("The office cafeteria serves lunch from noon.", POLICY, "none", "", ""),
        ("Employees can bring a spouse on business trips at the company's expense.", POLICY, "none", "", ""),
    ],
)
def test_real_checks(embedder: object, claim: str, evidence: Chunk, support: str, quote_has: str,
                     reason_has: str) -> None:
    (check,) = LocalSupportChecker(embedder).check([(claim, evidence)])  # type: ignore[arg-type]
    assert check.support == support, check.reason
    assert quote_has in check.quote
    assert reason_has in check.reason


@pytest.mark.model
def test_a_denial_inside_a_longer_supporting_quote_contradicts(embedder: object) -> None:
    # The pair of sentences reads as support ("... may be cancelled when winds exceed ..."), but its second sentence
    # says the claim's party cannot do it.
    text = ("Sailings may be cancelled when winds exceed 45 knots. The harbour office decides whether a sailing goes "
            "ahead; the skipper may delay a sailing but cannot cancel it.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (check,) = checker.check([("The skipper can cancel a sailing when the wind is strong.", make_chunk(text))])
    assert check.support == "contradicted" and "cannot cancel it" in check.quote
    (check,) = checker.check([("The harbour office decides whether a sailing goes ahead.", make_chunk(text))])
    assert check.support == "full"


def test_a_denial_outside_the_supporting_quote_does_not_outweigh_it() -> None:
    from ledger.judge.support_rules import OPPOSITE_POLARITY, SupportCheck, choose_check

    full = SupportCheck("full", "Trips run daily. Trips stop in winter.", 0.8, "", "full", 0, 40)
    inside = SupportCheck("contradicted", "Trips stop in winter.", 0.7, f"{OPPOSITE_POLARITY}negates it", "negation",
                          17, 40)
    outside = SupportCheck("contradicted", "Trips never run at night.", 0.7, f"{OPPOSITE_POLARITY}negates it",
                           "negation", 41, 66)
    assert choose_check([(1.0, 0.8, full), (0.9, 0.6, inside)]) is inside
    assert choose_check([(1.0, 0.8, full), (0.9, 0.6, outside)]) is full


def test_a_sentence_lacking_the_claims_denial_inside_a_quote_that_has_it_does_not_outweigh_it() -> None:
    from ledger.judge.support_rules import OPPOSITE_POLARITY, SupportCheck, choose_check

    # "Nobody should use the passenger lifts; the evacuation lift is only for …"
    full = SupportCheck("full", "Do not use the passenger lifts. The evacuation lift may only be used by …", 0.89, "",
                        "full", 0, 74)
    lacking = SupportCheck("contradicted", "The evacuation lift may only be used by …", 0.84,
                           f"{OPPOSITE_POLARITY}states it without the negation", "negation", 32, 74)
    assert choose_check([(1.0, 0.82, full), (0.9, 0.73, lacking)]) is full


@pytest.mark.model
def test_a_quote_of_two_sentences_is_read_with_the_one_that_denies_the_claim(embedder: object) -> None:
    text = ("Lessons may be cancelled when snow closes the roads. The head of school decides whether a lesson goes "
            "ahead; the tutor may postpone a lesson but cannot cancel it.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (check,) = checker.check([("The tutor can cancel a lesson when snow closes the roads.", make_chunk(text))])
    assert check.support == "contradicted" and check.rule == "negation"
    # A negation of something the claim does not say leaves it alone.
    text = "Dogs are not allowed in the Alderley park café. From May the park will be closed on Mondays."
    (check,) = checker.check([("From May the Alderley park will be closed on Mondays.", make_chunk(text))])
    assert check.support == "full"


def test_a_claim_that_a_row_is_the_cheapest_is_decided_by_the_table() -> None:
    fees = chunk("| Berth type | Per night | Per year |\n|---|---|---|\n| Visitor pontoon | £3.40 | n/a |\n"
                 "| Finger berth | £2.90 | £395 |\n| Swinging mooring | £1.20 | £160 |\n")
    checker = LocalSupportChecker(HashEmbedder())
    right, wrong, figure = checker.check([
        ("A swinging mooring is the cheapest berth at £1.20 per night.", fees),
        ("The finger berth is the cheapest berth per night.", fees),
        ("A swinging mooring is the cheapest berth at £1.50 per night.", fees),
    ])
    assert (right.support, right.quote) == ("full", "Swinging mooring (Per night: £1.20; Per year: £160).")
    assert "Swinging mooring is the cheapest in the table" in right.reason
    assert wrong.support == "contradicted" and "not Finger berth" in wrong.reason
    assert fees.text[wrong.quote_start:wrong.quote_end] == wrong.quote  # the row at that end, quoted where it stands
    assert figure.support != "full"  # the right row with another figure: the figure rules decide


def test_a_heading_right_above_a_sentence_is_quoted_apart_from_it() -> None:
    # Once a quote's line breaks collapse, "Payment\n\nAnnual holders ..." would read "Payment Annual holders ...".
    text = "Payment\n\nAnnual holders may pay in ten monthly instalments. Visitors pay on arrival."
    pairs = [c for c in LocalSupportChecker(HashEmbedder()).candidates(text) if c.sentences == 2]
    assert pairs[0].text == "Payment … Annual holders may pay in ten monthly instalments."
    assert text[pairs[0].start:pairs[0].end].startswith("Payment")  # the span still points into the chunk
    assert pairs[1].text == "Annual holders may pay in ten monthly instalments. Visitors pay on arrival."


def test_a_table_row_is_quoted_whole_not_cut_at_its_cells() -> None:
    menu = chunk("| Dish | Price | Contains | Vegetarian |\n|---|---|---|---|\n"
                 "| Fish pie | £14.50 | fish, milk | No |\n| Lamb shank | £19.75 | celery | No |\n")
    claim = "The lamb shank is the most expensive main at £19.75."
    (check,) = LocalSupportChecker(HashEmbedder()).check([(claim, menu)])
    # the row, not "Lamb shank (Price: £19.75"
    assert check.quote.endswith("Lamb shank (Price: £19.75; Contains: celery; Vegetarian: No).")


def test_a_question_states_nothing_and_its_yes_or_no_answer_states_it(embedder) -> None:  # type: ignore[no-untyped-def]
    faq = chunk("**Are campfires allowed?**\nNo. Open fires are not permitted anywhere on the site.\n\n"
                "**Can I bring my dog?**\nYes. Dogs must be kept on a lead at all times.\n\n"
                "**Is there Wi-Fi?**\nFree Wi-Fi is available in the reception building only.")
    checker = LocalSupportChecker(embedder)
    fires, dogs, wifi = checker.check([("Campfires are allowed in designated areas.", faq),
                                       ("You can bring your dog.", faq), ("There is Wi-Fi.", faq)])
    assert fires.support == "contradicted" and fires.quote.startswith("Are campfires allowed? … No.")
    assert dogs.support in ("full", "partial") and "Yes." in dogs.quote
    assert wifi.quote != "**Is there Wi-Fi?**"  # a question alone is no quote


@pytest.mark.model
def test_a_claim_stated_word_for_word_is_never_contradicted_by_a_clause_of_itself(embedder: object) -> None:
    text = ("A day ticket costs £5.80. Contactless payment is accepted on all buses; cash is no longer accepted from "
            "1 March 2027.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    claim = "Contactless payment is accepted on all buses; cash is no longer accepted from 1 March 2027."
    (check,) = checker.check([(claim, make_chunk(text))])
    assert check.support == "full", check.reason  # "Contactless payment is accepted" alone lacks the negation
    (denied,) = checker.check([("Cash is accepted on all buses.", make_chunk(text))])
    assert denied.support == "contradicted"


@pytest.mark.model
def test_a_clause_of_a_long_sentence_supports_when_the_whole_sentence_does_not(embedder: object) -> None:
    text = ("We welcome Mr Daniel Okafor, who joins us as Year 4 teacher, and say goodbye to Mrs Helen Price, who "
            "retires after 22 years at Hollins.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (check,) = checker.check([("Mrs Helen Price retires after 22 years.", make_chunk(text))])
    assert check.support == "full", check.reason
    assert check.quote == "say goodbye to Mrs Helen Price, who retires after 22 years at Hollins."


def test_a_middle_cell_of_a_table_row_is_never_read_without_its_row(embedder: object) -> None:
    header = "| Round | Opens | Deadline | Decision by |\n|---|---|---|---|\n"
    autumn_row = "| Autumn | 1 July 2027 | 15 September 2027 at noon | 20 November 2027 |\n"
    rounds = chunk(header + "| Spring | 12 January 2027 | 27 February 2027 at noon | 30 April 2027 |\n" + autumn_row)
    autumn = chunk(header + autumn_row)
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    both, alone = checker.check([("The spring deadline is 27 February 2027 at noon.", c) for c in (rounds, autumn)])
    assert both.support == "full", both.reason
    # "Deadline: 15 September 2027" read alone was the spring deadline's rival: contradicted
    assert alone.support != "contradicted", alone.reason


def test_a_quote_shows_the_sentence_that_states_a_figure_it_lacks(embedder: object) -> None:
    report = chunk("# Outage report: payments on 3 May 2026\n\nSeverity: SEV-2\n\n## Summary\n\nCard payments failed "
                   "for part of the morning. The payment service returned errors for 45 minutes. About 900 orders "
                   "failed.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (check,) = checker.check([("The payments outage on 3 May 2026 lasted 45 minutes.", report)])
    assert check.support == "full", check.reason
    assert "45 minutes" in check.quote  # not the title heading alone
    assert "45 minutes" in report.text[check.quote_start:check.quote_end]


def test_the_speaker_and_role_after_a_quotation_state_who_holds_the_role(embedder: object) -> None:
    release = chunk("The library will open in May 2027.\n\n\"This building will give every family in the town a warm "
                    "and quiet place to read and study,\" said Councillor Ana Ruiz, cabinet member for culture.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (check,) = checker.check([("Councillor Ana Ruiz is the cabinet member for culture.", release)])
    assert check.support == "full", check.reason  # was not_found: the long quotation drowned the attribution
    assert check.quote == "said Councillor Ana Ruiz, cabinet member for culture."


def test_a_figure_from_another_year_s_column_of_a_table_contradicts(embedder: object) -> None:
    accounts = chunk("## Income\n\n| Item | 2025 | 2024 |\n|---|---|---|\n| Rent income | £412,300 | £398,100 |\n"
                     "| Grants | £12,000 | £25,000 |\n| Surplus | £64,100 | £72,300 |\n\nRent income rose by 3.6% "
                     "because of the rent increase agreed in 2024.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    wrong_year, right_year = checker.check([("Rent income was £398,100 in 2025.", accounts),
                                            ("Rent income was £398,100 in 2024.", accounts)])
    assert wrong_year.support == "contradicted", wrong_year.reason
    assert right_year.support in ("full", "partial"), right_year.reason


def test_a_name_added_to_a_list_the_quote_gives_is_not_stated() -> None:
    quote = "About 9,000 jars were distributed to shops in Cornwall and Devon."
    f = features("About 9,000 jars were sold in Cornwall, Devon and Dorset.", quote, 0.87)
    assert f.added == "Dorset"
    support, reason = decide_support(f)
    assert support != "full" and "Dorset" in reason
    assert features("About 9,000 jars were sold in Devon.", quote, 0.8).added == ""  # a part of the list is stated


@pytest.mark.model
def test_a_numbered_item_is_not_read_with_the_field_that_ends_the_item_above_it(embedder: object) -> None:
    review = make_chunk("ACTION ITEMS\n1. Add disk alerts to the dashboard. Owner: Lena Park. Due: 31 May 2026.\n"
                        "2. Test the backups every month. Owner: Sam Idowu. Due: 30 June 2026.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    quotes = [c.text for c in checker.candidates(review.text)]
    assert not [q for q in quotes if "31 May" in q and "backups" in q]
    assert any("Test the backups every month. Owner: Sam Idowu." in q for q in quotes)  # an item is read whole
    (check,) = checker.check([("Sam Idowu must test the backups every month by 30 June 2026.", review)])
    assert check.support in ("full", "partial") and "31 May" not in check.quote, check.reason


@pytest.mark.model
def test_a_claim_about_one_release_is_read_against_the_release_heading_above_the_quote(embedder: object) -> None:
    notes = make_chunk("## 2.8.0 — 1 June 2026\n\n### Added\n\n- Export to PDF.\n\n## 2.7.2 — 2 May 2026\n\n"
                       "### Security\n\n- Fixed a cross-site scripting flaw in shared links.")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    (wrong,) = checker.check([("The cross-site scripting flaw in shared links was fixed in 2.8.0.", notes)])
    assert wrong.support == "contradicted" and "2.7.2" in wrong.reason
    (right,) = checker.check([("The cross-site scripting flaw in shared links was fixed in 2.7.2.", notes)])
    assert right.support == "full", right.reason


@pytest.mark.model
def test_two_table_rows_are_never_read_as_one_quote(embedder: object) -> None:
    table = make_chunk("A (Benefit: Cancellation; Maximum cover: £3,000; Excess: £100).\n\n"
                       "B (Benefit: Medical expenses; Maximum cover: £5,000,000; Excess: £100).\n\n"
                       "C (Benefit: Personal belongings; Maximum cover: £1,500; Excess: £75).")
    checker = LocalSupportChecker(embedder)  # type: ignore[arg-type]
    assert all(c.text.count("Benefit:") == 1 for c in checker.candidates(table.text))
    (check,) = checker.check([("The personal belongings excess is £100.", table)])
    assert check.support == "contradicted" and "£75" in check.reason


def test_a_role_a_field_gives_to_another_name_is_a_swap() -> None:
    header = "Incident number: INC-88\nIncident commander: Rhea Collins\nAuthor: Tom Baptiste"
    f = features("Owen Marsh was the incident commander.", header, 0.45)
    assert decide_support(f) == ("contradicted", "evidence says Rhea Collins, claim says Owen Marsh")
    assert not features("Rhea Collins was the incident commander.", header, 0.7).swaps
    assert not features("Owen Marsh wrote the timeline.", header, 0.45).swaps  # no field names that role



def test_a_role_done_by_someone_the_quote_gives_another_role_is_a_swap() -> None:
    # the claim gives the conductor's work (by its verb) to the person the programme names as leader
    line = "Conductor: Eleanor Hart  |  Leader: Tom Achebe  |  Soloist: Rosa Mbeki, cello"
    f = features("The concert is conducted by the orchestra's leader, Tom Achebe.", line, 0.7)
    assert decide_support(f) == ("contradicted", "evidence says Eleanor Hart, claim says Tom Achebe")
    assert not features("The concert is conducted by Eleanor Hart.", line, 0.7).swaps
    assert not features("Tom Achebe leads the orchestra, and the conductor is new.", line, 0.7).swaps


def test_a_role_the_quote_gives_another_by_apposition_is_a_swap() -> None:
    line = "Prepared by Ruth Ellingham, General Manager, with Jonah Blackwood, Finance Manager, for the Board."
    f = features("Jonah Blackwood is the centre's General Manager.", line, 0.5)
    assert decide_support(f) == ("contradicted", "evidence says Ruth Ellingham, claim says Jonah Blackwood")
    assert not features("Ruth Ellingham is the centre's General Manager.", line, 0.6).swaps
    assert not features("Jonah Blackwood met the General Manager.", line, 0.5).swaps  # he is given no role


def test_one_of_both_things_a_claim_names_that_the_quote_leaves_out_is_not_supported() -> None:
    row = "Buildings – accidental damage (Limit: Included; Compulsory excess: £250; Total excess: £350)."
    f = features("Accidental damage cover has been selected for both the buildings and the contents.", row, 0.75)
    assert f.added == "contents"
    assert decide_support(f)[0] == "none"
    assert not features("Cover applies to both the buildings and the contents.",
                        "Cover applies to the buildings and the contents.", 0.95).added


def test_a_superlative_the_quote_does_not_state_is_not_supported() -> None:
    crowd = "A crowd of 1,186 packed into the Mallory Ground and saw the home side come from behind twice."
    f = features("The crowd of 1,186 was the largest at the Mallory Ground this season.", crowd, 0.77)
    assert f.superlative == "largest" and decide_support(f)[0] == "none"
    assert not features("The Brisa is the cheapest model.", "The Brisa has the lowest price of the three.",
                        0.75).superlative  # another word for the same end
    assert not features("It holds at most 50 IDs.", "It accepts up to 50 IDs.", 0.8).superlative  # a quantifier


def test_a_change_given_as_a_signed_amount_goes_the_claim_s_way_or_the_other() -> None:
    from ledger.text.terms import signed_change

    row = "Gas; 3,684 kWh; 3,201 kWh; -483 kWh (-13.1%)."
    assert signed_change("Her gas usage rose by 483 kWh.", row) == (False, "rose", "-483")
    assert signed_change("Her gas usage fell by 483 kWh.", row) == (True, "fell", "-483")
    assert signed_change("It rose by 10 kWh.", "from 10 - 20 kWh") is None  # a range, not a sign


def test_a_signed_cell_of_the_row_the_claim_names_states_its_change() -> None:
    row = "Electricity (Jan–Mar 2026: 1,112 kWh; Jan–Mar 2027: 987 kWh; Change: -125 kWh (-11.2%))."
    f = features("Her electricity usage fell by 125 kWh, or about 11%.", row, 0.62)
    assert decide_support(f)[0] == "full"  # "Change: -125 kWh" is a field of the Electricity row


def test_a_claim_s_negation_counts_only_where_it_bears_on_the_sentence_whose_polarity_counts() -> None:
    quote = ("Rainwater from the garage shall be drained to a soakaway within the site. There shall be no connection "
             "to the public sewer.")
    first = "Rainwater from the garage shall be drained to a soakaway within the site."
    f = features("Rainwater from the garage must drain to a soakaway on the site rather than to the public sewer.",
                 quote, 0.8, polarity_text=first)
    assert f.claim_negated == f.quote_negated
    denied = features("Rainwater from the garage must not drain to a soakaway.", quote, 0.8, polarity_text=first)
    assert denied.claim_negated != denied.quote_negated


def test_below_in_other_words_is_the_opposite_of_above() -> None:
    f = features("The raw meat was stored beneath the cooked food in the fridge.",
                 "The raw meat was stored above the cooked food in the fridge.", 0.95)
    assert f.swaps


def test_a_table_row_s_figure_is_no_other_row_s_and_a_numbered_label_denies_nothing() -> None:
    rows = ("No. 5 (Action required: Seal the gap under the rear door; Deadline: 18 February 2025 (14 days)).\n\n"
            "No. 6 (Action required: Deep clean the extraction canopy and filters; Deadline: 4 March 2025 (28 days)).")
    sixth = rows.split("\n\n")[1]
    claim = "The business has 14 days to deep clean the extraction canopy and filters."
    f = features(claim, sixth, 0.8, passage=rows)
    assert [m.status for m in f.quantities.matches] == ["absent"]  # the 14 days are row 5's deadline
    prose = "Seal the gap under the rear door within 14 days.\nDeep clean the extraction canopy and filters."
    assert features(claim, prose.split("\n")[1], 0.8, passage=prose).quantities.matched  # prose: the passage's
    issued = features("Bulletin 14 was issued at 06:30.", "River Level Bulletin No. 14. Issued: 06:30.", 0.8)
    assert not issued.quote_negated


def test_a_figure_set_apart_by_a_dash_counts_nothing_after_it() -> None:
    from ledger.text.quantities import extract_quantities

    assert [q.kind for q in extract_quantities("Rating awarded: 2 - Improvement necessary")] == ["number"]
    # ... so "a rating of 3, down from 5" is not worked out as 5 − 2: the rating given is 2
    f = features("It received a hygiene rating of 3, down from 5 at its previous inspection.",
                 "The previous rating, awarded on 2 May 2022, was 5 (Very good). … Hygiene rating awarded: 2 - "
                 "Improvement necessary", 0.8)
    assert [m.status for m in f.quantities.matches][0] == "conflict"


def test_two_clauses_each_negated_deny_the_claim_twice_over() -> None:
    f = features("Some customers' card data was exposed during the incident.",
                 "No data was lost and no card data was exposed.", 0.8)
    assert (f.claim_negated, f.quote_negated) == (False, True)
    assert decide_support(f)[0] == "contradicted"


def test_two_prohibitions_joined_by_and_each_forbid_their_own_act() -> None:
    rules = "Visitors must not feed the deer and must not enter the fenced meadow between March and July."
    restated = features("Visitors must not enter the fenced meadow between March and July.", rules, 0.85)
    assert (restated.claim_negated, restated.quote_negated) == (True, True)
    assert decide_support(restated)[0] == "full"
    assert decide_support(features("Visitors may enter the fenced meadow between March and July.", rules, 0.8))[0] \
        == "contradicted"
    # one clause with "without" still cancels out: entering and parking is allowed with a permit
    permit = features("You can enter the site and park with a permit.",
                      "You cannot enter the site and park without a permit.", 0.85)
    assert not permit.quote_negated


@pytest.mark.parametrize(("claim", "quote", "verdict"), [
    ("Energy gels are handed out at miles 10 and 18 on both the marathon and the half marathon courses.",
     "Energy gels will be handed out at miles 10 and 18 on the marathon course only.", "contradicted"),
    ("The guide is available in English and Welsh.", "The guide is available in English only.", "contradicted"),
    ("Cash and cards are accepted.", "Only cards are accepted.", "contradicted"),
    # what "only" allows, and an item the quote names otherwise, are no addition
    ("The guide is available in English.", "The guide is available in English only.", "full"),
    ("Members and their guests may use the pool.", "The pool is open to members only, and guests must sign in.",
     None),
])
def test_an_item_joined_to_what_the_quote_allows_only_is_ruled_out(claim: str, quote: str, verdict: str | None) -> None:
    got = decide_support(features(claim, quote, 0.85))
    if verdict is None:
        assert got[0] != "contradicted", got
    else:
        assert got[0] == verdict, got


def test_a_negation_in_a_clause_put_before_the_main_one_ends_at_its_comma() -> None:
    quote = ("If you cannot attend, a friend may collect your number for you if they bring a signed letter of "
             "authorisation from you and a copy of your photo ID.")
    f = features("A friend can collect your number for you if they bring a signed letter of authorisation from you.",
                 quote, 0.9)
    assert not f.quote_negated
    assert decide_support(f)[0] != "contradicted"
    # the negated condition itself is still read: "If you do not pay" is not "If you pay"
    assert features("If you pay, the booking is cancelled.", "If you do not pay, the booking is cancelled.",
                    0.9).quote_negated


def test_a_negated_word_of_the_same_sense_as_the_claims_word_denies_it() -> None:
    from ledger.judge.word_relations import bundled_wordnet, same_sense

    wordnet = bundled_wordnet()

    def synonym(a: str, b: str) -> bool:
        return same_sense(a, b, wordnet)

    quote = "Cycling is not permitted on the boardwalk, and drones may not be flown anywhere on the reserve."
    allowed = features("Cycling is allowed on the boardwalk.", quote, 0.8, synonym=synonym)
    assert (allowed.claim_negated, allowed.quote_negated) == (False, True)
    assert decide_support(allowed)[0] == "contradicted"
    assert features("Cycling is not allowed on the boardwalk.", quote, 0.8, synonym=synonym).claim_negated
    assert decide_support(features("Cycling is not allowed on the boardwalk.", quote, 0.8,
                                   synonym=synonym))[0] != "contradicted"


def test_a_labelled_cell_of_a_row_the_claim_does_not_name_contradicts_nothing() -> None:
    row = "Root canal treatment (molar) (Fee: £690.00; Typical appointment length: 2 to 3 visits)."
    f = features("Interest-free finance is available for treatment costing £1,000 or more.", row, 0.52)
    assert decide_support(f)[0] != "contradicted"
    named = features("Root canal treatment on a molar costs £590.00.", row, 0.52)  # its own row: the fee is decisive
    assert decide_support(named)[0] == "contradicted"


def test_the_year_a_document_is_of_frames_a_claim_against_a_quote_naming_another_year() -> None:
    quote = "Mean nitrate across all samples was 2.1 mg/L, above the 1.6 mg/L of the 2009 survey."
    claim = "Across all samples, mean nitrate in 2024 was 2.1 mg/L."
    titled = features(claim, quote, 0.9, context="Lake Tarrow: 2024 Field Season Summary")
    assert decide_support(titled)[0] == "full"
    assert decide_support(features(claim, quote, 0.9, context="Lake Tarrow: 2023 Field Season Summary"))[0] != "full"


def test_a_verb_that_excludes_denies_as_a_negation_does_and_is_no_swap_for_the_quote_s_including() -> None:
    quote = ("Your policy does not cover business use, such as travelling between work sites or visiting clients, "
             "or any use for hire or reward, including food delivery.")
    excludes = features("The policy excludes business use such as visiting clients.", quote, 0.74)
    assert (excludes.claim_negated, excludes.quote_negated, excludes.swaps) == (True, True, ())
    assert decide_support(excludes)[0] == "full"
    covers = features("The policy covers business use such as visiting clients.", quote, 0.74)
    assert decide_support(covers)[0] == "contradicted"


def test_another_name_in_the_claim_s_subject_contradicts_with_the_usual_term_overlap_of_a_swapped_doer() -> None:
    quote = ("25/040 DEFIBRILLATOR\nCllr Lindqvist reported that he had checked the defibrillator in the former "
             "telephone box on The Green on 3 March 2025 and that it was in working order.")
    claim = ("Cllr Adeyemi, who carries out the monthly checks, confirmed on 3 March that the defibrillator on The "
             "Green was working.")
    assert decide_support(features(claim, quote, 0.72))[0] == "contradicted"
    assert decide_support(features(claim.replace("Adeyemi", "Lindqvist"), quote, 0.72))[0] != "contradicted"


def test_a_bound_said_in_other_words_is_no_swap_of_more_for_less() -> None:
    quote = "A golf bag can travel as part of your checked allowance as long as it weighs no more than 23 kg."
    same = features("A golf bag can go in your checked allowance provided it weighs 23 kg or less.", quote, 0.9)
    assert same.swaps == () and decide_support(same)[0] == "full"
    other = features("A golf bag can go in your checked allowance provided it weighs 23 kg or more.", quote, 0.9)
    assert decide_support(other)[0] == "contradicted"


def test_a_sickness_absence_of_a_week_denies_nothing_but_the_absence_of_a_thing_does() -> None:
    quote = "For absences of up to 7 calendar days, complete a self-certification form when you return."
    f = features("A sickness absence of up to a week can be self-certified.", quote, 0.65)
    assert not f.claim_negated and decide_support(f)[0] != "contradicted"
    assert features("Otters were seen this winter.", "The absence of otters this winter worried the wardens.",
                    0.7).quote_negated


def test_an_amount_before_the_second_of_both_things_is_not_the_thing() -> None:
    quote = "If you bring a lost item back within 6 months, we will refund the replacement cost and the fee."
    claim = "If a lost item turns up within 6 months, the library refunds both the replacement cost and the £2 fee."
    assert features(claim, quote, 0.8).added == ""
    assert features(claim, "We will refund the replacement cost.", 0.8).added == "fee"


def test_a_lead_in_line_heads_its_lines_up_to_a_blank_line_and_no_further() -> None:
    text = ("Central Library, 2 Mill Lane:\n  Wednesday: 10am to 7pm\n  Sunday: closed\n\n"
            "Oakhurst library is open Tuesday to Saturday, 10am to 5pm.")
    quotes = [c.text for c in LocalSupportChecker(HashEmbedder()).candidates(text)]
    assert "Central Library, 2 Mill Lane: … Sunday: closed" in quotes
    assert not any(q.startswith("Central Library") and "Oakhurst" in q for q in quotes)


def test_a_figure_paired_with_another_tier_s_figure_contradicts() -> None:
    quote = "Entitlement rises to 27 days after 5 years' continuous service and to 29 days after 10 years."
    crossed = features("After 10 years' continuous service, holiday entitlement goes up to 27 days.", quote, 0.76)
    assert decide_support(crossed) == ("contradicted", "evidence says 29 days, claim says 27 days")
    paired = features("After 5 years' continuous service, holiday entitlement goes up to 27 days.", quote, 0.76)
    assert decide_support(paired)[0] == "full"
    both = features("Entitlement goes up to 27 days after 5 years and to 29 days after 10 years.", quote, 0.9)
    assert decide_support(both)[0] == "full"


def test_a_share_restating_an_amount_is_compared_with_the_share_the_quote_gives_beside_it() -> None:
    quote = "We expect your annual cost to rise by £93.17 a year, or about 5.4%."
    wrong = features("Your yearly cost will rise by £93.17, an increase of roughly 7%.", quote, 0.85)
    assert decide_support(wrong) == ("contradicted", "evidence says 5.4%, claim says 7%")
    right = features("Your yearly cost will rise by £93.17, an increase of roughly 5.4%.", quote, 0.85)
    assert decide_support(right)[0] == "full"


def test_a_figure_in_a_condition_put_first_is_about_the_main_clause_too() -> None:
    quote = ("2.3 If any rent remains unpaid more than 14 days after the date on which it was due, the Landlord may "
             "charge interest at 3% above the central bank's base rate, calculated daily from the due date until the "
             "date of payment.")
    f = features("Interest on late rent can be charged once a payment is more than 7 days overdue.", quote, 0.75)
    assert decide_support(f) == ("contradicted", "evidence says 14 days, claim says 7 days")


def test_a_cap_paired_with_another_line_s_daily_charge_contradicts() -> None:
    lines = ("Books and audiobooks .... 20p per item per day, up to a maximum of £5 per item\n"
             "DVDs .................... 75p per item per day, up to a maximum of £7.50 per item")
    crossed = features("Late books are charged at 20p a day, capped at £7.50 per item.", lines, 0.7).quantities
    assert [(m.status, m.evidence.text if m.evidence else "") for m in crossed.matches] == [
        ("matched", "20p per item per day"), ("conflict", "£5 per item")]
    assert not features("Late books are charged at 20p a day, capped at £5 per item.", lines, 0.7).quantities.conflicts


def test_a_name_listed_with_names_one_sentence_gives_is_added_though_another_sentence_names_it() -> None:
    quote = ("Silver and Gold members can check in one extra bag of up to 23 kg on Plus, Flexi and Business fares. "
             "This benefit does not apply to Saver or Standard fares.")
    claim = "Silver and Gold members can check in an extra 23 kg bag on Standard, Plus, Flexi and Business fares."
    f = features(claim, quote, 0.85)
    assert f.added == "Standard" and decide_support(f)[0] == "contradicted"  # "does not apply to … Standard"
    first = features(claim, quote.split(". ")[0] + ".", 0.85)
    assert decide_support(first)[0] == "none"  # not even partial support


def test_a_claim_figure_the_passage_gives_elsewhere_is_not_stated_where_the_quote_gives_its_own() -> None:
    passage = ("Adult cards:\nBooks .... 20p per item per day, up to a maximum of £5 per item\n"
               "DVDs ..... 75p per item per day, up to a maximum of £7.50 per item")
    quote = "Books .... 20p per item per day, up to a maximum of £5 per item"
    f = features("Late books are charged at 20p a day, capped at £7.50 per item.", quote, 0.78, passage=passage)
    assert decide_support(f)[0] != "full"  # the DVDs' cap is not the books'
    f = features("Late books are charged at 20p a day, and DVDs at 75p.", quote, 0.78, passage=passage)
    assert [m.status for m in f.quantities.matches] == ["matched", "matched"]  # 75p is of no sort the quote gives


def test_a_negation_in_a_condition_is_no_opposite_statement() -> None:
    quote = "In the weeks when your black bin is not collected, your blue bin and purple box are collected instead."
    f = features("In the weeks between black bin collections, the crew empties the blue bin and the purple box "
                 "instead.", quote, 0.76)
    assert not f.claim_negated and not f.quote_negated and decide_support(f)[0] != "contradicted"
    # a negation the quote asserts still makes the opposite statement
    asserted = features("Your blue bin and purple box are collected every week.",
                        "Your blue bin and purple box are not collected every week.", 0.9)
    assert decide_support(asserted)[0] == "contradicted"


def test_a_negated_condition_is_the_opposite_only_of_a_condition_on_the_same_thing() -> None:
    quote = ("Refunds if you no longer need your season ticket … For all other season tickets, there must be at least "
             "7 days left on the ticket when we receive it.")
    f = features("An annual season ticket can be refunded as long as it still has at least seven days left when the "
                 "office receives it.", quote, 0.8)
    assert f.claim_negated == f.quote_negated and decide_support(f)[0] == "full"


def test_a_share_named_by_an_abbreviation_after_it_is_no_rival_of_another_share() -> None:
    row = "Product (Detail: 5 Year Fixed Rate (80% LTV), product code FX5-80-0725)."
    rate = figures("For the first five years the monthly payment would be £1,330.67, at a fixed 4.29%.", row)
    assert not rate.conflicts
    assert figures("The APR is 5.9%.", "Representative 6.9% APR.").conflicts  # what the claim's share is of
