"""Embedding backends: the setting picks one, the int8 export agrees with torch, its cache is checked, and a store
embedded by one backend is never searched or extended with another's vectors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import ingest.embedding as embedding
import ingest.onnx_encoder as onnx_encoder
from ingest.embedding import Embedder, backend_fingerprint, check_store_backend, stored_fingerprint
from ingest.onnx_encoder import check_mean_pooled, export_key, mean_pool, prepare_int8
from ledger.core.errors import ConfigError, ModelError
from ledger.core.models import load_fast_tokenizer, model_directory
from ledger.core.settings import EmbeddingSettings, load_settings

SENTENCES = [
    "The reservoir holds 48 million cubic metres when it is full.",
    "Invoices above the threshold need two written quotes before approval.",
    "The festival opens with a restored silent film and live piano.",
    "Mean annual rainfall at the station was 1,120 millimetres.",
    "Tenants must give two months' notice in writing to end the lease.",
    "How much water can the lake behind the dam store?",
]

TORCH = EmbeddingSettings(backend="torch")
ONNX = EmbeddingSettings(backend="onnx-int8")


# --- the setting -------------------------------------------------------------------------------------------------


def test_the_backend_setting_is_read_from_the_environment(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_EMBEDDING__BACKEND", "torch")
    assert load_settings().embedding.backend == "torch"
    monkeypatch.setenv("EVIDENCE_EMBEDDING__BACKEND", "onnx-int8")
    assert load_settings().embedding.backend == "onnx-int8"


def test_an_unknown_backend_is_refused_with_the_choices(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_EMBEDDING__BACKEND", "gpu")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "EVIDENCE_EMBEDDING__BACKEND: Input should be 'torch' or 'onnx-int8' (got 'gpu')" in str(caught.value)


class _FakeOnnx:
    """Stands in for OnnxEncoder: records what it was built with and what it encoded."""

    built: list[tuple[str, Path | None, int]] = []

    def __init__(self, model: str, cache_dir: Path | None = None, threads: int = 0) -> None:
        self.built.append((model, cache_dir, threads))

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        return np.full((len(texts), 3), 0.5, dtype=np.float32)


def _no_torch(*args: object) -> None:
    raise AssertionError("the torch model was loaded")


def test_onnx_int8_encodes_without_loading_the_torch_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(embedding, "OnnxEncoder", _FakeOnnx)
    monkeypatch.setattr(embedding, "load_sentence_transformer", _no_torch)
    _FakeOnnx.built.clear()
    embedder = Embedder(EmbeddingSettings(backend="onnx-int8", cache_dir=tmp_path, threads=1))
    assert embedder.encode(["one", "two"]).shape == (2, 3)
    embedder.encode(["three"])
    assert _FakeOnnx.built == [("all-MiniLM-L6-v2", tmp_path, 1)]  # built once, with the settings' cache and threads


def test_torch_never_builds_the_onnx_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    class Model:
        def encode(self, texts: list[str], **kwargs: object) -> np.ndarray:
            return np.ones((len(texts), 4), dtype=np.float32)

    monkeypatch.setattr(embedding, "OnnxEncoder", _no_torch)
    monkeypatch.setattr(embedding, "load_sentence_transformer", lambda *args: Model())
    assert Embedder(TORCH).encode(["a", "b", "c"]).shape == (3, 4)


# --- never mixed vectors -----------------------------------------------------------------------------------------


def test_fingerprints_name_backend_recipe_and_model() -> None:
    assert backend_fingerprint(TORCH) == "torch:all-MiniLM-L6-v2"
    assert backend_fingerprint(ONNX) == "onnx-int8.v2:all-MiniLM-L6-v2"
    assert backend_fingerprint(EmbeddingSettings(backend="torch", model="sentence-transformers/all-MiniLM-L6-v2")) == (
        "torch:all-MiniLM-L6-v2"
    )
    assert backend_fingerprint(ONNX, "torch") == "torch:all-MiniLM-L6-v2"


@pytest.mark.parametrize(
    ("recorded", "count", "settings"),
    [
        (None, 0, ONNX),  # an empty store takes any backend
        (None, 0, TORCH),
        (None, 12, TORCH),  # filled before fingerprints were recorded: torch made it
        ("torch:all-MiniLM-L6-v2", 12, TORCH),
        ("onnx-int8.v2:all-MiniLM-L6-v2", 12, ONNX),
    ],
)
def test_a_store_of_the_same_backend_is_used(recorded: str | None, count: int, settings: EmbeddingSettings) -> None:
    check_store_backend(recorded, count, settings, "default")


def test_a_store_made_by_torch_is_refused_to_the_int8_backend_with_both_ways_out() -> None:
    with pytest.raises(ConfigError) as caught:
        check_store_backend("torch:all-MiniLM-L6-v2", 1200, ONNX, "research")
    message = str(caught.value)
    assert "workspace 'research' holds 1200 vectors made by torch:all-MiniLM-L6-v2" in message
    assert "the embedder is now onnx-int8.v2:all-MiniLM-L6-v2" in message
    assert "re-embed it" in message and "EVIDENCE_EMBEDDING__BACKEND=torch" in message
    assert "\n" not in message


def test_a_store_older_than_fingerprints_counts_as_torch() -> None:
    assert stored_fingerprint(None, 5, ONNX) == "torch:all-MiniLM-L6-v2"
    assert stored_fingerprint(None, 0, ONNX) is None
    with pytest.raises(ConfigError, match="EVIDENCE_EMBEDDING__BACKEND=torch"):
        check_store_backend(None, 5, ONNX, "default")


def test_an_older_export_recipe_or_another_model_is_refused_without_a_backend_hint() -> None:
    with pytest.raises(ConfigError) as caught:
        check_store_backend("onnx-int8.v1:all-MiniLM-L6-v2", 3, ONNX, "default")
    assert "re-embed it" in str(caught.value) and "EVIDENCE_EMBEDDING__BACKEND" not in str(caught.value)
    with pytest.raises(ConfigError, match="made by torch:other-model"):
        check_store_backend("torch:other-model", 3, TORCH, "default")


# --- pieces of the onnx backend ----------------------------------------------------------------------------------


def test_mean_pooling_ignores_padding_and_normalises() -> None:
    hidden = np.zeros((2, 3, 2), dtype=np.float32)
    hidden[0] = [[2, 4], [4, 4], [100, 100]]  # the third token of row 0 is padding
    hidden[1] = [[0, 2], [0, 2], [0, 2]]
    mask = np.array([[1, 1, 0], [1, 1, 1]])
    pooled = mean_pool(hidden, mask)
    np.testing.assert_allclose(pooled, [[0.6, 0.8], [0.0, 1.0]], atol=1e-6)


def test_the_fast_tokenizer_reads_256_pieces_and_pads_to_the_longest_text() -> None:
    # The model's tokenizer.json truncates and pads to a fixed 128: sentence-transformers reads 256.
    tokenizer = load_fast_tokenizer(str(model_directory("all-MiniLM-L6-v2")), 256)
    short, long = tokenizer.encode_batch(["A short text.", "word " * 400])
    assert len(long.ids) == 256 and sum(long.attention_mask) == 256
    assert len(short.ids) == 256 and sum(short.attention_mask) == 6  # [CLS] a short text . [SEP]
    (alone,) = tokenizer.encode_batch(["A short text."])
    assert len(alone.ids) == 6


def _fake_model(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / "model.safetensors").write_bytes(b"weights")
    return folder


@pytest.fixture
def exports(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Targets of the int8 export, which writes placeholder bytes instead of running the real export."""
    made: list[Path] = []

    def fake_export(model_dir: Path, target: Path) -> None:
        made.append(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"onnx bytes")

    monkeypatch.setattr(onnx_encoder, "export_int8", fake_export)
    return made


def test_the_export_is_made_once_and_reused(tmp_path: Path, exports: list[Path]) -> None:
    model, cache = _fake_model(tmp_path / "mini"), tmp_path / "cache"
    notices: list[str] = []
    first = prepare_int8(model, cache, notices.append)
    assert prepare_int8(model, cache, notices.append) == first and len(exports) == 1
    assert len(notices) == 1 and "preparing the int8 embedding model" in notices[0]
    manifest = json.loads((first.parent / "manifest.json").read_text())
    assert manifest["recipe"] == "onnx-int8.v2" and manifest["key"] == export_key(model)


def test_a_damaged_export_is_made_again(tmp_path: Path, exports: list[Path]) -> None:
    model, cache = _fake_model(tmp_path / "mini"), tmp_path / "cache"
    target = prepare_int8(model, cache, lambda _: None)
    target.write_bytes(b"onnx byt")  # truncated
    assert prepare_int8(model, cache, lambda _: None).read_bytes() == b"onnx bytes" and len(exports) == 2


def test_changed_model_files_get_their_own_export(tmp_path: Path) -> None:
    model = _fake_model(tmp_path / "mini")
    before = export_key(model)
    (model / "model.safetensors").write_bytes(b"other weights")
    assert export_key(model) != before


def test_a_model_that_is_not_mean_pooled_is_refused_with_the_way_out(tmp_path: Path) -> None:
    model = _fake_model(tmp_path / "cls-model")
    (model / "modules.json").write_text(json.dumps([
        {"type": "sentence_transformers.models.Transformer"}, {"type": "sentence_transformers.models.Pooling"},
    ]))
    (model / "1_Pooling").mkdir()
    (model / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    with pytest.raises(ModelError, match="mean-pooled models only.*EVIDENCE_EMBEDDING__BACKEND=torch"):
        check_mean_pooled(model)
    check_mean_pooled(model_directory("all-MiniLM-L6-v2"))  # the bundled model is


# --- the real export ---------------------------------------------------------------------------------------------


@pytest.mark.model
def test_int8_vectors_agree_with_torch_and_rank_alike() -> None:
    """Uses the cached export (~/.cache/evidence-ledger/models); the first run on a machine exports (~30-60 s)."""
    fp32, int8 = Embedder(TORCH).encode(SENTENCES), Embedder(ONNX).encode(SENTENCES)
    assert int8.shape == fp32.shape == (len(SENTENCES), 384) and int8.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(int8, axis=1), 1.0, atol=1e-5)
    cosine = (fp32 * int8).sum(axis=1)
    assert cosine.min() >= 0.98 and cosine.mean() >= 0.99, cosine
    question = len(SENTENCES) - 1  # its answer is the first sentence, under both backends
    for vectors in (fp32, int8):
        assert int(np.argmax(vectors[:question] @ vectors[question])) == 0
    # A text's vector does not depend on the texts embedded with it (int8 activations are scaled per batch).
    alone = np.vstack([Embedder(ONNX).encode([s]) for s in SENTENCES[:2]])
    assert np.array_equal(alone, int8[:2])
    assert np.array_equal(Embedder(ONNX).encode(SENTENCES[::-1], batch_size=2)[::-1], int8)


def test_queries_can_follow_the_backend_that_made_the_store() -> None:
    followed = embedding.settings_for_store(None, 40, ONNX)  # an old torch store, the int8 default
    assert followed is not None and followed.backend == "torch" and backend_fingerprint(followed) == (
        "torch:all-MiniLM-L6-v2"
    )
    assert embedding.settings_for_store("onnx-int8.v2:all-MiniLM-L6-v2", 40, TORCH) == ONNX.model_copy(
        update={"backend": "onnx-int8"}
    )
    assert embedding.settings_for_store(None, 0, ONNX) is ONNX
    assert embedding.settings_for_store("onnx-int8.v1:all-MiniLM-L6-v2", 40, ONNX) is None
    assert embedding.settings_for_store("torch:other-model", 40, TORCH) is None
