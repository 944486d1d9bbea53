"""The lexicon: built-in word lists in TOML, and a workspace directory that adds to them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from ledger.core.errors import ConfigError
from ledger.text.lexicon import FILES, load_lexicon

ROOT = Path(__file__).resolve().parents[3]


def test_every_builtin_file_loads_in_lower_case_with_single_spaces() -> None:
    lexicon = load_lexicon()
    assert set(lexicon.lists) == set(FILES) and lexicon.sources == ("built-in",)
    assert "not" in lexicon.word_set("negation", "cues")
    assert "no later than" in lexicon.words("negation", "exemptions")
    assert ("before", "after") in lexicon.groups("contrasts", "sets")
    assert lexicon.table("synonyms", "canonical")["yearly"] == "annually"
    entries = []
    for file in lexicon.lists.values():
        for value in file.values():
            if isinstance(value, Mapping):
                entries += [*value, *value.values()]
            else:
                entries += [w for item in value for w in ((item,) if isinstance(item, str) else item)]
    assert len(entries) > 900 and all(e == " ".join(e.lower().split()) for e in entries)


def test_a_list_is_read_by_its_own_shape_only() -> None:
    with pytest.raises(TypeError, match="not of groups"):
        load_lexicon().groups("negation", "cues")


def _write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(exist_ok=True)
    (directory / name).write_text(text, encoding="utf-8")
    return directory


def test_a_directory_adds_words_groups_and_table_entries(tmp_path: Path) -> None:
    extra = _write(tmp_path / "lex", "contrasts.toml", 'sets = [["Gold", "silver", "bronze"]]\n')
    _write(extra, "synonyms.toml", '[phrases]\n"Board of Directors" = "board"\n"every  day" = "everyday"\n')
    _write(extra, "hedges.toml", 'hedges = ["I  Gather", "might"]\n')
    _write(extra, "notes.txt", "not a lexicon file, not read")
    lexicon = load_lexicon(extra)
    builtin = load_lexicon()
    assert lexicon.groups("contrasts", "sets") == (*builtin.groups("contrasts", "sets"), ("gold", "silver", "bronze"))
    phrases = lexicon.table("synonyms", "phrases")
    assert phrases["board of directors"] == "board" and phrases["every day"] == "everyday"  # the directory wins
    assert lexicon.words("hedges", "hedges") == (*builtin.words("hedges", "hedges"), "i gather")
    assert lexicon.sources == ("built-in", str(extra))


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("colours.toml", "words = []\n", "not a lexicon file"),
        ("negation.toml", 'cue = ["nary"]\n', "unknown list 'cue'"),
        ("negation.toml", 'cues = [["nary"]]\n', "expected a list of words"),
        ("synonyms.toml", 'phrases = ["a b"]\n', "expected a table of strings"),
        ("negation.toml", "cues = [1, 2]\n", "expected a list of strings"),
        ("negation.toml", "cues = [\n", "not valid TOML"),
    ],
)
def test_a_bad_extension_is_a_config_error_naming_the_file(tmp_path: Path, name: str, text: str, message: str) -> None:
    extra = _write(tmp_path / "lex", name, text)
    with pytest.raises(ConfigError, match=message) as caught:
        load_lexicon(extra)
    assert name in str(caught.value)


def test_a_missing_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="EVIDENCE_JUDGE__LEXICON_DIR: .* is not a directory"):
        load_lexicon(tmp_path / "nowhere")


_PROBE = """
import json
from ledger.backends.local.questions import stem_covered
from ledger.text.lexicon import lexicon
from ledger.text.terms import find_swaps, key_terms
print(json.dumps({
    "sources": lexicon().sources,
    "swaps": find_swaps("Members get a silver card.", "Members get a gold card."),
    "terms": [key_terms("The Board of Directors decides."), key_terms("The board decides.")],
    "synonym": stem_covered("lodg", {"hotel"}),
}))
"""


def _probe(home: Path, lexicon_dir: Path | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")}
    env["EVIDENCE_HOME"] = str(home)
    if lexicon_dir is not None:
        env["EVIDENCE_JUDGE__LEXICON_DIR"] = str(lexicon_dir)
    done = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_setting_extends_the_lists_every_rule_reads(tmp_path: Path) -> None:
    extra = _write(tmp_path / "lex", "contrasts.toml", 'sets = [["gold", "silver", "bronze"]]\n')
    _write(extra, "synonyms.toml", 'groups = [["hotel", "lodging"]]\n[phrases]\n"board of directors" = "board"\n')
    plain, extended = _probe(tmp_path / "home", None), _probe(tmp_path / "home", extra)
    assert plain == {"sources": ["built-in"], "swaps": [], "synonym": False,
                     "terms": [["board", "director", "decid"], ["board", "decid"]]}
    assert extended == {"sources": ["built-in", str(extra)], "swaps": [["silver", "gold"]],
                        "terms": [["board", "decid"], ["board", "decid"]], "synonym": True}
