"""Evidence units: the sentences of the evidence a local role may quote, and the figure conflicts between them.

A unit is a sentence of a chunk as a reader would quote it: markdown emphasis removed, soft wraps joined,
"Label: value" lines and title lines split off, a table row as the one sentence ingest made of it
("Garden waste (Collection: every two weeks; …)."), and a short list item given the
lead-in it belongs to ("Items that are never accepted: paint and batteries."). Headings are not
units but give the units below them their section. Pure functions of the chunks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, cached_property, lru_cache

from ingest.chunking import SECTION_SEPARATOR, is_field
from ledger.core.types import Chunk
from ledger.judge.claims import contains_numeric, content_stems, exclusion_reason
from ledger.judge.word_relations import POS_CODES, bundled_wordnet, is_a_kind_of, names_a_party
from ledger.text.injection import as_evidence
from ledger.text.lexicon import lexicon
from ledger.text.quantities import Quantity, compare_quantities, extract_quantities
from ledger.text.sentences import split_sentences
from ledger.text.terms import STOPWORDS, is_negated, key_terms

_MARK = r"(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(?[a-z]\))"  # a list item's bullet or number
_BULLET = re.compile(rf"[ \t]*{_MARK}[ \t]+$")  # all a line holds before its item's first word
_ITEM_MARK = re.compile(rf"^{_MARK}[ \t]+")
# a number word that makes a compound with the next word ("Twelve-volt battery", "Three-year plan") is no figure
_COMPOUND_HEAD = re.compile(r"\b[A-Za-z]+-(?=[A-Za-z])")
_HAS_WORD = re.compile(r"[^\W_]")
_TERMINAL = re.compile(r"[.!?][\"')\]*]*$")
_LABEL_LINE = re.compile(r"^[A-Z][\w ()/&.,-]{1,40}:\s+\S")  # (a comma too: "Port Manager, Port Alnach: Catriona …")
# A fenced code block ("```sh … ```") and its fence lines.
_CODE_BLOCK = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*$", re.MULTILINE)
# The label of a "Label: value" line, read from the line's start ("Visitor centre: At the top lock. ").
_LINE_FIELD = re.compile(r"^([A-Z][\w ()/&'-]{0,40}?)(:|\s+[-–—])\s+\S")  # or "E4 - High discharge temperature"
# (numbering is followed by words: "3.4.1 — 12 May" is a release's heading, its number is what it names)
_HEADING_PREFIX = re.compile(
    r"^(?:#{1,6}\s*)?(?:(?:\d{1,3}[.)]|[A-Z][.)]|§\s*\d+)(?:\d+[.)]?)*\s+(?=[^\W\d_]|[(\"'‘“]))?")
# A clause number opening a sentence ("7.3 The Licensee shall ..."): the document's numbering, not part of what it says.
CLAUSE_NUMBER = re.compile(r"^(?:\d{1,3}\.)+\d{1,3}\.?\s+(?=[A-Z])")
_EDITION = re.compile(r"\b(?:edition|version|revision|rev|draft|updated|v\d+(?:\.\d+)*|(?:19|20)\d\d)\b", re.I)
MIN_UNIT_WORDS = 2  # "3." at a chunk's end is a cut-off heading number, not a sentence
MAX_UNIT_WORDS = 80  # longer "sentences" are tables or lists that lost their line breaks; no reader wants them


@dataclass(frozen=True)
class Unit:
    """A quotable sentence of a chunk (or a table row rendered as one), with where it stands."""

    text: str
    chunk: Chunk
    offset: int  # character offset in its document, for document order
    section: str = ""  # the heading above it, if the chunk shows one
    lead: str = ""  # the earlier sentences of the field it continues ("Motion 2: to ban glass. Proposed by Ana Lee.")
    subject: str = ""  # whom its document is a record of, named by its first field ("Patient: Margaret Ellery")
    masthead: str = ""  # its document's opening lines, the title and what is under it ("Minutes of the AGM held …")
    opening: str = ""  # its document's first chunk, when retrieved: the codes it opens with name what it is of

    @property
    def order(self) -> tuple[str, int]:
        """Document order: document, then position."""
        return (self.chunk.document_id, self.offset)

    @cached_property
    def stems(self) -> frozenset[str]:
        """Content stems, for focus overlap and near-duplicate tests."""
        return frozenset(content_stems(self.text))

    @cached_property
    def under_title(self) -> bool:
        """Whether its heading is only the document's title."""
        return _title_key(self.section) == _title_key(self.chunk.title or "")

    @cached_property
    def title_stems(self) -> frozenset[str]:
        """Content stems of its document's title and opening lines, and of whom the document is a record of."""
        return _stems_of(self.chunk.title or "") | _stems_of(self.masthead) | _stems_of(self.subject)

    @cached_property
    def names_subject(self) -> frozenset[str]:
        """The content stems of whom its record is of, when it is the field that names them ("Property: Flat 3, 19
        Linden Terrace"); empty for every other unit."""
        if not self.subject or not self.is_label or not self.text.split(":", 1)[1].strip().startswith(self.subject):
            return frozenset()  # (a letter's "RE: Mr Gerald Ashworth-Pryce  DOB: …" names them, then more fields)
        return _stems_of(self.subject)

    @cached_property
    def title_initials(self) -> str:
        """The first letters of its document title's words, lower case ("rrcagm" of "Riverside Rowing Club – Annual
        General Meeting"): an acronym among them names the document."""
        return "".join(w[0] for w in re.findall(r"[A-Za-z]+", self.chunk.title or "")).lower()

    @cached_property
    def label_stems(self) -> frozenset[str]:
        """Content stems of its label, when it is a short "Label: value" line ("Secretary: Tom Egan")."""
        return _stems_of(self.text.split(":", 1)[0]) if self.is_label else frozenset()

    @cached_property
    def named_stems(self) -> frozenset[str]:
        """Its content stems, and the codes of the field it continues ("E4" of "E4 - High temperature. Restart it."):
        a code names the one thing its line is about."""
        return self.stems | frozenset(s for s in self.lead_stems if any(c.isdigit() for c in s))

    @cached_property
    def lead_stems(self) -> frozenset[str]:
        """Content stems of the earlier sentences of the field it continues."""
        return _stems_of(self.lead)

    @cached_property
    def heading_stems(self) -> frozenset[str]:
        """Content stems of the heading above it."""
        return _stems_of(self.section)

    @cached_property
    def context_stems(self) -> frozenset[str]:
        """Content stems of its chunk, document title and section, and of its document's opening words when they were
        retrieved: what the passage around it is about ("… this year's Year 5 residential trip will go ahead …" says
        what the letter's "COST AND PAYMENT" section is of)."""
        return (_stems_of(self.chunk.text) | self.title_stems | _stems_of(self.section)  # (title_stems: title too)
                | _stems_of(" ".join(self.opening.split()[:OPENING_WORDS])))

    @cached_property
    def quantities(self) -> list[Quantity]:
        """Its figures, normalised."""
        return extract_quantities(self.text)

    @cached_property
    def section_quantities(self) -> list[Quantity]:
        """The figures of the heading above it."""
        return extract_quantities(self.section) if self.section else []

    @property
    def has_figure(self) -> bool:
        """Whether it states a number, amount, duration or date."""
        return states_a_figure(self.text)

    @cached_property
    def has_amount(self) -> bool:
        """Whether it states a figure other than contact details: a telephone number, an e-mail or a web address
        ("apprentices@….co.uk; 01632 960 552.") gives no amount a "how much" question asks for."""
        return states_a_figure(_CONTACT.sub(" ", self.text))

    @property
    def is_label(self) -> bool:
        """A short "Label: value" line ("Start date: 2025-09-15"): metadata every document has its own of."""
        return bool(_LABEL_LINE.match(self.text)) and len(self.text.split()) <= 8

    @property
    def key(self) -> str:
        """Normalised text: the same sentence from two overlapping chunks has the same key."""
        return re.sub(r"\W+", " ", self.text.lower()).strip()

    @property
    def said(self) -> str:
        """What it says with the field it continues: "Motion 2: to ban glass. Carried: 30 for." """
        return f"{self.lead} {self.text}" if self.lead else self.text

    @property
    def scored_text(self) -> str:
        """What is embedded: the section name gives a short sentence its topic ("Parking: …"), and a record's field
        its subject when that is a name ("Margaret Ellery, Discharge Summary: Consultant: Dr Rahul Menon"); an
        address or a numbered thing ("Flat 3, 19 Linden Terrace") only dilutes what the field says."""
        named = self.is_label and not any(ch.isdigit() for ch in self.subject)
        topic = ", ".join(t for t in (self.subject if named else "", self.section) if t)
        return f"{topic}: {self.said}" if topic else self.said


@cache
def _item_verbs() -> frozenset[str]:
    """Verbs that make a short list item a sentence of its own (claims.toml)."""
    return lexicon().word_set("claims", "item_verbs")


@lru_cache(maxsize=512)
def _stems_of(text: str) -> frozenset[str]:
    return frozenset(content_stems(text))


_LAST_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _refers_back(sentence: str) -> bool:
    """Whether a sentence opens with a subject pronoun that stands for something before it ("It must be ordered by
    …", "They are free"; stopwords.toml `referring_subjects`)."""
    first = sentence.split(" ", 1)[0]
    return first[:1].isupper() and first.lower() in lexicon().word_set("stopwords", "referring_subjects")


@lru_cache(maxsize=1024)
def _continues(word: str) -> bool:
    """Whether a sentence opening with this word may go on from the field before it, with no subject of its own:
    a verb, adjective or adverb may ("Proposed by Lucy Wren.", "Open April to October."), a word that can only be a
    noun, a name or a function word may not ("Version 2.3, approved on 4 May.", "The library has three copies.")."""
    word = word.strip(".,;:!?\"'()").lower()
    if not word or word in STOPWORDS:
        return False
    table = bundled_wordnet()
    return any(table.pos[s] != POS_CODES["n"] for s in table.every_reading(word))


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\*\*|__|`", "", text)).strip()


def lower_first(text: str) -> str:
    """A sentence as the rest of another: its capital lowered unless it starts a name or an acronym ("Paint", not
    "ACME")."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _heading_text(sentence: str) -> str:
    return _HEADING_PREFIX.sub("", _clean(sentence)).strip(" :.-")


def _chunk_units(chunk: Chunk) -> list[Unit]:
    """The units of one chunk: its sentences in order (a table row is one, as ingest renders it)."""
    text, units = as_evidence(chunk.text), []  # a document's instructions to a model are never quoted
    # a fenced code block's lines are code: items of the lead-in above ("Install from PyPI: pip install x"), never
    # headings; its fences (same length in blanks, so offsets hold) are nothing
    code = [(m.start(), m.end()) for m in _CODE_BLOCK.finditer(text)]
    text = _CODE_FENCE.sub(lambda m: " " * len(m.group(0)), text)
    headings: list[tuple[int, str]] = []
    depths: list[int] = []  # each heading's Markdown depth (0: a plain heading line)
    lead = ""
    width = max((len(line.rstrip()) for line in text.splitlines()), default=0)
    for sentence, start, _ in split_sentences(text):
        for piece, at in _line_pieces(sentence, start, width):
            clean = _clean(piece)
            if any(a <= at < b for a, b in code):
                if lead and clean:
                    units.append(Unit(f"{lead}: {clean}", chunk, chunk.start_char + at))
                continue
            if chunk.start_char and not text[:at].strip() and (clean[:1].islower() or clean[:1] in "()[]"):
                continue  # the tail of a line the chunk starts in ("(Main Hall)"), never a heading of what follows
            if not _HAS_WORD.search(clean):
                continue  # a rule of dashes or stars under a plain-text heading: nothing, and no heading
            reason = exclusion_reason(clean)
            if reason == "fragment" and clean.endswith(".") and len(clean.split()) == 1:
                continue  # "Yes." under a question: an answer word, not the heading of what follows
            line_start = text.rfind("\n", 0, at) + 1
            # (a numbered line in capitals is a heading: "6. BREAK CLAUSE")
            is_item = bool(_BULLET.fullmatch(text[line_start:at])) and not (clean.isupper() and reason == "fragment")
            if clean.endswith(":") and reason != "heading" and not is_item:
                if reason == "fragment":  # "Required documents:" heads what follows as well
                    headings.append((at, _heading_text(piece)))
                    depths.append(0)
                lead = clean[:-1]  # … and gives the items under it their subject
                continue
            if (reason == "fragment" and not is_item and clean.endswith(".") and not clean.endswith("..") and headings
                    and (not units or units[-1].offset < chunk.start_char + headings[-1][0])):
                # a phrase with a full stop right under a heading is its value: "Allergies" above "Penicillin (rash)."
                clean, reason = f"{headings[-1][1]}: {clean}", None
            elif reason == "heading" or _opens_document(chunk, text, at, piece, clean) or (
                    not is_item and not clean.endswith(",") and not _ends_fields(text, at) and (
                    (reason == "fragment" and not is_field(clean) and not _signed(clean))
                    or (reason == "question" and _own_line(text, at, piece))
                    or (reason is None and not _TERMINAL.search(clean) and not _LABEL_LINE.match(clean)
                        and not contains_numeric(_COMPOUND_HEAD.sub("", clean))))):
                # an unpunctuated line without a figure or a label is a heading ("3. Opening hours"); so is a
                # question on a line of its own ("Can I bring my dog?" in a list of questions and answers)
                headings.append((at, _heading_text(piece)))
                depths.append(_depth(piece))
                lead = ""
                continue
            if clean[:1].islower() and not text[:at].strip():
                continue  # the chunk starts mid-sentence: the head of this sentence is in the previous chunk
            before = _clean(text[line_start:at]) if line_start < at and not is_item else ""
            # (a list item is a field too: "- Express coach (route RB2) — non-stop. Hourly, from 06:20.")
            field, field_lead = _LINE_FIELD.match(_ITEM_MARK.sub("", before)), ""
            if field and not _LINE_FIELD.match(clean) and _continues(clean.split()[0]):
                # a field's later sentences without a subject of their own are still its value: "Visitor centre: At
                # the top lock. Open April to October." says when the visitor centre opens ("Required: a book by …
                # The library has three copies." is a sentence of its own) …
                if field.group(2) == ":":  # (a code's line, "E4 - High temperature. Restart it.", is quoted as is)
                    clean = f"{field.group(1)}: {clean}"
                # … and are about what it said before: "Motion 2: to ban glass bottles. Proposed by Lucy Wren."
                field_lead = _ITEM_MARK.sub("", before)
            elif before and _LABEL_LINE.match(clean):
                # a field after a sentence of its line is that sentence's: "2. Fix the alarm. Owner: Dev Rao.", and
                # one after a field is of the same thing: "Venue: The Quayside Ground. Attendance: 2,416."
                field_lead = _ITEM_MARK.sub("", before)
            elif before and _refers_back(clean):
                # a sentence whose subject is a pronoun is about what the sentence before it names: "A hot lunch can
                # be ordered for £3.80 a day. It must be ordered by 12:00 on the Friday before the week."
                field_lead = _LAST_SENTENCE.split(_ITEM_MARK.sub("", before))[-1]
            if not is_item:
                lead = ""  # a paragraph ends the list its lead-in introduced
            elif lead:  # every item finishes its lead-in's sentence: "We will not pay for: theft from an empty home"
                clean = f"{lead}: {lower_first(clean)}"
                reason = exclusion_reason(clean)
            if reason == "fragment" and (_LABEL_LINE.match(clean) and not field_lead or _signed(clean)):
                reason = None  # a field's one-word value is a fact of the document: "Decision: REFUSED"; so is a
                # signature's role: "Mrs Annabel Kerridge, Headteacher"
            if reason is not None or not MIN_UNIT_WORDS <= len(clean.split()) <= MAX_UNIT_WORDS:
                continue
            clean = CLAUSE_NUMBER.sub("", clean)
            words = set(re.findall(r"[a-z']+", clean.lower()))
            if (is_item and not lead and headings and len(words) <= 10 and not words & _item_verbs()
                    and not _LABEL_LINE.match(clean)):
                clean = f"{headings[-1][1]}: {lower_first(clean)}"  # "Parking: two bays per flat"
            units.append(Unit(clean, chunk, chunk.start_char + at, lead=field_lead))
    opening = headings[0][0] if headings and chunk.start_char == 0 and not text[:headings[0][0]].strip() else -1
    return [_with_section(u, _paths(headings, depths, opening), chunk.start_char) for u in units]


def _signed(line: str) -> bool:
    """Whether a line is a name with the role after it, as a letter is signed ("Mrs Annabel Kerridge, Headteacher",
    "Tom Hale, Treasurer"): who holds the role, not a heading."""
    name, _, role = line.partition(", ")
    words = name.split()  # a title and a name, or two to four words of a name: "Mrs Annabel Kerridge", "Tom Hale"
    if not role or not 2 <= len(words) <= 4 or not all(w[:1].isupper() for w in words):
        return False
    table = bundled_wordnet()
    head = (re.findall(r"[A-Za-z]+", role) or [""])[-1]  # the role's last word names it ("Consultant Cardiologist")
    return bool(head) and (names_a_party(head, table, noun_here=True, head_here=True)
                           or is_a_kind_of(head.lower(), "person", table))


def _opens_document(chunk: Chunk, text: str, at: int, piece: str, clean: str) -> bool:
    """Whether a piece is a document's first line, unpunctuated and no field: its title, figures and all ("Saltmere
    Marshes winter bird survey 2026" atop a PDF whose file title is another)."""
    return (chunk.start_char == 0 and not text[:at].strip() and not _TERMINAL.search(clean)
            and not clean.endswith(",") and not _LABEL_LINE.match(clean) and _own_line(text, at, piece))


def _ends_fields(text: str, at: int) -> bool:
    """Whether the line at `at` follows a "Label: value" line with no blank line between: it ends the block of fields
    ("Judgment handed down: 20 October 2026" above "District Judge Ferreira"), it heads nothing below it."""
    line_start = text.rfind("\n", 0, at) + 1
    if not line_start or text[:line_start].endswith("\n\n"):
        return False
    above = text[text.rfind("\n", 0, line_start - 1) + 1:line_start - 1]
    return bool(_LABEL_LINE.match(_clean(above).strip()))


def _own_line(text: str, at: int, piece: str) -> bool:
    """Whether a piece of text starting at `at` is a whole line of it (markup aside)."""
    end = at + len(piece.rstrip())
    line_end = text.find("\n", end)
    after = text[end:] if line_end < 0 else text[end:line_end]
    return not _clean(text[text.rfind("\n", 0, at) + 1:at]).strip() and not _clean(after).strip()


def _line_pieces(sentence: str, start: int, width: int = 0) -> list[tuple[str, int]]:
    """Split a soft-wrapped "sentence" where its lines are really separate: "Label: value" lines, or a title line
    above the sentence it names ("Site lead\nSite lead means …"). A line of hard-wrapped text that is full (the next
    line's first word would not fit in the text's `width`) or that a lower-case line goes on from is never whole:
    "… as her employer, Kestlow\nHousing Association, is …", "Vote: 4 in favour, 0 against, 1\nabstention (TF)."."""
    lines, at, pieces = sentence.splitlines(keepends=True), start, []
    if len(lines) == 1:
        return [(sentence, start)]
    labels = any(_LABEL_LINE.match(_clean(ln)) for ln in lines)
    starts_new = True
    for i, ln in enumerate(lines):
        if starts_new:
            pieces.append((ln, at))
        else:
            pieces[-1] = (pieces[-1][0] + ln, pieces[-1][1])
        at += len(ln)
        following = lines[i + 1].lstrip() if i + 1 < len(lines) else ""
        wrapped = bool(following) and not _LABEL_LINE.match(_clean(following)) and (
            following[:1].islower() or _full(ln, following, width))
        # a capitalised line, or a numbered clause ("6.1 Either party may ..."), starts anew after a whole line
        starts_new = not wrapped and (labels or (following[:1].isupper() or bool(CLAUSE_NUMBER.match(following))) and (
            exclusion_reason(_clean(ln)) == "fragment" or _line_ends(ln)))
    return pieces


def _full(line: str, following: str, width: int) -> bool:
    """Whether a line of hard-wrapped text ends where it does for want of room: unpunctuated, and the next line's
    first word would have made it longer than the text's longest line."""
    text = line.rstrip()
    first = following.split(maxsplit=1)[0] if following.strip() else ""
    columns = re.search(r"\S {2,}\S", line) or re.search(r"\S {2,}\S", following)  # a table's rows are whole
    return bool(text) and not columns and not _TERMINAL.search(text) and len(text) + 1 + len(first) > width


def _line_ends(line: str) -> bool:
    """Whether an unpunctuated line is whole, so that a capitalised line after it starts anew ("Hotel Miradouro,
    Lisbon" above "Check-in 8 June"): it ends in a content word or a figure, not a comma, a bracket or a word that
    needs more ("… sold to" above "Acme Ltd")."""
    words = re.findall(r"[\w'’]+|[^\w\s]", line.strip())
    return bool(words) and words[-1] not in (",", ";", ":", "(", "-", "–", "—", "&") and (
        words[-1].lower() not in STOPWORDS)


def _depth(piece: str) -> int:
    marks = re.match(r"\s*(#{1,6})\s", piece)
    return len(marks.group(1)) if marks else 0


def _paths(headings: list[tuple[int, str]], depths: list[int], opening: int) -> list[tuple[int, str]]:
    """Each heading with the Markdown headings it is under in the chunk, nearest last ("Version 5.2 › Fixed"); not
    the document's title, the level-1 heading it opens with (at `opening`, or -1): a later level-1 heading is a
    section ("# 3. Protective equipment")."""
    out = []
    for k, (at, text) in enumerate(headings):
        path, level = [text], depths[k] or 7
        for j in range(k - 1, -1, -1):
            if 0 < depths[j] < level and (depths[j] > 1 or headings[j][0] != opening):
                path.insert(0, headings[j][1])
                level = depths[j]
        out.append((at, SECTION_SEPARATOR.join(path)))
    return out


def _with_section(unit: Unit, headings: list[tuple[int, str]], base: int) -> Unit:
    """The unit under the nearest heading above it: in its chunk, else the one its chunk starts under."""
    above = [h for at, h in headings if base + at < unit.offset]
    section = above[-1] if above else unit.chunk.section.rsplit(SECTION_SEPARATOR, 1)[-1]
    return replace(unit, section=section)


# contact details: an e-mail or web address, a telephone number of digit groups after a leading 0 or country code
_CONTACT = re.compile(r"\S+@\S+|\b(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)+/\S*"
                      r"|(?<![\w£$€.,])(?:\+\d{1,3}[ -]?(?:\(0\)[ -]?)?\d{1,4}|\(?0\d{2,4}\)?)(?:[ -]?\d{3,4}){2}\b")


def states_a_figure(text: str) -> bool:
    """Whether a text states a number, amount, duration or date, in figures or in words ("every quarter", "once a
    year", "on Tuesday mornings")."""
    return contains_numeric(text) or bool(extract_quantities(text))


def evidence_units(chunks: list[Chunk]) -> list[Unit]:
    """Every quotable unit of the chunks, in chunk order (overlapping chunks repeat units; the writer dedupes)."""
    units = [u for chunk in chunks for u in _chunk_units(chunk)]
    subjects = _subjects(units)
    mastheads = {c.document_id: head for c in chunks if c.start_char == 0 and (head := _masthead(c.text))}
    openings = {c.document_id: c.text for c in chunks if c.start_char == 0}
    return [replace(u, subject=subjects.get(u.chunk.document_id, ""), masthead=mastheads.get(u.chunk.document_id, ""),
                    opening=openings.get(u.chunk.document_id, "")) for u in units]


OPENING_WORDS = 80  # a document's first words say what all of it is about: its title, letterhead, first paragraph
_MASTHEAD_LINES = 3  # a document's title and the lines under it that say what it is, before its first paragraph


def _masthead(text: str) -> str:
    """A document's opening lines before its first blank line, while none ends a sentence: its title and what it
    is ("HOLLIN ROW RESIDENTS' ASSOCIATION" above "Minutes of the AGM held on 3 May 2026"; a PDF's title wrapped onto
    a second line). Pure."""
    lines = []
    for line in text.lstrip().split("\n")[:_MASTHEAD_LINES]:
        clean = _clean(line.lstrip("#>*_ "))
        if not clean or _TERMINAL.search(clean):
            break
        lines.append(clean)
    return " ".join(lines)


_NEXT_LABEL = re.compile(r"\s+(?=[A-Z][\w .]{0,20}:\s)")  # "… ASHWORTH-PRYCE DOB: 03/11/1958": the next field
_SUBJECT_LABEL_WORDS = 3  # a record's first field names its subject by a short label ("Patient", "Name of applicant")


def _subjects(units: list[Unit]) -> dict[str, str]:
    """Whom or what each document is a record of, when its opening is a block of fields and the first one names
    someone or something ("Patient: Margaret Ellery" above "Admitted: 9 November 2026", "Consultant: …"; "Property:
    Flat 3, …" above "Landlord: …"), or when a letter's opening names a person by a label such as "RE:" (the
    lexicon's `letter_subject_labels`): its other fields and sections are about them, as they are about its title.
    Pure."""
    firsts: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.chunk.start_char == 0:
            firsts.setdefault(unit.chunk.document_id, []).append(unit)
    out = {}
    letter_labels = lexicon().word_set("stopwords", "letter_subject_labels")
    for document, opening in firsts.items():
        opening.sort(key=lambda u: u.offset)
        named = next((u for u in opening if u.is_label and u.text.split(":", 1)[0].strip().lower() in letter_labels
                      and _titled_name(u.text.split(":", 1)[1])), None)
        if named is not None:  # a letter's "RE: Mr Gerald Ashworth-Pryce  DOB: …": up to the next field
            out[document] = _NEXT_LABEL.split(named.text.split(":", 1)[1].strip())[0].rstrip(" .,")
            continue
        first = _first_field_block(opening)
        if first is None:
            continue
        label, value = first.text.split(":", 1)
        names = value.strip().rstrip(".")
        # a name or a place ("Flat 3, 19 Linden Terrace"), not a date ("Issued: March 2026")
        if (len(label.split()) <= _SUBJECT_LABEL_WORDS and names[:1].isupper()
                and not any(q.kind == "date" for q in extract_quantities(names))):
            out[document] = names
    return out


LETTERHEAD_WORDS = 12  # lines of a letterhead above a record's fields are this short ("Tel: 01832 270 655")


def _first_field_block(opening: list[Unit]) -> Unit | None:
    """The first field of a record's block of fields: two or more "Label: value" lines under one heading, with only a
    letterhead's short lines above them ("41 Ferry Lane …", "Opening hours: …" above "DISCHARGE INSTRUCTIONS",
    "Patient: Biscuit", "Owner: …"). None when prose comes first."""
    for i, unit in enumerate(opening[:-1]):
        after = opening[i + 1]
        if unit.is_label and after.is_label and unit.section == after.section:
            return unit
        if len(unit.text.split()) > LETTERHEAD_WORDS:
            return None
    return None


def _titled_name(text: str) -> bool:
    """Whether a text opens with a person's title and a capitalised name ("Mr Gerald …"; the lexicon's honorifics)."""
    words = text.split()
    return (len(words) >= 2 and words[0].lower().rstrip(".") in lexicon().word_set("stopwords", "honorifics")
            and words[1][:1].isupper())


def _title_key(title: str) -> str:
    return re.sub(r"[^a-z]+", " ", _EDITION.sub(" ", title.lower())).strip()


def superseded_documents(chunks: list[Chunk]) -> set[str]:
    """Ids of documents that a newer edition in the same evidence replaces (same title but for year/edition)."""
    docs = {c.document_id: (c.title, c.doc_date) for c in chunks}
    out: set[str] = set()
    for doc_id, (title, day) in docs.items():
        if not title or day is None:
            continue
        for other_id, (other_title, other_day) in docs.items():
            if (other_id != doc_id and other_day is not None and other_day > day and title != other_title
                    and (_EDITION.search(title) or _EDITION.search(other_title))
                    and _title_key(title) == _title_key(other_title)):
                out.add(doc_id)
    return out


def figure_conflict(a: str, b: str) -> tuple[str, str] | None:
    """(figure in a, figure in b) when two sentences state the same thing with different figures, else None.

    "The same thing": at least three key terms shared, covering most of the shorter sentence, and the same
    polarity. The figures must clash both ways with the same bound: "$40 adults and $25 children" does
    not clash with "$25 children" (every figure of the latter is matched), and "within 14 days" never
    clashes with "more than 60 days".
    """
    ta, tb = set(key_terms(a)), set(key_terms(b))
    shared = ta & tb
    if len(shared) < 3 or len(shared) < 0.6 * min(len(ta), len(tb)) or is_negated(a) != is_negated(b):
        return None
    qa, qb = extract_quantities(a), extract_quantities(b)
    if not qa or not qb or all(any(same_figure(q, e) for e in qa) for q in qb):
        return None
    for match in compare_quantities(qa, qb).conflicts:
        e = match.evidence
        if e is not None and match.claim.bound == e.bound and not any(same_figure(match.claim, x) for x in qb):
            return match.claim.text, e.text
    return None


def same_figure(a: Quantity, b: Quantity) -> bool:
    """Whether b states figure a (kind, unit and value; for a date, every part a names), whatever words surround it."""
    if a.kind != b.kind or a.unit != b.unit:
        return False
    if a.kind in ("date", "weekday"):
        return all(x is None or x == y for x, y in zip(a.parts, b.parts, strict=True))
    return abs(a.value - b.value) <= 1e-9 * max(1.0, abs(a.value))
