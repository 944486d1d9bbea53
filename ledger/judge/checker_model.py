"""The bundled support checker: a 3-way NLI cross-encoder trained by this project, int8 ONNX, offline.

The bundled all-MiniLM-L6-v2 fine-tuned on the labelled pairs of `../shared/data/nli` (FEVER, VitaminC, HoVer,
MNLI, SNLI, FM2; licences in its README) by `scripts/train_checker.py`, then quantised to int8 ONNX (23 MB).
It reads "[CLS] quote [SEP] claim [SEP]" (at most 128 word pieces; the quote is cut first) and gives entailment,
contradiction and neutral probabilities. `ledger.judge.nli` decides what they change in the local checks.

It behaves like a sentence-transformers `CrossEncoder` for the checker (`config.id2label`, `predict`), so the
same NLI checker runs a hub model or this one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ledger.core.errors import ModelError
from ledger.core.models import map_in_threads

MODEL_DIR = Path(__file__).with_name("models")
BUNDLED_CHECKER = "bundled"  # the `judge.nli_model` value that names this model


@dataclass(frozen=True)
class _Config:
    id2label: dict[int, str] = field(default_factory=dict)


class BundledChecker:
    """The int8 ONNX checker and its word-piece tokenizer; `predict` gives softmax probabilities."""

    def __init__(self, session: Any, tokenizer: Any, meta: dict[str, Any]) -> None:
        self.session, self.tokenizer = session, tokenizer
        labels = meta["labels"]
        self.config = _Config({i: name for i, name in enumerate(labels)})
        self.max_length = int(meta.get("max_length", 128))
        self.max_claim = int(meta.get("max_hypothesis_tokens", 64))
        self.ids = {name: tokenizer.token_to_id(name) for name in ("[CLS]", "[SEP]", "[PAD]")}

    def _encode(self, premise: str, claim: str) -> tuple[list[int], int]:
        """Word-piece ids of one pair and where the claim starts; the quote is cut first, the claim only if it
        alone would not fit."""
        p = self.tokenizer.encode(premise, add_special_tokens=False).ids
        h = self.tokenizer.encode(claim, add_special_tokens=False).ids
        room = self.max_length
        if len(h) > room - 4:
            h = h[: min(self.max_claim, room - 4)]
        p = p[: max(room - 3 - len(h), 1)]
        return [self.ids["[CLS]"], *p, self.ids["[SEP]"], *h, self.ids["[SEP]"]], len(p) + 2

    def predict(self, pairs: Sequence[tuple[str, str]], **_: Any) -> np.ndarray:
        """(n, 3) probabilities in the order of `config.id2label`, for (quote, claim) pairs.

        One pair per call: dynamic int8 quantisation scales each call's activations together, so a pair read in
        a batch would get other probabilities than alone, and a claim's verdict would depend on the other claims
        of the draft. The calls run one per CPU at a time on the single-threaded session (`map_in_threads`):
        about 40 ms a pair on two cores instead of 80, with the same probabilities.
        """
        labels = len(self.config.id2label)

        def read(encoded: tuple[list[int], int]) -> np.ndarray:
            seq, first = encoded
            ids = np.asarray([seq], dtype=np.int64)
            types = np.zeros_like(ids)
            types[0, first:] = 1
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": types}
            logits = self.session.run(["logits"], feed)[0][0]
            exp = np.exp(logits - logits.max())
            return exp / exp.sum()  # type: ignore[no-any-return]

        # Word pieces here, the model in the pool: a tokenizer is not for several threads at once.
        rows = map_in_threads(read, [self._encode(premise or "", claim or "") for premise, claim in pairs])
        return np.asarray(rows, dtype=np.float32).reshape(len(rows), labels)


@cache
def load_bundled_checker(directory: Path = MODEL_DIR) -> BundledChecker:
    """The shipped checker, loaded once per process. Raises ModelError with a one-line reason."""
    from ledger.core.models import BUNDLED_MODEL, load_onnx_session, load_plain_tokenizer, resolve_model_path

    try:
        meta = json.loads((directory / "checker.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # a missing or damaged file: "cannot load"
        raise ModelError(f"cannot load the bundled support checker: {type(exc).__name__}: {exc}") from exc
    tokenizer = load_plain_tokenizer(resolve_model_path(BUNDLED_MODEL))
    session = load_onnx_session(str(directory / meta.get("artifact", "checker_int8.onnx")), 1)
    return BundledChecker(session, tokenizer, meta)
