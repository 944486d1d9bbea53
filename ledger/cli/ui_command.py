"""`evidence ui`: the analyst UI, served by Streamlit in a child process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.console import err_console

# Passed as flags rather than a .streamlit/config.toml: Streamlit only reads that from the working directory.
THEME = {
    "base": "light",
    "primaryColor": "#2456c6",
    "greenBackgroundColor": "#d9f2e0",
    "orangeBackgroundColor": "#fdebc8",
    "redBackgroundColor": "#fcdcd8",
    "violetBackgroundColor": "#ecdffc",
    "baseRadius": "0.5rem",
}


def app_path() -> Path:
    """The Streamlit entry script, ui/app.py of the installed package."""
    import ui

    return Path(ui.__file__).resolve().parent / "app.py"


def streamlit_command(port: int, address: str = "127.0.0.1") -> list[str]:
    """The `streamlit run` command line that serves the UI on address:port."""
    command = [
        sys.executable, "-m", "streamlit", "run", str(app_path()),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", address,
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal",
    ]
    for name, value in THEME.items():
        command += [f"--theme.{name}", value]
    return command


def ui(
    port: Annotated[int, typer.Option("--port", "-p", min=1, max=65535, help="Port to serve on.")] = 8501,
    address: Annotated[
        str, typer.Option("--address", help="Interface to listen on; 0.0.0.0 exposes the UI (and your documents) "
                                            "to the network, without a login.")
    ] = "127.0.0.1",
) -> None:
    """Start the analyst UI: ingest documents, ask, check a draft, browse history and export runs.

    Examples:

      evidence ui

      evidence ui --port 8600
    """
    err_console.print(f"Evidence Ledger UI: http://{'localhost' if address == '127.0.0.1' else address}:{port} "
                      "(Ctrl+C to stop)", highlight=False)
    child = subprocess.Popen(streamlit_command(port, address))
    try:
        code = child.wait()
    except KeyboardInterrupt:  # Streamlit got the same Ctrl+C: let it shut down cleanly
        try:
            code = child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `evidence ui` to the app."""
    app.command(name="ui")(ui)
