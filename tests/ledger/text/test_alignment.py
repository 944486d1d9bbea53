"""Aligning a claim with a quote: one sentence in two versions, and the slots where they differ."""

from __future__ import annotations

from ledger.text.alignment import Slot, in_one_slot, slots


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
