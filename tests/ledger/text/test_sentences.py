"""Sentence splitting: abbreviations, citation anchors, markdown blocks, spans."""

import pytest

from ledger.text.sentences import CITE_RE, label_lines, parse_citations, split_sentences, train_tokenizer


def texts(text: str, tokenizer=None) -> list[str]:
    return [sentence for sentence, _, _ in split_sentences(text, tokenizer)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("  \n\n ", []),
        ("The fee is $150. It is due on arrival.", ["The fee is $150.", "It is due on arrival."]),
        ("Is it refundable? No! It is not.", ["Is it refundable?", "No!", "It is not."]),
        # Business abbreviations never end a sentence mid-thought.
        ("Use a form, e.g. the blue one. Next.", ["Use a form, e.g. the blue one.", "Next."]),
        ("Staff, i.e. employees, apply. Next.", ["Staff, i.e. employees, apply.", "Next."]),
        ("The U.S. office opens at 9. Next.", ["The U.S. office opens at 9.", "Next."]),
        ("Acme Inc. signed it. Next.", ["Acme Inc. signed it.", "Next."]),
        ("See form No. 5 for details. Next.", ["See form No. 5 for details.", "Next."]),
        ("It takes approx. 3 days. Next.", ["It takes approx. 3 days.", "Next."]),
        ("Cello Concerto in E minor, Op. 85 (soloist: R. Mbeki). Next.",
         ["Cello Concerto in E minor, Op. 85 (soloist: R. Mbeki).", "Next."]),
        ("Plan A vs. Plan B is compared. Next.", ["Plan A vs. Plan B is compared.", "Next."]),
        ("Ask Dr. Smith today. Next.", ["Ask Dr. Smith today.", "Next."]),
        ("The office on Main St. is closed. Next.", ["The office on Main St. is closed.", "Next."]),
        ("Forms, e.g. The Green Form, apply.", ["Forms, e.g. The Green Form, apply."]),
        # ...but an abbreviation or initial can end one when a common sentence starter follows.
        ("We signed with Acme Inc. The fee is $150.", ["We signed with Acme Inc.", "The fee is $150."]),
        ("Choose Plan B. The fee is lower.", ["Choose Plan B.", "The fee is lower."]),
        ("The rate is 3.5% per year. Next.", ["The rate is 3.5% per year.", "Next."]),
    ],
)
def test_splits_prose(text, expected):
    assert texts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Fees are $150. [cite:abc123def456] Next sentence.",
            ["Fees are $150. [cite:abc123def456]", "Next sentence."],
        ),
        ("Fees are $150.[cite:abc123def456] Next.", ["Fees are $150.[cite:abc123def456]", "Next."]),
        ("Fees are $150 [cite:a][cite:b]. Next.", ["Fees are $150 [cite:a][cite:b].", "Next."]),
        ("Fees are $150. [cite:a] [cite:b] Next.", ["Fees are $150. [cite:a] [cite:b]", "Next."]),
        ("Fees are $150 [cite:a, b]. Next [cite:c].", ["Fees are $150 [cite:a, b].", "Next [cite:c]."]),
        ("Fees are $150.\n[cite:abc]\n\nNext.", ["Fees are $150.\n[cite:abc]", "Next."]),
        ("Fees apply. [cite:a]", ["Fees apply. [cite:a]"]),
        # A leading anchor with nothing before it stays with its sentence.
        ("[cite:a] Fees apply.", ["[cite:a] Fees apply."]),
        # An anchor after a heading belongs to the sentence it precedes, not to the heading.
        ("# Fees\n[cite:a] Fees apply.", ["# Fees", "[cite:a] Fees apply."]),
    ],
)
def test_anchor_stays_with_the_sentence_it_follows(text, expected):
    assert texts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Fees\nThe fee is $150.", ["# Fees", "The fee is $150."]),
        ("## Fees and charges\n\nText here.", ["## Fees and charges", "Text here."]),
        ("Intro:\n- First item\n- Second item", ["Intro:", "First item", "Second item"]),
        ("* One. Two.\n+ Three", ["One.", "Two.", "Three"]),
        ("1. File the form.\n2) Pay the fee.\n(a) Wait.", ["File the form.", "Pay the fee.", "Wait."]),
        ("- Item that wraps\n  onto a second line.", ["Item that wraps\n  onto a second line."]),
        ("- An item\nA paragraph line.", ["An item", "A paragraph line."]),
        ("The fee for a badge is\n$150. Pay online.", ["The fee for a badge is\n$150.", "Pay online."]),
        ("**Summary**\nThe fee is $150.", ["**Summary**", "The fee is $150."]),
        ("Text.\n\n---\n\nMore text.", ["Text.", "More text."]),
        ("| Fee | Amount |\n|-----|--------|\n| Badge | $150 |", ["| Fee | Amount |", "| Badge | $150 |"]),
        ("The rate -5% applies.", ["The rate -5% applies."]),
    ],
)
def test_markdown_blocks_are_separate_sentences(text, expected):
    assert texts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Great question! # Not a heading\n\n# Fees\nThe fee is $150. [cite:abc] Next.\n- A [cite:a]\n 1. B\n",
        "  Leading spaces. Trailing spaces.   \r\nWindows line. [cite:x]\r\n\r\nDone.",
        "Fees, e.g. $5. [cite:a, b] Dr. Who said so.\n\n\n* item\n",
    ],
)
def test_spans_slice_back_to_the_sentence(text):
    sentences = split_sentences(text)
    assert sentences
    for sentence, start, end in sentences:
        assert text[start:end] == sentence
        assert sentence == sentence.strip()
    starts = [start for _, start, _ in sentences]
    assert starts == sorted(starts)


@pytest.mark.parametrize(
    ("sentence", "text", "hashes"),
    [
        ("Fees are $150. [cite:abc123def456]", "Fees are $150.", ["abc123def456"]),
        ("Fees are $150 [cite:a][cite:b].", "Fees are $150.", ["a", "b"]),
        ("Fees are $150 [cite:a, b; c].", "Fees are $150.", ["a", "b", "c"]),
        ("Fees [cite:b] are $150 [cite:a][cite:b].", "Fees are $150.", ["b", "a"]),
        ("Fees are $150 [cite: ABC123DEF456 ].", "Fees are $150.", ["abc123def456"]),
        ("Fees are $150 [Cite:abc].", "Fees are $150.", ["abc"]),
        ("Fees (see [cite:a]) apply.", "Fees (see) apply.", ["a"]),
        ("No anchors  here.", "No anchors here.", []),
        ("Empty [cite:] anchor.", "Empty anchor.", []),
        ("[cite:a]", "", ["a"]),
    ],
)
def test_parse_citations(sentence, text, hashes):
    assert parse_citations(sentence) == (text, hashes)


def test_cite_re_finds_each_anchor():
    assert [m.group(1) for m in CITE_RE.finditer("x [cite:a] y [cite:b, c].")] == ["a", "b, c"]


def test_trained_tokenizer_learns_corpus_abbreviations_and_keeps_house_ones():
    corpus = ["The rule is in cl. 4 of the contract. See cl. 7 for fees. Under cl. 9 the tenant pays. " * 3]
    tokenizer = train_tokenizer(corpus)
    text = "Payment is set in cl. 4 of the lease. Use form A, e.g. the blue one. Acme Inc. The fee is due."
    untrained = texts(text)
    assert untrained[:2] == ["Payment is set in cl.", "4 of the lease."]
    assert texts(text, tokenizer) == [
        "Payment is set in cl. 4 of the lease.",
        "Use form A, e.g. the blue one.",
        "Acme Inc.",
        "The fee is due.",
    ]


def test_trained_tokenizer_ignores_anchors_in_training_text():
    tokenizer = train_tokenizer(["Fees apply [cite:abc]. More text here. [cite:def] Even more."])
    assert texts("Fees are $150. [cite:abc] Next.", tokenizer) == ["Fees are $150. [cite:abc]", "Next."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Open from 9 a.m. to 5 p.m. Guided tours run every hour.",
         ["Open from 9 a.m. to 5 p.m.", "Guided tours run every hour."]),
        ("Bring pens, paper, etc. The exam starts at 9.", ["Bring pens, paper, etc.", "The exam starts at 9."]),
        ("Meet at 10 a.m. Monday in the hall.", ["Meet at 10 a.m. Monday in the hall."]),  # a weekday goes on
        ("Doors open at 7 p.m. GMT and close late.", ["Doors open at 7 p.m. GMT and close late."]),  # capitals go on
        ("Call before 5 p.m. on Fridays.", ["Call before 5 p.m. on Fridays."]),
    ],
)
def test_a_sentence_may_end_with_a_time_or_etc(text: str, expected: list[str]) -> None:
    assert [s for s, _, _ in split_sentences(text)] == expected


def test_no_as_an_answer_ends_its_sentence_and_no_before_a_number_does_not() -> None:
    text = "Are campfires allowed?\nNo. Open fires are not permitted. Form No. 12 must be signed."
    assert [s for s, _, _ in split_sentences(text)] == [
        "Are campfires allowed?", "No.", "Open fires are not permitted.", "Form No. 12 must be signed."]


def test_a_run_of_label_lines_is_a_sentence_per_line() -> None:
    text = ("## Key dates\n\nHarvest festival: Friday 9 October, 2pm\nHalf term: Monday 26 October to Friday 30 "
            "October\n\nA line of prose\nwrapped over two lines.")
    spans = label_lines(split_sentences(text))
    assert [s for s, _, _ in spans] == ["## Key dates", "Harvest festival: Friday 9 October, 2pm",
                                        "Half term: Monday 26 October to Friday 30 October",
                                        "A line of prose\nwrapped over two lines."]
    assert all(text[a:b] == s for s, a, b in spans)


def test_markdown_bold_labels_are_label_lines() -> None:
    text = "**Tenant:** Rhys Obi  \n**Start date:** 1 March 2027  \n**Deposit:** £950"
    assert [s for s, _, _ in label_lines(split_sentences(text))] == [
        "**Tenant:** Rhys Obi", "**Start date:** 1 March 2027", "**Deposit:** £950"]


def test_a_run_of_label_lines_under_a_heading_line_is_a_sentence_per_line() -> None:
    text = "SPECIFICATIONS\nHeat output: 6 kW\nOperating range: -15°C to 30°C\nWeight: 71 kg"
    assert [s for s, _, _ in label_lines(split_sentences(text))] == [
        "SPECIFICATIONS", "Heat output: 6 kW", "Operating range: -15°C to 30°C", "Weight: 71 kg"]


def test_a_run_of_lines_with_dot_leaders_is_a_sentence_per_line() -> None:
    text = ("Overdue charges:\n  Books .... 20p per item per day, up to a maximum of £5 per item\n"
            "  DVDs ..... 75p per item per day, up to a maximum of £7.50 per item")
    assert [s for s, _, _ in label_lines(split_sentences(text))] == [
        "Overdue charges:", "Books .... 20p per item per day, up to a maximum of £5 per item",
        "DVDs ..... 75p per item per day, up to a maximum of £7.50 per item"]


def test_a_short_plain_text_heading_line_is_no_part_of_the_sentence_below_it() -> None:
    # a .txt trading update: "Outlook" on its own line above its paragraph was quoted as "Outlook The board now …"
    text = ("Net debt was £118 million.\n\nOutlook\nThe board now expects revenue of £1.2 billion.\n\n"
            "The meeting was held in\nLeeds on Tuesday.")
    assert [s for s, _, _ in split_sentences(text)] == [
        "Net debt was £118 million.", "Outlook", "The board now expects revenue of £1.2 billion.",
        "The meeting was held in\nLeeds on Tuesday."]  # a wrapped line that stops at a function word goes on


def test_a_list_item_goes_on_in_an_unindented_line_where_it_stops_mid_sentence() -> None:
    # loaders strip the indent of a hard-wrapped item: "… on the same quarter of" / "2025 (4,078 parcels)."
    text = ("Her report for Q3:\n- 4,812 food parcels were distributed, up 18% on the same quarter of\n"
            "2025 (4,078 parcels).\n- 61.4 tonnes of food were donated\nand sorted.\n- Volunteers fell to 142\n"
            "Trustees thanked the staff.")
    assert texts(text) == [
        "Her report for Q3:",
        "4,812 food parcels were distributed, up 18% on the same quarter of\n2025 (4,078 parcels).",
        "61.4 tonnes of food were donated\nand sorted.", "Volunteers fell to 142", "Trustees thanked the staff."]
