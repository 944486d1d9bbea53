"""The checker's minimal pairs read as English and carry the label their change implies."""

from __future__ import annotations

import collections
import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_contrast_pairs", ROOT / "scripts" / "build_contrast_pairs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_contrast_pairs"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build():  # type: ignore[no-untyped-def]
    return _script()


@pytest.fixture(scope="module")
def lexicon(build):  # type: ignore[no-untyped-def]
    from ledger.judge.word_relations import bundled_wordnet

    common = ("man woman boy girl nurse doctor surgeon physician dog cat animal before after outside inside large "
              "small boat ship vessel film movie house building")
    counts = collections.Counter({w: 100 for w in common.split()})
    return build.Lexicon(bundled_wordnet(), counts, counts)


def _changes(build, lexicon, premise: str, claim: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    row = {"premise": premise, "hypothesis": claim, "label": "entailment", "source": "test"}
    return {c["kind"]: c for c in build.candidates(row, lexicon, random.Random(0), 5)}


def test_a_noun_becomes_another_kind_of_the_same_thing_and_the_claim_a_contradiction(build, lexicon) -> None:
    made = _changes(build, lexicon, "A woman is walking her dog outside.", "A woman walks a dog.")
    sibling = made["aug_sibling"]
    assert sibling["label"] == "contradiction"
    old, new = sibling["changed"].split("->")
    assert old in ("woman", "dog") and new not in ("woman", "dog")
    assert sibling["new"] == "A woman walks a dog.".replace(old, new)
    broader = made.get("aug_hypernym")
    if broader is not None:
        assert broader["label"] == "entailment"


def test_an_adverb_becomes_its_opposite(build, lexicon) -> None:
    made = _changes(build, lexicon, "Two boys play football outside.", "The boys are playing outside.")
    assert made["aug_antonym"]["new"] == "The boys are playing inside."
    assert made["aug_antonym"]["label"] == "contradiction"


def test_an_article_agrees_with_the_new_word(build) -> None:
    assert build.replaced("He saw a dog.", 9, 12, "animal") == "He saw an animal."
    assert build.replaced("A dog barked.", 2, 5, "cat") == "A cat barked."


def test_a_claim_under_negation_or_a_quantifier_is_left_alone(build, lexicon) -> None:
    assert _changes(build, lexicon, "No dog was outside.", "No dog was outside.") == {}
    assert _changes(build, lexicon, "All the dogs were outside.", "All dogs were outside.") == {}


def test_a_name_is_replaced_by_another_person_never_by_a_longer_form_of_itself(build) -> None:
    from ledger.judge.word_relations import bundled_wordnet

    lex = build.Lexicon(bundled_wordnet(), collections.Counter(), collections.Counter())
    premise = "The film starred Anna Lindqvist and Tomas Berglund; Anna Maria Lindqvist also wrote it."
    made = _changes(build, lex, premise, "The film starred Anna Lindqvist.")
    assert made["aug_name"]["new"] == "The film starred Tomas Berglund."
    assert made["aug_name"]["label"] == "contradiction"
    same = "Thea Holm beat Ida Sund in the final."
    swapped = _changes(build, lex, same, "Thea Holm beat Ida Sund.")["aug_name"]["new"]
    assert swapped == "Ida Sund beat Thea Holm."
    assert "aug_name" not in _changes(build, lex, "Thea Holm and Ida Sund met.", "Thea Holm and Ida Sund met.")
