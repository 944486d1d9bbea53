"""WordNet's relations as the learned contrasts read them: the shipped table, inflections, and the features."""

from __future__ import annotations

import pytest

from ledger.judge.word_relations import (
    RELATION_FEATURES,
    bundled_wordnet,
    is_a_kind_of,
    names_a_party,
    near_in_meaning,
    relation_features,
    same_sense,
)


def relations(a: str, b: str) -> set[str]:
    """The names of the relation flags that are on for claim words `a` against evidence words `b`."""
    values = relation_features(a, b, bundled_wordnet())
    plain = RELATION_FEATURES[: RELATION_FEATURES.index("closeness")]  # not the per-part-of-speech copies
    return {name for name, value in zip(plain, values, strict=False) if value == 1.0}


@pytest.mark.parametrize(
    ("a", "b", "relation"),
    [
        ("physician", "doctor", "same sense"),
        ("inside", "outside", "opposites"),
        ("dog", "animal", "claim word narrower"),
        ("animal", "dog", "claim word broader"),
        ("wheat", "barley", "near siblings"),
        ("landlord", "tenant", "siblings"),
    ],
)
def test_wordnet_relations_are_read(a: str, b: str, relation: str) -> None:
    assert relation in relations(a, b)


def test_inflected_forms_and_phrases_are_found() -> None:
    assert "same sense" in relations("geese", "goose")  # an irregular plural, from WordNet's exception lists
    assert "claim word narrower" in relations("puppies", "dogs")
    assert "siblings" in relations("surgeon", "practice nurse")  # a phrase WordNet lacks is read by its last word
    assert relations("Tenant", "landlord") == relations("tenant", "landlord")


def test_a_word_wordnet_does_not_know_has_no_relation() -> None:
    values = relation_features("zorblat", "tenant", bundled_wordnet())
    assert values[0] == 0.0 and values[1] == 1.0 and not values[2:].any()


def test_features_of_odd_text_are_empty_rather_than_an_error() -> None:
    for a, b in [("", "tenant"), ("   ", "\u200f"), ("²", "½"), ("x" * 10_000, "tenant")]:
        assert relation_features(a, b, bundled_wordnet()).shape == (len(RELATION_FEATURES),)


@pytest.mark.parametrize(
    ("a", "b", "inside"),
    [
        ("London", "United Kingdom", True), ("Greece", "Europe", True), ("Paris", "France", True),
        ("Edinburgh", "Scotland", True),
        ("Manchester", "London", False), ("Ireland", "Scotland", False),  # two places side by side
        ("Southwestern Mexico", "Baja California", False),  # a name WordNet does not know as one is not its last word
        ("Qwzlorn", "Europe", False),
    ],
)
def test_a_place_inside_another_is_known_both_ways(a: str, b: str, inside: bool) -> None:
    from ledger.judge.word_relations import one_inside_the_other

    table = bundled_wordnet()
    assert one_inside_the_other(a, b, table) is inside
    assert one_inside_the_other(b, a, table) is inside


def test_a_part_and_its_whole_in_the_claims_place_is_no_swap() -> None:
    from ledger.judge.support_rules import features
    from ledger.judge.word_relations import one_inside_the_other

    def nested(a: str, b: str) -> bool:
        return one_inside_the_other(a, b, bundled_wordnet())

    claim, quote = "Sky UK serves London.", "Sky UK serves the United Kingdom."
    assert features(claim, quote, 0.8).swaps  # the rules alone: another name in the claim's place
    assert not features(claim, quote, 0.8, nested=nested).swaps
    assert features("Sky UK serves Manchester.", "Sky UK serves London.", 0.8, nested=nested).swaps


@pytest.mark.parametrize(("word", "party"), [
    ("manager", True), ("technician", True), ("Treasurer", True), ("committee", True), ("council", True),
    ("fridge", False), ("temperature", False), ("minutes", False), ("quickly", False), ("", False),
    ("national", False), ("begin", False),  # an adjective; a verb that WordNet also knows as a statesman's name
    ("headteacher", True), ("groundsman", True), ("backupfridge", False),  # a compound WordNet lacks: its last part
])
def test_words_for_a_person_or_a_body_are_parties(word: str, party: bool) -> None:
    # What a "who" question is answered by when the documents name a role, not a person's name.
    assert names_a_party(word, bundled_wordnet()) is party


def test_a_word_that_can_be_a_verb_or_an_adjective_is_a_party_only_where_a_noun_stands() -> None:
    table = bundled_wordnet()
    assert not names_a_party("staff", table)  # "to staff the desk"
    assert names_a_party("staff", table, noun_here=True)  # "by the staff"
    assert not names_a_party("master", table, noun_here=True)  # "the master bedroom"
    assert names_a_party("master", table, noun_here=True, head_here=True)  # "the harbour master decides"


@pytest.mark.parametrize(("a", "b", "near"), [
    ("grub", "larvae", True), ("breeding", "rearing", True), ("start", "began", True), ("price", "cost", True),
    ("charge", "costs", True),  # "costs" is also a noun of its own (legal costs): its plural reading counts too
    ("rise", "fall", False), ("dog", "cat", False), ("year", "month", False), ("beetle", "animal", False),
    ("", "cost", False), ("qwzlorn", "cost", False),
])
def test_words_near_in_meaning_say_the_same_thing(a: str, b: str, near: bool) -> None:
    # A question word the passage says otherwise; opposites, siblings and far kinds are not it.
    assert near_in_meaning(a, b, bundled_wordnet()) is near
    assert near_in_meaning(b, a, bundled_wordnet()) is near


@pytest.mark.parametrize(("word", "general", "kind"), [
    ("residents", "person", True), ("players", "person", True), ("cars", "vehicle", True), ("dogs", "animal", True),
    ("days", "person", False), ("rooms", "person", False), ("person", "resident", False), ("", "person", False),
])
def test_what_a_count_counts_may_be_a_kind_of_what_is_asked(word: str, general: str, kind: bool) -> None:
    # "2 to 6 players" answers "how many people"; "three rooms" does not.
    assert is_a_kind_of(word, general, bundled_wordnet()) is kind


def test_a_token_longer_than_any_word_is_no_compound() -> None:
    # Tails of a compound are looked up only for what could be a word: not 10,000 look-ups for one odd token.
    table = bundled_wordnet()
    assert names_a_party("headteacher", table)
    assert not names_a_party("x" * 40 + "teacher", table)
    assert not names_a_party("q" * 10_000, table)


@pytest.mark.parametrize(("a", "b", "same"), [
    ("continues", "keeps", True), ("promptly", "quickly", True), ("cut", "reduce", True), ("buy", "purchase", True),
    ("mother", "father", False),  # they share a sense only as rare verbs ("to father a child")
    ("north", "south", False), ("won", "lost", False), ("grew", "fell", False), ("qwzlorn", "keeps", False),
])
def test_words_of_one_commonest_sense_say_one_thing(a: str, b: str, same: bool) -> None:
    assert same_sense(a, b, bundled_wordnet()) is same
    assert same_sense(b, a, bundled_wordnet()) is same
