"""`evidence ui`: the analyst UI, served by Streamlit in a child process."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
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
    raise typer.Exit(serve(streamlit_command(port, address)))


class _Stop(Exception):
    """SIGTERM or SIGHUP reached `evidence ui`."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def serve(command: list[str], grace_s: float = 10.0) -> int:
    """Run the Streamlit server as a child and never leave it behind: Ctrl+C, SIGTERM or SIGHUP to this process
    stop it (SIGTERM, then SIGKILL after `grace_s`), and on Linux it also receives SIGTERM if this process dies."""
    child = subprocess.Popen(command, preexec_fn=_die_with_parent)  # noqa: PLW1509 - single-threaded here
    with _stop_signals():
        try:
            return child.wait()
        except KeyboardInterrupt:
            _stop(child, grace_s)
            return 128 + signal.SIGINT
        except _Stop as stopped:
            _stop(child, grace_s)
            return 128 + stopped.signum
        finally:
            if child.poll() is None:  # any other way out of here
                _stop(child, grace_s)


def _stop(child: subprocess.Popen[bytes], grace_s: float) -> None:
    if child.poll() is None:
        child.terminate()  # a Ctrl+C in the terminal already reached it too; SIGTERM is just as clean for Streamlit
    try:
        child.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stop(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux to send SIGTERM when the parent dies (even by SIGKILL)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def register(app: typer.Typer) -> None:
    """Add `evidence ui` to the app."""
    app.command(name="ui")(ui)
