"""Settings, read-only: what the runs of this server use (backend, models, thresholds), where the data lives, and
whether the audit chain holds. Change settings with EVIDENCE_* variables or the EVIDENCE_CONFIG file."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ledger.core.settings import Settings
from ui import services
from ui.services import code, guarded, plain


def rows(config: Settings) -> list[dict[str, str]]:
    """Every setting a reviewer asks about, with its environment variable; no secret is ever shown."""
    key = "configured" if services.anthropic_available(config) else "not configured"
    database = config.database_url
    if database:
        from ledger.storage.database import redact_url

        database = redact_url(database)
    items: list[tuple[str, str, object]] = [
        ("Run", "EVIDENCE_BACKEND", config.backend),
        ("Run", "EVIDENCE_WORKSPACE (default workspace)", config.workspace),
        ("Run", "EVIDENCE_USER", config.user),
        ("Models", "EVIDENCE_EMBEDDING__MODEL", config.embedding.model),
        ("Models", "EVIDENCE_JUDGE__NLI_MODEL", config.judge.nli_model or "none (local support rules)"),
        ("Models", "EVIDENCE_ANTHROPIC__WRITER_MODEL", config.anthropic.writer_model),
        ("Models", "EVIDENCE_ANTHROPIC__JUDGE_MODEL", config.anthropic.judge_model),
        ("Models", "EVIDENCE_ANTHROPIC__API_KEY", key),
    ]
    items += [("Judge thresholds", f"EVIDENCE_JUDGE__{name.upper()}", value)
              for name, value in config.judge.model_dump(exclude={"nli_model", "lexicon_dir"}).items()]
    items += [("Revision loop", f"EVIDENCE_REVISION__{name.upper()}", value)
              for name, value in config.revision.model_dump().items()]
    items += [
        ("Data", "EVIDENCE_HOME", str(config.home.resolve())),
        ("Data", "EVIDENCE_DATABASE_URL", database or f"SQLite at {config.home.resolve() / 'ledger.db'}"),
        ("Data", "EVIDENCE_CHROMA_URL", str(config.chroma_url or f"embedded, {config.chroma_path.resolve()}")),
        ("Data", "Uploads", str((config.home / "uploads").resolve()) + " (one folder per workspace)"),
        ("Audit", "EVIDENCE_AUDIT__RETENTION_DAYS", config.audit.retention_days),
        ("Audit", "EVIDENCE_AUDIT__RETENTION_BY_WORKSPACE", config.audit.retention_by_workspace or "none"),
    ]
    return [{"Section": section, "Setting": name, "Value": str(value)} for section, name, value in items]


def render() -> None:
    """The Settings page."""
    config = guarded(services.settings)
    if config is None:
        return
    st.title("Settings", anchor=False)
    st.caption("Read-only: the settings every run of this server uses. Change them with `EVIDENCE_*` environment "
               "variables or the TOML file named by `EVIDENCE_CONFIG`, then restart `evidence ui`.")
    st.dataframe(pd.DataFrame(rows(config)), hide_index=True, width="stretch")
    st.subheader("Audit chain", anchor=False)
    store = guarded(lambda: services.run_store(config))
    if store is None:
        return
    report = guarded(store.verify)
    if report is None:
        return
    if report.ok:
        st.success(f"Intact: {report.rows_checked} audit rows re-hashed, {report.runs_checked} stored runs match "
                   f"their rows. Head {code(report.head_hash)}.", icon=":material/verified:")
    else:
        bad = report.first_bad
        where = f"row {bad.id}" if bad is not None and bad.id is not None else "the chain head"
        st.error(f"Broken at {where}: {plain(bad.reason) if bad else 'unknown reason'}", icon=":material/gpp_bad:")
