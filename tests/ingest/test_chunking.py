"""Chunking: sizes in model word pieces, offsets that slice back to the chunk, stable hashes."""

from __future__ import annotations

from ingest.chunking import chunk_document, is_heading, locate, section_above
from ingest.embedding import Embedder
from ingest.hashing import chunk_hash
from ingest.types import LoadedDocument


def _doc(text: str) -> LoadedDocument:
    return LoadedDocument(path="/x/doc.md", title="Doc", text=text, sha256="0" * 64, mime_type="text/markdown")


TEXT = "\n\n".join(
    f"Section {i}. Employees must submit form {i} within {i + 2} business days of the event. "
    f"Late submissions are reviewed by the compliance office, which may refuse reimbursement. "
    f"The threshold for approval in region {i} is ${i * 100} per claim."
    for i in range(1, 40)
)


def test_chunks_fit_the_model_window_and_slice_back_to_their_text() -> None:
    tokenizer = Embedder().tokenizer
    chunks = chunk_document(_doc(TEXT), "d1", tokenizer, chunk_size=200, chunk_overlap=30)
    assert len(chunks) > 5
    for chunk in chunks:
        assert len(tokenizer.encode(chunk.text, add_special_tokens=False)) <= 200
        assert TEXT[chunk.start_char : chunk.end_char] == chunk.text
        assert chunk.hash == chunk_hash(chunk.text)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[0].start_char == 0 and chunks[-1].end_char == len(TEXT.rstrip())


def test_rechunking_the_same_text_gives_the_same_hashes() -> None:
    tokenizer = Embedder().tokenizer
    first = [c.hash for c in chunk_document(_doc(TEXT), "d1", tokenizer)]
    again = [c.hash for c in chunk_document(_doc(TEXT), "d1", tokenizer)]
    assert first == again


def test_locate_tolerates_rejoined_whitespace() -> None:
    text = "Alpha  beta\ngamma delta"
    assert locate(text, "beta gamma", 0) == (7, 17)


def test_a_chunk_inside_a_long_section_knows_the_headings_it_stands_under() -> None:
    body = " ".join(f"Item {i} of the works was inspected and found in order by the site engineer." for i in range(60))
    text = f"# Works report\n\n## Library\n\n### Roof replacement\n\n{body}\n\nWork is expected to begin in May.\n"
    chunks = chunk_document(_doc(text), "d1", Embedder().tokenizer, chunk_size=120, chunk_overlap=20)
    assert len(chunks) >= 3
    assert chunks[0].section == ""  # it opens with its own headings
    assert {c.section for c in chunks[1:]} == {"Library › Roof replacement"}  # not the title, level 1


def test_the_section_is_the_nearest_heading_or_lead_in_line_never_a_bullet() -> None:
    text = ("Minutes\n\n4. Library roof\n\nThe roof leaks.\n\nItems deferred:\n\n- parking\n- Signage\n\n"
            "Work starts in May.")
    assert section_above(text, text.index("The roof"), "The roof leaks.") == "4. Library roof"
    assert section_above(text, text.index("Work"), "Work starts in May.") == "Items deferred:"
    assert section_above(text, text.index("4. Library"), "4. Library roof\n\nThe roof leaks.") == ""


def test_a_chunk_opening_inside_a_wrapped_sentence_is_under_the_heading_above() -> None:
    text = ("Heron count 2026\n\nVolunteers counted 40 herons.\nThe loss of reed beds along the\nriver "
            "worries the wardens.")
    start = text.index("The loss")
    assert section_above(text, start, text[start:]) == "Heron count 2026"  # a wrapped line opens it, no heading


def test_a_rule_of_dashes_under_a_plain_text_heading_is_no_heading() -> None:
    text = "RESULTS\n" + "-" * 70 + "\nLead exceeds the limit at the fountain.\n" + "=" * 70 + "\nEnd."
    assert section_above(text, text.index("Lead"), "Lead exceeds the limit at the fountain.") == "RESULTS"
    assert not is_heading("-" * 70)


def test_a_list_item_ending_in_a_semicolon_or_comma_is_no_heading() -> None:
    assert is_heading("4.1 From the start date, the Tenants are responsible for paying:")
    assert is_heading("Roof repairs")
    assert not is_heading("electricity and gas;")
    assert not is_heading("the TV licence,")


def test_a_field_and_its_value_is_no_heading_but_a_numbered_label_is() -> None:
    text = "Minutes\n\nPresent: Ana Ruiz, Tom Hale\nApologies: Ben Cole\n\nThe hut roof leaks."
    assert section_above(text, text.index("The hut"), "The hut roof leaks.") == "Minutes"
    assert not is_heading("**Status:** Resolved")
    assert is_heading("Part 2: Eligibility")
    assert is_heading("Appendix B: Forms")


def test_a_chunk_never_starts_or_ends_inside_a_figure() -> None:
    # a block of fields with no full stop between them is cut where a line ends, not at "£591." of "£591.95"
    fields = "\n".join(f"Line item {i} of the invoice (parts and labour): £{i * 37},{i:03d}.{i % 100:02d}"
                       for i in range(1, 60))
    chunks = chunk_document(_doc(fields), "d1", Embedder().tokenizer, chunk_size=200, chunk_overlap=30)
    assert len(chunks) > 2
    for chunk in chunks:
        assert chunk.text.split("\n")[0].startswith("Line item"), chunk.text[:40]
        assert chunk.text.rstrip()[-3] == ".", chunk.text[-40:]  # ends in a whole amount: "….27"
