"""Figures, dates and negation: the same amount written two ways matches, a changed amount conflicts."""

from __future__ import annotations

import pytest

from ledger.text.quantities import (
    compare_quantities,
    extract_quantities,
    is_negated,
    negation_cues,
    reversed_change,
)


def statuses(claim: str, evidence: str) -> list[str]:
    return [m.status for m in compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("three business days", "3 business days"),
        ("one hour", "1 hour"),
        ("60 minutes", "one hour"),
        ("$1,200", "USD 1200"),
        ("1.2 million dollars", "$1,200,000"),
        ("$3.5m", "$3,500,000"),
        ("EUR 90 per night", "90 euros per night"),
        ("70 cents per mile", "$0.70 per mile"),
        ("15%", "15 percent"),
        ("fifteen per cent", "15%"),
        ("one fifth of the fee", "20% of the fee"),
        ("roughly one third of revenue", "about a third of revenue"),
        ("48 hours", "2 days"),
        ("2 weeks", "14 days"),
        ("1 month", "30 days"),
        ("12 months", "1 year"),
        ("5 days", "five days"),
        ("twenty-five days", "25 days"),
        ("a dozen laptops", "12 laptops"),
        ("one hundred and twenty five staff", "125 staff"),
        ("41 hires", "41 people"),
        ("twice a year", "every six months"),
        ("once per quarter", "every quarter"),
        ("three remote days each week", "3 days per week"),
        ("1 March 2026", "2026-03-01"),
        ("March 31, 2026", "31 March 2026"),
        ("March 2026", "1 March 2026"),
        ("Q1 2026", "2026-03-01"),
        ("2026", "Effective date: 2026-03-01"),
        ("by 5 p.m.", "by 17:00"),
        ("every Friday", "on Fridays"),
        ("a refund of $3,000", "| $750.01 to $5,000 | Support team lead |"),
        ("up $3.5 million", "$72.4 million, up from $68.9 million"),
        ("a trail 26 miles long", "a trail 41.8 km long"),  # units of measure: the same length
        ("a tank of 2 litres", "a tank of 2,000 ml"),
        ("a 26-mile route", "a route of 26 miles"),
        ("roughly an hour and a half", "about 90 minutes"),
        ("two and a half years", "30 months"),
        ("almost two in five people", "nearly 40% of the population"),
        ("around one in nine pounds of sales", "11% of sales"),
        ("at nearly a third of the total", "at 31% of the total"),  # a share in words is as coarse as its words
        ("born in the 1970s", "born April 23, 1978"),
        ("died in 1986", "(10 February 1894 -- 29 December 1986)"),  # the range's end, not its start
        ("in the 2007-2008 season", "in 2007 -- 08"),
        ("two-thirds of members", "67% of members"),
        ("four out of five adults", "80% of adults"),
        ("affecting more than one child in ten", "may affect more than 1 in 10 people"),  # a noun before "in"
        ("one in every five patients", "20% of patients"),
        ("open on Wednesdays", "open Tuesday to Saturday"),  # a weekday inside a range of weekdays
        ("charged at 20p a day", "£0.20 per day"),  # pence
        ("a fee of 50 pence", "a fee of £0.50"),
        ("open on Sundays", "open Friday to Monday"),  # across the weekend
        ("every other week", "every two weeks"),
        ("the sum is raised by a tenth", "the sum rises by 10%"),
        ("costs were cut by half", "costs fell by 50%"),
        ("worked there for eight years", "employed from March 2015 until March 2023"),
        ("for six months", "from March 2015 to September 2015"),
        ("a dose four times a day", "a dose twice in 12 hours"),
        ("feeds twice a day", "feeds twice in a day"),
        ("the fee works out at £30 a month", "the fee is £360 a year"),  # money paid in another period
        ("the fee works out at £30 a month", "the annual fee is £360"),
        ("rent of £1,200 a month", "rent of £1,200 per calendar month"),
        ("the test may be retaken on two occasions", "the test can be retaken twice"),  # a count of times
        ("the talk lasts three-quarters of an hour", "a 45-minute talk"),  # a part of a unit, in words
        ("a break of a quarter of an hour", "a 15-minute break"),
        ("the pool is open in July", "the pool is open from May to September"),  # "May" the month, in a span
        # a total is about everything it sums
        ("a house pays £410 a year for gas and electricity combined",
         "a house pays £180 a year for gas, and £230 a year for electricity, a total of £410."),
    ],
)
def test_same_figure_written_differently_matches(claim: str, evidence: str) -> None:
    found = statuses(claim, evidence)
    assert found and set(found) == {"matched"}


@pytest.mark.parametrize(
    ("claim", "evidence", "says"),
    [
        ("15%", "20%", "20%"),
        ("$250 per night", "$220 per night", "$220 per night"),
        ("within 24 hours", "within 48 hours", "48 hours"),
        ("three business days", "5 business days", "5 business days"),
        ("10 seconds of inactivity", "10 minutes of inactivity", "10 minutes"),
        ("at least 10 days", "up to 10 days", "10 days"),
        ("1 March 2026", "2 March 2026", "2 March 2026"),
        ("Q2 2026", "1 March 2026", "1 March 2026"),
        ("in 2025", "in 2026", "2026"),
        ("every Friday", "every Monday", "Monday"),
        ("open on Mondays", "open Tuesday to Saturday", "Tuesday"),
        ("once a year", "every quarter", "every quarter"),
        ("12 employees", "10 full-time employees", "10 full-time employees"),
        ("a circular route of 26 miles", "a 26-kilometre circular route", "26-kilometre circular route"),
        ("the tank holds 40 litres", "the tank holds 40 gallons", "40 gallons"),
        ("the parcel weighs 3 kg", "the parcel weighs 3 tonnes", "3 tonnes"),
        ("born in the 1980s", "born April 23, 1978", "April 23, 1978"),
        ("an hour and a half", "45 minutes", "45 minutes"),
        ("at a third of the total", "at 20% of the total", "20%"),
        ("for less than five minutes", "for six minutes", "six minutes"),  # the bound does not hold
        ("more than $2 million", "$1.5 million", "$1.5 million"),
        ("within 30 days", "within 45 days", "45 days"),  # two limits: compared as values
        ("a dose four times a day", "a dose three times in 12 hours", "three times in 12 hours"),
        ("the fee is £35 a month", "the fee is £400 a year", "£400 a year"),
        ("the weekly fee is £40", "the fee is £40 a month", "£40 a month"),
        ("the test can be retaken twice", "the test can be retaken three times", "three times"),
    ],
)
def test_changed_figure_conflicts(claim: str, evidence: str, says: str) -> None:
    (match,) = compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches
    assert match.status == "conflict"
    assert match.evidence is not None and match.evidence.text == says


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("slept more than half an hour longer", "slept 34 minutes longer"),
        ("grossed less than $1 million", "grossed $181,674"),
        ("inside for less than ten minutes", "inside for six minutes"),
        ("more than a third of new loans", "38% of new loans"),
        ("at least 10 days of leave", "14 days of leave"),
        ("a trail under 5 km long", "a trail 3 miles long"),  # a bound in another unit of measure
        # a limit is the coordinated part's too: "no later than 10 days before … and 21 days before …"
        ("marathon entries close at least three weeks before the race",
         "entries close no later than 10 days before the race for the fun run and 21 days before the race for the "
         "marathon"),
    ],
)
def test_a_bound_in_the_claim_holds_for_an_exact_figure_on_its_side(claim: str, evidence: str) -> None:
    assert statuses(claim, evidence) == ["matched"]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("1 March 2026", "March 2026"),  # the evidence is less precise than the claim
        ("$250 per night", "$250 per trip"),  # another rate
        ("takes about 45 minutes", "within 21 days"),  # durations that far apart measure different things
        ("$40", "no figures at all"),
        ("the path is 3 km long", "the bag weighs 3 kg"),  # a length and a mass never compare
        ("the estuary is 110 miles long", "the town lies 8 mi east of the city"),  # lengths of different things
    ],
)
def test_figure_the_evidence_does_not_give_is_absent(claim: str, evidence: str) -> None:
    assert statuses(claim, evidence) == ["absent"]


def test_a_figure_is_compared_with_the_figure_about_the_same_thing() -> None:
    evidence = ("Operating expenses were $29.8 million, made up of research and development at $12.6 million, "
                "sales and marketing at $11.3 million, and general and administrative costs at $5.9 million.")
    (right,) = compare_quantities(extract_quantities("Sales and marketing cost $11.3 million."),
                                  extract_quantities(evidence)).matches
    (wrong,) = compare_quantities(extract_quantities("Sales and marketing expenses were $12.6 million."),
                                  extract_quantities(evidence)).matches
    assert right.status == "matched"
    assert wrong.status == "conflict" and wrong.evidence is not None and wrong.evidence.text == "$11.3 million"


def test_figures_about_unrelated_things_do_not_conflict() -> None:
    evidence = "Employees must submit expense reports within 30 days after the trip ends."
    assert statuses("New hires complete security training within 45 days.", evidence) == ["absent"]


@pytest.mark.parametrize(
    "text",
    ["Update 3.10.2 of the Orla X5 router fixes the login page.", "The A350neo cabin was refitted.",
     "Error E7 means the pump has stalled.", "CO2 output fell.", "Section 4.2.1 applies."],
)
def test_codes_and_version_numbers_are_names_not_figures(text: str) -> None:
    assert extract_quantities(text) == []


def test_a_release_number_is_a_name_that_the_evidence_may_give_bare_or_after_the_product() -> None:
    claim = "Version 4.0 raised the connection limit."
    assert [(q.kind, q.identifier) for q in extract_quantities(claim)] == [("number", True)]
    assert statuses(claim, "The following defaults have changed in 4.0.") == ["matched"]
    assert statuses(claim, "Ferrolite 4.0 is a major release.") == ["matched"]
    assert statuses(claim, "Level 4 applies to all staff.") == ["absent"]  # another kind of name
    assert statuses(claim, "Q3 revenue rose 4.5% to 2.5 million.") == ["absent"]  # a bare figure is no rival


def test_a_decimal_before_a_noun_counts_nothing_but_a_measure_is_read() -> None:
    assert [q.kind for q in extract_quantities("With the 4.0 defaults the server listens locally.")] == ["number"]
    assert [q.kind for q in extract_quantities("The stream is 3.5 mi long.")] == ["count"]


def test_a_figure_beside_a_code_is_still_read() -> None:
    found = extract_quantities("The Orla X5 router costs $129 and draws 12% less power.")
    assert [(q.kind, q.value) for q in found] == [("money", 129.0), ("percent", 12.0)]


def test_an_evidence_figure_that_is_another_claim_figure_is_no_rival() -> None:
    evidence = "Complaints to the ombudsman rose to 412 in 2025, the most since 2009, from 356 in 2024."
    assert statuses("Complaints to the ombudsman were higher in 2025 than in 2024.", evidence) == ["matched", "matched"]
    # one year alone, and the evidence gives the claim's figure for the other year: still a conflict
    assert statuses("Complaints to the ombudsman rose to 356 in 2025.", evidence) == ["conflict", "matched"]


def test_a_count_may_be_the_difference_of_two_bare_numbers() -> None:
    evidence = "Road deaths in the county fell to 74 in 2025, compared with 89 in 2024."
    assert statuses("There were 15 fewer road deaths in the county.", evidence) == ["matched"]
    assert statuses("There were 13 fewer road deaths in the county.", evidence) != ["matched"]


def test_a_temperature_is_compared_only_with_temperatures() -> None:
    (temperature,) = extract_quantities("Store the vials at 4 °C.")
    assert temperature.text == "4 °C" and temperature.context == frozenset({"°C"})
    evidence = "We kept 240 seedlings in a chamber and exposed half of them to heat pulses at 34 °C."
    assert "conflict" not in statuses("About 120 of the seedlings were exposed to heat pulses.", evidence)


def test_a_limit_is_compared_with_the_limit_the_evidence_states() -> None:
    evidence = ("Late payment interest is charged at 1% of the invoice for each month of delay, up to a maximum "
                "of 8% of the invoice.")
    assert statuses("Late payment interest is capped at 12% of the invoice.", evidence) == ["conflict"]
    assert statuses("Late payment interest is capped at 8% of the invoice.", evidence) == ["matched"]
    # Without a limit in the evidence, a claim's limit is a bound that an exact figure meets.
    assert statuses("Interest is under 12% of the invoice.", "Interest is 8% of the invoice.") == ["matched"]


def test_the_only_date_on_each_side_is_compared_even_when_its_words_differ() -> None:
    evidence = "The museum will shut its east wing for six weeks from 14 June while the roof is repaired."
    assert statuses("The east wing will shut for six weeks beginning on 14 July.", evidence) == ["matched", "conflict"]
    assert statuses("The east wing will shut for six weeks beginning on 14 June.", evidence) == ["matched", "matched"]
    # Two dates in the evidence: which one the claim's date is about is left to the words around them.
    two = "Booking opens on 2 May for visits from 14 June."
    assert statuses("Tickets can be bought for the tour beginning on 9 July.", two) == ["absent"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Refunds take three business days.", [("duration", 3.0, "business_day", "three business days")]),
        ("The cap is USD 1,200 per trip.", [("money", 1200.0, "USD", "USD 1,200 per trip")]),
        ("Uptime of 99.9% is promised.", [("percent", 99.9, "", "99.9%")]),
        ("A team of ten full-time employees.", [("count", 10.0, "", "ten full-time employees")]),
        ("Tier 2 vendors", [("number", 2.0, "", "2")]),
        ("Effective 2026-07-01.", [("date", 1.0, "", "2026-07-01")]),
        ("Reviewed every six months.", [("frequency", 2.0, "", "every six months")]),
        ("One of the managers approves.", []),
        ("No one may approve their own claim.", []),
        ("Records may be deleted once the period ends.", []),
        ("Up to 5 may attend.", [("number", 5.0, "", "5")]),
        ("In May, staff may work from home.", [("date", 0.0, "", "May")]),  # the month after "in", not the verb
        ("The form is signed by May Lin.", []),  # a name
        # the British clock's dot: its two digits are minutes
        ("Doors open at 9.30am daily.", [("time", 570.0, "", "9.30am")]),
        ("We meet at 7.45 on Sundays.", [("time", 465.0, "", "7.45"), ("weekday", 6.0, "", "Sundays")]),
    ],
)
def test_extraction(text: str, expected: list[tuple[str, float, str, str]]) -> None:
    assert [(q.kind, q.value, q.unit, q.text) for q in extract_quantities(text)] == expected


def test_bounds_are_read() -> None:
    bounds = {q.text: q.bound for q in extract_quantities(
        "Book at least 14 days ahead, claim within 30 days, and spend $40 or more with a receipt.")}
    assert bounds == {"14 days": "min", "30 days": "max", "$40": "min"}


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("Alcohol is not reimbursable.", True),
        ("Alcohol is reimbursable.", False),
        ("Smoking is prohibited in the office.", True),
        ("You can't book first class.", True),
        ("Employees may never share passwords.", True),
        ("Employees may not travel without approval.", False),  # two negations cancel
        ("Claims must be filed no later than 30 days after the trip.", False),  # a deadline, not a negation
        ("Entertainment may not exceed $125 per attendee.", False),  # a cap, not a negation
    ],
)
def test_negation(text: str, negated: bool) -> None:
    assert is_negated(text) is negated


def test_negation_cues_name_the_words() -> None:
    assert negation_cues("Fares are non-refundable and never reimbursed.") == ["non-refundable", "never"]


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("First-time buyers took most of the new loans.", "First-time buyers took 38% of new loans.", "conflict"),
        ("First-time buyers took most of the new loans.", "First-time buyers took 62% of new loans.", "matched"),
        ("The majority of members voted for it.", "Of the members, 71% voted for it.", "matched"),
        ("A minority of members voted for it.", "Of the members, 71% voted for it.", "conflict"),
        # an exact share on the side of half the evidence names: not stated, and not ruled out
        ("First-time buyers took 62% of new loans.", "First-time buyers took most of the new loans.", "absent"),
        ("First-time buyers took 38% of new loans.", "First-time buyers took most of the new loans.", "conflict"),
        # a limit in figures stays the rival of an exact figure for it
        ("The minimum cyber insurance for vendors is $10 million.",
         "Vendors must carry cyber insurance of at least $5 million.", "conflict"),
    ],
)
def test_most_and_the_majority_are_more_than_half(claim: str, evidence: str, expected: str) -> None:
    assert statuses(claim, evidence)[0] == expected


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # a date inside a range the evidence gives is in it, across the new year too; one outside it is another date
        ("The museum is closed in December.", "The museum is closed from November to February.", "matched"),
        ("Camel treks run in January.", "Camel treks run from October to April.", "matched"),
        ("The shop opens on 5 April.", "The sale runs from 3 March to 14 April.", "matched"),
        ("The museum is closed in June.", "The museum is closed from November to February.", "conflict"),
        # an end of the range is compared as the date it is
        ("The museum is closed in November.", "The museum is closed from November to February.", "matched"),
    ],
)
def test_a_date_inside_a_range_is_not_contradicted_by_its_ends(claim: str, evidence: str, expected: str) -> None:
    assert statuses(claim, evidence)[0] == expected


def test_a_date_inside_a_range_shows_how() -> None:
    (match,) = compare_quantities(extract_quantities("The museum is closed in December."),
                                  extract_quantities("The museum is closed from November to February.")).matches
    assert match.derivation == "December is in November to February"
    (end,) = compare_quantities(extract_quantities("The Sands closed in 1952."),
                                extract_quantities("The Sands operated from 1952 to 1996.")).matches
    assert end.derivation == ""  # an end of the range: stated, not worked out


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # the claim puts the range's start at its end, or the other way round: the other end is the claim's date
        ("The Sands closed in 1952.", "The Sands operated from 1952 to 1996.", ("conflict", "1996")),
        ("The Sands opened in 1996.", "The Sands operated from 1952 to 1996.", ("conflict", "1952")),
        ("Bea Arthur died on May 13, 1922.", "Bea Arthur (May 13, 1922 – April 25, 2009) was an actress.",
         ("conflict", "April 25, 2009")),
        ("The Sands opened in 1952.", "The Sands operated from 1952 to 1996.", ("matched", "1952")),
        # a range that is itself about what the claim says: its start is the claim's date
        ("The museum closed in November.", "The museum is closed from November to February.", ("matched", "November")),
    ],
)
def test_a_date_at_the_wrong_end_of_a_range_is_contradicted(
    claim: str, evidence: str, expected: tuple[str, str]
) -> None:
    (match,) = compare_quantities(extract_quantities(claim), extract_quantities(evidence)).matches
    assert (match.status, match.evidence.text if match.evidence else "") == expected


def test_a_figure_is_described_by_its_own_sentence_only() -> None:
    # The last figure of a line took its words from the rest of the line, into the next sentence: "25%" was about a
    # "bus", so "about 100 pupils take the bus" worked out from it.
    *_, share = extract_quantities("The school has 400 pupils, and about 25% of them walk to school. "
                                   "The school bus stops at the gate.")
    assert share.text == "25%" and "bu" not in share.about and "walk" in share.about
    evidence = "The school has 400 pupils, and about 25% of them walk to school. The school bus stops at the gate."
    assert statuses("About 100 pupils walk to school.", evidence) == ["matched"]
    assert statuses("About 100 pupils take the bus.", evidence) != ["matched"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("The orbits last 6.2 and 23.8 days.", [("duration", 6.2), ("duration", 23.8)]),
        ("Recovery takes 3 to 4 weeks.", [("duration", 21.0), ("duration", 28.0)]),
        ("Stays of 2, 3 or 5 nights are offered.", [("duration", 2.0), ("duration", 3.0), ("duration", 5.0)]),
        ("Prices rise by 5-8%.", [("percent", 5.0), ("percent", 8.0)]),
        # a score is no range, and a name's number keeps its own meaning
        ("The home side won 3–2 against the visitors.", [("number", 3.0), ("count", 2.0)]),
        ("See Section 4 and 5 days later the appendix.", [("number", 4.0), ("duration", 5.0)]),
    ],
)
def test_numbers_share_the_unit_of_the_figure_after_them(text: str, read: list[tuple[str, float]]) -> None:
    assert [(q.kind, round(q.value, 6)) for q in extract_quantities(text)] == read


def test_a_figure_inside_a_range_with_one_unit_is_no_contradiction() -> None:
    evidence = extract_quantities("Recovery from the operation takes 3 to 4 weeks for most patients.")
    three = compare_quantities(extract_quantities("Recovery from the operation takes 3 weeks."), evidence)
    two = compare_quantities(extract_quantities("Recovery from the operation takes 2 weeks."), evidence)
    assert [m.status for m in three.matches] == ["matched"]
    assert [m.status for m in two.matches] == ["conflict"]


@pytest.mark.parametrize(
    ("claim", "quote", "expected"),
    [
        ("The retention period went from 7 to 14 days.", "backup_retention_days: reduced from 14 to 7.",
         ("from 14 to 7", "from 7 to 14")),
        ("Prices rose from $5 to $7.", "Prices fell from $7 to $5.", ("from $7 to $5", "from $5 to $7")),
        ("It went from 5% to 7%.", "It went from 5% to 7%.", None),  # the same change
        ("It rose from 5 to 7.", "It fell from 7 to 5, then rose from 5 to 7.", None),  # the quote states both
        # addresses are no figures
        ("The address changed from 10.0.0.1 to 127.0.0.1.", "It changed from 127.0.0.1 to 10.0.0.1.", None),
    ],
)
def test_a_change_stated_the_other_way_round(claim: str, quote: str, expected: tuple[str, str] | None) -> None:
    assert reversed_change(claim, quote) == expected


def test_the_base_of_a_rate_is_no_amount_to_compare() -> None:
    # "2 minutes per 100 GB" says nothing against "500 GB of data"
    quote = "The migration takes about 2 minutes per 100 GB of data."
    assert [q.text for q in extract_quantities(quote)] == ["2 minutes"]
    assert statuses("A node holding 500 GB of data needs ten minutes.", quote) == ["absent", "absent"]


def test_an_evidence_figure_the_claim_gives_for_something_else_is_no_rival() -> None:
    # the claim's "up from every 30 minutes" is the quote's figure; its "every 20 minutes" is not stated there
    assert statuses("Trains will run every 20 minutes, up from every 30 minutes.",
                    "Trains will run every 30 minutes.") == ["absent", "matched"]


def test_a_quarter_of_something_is_a_share_and_a_quarter_alone_a_period() -> None:
    assert [(q.kind, q.value) for q in extract_quantities("Almost a quarter of the income came from shops.")] == [
        ("percent", 25.0)]
    assert [q.kind for q in extract_quantities("Payment is due within a quarter.")] == ["duration"]


def test_the_year_of_what_a_figure_is_compared_with_is_no_rival_of_the_claim_s_year() -> None:
    quote = "There were 3 reportable incidents during the year, compared with 5 in 2022."
    assert statuses("There were 3 reportable incidents in 2023.", quote) == ["matched", "absent"]
    # the only date on each side is still a rival when it dates the statement itself
    assert statuses("The bridge closes on 3 May.", "The bridge will close from 3 March.") == ["conflict"]


def test_a_day_outside_the_claim_s_range_of_days_is_another_case_not_a_rival() -> None:
    quote = "On Sundays the first train leaves at 07:30."
    assert statuses("From Monday to Saturday the first train leaves earlier.", quote) == ["absent", "absent"]
    assert statuses("On Mondays the first train leaves at 07:30.", quote) == ["conflict", "matched"]


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("in 2023/24", "in the 2023-24 school year", ["matched"]),
        ("in 2024", "in 2023/24", ["matched"]),  # one of the two years of a school year
        ("in 2022/23", "in 2023/24", ["conflict"]),
        ("in the 2019/20 season", "in the 1970s", ["conflict"]),
    ],
)
def test_a_school_or_financial_year_is_one_date_of_two_years(claim: str, evidence: str, expected: list[str]) -> None:
    # "2021/22" is no year 2021 beside a figure 22 (read before as "22%" when a share followed)
    assert [(q.kind, q.text) for q in extract_quantities("fell from 19% in 2021/22 to 11% in 2023/24")] == [
        ("percent", "19%"), ("date", "2021/22"), ("percent", "11%"), ("date", "2023/24")]
    assert statuses(claim, evidence) == expected
    assert [q.kind for q in extract_quantities("(6 March 1938 - 28 January 2004)")] == ["date", "date"]


def test_the_rival_of_a_figure_is_not_the_claim_s_other_figure() -> None:
    # the evidence's 19% is the claim's 19%; its 11% is the rival of the claim's 9%
    quote = "The share of pupils who are persistently absent fell from 19% in 2021/22 to 11% in 2023/24."
    assert statuses("Persistent absence fell from 19% in 2021/22 to 9% in 2023/24.", quote) == [
        "matched", "matched", "conflict", "matched"]
    # of two rivals as close, the one in the claim's figure's role: "to 9%" is answered by "to 11%", not "from 19%"
    (fell, _) = compare_quantities(extract_quantities("Persistent absence fell to 9% in 2023/24."),
                                   extract_quantities(quote)).matches
    assert fell.status == "conflict" and fell.evidence is not None and fell.evidence.text == "11%"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Samples are checked every two hours.", "Samples are checked twelve times a day."),
        ("Take one tablet every 6 hours.", "Take one tablet four times a day."),
        ("a bus every 30 minutes", "a bus twice an hour"),
        ("Take one capsule twice daily.", "Take one capsule twice a day."),  # an adverb of a period is a rate
        ("The gauge is read three times weekly.", "The gauge is read three times a week."),
    ],
)
def test_a_frequency_in_hours_or_minutes_is_a_rate(claim: str, evidence: str) -> None:
    assert statuses(claim, evidence)[-1] == "matched"
    assert extract_quantities(claim)[-1].kind == "frequency"


def test_once_daily_is_not_twice_daily() -> None:
    assert statuses("Take the capsules once daily.", "Take the capsules twice daily.") == ["conflict"]


def test_a_frequency_in_hours_is_no_duration_and_a_changed_one_conflicts() -> None:
    assert statuses("Trains run every two hours in the evening.", "In the evening trains run every hour.") == [
        "conflict"]
    assert statuses("The check takes two hours.", "The check runs every two hours.") == ["absent"]


def test_percentage_points_are_a_difference_of_two_shares() -> None:
    claim = "The pass rate in mathematics went up by 18 percentage points between 2022 and 2024."
    rose = "The pass rate in mathematics rose from 61% in 2022 to 79% in 2024."
    matches = compare_quantities(extract_quantities(claim), extract_quantities(rose)).matches
    assert matches[0].status == "matched" and "79% − 61%" in matches[0].derivation
    # a share is no rival of a difference of shares
    assert statuses(claim, "In 2024, 64% of pupils passed in mathematics.")[0] == "absent"


@pytest.mark.parametrize(
    ("text", "difference"),
    [
        ("The tenants now pay £130 a month more in rent than before.", "more"),
        ("There were 15 fewer road deaths.", "more"),
        ("Revenue rose by 12% in the year.", "more"),
        ("Migraine days fell by an average of 3.4 days.", "more"),
        ("ARR reached $158.0 million, up 16.8% year over year.", "more"),
        ("a 12% increase in sales", "more"),
        ("The first train will leave 24 minutes earlier than now.", "earlier"),
        ("The journey will take two minutes longer.", "longer"),
        ("It takes 10 or more days.", ""),  # a bound
        ("Subscription revenue made up 85.5% of revenue.", ""),  # "made up" changes nothing
        ("88% passed, up from 71% in 2022.", ""),  # a level, and the level compared with
    ],
)
def test_a_figure_may_be_a_difference_between_two_others(text: str, difference: str) -> None:
    assert [q.difference for q in extract_quantities(text) if q.kind != "date"][-1] == difference


def test_a_difference_is_compared_only_with_differences_of_what_it_measures() -> None:
    deposit = "The Tenants will pay a tenancy deposit of £1,673 and a rent of £1,450 a month."
    assert statuses("The tenants pay £130 a month more in rent than before.", deposit) == ["absent"]
    assert statuses("The tenants pay £130 a month more in rent than before.",
                    "The rent is £150 a month more than before.") == ["conflict"]
    # a change of a timetable and the change of a journey's length are different things
    assert statuses("The first train will leave 24 minutes earlier than now.",
                    "The first train's journey will be two minutes longer than now.") == ["absent"]
    assert statuses("Revenue rose by 12% in the year.", "Revenue rose 15% in the year.") == ["conflict"]


def test_the_date_of_what_the_claim_compares_with_is_no_rival_of_the_quote_s_own_date() -> None:
    claim = "Compared with their 2023 agreement, the tenants now give two months' notice."
    assert statuses(claim, "Date of this agreement: 3 March 2025") == ["absent", "absent"]
    assert statuses("There were 3 incidents in 2023, compared with 5 in 2022.",
                    "There were 3 incidents in 2023, compared with 5 in 2021.") == [
        "matched", "matched", "matched", "conflict"]


def test_a_shared_unit_of_measure_does_not_make_two_figures_about_the_same_thing() -> None:
    # replacing a chain and lubricating it are measured in km alike; only "chain" is shared
    assert statuses("The manual recommends replacing the chain every 3,000 km.",
                    "Clean and lubricate the chain every 200 km.") == ["absent"]
    assert statuses("Lubricate the chain every 300 km.", "Clean and lubricate the chain every 200 km.") == [
        "conflict"]


def test_a_speed_is_a_unit_of_speed_or_a_length_per_time() -> None:
    from ledger.text.measures import is_speed

    assert is_speed("15.5 mph", "") and is_speed("30 knots", " in open water")
    assert is_speed("40 km", "/h on the ring road") and is_speed("40 miles", " an hour")
    assert is_speed("20 metres", " per second")
    assert not is_speed("40 km", " ride each day") and not is_speed("3.8 metres", " deep")
    assert not is_speed("48 hours", "") and not is_speed("12 points", " per hour")


@pytest.mark.parametrize(("text", "free"), [
    ("Children under 3 swim free.", "free"), ("Parking is provided free of charge.", "free of charge"),
    ("Members bring a guest at no extra cost.", "at no extra cost"),
    ("There is no charge for a first visit.", "no charge"),
    ("Staff are free to choose their hours.", None), ("Every part is free from defects.", None),
    ("Shop duty-free at the airport.", None), ("The afternoon is free time.", None),
])
def test_a_price_of_nothing_is_an_amount_of_money(text: str, free: str | None) -> None:
    zero = [q.text for q in extract_quantities(text) if q.kind == "money" and q.value == 0]
    assert zero == ([free] if free else [])


def test_a_price_contradicts_free_and_free_matches_free() -> None:
    evidence = extract_quantities("Fresh water is free at every pontoon.")
    priced = compare_quantities(extract_quantities("Fresh water costs £2 at the pontoon."), evidence)
    assert [m.claim.text for m in priced.conflicts] == ["£2"]
    free = compare_quantities(extract_quantities("Fresh water is supplied free of charge."), evidence)
    assert [m.status for m in free.matches] == ["matched"]
    # "cost" says only that the sum is a price: it is about appeals, as "free of charge" is
    appeals = compare_quantities(extract_quantities("Appeals cost £250."),
                                 extract_quantities("Appeals can be made online free of charge."))
    assert [m.claim.text for m in appeals.conflicts] == ["£250"]


def test_both_sides_of_a_measure_are_in_its_unit() -> None:
    sides = [q for q in extract_quantities("The shed is 6 by 4 feet.") if q.kind == "count"]
    assert [(q.value, q.context) for q in sides] == [(6, frozenset({"feet"})), (4, frozenset({"feet"}))]
    assert extract_quantities("Sales rose from 5 by 10%.")[0].kind == "number"  # no unit of measure after "by"


def test_a_negation_after_a_count_ends_what_it_counts_and_makes_no_difference() -> None:
    (shed, *_) = extract_quantities("Each plot may have one shed no larger than 6 by 4 feet.")
    assert (shed.text, shed.context, shed.difference) == ("one shed", frozenset({"shed"}), "")
    assert compare_quantities(extract_quantities("Each plot may have two sheds."),
                              extract_quantities("Each plot may have one shed no larger than 6 by 4 feet. Anyone "
                                                 "who fails two inspections in a row must leave.")).conflicts


def test_a_time_of_day_in_words_is_a_clock_time() -> None:
    assert statuses("Guests must leave by noon.", "Guests must leave by 11 am.") == ["conflict"]
    assert statuses("The bar closes at midnight.", "The bar closes at 12 am.") == ["matched"]


def test_a_length_and_where_it_runs_are_one_measure_of_one_thing() -> None:
    lane = "The lane will run for 2.3 kilometres between the railway station and the hospital."
    assert statuses("The lane will be 3.2 kilometres long.", lane) == ["conflict"]
    assert statuses("The lane will be 2.3 km long.", lane) == ["matched"]


def test_a_rate_for_each_thing_per_night_is_a_rate_per_night() -> None:
    (fee,) = extract_quantities("There is a charge of £3 per dog per night.")
    assert (fee.per, "dog" in fee.about) == ("night", True)


def test_a_unit_word_in_a_hyphenated_compound_is_no_unit() -> None:
    (nurses,) = [q for q in extract_quantities("We randomised 148 night-shift nurses.") if q.value == 148]
    assert (nurses.kind, "nurs" in nurses.context) == ("count", True)  # not 148 nights
    (age,) = extract_quantities("A seven-year-old may climb the tower.")
    assert age.context == frozenset({"age"})


@pytest.mark.parametrize(("claim", "evidence", "expected"), [
    ("Date: 14 March 2026.", "Closing date: 15 December 2026", ["absent"]),  # another field, not a rival
    ("Start date: 1 May 2026", "End date: 1 June 2026", ["absent"]),
    ("Start date: 1 May 2026", "Start date: 1 June 2026", ["conflict"]),  # the same field
    ("The closing date is 14 March 2026.", "Closing date: 15 December 2026", ["conflict"]),
    # a quote's headings before the label are not the label: the adults' charge is no rival of the children's
    ("Children are charged £3 for entry.", "## Entry and parking charges … Adults: £6", ["absent"]),
    ("Adults are charged £5 for entry.", "## Entry and parking charges … Adults: £6", ["conflict"]),
])
def test_a_field_is_named_by_its_whole_label(claim: str, evidence: str, expected: list[str]) -> None:
    assert statuses(claim, evidence) == expected


@pytest.mark.parametrize("after", ["", " A final decision was deferred to the December meeting."])
def test_the_last_figure_of_a_sentence_is_described_by_the_words_after_it(after: str) -> None:
    # "the 5% proposed by the working group" is the proposal, not the rise: the rise of 3.5% is the claim's rival,
    # whether or not another figure follows in the next sentence
    evidence = "The precept will rise by 3.5%, less than the 5% proposed by the finance working group." + after
    assert statuses("The precept will rise by 5%.", evidence) == ["conflict"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The railway reached the town in 1846.", [("date", "1846")]),
        ("It was built between 1792 and 1799.", [("date", "1792"), ("date", "1799")]),
        ("By 1870 the canal carried less.", [("date", "1870")]),
        ("Between 1500 and 1600 people came.", [("count", "1500"), ("count", "1600 people")]),  # a range that counts
        ("It had 1500 staff in 1500 offices.", [("count", "1500 staff"), ("count", "1500 offices")]),
        ("Call extension 2222 or room 1105.", [("number", "2222"), ("number", "1105")]),  # no year cue before them
        ("Carved in about 1790 from oak, it was restored in 2015.", [("date", "1790"), ("date", "2015")]),
        ("They sold about 1500 tickets.", [("count", "1500 tickets")]),
        ("Use an app as a second factor within a second.", [("duration", "a second")]),  # the ordinal is no time
    ],
)
def test_a_year_before_1900_is_a_date_after_a_word_that_introduces_one(
        text: str, expected: list[tuple[str, str]]) -> None:
    # a history's "reached the town in 1846" was a plain number, so "When did the railway reach …?" had no answer
    assert [(q.kind, q.text) for q in extract_quantities(text)] == expected



def test_digits_glued_to_a_capitalised_word_name_a_code_not_an_amount() -> None:
    # "Severity: SEV-1" answered "How long did the outage last?" with its "1"; "COVID-19 cases" counted 19 cases
    assert [(q.kind, q.text, q.identifier) for q in extract_quantities("Severity: SEV-1, COVID-19 cases")] == [
        ("number", "SEV-1", True), ("number", "COVID-19", True)]
    assert [(q.kind, q.text) for q in extract_quantities("by mid-2026")] == [("date", "2026")]


def test_a_capitalised_word_before_a_number_with_a_unit_is_no_label() -> None:
    # "Today 24 miles are navigable" read as a name like "Level 2", so "How many miles …?" found no count
    assert [(q.kind, q.text) for q in extract_quantities("Today 24 miles are navigable.")] == [("count", "24 miles")]
    assert [(q.kind, q.identifier) for q in extract_quantities("Level 2 members pay less.")] == [("number", True)]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The spring deadline is 27 February 2027.", ["absent"]),  # another row's deadline says nothing of spring
        ("The autumn deadline is 27 February 2027.", ["conflict"]),
        ("The deadline is 27 February 2027.", ["conflict"]),  # a claim that names no row may be about any
    ],
)
def test_a_table_cell_is_about_its_row(claim: str, expected: list[str]) -> None:
    row = "Autumn (Applications open: 1 July 2027; Deadline: 15 September 2027; Decision by: 20 November 2027)."
    assert statuses(claim, row) == expected


def test_instead_of_and_rather_than_are_never_what_a_number_counts() -> None:
    # a quote's figures read "(20 instead, 200)" to the user
    assert [(q.kind, q.text) for q in extract_quantities("set the pool to 20 instead of 200")] == [
        ("number", "20"), ("number", "200")]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Rent income was £398,100 in 2025.", ["conflict", "matched"]),  # the 2024 column's figure
        ("Rent income was £412,300 in 2025, up from £398,100 in 2024.", ["matched"] * 4),
        ("Rent income was £398,100.", ["matched"]),  # no year: either column
    ],
)
def test_a_figure_in_a_table_is_for_the_year_of_its_column(claim: str, expected: list[str]) -> None:
    assert statuses(claim, "Rent income (2025: £412,300; 2024: £398,100).") == expected


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("41 otters were seen in March 2026.", ["conflict", "matched"]),  # the March 2025 column's figure
        ("41 otters were seen in March 2025.", ["matched", "matched"]),
    ],
)
def test_a_figure_in_a_table_is_for_the_month_of_its_column(claim: str, expected: list[str]) -> None:
    assert statuses(claim, "Otters (March 2025: 41; March 2026: 57).") == expected


def test_a_table_cell_s_field_is_about_its_row() -> None:
    row = "Metformin (Dose: 500 mg; Frequency: Twice daily; Notes: with food)."
    assert statuses("Metformin is taken once daily.", row) == ["conflict"]
    assert statuses("Metformin is taken twice daily.", row) == ["matched"]


def test_a_duration_the_evidence_states_is_not_worked_out_from_its_dates() -> None:
    evidence = "The course runs for five days, from Monday 8 June to Friday 12 June 2026."
    assert statuses("The course runs for four days.", evidence) == ["conflict"]  # not 12 June − 8 June
    assert statuses("The course runs for five days.", evidence) == ["matched"]
    assert statuses("The course runs for four days.", "The course runs from 8 June to 12 June 2026.") == ["matched"]


def test_a_claim_whose_change_goes_the_other_way_than_its_own_figures_is_reversed() -> None:
    row = "Surplus (2025: £64,100; 2024: £72,300)."
    assert reversed_change("The surplus rose from £72,300 in 2024 to £64,100 in 2025.", row) == (
        "a fall from 72,300 to 64,100", "a rise from £72,300 in 2024 to £64,100")
    assert reversed_change("The surplus fell from £72,300 in 2024 to £64,100 in 2025.", row) is None


def test_two_figures_given_to_each_other_s_parties_conflict() -> None:
    notice = extract_quantities("The Tenant must give at least one month's notice. The Landlord must give at least "
                                "two months' notice.")
    swapped = "The tenant must give at least two months' notice, while the landlord must give one month's notice."
    assert [m.status for m in compare_quantities(extract_quantities(swapped), notice).matches] == ["conflict"] * 2
    right = "The tenant must give at least one month's notice, while the landlord must give two months' notice."
    assert [m.status for m in compare_quantities(extract_quantities(right), notice).matches] == ["matched"] * 2


def test_the_number_of_a_numbered_heading_or_clause_names_it() -> None:
    text = "1. TERM\n1.1 The lease runs for 12 months.\n## 2) Rent\n2.1 Rent is due on the 3rd day of each month."
    found = {q.text: (q.kind, q.identifier) for q in extract_quantities(text)}
    assert found["1"] == ("number", True) and found["1.1"] == ("number", True) and found["2.1"] == ("number", True)
    assert found["12 months"] == ("duration", False)
    assert found["3rd"] == ("ordinal", False)  # the third day of the month, not three days
    # a claim's "1st" is not stated by a heading's number
    claim = extract_quantities("Rent is due on the 1st of each month.")
    assert compare_quantities(claim, extract_quantities(text)).matches[0].status != "matched"


def test_what_a_number_counts_ends_with_its_line_when_a_new_one_starts() -> None:
    counted = {q.text: q.context for q in extract_quantities("Weight: 71 kg\n\nSUPPORT\nCall us. We hired 12 "
                                                             "part-time\nstaff.")}
    assert "71 kg" in counted  # not "71 kg SUPPORT Call"
    assert "staff" in counted["12 part-time\nstaff"]  # a soft wrap goes on


def test_a_table_cell_under_a_numbered_column_is_no_time_of_day() -> None:
    # "Ward 4: 12" renders the cell 12 under the column "Ward 4"; a clock's colon has no space after it
    assert [(q.text, q.kind) for q in extract_quantities("Falls (Ward 4: 12; Ward 5: 8).") if q.value == 12] == [
        ("12", "number")]
    assert [q.kind for q in extract_quantities("The doors open at 9:05 and close at 17:30.")] == ["time", "time"]


def test_a_figure_named_only_by_its_move_is_about_nothing_the_move_says() -> None:
    # "fell" and "down from" say how two things changed, not that they are the same thing
    claim = extract_quantities("Operating profit fell to £24.0 million.")
    debt = extract_quantities("Net debt at the end of the quarter was £118 million, down from £131 million.")
    assert not compare_quantities(claim, debt).conflicts
    profit = extract_quantities("Operating profit was £27.5 million, compared with £24.0 million a year earlier.")
    assert compare_quantities(extract_quantities("Operating profit fell to £26.0 million."), profit).conflicts


def test_an_item_s_number_before_a_figure_is_no_count() -> None:
    # a minutes item "4. 2024-25 operating budget": its 4 is no rival of "by four votes to two"
    claim = extract_quantities("The council gave preliminary approval to the 2024-25 operating budget by four votes "
                               "to two.")
    item = extract_quantities("4. 2024-25 operating budget … The mayor moved to give the budget preliminary approval "
                              "as presented.")
    assert not compare_quantities(claim, item).conflicts


def test_a_verb_opening_a_line_before_a_number_says_how_many_and_a_claim_s_count_of_it_can_differ() -> None:
    # "Serves 6." is how many a recipe serves, not a thing named "Serves 6" (as "Level 2" is)
    assert statuses("The recipe serves 8 people.", "Lemon drizzle cake. Serves 6.") == ["conflict"]
    assert statuses("The recipe serves 6 people.", "Lemon drizzle cake. Serves 6.") == ["matched"]
    assert statuses("Level 3 members pay more.", "Level 2 members pay more.") == ["conflict"]


def test_a_field_labelled_with_what_its_date_is_of_is_no_rival_of_another_date() -> None:
    taken = "The samples were taken on 3 March 2027."
    assert statuses(taken, "Date received: 04/03/2027 08:55") == ["absent"]
    assert statuses(taken, "Date sampled: 04/03/2027") == ["conflict"]


def test_a_table_row_quoted_under_its_headings_is_named_by_its_own_first_cell() -> None:
    quote = ("Home Insurance — Policy Schedule › Specified items (cover in and away from the home) … "
             "Fujara DX-4 camera with two lenses (Sum insured: £2,950).")
    assert statuses("The policy insures the buildings for £425,000.", quote) == ["absent"]
    assert statuses("The policy insures the Fujara DX-4 camera for £3,100.", quote)[-1] == "conflict"


def test_a_cell_of_a_row_with_several_of_its_kind_needs_its_column_named() -> None:
    row = "Buildings – accidental damage (Limit: Included; Compulsory excess: £250; Total excess: £350)."
    assert statuses("The policy insures the buildings for £425,000.", row) == ["absent"]
    assert statuses("The compulsory excess for buildings accidental damage is £300.", row) == ["conflict"]


def test_a_period_from_a_day_to_the_day_before_months_later_is_that_many_months() -> None:
    term = "Term: 1 February 2027 to 31 January 2028"
    assert statuses("The tenancy lasts twelve months.", term) == ["matched"]
    assert statuses("The tenancy lasts six months.", term) == ["absent"]
    # the claim's own range puts its first date at the start, whatever "lasts" seems to say of it
    assert statuses("The tenancy lasts twelve months from 1 February 2027 to 31 January 2028.", term) == [
        "matched", "matched", "matched"]


def test_an_end_of_a_range_the_evidence_gives_too_is_no_other_year_s() -> None:
    quote = ("LP presented her report for Q3 (October to December 2026): … 4,812 food parcels were distributed, up 18% "
             "on the same quarter of 2025 (4,078 parcels).")
    claim = "The charity distributed 4,812 food parcels in October to December 2026, an 18% rise on a year earlier."
    assert statuses(claim, quote) == ["matched"] * 4


def test_a_change_said_without_figures_against_a_baseline_the_quote_gives_the_other_way_is_reversed() -> None:
    quote = "Nitrate is stable at around 38 mg/L at all three points, compared with 35.6 mg/L in our March 2026 report."
    assert reversed_change("Nitrate levels fell compared with the March 2026 report.", quote) is not None
    assert reversed_change("Nitrate levels rose compared with the March 2026 report.", quote) is None
    assert reversed_change("Sales fell compared with last year.", quote) is None  # not what the quote's figures are of


def test_a_weekday_s_day_number_shares_the_month_of_the_date_after_it() -> None:
    listing = "Tue 16 & Wed 17 Mar – Parents' evenings, 3:30pm–7:00pm"
    assert statuses("Parents' evenings take place on Tuesday 16 and Wednesday 17 March.", listing) == ["matched"] * 4
    assert "conflict" in statuses("Parents' evenings take place on Tuesday 16 and Wednesday 18 March.", listing)
    assert [q.kind for q in extract_quantities("She sat 10 exams on Tuesday 16 people came")] == [
        "count", "weekday", "count"]  # "sat" is a verb; a weekday before a count is no date


def test_a_deadline_before_the_expiry_of_a_period_is_a_limit_another_limit_contradicts() -> None:
    notice = ("1. The development hereby permitted shall be begun before the expiration of\n"
              "three years from the date of this decision.")
    assert statuses("The work must be started within five years of the decision date.", notice) == ["conflict"]
    assert statuses("The work must be started within three years of the decision date.", notice) == ["matched"]


def test_a_number_after_no_dot_names_an_item_and_is_worked_into_nothing() -> None:
    actions = ("No. 8 (Action required: Train all food handlers; Deadline: 4 March 2025). The previous rating, "
               "awarded on 22 June 2022, was 5.")
    assert [q.identifier for q in extract_quantities(actions) if q.text == "8"] == [True]
    # "a rating of 3, down from 5" is no "8 − 5"
    assert "matched" not in statuses("It received a food hygiene rating of 3, down from 5.", actions)[:1]


def test_a_comparison_of_two_things_turned_round_is_reversed() -> None:
    quote = "The larger tank (300 litres) held more fish than the smaller tank (120 litres)."
    assert reversed_change("The 120 litre tank held more fish than the 300 litre tank.", quote) is not None
    assert reversed_change("The 300 litre tank held fewer fish than the 120 litre tank.", quote) is not None
    assert reversed_change("The 300 litre tank held more fish than the 120 litre tank.", quote) is None
    assert reversed_change("The 120 litre tank held fewer fish than the 300 litre tank.", quote) is None
    assert reversed_change("Buses are cheaper than trams.", "Trams are cheaper than buses.") is not None
    assert reversed_change("Buses are cheaper than trams.", "Trams are slower than buses.") is None  # another measure
    assert reversed_change("The 300 litre tank held more than 40 fish.", quote) is None  # a bound, no comparison


def test_a_cell_of_another_row_than_the_one_the_claim_names_is_no_match() -> None:
    table = ("Student (aged 16-25) (Price (online): £7.50).\n\n"
             "Under-fives (Price (online): Free; Notes: With an adult).")
    assert statuses("Students aged 16 to 25 get in free.", table)[-1] == "conflict"  # their row says £7.50
    assert statuses("Under-fives get in free.", table) == ["matched"]
    assert statuses("Students aged 16 to 25 pay £7.50.", table)[-1] == "matched"


def test_a_figure_that_names_a_column_is_about_its_header_and_a_cell_is_its_column_s() -> None:
    row = ("Left before the end (Dose 10 mg: 4 people (2.9%); Dose 30 mg: 9 people (6.5%); "
           "Placebo: 1 person (0.7%)).")
    assert statuses("Nine people in the 30 mg group left before the end.", row) == ["matched", "matched"]
    assert statuses("Nine people in the 10 mg group left before the end.", row)[0] == "conflict"
    assert statuses("Four people in the 10 mg group left before the end.", row) == ["matched", "matched"]


def test_a_score_after_a_name_is_no_number_of_the_name() -> None:
    assert statuses("Ashby Town won 3–1 against Kelso United.", "Kelso United 1–3 Ashby Town, a league match.") \
        != ["conflict"]
    assert [q.identifier for q in extract_quantities("beat Kelso United 3–1 on Saturday")][:1] == [False]


def test_durations_counted_from_two_moments_are_no_rivals() -> None:
    quote = "The first update was posted 27 minutes after escalation to SEV-1."
    assert statuses("The first update came 52 minutes after impact began.", quote) == ["absent"]
    assert statuses("The first update came 52 minutes after escalation to SEV-1.", quote)[0] == "conflict"


def test_a_span_of_two_short_weekdays_is_a_span_of_days() -> None:
    row = "Zone A (Controlled hours: Mon–Sat, 8am–8pm; First permit: £96)."
    assert statuses("Controlled hours in Zone A are Monday to Saturday, 8am to 8pm.", row) == ["matched"] * 4
    assert "conflict" in statuses("Controlled hours in Zone A are Monday to Friday, 8am to 8pm.", row)
    assert [q.kind for q in extract_quantities("He Sat down at 4pm; we sat-Sun")] == ["time"]  # words, not days


def test_a_duration_in_two_units_is_one_duration() -> None:
    assert [(q.text, round(q.value * 24 * 60)) for q in extract_quantities("Impact window: 14:06 – 16:53 (2 h 47 min).")
            if q.kind == "duration"] == [("2 h 47 min", 167)]
    assert [q.value for q in extract_quantities("It took 1 year and 6 months.")] == [18.0]
    assert statuses("The outage lasted 167 minutes.", "The outage lasted 2 hours 47 minutes.") == ["matched"]
    assert statuses("The outage lasted 2 hours 40 minutes.", "The outage lasted 2 hours 47 minutes.") == ["conflict"]


def test_a_bare_day_before_a_date_is_the_first_day_of_its_span() -> None:
    quote = "The residential visit is from Wednesday 17 to Friday 19 May 2028."
    assert statuses("The visit runs from 17 to 19 May 2028.", quote) == ["matched", "matched"]
    assert statuses("The visit runs from 16 to 19 May 2028.", quote)[0] != "matched"
    works = "Resurfacing will take place between 3 and 5 June 2027."
    assert statuses("The road is resurfaced from 3 to 5 June 2027.", works) == ["matched", "matched"]
    assert statuses("The road is resurfaced from 2 to 5 June 2027.", works)[0] != "matched"
    kinds = [q.kind for q in extract_quantities("Between 3 and 5 June 2027 and 4 and 6 rooms.")]
    assert kinds[:3] == ["date", "date", "count"]  # (a capitalised preposition names no "Zone 3")


def test_a_number_under_a_label_that_names_its_currency_is_money() -> None:
    assert [(q.kind, q.unit) for q in extract_quantities("TOTAL (GBP)            202.08")] == [("money", "GBP")]
    assert [(q.kind, q.unit) for q in extract_quantities("Cost (£): 12.50; Seats: 4")] == [("money", "GBP"),
                                                                                         ("number", "")]
    assert statuses("The total came to just over £200.", "TOTAL (GBP)      202.08") == ["matched"]
    assert statuses("The total came to €202.08.", "TOTAL (GBP)      202.08") != ["matched"]
    assert [q.kind for q in extract_quantities("Page (2) 40")] == ["number", "number"]  # no currency named


def test_a_word_that_grades_a_figure_says_nothing_of_what_it_is_about() -> None:
    quote = "Customer impact window (Value: 14:06 – 16:53 UTC (2 h 47 min))."
    claim = "Customer impact lasted from 14:06 to 16:53 UTC, a little under three hours."
    assert statuses(claim, quote) == ["matched", "matched", "matched"]
    assert "littl" not in next(q for q in extract_quantities(claim) if q.kind == "duration").about


def test_a_change_from_a_figure_of_a_season_to_another_is_read_with_its_season_between() -> None:
    quote = "The average wait for a first assessment fell from 9 weeks in 2023-24 to 5 weeks this year."
    assert reversed_change("The average wait for a first assessment rose from 5 weeks to 9 weeks.", quote) is not None
    assert reversed_change("The average wait for a first assessment fell from 9 weeks to 5 weeks.", quote) is None


def test_a_deadline_before_something_bounds_the_lead_time_the_other_way() -> None:
    # "no later than 30 minutes before" is 30 minutes ahead at least; "no earlier than" at most
    bounds = {q.text: q.bound for q in extract_quantities(
        "Check in no later than 30 minutes before departure, board no earlier than 2 hours before it, and pay no "
        "later than 14 days after the invoice.")}
    assert bounds == {"30 minutes": "min", "2 hours": "max", "14 days": "max"}
    assert statuses("Drivers must check in no later than 30 minutes before the sailing.",
                    "Drivers must check in at least 20 minutes before the sailing.") == ["conflict"]
    assert statuses("Drivers must check in no later than 20 minutes before the sailing.",
                    "Drivers must check in at least 20 minutes before the sailing.") == ["matched"]


def test_a_sum_for_each_unit_is_a_rate() -> None:
    (fee,) = extract_quantities("Members pay £7.50 for each month it is frozen.")
    assert (fee.per, fee.text) == ("month", "£7.50 for each month")
    assert statuses("Members pay £7.50 for each month it is frozen.", "A freeze costs £7.50 per month.") == ["matched"]
    assert [q.text for q in extract_quantities("£20 for each of the three")] == ["£20", "three"]


def test_a_share_named_only_by_its_comparative_is_what_the_same_comparative_measures() -> None:
    # "about 25% faster" at the end of a sentence has no other words of its own; "40% faster" is its rival
    claim = "Reports on files over 500 MB now open about 25% faster."
    assert statuses(claim, "The reports now open around 40% faster on files larger than 500 MB.") == [
        "matched", "conflict"]
    assert statuses(claim, "The reports now open around 25% faster on files larger than 500 MB.") == [
        "matched", "matched"]


def test_the_next_or_following_unit_after_for_or_within_is_one_of_it() -> None:
    assert [(q.text, q.value) for q in extract_quantities("You are barred for the following fortnight.")] == [
        ("the following fortnight", 14.0)]
    assert extract_quantities("The following week he resigned.") == []  # a point in time, not a span


def test_a_figure_the_claim_gives_twice_is_not_moved_by_the_rival_of_its_other_figure() -> None:
    # the 7 days are the fortnight's counterpart: the two 30-day periods are one
    claim = ("Anyone who fails to cancel three booked classes within a 30-day window is barred from booking classes "
             "for the following fortnight.")
    quote = ("Members who miss three booked classes within any 30-day period without cancelling will be unable to "
             "book any classes for the next 7 days.")
    assert statuses(claim, quote) == ["matched", "matched", "conflict"]


def test_a_unit_word_with_a_capital_after_an_article_names_something_and_is_no_duration() -> None:
    assert not extract_quantities("A Night shift token can be used until the next day.")
    assert [q.text for q in extract_quantities("The token can be used for a night.")] == ["a night"]


def test_a_price_per_thing_is_compared_with_a_price_per_period() -> None:
    quote = "The garden waste service costs £54 per bin for the subscription year."
    assert statuses("Garden waste costs £54 a year for each brown bin.", quote) == ["matched"]
    assert statuses("Garden waste costs £60 a year for each brown bin.", quote) == ["conflict"]
    assert statuses("Tickets cost £8 per adult.", "Tickets cost £10 per car.") == ["absent"]  # two things
    # a cap per order is no rate per day where nothing names an order
    assert statuses("Compensation is capped at £100 per order.", "Compensation: £6.40 for each day of delay.") == [
        "absent"]


def test_a_figure_in_a_part_joined_by_and_is_about_what_the_first_parts_figure_of_its_kind_is_about() -> None:
    quote = "Breakfast is served in the Garden Room from 7am to 10am on weekdays and from 8am to 11am at weekends."
    weekend = [q for q in extract_quantities(quote) if q.text == "8am"][0]
    assert {"breakfast", "garden", "room"} <= weekend.about
    tiers = {q.text: q.about for q in extract_quantities(
        "Entitlement rises to 27 days after 5 years' continuous service and to 29 days after 10 years.")}
    assert tiers["29 days"] == tiers["27 days"] and tiers["10 years"] == tiers["5 years"]
    # 10.30am is inside the weekend hours: the weekday hours' 10am is no rival
    assert statuses("Guests can have breakfast in the Garden Room at 10.30am on a Saturday.", quote)[0] == "matched"


def test_a_part_of_the_week_in_words_is_the_range_of_its_days() -> None:
    quote = "Breakfast is served in the Garden Room from 7am to 10am on weekdays and from 8am to 11am at weekends."
    assert statuses("Guests can have breakfast in the Garden Room at 10.30am on a Saturday.", quote) == [
        "matched", "matched"]
    assert statuses("The office is open on Tuesdays.", "The office is open on weekdays from 9am.") == ["matched"]
    assert statuses("The office is open on Sundays.", "The office is open on weekdays from 9am.") == ["conflict"]


def test_the_sides_of_a_size_are_of_the_thing_counted_before_them() -> None:
    quote = ("You may put up one shed of up to 2.4 metres by 1.8 metres and one greenhouse of up to 3.0 metres by "
             "2.4 metres.")
    assert statuses("A greenhouse can measure up to 3.6 metres by 2.4 metres.", quote) == ["conflict", "matched"]
    assert statuses("A greenhouse can measure up to 3.0 metres by 2.4 metres.", quote) == ["matched", "matched"]
    # a limit in metres is no count of "one cabin bag": the bag's weight is the rival
    assert statuses("Passengers are allowed a cabin bag of up to 10 kg.",
                    "Passengers may take one cabin bag weighing up to 8 kg.") == ["conflict"]


def test_a_range_that_opens_a_sentence_describes_its_later_figures_as_one_figure_would() -> None:
    quote = ("Atovaquone/proguanil: start 1 to 2 days before you enter the malaria area, take it every day while you "
             "are there, and continue for 7 days after you leave.")
    week = [q for q in extract_quantities(quote) if q.text == "7 days"][0]
    assert {"atovaquon", "proguanil", "start"} <= week.about


def test_a_bare_number_after_a_unit_and_or_is_in_that_unit() -> None:
    assert [(q.kind, q.value) for q in extract_quantities("Start it a day or two before you travel.")] == [
        ("duration", 1.0), ("duration", 2.0)]
    assert [q.kind for q in extract_quantities("Allow an hour or two people to help.")] == ["duration", "count"]


def test_a_weekday_in_one_part_of_the_day_is_not_in_a_range_of_another() -> None:
    quote = "The small pool is used for lessons on weekday afternoons and Saturday mornings."
    assert statuses("Lessons are held in the small pool on Tuesday afternoons.", quote) == ["matched"]
    # (not inside "weekday afternoons": the rival of the other part's day in its part of the day, "Saturday mornings")
    assert statuses("Lessons are held in the small pool on Tuesday mornings.", quote) == ["conflict"]
    assert statuses("Lessons are held in the small pool on Saturday mornings.", quote) == ["matched"]


def test_the_two_sides_of_a_ratio_are_of_one_thing_and_a_coordinated_part_keeps_its_own_words() -> None:
    quote = "Ratios are 1 coach to 6 players in the juniors and 1 coach to 10 players in the seniors."
    assert statuses("In the juniors there is one coach for every ten players.", quote) == ["matched", "conflict"]
    assert statuses("In the seniors there is one coach for every ten players.", quote) == ["matched", "matched"]


def test_two_opposite_limits_that_can_both_hold_are_no_rivals() -> None:
    quote = ("We will refund the ticket you bought, as long as you show it with your season ticket at a staffed "
             "ticket office within 14 days.")
    claim = "The ticket can be refunded as long as it still has at least {} days left when the office receives it."
    assert statuses(claim.format("seven"), quote) == ["absent"]
    assert statuses(claim.format(20), quote) == ["conflict"]  # more than the quote's limit allows
    assert statuses("The ticket can be refunded as long as you show it at a ticket office within 10 days.",
                    quote) == ["conflict"]
