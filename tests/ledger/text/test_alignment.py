"""Aligning a claim with a quote: one sentence in two versions, and the slots where they differ."""

from __future__ import annotations

from ledger.text.alignment import Slot, in_one_slot, slots, states_verbatim


def test_one_sentence_in_two_versions_has_its_replaced_slot() -> None:
    claim = "Interest earned on the deposit belongs to the landlord."
    quote = "Interest earned on the deposit belongs to the Tenant."
    assert slots(claim, quote) == (Slot(("landlord",), ("Tenant",)),)
    assert in_one_slot(claim, quote, "landlord", "Tenant")


def test_different_sentences_have_no_slots() -> None:
    # Half of the claim's words must come back in order before a slot means "the same place".
    assert slots("The ferry leaves at dawn from the north pier.", "Tickets are sold online and at the kiosk.") == ()
    assert not in_one_slot("The ferry leaves from the north pier.", "Tickets are sold at the south kiosk.",
                           "north", "south")


def test_a_name_elsewhere_in_the_quote_is_not_in_the_claims_place() -> None:
    claim = "The bridge was designed by Ana Rusk."
    quote = "The bridge was designed by Ana Rusk and built by Tomas Vey."
    assert slots(claim, quote) == ()  # the quote only adds words: nothing replaced
    assert not in_one_slot(claim, quote, "Ana Rusk", "Tomas Vey")
    assert in_one_slot(claim, "The bridge was designed by Tomas Vey.", "Ana Rusk", "Tomas Vey")


def test_odd_text_aligns_without_error() -> None:
    assert slots("", "") == ()
    assert slots("²³ ½ ٣ 🙂", "\x00 ‏abc") == ()


def test_a_quote_that_repeats_the_claim_word_for_word() -> None:
    quote = "From 1 May, the monthly fee is $5.50 for members; guests pay $8."
    assert states_verbatim("The monthly fee is $5.50 for members.", quote)
    assert states_verbatim("the MONTHLY fee is $5.50 for members", quote)  # case and punctuation aside
    assert not states_verbatim("The monthly fee is $5 for members.", quote)  # another figure
    assert not states_verbatim("The monthly fee for members is $5.50.", quote)  # the same words in another order
    assert not states_verbatim("Members pay.", quote)  # too short to say anything by itself
    assert not states_verbatim("", quote) and not states_verbatim("The monthly fee is", "")


def test_a_clause_after_a_comma_does_not_steal_the_claims_word() -> None:
    # The quote's later clause repeats "northern": read up to "while", the slot is where the claim's words stand.
    claim = "The best beaches on the island are on the exposed northern coast."
    quote = "The best beaches are on the sheltered southern coast, while the northern cliffs are home to gannets."
    assert slots(claim, quote) == (Slot(("exposed", "northern"), ("sheltered", "southern")),)


def test_a_list_is_not_cut_at_its_commas() -> None:
    # "writer" alone is not what the quote puts in the claim's place: the list goes on after the comma.
    quote = "Dana Whitlow (born 1966) is an American writer, producer, and actress."
    (slot,) = slots("Dana Whitlow is an artist.", quote)
    assert slot.theirs[-1] == "actress"


def test_a_claim_that_ends_in_another_name_after_the_quotes_opening_puts_it_in_the_rivals_place() -> None:
    claim = "Malaria tablets are prescribed by the Lead Travel Health Nurse, Gemma Okafor-Reid."
    quote = "Malaria tablets are prescribed by our pharmacist prescriber, Daniel Whitcombe, after your consultation."
    assert in_one_slot(claim, quote, "Gemma Okafor Reid", "Daniel Whitcombe")
    # a name mid-claim, with the quote going on about something else, is in no rival's place
    assert not in_one_slot("Diana, Princess of Wales died in a car crash in Paris on 31 August 1997.",
                           "Diana, Princess of Wales (Diana Frances; née Spencer; 1 July 1961 - 31 August 1997)",
                           "Paris", "Spencer")
