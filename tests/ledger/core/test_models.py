"""Model loading: local directories and HF_HUB_OFFLINE mean local files only, and the environment is left alone."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from ledger.core.errors import ModelError
from ledger.core.models import BUNDLED_MODEL, load_tokenizer, local_files_only, map_in_threads, resolve_model_path


@pytest.mark.parametrize(
    ("is_dir", "variable", "default", "expected"),
    [
        (True, None, False, True),  # a directory never reaches for a hub
        (True, "0", False, True),
        (False, None, False, False),  # a hub id: the hub, unless the variable says otherwise
        (False, None, True, True),  # ... or the loader's default (the NLI model: offline unless told)
        (False, "1", False, True),
        (False, "true", False, True),
        (False, " YES ", False, True),
        (False, "0", True, False),
        (False, "off", True, False),
        (False, "", True, False),
    ],
)
def test_local_files_only(is_dir: bool, variable: str | None, default: bool, expected: bool) -> None:
    assert local_files_only(is_dir, variable, offline_by_default=default) is expected


def test_the_bundled_model_name_is_its_package_directory() -> None:
    assert Path(resolve_model_path(BUNDLED_MODEL)).is_dir()
    assert resolve_model_path(f"sentence-transformers/{BUNDLED_MODEL}") == resolve_model_path(BUNDLED_MODEL)
    assert resolve_model_path("cross-encoder/nli-deberta-v3-xsmall") == "cross-encoder/nli-deberta-v3-xsmall"


def test_loading_the_bundled_model_offline_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)  # sockets are still blocked: a hub call would fail
    before = dict(os.environ)
    tokenizer = load_tokenizer.__wrapped__(BUNDLED_MODEL)  # past the per-process cache, so it really loads
    assert tokenizer.encode("hotel cap", add_special_tokens=False)
    assert dict(os.environ) == before


def test_a_missing_model_is_a_one_line_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as caught:
        load_tokenizer.__wrapped__(str(tmp_path / "no-such-model"))
    message = str(caught.value)
    assert message.startswith(f"cannot load tokenizer of '{tmp_path / 'no-such-model'}': ") and "\n" not in message


def test_model_calls_run_side_by_side_and_come_back_in_order() -> None:
    together = threading.Barrier(2, timeout=10)  # broken unless two calls are running at the same time

    def call(n: int) -> int:
        together.wait()
        return n * n

    assert map_in_threads(call, list(range(6)), workers=2) == [0, 1, 4, 9, 16, 25]


def test_one_worker_runs_in_the_callers_thread() -> None:
    assert map_in_threads(lambda _: threading.get_ident(), [1, 2, 3], workers=1) == [threading.get_ident()] * 3
    assert map_in_threads(lambda n: n, []) == []


def test_a_call_from_a_pool_thread_runs_there_instead_of_waiting_on_its_own_pool() -> None:
    def outer(n: int) -> list[int]:
        return map_in_threads(lambda m: m + n, [1, 2, 3], workers=2)

    assert map_in_threads(outer, [10, 20], workers=2) == [[11, 12, 13], [21, 22, 23]]

