"""The judge embeds only the sentences of a chunk likeliest to matter to a claim, and its verdicts stay the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ledger.judge.candidates import likely_sentences
from ledger.judge.evaluation import EvalItem, judge_items
from ledger.judge.support import LocalSupportChecker, likely_chunk_sentences
from tests.fakes import make_chunk

DATA = Path(__file__).resolve().parents[3] / "bench" / "data"


class Counting:
    """An embedder that counts the texts reaching the model."""

    def __init__(self, inner: object) -> None:
        self.inner, self.texts = inner, 0

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        self.texts += len(texts)
        return self.inner.encode(texts)  # type: ignore[attr-defined,no-any-return]


PASSWORDS = [
    "Passwords for standard accounts must be at least 16 characters long.",
    "Passwords for privileged accounts must be at least 20 characters long.",
    "Standard account passwords must be changed every 180 days.",
    "A new password may not repeat any of the previous 12 passwords on the same account.",
    "All passwords must be kept in the company password manager.",
    "Multi-factor authentication is required for every remote login.",
]


def test_the_sentence_stating_the_claim_is_chosen_even_with_a_figure_in_words() -> None:
    chosen = likely_sentences("Users cannot reuse any of their last twelve passwords on the same account.",
                              PASSWORDS, keep=1)
    assert chosen == [PASSWORDS[3]]


def test_neighbours_and_the_heading_above_come_with_a_chosen_sentence() -> None:
    sentences = ["## Travel", "Economy is the default.", "Items never reimbursed:", "Alcohol.", "Traffic fines.",
                 "Gifts to clients need a receipt.", "Mileage is paid at the federal rate."]
    claim = "Traffic fines are reimbursed."
    chosen = likely_sentences(claim, sentences, keep=1, is_heading=lambda s: s.endswith(":"))
    assert chosen == ["Items never reimbursed:", "Alcohol.", "Traffic fines.", "Gifts to clients need a receipt."]
    assert likely_sentences(claim, sentences, keep=None) == sentences


def test_a_claim_stated_in_a_long_chunk_is_supported_with_a_fraction_of_its_sentences_embedded(
    embedder: object,
) -> None:
    filler = [f"Section {i} covers the handling of routine matters by the office team." for i in range(1, 31)]
    stated = "All backups are encrypted with AES-256 before they leave the building."
    text = " ".join(filler[:17] + [stated] + filler[17:])
    claim = "All backups are encrypted with AES-256."
    counting = Counting(embedder)
    check = LocalSupportChecker(counting).check([(claim, make_chunk(text))])[0]  # type: ignore[arg-type]
    assert check.support == "full"
    assert stated in check.quote
    assert len(likely_chunk_sentences(claim, text)) < 8
    assert counting.texts < 12  # of 31 sentences


def _items(name: str, count: int) -> list[EvalItem]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [EvalItem.model_validate_json(line) for line in lines[:count] if line.strip()]


@pytest.mark.parametrize("name", ["dev_eval.jsonl", "genres_eval.jsonl"])
def test_verdicts_and_quotes_are_those_of_embedding_every_sentence(name: str, embedder: object) -> None:
    items = _items(name, 40)
    every, likely = Counting(embedder), Counting(embedder)
    exhaustive = LocalSupportChecker(every)  # type: ignore[arg-type]
    exhaustive.sentences_per_pair = None
    before = judge_items(items, exhaustive)
    after = judge_items(items, LocalSupportChecker(likely))  # type: ignore[arg-type]
    assert [(e.verdict, e.evidence[0].quote if e.evidence else "") for e in after] == [
        (e.verdict, e.evidence[0].quote if e.evidence else "") for e in before]
    assert likely.texts < every.texts
