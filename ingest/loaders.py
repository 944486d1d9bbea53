"""Read one file into a LoadedDocument: text, title, digest, MIME type and the document's date.

Every failure is a LoaderError with a one-line reason a user can act on; no parser exception or
traceback escapes, so one bad file never stops a batch.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ingest.dates import resolve_document_date
from ingest.discovery import special_file_reason
from ingest.hashing import bytes_digest
from ingest.pdf_layout import with_layout
from ingest.tables import aligned_tables
from ingest.types import LoadedDocument
from ledger.core.errors import LoaderError

if TYPE_CHECKING:
    from bs4.element import PageElement, Tag
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
# Linear on any line: the closing #s of an ATX heading are stripped in Python, not by a backtracking pattern.
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+)$", re.MULTILINE)
_MD_SETEXT = re.compile(r"^(\S[^\n]*)\n(?:=+|-+)[ \t]*$", re.MULTILINE)
# Terminal escape sequences (CSI, OSC, two-byte) and other control characters.
_TITLE_CONTROL = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)
_JUNK_TITLES = re.compile(r"^(?:untitled.*|document\d*|microsoft word - .*|\s*)$", re.IGNORECASE)


# ---------------------------------------------------------------------------------------------- text


def _one_line(exc: BaseException, limit: int = 160) -> str:
    """A parser's exception as one short line, for a reason a user reads."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _clean(text: str) -> str:
    """Unix line endings, tables set out in columns of blanks as lines of cells, no trailing spaces, at most one
    blank line in a row."""
    text = aligned_tables(text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", ""))
    lines = [_INLINE_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def _shorten_title(title: str) -> str:
    """Collapse whitespace, drop control characters (a title must not drive a terminal), cut at MAX_TITLE_CHARS."""
    title = " ".join(_TITLE_CONTROL.sub("", title).split())
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
    lines = (line.strip().lstrip("#").strip() for line in text.split("\n"))  # a Markdown heading without its marks
    return next((line for line in lines if line), None)


# Bytes that never occur in text files (NUL and the C0 controls other than tab, newlines, form feed, ESC).
_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])
_UNICODE_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
# What a binary file most likely is, by its first bytes: named in the reason so the user knows what they gave us.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x7fELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"%PDF-", "a PDF"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\xd0\xcf\x11\xe0", "an old-style Office file"),
    (b"SQLite format 3\x00", "an SQLite database"),
)


def _refuse_binary(path: Path, data: bytes) -> None:
    """LoaderError when the bytes are not text: any NUL byte, or control bytes in more than 1% of them (and 8)."""
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if b"\x00" not in data and (controls <= 8 or controls * 100 <= len(data)):
        return
    kind = next((name for magic, name in _MAGIC if data.startswith(magic)), None)
    raise LoaderError(path, "binary content, not text" + (f" (it looks like {kind})" if kind else ""))


def _decode_utf8(path: Path, data: bytes) -> str:
    """UTF-8 with or without a BOM; anything else is refused with the offending byte and offset."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoaderError(path, "not UTF-8 text (UTF-16 byte-order mark; save the file as UTF-8)")
    _refuse_binary(path, data)
    bom = b"\xef\xbb\xbf"
    skip = len(bom) if data.startswith(bom) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start + skip
        raise LoaderError(
            path, f"not UTF-8 text (byte 0x{data[offset]:02x} at offset {offset}; save the file as UTF-8)"
        ) from None


# A quoted line of an e-mail reply or a Markdown block quote: "> text" or a bare ">" (not "> 5 years", a threshold).
_QUOTED_LINE = re.compile(r"^>+(?: (?![\d$€£¥])|$)")


def _unquoted(text: str) -> str:
    """Quoted replies read as the paragraphs they are: in a run of two or more quoted lines the ">" marks go, so
    "> From: …" and "> Priya, the hall …" stay separate lines instead of running into one sentence of marks."""
    lines = text.split("\n")
    out, run = [], []
    for line in [*lines, ""]:
        if _QUOTED_LINE.match(line):
            run.append(line)
            continue
        out += [re.sub(r"^>+ ?", "", q) for q in run] if len(run) >= 2 else run
        run = []
        out.append(line)
    return "\n".join(out[:-1])


def _load_text(path: Path, data: bytes) -> tuple[str, str | None]:
    text = _clean(_unquoted(_clean(_decode_utf8(path, data))))
    return text, _mail_subject(text) or _first_line(text)


# An e-mail's header lines (RFC 5322 field names) at the top of a saved message.
_MAIL_HEADER = re.compile(r"(?:From|To|Cc|Bcc|Date|Sent|Subject|Reply-To):[ \t]", re.IGNORECASE)


def _mail_subject(text: str) -> str | None:
    """The Subject of a saved e-mail, whose first lines are its headers ("From: …", "To: …", "Subject: …"): the
    title, rather than "From: reservations@…"."""
    head = []
    for line in text.split("\n"):
        if line.strip() and not _MAIL_HEADER.match(line.strip()):
            break
        head.append(line.strip())
    subject = next((line.split(":", 1)[1].strip() for line in head if line.lower().startswith("subject:")), "")
    return _usable_title(subject)


def _front_matter_title(text: str) -> str | None:
    """The `title:` of a YAML front matter block (between two `---` lines at the top), if any."""
    end = text.find("\n---\n", 3)
    if not text.startswith("---\n") or end < 0:
        return None
    for line in text[4:end].split("\n"):
        if line.startswith("title:"):
            value = line[len("title:") :].strip(" \t")
            if len(value) > 1 and value[0] in "\"'":
                value = value[1:]
            if len(value) > 1 and value[-1] in "\"'":
                value = value[:-1]
            return value or None
    return None


def _markdown_title(text: str) -> str | None:
    """Front matter title, else the first heading (ATX, then setext) when it is a real title."""
    candidates = [_front_matter_title(text)]
    if heading := _MD_HEADING.search(text):
        candidates.append(heading.group(1).rstrip(" \t").rstrip("#").rstrip(" \t"))
    if setext := _MD_SETEXT.search(text):
        candidates.append(setext.group(1))
    return next((c for c in candidates if _usable_title(c)), None)


def _load_markdown(path: Path, data: bytes) -> tuple[str, str | None]:
    text = _clean(_unquoted(_clean(_decode_utf8(path, data))))
    return text, _markdown_title(text) or _first_line(text)


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
            pages = [_page_text(page) for page in reader.pages]
            metadata_title = reader.metadata.title if reader.metadata else None
        except LoaderError:
            raise
        except Exception as exc:  # see the comment above
            raise LoaderError(path, f"not a readable PDF: damaged or truncated ({_one_line(exc)})") from None
    text = _clean("\n\n".join(pages))
    if not text:
        raise LoaderError(path, "no text could be extracted (the PDF may be scanned images)")
    return text, _usable_title(str(metadata_title) if metadata_title else None) or _first_line(text)


def _page_text(page: Any) -> str:
    """A page's plain text, with the table rows and paragraph ends its layout shows (`ingest.pdf_layout`)."""
    plain = page.extract_text() or ""
    try:
        layout = page.extract_text(extraction_mode="layout") or ""
    except Exception:  # noqa: BLE001 - the layout only refines the plain text; without it the plain text stands
        return plain
    return with_layout(plain, layout)


# ---------------------------------------------------------------------------------------------- html

_DROP_TAGS = frozenset({"script", "style", "nav", "noscript", "template", "svg", "iframe", "head", "title"})
_PARAGRAPH_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "pre", "blockquote"}
_LINE_TAGS = {
    "div", "section", "article", "main", "header", "footer", "aside", "li", "tr", "dt", "dd",
    "figure", "figcaption", "address", "caption", "form", "fieldset", "details", "summary", "hr",
}  # fmt: skip
# A heading keeps its level as Markdown marks it ("## Opening hours"), so "3. Budget for 2027" reads as the heading
# it is, not as the third item of a list.
_HTML_HEADING_MARKS = {f"h{n}": "#" * n + " " for n in range(1, 7)}
_TERM_END = ": "  # what ends a <dt>: its <dd> follows as the value of a "Label: value" line
_TERM_MARK = "\x02"  # where a <dt> ended (removed with the paragraph marks)
_PARAGRAPH_MARK = "\x01"
_PARAGRAPH_GAP = f"\n{_PARAGRAPH_MARK}\n"
_NEWLINE_RUN = re.compile(r"\n[\s\x01]*\n")
_HTML_SPACE = re.compile(r"\s+")


def _load_html(path: Path, data: bytes) -> tuple[str, str | None]:
    if not data.startswith(_UNICODE_BOMS):  # UTF-16/32 pages are full of NUL bytes and still text
        _refuse_binary(path, data)
    from bs4 import BeautifulSoup

    try:
        # html.parser, not lxml: same result on every machine and no optional dependency.
        soup = BeautifulSoup(data, "html.parser")
    except Exception as exc:  # any parser failure means the same thing to the user
        raise LoaderError(path, f"not readable HTML: {_one_line(exc)}") from None
    title = soup.title.get_text(" ", strip=True) if soup.title else None
    if not _usable_title(title):
        h1 = soup.find("h1")
        title = h1.get_text(" ", strip=True) if h1 else None
    # Neighbouring block tags each add their own newline: a run of newlines is one line break,
    # or one blank line when a paragraph-level tag took part in it.
    text = _NEWLINE_RUN.sub(lambda m: "\n\n" if _PARAGRAPH_MARK in m.group() else "\n", _html_text(soup))
    text = _clean(text.replace(_PARAGRAPH_MARK, "").replace(_TERM_MARK, ""))
    return text, title or _first_line(text)


def _html_text(root: Tag) -> str:
    """The page's text in one iterative pass over the tree, so its cost is linear in any nesting depth.

    Scripts, styles, navigation and comments are dropped; source whitespace collapses (except in <pre>);
    a table row becomes one line of cells joined by " | "; <br> is a line break, <li> starts with "- ";
    block tags are surrounded by newlines, paragraph-level ones by a marked blank line.
    """
    from bs4 import CData, NavigableString, Tag

    out: list[str] = []
    # (node, closing, inside <pre>): a tag is pushed once to open it and once to close it.
    stack: list[tuple[PageElement, bool, bool]] = [(child, False, False) for child in reversed(root.contents)]
    while stack:
        node, closing, in_pre = stack.pop()
        if not isinstance(node, Tag):
            kind = type(node)
            if kind is NavigableString:
                out.append(str(node) if in_pre else _HTML_SPACE.sub(" ", str(node)))
            elif kind is CData:
                out.append(str(node))
            continue  # comments, doctypes, processing instructions, ruby annotations
        name = node.name
        gap = _PARAGRAPH_GAP if name in _PARAGRAPH_TAGS else "\n" if name in _LINE_TAGS else ""
        if name == "dd" and not closing and _after_term(out):
            gap = ""  # a definition stays on its term's line: "Half term: Monday 26 October to Friday 30 October"
        if closing and name == "dt":
            out.append(" " if "".join(out[-3:]).rstrip().endswith(":") else _TERM_END)
            out.append(_TERM_MARK)
        elif closing:
            out.append(gap)
        elif name == "br":
            out.append("\n")
        elif name == "tr":
            out.append("\n" + _html_row(node, in_pre) + "\n")
        elif name not in _DROP_TAGS:
            out.append(gap + ("- " if name == "li" else _HTML_HEADING_MARKS.get(name, "")))
            inner_pre = in_pre or name == "pre"
            stack.append((node, True, in_pre))
            stack.extend((child, False, inner_pre) for child in reversed(node.contents))
    return "".join(out)


def _after_term(out: list[str]) -> bool:
    """Whether nothing but white space was written since a <dt> ended."""
    for piece in reversed(out):
        if piece == _TERM_MARK:
            return True
        if piece.strip():
            return False
    return False


def _html_row(row: Tag, in_pre: bool) -> str:
    """A table row's non-empty cells joined by " | ", with a rule under a row of header cells (`<th>`), or a field
    ("Label: value") for a header cell beside one value; text of a nested table's cell counts in that cell only."""
    from bs4 import CData, NavigableString, Tag

    cells: list[list[str]] = []
    kinds: list[str] = []
    stack: list[tuple[PageElement, int, bool]] = [(child, -1, in_pre) for child in reversed(row.contents)]
    while stack:
        node, cell, pre = stack.pop()
        if isinstance(node, Tag):
            if node.name in _DROP_TAGS:
                continue
            if node.name in ("td", "th"):
                cell = len(cells)
                cells.append([])
                kinds.append(node.name)
            inner_pre = pre or node.name == "pre"
            stack.extend((child, cell, inner_pre) for child in reversed(node.contents))
        elif cell >= 0 and type(node) in (NavigableString, CData):
            piece = (str(node) if pre or type(node) is CData else _HTML_SPACE.sub(" ", str(node))).strip()
            if piece:
                cells[cell].append(piece)
    texts = [text for text in (" ".join(parts) for parts in cells) if text]
    if kinds == ["th", "td"] and len(texts) == 2 and not texts[0].rstrip().endswith(":"):
        return f"{texts[0]}: {texts[1]}"  # a header cell that labels one value: a field ("Inspecting officer: …")
    line = " | ".join(texts)
    if len(texts) > 1 and set(kinds) == {"th"}:  # a row of header cells heads the table: a rule under it says so
        line += "\n|" + "---|" * len(texts)
    return line


# ---------------------------------------------------------------------------------------------- docx

# A zip bomb inflates a small .docx into gigabytes of XML; no real document body comes near this.
_MAX_DOCX_XML_BYTES = 200 * 2**20
# python-docx reads every part of the package into memory (styles, images, ...), not just the body.
_MAX_DOCX_UNPACKED_BYTES = 512 * 2**20
# Word's XML compresses about 10:1; a package over 100:1 and 32 MiB unpacked is built to exhaust memory.
_DOCX_MAX_RATIO = 100
_DOCX_BOMB_MIN_BYTES = 32 * 2**20
_DOCX_MISSING_PART = re.compile(r"no item named '([^']+)'")


@dataclass(frozen=True)
class _DocxStyles:
    """Which paragraph styles of one document make list items, and which make headings of which level."""

    lists: frozenset[str]
    heading_levels: dict[str, int]


_DOCX_HEADING_STYLE = re.compile(r"(?i)heading ([1-6])")


def _docx_styles(document: DocxDocument) -> _DocxStyles:
    lists, levels, titles = set(), {}, set()
    for style in document.styles:
        name, style_id = style.name or "", style.style_id
        if not style_id:
            continue
        if name.startswith("List"):
            lists.add(style_id)
        elif heading := _DOCX_HEADING_STYLE.fullmatch(name):
            levels[style_id] = int(heading.group(1))
        elif name == "Title":
            levels[style_id] = 1
            titles.add(style_id)
    if titles and any(paragraph._p.style in titles for paragraph in document.paragraphs):
        # under a Title the document's "Heading 1"s are its sections, a level below it ("## 3. Protective equipment")
        levels = {k: level if k in titles else min(6, level + 1) for k, level in levels.items()}
    return _DocxStyles(frozenset(lists), levels)


def _docx_paragraph(paragraph: Paragraph, styles: _DocxStyles, in_cell: bool = False) -> str:
    # List items carry numbering directly or through a list style such as "List Bullet"; a heading keeps its level
    # as Markdown marks it, so "3. Budget for 2027" reads as the heading it is, not as the third item of a list.
    p = paragraph._p
    style = p.style or ""
    if not in_cell and (level := styles.heading_levels.get(style)) and paragraph.text.strip():
        return "#" * level + " " + paragraph.text
    numbered = (p.pPr is not None and p.pPr.numPr is not None) or style.startswith("List") or style in styles.lists
    return ("- " if numbered else "") + paragraph.text


def _docx_cell_text(cell: _Cell, styles: _DocxStyles) -> str:
    """A cell's paragraphs, and those of tables nested in it, on one line."""
    from docx.table import Table

    parts: list[str] = []
    for item in cell.iter_inner_content():
        if not isinstance(item, Table):
            parts.append(_docx_paragraph(item, styles, in_cell=True))
        else:
            parts.extend(_docx_cell_text(inner, styles) for row in item.rows for inner in _docx_row_cells(row))
    return " ".join(parts).strip()


def _docx_row_cells(row: _Row) -> list[_Cell]:
    # Each <w:tc> once. Row.cells repeats a merged cell for every grid column and row it spans, and
    # raises on a vertical merge with nothing above it, which Word itself shrugs off.
    from docx.table import _Cell

    return [_Cell(tc, row.table) for tc in row._tr.tc_lst]


def _docx_blocks(document: DocxDocument, styles: _DocxStyles) -> list[str]:
    """Paragraphs in order; a table row becomes one line with cells separated by " | "."""
    from docx.table import Table

    blocks: list[str] = []
    for item in document.iter_inner_content():
        if not isinstance(item, Table):
            blocks.append(_docx_paragraph(item, styles))
        else:
            rows = (_docx_row_cells(row) for row in item.rows)
            cells = ([_docx_cell_text(cell, styles) for cell in row] for row in rows)
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
    except Exception:  # BadZipFile, or struct/OS errors on a mangled directory: not a zip to the user
        raise LoaderError(path, "not a valid .docx (not a zip archive)") from None
    # Sizes from the zip directory, before anything is inflated; zipfile never inflates past a declared size.
    with archive:
        if "word/document.xml" not in archive.namelist():
            raise LoaderError(path, "not a valid .docx (no word/document.xml inside)")
        unpacked = sum(info.file_size for info in archive.infolist())
        packed = sum(info.compress_size for info in archive.infolist())
        if unpacked > _DOCX_BOMB_MIN_BYTES and unpacked > _DOCX_MAX_RATIO * max(packed, 1):
            raise LoaderError(
                path, f"not a valid .docx (zip bomb: {_size(packed)} would unpack to {_size(unpacked)}; not unpacked)"
            )
        if archive.getinfo("word/document.xml").file_size > _MAX_DOCX_XML_BYTES:
            raise LoaderError(path, "not a valid .docx (document body is implausibly large)")
        if unpacked > _MAX_DOCX_UNPACKED_BYTES:
            raise LoaderError(path, "not a valid .docx (contents are implausibly large when unpacked)")
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
        text = _clean("\n\n".join(_docx_blocks(document, _docx_styles(document))))
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
    """The file's bytes and mtime, with every OS failure turned into a one-line reason.

    Only a regular file is opened, checked on the path (symlinks followed) and again on the open
    descriptor, so a FIFO, device or socket is never read even if it replaces the file in between. At
    most `max_bytes + 1` bytes are read: a file that grows past the limit while being read is refused.
    """
    try:
        info = os.stat(path)
        _check_regular(path, info)
        if info.st_size > max_bytes:
            raise LoaderError(path, f"file too large ({_size(info.st_size)}; the limit is {_size(max_bytes)})")
        # O_NONBLOCK: opening a FIFO that slipped in after the check returns at once instead of waiting for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        try:
            info = os.fstat(fd)
            _check_regular(path, info)
            data = _read_capped(fd, max_bytes + 1)
        finally:
            os.close(fd)
    except FileNotFoundError:
        reason = "dangling symlink (its target does not exist)" if os.path.islink(path) else "file not found"
        raise LoaderError(path, reason) from None
    except PermissionError:
        raise LoaderError(path, "permission denied") from None
    except IsADirectoryError:
        raise LoaderError(path, "is a directory, not a file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LoaderError(path, "symlink loop") from None
        raise LoaderError(path, f"could not be read ({exc.strerror or _one_line(exc)})") from None
    if len(data) > max_bytes:  # it grew after stat()
        raise LoaderError(path, f"file too large (more than {_size(max_bytes)}, the limit)")
    return data, info.st_mtime


def _check_regular(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise LoaderError(path, "is a directory, not a file")
    if reason := special_file_reason(info.st_mode):
        raise LoaderError(path, reason)


def _read_capped(fd: int, limit: int) -> bytes:
    """At most `limit` bytes from `fd`, whatever size the file claims."""
    parts: list[bytes] = []
    left = limit
    while left > 0:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


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
