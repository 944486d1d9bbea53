"""Read one file into a LoadedDocument: text, title, digest, MIME type and the document's date.

Every failure is a LoaderError with a one-line reason a user can act on; no parser exception or
traceback escapes, so one bad file never stops a batch.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.dates import resolve_document_date
from ingest.hashing import bytes_digest
from ingest.types import LoadedDocument
from ledger.core.errors import LoaderError

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.table import _Cell, _Row
    from docx.text.paragraph import Paragraph

MIME_TYPES: dict[str, str] = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".pdf": "application/pdf",
    ".html": "text/html",
    ".htm": "text/html",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(MIME_TYPES)
DEFAULT_MAX_BYTES = 50 * 2**20
MAX_TITLE_CHARS = 120

_BLANK_LINES = re.compile(r"\n{3,}")
_INLINE_SPACE = re.compile(r"[ \t\f\v\u00a0]+")
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_MD_SETEXT = re.compile(r"^(\S[^\n]*)\n(?:=+|-+)[ \t]*$", re.MULTILINE)
_FRONT_MATTER_TITLE = re.compile(r"\A---\n(?:.*\n)*?title:[ \t]*[\"']?(.+?)[\"']?[ \t]*\n(?:.*\n)*?---\n")
_JUNK_TITLES = re.compile(r"^(?:untitled.*|document\d*|microsoft word - .*|\s*)$", re.IGNORECASE)


# ---------------------------------------------------------------------------------------------- text


def _one_line(exc: BaseException, limit: int = 160) -> str:
    """A parser's exception as one short line, for a reason a user reads."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _clean(text: str) -> str:
    """Unix line endings, no trailing spaces, at most one blank line in a row."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    lines = [_INLINE_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def _shorten_title(title: str) -> str:
    """Collapse whitespace and cut at a word boundary to MAX_TITLE_CHARS."""
    title = " ".join(title.split())
    if len(title) <= MAX_TITLE_CHARS:
        return title
    window = title[: MAX_TITLE_CHARS - 1]
    # Keep the last word only when the window happens to end exactly at its end.
    cut = window if title[MAX_TITLE_CHARS - 1] == " " else window.rsplit(" ", 1)[0]
    return cut.rstrip() + "…"


def _usable_title(candidate: str | None) -> str | None:
    """The candidate, tidied, unless it is empty or a placeholder such as "Untitled"."""
    if not candidate:
        return None
    candidate = re.sub(r"[*_`]+", "", candidate).strip(" #\t")
    if _JUNK_TITLES.match(candidate):
        return None
    return _shorten_title(candidate)


def _first_line(text: str) -> str | None:
    return next((line.strip() for line in text.split("\n") if line.strip()), None)


def _decode_utf8(path: Path, data: bytes) -> str:
    """UTF-8 with or without a BOM; anything else is refused with the offending byte and offset."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoaderError(path, "not UTF-8 text (UTF-16 byte-order mark; save the file as UTF-8)")
    bom = b"\xef\xbb\xbf"
    skip = len(bom) if data.startswith(bom) else 0
    if b"\x00" in data:
        raise LoaderError(path, "binary content, not text")
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start + skip
        raise LoaderError(path, f"not UTF-8 text (byte 0x{data[offset]:02x} at offset {offset})") from None


def _load_text(path: Path, data: bytes) -> tuple[str, str | None]:
    text = _clean(_decode_utf8(path, data))
    return text, _first_line(text)


def _load_markdown(path: Path, data: bytes) -> tuple[str, str | None]:
    text = _clean(_decode_utf8(path, data))
    for pattern in (_FRONT_MATTER_TITLE, _MD_HEADING, _MD_SETEXT):
        match = pattern.search(text)
        if match and _usable_title(match.group(1)):
            return text, match.group(1)
    return text, _first_line(text)


# ----------------------------------------------------------------------------------------------- pdf


def _load_pdf(path: Path, data: bytes) -> tuple[str, str | None]:
    # PDF readers accept junk before the header, but not a file that has none at all.
    if b"%PDF-" not in data[:1024]:
        raise LoaderError(path, "not a readable PDF: no PDF header, the content is something else")
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    # pypdf raises a zoo of exception types on damaged files (PdfReadError, ValueError, KeyError,
    # struct errors...): all of them mean the same thing to the user.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                try:
                    # Many PDFs are "encrypted" with an empty password only to restrict printing.
                    if not reader.decrypt(""):
                        raise LoaderError(path, "not a readable PDF: encrypted with a password")
                except (FileNotDecryptedError, NotImplementedError):
                    raise LoaderError(path, "not a readable PDF: encrypted with a password") from None
                except DependencyError:
                    raise LoaderError(
                        path, "not a readable PDF: encrypted (AES needs the 'cryptography' package)"
                    ) from None
            pages = [page.extract_text() or "" for page in reader.pages]
            metadata_title = reader.metadata.title if reader.metadata else None
        except LoaderError:
            raise
        except Exception as exc:  # see the comment above
            raise LoaderError(path, f"not a readable PDF: damaged or truncated ({_one_line(exc)})") from None
    text = _clean("\n\n".join(pages))
    if not text:
        raise LoaderError(path, "no text could be extracted (the PDF may be scanned images)")
    return text, _usable_title(str(metadata_title) if metadata_title else None) or _first_line(text)


# ---------------------------------------------------------------------------------------------- html

_DROP_TAGS = ["script", "style", "nav", "noscript", "template", "svg", "iframe", "head", "title"]
_PARAGRAPH_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "pre", "blockquote"}
_LINE_TAGS = {
    "div", "section", "article", "main", "header", "footer", "aside", "li", "tr", "dt", "dd",
    "figure", "figcaption", "address", "caption", "form", "fieldset", "details", "summary", "hr",
}  # fmt: skip
_PARAGRAPH_MARK = "\x01"
_PARAGRAPH_GAP = f"\n{_PARAGRAPH_MARK}\n"
_NEWLINE_RUN = re.compile(r"\n[\s\x01]*\n")


def _load_html(path: Path, data: bytes) -> tuple[str, str | None]:
    from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction

    try:
        # html.parser, not lxml: same result on every machine and no optional dependency.
        soup = BeautifulSoup(data, "html.parser")
    except Exception as exc:  # any parser failure means the same thing to the user
        raise LoaderError(path, f"not readable HTML: {_one_line(exc)}") from None
    title = soup.title.get_text(" ", strip=True) if soup.title else None
    if not _usable_title(title):
        h1 = soup.find("h1")
        title = h1.get_text(" ", strip=True) if h1 else None
    for node in soup.find_all(string=lambda s: isinstance(s, (Comment, Declaration, Doctype, ProcessingInstruction))):
        node.extract()
    for tag in soup.find_all(_DROP_TAGS):
        tag.decompose()
    # Source formatting whitespace means nothing in HTML (except in <pre>); the structure is in tags.
    for node in soup.find_all(string=True):
        if type(node) is NavigableString and not node.find_parent("pre"):
            node.replace_with(re.sub(r"\s+", " ", str(node)))
    for row in soup.find_all("tr"):
        cells = [cell.get_text(" ", strip=True) for cell in row.find_all(["td", "th"])]
        row.replace_with("\n" + " | ".join(cell for cell in cells if cell) + "\n")
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for tag in soup.find_all(True):
        if tag.name == "li":
            tag.insert(0, "- ")
        if tag.name in _PARAGRAPH_TAGS or tag.name in _LINE_TAGS:
            gap = _PARAGRAPH_GAP if tag.name in _PARAGRAPH_TAGS else "\n"
            tag.insert_before(gap)
            tag.insert_after(gap)
    # Neighbouring block tags each add their own newline: a run of newlines is one line break,
    # or one blank line when a paragraph-level tag took part in it.
    text = _NEWLINE_RUN.sub(lambda m: "\n\n" if _PARAGRAPH_MARK in m.group() else "\n", soup.get_text())
    text = _clean(text.replace(_PARAGRAPH_MARK, ""))
    return text, title or _first_line(text)


# ---------------------------------------------------------------------------------------------- docx

# A zip bomb inflates a small .docx into gigabytes of XML; no real document body comes near this.
_MAX_DOCX_XML_BYTES = 200 * 2**20
# python-docx reads every part of the package into memory (styles, images, ...), not just the body.
_MAX_DOCX_UNPACKED_BYTES = 512 * 2**20
_DOCX_MISSING_PART = re.compile(r"no item named '([^']+)'")


def _docx_paragraph(paragraph: Paragraph, list_styles: frozenset[str]) -> str:
    # List items carry numbering directly or through a list style such as "List Bullet".
    p = paragraph._p
    numbered = (p.pPr is not None and p.pPr.numPr is not None) or (p.style or "").startswith("List")
    numbered = numbered or p.style in list_styles
    return ("- " if numbered else "") + paragraph.text


def _docx_cell_text(cell: _Cell, list_styles: frozenset[str]) -> str:
    """A cell's paragraphs, and those of tables nested in it, on one line."""
    from docx.table import Table

    parts: list[str] = []
    for item in cell.iter_inner_content():
        if not isinstance(item, Table):
            parts.append(_docx_paragraph(item, list_styles))
        else:
            parts.extend(_docx_cell_text(inner, list_styles) for row in item.rows for inner in _docx_row_cells(row))
    return " ".join(parts).strip()


def _docx_row_cells(row: _Row) -> list[_Cell]:
    # Each <w:tc> once. Row.cells repeats a merged cell for every grid column and row it spans, and
    # raises on a vertical merge with nothing above it, which Word itself shrugs off.
    from docx.table import _Cell

    return [_Cell(tc, row.table) for tc in row._tr.tc_lst]


def _docx_blocks(document: DocxDocument, list_styles: frozenset[str]) -> list[str]:
    """Paragraphs in order; a table row becomes one line with cells separated by " | "."""
    from docx.table import Table

    blocks: list[str] = []
    for item in document.iter_inner_content():
        if not isinstance(item, Table):
            blocks.append(_docx_paragraph(item, list_styles))
        else:
            rows = (_docx_row_cells(row) for row in item.rows)
            cells = ([_docx_cell_text(cell, list_styles) for cell in row] for row in rows)
            blocks.append("\n".join(" | ".join(cell for cell in row if cell) for row in cells))
    return blocks


def _docx_title(document: DocxDocument) -> str | None:
    from docx.opc.constants import RELATIONSHIP_TYPE

    try:
        document.part.package.part_related_by(RELATIONSHIP_TYPE.CORE_PROPERTIES)
    except KeyError:
        return None  # python-docx would make up core properties titled "Word Document"
    return document.core_properties.title


def _load_docx(path: Path, data: bytes) -> tuple[str, str | None]:
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise LoaderError(path, "not a valid .docx (password-protected, or an old .doc file renamed)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise LoaderError(path, "not a valid .docx (not a zip archive)") from None
    with archive:
        if "word/document.xml" not in archive.namelist():
            raise LoaderError(path, "not a valid .docx (no word/document.xml inside)")
        if archive.getinfo("word/document.xml").file_size > _MAX_DOCX_XML_BYTES:
            raise LoaderError(path, "not a valid .docx (document body is implausibly large)")
        if sum(info.file_size for info in archive.infolist()) > _MAX_DOCX_UNPACKED_BYTES:
            raise LoaderError(path, "not a valid .docx (contents are implausibly large when unpacked)")
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
        list_styles = frozenset(
            style.style_id for style in document.styles if (style.name or "").startswith("List") and style.style_id
        )
        text = _clean("\n\n".join(_docx_blocks(document, list_styles)))
        title = _docx_title(document)
    except (KeyError, PackageNotFoundError) as exc:
        # python-docx cannot find the main document, or a part a relationship points at.
        missing = _DOCX_MISSING_PART.search(str(exc))
        reason = f"part {missing.group(1)} is missing" if missing else "no word/document.xml inside"
        raise LoaderError(path, f"not a valid .docx ({reason})") from None
    except Exception as exc:  # lxml, zipfile and python-docx errors all mean a damaged file to the user
        raise LoaderError(path, f"not a valid .docx ({_one_line(exc)})") from None
    return text, _usable_title(title) or _first_line(text)


# ---------------------------------------------------------------------------------------------- main

_EXTRACTORS: dict[str, Callable[[Path, bytes], tuple[str, str | None]]] = {
    ".txt": _load_text,
    ".md": _load_markdown,
    ".markdown": _load_markdown,
    ".pdf": _load_pdf,
    ".html": _load_html,
    ".htm": _load_html,
    ".docx": _load_docx,
}


def read_file(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes, float]:
    """The file's bytes and mtime, with every OS failure turned into a one-line reason."""
    try:
        stat = path.stat()
        if path.is_dir():
            raise LoaderError(path, "is a directory, not a file")
        if stat.st_size > max_bytes:
            raise LoaderError(path, f"file too large ({_size(stat.st_size)}; the limit is {_size(max_bytes)})")
        data = path.read_bytes()
    except FileNotFoundError:
        raise LoaderError(path, "file not found") from None
    except PermissionError:
        raise LoaderError(path, "permission denied") from None
    except IsADirectoryError:
        raise LoaderError(path, "is a directory, not a file") from None
    except OSError as exc:
        raise LoaderError(path, f"could not be read ({exc.strerror or _one_line(exc)})") from None
    # The file may have grown between stat() and read().
    if len(data) > max_bytes:
        raise LoaderError(path, f"file too large ({_size(len(data))}; the limit is {_size(max_bytes)})")
    return data, stat.st_mtime


def _size(n: int) -> str:
    if n >= 2**20:
        return f"{n / 2**20:.1f} MiB"
    if n >= 2**10:
        return f"{n / 2**10:.1f} KiB"
    return f"{n} bytes"


def load_file(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadedDocument:
    """Load one supported file; raises LoaderError with a one-line reason when it cannot."""
    path = Path(path)
    _check_extension(path)
    data, mtime = read_file(path, max_bytes)
    return parse_file(path, data, mtime)


def _check_extension(path: Path) -> str:
    extension = path.suffix.lower()
    if extension not in SUPPORTED_EXTENSIONS:
        shown = f"'{extension}'" if extension else "(no extension)"
        raise LoaderError(path, f"unsupported file type {shown}; supported: {', '.join(sorted(SUPPORTED_EXTENSIONS))}")
    return extension


def parse_file(path: Path, data: bytes, mtime: float | None = None) -> LoadedDocument:
    """Parse bytes already read from `path` (see read_file) into a document; LoaderError when impossible."""
    extension = _check_extension(path)
    if not data:
        raise LoaderError(path, "file is empty")
    text, title = _EXTRACTORS[extension](path, data)
    if not text:
        raise LoaderError(path, "no text could be extracted")
    doc_date, date_source = resolve_document_date(text, mtime)
    return LoadedDocument(
        path=str(path.resolve()),
        title=_usable_title(title) or path.stem,
        text=text,
        sha256=bytes_digest(data),
        mime_type=MIME_TYPES[extension],
        doc_date=doc_date,
        date_source=date_source,
    )
