"""Hostile files: special files never read, hard read limits, binary bytes behind text extensions, zip bombs."""

from __future__ import annotations

import io
import os
import random
import socket
import zipfile
from pathlib import Path

import pytest

from ingest.loaders import load_file, parse_file, read_file
from ledger.core.errors import LoaderError
from ledger.core.settings import Settings
from ledger.loop.factory import build_ingestor
from tests.fakes import HashEmbedder
from tests.ingest.test_discovery import within
from tests.ingest.test_loaders import SAMPLE_DOCS, make_docx, make_pdf


def reason_of(path: Path, max_bytes: int = 50 * 2**20) -> str:
    with pytest.raises(LoaderError) as caught:
        within(10, lambda: load_file(path, max_bytes))
    assert "\n" not in caught.value.reason
    return caught.value.reason


# ------------------------------------------------------------------------------ what is never opened


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    assert reason_of(tmp_path / "pipe.txt") == "skipped: a named pipe (FIFO), not a regular file"


def test_a_txt_symlink_to_dev_zero_is_refused_not_read_forever(tmp_path: Path) -> None:
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    assert reason_of(tmp_path / "zero.txt") == "skipped: a character device, not a regular file"


def test_a_socket_is_refused(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / "sock.md"))
    try:
        assert reason_of(tmp_path / "sock.md") == "skipped: a socket, not a regular file"
    finally:
        server.close()


def test_symlink_loops_and_dangling_symlinks_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "gone.md")
    assert reason_of(tmp_path / "a.txt") == "symlink loop"
    assert reason_of(tmp_path / "dangling.md") == "dangling symlink (its target does not exist)"


def test_a_file_swapped_for_a_fifo_after_the_check_is_still_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path says "regular file", the descriptor says FIFO: the descriptor wins and nothing is read."""
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    real_stat = os.stat
    regular = real_stat(SAMPLE_DOCS / "remote_work_policy.md")
    monkeypatch.setattr("ingest.loaders.os.stat", lambda p, *a, **k: regular if Path(p) == pipe else real_stat(p))
    assert reason_of(pipe) == "skipped: a named pipe (FIFO), not a regular file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("classified")
    path.chmod(0)
    assert reason_of(path) == "permission denied"


def test_reads_stop_at_the_limit_even_when_the_file_claims_to_be_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that grows after stat() cannot push more than limit + 1 bytes into memory."""
    path = tmp_path / "growing.txt"
    path.write_bytes(b"x" * 100_000)
    real_stat, real_read = os.stat, os.read
    small = os.stat_result((*real_stat(path)[:6], 10, *real_stat(path)[7:]))
    monkeypatch.setattr("ingest.loaders.os.stat", lambda p, *a, **k: small if Path(p) == path else real_stat(p))
    read: list[int] = []

    def counting_read(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr("ingest.loaders.os.read", counting_read)
    with pytest.raises(LoaderError) as caught:
        read_file(path, max_bytes=1024)
    assert caught.value.reason == "file too large (more than 1.0 KiB, the limit)"
    assert sum(read) == 1025


# ------------------------------------------------------------------------------ bytes that are not text


def _elf() -> bytes:
    ls = Path("/bin/ls")
    return ls.read_bytes()[:65536] if ls.exists() else b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 64


def _random_bytes(n: int = 4096, *, without_nul: bool = False) -> bytes:
    rng = random.Random(12)
    data = bytes(rng.randrange(1 if without_nul else 0, 256) for _ in range(n))
    return data


@pytest.mark.parametrize("extension", [".html", ".htm", ".txt", ".md"])
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (_elf(), "binary content, not text (it looks like an ELF executable)"),
        (_random_bytes(), "binary content, not text"),
        (_random_bytes(without_nul=True), "binary content, not text"),
        (make_docx(["A docx renamed"]), "binary content, not text (it looks like a ZIP archive)"),
    ],
    ids=["elf", "random", "random-without-nul", "zip"],
)
def test_binary_bytes_behind_a_text_extension_are_refused(
    tmp_path: Path, extension: str, content: bytes, reason: str
) -> None:
    path = tmp_path / f"x{extension}"
    path.write_bytes(content)
    assert reason_of(path).startswith(reason)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "latin1.html",
            '<meta charset="iso-8859-1"><p>Caf\u00e9 cr\u00e8me \u00a35</p>'.encode("latin-1"),
            "Caf\u00e9 cr\u00e8me \u00a35",
        ),
        ("cp1252.htm", "<p>\u201cQuoted\u201d \u2013 dash</p>".encode("cp1252"), "\u201cQuoted\u201d \u2013 dash"),
        ("utf16.html", "<p>Wide page text</p>".encode("utf-16"), "Wide page text"),
        ("coloured.txt", b"\x1b[31mERROR\x1b[0m disk full\n\x1b[32mOK\x1b[0m retried\n", "disk full"),
        ("pages.md", b"# Title\n\nPage one.\n\x0c\nPage two.\n", "Page two."),
    ],
)
def test_text_in_other_encodings_or_with_a_few_controls_still_loads(
    tmp_path: Path, name: str, content: bytes, expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert expected in load_file(path).text


# ------------------------------------------------------------------------------ pdf and docx


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9, 0.99])
def test_a_truncated_pdf_loads_what_it_can_or_fails_with_a_reason(keep: float) -> None:
    data = (SAMPLE_DOCS / "q3_2026_quarterly_report.pdf").read_bytes()
    try:
        doc = parse_file(Path("cut.pdf"), data[: int(len(data) * keep)])
    except LoaderError as exc:
        assert exc.reason.startswith(("not a readable PDF", "no text could be extracted"))
    else:
        assert doc.text


def test_a_pdf_that_needs_a_password_says_so(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(["Board minutes"]))))
    writer.encrypt(user_password="s3cret", owner_password="owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    path = tmp_path / "locked.pdf"
    path.write_bytes(buffer.getvalue())
    assert reason_of(path) == "not a readable PDF: encrypted with a password"


def _zip_bomb_docx(unpacked_mb: int) -> bytes:
    """A real .docx whose body inflates from well under 1 MiB to `unpacked_mb` MiB of whitespace."""
    original = zipfile.ZipFile(io.BytesIO(make_docx(["Body"])))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in original.infolist():
            data = original.read(info.filename)
            if info.filename == "word/document.xml":
                data = data.replace(b"<w:body>", b"<w:body>" + b" " * (unpacked_mb * 2**20), 1)
            archive.writestr(info.filename, data)
    return buffer.getvalue()


def test_a_docx_zip_bomb_is_refused_before_anything_is_unpacked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bomb.docx"
    path.write_bytes(_zip_bomb_docx(40))
    assert path.stat().st_size < 2**20

    def must_not_open(*args: object, **kwargs: object) -> None:
        raise AssertionError("the bomb was handed to python-docx")

    monkeypatch.setattr("docx.Document", must_not_open)
    reason = reason_of(path)
    assert reason.startswith("not a valid .docx (zip bomb: ")
    assert reason.endswith(" would unpack to 40.8 MiB; not unpacked)")


def test_an_empty_file_says_it_is_empty(tmp_path: Path) -> None:
    for name in ("e.txt", "e.md", "e.html", "e.pdf", "e.docx"):
        (tmp_path / name).write_bytes(b"")
        assert reason_of(tmp_path / name) == "file is empty"


# ------------------------------------------------------------------------------ titles


def test_titles_lose_terminal_escape_codes_but_keep_brackets(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Policy [/x] \x1b[31mupdate\x1b[0m\x07\n\nBody.\n")
    assert load_file(tmp_path / "a.md").title == "Policy [/x] update"


# ------------------------------------------------------------------------------ a whole batch


def test_every_hostile_file_fails_alone_and_the_good_ones_go_in(settings: Settings, tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    folder = tmp_path / "mixed"
    folder.mkdir()
    for sample in ("remote_work_policy.md", "data_retention_policy.html", "vendor_onboarding_procedure.docx"):
        (folder / sample).write_bytes((SAMPLE_DOCS / sample).read_bytes())
    (folder / "deep.html").write_bytes(("<div>" * 5_000 + "Deeply nested notice." + "</div>" * 5_000).encode())
    os.mkfifo(folder / "pipe.txt")
    (folder / "zero.txt").symlink_to("/dev/zero")
    (folder / "loop.md").symlink_to(folder / "loop.md")
    (folder / "dangling.md").symlink_to(folder / "gone.md")
    (folder / "x.html").write_bytes(_elf())
    (folder / "y.txt").write_bytes(_random_bytes())
    (folder / "empty.md").write_bytes(b"")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(["Board minutes"]))))
    writer.encrypt(user_password="s3cret", owner_password="owner", algorithm="RC4-128")
    writer.write(folder / "locked.pdf")
    (folder / "cut.pdf").write_bytes(make_pdf(["Cut short"])[:200])
    (folder / "bomb.docx").write_bytes(_zip_bomb_docx(40))
    report = within(120, lambda: build_ingestor(settings, embedder=HashEmbedder()).run([folder]))
    assert report.documents_added == 4
    failed = {Path(f.path).name: f.error for f in report.failed}
    assert failed == {
        "pipe.txt": "skipped: a named pipe (FIFO), not a regular file",
        "zero.txt": "skipped: a character device, not a regular file",
        "loop.md": "skipped: symlink loop",
        "dangling.md": "skipped: dangling symlink (its target does not exist)",
        "x.html": "binary content, not text (it looks like an ELF executable)",
        "y.txt": "binary content, not text",
        "empty.md": "file is empty",
        "locked.pdf": "not a readable PDF: encrypted with a password",
        "cut.pdf": failed["cut.pdf"],
        "bomb.docx": failed["bomb.docx"],
    }
    assert failed["cut.pdf"].startswith("not a readable PDF: damaged or truncated")
    assert failed["bomb.docx"].startswith("not a valid .docx (zip bomb: ")
