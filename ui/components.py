"""The shared view of one run: answer with numbered sources, metrics, ledger, claim details, revisions, export.

Every text that comes from a document, a model or a user goes through `plain()`: Markdown shows it literally,
and nothing here renders HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from ledger.audit.types import AuditRecord
from ledger.core.types import EvidenceLedger, EvidenceMatch, LedgerEntry, RevisionAttempt, RunResult
from ledger.exports.citations import numbered_answer
from ledger.exports.json_csv import FORMATS, export_run
from ui.outcome import change_vs_draft, completeness_label, coverage_label, shown_verdict, unsupported_label
from ui.services import BACKEND_LABELS, code, guarded, plain

VERDICT_LABEL = {"supported": "Supported", "weak": "Weak", "contradicted": "Contradicted", "not_found": "Not found"}
VERDICT_COLOR = {"supported": "green", "weak": "orange", "contradicted": "red", "not_found": "violet"}
VERDICT_ICON = {
    "supported": ":material/check_circle:",
    "weak": ":material/help:",
    "contradicted": ":material/cancel:",
    "not_found": ":material/search_off:",
}
PHANTOM_MARK = " :red-badge[:material/link_off: cites a source that does not exist]"
RISK_COLOR = {"low": "blue", "medium": "orange", "high": "red", "critical": "red"}
MODE_LABEL = {"answer": "Answer", "verify": "Draft check"}


def verdict_badge(verdict: str) -> str:
    """A coloured Markdown badge for a verdict (static text only)."""
    return f":{VERDICT_COLOR[verdict]}-badge[{VERDICT_LABEL[verdict]}]"


def _header(result: RunResult, record: AuditRecord | None, key: str,
            reviews: Sequence[AuditRecord] = ()) -> None:
    st.subheader(plain(result.question), anchor=False)
    about, actions = st.columns([5, 2], vertical_alignment="center")
    when = f" · {record.timestamp:%Y-%m-%d %H:%M} UTC" if record else ""
    about.caption(
        f"{MODE_LABEL[result.mode]} · {BACKEND_LABELS.get(result.backend, plain(result.backend))} · "
        f"workspace {plain(result.workspace)} · {result.duration_ms / 1000:.1f} s{when} · "
        f"session {code(result.session_id)}" + (f" · by {plain(record.user_id)}" if record else "")
    )
    if record is not None:
        with actions, st.container(horizontal=True, horizontal_alignment="right"):
            export_buttons(result, record, key=key, reviews=reviews)


def export_buttons(result: RunResult, record: AuditRecord, *, key: str, reviews: Sequence[AuditRecord] = ()) -> None:
    """Download buttons for the JSON, CSV and HTML exports of a stored run, with its sign-offs (`reviews`): each
    records which suggested changes were accepted, or that the revision was not reviewed."""
    for fmt in FORMATS:
        exported = guarded(lambda fmt=fmt: export_run(result, record, fmt, reviews))  # type: ignore[misc]
        if exported is None:
            return
        st.download_button(
            fmt.upper(), data=exported.data, file_name=f"evidence-{result.session_id}.{fmt}",
            mime=exported.media_type, on_click="ignore", icon=":material/download:", key=f"{key}-export-{fmt}",
            help=f"Export this run and its audit row as {fmt.upper()} (sha256 {exported.sha256[:12]}…)",
        )


def _metrics(result: RunResult) -> None:
    summary = result.ledger.summary
    first = result.revisions[0].ledger.summary if len(result.revisions) > 1 else None
    comparable = first is not None and first.total_claims > 0 and summary.total_claims > 0
    cols = [*st.columns(3), *st.columns(3)]  # two rows: six in one row cut their labels and values short ("Medi…")
    def change(before: float, after: float, colour: str) -> dict[str, Any]:
        """The delta of a rate against the draft's: none without a comparable draft, grey and arrowless when equal."""
        if not (comparable and first):
            return {}
        text, changed = change_vs_draft(before, after)
        return {"delta": text, "delta_arrow": "auto" if changed else "off", "delta_color": colour if changed else "off"}

    cols[0].metric(
        "Evidence coverage", coverage_label(summary), border=True,
        **change(first.evidence_coverage if first else 0.0, summary.evidence_coverage, "normal"),
        help="(supported + weak) / claims that are not minor; n/a when the answer makes no claims",
    )
    cols[1].metric(
        "Unsupported rate", unsupported_label(summary), border=True,
        **change(first.unsupported_rate if first else 0.0, summary.unsupported_rate, "inverse"),
        help="not_found / claims that are not minor; n/a when the answer makes no claims",
    )
    counts = " · ".join(f"{n} {VERDICT_LABEL[v].lower()}" for v, n in summary.verdicts.items() if n and v in
                        VERDICT_LABEL)
    cols[2].metric("Claims", summary.total_claims, border=True, help=counts or "no claims")
    cols[3].metric("Completeness", completeness_label(result.ledger), border=True,
                   help="Share of the question's parts the answer covers")
    cols[4].metric("Critical unsupported", summary.critical_unsupported, border=True,
                   help="Critical claims that are not found or contradicted")
    cols[5].metric("Topic risk", result.risk_level.capitalize(), border=True,
                   help="How sensitive the question's subject is: medical, legal and financial topics rate higher")
    if result.ledger.gaps:
        st.markdown("**Parts of the question not answered:** " + "; ".join(plain(g) for g in result.ledger.gaps))


def _alerts(result: RunResult) -> None:
    for flag in result.risk_flags:
        text = f"**Risk · {plain(flag.type)}** ({flag.severity}): {plain(flag.description)}"
        if flag.severity == "high":
            st.error(text, icon=":material/report:")
        elif flag.severity == "medium":
            st.warning(text, icon=":material/warning:")
        else:
            st.info(text, icon=":material/info:")
    for warning in result.warnings:
        details = "".join(f"\n- {plain(d)}" for d in warning.details)
        st.warning(f"**{plain(warning.code)}**: {plain(warning.message)}{details}", icon=":material/flag:")


def _answer(answer: str, ledger: EvidenceLedger, *, title: str = "Answer", legend: bool = True) -> None:
    with st.container(border=True):
        st.markdown(f"**{title}**")
        if not answer.strip():
            st.caption("No answer text.")
            return
        st.markdown(answer_markdown(answer, ledger.entries))
        if legend and ledger.entries:
            st.caption("  ".join(
                f":{VERDICT_COLOR[v]}-background[{VERDICT_LABEL[v]}]" for v in VERDICT_LABEL
            ) + " — each sentence is shaded by its verdict; [n] marks a cited source: open it below")


def answer_markdown(answer: str, entries: Sequence[LedgerEntry]) -> str:
    """The answer as Markdown: citations numbered [1], [2], …, each claim shaded by its verdict, all text escaped."""
    numbered, _ = numbered_answer(answer)
    cuts: list[tuple[int, int, str | None]] = []
    pos = 0
    for entry in sorted(entries, key=lambda e: e.claim.span):
        start, end = entry.claim.span
        if start < pos or end <= start or end > len(answer):
            continue  # overlapping or stale spans: leave that text unshaded
        if start > pos:
            cuts.append((pos, start, None))
        cuts.append((start, end, shown_verdict(entry)))
        pos = end
    if pos < len(answer):
        cuts.append((pos, len(answer), None))
    done, pieces = "", []
    for _, end, verdict in cuts:
        upto = numbered_answer(answer[:end])[0]
        if not upto.startswith(done):  # a span cut through a citation: shade nothing rather than misnumber
            return plain(numbered, keep_lines=True)
        pieces.append(_shade(upto[len(done):], verdict))
        done = upto
    return "".join(pieces) if done == numbered else plain(numbered, keep_lines=True)


def _shade(segment: str, verdict: str | None) -> str:
    core = segment.strip()
    if verdict is None or not core or "\n" in core:
        return plain(segment, keep_lines=True)
    lead = segment[: len(segment) - len(segment.lstrip())]
    trail = segment[len(segment.rstrip()):]
    if verdict == "phantom":  # never the colour of a proved claim, whatever the search found afterwards
        return (f"{plain(lead, keep_lines=True)}:red-background[{plain(core)}]{PHANTOM_MARK}"
                f"{plain(trail, keep_lines=True)}")
    return f"{plain(lead, keep_lines=True)}:{VERDICT_COLOR[verdict]}-background[{plain(core)}]" \
           f"{plain(trail, keep_lines=True)}"


def _sources(result: RunResult) -> None:
    _, order = numbered_answer(result.answer)
    matches: dict[str, EvidenceMatch] = {}
    for entry in result.ledger.entries:
        for match in entry.evidence:
            matches.setdefault(match.chunk_hash, match)
    phantoms = {h for e in result.ledger.entries if "phantom_citation" in e.flags for h in e.claim.cited}
    with st.container(border=True):
        st.markdown("**Sources**")
        if not order:
            st.caption("The answer cites no sources.")
        for number, chunk in enumerate(order, 1):
            source = matches.get(chunk)
            if source is not None:
                date = f" · {source.doc_date:%d %b %Y}" if source.doc_date else ""
                name = plain(Path(source.path).name) if source.path else "path unknown"
                st.markdown(f"**[{number}]** {plain(source.document)}{date}  \n:gray[{code(chunk)} · {name}]")
            elif chunk in phantoms:
                st.markdown(f"**[{number}]** :red[{code(chunk)} — no such chunk in this workspace (phantom citation)]")
            else:
                st.markdown(f"**[{number}]** {code(chunk)} :gray[— cited, but not used as evidence for any claim]")


def ledger_table(ledger: EvidenceLedger) -> None:
    """One row per claim: the claim, its verdict in colour with confidence, the deciding quote and its document."""
    if not ledger.entries:
        st.info("The answer makes no checkable claims.", icon=":material/info:")
        return
    rows = []
    for entry in ledger.entries:
        claim, lead = entry.claim, _deciding(entry)
        evidence = (f"“{plain(_clip(lead.quote, 220))}”  \n:gray[— {plain(lead.document)} · {code(lead.chunk_hash)} · "
                    f"similarity {lead.similarity:.2f}]" if lead else ":gray[no passage in the corpus states this]")
        rows.append({
            "Id": claim.id,
            "Claim": f"{plain(claim.text)}  \n:gray[{claim.type} · {claim.importance}]",
            "Verdict": f"{verdict_badge(entry.verdict)}  \n:gray[confidence {entry.confidence:.2f}]",
            "Deciding evidence": evidence,
            "Flags": " ".join(f":orange-badge[{plain(flag.replace('_', ' '))}]" for flag in entry.flags) or "—",
        })
    st.table(pd.DataFrame(rows), hide_index=True, border="horizontal")


def _deciding(entry: LedgerEntry) -> EvidenceMatch | None:
    return entry.evidence[0] if entry.evidence and entry.verdict != "not_found" else None


def claim_details(ledger: EvidenceLedger) -> None:
    """One expander per claim: the deciding quote, its document, similarity, support, flags and notes."""
    for entry in ledger.entries:
        claim = entry.claim
        label = f"**{claim.id}** {verdict_badge(entry.verdict)} {plain(_clip(claim.text, 110))}"
        with st.expander(label, icon=VERDICT_ICON[entry.verdict]):
            cited = ", ".join(code(h) for h in claim.cited) or "nothing"
            st.markdown(f"{plain(claim.text)}  \n:gray[{claim.type} · {claim.importance} · confidence "
                        f"{entry.confidence:.2f} · cites {cited}]")
            lead = _deciding(entry)
            if lead is not None:
                st.markdown("**Deciding quote**")
                _quote(lead)
            else:
                st.markdown("**No passage in the corpus states this.**")
            if entry.flags:
                with st.container(horizontal=True, gap="small"):
                    for flag in entry.flags:
                        st.badge(plain(flag.replace("_", " ")), color="red" if flag == "phantom_citation" else "orange",
                                 icon=":material/flag:")
            if entry.notes:
                st.markdown(f"**Notes:** {plain(entry.notes)}")
            others = entry.evidence[1:] if lead is not None else entry.evidence
            if others:
                st.markdown("**Other passages considered**" if lead else "**Closest passages (not enough)**")
                for match in others:
                    _quote(match)


def _quote(match: EvidenceMatch) -> None:
    st.markdown("> " + plain(match.quote))
    date = f" ({match.doc_date:%d %b %Y})" if match.doc_date else ""
    reason = f"  \n:gray[{plain(match.reason)}]" if match.reason else ""
    st.markdown(
        f":gray[— {plain(match.document)}{date} · {code(match.chunk_hash)} · similarity {match.similarity:.2f} · "
        f"support **{match.support}** · {match.match_type} match]{reason}"
    )


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def revision_history(result: RunResult) -> None:
    """Each round of the loop: its response, its critique and the decision taken after it."""
    if not result.revisions:
        st.info("No revision rounds were recorded.", icon=":material/info:")
        return
    last = len(result.revisions) - 1
    for number, attempt in enumerate(result.revisions):
        name = ("Draft as given" if result.mode == "verify" else "First draft") if number == 0 else f"Revision {number}"
        summary = attempt.ledger.summary
        claims = f"{summary.total_claims} claim{'' if summary.total_claims == 1 else 's'}"
        label = (f"**{name}** · coverage {summary.evidence_coverage:.0%} · {claims}"
                 + (" · final" if number == last else ""))
        with st.expander(label, expanded=number == last and last > 0):
            _round(attempt, name)


def _round(attempt: RevisionAttempt, name: str) -> None:
    _answer(attempt.response, attempt.ledger, title=f"Response ({name.lower()})", legend=False)
    counts = " · ".join(f"{verdict_badge(v)} {n}" for v, n in attempt.ledger.summary.verdicts.items()
                        if n and v in VERDICT_LABEL)
    if counts:
        st.markdown(counts)
    st.markdown("**Critique**")
    critique = attempt.critique
    if critique.summary:
        st.markdown(plain(critique.summary))
    if critique.issues:
        st.markdown("\n".join(
            f"- :orange-badge[{plain(issue.kind)}] {plain(issue.message)}"
            + (f"  \n  :gray[{plain(_clip(issue.sentence, 160))}]" if issue.sentence else "")
            for issue in critique.issues
        ))
    elif not critique.summary:
        st.caption("The skeptic raised no issues.")
    st.markdown("**Decision**")
    decision = attempt.decision
    if decision is None:
        st.caption("No decision recorded for this round.")
        return
    verb = ":orange-badge[Revise]" if decision.should_revise else ":green-badge[Stop]"
    st.markdown(f"{verb} {plain(decision.reason)}")
    if decision.instructions:
        st.markdown("\n".join(f"- {plain(i)}" for i in decision.instructions))


def audit_details(result: RunResult, record: AuditRecord | None) -> None:
    """The run's audit row: who, when, hashes, retrieved chunks, calls and tokens."""
    if record is None:
        st.caption("This run has no audit row.")
        return
    usage = record.token_usage
    chunks = ", ".join(code(h) for h in record.retrieved_chunk_ids) or "none"
    st.markdown("\n".join([
        f"- **Recorded** {record.recorded_at:%Y-%m-%d %H:%M:%S} UTC by {plain(record.user_id)} "
        f"(audit row {record.id})",
        f"- **Status** {record.status} · **mode** {record.mode} · **backend** {plain(record.backend)}",
        f"- **Row hash** {code(record.row_hash)}",
        f"- **Previous row hash** {code(record.prev_hash)}",
        f"- **Stored run sha256** {code(record.result_sha256 or '')}",
        f"- **Model calls** {record.llm_calls} · **tokens** {usage.input_tokens} in / {usage.output_tokens} out",
        f"- **Retrieved chunks** {chunks}",
    ]))
    st.caption("Verify the whole chain on the History page; exports carry the row hash so a recipient can check it.")
