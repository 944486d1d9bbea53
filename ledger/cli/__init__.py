"""The `evidence` command line. Printing and exit codes live here and in the UI only."""

from __future__ import annotations

import inspect
import logging
import os
import sys
import traceback

import typer

from ledger.cli import ask_commands, audit_commands, doctor_commands, ingest_commands, judge_commands, ui_command
from ledger.cli.console import err_console, shown
from ledger.core.errors import EvidenceError
from ledger.core.redaction import redact

app = typer.Typer(
    name="evidence",
    help=(
        "Evidence Ledger: answers questions from your documents and proves every sentence.\n\n"
        "Examples:\n\n"
        "  evidence ingest sample_docs            # index a folder\n\n"
        "  evidence docs                          # what is indexed\n\n"
        "  evidence ask \"How long is the warranty?\"  # answer with proof\n\n"
        "  evidence verify -q QUESTION -f draft.md # check a draft written elsewhere\n\n"
        "Data lives under $EVIDENCE_HOME (default ./.evidence)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
ingest_commands.register(app)
ask_commands.register(app)
judge_commands.register(app)
audit_commands.register(app)
doctor_commands.register(app)
ui_command.register(app)


def _reflowed(doc: str) -> str:
    """A command's docstring as `--help` shows it: a paragraph's source line breaks become spaces (the terminal wraps
    it), while indented lines (examples) keep theirs."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(p if any(line[:1].isspace() for line in p.splitlines()) else " ".join(p.split("\n"))
                       for p in paragraphs)


def _reflow_help(*groups: typer.Typer) -> None:
    """Give every command without an explicit help its reflowed docstring (`_reflowed`)."""
    for group in groups:
        for info in group.registered_commands:
            if info.help is None and info.callback is not None and info.callback.__doc__:
                info.help = _reflowed(info.callback.__doc__)


_reflow_help(app, audit_commands.audit_app)


def main() -> None:
    """Console-script entry point: run the app, turning every error into one readable line."""
    _quiet_libraries()
    try:
        app()
    except EvidenceError as exc:
        err_console.print(f"[bold red]error:[/] {shown(redact(str(exc)))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted", style="yellow")
        sys.exit(130)
    except Exception as exc:  # a bug: say so plainly, keep the traceback out of the user's way
        if os.environ.get("EVIDENCE_DEBUG"):
            raise
        log_path = _write_crash_log()
        err_console.print(
            f"[bold red]internal error:[/] {exc.__class__.__name__}: {shown(redact(str(exc)))}\n"
            f"details were written to {log_path}; set EVIDENCE_DEBUG=1 to see them here.",
            highlight=False,
        )
        sys.exit(3)


def _quiet_libraries() -> None:
    """Warnings and worse on stderr; libraries that chatter about what a user cannot act on, errors only."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    # pypdf logs a warning for every recoverable oddity of a PDF (bad xref offsets, odd fonts): on a real
    # collection that floods the terminal. Real failures still raise and become LoaderErrors.
    for noisy in ("chromadb", "httpx", "httpx2", "sentence_transformers", "transformers", "pypdf"):
        logging.getLogger(noisy).setLevel(logging.ERROR)


def _write_crash_log() -> str:
    home = os.environ.get("EVIDENCE_HOME", ".evidence")
    try:
        os.makedirs(home, exist_ok=True)
        path = os.path.join(home, "crash.log")
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(redact(traceback.format_exc()) + "\n")  # secrets never reach the log
        return path
    except OSError:
        return "(nowhere: the data directory is not writable)"
