"""Evidence you can open: each citation's source passage with the deciding quote highlighted, its document's title,
date, path and hash, and the other passages considered; and a document viewer listing a document's chunks.

All document text goes through `plain()` (escaped Markdown: no HTML, no links, no markup); the highlight is the
only markup added, around escaped text.
"""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

from ledger.core.settings import Settings
from ledger.core.types import Chunk, DocumentInfo, EvidenceMatch, LedgerEntry, RunResult
from ledger.exports.citations import numbered_answer
from ui import services
from ui.outcome import is_phantom
from ui.services import code, guarded, plain

HIGHLIGHT = "orange"
SUPPORT_LABEL = {"full": "full support", "partial": "partial support", "none": "no support",
                 "contradicted": "contradicts"}


def quote_span(text: str, quote: str) -> tuple[int, int] | None:
    """Where the quote stands in the passage: exact, else word by word across markup and line breaks."""
    if not quote.strip():
        return None
    at = text.find(quote)
    if at >= 0:
        return at, at + len(quote)
    words = re.findall(r"\w+|[^\w\s]", quote)
    if not words:
        return None
    pattern = r"[\s*_`>#|-]*".join(re.escape(w) for w in words)
    found = re.search(pattern, text, flags=re.IGNORECASE)
    return (found.start(), found.end()) if found else None


def highlighted(text: str, quote: str) -> str:
    """The passage as escaped Markdown with the quote highlighted (line by line: a highlight cannot span lines),
    or the plain passage when the quote is not found in it."""
    span = quote_span(text, quote)
    if span is None:
        return plain(text, keep_lines=True)
    start, end = span
    pieces = []
    for line in re.split(r"(\n+)", text[start:end]):
        core = line.strip()
        if not core:
            pieces.append(plain(line, keep_lines=True))
            continue
        lead, trail = line[: len(line) - len(line.lstrip())], line[len(line.rstrip()):]
        pieces.append(f"{lead}:{HIGHLIGHT}-background[{plain(core)}]{trail}")
    return plain(text[:start], keep_lines=True) + "".join(pieces) + plain(text[end:], keep_lines=True)


def _match_meta(match: EvidenceMatch) -> str:
    date = f"{match.doc_date:%d %b %Y}" if match.doc_date else "undated"
    return (f":gray[{plain(match.document)} · {date} · {code(match.chunk_hash)} · similarity {match.similarity:.2f} · "
            f"{SUPPORT_LABEL.get(match.support, match.support)} · {match.match_type} match]")


def citation_panels(result: RunResult, config: Settings | None, *, key: str) -> None:
    """One openable panel per citation marker [n]: hover shows the deciding quote, click opens the passage."""
    _, order = numbered_answer(result.answer)
    if not order:
        return
    chunks = guarded(lambda: services.chunks(config, result.workspace, order)) if config else None
    with st.container(horizontal=True, gap="small"):
        for number, chunk_hash in enumerate(order, 1):
            uses = [(e, m) for e in result.ledger.entries for m in e.evidence if m.chunk_hash == chunk_hash]
            citing = [e for e in result.ledger.entries if chunk_hash in e.claim.cited]
            phantom = any(is_phantom(e) for e in citing) and not uses and not (chunks or {}).get(chunk_hash)
            preview = ("No such passage in this workspace (phantom citation)." if phantom else
                       (uses[0][1].quote if uses else "Cited, but not used as evidence for any claim."))
            label = f"[{number}]" + (" no such source" if phantom else "")
            with st.popover(label, help=_clip(preview, 300), icon=":material/link_off:" if phantom else None):
                passage(chunk_hash, (chunks or {}).get(chunk_hash), uses, citing, phantom=phantom)


def passage(chunk_hash: str, chunk: Chunk | None, uses: list[tuple[LedgerEntry, EvidenceMatch]],
            citing: list[LedgerEntry], *, phantom: bool = False) -> None:
    """The source passage of one citation, its quote highlighted, with its document and the claims it decided."""
    if phantom:
        st.error(f"{code(chunk_hash)} is not a passage of this workspace: the sentence citing it names a source "
                 "that does not exist (phantom citation).", icon=":material/link_off:")
        return
    lead = uses[0][1] if uses else None
    title = chunk.title if chunk else lead.document if lead else "Unknown document"
    st.markdown(f"**{plain(title)}**")
    day = chunk.doc_date if chunk else lead.doc_date if lead else None
    path = chunk.path if chunk else lead.path if lead else ""
    st.caption(f"{f'{day:%d %b %Y}' if day else 'undated'} · path {plain(path or 'unknown')} · "
               f"chunk {code(chunk_hash)}")
    with st.container(border=True):
        if chunk is not None:
            st.markdown(highlighted(chunk.text, lead.quote if lead else ""))
        elif lead is not None:
            st.markdown(f":{HIGHLIGHT}-background[{plain(lead.quote)}]")
            st.caption("The passage is no longer in the workspace; the quote is as recorded with the run.")
        else:
            st.caption("The passage is not in this workspace any more.")
    for entry, match in uses:
        st.markdown(f"**{entry.claim.id}** {plain(_clip(entry.claim.text, 160))}  \n"
                    f"{_verdict_text(entry)} · quote: “{plain(_clip(match.quote, 200))}”")
        others = [m for m in entry.evidence if m.chunk_hash != chunk_hash]
        if others:
            st.markdown("Other passages considered for this claim:")
            for other in others:
                st.markdown(f"- “{plain(_clip(other.quote, 200))}”  \n  {_match_meta(other)}")
    if not uses and citing:
        st.caption("Cited by " + ", ".join(e.claim.id for e in citing) + ", but not the evidence that decided them.")


def _verdict_text(entry: LedgerEntry) -> str:
    from ui.components import verdict_badge

    return verdict_badge(entry.verdict) + f" :gray[confidence {entry.confidence:.2f}]"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def document_viewer(config: Settings, doc: DocumentInfo) -> None:
    """A document's chunks in order, each with its hash: what the answers can quote from it."""
    st.markdown(f"**{plain(doc.title)}**  \n:gray[{plain(Path(doc.path).name)} · "
                f"{doc.date or 'undated'} · sha256 {code(doc.sha256[:16])}… · {doc.chunks} chunks]")
    found = guarded(lambda: services.chunks(config, doc.workspace, doc.chunk_hashes))
    if found is None:
        return
    for index, chunk_hash in enumerate(doc.chunk_hashes):
        chunk = found.get(chunk_hash)
        with st.container(border=True):
            st.caption(f"Chunk {index + 1} of {doc.chunks} · {code(chunk_hash)}")
            st.markdown(plain(chunk.text, keep_lines=True) if chunk else ":gray[not in the vector store]")
