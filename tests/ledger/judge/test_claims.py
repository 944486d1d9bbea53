"""Claim extraction (seed 004 §3): which sentences are claims, their type, importance, citations and spans."""

import time

import pytest

from ledger.judge.claims import (
    assess_importance,
    classify_type,
    contains_numeric,
    exclusion_reason,
    extract_claims,
    is_claim,
    is_direct_answer,
)

QUESTION = "What is the fee for a replacement badge?"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("What is the fee?", "question"),
        ("Is the fee refundable (for staff)?", "question"),
        ("Can you bring a dog?", "question"),
        ("Could the hall be booked?", "question"),
        ("Suppose a badge is stolen.", "hypothetical"),
        ("Hypothetically, the fee could double.", "hypothetical"),
        ("If we imagine a world without fees, costs fall.", "hypothetical"),
        ("For example, suppose the badge is lost.", "hypothetical"),
        ("Let us assume that the fee is $150.", "hypothetical"),
        ("I think the fee is too high.", "opinion"),
        ("In my view, the policy is fair.", "opinion"),
        ("I believe refunds are rare.", "opinion"),
        ("In my opinion, fees should drop.", "opinion"),
        ("Personally, I prefer plan B.", "opinion"),
        ("However.", "connector"),
        ("Therefore:", "connector"),
        ("In summary:", "connector"),
        ("**In summary:**", "connector"),
        ("As mentioned above.", "connector"),
        ("Thank you for asking.", "acknowledgement"),
        ("Thanks!", "acknowledgement"),
        ("Thank you to all who came to the fete.", "acknowledgement"),
        ("Thanks for asking: I hope this helps.", "acknowledgement"),
        ("I understand your concern.", "acknowledgement"),
        ("Great question!", "acknowledgement"),
        ("Sure!", "acknowledgement"),
        ("Hope this helps!", "acknowledgement"),
        ("I’m sorry, I can’t find that.", "acknowledgement"),
        ("Here is a summary of the badge policy.", "meta"),
        ("Here are the key points:", "meta"),
        ("Below I explain the process.", "meta"),
        ("Let me explain.", "meta"),
        ("Let's look at the fees.", "meta"),
        ("I will summarise the rules.", "meta"),
        ("This answer is based on the handbook.", "meta"),
        ("The following sections explain the fees.", "meta"),
        ("Feel free to ask more.", "meta"),
        # Abstentions speak about the corpus; no quote can support them.
        ("I could not find information about parking.", "meta"),
        ("The provided documents do not mention refunds.", "meta"),
        ("There is no information about refunds.", "meta"),
        ("# Fees", "heading"),
        ("## Fees and charges", "heading"),
        ("Key points:", "fragment"),
        ("Acme Inc.", "fragment"),
        ("Leave policy", "fragment"),
        ("**Summary**", "fragment"),
        ("Fee Schedule", "fragment"),
        ("Yes.", "fragment"),
        ("", "fragment"),
    ],
)
def test_non_claims_are_excluded_with_a_reason(text, reason):
    assert exclusion_reason(text) == reason
    assert not is_claim(text)


@pytest.mark.parametrize(
    "text",
    [
        "The fee for a replacement badge is $150.",
        "If a badge is lost, the employee must pay $150.",  # a conditional rule, not a marked hypothetical
        "However, the fee is waived for interns.",
        "Sure, the fee is $150.",
        "Here's the fee: $150.",
        "The following documents are required: a passport.",
        "There is no fee for the first badge.",
        "As mentioned above, the fee is $150.",
        "Please note that fees must be paid by Friday.",
        "> The fee is $150.",
        "It’s due Friday.",
        "Badges unlock doors.",
        "Late fees cause delays.",  # causal
        "Plan A costs more than Plan B.",  # comparative
        "The review happens before approval.",  # temporal
        "Standard fee: $150",  # verbless list items with a number or a label and value
        "Eligibility: full-time employees only",
        "Submit the form online",
        "Employees accrue leave monthly",
        "Approved by HR",
        "Thank you to all who came to the fete: you raised £640 for the roof.",  # thanks, then a fact
        "Thanks to the new pump, the pool reopened in May.",  # a cause, not thanks
    ],
)
def test_assertions_are_claims(text):
    assert exclusion_reason(text) is None
    assert is_claim(text)


@pytest.mark.parametrize(
    ("text", "claim_type"),
    [
        ("The office opens in the morning.", "fact"),
        ("Badges are issued by Security.", "fact"),
        ("This means that the fee doubles.", "fact"),
        ("Payment by means of a cheque is accepted.", "fact"),
        ("The mean salary is high.", "fact"),
        ("The office opens at 9 AM.", "numeric"),
        ("The fee is $150.", "numeric"),
        ("Fees rose by 10%.", "numeric"),
        ("Employees receive three business days of leave.", "numeric"),
        ("One day of notice is required.", "numeric"),
        ("Half of staff work remotely.", "numeric"),
        ("Reviews happen in March.", "numeric"),
        ("The policy changed in May.", "numeric"),
        ("It closes at noon.", "numeric"),
        ("All requests must be submitted in writing.", "policy"),
        ("Employees may not smoke.", "policy"),
        ("Staff are entitled to a pension.", "policy"),
        ("Smoking is prohibited.", "policy"),
        ("Staff should wear badges.", "policy"),
        ("You need to sign the form.", "policy"),
        ("Pets are allowed in the lobby.", "policy"),
        ("Unused leave cannot be carried over.", "policy"),
        ("Staff may work remotely.", "fact"),  # "may" alone is as often a hedge as a permission
        ("A 'business day' refers to Monday through Friday.", "definition"),
        ("A business day means Monday through Friday.", "definition"),
        ('"PTO" is paid time off.', "definition"),
        ("PTO stands for paid time off.", "definition"),
        ('The term "contractor" covers agency staff.', "definition"),
        # Precedence: definition > numeric > policy.
        ("The late fee is defined as 5% of the balance.", "definition"),
        ("Claims must be filed within 30 days.", "numeric"),
    ],
)
def test_classify_type(text, claim_type):
    assert classify_type(text) == claim_type


@pytest.mark.parametrize(
    ("text", "numeric"),
    [
        ("It costs $150.", True),
        ("It costs €20.", True),
        ("Rates are 5 percent.", True),
        ("Within three business days.", True),
        ("Twice a year.", True),
        ("On May 4 the office closes.", True),
        ("Staff may work remotely.", False),
        ("No one may enter.", False),
        ("One of the options is remote work.", False),
        ("The office is open on Mondays.", False),
    ],
)
def test_contains_numeric(text, numeric):
    assert contains_numeric(text) is numeric


@pytest.mark.parametrize(
    ("text", "question", "direct"),
    [
        ("The replacement badge fee is high.", QUESTION, True),
        ("Replacing a badge incurs a fee.", QUESTION, True),  # stems: replac, badg, fee
        ("Badges are issued by Security.", QUESTION, False),  # one of three content words
        ("Refunds are not available for sale items.", "What is the refund policy?", True),
        ("The fee is waived.", "", False),
        ("Employees get 25 vacation days.", "How many vacation days do employees get?", True),
    ],
)
def test_is_direct_answer(text, question, direct):
    assert is_direct_answer(text, question) is direct


@pytest.mark.parametrize(
    ("text", "question", "importance"),
    [
        ("The replacement badge fee is set by Security.", QUESTION, "critical"),  # answers the question
        ("Parking costs $5 per day.", QUESTION, "critical"),  # numeric
        ("Parking passes must be renewed.", QUESTION, "material"),  # policy
        ("Only managers approve parking passes.", QUESTION, "material"),  # importance marker
        ("It is important to keep receipts.", QUESTION, "material"),
        ("Badges are issued by Security.", QUESTION, "minor"),
        ("A 'business day' refers to Monday through Friday.", QUESTION, "minor"),  # background definition
        ("A 'business day' refers to Monday through Friday.", "What does 'business day' mean?", "critical"),
        ("The office moved in 2021.", "", "critical"),
        ("The office moved downtown.", "", "minor"),
    ],
)
def test_assess_importance(text, question, importance):
    assert assess_importance(text, classify_type(text), question) == importance


ANSWER = """Great question! Here is a summary of the badge policy.

## Fees

The fee for a replacement badge is $150. [cite:abc123def456] Employees must report a lost badge within \
three business days [cite:111111111111][cite:222222222222].
However.
A "business day" refers to Monday through Friday [cite:333333333333, 444444444444].
I think the fee is too high. Suppose a badge is stolen twice. Is the fee refundable?
- Standard fee: $150 [cite:abc123def456]
- Written request to HR [cite:555555555555]
- **Badge office** [cite:666666666666]
- Leave policy
Badges are issued by Security. Only full-time staff are eligible.
The documents do not mention refunds. Let me know if you need more. In summary:
Thank you for asking."""

EXPECTED = [
    # (text, type, importance, cited)
    ("The fee for a replacement badge is $150.", "numeric", "critical", ["abc123def456"]),
    (
        "Employees must report a lost badge within three business days.",
        "numeric",
        "critical",
        ["111111111111", "222222222222"],
    ),
    ('A "business day" refers to Monday through Friday.', "definition", "minor", ["333333333333", "444444444444"]),
    ("Standard fee: $150", "numeric", "critical", ["abc123def456"]),
    ("Written request to HR", "fact", "minor", ["555555555555"]),
    ("Badge office", "fact", "minor", ["666666666666"]),  # a cited fragment is kept: the writer meant a claim
    ("Badges are issued by Security.", "fact", "minor", []),
    ("Only full-time staff are eligible.", "policy", "material", []),
]


def test_extract_claims_keeps_only_claims_in_order():
    claims = extract_claims(ANSWER, QUESTION)
    assert [(c.text, c.type, c.importance, c.cited) for c in claims] == EXPECTED
    assert [c.id for c in claims] == [f"c{i}" for i in range(1, len(EXPECTED) + 1)]


def test_claim_spans_slice_back_to_the_cited_sentence():
    claims = extract_claims(ANSWER, QUESTION)
    assert ANSWER[slice(*claims[0].span)] == "The fee for a replacement badge is $150. [cite:abc123def456]"
    assert ANSWER[slice(*claims[3].span)] == "Standard fee: $150 [cite:abc123def456]"
    for claim in claims:
        sliced = ANSWER[slice(*claim.span)]
        assert all(f"[cite:{h}" in sliced or f", {h}]" in sliced for h in claim.cited)
        assert sliced.replace("**", "").startswith(claim.text.rstrip(".")[:12])


@pytest.mark.parametrize(
    ("answer", "texts"),
    [
        ("", []),
        ("Thank you! I hope this helps.", []),
        ("What is the fee? I think it is $150.", []),
        ("Fees are $150. [cite:abc] Next, staff pay online.", ["Fees are $150.", "Next, staff pay online."]),
        ("Fees are $150 [cite:a][cite:b]. Done [cite:c].", ["Fees are $150.", "Done."]),
        (
            "The fee, e.g. for Dr. Smith, is $5. U.S. staff pay more.",
            ["The fee, e.g. for Dr. Smith, is $5.", "U.S. staff pay more."],
        ),
        ("1. File the form.\n2. Pay **$150** online.", ["File the form.", "Pay $150 online."]),
    ],
)
def test_extract_claims_texts(answer, texts):
    assert [c.text for c in extract_claims(answer)] == texts


def test_uncited_claims_have_no_hashes_and_duplicates_collapse():
    claims = extract_claims("Fees are $150. Staff pay online [cite:abc, abc][cite:ABC].")
    assert [c.cited for c in claims] == [[], ["abc"]]


def test_extraction_is_fast():
    answer = " ".join(f"Claim number {i} says the fee is ${i}0 [cite:abc123def456]." for i in range(10))
    extract_claims(answer, QUESTION)  # warm caches
    best = min(_timed(lambda: extract_claims(answer, QUESTION)) for _ in range(5))
    assert best < 0.010


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@pytest.mark.parametrize("text", ["Could you confirm the catering numbers by Friday 20 March?",
                                  "Please could you send the signed form by 2 May?"])
def test_a_polite_request_is_a_claim_of_what_someone_is_asked_to_do(text: str) -> None:
    assert exclusion_reason(text) is None and is_claim(text)
