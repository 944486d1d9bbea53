"""Swapped names and alternatives, and negation cues, read with the built-in lexicon."""

from __future__ import annotations

import pytest

from ledger.text.terms import (
    crossed_names,
    crossed_slots,
    dropped_condition,
    exception_restated,
    find_swaps,
    key_terms,
    negation_cues,
    opposite_direction,
    overstated_quantifier,
    qualified_role,
    same_direction,
    term_stem,
    unstated_tail,
)


@pytest.mark.parametrize(
    ("claim", "quote", "swaps"),
    [
        ("Grants are signed by the CEO.", "Grants are signed by the Chief Executive Officer.", ()),  # an acronym
        ("Grants are signed by the Chief Executive Officer.", "Grants are signed by the CEO.", ()),
        ("Grants are signed by the CFO.", "Grants are signed by the Chief Executive Officer.",
         (("CFO", "Chief Executive Officer"),)),
        ("The Harbour Board of Trustees meets monthly.", "The HBT meets monthly.", ()),
        ("The Ukrainian SSR joined in 1945.", "The Ukrainian Soviet Socialist Republic joined in 1945.", ()),  # in part
        ("She serves as Chief Minster of the state.", "She serves as Chief Minister of the state.", ()),  # misspelt
        ("The rota is approved by Dana Wells.", "The rota is approved by Dana Walsh.", (("Dana Wells", "Dana Walsh"),)),
        ("Prices are set by the Northern Water Board.", "Prices are set by the Southern Water Board.",
         (("Northern Water Board", "Southern Water Board"),)),  # another name sharing words
        ("Prices are set by the Water Board.", "Prices are set by the Water Board of Wessex.", ()),  # more of it
        ("The rota is approved by Dana.", "The rota is approved by Lee Park.", (("Dana", "Lee Park"),)),
        ("Reviews happen every quarter.", "Reviews happen annually.", (("every quarter", "annually"),)),
        ("The fee rises before the match.", "The fee rises after the match.", (("before", "after"),)),
        ("Training is mandatory.", "Training is optional.", (("mandatory", "optional"),)),
        ("Pre-tax profit rose 14%.", "Pre-tax profit fell 14%.", (("rose", "fell"),)),  # irregular forms
        ("The price will go up in May.", "The price will be reduced in May.", (("go up", "reduced"),)),
        ("The noise will be louder at night.", "The noise will be quieter at night.", (("louder", "quieter"),)),
        ("The team with the most fouls loses.", "The team with the fewest fouls loses.", (("most", "fewest"),)),
        ("The appeal was successful.", "The appeal failed.", (("successful", "failed"),)),
        ("The appeal was unsuccessful.", "The appeal failed.", ()),  # one canonical term
        ("The hearing was brought forward.", "The hearing was postponed.", (("brought forward", "postponed"),)),
        ("The hearing was delayed.", "The hearing was postponed.", ()),
        ("Membership is expected to decline.", "Membership is expected to climb.", (("decline", "climb"),)),
        ("Membership is expected to decline.", "Membership is expected to shrink.", ()),  # one direction
        ("The panel upheld the complaint.", "The panel dismissed the complaint.", (("upheld", "dismissed"),)),
        ("The pass rate rose between 2023 and 2024.", "In 2024 the pass rate was 64%, down from 68% in 2023.",
         (("rose", "down from"),)),  # a change named by the figure it moved from
        ("The pass rate fell between 2023 and 2024.", "In 2024 the pass rate was 64%, down from 68% in 2023.", ()),
        ("The drug makes it work less strongly.", "The drug makes it work more strongly.", (("less", "more"),)),
        ("Sales grew in the larger stores.", "Sales grew in the larger stores and the smaller ones.", ()),  # both named
        ("Reviews happen yearly.", "Reviews happen once a year.", ()),  # one canonical term
        # one event from either side: what is sold is bought, unless both sides name it actively
        ("You can buy a day pass at reception.", "Day passes are sold at reception.", ()),
        ("Spare keys can be bought from the office.", "The office sells spare keys.", ()),
        ("The office buys spare keys.", "The office sells spare keys.", (("buys", "sells"),)),
        # a lead time ("two weeks before") and a point in time ("after the start date") are two roles
        ("Rent is paid two weeks before the month starts.", "If you move in after the start date, rent is paid on "
         "arrival.", ()),
        ("The balance is due ten weeks before you leave.", "The balance is due ten weeks after you leave.",
         (("before", "after"),)),
        # Other names the quote only mentions, not in the claim's name's place, swap nothing.
        ("Orla Quist is a fictional glass sculptor.", "She is a Tallowmere, a fictional glass sculptor.", ()),
        ("Harrow Vale Films distributed the picture.",
         "The picture was produced by Brightwick and distributed by Harrow Vale Films; Pell Studio made the score.",
         ()),
        ("The rota is approved by Dana Wells and posted on Mondays.",
         "Mira Holt drafts the rota, which Dana Wells approves; it is posted on Mondays.", ()),
        # A title stands for a given name: "Mrs Quayle" is the "Hilda Quayle" of the claim, "Dr Quayle" no other.
        ("Hilda Quayle was discharged on Friday.", "Mrs Quayle was discharged on Friday.", ()),
        ("Dr Ivo Brandt signed the letter.", "Dr Brandt signed the letter.", ()),
        ("Dr Ivo Brandt signed the letter.", "Dr Lena Brandt signed the letter.",
         (("Dr Ivo Brandt", "Dr Lena Brandt"),)),
        ("Mrs Quayle was discharged on Friday.", "Mrs Ostrova was discharged on Friday.",
         (("Mrs Quayle", "Mrs Ostrova"),)),
        # A code is a name: "E2" and "E4" are two errors, not the same error with its digits left out.
        ("Error E2 means that the sensor has failed.", "Error E4 means the sensor has failed.",
         (("Error E2", "Error E4"),)),
        ("Error E2 means that the sensor has failed.", "Error E2 means the sensor has failed.", ()),
        # names a comma or colon parts are read apart: the person, the role and the employer of a contact line
        ("Fenella Dunmore, the university's Head of Research Finance, handles payment claims.",
         "Institution: Mr Gareth Llewellyn-Price, Head of Research Finance, University of Northmoor - payment claims.",
         (("Fenella Dunmore", "Mr Gareth Llewellyn Price"),)),
    ],
)
def test_swaps_are_other_names_and_alternatives_in_the_claims_place(
    claim: str, quote: str, swaps: tuple[tuple[str, str], ...]
) -> None:
    assert find_swaps(claim, quote) == swaps


def test_phrases_are_one_term_and_figure_words_none() -> None:
    assert key_terms("Staff work part-time every week.") == ("staff", "work", "part_time", "weekli")
    assert key_terms("within 48 hours or two days") == ()
    assert key_terms("The C4 Mini shows error E2.") == ("c4", "mini", "show", "error", "e2")  # codes are terms
    assert key_terms("PM2.5 levels") == ("level",)  # a decimal after the letters: a figure, as before
    # the thing counted is compared by the same canonical stems as the words around it ("failed" is "failure")
    assert term_stem("failed") == term_stem("fails") == key_terms("fails")[0]
    # a phrase of function words names a change, not what a figure after it is about
    assert key_terms("88% of pupils passed, up from 71% in 2022") == ("pupil", "pass")
    # a doubled last consonant is one word's in all its forms ("added" is no "ad"), and a time of day is a figure
    assert key_terms("A fee is added; we add a fee") == ("fee", "add")
    assert key_terms("by midday or noon, not midnight") == ()
    # a verb joined to a pronoun, or an auxiliary denied, names no topic, with either apostrophe
    assert key_terms("You'll pay less; we’ve checked; it doesn’t apply") == ("pay", "check", "appli")


@pytest.mark.parametrize(
    ("text", "cues"),
    [
        ("Payment is due no later than Friday and not to exceed $50.", []),  # bounds are no denials
        ("A member who is not on leave may vote.", []),  # a relative clause narrows the subject
        # ... but after a comma it states a fact of its own
        ("They accepted the quote of £18,400, which was not the cheapest.", ["not"]),
        ("The treasurer, who isn't a trustee, signs the cheques.", ["n't"]),
        ("Smoking is prohibited.", ["prohibited"]),
        ("Prohibited items are listed below.", []),  # the adjective negates only as a predicate
        ("Visitors are unable to park here and may not stay.", ["unable", "not"]),
        ("Send it by post rather than email.", ["rather than"]),
        ("The shop ceased trading and no longer opens.", ["ceased", "no longer"]),
        ("The bus stopped at the square.", []),  # a verb of stopping denies only a gerund after it
    ],
)
def test_negation_cues_come_from_the_lexicon(text: str, cues: list[str]) -> None:
    assert negation_cues(text) == cues


@pytest.mark.parametrize(
    ("claim", "quote", "crossed"),
    [
        ("Ana Ruiz won the final, beating Lea Marsh in three sets.",
         "Lea Marsh won the final on Sunday, beating the Spanish player Ana Ruiz in three sets.",
         (("Ana Ruiz", "Lea Marsh"),)),
        ("The review rated the ward as good at infection control but as weak in discharge planning.",
         "The review rated the children's ward as good at discharge planning but as weak in patient records and "
         "infection control.",
         (("infection control", "discharge planning"),)),
        # the same facts in another order: not crossed
        ("Ana Ruiz and Lea Marsh reached the final.", "Lea Marsh and Ana Ruiz reached the final.", ()),
        ("Lea Marsh was beaten by Ana Ruiz in the final.", "Ana Ruiz beat Lea Marsh in the final.", ()),
        ("Ana Ruiz won the final, beating Lea Marsh.", "Ana Ruiz won the final, beating Lea Marsh in three sets.", ()),
    ],
)
def test_two_parts_of_the_claim_in_each_others_places_are_crossed(
    claim: str, quote: str, crossed: tuple[tuple[str, str], ...]
) -> None:
    assert crossed_slots(claim, quote) == crossed


def test_an_irregular_plural_is_its_singular() -> None:
    assert key_terms("Children and women") == key_terms("child and woman") == ("child", "woman")


@pytest.mark.parametrize(
    ("claim", "quote", "tail"),
    [
        # a reason appended to what the quote says
        ("The pool is closed on Mondays because the filters are cleaned.", "The pool is closed on Mondays.",
         ("because", "filters", "cleaned")),
        # a repeated word ("files") is no new word; the figure is skipped, not counted
        ("Version 2 reads log files directly, including files compressed with gzip.",
         "Version 2 can read log files directly.", ("including", "compressed", "gzip")),
        # the claim's last word is in the quote: nothing is added at the end, whatever differs before it
        ("Members can borrow up to ten books.", "Each member may take out ten books.", ()),
        ("The pool is closed on Mondays.", "The pool is closed on Mondays.", ()),
    ],
)
def test_unstated_tail_is_what_a_claim_adds_at_its_end(claim: str, quote: str, tail: tuple[str, ...]) -> None:
    assert unstated_tail(claim, quote) == tail


@pytest.mark.parametrize(
    ("claim", "quote", "expected"),
    [
        ("The review was led by the Harbour Master.", "The deputy harbour master led the review.",
         ("harbour master", "deputy harbour master")),
        ("The vice president signed the contract.", "The president signed the contract.",
         ("vice president signed", "president signed")),  # the words that follow, as far as the other side has them
        # both roles named
        ("The Mayor moved the motion.", "The Mayor moved the motion, seconded by the deputy mayor.", None),
        ("The vice president signed.", "The vice president signed.", None),
        ("The mayor opened the meeting.", "The mayor opened the meeting.", None),
    ],
)
def test_a_deputy_is_another_role(claim: str, quote: str, expected: tuple[str, str] | None) -> None:
    assert qualified_role(claim, quote) == expected


@pytest.mark.parametrize(
    ("claim", "quote", "expected"),
    [
        ("The warranty runs for two years, however many charge cycles the battery has done.",
         "The battery is covered for 2 years or 500 charge cycles, whichever comes first.",
         ("however many", "whichever comes first")),
        ("A batch can always be reported, as long as the results carry a comment.",
         "The results may be reported, with the comment, only if every result is ten times the blank.",
         ("always", "only if")),
        # the claim's own condition is that condition; the quote's own "always" is its statement
        ("Reports can always be sent late if a manager agrees.", "Reports may be sent late if a manager agrees.",
         None),
        ("Visitors can always park here.", "Visitors can always park here, unless an event is on.", None),
        # no word for "in every case": nothing dropped
        ("Reports may be sent late.", "Reports may be sent late only if a manager agrees.", None),
        # days of the week the claim does not name are a condition; a claim about days of its own is about them
        ("The last bus leaves at 23:40 every night of the week.",
         "The last bus leaves at 23:05 from Sunday to Thursday, but on Friday and Saturday at 23:40.",
         ("every night", "from Sunday")),
        ("The shop is always open on Sundays.", "The shop is open on Sundays and Mondays.", None),
        ("Students can resubmit any failed assignment.",
         "Students may resubmit a failed assignment once, provided they ask within five days.", ("any", "provided")),
        # the quote's "any" inside its own restriction is not the claim's "at any point"
        ("The landlord may review the rent at any point.", "The landlord may review the rent once in any year, "
         "but not before April.", ("at any point", "once in any")),
        ("The seal holds however the pipe is mounted.", "The seal holds only if the pipe is mounted upright.",
         ("however the", "only if")),
        ("The treatment works whatever the weather.", "How well the treatment works varies with the weather.",
         ("whatever", "varies with")),
        ("No works to the roof may take place in summer in any circumstances.",
         "No works to the roof shall take place in summer unless an ecologist has inspected it.",
         ("in any circumstances", "unless")),
        # of two words for "in every case", the one the quote does not use
        ("Members may book at any time on any day.", "Members may book at any time, but only on Mondays.",
         ("any", "only")),
        # in every place
        ("Visitors may park anywhere on the site.", "Visitors may park on the site only in the north car park.",
         ("anywhere", "only")),
        ("Members can use the pool at all times.", "Members can use the pool except during lessons.",
         ("at all times", "except")),
        # a claim that says the condition makes no difference
        ("Under-18s are admitted free whether or not they come with an adult.",
         "Under-18s are admitted free when accompanied by a paying adult.", ("whether or not", "when")),
        ("The tablets can be taken with or without food.", "Take the tablets only with food.",
         ("with or without", "only")),
        # "even if" concedes a case the statement holds in too: no condition
        ("Child car seats are replaced after any accident, whether or not they look damaged.",
         "We replace child car seats after any accident even if there is no visible damage.", None),
        # an "any" a negation takes says "none at all", not "in every case"
        ("With a doctor's letter a member can freeze for six months without paying any fee.",
         "A medical freeze is free of charge if you provide a doctor's letter.", None),
        ("Members can freeze without notice at any time.", "Members can freeze only after 3 months.",
         ("at any time", "only after")),
        ("You pay for each dose, so you won't be charged for any dose you do not have.",
         "You pay for each dose when it is given.", None),
        # "before any", "plus any": whatever there is of it, not every case
        ("A full service costs £90, before any parts it needs.",
         "A full service costs £90 for bikes bought from us, when booked online.", None),
        # "anyone who ..." is those who do it, no claim about every case
        ("Anyone who misses three classes is barred for a week.",
         "If you cannot attend, cancel 2 hours ahead. Members who miss three classes are barred for a week.", None),
    ],
)
def test_a_claim_that_holds_in_every_case_drops_the_quote_s_condition(
    claim: str, quote: str, expected: tuple[str, str] | None
) -> None:
    assert dropped_condition(claim, quote) == expected


@pytest.mark.parametrize(
    ("plain", "negated", "restated"),
    [
        ("The most we pay for any item is £2,000 unless the item is listed by name in your schedule.",
         "Any item not named in the schedule is capped at £2,000.", True),
        # the negation denies the statement itself, not the exception
        ("Refunds are given unless the item is damaged.", "Refunds are not given.", False),
        ("Refunds are given unless the item is damaged.", "Refunds are not given for items that are not damaged.",
         False),
        ("Refunds are given for damaged items.", "Refunds are not given for items that are not damaged.", False),
    ],
)
def test_an_exception_made_with_unless_is_the_one_a_negation_names(plain: str, negated: str, restated: bool) -> None:
    assert exception_restated(plain, negated) is restated


@pytest.mark.parametrize(
    ("claim", "quote", "turned"),
    [
        ("Members will pay a higher fee from May.", "From 1 May the fee will fall from £40 to £35.",
         ("higher", "fall")),
        ("The discount gets smaller in March.", "In March the discount will rise from 10% to 15%.",
         ("smaller", "rise")),
        ("The discount gets larger in March.", "In March the discount will rise from 10% to 15%.", None),
        # a quote that moves both ways says nothing against either
        ("Fees will be higher.", "Fees fell in May but were raised again in June.", None),
        # "more" and "less" qualify far more often than they compare
        ("More than 20 staff attended.", "Attendance fell to 25 staff.", None),
        # a signed share of the claim's figure goes its sign's way
        ("Visits rose by 12%.", "Visits (2025: 800; 2026: 704; Change: −12%).", ("rose", "−12%")),
        ("Visits fell by 12%.", "Visits (2025: 800; 2026: 704; Change: −12%).", None),
        ("Visits fell by 12%.", "Visits (2025: 704; 2026: 800; Change: +12%).", ("fell", "+12%")),
        ("Visits fell by 9%.", "Visits (2025: 704; 2026: 800; Change: +12%).", None),  # another figure
    ],
)
def test_a_move_one_way_against_a_move_the_other_way(claim: str, quote: str, turned: tuple[str, str] | None) -> None:
    assert opposite_direction(claim, quote) == turned


@pytest.mark.parametrize(
    ("claim", "quote", "expected"),
    [
        ("Every complaint is reviewed by a director.", "A small sample of complaints is reviewed by a director.",
         ("Every", "A small sample of")),
        ("All parcels are scanned on arrival.", "Most parcels are scanned on arrival.", ("All", "Most")),
        ("All parcels are scanned on arrival.", "All parcels are scanned on arrival; most arrive by noon.", None),
        ("Some parcels are scanned on arrival.", "Most parcels are scanned on arrival.", None),  # no "every"
        # a clause that picks some of the group
        ("All children aged 2 to 11 need two doses.", "Children who have never had a flu vaccine need two doses.",
         ("All", "Children who")),
        ("All staff who handle data must be trained.", "Staff who handle personal data must be trained.", None),
        ("All staff get 25 days' leave.", "All staff get 25 days' leave. Staff who work weekends get extra pay.", None),
    ],
)
def test_a_claim_about_every_member_against_a_quote_about_part_of_the_group(
    claim: str, quote: str, expected: tuple[str, str] | None
) -> None:
    assert overstated_quantifier(claim, quote) == expected



def test_a_claim_about_all_against_a_part_in_figures_overstates_it() -> None:
    from ledger.text.terms import overstated_quantifier

    quote = "Electric hook-ups are available on 30 of our 45 pitches."
    assert overstated_quantifier("All 45 pitches have electric hook-ups.", quote) == ("All", "30 of our 45")
    assert overstated_quantifier("All pitches have electric hook-ups.", "45 of 45 pitches have them.") is None


def test_the_person_in_the_claim_s_place_is_the_one_the_quote_names_under_its_heading() -> None:
    from ledger.text.terms import find_swaps

    claim = "Rosa Lind will write to the council to ask for a crossing on Mill Road."
    quote = "## 4. Traffic on Mill Road … Sam Okoro will write to the council to ask for a crossing."
    assert find_swaps(claim, quote) == (("Rosa Lind", "Sam Okoro"),)  # not the heading's "Traffic"


def test_a_change_said_the_same_way_on_both_sides_is_one_direction() -> None:
    assert same_direction("Net debt fell to £118 million.", "Net debt was £118 million, down from £131 million.")
    assert same_direction("Sales rose 4%.", "Like-for-like sales grew 4%.")
    assert not same_direction("Net debt rose to £118 million.", "£118 million, down from £131 million.")
    assert not same_direction("Net debt was £118 million.", "£118 million, down from £131 million.")  # no move
    assert same_direction("Visits fell by 12%.", "Visits (2025: 800; 2026: 704; Change: −12%).")  # a signed share


@pytest.mark.parametrize(
    ("claim", "quote", "crossed"),
    [
        # each group gets what the quote gives the other
        ("Group A receives the booklet by post, while Group B uses the app for six weeks.",
         "Group A will use the app for six weeks. Group B will receive the booklet by post.",
         (("Group A", "Group B"),)),
        ("Group B receives the booklet by post, while Group A uses the app for six weeks.",
         "Group A will use the app for six weeks. Group B will receive the booklet by post.", ()),
        # a quote that names only one of them, and says of it what the claim says of the other
        ("Group A receives the booklet by post, while Group B uses the app for six weeks.",
         "Group B will receive the booklet by post. Later, Group B is offered the app.", (("Group A", "Group B"),)),
        ("Group B receives the booklet by post, while Group A uses the app for six weeks.",
         "Group B will receive the booklet by post. Later, Group B is offered the app.", ()),
        # one part of the claim for both names: nothing to cross
        ("Anna and Ben share the relay title.", "Anna won the relay. Ben won the sprint.", ()),
    ],
)
def test_two_names_in_each_other_s_places_across_sentences(
        claim: str, quote: str, crossed: tuple[tuple[str, str], ...]) -> None:
    assert crossed_names(claim, quote) == crossed


def test_a_name_opening_both_sentences_under_one_title_is_the_one_who_did_it() -> None:
    claim = "Cllr Adeyemi, who carries out the monthly checks, confirmed on 3 March that the defibrillator was working."
    quote = "25/040 DEFIBRILLATOR\nCllr Lindqvist reported that he had checked the defibrillator on 3 March 2025."
    assert find_swaps(claim, quote) == (("Cllr Adeyemi", "Cllr Lindqvist"),)
    assert find_swaps(claim.replace("Adeyemi", "Lindqvist"), quote) == ()
    # no title in common: the quote's subject may be anyone the claim's is not
    assert find_swaps("Adeyemi confirmed that the defibrillator was working.",
                      "The Clerk reported that the defibrillator was checked.") == ()
