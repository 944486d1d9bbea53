"""The training script can go on from the shipped checker when its fp32 checkpoint is gone (a new machine)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "ledger" / "judge" / "models" / "checker_int8.onnx"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_checker", ROOT / "scripts" / "train_checker.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.model
def test_the_shipped_checker_loads_back_into_the_trainable_model_and_reads_the_same() -> None:
    import torch

    from ledger.judge.checker_model import load_bundled_checker

    train = _script()
    model = train.load_model(str(SHIPPED)).eval()  # raises when a weight of the model is missing from the file
    tokenizer = train.get_tokenizer()
    pairs = [
        ("The cat sat on the mat.", "A dog is sleeping."),
        ("The museum opens at 9 a.m. every day.", "The museum opens every day."),
        ("The company was founded in 1998 in Oslo.", "The company was founded in Norway."),
        ("Anna Berg won the race.", "Anna Berg lost the race."),
    ]  # clear cases: near a tie the int8 file's rounded activations may tip the other way
    shipped = load_bundled_checker().predict(pairs)
    for (premise, claim), expected in zip(pairs, shipped, strict=True):
        with torch.no_grad():
            logits = model(**tokenizer(premise, claim, return_tensors="pt")).logits
        probs = torch.softmax(logits, -1)[0].numpy()
        assert int(np.argmax(probs)) == int(np.argmax(expected))
        assert np.abs(probs - expected).max() < 0.1  # the int8 file's activations are rounded too, the weights not
