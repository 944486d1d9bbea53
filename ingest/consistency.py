"""Registry ↔ Chroma ↔ files: the checks of `evidence doctor`, each finding one line, repaired where it can be.

A workspace is checked under its ingest lock, so vectors an ingest has written but not yet registered are never
taken for orphans. Repairs: orphan vectors are deleted; missing vectors are copied from the workspace's
old-naming collection when it has them, else re-embedded from the source file when that file is still there
with the same bytes. A source file that is gone or changed is reported, not touched: `evidence ingest` (with
`--prune` for files that are gone) is the user's decision.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path

from ingest.pipeline import Ingestor
from ingest.vectorstore import drop_collection, legacy_collections
from ledger.core.locks import WaitNotice
from ledger.core.settings import Settings
from ledger.core.types import DocumentInfo, Finding
from ledger.core.workspaces import legacy_collection_name

ORPHAN_VECTORS = "orphan_vectors"
MISSING_VECTORS = "missing_vectors"
SOURCE_MISSING = "source_missing"
SOURCE_CHANGED = "source_changed"
LEGACY_COLLECTION = "legacy_collection"


def check_workspace(ingestor: Ingestor, repair: bool = False, on_wait: WaitNotice | None = None) -> list[Finding]:
    """Findings of one workspace: orphan vectors, missing vectors, registered files gone or changed."""
    with ingestor.lock.hold(on_wait):
        findings = _orphans(ingestor, repair)
        known = ingestor.registry.by_id()
        missing = ingestor.missing_vectors(known)
        if repair and missing and ingestor.store.adopt_legacy({i for ids in missing.values() for i in ids}):
            copied_from = missing
            missing = ingestor.missing_vectors(known)
            for doc_id in sorted(set(copied_from) - set(missing), key=lambda d: known[d].path):
                findings.append(_missing(ingestor, known[doc_id], len(copied_from[doc_id]), True,
                                         "copied from the collection of the old workspace naming"))
        states = {doc_id: _source_state(doc) for doc_id, doc in known.items()}
        rebuildable = [doc_id for doc_id in missing if states[doc_id] == "same"]
        if repair and rebuildable:
            ingestor.run([Path(known[doc_id].path) for doc_id in rebuildable])
            still = ingestor.missing_vectors(known)
        else:
            still = missing
        for doc_id in sorted(missing, key=lambda d: known[d].path):
            doc, n = known[doc_id], len(missing[doc_id])
            if doc_id not in still and repair:
                findings.append(_missing(ingestor, doc, n, True, "re-embedded from the source file"))
            else:
                findings.append(_missing(ingestor, doc, n, False, _why_not(states[doc_id], repair)))
        for doc_id, doc in sorted(known.items(), key=lambda item: item[1].path):
            if doc_id in missing or states[doc_id] == "same":
                continue
            findings.append(_source_finding(ingestor.workspace, doc, states[doc_id]))
        return findings


def check_legacy_collections(
    settings: Settings, workspaces: list[str], healthy: set[str], repair: bool = False
) -> list[Finding]:
    """Collections left by the old workspace naming; dropped by `--repair` once every workspace that used one
    has all its vectors in its own collection (`healthy`)."""
    users: dict[str, list[str]] = defaultdict(list)
    for workspace in workspaces:
        users[legacy_collection_name(workspace)].append(workspace)
    findings = []
    for name in legacy_collections(settings):
        waiting = sorted(w for w in users.get(name, []) if w not in healthy)
        if repair and not waiting:
            drop_collection(settings, name)
            findings.append(Finding(kind=LEGACY_COLLECTION, subject=name, repaired=True,
                                    detail="collection of the old workspace naming, no longer needed: deleted"))
        else:
            reason = (f"{_workspaces(waiting)} still missing vectors; repair that first" if waiting
                      else "run `evidence doctor --repair` to delete it")
            findings.append(Finding(kind=LEGACY_COLLECTION, subject=name,
                                    detail=f"collection of the old workspace naming (names that differ only in "
                                           f"punctuation shared it); {reason}"))
    return findings


def _orphans(ingestor: Ingestor, repair: bool) -> list[Finding]:
    orphans = ingestor.orphans()
    if not orphans:
        return []
    by_doc: dict[str, list[str]] = defaultdict(list)
    for vid in orphans:
        by_doc[vid.split(":", 1)[0]].append(vid)
    paths = ingestor.store.paths_of([ids[0] for ids in by_doc.values()])
    if repair:
        ingestor.store.delete(orphans)
    findings = []
    for doc_id, ids in sorted(by_doc.items(), key=lambda item: paths.get(item[1][0], item[0])):
        subject = paths.get(ids[0]) or f"document {doc_id}"
        what = f"{len(ids)} vector{'s' if len(ids) != 1 else ''} that no registered document lists"
        findings.append(Finding(kind=ORPHAN_VECTORS, subject=subject, workspace=ingestor.workspace, repaired=repair,
                                detail=f"{what}: deleted" if repair else what))
    return findings


def _missing(ingestor: Ingestor, doc: DocumentInfo, n: int, repaired: bool, how: str) -> Finding:
    what = f"{n} of {len(doc.chunk_hashes)} chunks have no vectors, so no question can find them"
    return Finding(kind=MISSING_VECTORS, subject=doc.path, workspace=ingestor.workspace, repaired=repaired,
                   detail=f"{what}; {how}")


def _why_not(state: str, repair: bool) -> str:
    if state == "gone":
        return "the source file is gone, so they cannot be re-embedded (`evidence ingest --prune` drops the document)"
    if state == "changed":
        return "the source file changed since it was indexed; `evidence ingest` indexes the new version"
    if state == "unreadable":
        return "the source file cannot be read, so they cannot be re-embedded"
    return "re-embedding failed" if repair else "`evidence doctor --repair` re-embeds them from the source file"


def _source_finding(workspace: str, doc: DocumentInfo, state: str) -> Finding:
    if state == "gone":
        return Finding(kind=SOURCE_MISSING, subject=doc.path, workspace=workspace,
                       detail="registered, but the file is gone; `evidence ingest FOLDER --prune` drops it")
    if state == "unreadable":
        return Finding(kind=SOURCE_MISSING, subject=doc.path, workspace=workspace,
                       detail="registered, but the file is not a readable regular file any more")
    return Finding(kind=SOURCE_CHANGED, subject=doc.path, workspace=workspace,
                   detail="the file changed since it was indexed; `evidence ingest` indexes the new version")


def _source_state(doc: DocumentInfo) -> str:
    """'same', 'changed', 'gone' or 'unreadable' (never opens a FIFO or a device: regular files only)."""
    path = Path(doc.path)
    try:
        if not path.exists():
            return "gone"
        if not path.is_file():
            return "unreadable"
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return "unreadable"
    return "same" if digest.hexdigest() == doc.sha256 else "changed"


def _workspaces(names: list[str]) -> str:
    return ("workspace " if len(names) == 1 else "workspaces ") + ", ".join(map(repr, names)) + (
        " is" if len(names) == 1 else " are")
