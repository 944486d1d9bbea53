"""WordNet's relations as the learned contrasts read them: the shipped table, inflections, and the features."""

from __future__ import annotations

import pytest

from ledger.judge.word_relations import RELATION_FEATURES, bundled_wordnet, relation_features


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
