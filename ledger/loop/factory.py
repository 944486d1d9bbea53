"""The composition root: the one place that builds the product's parts from settings and wires them together.

The CLI, the UI, the benches and the tests build through here; every other constructor takes its collaborators
and builds nothing of its own. Claude is built only for `backend = "anthropic"`, so offline runs never import
its SDK; `http_client` lets tests fake Claude at the HTTP layer.

Each builder imports what it builds when it is called: `evidence docs` needs the registry only, and must not pay
for torch, Chroma, LlamaIndex and NLTK at start-up (tests/ledger/cli/test_cold_start.py guards it).
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ledger.core.settings import Settings
from ledger.core.workspaces import validate_workspace

if TYPE_CHECKING:
    import httpx2

    from ingest.embedding import Embedder
    from ingest.pipeline import Ingestor
    from ingest.retrieval import Retriever
    from ledger.backends.anthropic.client import ClaudeClient
    from ledger.backends.base import Roles
    from ledger.judge.calibration import Platt
    from ledger.judge.judge import Judge
    from ledger.judge.nli import NliThresholds
    from ledger.judge.substitutions import ContrastModel
    from ledger.judge.support import SupportChecker
    from ledger.loop.pipeline import Pipeline
    from ledger.loop.recorded import RecordedPipeline
    from ledger.storage.calibrations import CalibrationStore
    from ledger.storage.documents import Registry
    from ledger.storage.runs import RunStore

log = logging.getLogger(__name__)


def build_embedder(settings: Settings) -> Embedder:
    """The sentence embedder of the settings (the model itself loads on first use, once per process)."""
    from ingest.embedding import Embedder

    return Embedder(settings.embedding)


def vector_cache_dir(settings: Settings) -> Path:
    """Where runs keep sentence vectors between them (`ingest.vector_cache`): the home's `cache/vectors`."""
    return settings.home / "cache" / "vectors"


def workspace_of(settings: Settings, workspace: str | None = None) -> str:
    """The workspace named (else the settings' one), checked: raises InvalidWorkspace with what is allowed."""
    return validate_workspace(workspace if workspace is not None else settings.workspace)


def known_workspaces(settings: Settings) -> list[str]:
    """Workspaces that have registered documents (names as stored, not re-validated)."""
    from ledger.storage.database import open_engine
    from ledger.storage.documents import workspaces

    return workspaces(open_engine(settings))


def build_ingestor(settings: Settings, workspace: str | None = None, *, embedder: Embedder | None = None) -> Ingestor:
    """An ingestor for one workspace."""
    from ingest.pipeline import Ingestor
    from ingest.vectorstore import VectorStore
    from ledger.storage.database import open_engine
    from ledger.storage.documents import Registry
    from ledger.storage.keywords import KeywordIndex

    workspace = workspace_of(settings, workspace)
    return Ingestor(
        settings,
        workspace,
        embedder=embedder or build_embedder(settings),
        store=VectorStore(settings, workspace),
        registry=Registry(open_engine(settings), workspace),
        keywords=KeywordIndex(open_engine(settings), workspace),
    )


def build_registry(settings: Settings, workspace: str | None = None) -> Registry:
    """The document registry of one workspace."""
    from ledger.storage.database import open_engine
    from ledger.storage.documents import Registry

    return Registry(open_engine(settings), workspace_of(settings, workspace))


def build_run_store(settings: Settings) -> RunStore:
    """The store of runs, ledgers and audit rows."""
    from ledger.storage.database import open_engine
    from ledger.storage.runs import RunStore

    return RunStore(open_engine(settings), settings)


def build_contrasts(settings: Settings) -> ContrastModel | None:
    """The learned word-contrast model of the local checker, unless `judge.learned_contrasts` is off."""
    if not settings.judge.learned_contrasts:
        return None
    from ledger.judge.substitutions import bundled_contrast_model

    return bundled_contrast_model()


def nli_thresholds(settings: Settings) -> NliThresholds:
    """When the NLI model's probabilities change a local check, from the judge's settings."""
    from ledger.judge.nli import NliThresholds

    j = settings.judge
    return NliThresholds(contradiction=j.nli_overrule, rescue=j.nli_rescue, refute=j.nli_refute, related=j.nli_related,
                         unstated=j.nli_unstated)


def build_support_checker(settings: Settings, embedder: Embedder) -> SupportChecker:
    """The NLI checker when `judge.nli_model` is set and loads; otherwise the local checker, with one warning."""
    from ledger.core.errors import ModelError
    from ledger.core.models import load_cross_encoder
    from ledger.judge.checker_model import BUNDLED_CHECKER, load_bundled_checker
    from ledger.judge.nli import CrossEncoderSupportChecker
    from ledger.judge.support import LocalSupportChecker

    local = LocalSupportChecker(embedder, settings.judge, contrasts=build_contrasts(settings))
    model_name = settings.judge.nli_model
    if not model_name:
        return local
    try:
        model = (load_bundled_checker() if model_name == BUNDLED_CHECKER
                 else load_cross_encoder(model_name, settings.embedding.device))
        return CrossEncoderSupportChecker(model_name, local, model, thresholds=nli_thresholds(settings))
    except ModelError as exc:
        reason = str(exc).splitlines()[0][:160]
        if "connect" in reason or "offline" in reason.lower() or "cached" in reason:
            reason = "not in the local model cache, and no model hub is reachable"
        log.warning("NLI model %s unavailable (%s); using the local support checker", model_name, reason)
        return local


def build_judge(
    settings: Settings,
    workspace: str | None = None,
    *,
    embedder: Embedder,
    checker: SupportChecker | None = None,
    today: date | None = None,
) -> Judge:
    """The judge of one workspace; its candidate search and its support checker share one embedding cache."""
    from ingest.embedding import CachedEmbedder
    from ledger.judge.judge import Judge

    embedder = embedder if isinstance(embedder, CachedEmbedder) else CachedEmbedder(embedder, disk=vector_cache_dir(
        settings))
    retriever = build_retriever(settings, workspace, embedder=embedder)
    return Judge(
        retriever.store,
        retriever,
        checker or build_support_checker(settings, embedder),
        settings.judge,
        today or date.today(),
        calibration=build_calibration(settings, workspace),
    )


def build_retriever(settings: Settings, workspace: str | None = None, *, embedder: Embedder) -> Retriever:
    """Hybrid search over one workspace: its Chroma collection and its keyword index. Queries embed with the backend
    that made the workspace's vectors, whatever the setting says now (VectorStore.query_embedder)."""
    from ingest.retrieval import Retriever
    from ingest.vectorstore import VectorStore
    from ledger.backends.local.questions import without_answer_kind
    from ledger.judge.candidates import sentences_to_read, shared_pairs
    from ledger.storage.database import open_engine
    from ledger.storage.keywords import KeywordIndex
    from ledger.text.lexicon import lexicon

    workspace = workspace_of(settings, workspace)
    store = VectorStore(settings, workspace)
    keywords = KeywordIndex(open_engine(settings), workspace, lexicon().word_set("stopwords", "key_terms"))
    return Retriever(store, store.query_embedder(embedder), keywords, sentences=sentences_to_read,
                     keyword_text=without_answer_kind, phrases=shared_pairs)


def build_calibration(settings: Settings, workspace: str | None = None) -> Platt | None:
    """The workspace's Platt scaling, if `evidence calibrate` fitted one."""
    from ledger.judge.calibration import Platt

    row = build_calibration_store(settings).get(workspace_of(settings, workspace))
    return Platt(a=row.a, b=row.b, n=row.n) if row else None


def build_calibration_store(settings: Settings) -> CalibrationStore:
    """Where each workspace's calibration is kept."""
    from ledger.storage.calibrations import CalibrationStore
    from ledger.storage.database import open_engine

    return CalibrationStore(open_engine(settings))


def build_pipeline(
    settings: Settings,
    workspace: str | None = None,
    *,
    embedder: Embedder | None = None,
    today: date | None = None,
    http_client: httpx2.Client | None = None,
) -> Pipeline:
    """The full loop of `settings.backend` over one workspace."""
    from ingest.embedding import CachedEmbedder
    from ledger.loop.pipeline import Pipeline

    workspace = workspace_of(settings, workspace)
    # Every role of the run shares its vectors, and runs share them through the home's vector cache.
    embedder = CachedEmbedder(embedder or build_embedder(settings), disk=vector_cache_dir(settings))
    today = today or date.today()
    if settings.backend == "anthropic":
        client = _claude(settings, http_client)
        from ledger.backends.anthropic.roles import ClaudeSupportChecker, claude_roles

        judge = build_judge(
            settings, workspace, embedder=embedder, today=today,
            checker=ClaudeSupportChecker(client, settings.anthropic, embedder),
        )
        roles = claude_roles(client, settings.anthropic)
    else:
        judge = build_judge(settings, workspace, embedder=embedder, today=today)
        roles = _local_roles(settings, embedder)
    return Pipeline(settings, workspace=workspace, retriever=judge.retriever, judge=judge, roles=roles, today=today)


def build_recorded(
    settings: Settings,
    workspace: str | None = None,
    *,
    embedder: Embedder | None = None,
    today: date | None = None,
    http_client: httpx2.Client | None = None,
) -> RecordedPipeline:
    """The full loop whose every run is stored with its audit row."""
    from ledger.loop.recorded import RecordedPipeline

    pipeline = build_pipeline(settings, workspace, embedder=embedder, today=today, http_client=http_client)
    return RecordedPipeline(settings, pipeline, build_run_store(settings))


def _local_roles(settings: Settings, embedder: Embedder) -> Roles:
    from ledger.backends.base import Roles
    from ledger.backends.local import LocalWriter, RuleClaimExtractor, RuleReviser, RuleSkeptic

    writer = LocalWriter(embedder, settings.revision)
    return Roles(writer=writer, skeptic=RuleSkeptic(), extractor=RuleClaimExtractor(), reviser=RuleReviser(writer))


def _claude(settings: Settings, http_client: httpx2.Client | None) -> ClaudeClient:
    from ledger.backends.anthropic.client import ClaudeClient

    return ClaudeClient(settings.anthropic, http_client=http_client)
