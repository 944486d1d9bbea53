"""The onnx-int8 embedding backend: the sentence-transformers model exported to ONNX and quantised to int8.

The export runs once per model and is kept in a cache directory (EmbeddingSettings.cache_dir): the transformer
is traced with torch.onnx (plain "eager" attention: the scaled-dot-product export adds masking steps that cost a
fifth of a long text's time), then its weights are quantised by onnxruntime's dynamic quantisation: signed 7-bit
weights (int8 with `reduce_range`), one scale per output channel, except the first two layers' feed-forward
down-projections, which stay float (KEEP_FLOAT: their inputs have the widest range).
Signed weights run on the int8 dot-product instructions of CPUs that have them (AVX512-VNNI, AVX-VNNI: about 2x
the previous uint8-weight recipe); the 7th bit is given up so that CPUs without them (AVX2's 16-bit pair sums)
cannot saturate: every CPU computes the same integers, so the same vectors.
At run time only onnxruntime and the model's Rust tokenizer are used; pooling and normalisation are those of
sentence-transformers (mean over the attention mask, then L2), so the vectors live in the same space.

A cached export is found by a key over the recipe and the model files' names, sizes and modification times,
and checked against the SHA-256 its manifest records: a damaged file is exported again, never used.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ledger.core.errors import ModelError
from ledger.core.models import load_fast_tokenizer, load_onnx_session, map_in_threads, model_directory

log = logging.getLogger(__name__)

RECIPE = "onnx-int8.v2"  # change when the export or quantisation changes: the vectors change with it
MODEL_FILE = "model.int8.onnx"
MANIFEST = "manifest.json"
_SOURCES = (
    "config.json",
    "model.safetensors",
    "pytorch_model.bin",
    "tokenizer.json",
    "modules.json",
    "sentence_bert_config.json",
    "1_Pooling/config.json",
)
_OPSET = 17
# The first layers' feed-forward down-projections stay float: their inputs (after GELU) span the widest range
# (in all-MiniLM-L6-v2 the largest value is 171 and 149 times the mean magnitude in layers 1-2, 34 in layer 6), so
# 8-bit activations lose most there. Keeping two costs about 5% of the speed and brings the vectors closest to
# fp32 (bench/ingest_throughput.py: recall@5 equal to fp32's on the retrieval set).
KEEP_FLOAT = 2
_CHUNK = 1 << 20


def default_cache_dir() -> Path:
    """$XDG_CACHE_HOME/evidence-ledger/models, else ~/.cache/evidence-ledger/models."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "evidence-ledger" / "models"


def export_key(model_dir: Path) -> str:
    """Key of an export: the recipe and each model file's name, size and modification time (no full read)."""
    digest = hashlib.sha256(RECIPE.encode())
    for name in _SOURCES:
        path = model_dir / name
        if path.is_file():
            stat = path.stat()
            digest.update(f"\0{name}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB pieces."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def max_seq_length(model_dir: Path) -> int:
    """Word pieces the model reads, as sentence-transformers decides: its own setting, else the position limit."""
    for name, key in (("sentence_bert_config.json", "max_seq_length"), ("config.json", "max_position_embeddings")):
        path = model_dir / name
        if path.is_file() and isinstance(value := json.loads(path.read_text()).get(key), int):
            return value
    return 512


def check_mean_pooled(model_dir: Path) -> None:
    """Raises ModelError unless the model is transformer → mean pooling (→ normalise), which this backend runs."""
    modules_file = model_dir / "modules.json"
    if not modules_file.is_file():
        return  # a plain transformer: sentence-transformers would mean-pool it too
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in json.loads(modules_file.read_text())]
    pooling_file = model_dir / "1_Pooling" / "config.json"
    pooling = json.loads(pooling_file.read_text()) if pooling_file.is_file() else {}
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v is True}
    if kinds[:2] != ["Transformer", "Pooling"] or set(kinds[2:]) - {"Normalize"} or modes != {
        "pooling_mode_mean_tokens"
    }:
        raise ModelError(
            f"the onnx-int8 embedding backend runs mean-pooled models only ({model_dir.name} is "
            f"{' → '.join(kinds)}): set EVIDENCE_EMBEDDING__BACKEND=torch"
        )


@contextmanager
def _quiet() -> Iterator[None]:
    """Silences the exporter's tracer warnings and the quantiser's advice, which are not for users."""

    def drop(_record: logging.LogRecord) -> bool:
        return False

    root = logging.getLogger()
    root.addFilter(drop)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.removeFilter(drop)


def export_int8(model_dir: Path, target: Path) -> None:
    """Export the transformer of `model_dir` to ONNX and quantise it to int8 at `target` (written atomically)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # the notice before the export says what is happening
    try:
        model = AutoModel.from_pretrained(str(model_dir), local_files_only=True, attn_implementation="eager")
    except (TypeError, ValueError):  # an architecture without the eager implementation
        model = AutoModel.from_pretrained(str(model_dir), local_files_only=True)
    model.eval()
    names = ["input_ids", "attention_mask"]
    if getattr(model.config, "type_vocab_size", 0):
        names.append("token_type_ids")

    class Hidden(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(names, inputs, strict=True))).last_hidden_state  # type: ignore[no-any-return]

    example = tuple(torch.ones((2, 8), dtype=torch.long) for _ in names)
    axes = {name: {0: "batch", 1: "sequence"} for name in [*names, "last_hidden_state"]}
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".export-") as tmp, _quiet(), torch.no_grad():
        fp32, int8 = Path(tmp) / "model.onnx", Path(tmp) / MODEL_FILE
        torch.onnx.export(
            Hidden(model), example, str(fp32), input_names=names, output_names=["last_hidden_state"],
            dynamic_axes=axes, opset_version=_OPSET, dynamo=False,
        )
        quantize_dynamic(
            str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
            nodes_to_exclude=first_down_projections(fp32),
        )
        os.replace(int8, target)


def first_down_projections(onnx_file: Path, count: int = KEEP_FLOAT) -> list[str]:
    """The names of the first `count` MatMuls whose constant weight narrows its input (rows > columns: the
    feed-forward down-projections of the first layers), for `nodes_to_exclude`."""
    import onnx

    graph = onnx.load(str(onnx_file), load_external_data=False).graph
    shapes = {init.name: tuple(init.dims) for init in graph.initializer}
    found = []
    for node in graph.node:
        if node.op_type == "MatMul" and any(
            len(dims := shapes.get(name, ())) == 2 and dims[0] > dims[1] for name in node.input
        ):
            found.append(node.name)
    return found[:count]


def prepare_int8(
    model_dir: Path, cache_dir: Path, notice: Callable[[str], None] | None = None, name: str | None = None
) -> Path:
    """The int8 ONNX file of model `name` in `model_dir`: the cached one if its hash checks out, else exported
    now (`notice` hears one line before the export starts)."""
    key = export_key(model_dir)
    name = name or model_dir.name
    folder = cache_dir / f"{name.replace('/', '--')}-{key[:16]}"
    target, manifest = folder / MODEL_FILE, folder / MANIFEST
    if target.is_file() and manifest.is_file():
        try:
            recorded = json.loads(manifest.read_text())
        except (OSError, ValueError):
            recorded = {}
        if recorded.get("key") == key and recorded.get("sha256") == file_sha256(target):
            return target
        log.warning("the cached ONNX model in %s does not match its manifest: exporting it again", folder)
    check_mean_pooled(model_dir)
    (notice or log.warning)(
        f"preparing the int8 embedding model (once, about a minute): exporting {name} to {folder}"
    )
    started = time.perf_counter()
    try:
        export_int8(model_dir, target)
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(
            f"cannot export {name} to ONNX ({exc.__class__.__name__}: {str(exc)[:160]}); "
            "set EVIDENCE_EMBEDDING__BACKEND=torch"
        ) from exc
    seconds = round(time.perf_counter() - started, 1)
    record = {"key": key, "recipe": RECIPE, "source": str(model_dir), "sha256": file_sha256(target),
              "export_seconds": seconds}
    partial = manifest.with_suffix(".tmp")
    partial.write_text(json.dumps(record, indent=1))
    os.replace(partial, manifest)
    log.info("int8 embedding model ready in %.1f s", seconds)
    return target


@cache
def _prepared(name: str, cache_dir: Path) -> tuple[str, str, int]:
    """(ONNX file, model directory, max word pieces) of model `name`, prepared once per process."""
    model_dir = model_directory(name)
    return str(prepare_int8(model_dir, cache_dir, name=name)), str(model_dir), max_seq_length(model_dir)


class OnnxEncoder:
    """Encodes texts with the int8 ONNX export of a sentence-transformers model; loads on first use."""

    def __init__(self, model: str, cache_dir: Path | None = None, threads: int = 0) -> None:
        self.model = model
        self.cache_dir = cache_dir or default_cache_dir()
        self.threads = threads

    def _parts(self) -> tuple[Any, Any]:
        onnx_file, model_dir, max_length = _prepared(self.model, self.cache_dir)
        return load_onnx_session(onnx_file, 1), load_fast_tokenizer(model_dir, max_length)

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """One L2-normalised float32 row per text.

        Each text is its own call (`batch_size` is not used): dynamic quantisation scales the activations of a
        whole batch at once, so in a shared batch a text's vector would depend on its companions; alone, it is
        the same every time. The calls run on single-threaded sessions, `threads` at a time (0: one per CPU): a
        sentence of twenty word pieces cannot keep two cores busy, two sentences side by side can (about 1.2x
        the texts per second of one call over both cores, and exactly the same vectors).
        """
        session, tokenizer = self._parts()
        wanted = {i.name for i in session.get_inputs()}
        encodings = [tokenizer.encode(text) for text in texts]  # one by one: a batch would be padded

        def embed(encoding: Any) -> np.ndarray:
            mask = np.array([encoding.attention_mask], dtype=np.int64)
            feed = {"input_ids": np.array([encoding.ids], dtype=np.int64), "attention_mask": mask}
            if "token_type_ids" in wanted:
                feed["token_type_ids"] = np.array([encoding.type_ids], dtype=np.int64)
            hidden = session.run(None, {k: v for k, v in feed.items() if k in wanted})[0]
            return mean_pool(hidden, mask)[0]

        rows = map_in_threads(embed, encodings, self.threads)
        return np.asarray(rows, dtype=np.float32) if rows else np.zeros((0, 0), dtype=np.float32)


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors the mask keeps, L2-normalised: sentence-transformers' Pooling + Normalize."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden.astype(np.float32) * weights).sum(axis=1)
    mean = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    return (mean / np.clip(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12, None)).astype(np.float32)
