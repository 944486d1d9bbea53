"""Build a backend's judge and roles from settings: `local` (offline) or `anthropic` (Claude)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ingest.embedding import Embedder
from ledger.backends.base import CallMeter
from ledger.core.settings import Settings
from ledger.judge.judge import Judge

if TYPE_CHECKING:
    import httpx2

    from ledger.loop.pipeline import Roles


def build_backend(
    settings: Settings,
    *,
    workspace: str | None = None,
    today: date | None = None,
    judge: Judge | None = None,
    embedder: Embedder | None = None,
    http_client: httpx2.Client | None = None,
) -> tuple[Judge, Roles]:
    """The judge and roles of `settings.backend`; `http_client` lets tests fake Claude at the HTTP layer."""
    from ledger.loop.pipeline import Roles

    embedder = embedder or (judge.embedder if judge else Embedder(settings.embedding))
    meter = CallMeter()
    if settings.backend == "anthropic":
        from ledger.backends.anthropic.client import ClaudeClient
        from ledger.backends.anthropic.roles import (
            ClaudeClaimExtractor,
            ClaudeReviser,
            ClaudeSkeptic,
            ClaudeSupportChecker,
            ClaudeWriter,
        )

        client = ClaudeClient(settings.anthropic, meter, http_client=http_client)
        extractor = ClaudeClaimExtractor(client, settings.anthropic)
        judge = judge or Judge(
            settings, workspace=workspace, embedder=embedder, today=today,
            checker=ClaudeSupportChecker(client, settings.anthropic, embedder), extractor=extractor,
        )
        roles = Roles(
            writer=ClaudeWriter(client, settings.anthropic),
            skeptic=ClaudeSkeptic(client, settings.anthropic),
            reviser=ClaudeReviser(client, settings.anthropic),
            gaps=extractor,
            meter=meter,
        )
        return judge, roles

    from ledger.backends.local import LocalGapFinder, LocalWriter, RuleReviser, RuleSkeptic

    judge = judge or Judge(settings, workspace=workspace, embedder=embedder, today=today)
    writer = LocalWriter(embedder, settings)
    return judge, Roles(
        writer=writer,
        skeptic=RuleSkeptic(),
        reviser=RuleReviser(embedder, settings),
        gaps=LocalGapFinder(),
        meter=meter,
    )
