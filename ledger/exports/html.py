"""The HTML export: one self-contained, readable report (inline CSS, no scripts); every text from a document
or a model is escaped, so markup in a source renders as text."""

from __future__ import annotations

import re
from html import escape

from ledger.audit.types import AuditRecord, iso_utc
from ledger.core.types import EvidenceLedger, LedgerEntry, RunResult

_CITE = re.compile(r"\[cite:([0-9A-Za-z]{4,64})\]")
_VERDICT_LABEL = {"supported": "Supported", "weak": "Weak", "contradicted": "Contradicted", "not_found": "Not found"}

CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:0;line-height:1.5}
body{background:#f6f8fa}
main{max-width:1080px;margin:0 auto;padding:24px 32px;background:#fff;min-height:100vh}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}
.question{font-size:17px;color:#424a53;margin:0 0 16px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}
.card span{font-size:12px;color:#59636e;text-transform:uppercase}
.answer{border-left:4px solid #0969da;background:#f6f8fa;padding:12px 16px;white-space:pre-wrap}
.answer mark,.legend mark{background:none;border-bottom:3px solid;padding:0 1px}
mark.v-supported{border-color:#1a7f37}
mark.v-weak{border-color:#d4a72c}
mark.v-contradicted{border-color:#cf222e;background:#ffebe9}
mark.v-not_found{border-color:#bc4c00;background:#fff1e5}
sup a{text-decoration:none;color:#0969da;font-size:11px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{border:1px solid #d0d7de;padding:6px 8px;vertical-align:top;text-align:left}
th{background:#f6f8fa}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.b-supported,.b-ok{background:#dafbe1;color:#116329}
.b-weak,.b-medium{background:#fff8c5;color:#7d4e00}
.b-contradicted,.b-high,.b-critical,.b-failed{background:#ffebe9;color:#a40e26}
.b-not_found{background:#fff1e5;color:#953800}
.b-low{background:#ddf4ff;color:#0550ae}
blockquote{margin:4px 0;padding:4px 10px;border-left:3px solid #d0d7de;color:#424a53;background:#f6f8fa}
blockquote{white-space:pre-wrap}
.src{font-size:12px;color:#59636e}
.flag{font-family:ui-monospace,monospace;font-size:12px;background:#eaeef2;border-radius:4px;padding:0 4px}
.notice{border:1px solid #d4a72c;background:#fff8c5;border-radius:6px;padding:8px 12px;margin:6px 0}
.risk{border:1px solid #cf222e;background:#ffebe9;border-radius:6px;padding:8px 12px;margin:6px 0}
.round{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;margin:10px 0}
.response{white-space:pre-wrap;background:#f6f8fa;padding:8px 12px;border-radius:4px;font-size:14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;font-size:14px}
dt{color:#59636e}
dd{margin:0}
footer{margin-top:32px;border-top:1px solid #d0d7de;padding-top:8px;font-size:12px;color:#59636e}
code{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
@media print{body{background:#fff}main{padding:0}}
"""


def e(value: object) -> str:
    """Escaped text for HTML content and attributes."""
    return escape(str(value), quote=True)


def render_report(result: RunResult, record: AuditRecord, *, content_sha256: str, schema_version: str) -> str:
    """The whole report as one HTML page."""
    sources = _sources(result)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # No scripts, no remote loads: the page renders the same offline, years later.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>Evidence report — {e(result.question[:80])}</title><style>{CSS}</style></head><body><main>",
        "<h1>Evidence report</h1>", f'<p class="question">{e(result.question)}</p>',
        _cards(result, record), _notices(result, record),
        "<h2>Answer</h2>", f'<div class="answer">{_answer(result, sources)}</div>',
        _legend(), _sources_list(sources),
        "<h2>Claims and evidence</h2>", _claims_table(result.ledger),
        "<h2>Revision history</h2>", _history(result, sources),
        "<h2>Run metadata</h2>", _metadata(result, record),
        _footer(record, content_sha256, schema_version),
        "</main></body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _cards(result: RunResult, record: AuditRecord) -> str:
    summary = result.ledger.summary
    cards = [
        (record.status.upper(), "status"),
        (f"{summary.evidence_coverage:.0%}", "evidence coverage"),
        (f"{summary.unsupported_rate:.0%}", "unsupported rate"),
        (str(summary.total_claims or len(result.ledger.entries)), "claims"),
        (result.risk_level, "risk level"),
        (str(max(len(result.revisions) - 1, 0)), "revisions"),
    ]
    verdicts = "".join(
        f'<span class="badge b-{e(v)}">{e(_VERDICT_LABEL.get(v, v))}: {n}</span> '
        for v, n in sorted(record.verdict_distribution.items())
    )
    body = "".join(f'<div class="card"><b>{e(value)}</b><span>{e(label)}</span></div>' for value, label in cards)
    return f'<div class="cards">{body}</div><div>{verdicts}</div>'


def _notices(result: RunResult, record: AuditRecord) -> str:
    out = []
    if record.status == "failed":
        out.append(f'<div class="risk"><b>This run failed.</b> {e(record.error or "")}</div>')
    if result.risk_flags:
        out.append("<h2>Risk flags</h2>")
        for flag in result.risk_flags:
            out.append(f'<div class="risk"><span class="badge b-{e(flag.severity)}">{e(flag.severity)}</span> '
                       f'<span class="flag">{e(flag.type)}</span> {e(flag.description)}</div>')
    if result.warnings:
        out.append("<h2>Warnings</h2>")
        for warning in result.warnings:
            details = "".join(f"<li>{e(d)}</li>" for d in warning.details)
            out.append(f'<div class="notice"><span class="flag">{e(warning.code)}</span> {e(warning.message)}'
                       f'{"<ul>" + details + "</ul>" if details else ""}</div>')
    return "\n".join(out)


def _sources(result: RunResult) -> dict[str, tuple[int, str, str]]:
    """Chunk hash -> (number, document, date) for every chunk the answer cites or the final ledger quotes."""
    found: dict[str, tuple[str, str]] = {}
    for entry in result.ledger.entries:
        for match in entry.evidence:
            found.setdefault(match.chunk_hash, (match.document or match.path, match.doc_date.isoformat()
                                                if match.doc_date else ""))
    order = [h for h in dict.fromkeys(_CITE.findall(result.answer))] + [h for h in found]
    return {h: (i + 1, *found.get(h, ("(not in the corpus: phantom citation)", ""))) for i, h in
            enumerate(dict.fromkeys(order))}


def _answer(result: RunResult, sources: dict[str, tuple[int, str, str]]) -> str:
    text = result.answer
    if not text:
        return '<span class="src">(no answer)</span>'
    spans = sorted(
        ((entry.claim.span, entry.verdict, entry.claim.id) for entry in result.ledger.entries
         if entry.claim.span[1] > entry.claim.span[0]), key=lambda s: s[0][0],
    )
    out, pos = [], 0
    for (start, end), verdict, claim_id in spans:
        if start < pos or end > len(text):
            continue  # overlapping or stale spans: show the text unmarked rather than wrongly marked
        out.append(_with_cites(text[pos:start], sources))
        out.append(f'<mark class="v-{e(verdict)}" title="{e(claim_id)}: {e(_VERDICT_LABEL.get(verdict, verdict))}">'
                   f"{_with_cites(text[start:end], sources)}</mark>")
        pos = end
    out.append(_with_cites(text[pos:], sources))
    return "".join(out)


def _with_cites(fragment: str, sources: dict[str, tuple[int, str, str]]) -> str:
    """Escaped text whose [cite:hash] anchors become numbered links to the sources list."""

    def link(match: re.Match[str]) -> str:
        chunk = match.group(1)
        label = str(sources[chunk][0]) if chunk in sources else chunk[:6]
        return f'<sup><a href="#src-{e(chunk)}" title="{e(chunk)}">[{e(label)}]</a></sup>'

    return _CITE.sub(link, e(fragment))


def _legend() -> str:
    items = "".join(f'<mark class="v-{v}">{label}</mark> ' for v, label in _VERDICT_LABEL.items())
    return f'<p class="src legend">Claims are underlined by verdict: {items}</p>'


def _sources_list(sources: dict[str, tuple[int, str, str]]) -> str:
    if not sources:
        return ""
    items = "".join(
        f'<li id="src-{e(h)}">{e(doc)}{" (" + e(day) + ")" if day else ""} <code>{e(h)}</code></li>'
        for h, (_, doc, day) in sources.items()
    )
    return f"<h3>Sources</h3><ol>{items}</ol>"


def _claims_table(ledger: EvidenceLedger) -> str:
    if not ledger.entries:
        return '<p class="src">No claims.</p>'
    head = "<tr><th>#</th><th>Claim</th><th>Type</th><th>Verdict</th><th>Confidence</th><th>Evidence</th></tr>"
    rows = "".join(_claim_row(entry) for entry in ledger.entries)
    return f"<table>{head}{rows}</table>"


def _claim_row(entry: LedgerEntry) -> str:
    claim = entry.claim
    flags = " ".join(f'<span class="flag">{e(f)}</span>' for f in entry.flags)
    cells = [
        f"<td>{e(claim.id)}</td>",
        f"<td>{e(claim.text)}{'<br>' + flags if flags else ''}"
        + (f'<div class="src">{e(entry.notes)}</div>' if entry.notes else "") + "</td>",
        f"<td>{e(claim.type)}<br><span class=\"src\">{e(claim.importance)}</span></td>",
        f'<td><span class="badge b-{e(entry.verdict)}">{e(_VERDICT_LABEL.get(entry.verdict, entry.verdict))}</span>'
        "</td>",
        f"<td>{entry.confidence:.2f}</td>",
        f"<td>{_evidence(entry)}</td>",
    ]
    return "<tr>" + "".join(cells) + "</tr>"


def _evidence(entry: LedgerEntry) -> str:
    if not entry.evidence:
        return '<span class="src">No supporting passage found.</span>'
    out = []
    for match in entry.evidence:
        out.append(
            f"<blockquote>{e(match.quote)}</blockquote>"
            f'<div class="src">{e(match.document)}{" · " + e(match.doc_date.isoformat()) if match.doc_date else ""}'
            f" · <code>{e(match.chunk_hash)}</code> · {e(match.support)} support · {e(match.match_type)}"
            f" · similarity {match.similarity:.2f}</div>"
        )
    return "".join(out)


def _history(result: RunResult, sources: dict[str, tuple[int, str, str]]) -> str:
    if not result.revisions:
        return '<p class="src">No revision history was recorded.</p>'
    out = []
    for i, attempt in enumerate(result.revisions):
        summary = attempt.ledger.summary
        title = "Round 0 — draft" if i == 0 else f"Round {i} — revision {i}"
        decision = attempt.decision
        issues = "".join(f"<li><span class=\"flag\">{e(issue.kind)}</span> {e(issue.message)}</li>"
                         for issue in attempt.critique.issues)
        instructions = "".join(f"<li>{e(x)}</li>" for x in (decision.instructions if decision else []))
        out.append(
            f'<div class="round"><h3>{e(title)}</h3>'
            f'<div class="src">coverage {summary.evidence_coverage:.0%} · unsupported {summary.unsupported_rate:.0%}'
            f" · {len(attempt.ledger.entries)} claims</div>"
            f'<div class="response">{_with_cites(attempt.response, sources)}</div>'
            + (f"<p><b>Skeptic:</b> {e(attempt.critique.summary)}</p>" if attempt.critique.summary else "")
            + (f"<ul>{issues}</ul>" if issues else "")
            + (f"<p><b>Decision:</b> {'revise' if decision.should_revise else 'stop'} — {e(decision.reason)}</p>"
               if decision else "")
            + (f"<ol>{instructions}</ol>" if instructions else "")
            + _claims_table(attempt.ledger) + "</div>"
        )
    return "\n".join(out)


def _metadata(result: RunResult, record: AuditRecord) -> str:
    usage = record.token_usage
    rows = [
        ("Session", record.session_id), ("Status", record.status), ("Mode", record.mode),
        ("Backend", record.backend), ("Workspace", record.workspace_id), ("User", record.user_id),
        ("Started", iso_utc(record.timestamp)), ("Recorded", iso_utc(record.recorded_at)),
        ("Duration", f"{record.total_duration_ms / 1000:.2f} s"), ("Model calls", record.llm_calls),
        ("Tokens", f"{usage.input_tokens} in, {usage.output_tokens} out, {usage.cache_read_input_tokens} cache read"),
        ("Chunks retrieved", len(record.retrieved_chunk_ids)),
    ]
    if record.error:
        rows.append(("Error", record.error))
    return "<dl>" + "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in rows) + "</dl>"


def _footer(record: AuditRecord, content_sha256: str, schema_version: str) -> str:
    return (
        "<footer><p>Exported by Evidence Ledger, export schema "
        f"{e(schema_version)}. Check with <code>evidence audit verify</code> and the JSON export.</p><dl>"
        f"<dt>content sha256</dt><dd><code>{e(content_sha256)}</code></dd>"
        f"<dt>audit chain hash</dt><dd><code>{e(record.row_hash)}</code></dd>"
        f"<dt>previous row hash</dt><dd><code>{e(record.prev_hash)}</code></dd>"
        f"<dt>audit row</dt><dd>{e(record.id)}</dd></dl></footer>"
    )
