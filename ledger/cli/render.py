"""Human-readable rendering of runs and eval reports for the terminal."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ledger.cli.console import plain, shown
from ledger.core.types import EvidenceLedger, RunResult
from ledger.exports.citations import numbered_answer
from ledger.judge.support_rules import COMPUTED

VERDICT_STYLE = {"supported": "green", "weak": "yellow", "contradicted": "bold red", "not_found": "magenta"}


def ledger_table(ledger: EvidenceLedger, title: str = "Evidence ledger") -> Table:
    """One row per claim: verdict, confidence, and the quote and document that decided it."""
    table = Table(title=title, show_lines=True, expand=True)
    table.add_column("#", no_wrap=True)
    table.add_column("claim", ratio=3)
    table.add_column("verdict", no_wrap=True)
    table.add_column("evidence (deciding quote and document)", ratio=4)
    for entry in ledger.entries:
        claim = entry.claim
        verdict = Text(entry.verdict, style=VERDICT_STYLE[entry.verdict])
        verdict.append(f"\n{entry.confidence:.2f}", style="dim")
        lead = entry.evidence[0] if entry.evidence and entry.verdict != "not_found" else None
        if lead:
            evidence = Text(f"“{plain(lead.quote)}”\n", style="italic")
            evidence.append(f"— {plain(lead.document)} [{lead.chunk_hash}]", style="cyan")
        else:
            evidence = Text("no passage states this", style="dim")
        if entry.flags:
            evidence.append("\nflags: " + ", ".join(entry.flags), style="yellow")
        if entry.notes and (entry.verdict != "supported" or COMPUTED in entry.notes):  # or to show the working
            evidence.append("\n" + plain(entry.notes), style="dim")
        table.add_row(claim.id, Text(f"{plain(claim.text)}\n{claim.type} · {claim.importance}"), verdict, evidence)
    return table


def summary_line(ledger: EvidenceLedger) -> str:
    """Coverage, unsupported rate and verdict counts on one line."""
    s = ledger.summary
    counts = ", ".join(f"{v} {k}" for k, v in s.verdicts.items() if v)
    return (
        f"coverage {s.evidence_coverage:.0%} · unsupported {s.unsupported_rate:.0%} · "
        f"{s.total_claims} claim{'' if s.total_claims == 1 else 's'} ({counts or 'none'})"
    )


def render_run(console: Console, result: RunResult) -> None:
    """Print a run: question, answer with numbered sources, ledger, revisions, warnings, risk flags. Of a draft
    written elsewhere (`evidence verify`) that was revised, the verdicts of the draft as given come first: they are
    what its writer asked about."""
    if result.mode == "verify" and len(result.revisions) > 1:
        given = result.revisions[0].ledger
        console.print(ledger_table(given, title="Your draft, as given"))
        console.print(f"draft: {summary_line(given)}; the revised answer follows", highlight=False)
    text, order = numbered_answer(result.answer)
    sources = {m.chunk_hash: m for e in result.ledger.entries for m in e.evidence}
    lines = [Text(plain(text))]
    if order:
        lines.append(Text(""))
        for i, h in enumerate(order, 1):
            match = sources.get(h)
            where = f"{match.document}" + (f" ({match.doc_date})" if match and match.doc_date else "") if match else "?"
            lines.append(Text(f"[{i}] {h} {plain(where)}", style="dim"))
    console.print(Panel(Group(*lines), title=shown(result.question), title_align="left"))
    if result.ledger.entries:
        console.print(ledger_table(result.ledger))
    console.print(summary_line(result.ledger), highlight=False)
    if len(result.revisions) > 1:
        first = result.revisions[0].ledger.summary.evidence_coverage
        console.print(
            f"revisions: {len(result.revisions) - 1} · coverage {first:.0%} → "
            f"{result.ledger.summary.evidence_coverage:.0%}",
            highlight=False,
        )
    for w in result.warnings:
        console.print(f"[yellow]warning {w.code}:[/] {shown(w.message)}")
    for flag in result.risk_flags:
        style = "red" if flag.severity == "high" else "yellow"
        console.print(f"[{style}]risk {flag.type} ({flag.severity}):[/] {shown(flag.description)}")
    console.print(f"[dim]session {result.session_id} · {result.backend} · {result.duration_ms} ms[/]")
