"""Learned contrasts: which slots of an aligned claim and quote are asked about, and the shipped model's use."""

from __future__ import annotations

import pytest

from ledger.core.types import Chunk
from ledger.judge.substitutions import Substitution, aligned_substitutions, bundled_contrast_model
from ledger.judge.support import LocalSupportChecker


def chunk(text: str) -> Chunk:
    return Chunk(hash="0123456789ab", text=text, document_id="d", index=0, start_char=0, end_char=len(text))


def test_a_slot_of_other_content_words_is_a_substitution() -> None:
    claim = "Interest earned on the deposit belongs to the landlord."
    quote = "Interest earned on the deposit belongs to the Tenant."
    assert aligned_substitutions(claim, quote) == (Substitution("landlord", "Tenant"),)


def test_figures_negations_spellings_and_forms_are_left_to_the_rules() -> None:
    assert aligned_substitutions("The hall seats 120 people.", "The hall seats 150 people.") == ()
    assert aligned_substitutions("Visitors may not park here.", "Visitors may always park here.") == ()
    assert aligned_substitutions("The committee organized the fair.", "The committee organised the fair.") == ()
    assert aligned_substitutions("The clinic opens on Thursdays.", "The clinic opens on Thursday.") == ()


def test_a_word_the_other_sentence_says_elsewhere_was_moved_not_replaced() -> None:
    # "ends" / "Period" aligned in one slot, but the quote says "the end" a few words before
    assert aligned_substitutions("The report is due three months after the grant ends.",
                                 "The report is due three months after the end of the Grant Period.") == ()


def test_unrelated_sentences_have_no_substitutions() -> None:
    assert aligned_substitutions("The ferry leaves at dawn.", "Tickets are sold at the kiosk near the pier.") == ()


def test_the_shipped_model_scores_within_bounds_and_remembers() -> None:
    model = bundled_contrast_model()
    score = model("landlord", "tenant")
    assert 0.0 <= score <= 1.0 and model("landlord", "tenant") == score
    assert 0.0 < model.threshold < 1.0


@pytest.mark.parametrize(("claim_word", "evidence_word"), [("landlord", "Tenant"), ("downstream", "upstream"),
                                                          ("accepted", "rejected"), ("golf", "tennis")])
def test_the_shipped_model_calls_two_kinds_of_one_thing_and_opposites_contrasts(
    claim_word: str, evidence_word: str
) -> None:
    model = bundled_contrast_model()
    assert model(claim_word, evidence_word) >= model.threshold


@pytest.mark.parametrize(("claim_word", "evidence_word"), [("physician", "doctor"), ("closest", "nearest"),
                                                          ("remain", "stay"), ("earns", "receives"),
                                                          ("grew", "increased"), ("dog", "animal"),
                                                          # a phrasal verb is one lemma: "held up" is "hold_up"
                                                          ("held up", "delayed"), ("called off", "cancelled")])
def test_the_shipped_model_does_not_call_synonyms_or_broader_words_contrasts(
    claim_word: str, evidence_word: str
) -> None:
    model = bundled_contrast_model()
    assert model(claim_word, evidence_word) < model.threshold


@pytest.mark.model
def test_with_learned_contrasts_on_a_word_in_the_claims_place_contradicts(embedder) -> None:  # type: ignore[no-untyped-def]
    claim = "The night ferry to the island leaves from the north pier of the harbour."
    evidence = chunk("The night ferry to the island leaves from the south pier of the harbour, the port office said.")
    (plain,) = LocalSupportChecker(embedder).check([(claim, evidence)])
    (learned,) = LocalSupportChecker(embedder, contrasts=bundled_contrast_model()).check([(claim, evidence)])
    assert plain.support != "contradicted"
    assert learned.support == "contradicted" and "evidence says south" in learned.reason


@pytest.mark.model
def test_a_contrast_in_the_sentence_after_the_one_naming_the_subject_contradicts(embedder) -> None:  # type: ignore[no-untyped-def]
    claim = "Odile Marchetti was taught at home by her mother, a pharmacist."
    evidence = chunk("Odile Marchetti (1852-1911) was a Belgian-born geologist best known for her maps of slate "
                     "quarries. She was educated at home by her father, a pharmacist, because women were not then "
                     "admitted to the university.")
    (check,) = LocalSupportChecker(embedder, contrasts=bundled_contrast_model()).check([(claim, evidence)])
    assert check.support == "contradicted" and "evidence says father" in check.reason


@pytest.mark.model
def test_a_claim_word_the_quote_says_by_another_of_one_sense_is_covered(embedder) -> None:  # type: ignore[no-untyped-def]
    # "continues to run" is "keeps running": with the word counted, the close clause states the claim
    claim = "If the Wi-Fi connection drops, the thermostat continues to run the heating schedule from its own memory."
    evidence = chunk("This section explains the messages shown on the display and the thermostat's special modes. "
                     "Error E2 means the thermostat has lost its connection to the home Wi-Fi network; the heating "
                     "schedule keeps running from the thermostat's memory. Error E4 means the temperature sensor has "
                     "failed, and the thermostat switches the heating off until the unit is replaced.")
    (check,) = LocalSupportChecker(embedder, contrasts=bundled_contrast_model()).check([(claim, evidence)])
    assert check.support == "full"
