"""Generality, checked so it cannot be tuned away: renaming every name to an invented word changes no verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.judge.evaluation import judge_items, load_items, predicted_label
from ledger.loop.factory import build_support_checker
from tests.metamorphic import names_in, rename

DEV = Path(__file__).resolve().parents[3] / "bench" / "data" / "dev_eval.jsonl"


@pytest.mark.parametrize(
    ("texts", "names"),
    [
        (["Refunds above the limit go to the Finance Controller of Northwind."], ["Finance Controller of Northwind"]),
        (["Every 24 months.", "Reviews happen every year."], []),  # "every" occurs in lower case: not a name
        (["All of Castlegate's sites passed.", "Castlegate has 36 sites."], ["Castlegate"]),
        (["The CISO approves.", "Approval comes in March."], ["CISO"]),  # months and sentence openers stay
    ],
)
def test_names_are_capitalised_runs_that_never_appear_in_lower_case(texts: list[str], names: list[str]) -> None:
    assert names_in(texts) == names


def test_renaming_is_consistent_across_claim_and_evidence() -> None:
    claim, evidence, mapping = rename("Ardmore grew by 4.6%.", ["The town of Ardmore grew by 4.6% since 2015."], 1)
    new = mapping["Ardmore"]
    assert claim == f"{new} grew by 4.6%." and evidence == [f"The town of {new} grew by 4.6% since 2015."]
    assert new not in Path(__file__).read_text()


@pytest.mark.model
def test_verdicts_survive_renaming_every_name_of_the_dev_set(embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    items = load_items(DEV)
    renamed = []
    for seed, item in enumerate(items):
        claim, evidence, _ = rename(item.claim, item.evidence, seed)
        renamed.append(item.model_copy(update={"claim": claim, "evidence": evidence}))
    checker = build_support_checker(Settings(home=tmp_path), embedder)  # the shipped judge: rules and models
    assert checker.name == "nli"
    before = [predicted_label(e) for e in judge_items(items, checker)]
    after = [predicted_label(e) for e in judge_items(renamed, checker)]
    agreement = sum(a == b for a, b in zip(before, after, strict=True)) / len(items)
    changed = [i.id for i, a, b in zip(items, before, after, strict=True) if a != b]
    print(f"metamorphic agreement {agreement:.3f} ({len(items)} items); changed: {changed}")
    assert agreement >= 0.97, f"agreement {agreement:.3f}; changed: {changed}"
