"""The word lists of the language rules: TOML files in `lexicon/`, one per purpose, plus a workspace's own.

Each built-in file (`stopwords.toml`, `negation.toml`, …) maps names to a list of words or phrases, a list of
groups (lists of words), or a table of word → word. Entries are matched without regard to case, so they are
stored in lower case with single spaces.

A workspace extends them with the setting `judge.lexicon_dir` (`EVIDENCE_JUDGE__LEXICON_DIR`): a directory of
TOML files named like the built-in ones, whose lists are added to the built-in lists (a table's entries are
added too, the directory's winning on a clash). It may not introduce names the built-in files lack, so a typo
is an error rather than a list nobody reads.

The lexicon in force is process-wide and read once, at first use: the rules that read it are pure module
functions called from everywhere, and their results are cached per text. A process that wants other lists
sets the variable before it starts; `load_lexicon` builds one explicitly, for tests and tools.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping, Set
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import Literal, TypeAlias

from ledger.core.errors import ConfigError
from ledger.core.settings import load_settings

FILES = (
    "abbreviations", "calendar", "claims", "conditions", "contrasts", "figures", "hedges", "injection", "negation",
    "numbers", "questions", "stopwords", "synonyms",
)  # fmt: skip
Words: TypeAlias = tuple[str, ...]
Groups: TypeAlias = tuple[Words, ...]
Table: TypeAlias = Mapping[str, str]
Value: TypeAlias = Words | Groups | Table
Shape = Literal["words", "groups", "table"]


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Named word lists by file, e.g. `words("negation", "cues")`; `sources` says where they were read."""

    lists: Mapping[str, Mapping[str, Value]]
    sources: tuple[str, ...] = ()

    def _get(self, file: str, name: str, shape: Shape) -> Value:
        value = self.lists[file][name]
        if _shape(value) != shape:
            raise TypeError(f"{file}.{name} is a list of {_shape(value)}, not of {shape}")
        return value

    def words(self, file: str, name: str) -> Words:
        """A list of words or phrases, in file order (built-in entries first)."""
        return self._get(file, name, "words")  # type: ignore[return-value]

    def word_set(self, file: str, name: str) -> frozenset[str]:
        """A list of words or phrases as a set."""
        return frozenset(self.words(file, name))

    def groups(self, file: str, name: str) -> Groups:
        """A list of groups of words (synonyms, alternatives)."""
        return self._get(file, name, "groups")  # type: ignore[return-value]

    def table(self, file: str, name: str) -> Table:
        """A table of word → word (a phrase and the token it becomes, a word and its canonical form)."""
        return self._get(file, name, "table")  # type: ignore[return-value]


def _shape(value: Value) -> Shape:
    if isinstance(value, Mapping):
        return "table"
    return "groups" if value and isinstance(value[0], tuple) else "words"


def _norm(entry: str) -> str:
    return " ".join(entry.lower().split())


def _parse(raw: object, where: str) -> Value:
    """A TOML value as words, groups or a table, normalised; ConfigError naming `where` for anything else."""
    if isinstance(raw, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        return MappingProxyType({_norm(k): _norm(v) for k, v in raw.items()})
    if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        return tuple(dict.fromkeys(_norm(x) for x in raw if x.strip()))
    if isinstance(raw, list) and all(isinstance(x, list) and all(isinstance(w, str) for w in x) for x in raw):
        return tuple(tuple(dict.fromkeys(_norm(w) for w in group if w.strip())) for group in raw)
    raise ConfigError(f"{where}: expected a list of strings, a list of lists of strings, or a table of strings")


def _read(text: str, where: str) -> dict[str, Value]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from exc
    return {name: _parse(raw, f"{where}: {name}") for name, raw in data.items()}


def _merge(base: Value, extra: Value, where: str) -> Value:
    """The built-in value with the extension's entries added (the extension wins a table clash)."""
    if isinstance(base, Mapping):
        if not isinstance(extra, Mapping):
            raise ConfigError(f"{where}: expected a table of strings, like the built-in list")
        return MappingProxyType({**base, **extra})
    if isinstance(extra, Mapping) or (extra and _shape(extra) != _shape(base)):
        raise ConfigError(f"{where}: expected a list of {_shape(base)}, like the built-in list")
    return tuple(dict.fromkeys((*base, *extra)))  # type: ignore[arg-type]


def builtin_path(file: str) -> str:
    """Where a built-in lexicon file is, for messages."""
    return f"ledger/text/lexicon/{file}.toml"


def load_lexicon(extra_dir: Path | None = None) -> Lexicon:
    """The built-in lists, plus those of the TOML files in `extra_dir`; ConfigError for a bad file or name."""
    root = files("ledger.text") / "lexicon"
    lists = {name: _read((root / f"{name}.toml").read_text(encoding="utf-8"), builtin_path(name)) for name in FILES}
    sources = ["built-in"]
    if extra_dir is not None:
        directory = Path(extra_dir).expanduser()
        if not directory.is_dir():
            raise ConfigError(f"EVIDENCE_JUDGE__LEXICON_DIR: {directory} is not a directory")
        for path in sorted(directory.glob("*.toml")):
            if path.stem not in lists:
                raise ConfigError(f"{path}: not a lexicon file; the names are {', '.join(f + '.toml' for f in FILES)}")
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{path}: cannot be read ({exc})") from exc
            for name, value in _read(text, str(path)).items():
                if name not in lists[path.stem]:
                    known = ", ".join(sorted(lists[path.stem]))
                    raise ConfigError(f"{path}: unknown list {name!r}; {path.name} has {known}")
                lists[path.stem][name] = _merge(lists[path.stem][name], value, f"{path}: {name}")
        sources.append(str(directory))
    frozen = {file: MappingProxyType(values) for file, values in lists.items()}
    return Lexicon(MappingProxyType(frozen), tuple(sources))


class LiveWords(Set[str]):
    """A set of words drawn from the lexicon in force when first asked, for module constants that other modules
    import by name (`STOPWORDS`) before any lexicon is read."""

    def __init__(self, get: Callable[[], frozenset[str]]) -> None:
        self._get = get

    def __contains__(self, word: object) -> bool:
        return word in self._get()

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


@cache
def lexicon() -> Lexicon:
    """The lexicon in force: the built-in lists plus those of `judge.lexicon_dir`, read once per process."""
    return load_lexicon(load_settings().judge.lexicon_dir)
