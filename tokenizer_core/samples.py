"""The built-in data: classroom presets, samples, articles, parallel sentences, emoji, playground
presets.

Every file lives in `data/` at the root of the repository (`DATA_DIR`, store.DATA: inside the
package once it is installed with `pip install .`). `data/README.md` describes each file and
its format.

Adds: typed loaders that check each file's format and size bound and raise `ValueError` naming
the file, the line and the fix; `parse_parallel` checks user uploads with the same rules as the
built-in `en_zh.tsv`, and `parse_multilingual` reads files of two or more languages
(`en<TAB>zh<TAB>ja...`, like the built-in `multi.tsv`) with the same bounds. Also `english_reference_corpus`, Python's own documentation text, which
ships with every Python (`pydoc_data.topics`), for training on real English offline.

Leaves out: tokenizing, training and caching (the app caches what it loads, keyed on names).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .levels import LEVELS, Level
from .store import DATA

DATA_DIR = DATA  # store.py: beside the package in a checkout, inside it once installed

# Bounds (bytes or characters, as named). data/README.md lists them too.
MAX_DATA_FILE_BYTES = 256 * 1024  # any single built-in file
SAMPLE_BOUNDS: dict[str, tuple[int, int]] = {  # name -> (min, max) UTF-8 bytes
    "english": (2_000, 8_000),
    "chinese": (2_000, 8_000),
    "code": (1_500, 6_000),
    "emoji": (1_000, 4_000),
    "mixed_default": (50, 1_000),
}
# The long corpora: enough text for a byte-level BPE to learn 4,000+ merges on 90% of it and be
# measured on the rest (the Compression page's curves). name -> (min, max) UTF-8 bytes.
CORPUS_BOUNDS: dict[str, tuple[int, int]] = {
    "chinese": (40_000, 256_000),
    "code": (40_000, 256_000),
    "emoji": (40_000, 256_000),
}
# Long articles: prose with paragraphs, sentences and words for the Sequences page's windows
# (20,000+ characters: dozens of windows of 128 tokens). name -> (min, max) UTF-8 bytes.
ARTICLE_BOUNDS: dict[str, tuple[int, int]] = {
    "cutting_text": (20_000, 40_000),
}
MAX_PRESET_MERGES = 1_000
MAX_PRESET_WORDS = 10_000
MAX_PARALLEL_CHARS = 1_000_000  # a whole parallel file, built-in or uploaded
MAX_PARALLEL_PAIRS = 20_000
MAX_FIELD_CHARS = 1_000  # one sentence of a pair (or of a row, in a many-language file)
MAX_PARALLEL_LANGUAGES = 12  # columns of a many-language parallel file
MAX_EMOJI_CODE_POINTS = 16  # one catalogue entry; tag flags are the longest at 7
MAX_PLAYGROUND_TEXT_CHARS = 2_000

PARALLEL_HEADER = ("en", "zh")
# BCP-47-like: a 2-3 letter language, then subtags for script, region or variant (zh-Hant,
# en-GB, sr-Latn-RS). A shape check only: no list of languages to go stale.
LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
EMOJI_HEADER = ("category", "name", "emoji")
EMOJI_CATEGORIES = ("single", "skin_tone", "zwj_family", "zwj", "flag", "tag_flag", "keycap")
PresetKind = Literal["counts", "text"]


@dataclass(frozen=True)
class Preset:
    """One classroom example for the merge-step animation, as listed in data/presets.json."""

    id: str
    title: str
    description: str  # a sentence or two for the teacher: what the example shows
    kind: PresetKind  # "counts": a {word: count} table; "text": plain text
    file: str  # relative to data/
    level: Level  # the level it is meant to be trained at
    merges: int  # suggested number of merges


@dataclass(frozen=True)
class ParallelPair:
    en: str
    zh: str
    line: int  # 1-based line in the file it came from


@dataclass(frozen=True)
class ParallelRow:
    """One meaning in every language of a file, in the header's order."""

    texts: tuple[str, ...]
    line: int  # 1-based line in the file it came from


@dataclass(frozen=True)
class ParallelSet:
    """A many-language parallel file: language codes (the first is the base) and rows."""

    languages: tuple[str, ...]
    rows: tuple[ParallelRow, ...]

    def column(self, language: str) -> list[str]:
        """Every row's text in one language."""
        if language not in self.languages:
            raise ValueError(
                f"no column {language!r}; the file has {', '.join(self.languages)}"
            )
        i = self.languages.index(language)
        return [row.texts[i] for row in self.rows]


@dataclass(frozen=True)
class EmojiEntry:
    category: str
    name: str
    emoji: str

    @property
    def code_points(self) -> list[str]:
        return [f"U+{ord(c):04X}" for c in self.emoji]


@dataclass(frozen=True)
class PlaygroundPreset:
    id: str
    label: str
    text: str
    what_to_notice: str


def _read(relpath: str, max_bytes: int = MAX_DATA_FILE_BYTES) -> str:
    """A built-in file's text, checked for presence, size and UTF-8."""
    path = DATA_DIR / relpath
    shown = f"data/{relpath}"
    if not path.is_file():
        raise FileNotFoundError(
            f"built-in data file {shown} is missing; restore it with `git checkout -- {shown}`"
        )
    size = path.stat().st_size
    if size > max_bytes:
        raise ValueError(f"{shown} is {size:,} bytes, over its bound of {max_bytes:,}; shorten it")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{shown} is not valid UTF-8 ({err}); save it as UTF-8") from err


def _json(relpath: str) -> object:
    try:
        return json.loads(_read(relpath))
    except json.JSONDecodeError as err:
        raise ValueError(f"data/{relpath}, line {err.lineno}: invalid JSON: {err.msg}") from err


def _check_unique(ids: list[str], where: str) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError(f"{where}: preset ids must be unique, got {ids}")


def _text_field(record: dict, key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: field {key!r} must be a non-empty string, got {value!r}")
    return value


# --- classroom presets ---------------------------------------------------------------------


def _preset(record: object, where: str) -> Preset:
    if not isinstance(record, dict):
        raise ValueError(f"{where}: each preset must be a JSON object, got {record!r}")
    kind = _text_field(record, "kind", where)
    level = _text_field(record, "level", where)
    merges = record.get("merges")
    file = _text_field(record, "file", where)
    if kind not in ("counts", "text"):
        raise ValueError(f"{where}: kind {kind!r} must be 'counts' or 'text'")
    if level not in LEVELS:
        raise ValueError(f"{where}: level {level!r} must be one of {', '.join(LEVELS)}")
    if type(merges) is not int or not 1 <= merges <= MAX_PRESET_MERGES:
        raise ValueError(f"{where}: merges must be an integer from 1 to {MAX_PRESET_MERGES}")
    if ".." in Path(file).parts or Path(file).is_absolute():
        raise ValueError(f"{where}: file {file!r} must be a path inside data/")
    fields = ("id", "title", "description")
    return Preset(*(_text_field(record, k, where) for k in fields), kind, file, level, merges)


def presets() -> list[Preset]:
    """The classroom presets listed in data/presets.json, in the order listed."""
    records = _json("presets.json")
    if not isinstance(records, list) or not records:
        raise ValueError("data/presets.json must be a non-empty JSON list of presets")
    found = [_preset(r, f"data/presets.json, preset {i}") for i, r in enumerate(records, 1)]
    _check_unique([p.id for p in found], "data/presets.json")
    return found


def _counts(table: object, where: str) -> dict[str, int]:
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{where} must be a non-empty JSON object {{word: count}}")
    if len(table) > MAX_PRESET_WORDS:
        raise ValueError(f"{where} has {len(table):,} words, over the bound {MAX_PRESET_WORDS:,}")
    for word, count in table.items():
        if not word or word != word.strip() or len(word.split()) != 1:
            raise ValueError(f"{where}: {word!r} must be one word without spaces")
        if type(count) is not int or count < 1:
            raise ValueError(f"{where}: the count of {word!r} must be a positive integer")
    return dict(table)


def load_preset(preset_id: str) -> str | dict[str, int]:
    """A preset's corpus: the text (final newline removed) or the {word: count} table."""
    by_id = {p.id: p for p in presets()}
    if preset_id not in by_id:
        raise ValueError(f"unknown preset {preset_id!r}; choose one of {', '.join(by_id)}")
    preset = by_id[preset_id]
    if preset.kind == "counts":
        return _counts(_json(preset.file), f"data/{preset.file}")
    text = _read(preset.file).rstrip("\r\n")
    if not text.strip():
        raise ValueError(f"data/{preset.file} is empty; write the preset's text into it")
    return text


# --- sample texts --------------------------------------------------------------------------


def _bounded_text(kind: str, folder: str, bounds: dict[str, tuple[int, int]], name: str) -> str:
    """data/<folder>/<name>.txt exactly as stored, checked against its (min, max) bytes."""
    if name not in bounds:
        raise ValueError(f"unknown {kind} {name!r}; choose one of {', '.join(bounds)}")
    low, high = bounds[name]
    text = _read(f"{folder}/{name}.txt", max_bytes=high)
    if len(text.encode("utf-8")) < low:
        raise ValueError(f"data/{folder}/{name}.txt is under its bound of {low:,} bytes")
    return text


def sample_text(name: str) -> str:
    """One of the built-in samples (see SAMPLE_BOUNDS for names and sizes), exactly as stored."""
    return _bounded_text("sample", "samples", SAMPLE_BOUNDS, name)


def corpus_text(name: str) -> str:
    """One of the long corpora in data/corpora (see CORPUS_BOUNDS), exactly as stored."""
    return _bounded_text("corpus", "corpora", CORPUS_BOUNDS, name)


def article_text(name: str) -> str:
    """One of the long articles in data/articles (see ARTICLE_BOUNDS), exactly as stored."""
    return _bounded_text("article", "articles", ARTICLE_BOUNDS, name)


def english_reference_corpus() -> str:
    """Python's own documentation (pydoc_data.topics, about 465 KB of English prose and code).

    It ships with every Python, so it is a real English corpus that needs no download.
    Topics are joined in sorted key order so the text is the same on every run.
    """
    try:
        from pydoc_data.topics import topics
    except ImportError as err:  # some distributions split the docs out of the stdlib
        raise ValueError(
            "pydoc_data.topics is missing from this Python; install the full standard "
            "library (e.g. Debian's libpython3-stdlib) or pick another corpus"
        ) from err
    return "\n".join(topics[key] for key in sorted(topics))


# --- tab-separated files -------------------------------------------------------------------


def _tsv_rows(text: str, header: tuple[str, ...], source: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) for each data row; checks the header and the field count.

    subtle: split on "\\n" only, not str.splitlines, which also breaks on U+2028 and U+0085
    and would shift line numbers or cut a sentence in two.
    """
    expected = "<TAB>".join(header)
    rows: list[tuple[int, list[str]]] = []
    seen_header = False
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if not seen_header:
            if tuple(f.strip() for f in fields) != header:
                hint = " (columns must be separated by a tab)" if "\t" not in line else ""
                raise ValueError(
                    f"{source}, line {number}: expected the header line {expected!r}, "
                    f"got {line[:60]!r}{hint}; add the header as the first line"
                )
            seen_header = True
            continue
        if len(fields) != len(header):
            raise ValueError(
                f"{source}, line {number}: expected {len(header)} tab-separated fields "
                f"({', '.join(header)}), found {len(fields)}; remove tabs inside fields"
            )
        for name, value in zip(header, fields):
            if not value.strip():
                raise ValueError(f"{source}, line {number}: the {name!r} field is empty")
        rows.append((number, [f.strip() for f in fields]))
    if not seen_header:
        raise ValueError(f"{source}: no header line {expected!r}; add it as the first line")
    if not rows:
        raise ValueError(f"{source}: no rows after the header; add one per line")
    return rows


def parse_parallel(text: str, source: str = "uploaded file") -> list[ParallelPair]:
    """Parse parallel sentences: UTF-8 text, header `en<TAB>zh`, one pair per line.

    Blank lines and lines starting with `#` are skipped. Used for the built-in file and for
    uploads alike; `source` names the file in error messages.
    """
    _check_parallel_size(text, source)
    pairs = []
    for number, (en, zh) in _tsv_rows(text, PARALLEL_HEADER, source):
        if max(len(en), len(zh)) > MAX_FIELD_CHARS:
            raise ValueError(
                f"{source}, line {number}: a sentence is over {MAX_FIELD_CHARS:,} characters; "
                "split it into shorter sentences"
            )
        pairs.append(ParallelPair(en, zh, number))
    if len(pairs) > MAX_PARALLEL_PAIRS:
        raise ValueError(
            f"{source} has {len(pairs):,} pairs, over the bound of {MAX_PARALLEL_PAIRS:,}; "
            "split the file"
        )
    return pairs


def _check_parallel_size(text: str, source: str) -> None:
    if len(text) > MAX_PARALLEL_CHARS:
        raise ValueError(
            f"{source} has {len(text):,} characters, over the bound of {MAX_PARALLEL_CHARS:,}; "
            "use a shorter file"
        )


def _language_header(text: str, source: str) -> tuple[str, ...]:
    """The first line that is not blank or a comment, read as language codes and checked."""
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{source}, line {number}"
        if "\t" not in line:
            raise ValueError(
                f"{where}: a parallel file needs at least two languages in its header, such as "
                f"'en<TAB>zh<TAB>ja', got {line[:60]!r} (columns must be separated by a tab)"
            )
        codes = tuple(f.strip() for f in line.split("\t"))
        for code in codes:
            if not LANGUAGE_CODE.fullmatch(code):
                raise ValueError(
                    f"{where}: {code!r} is not a language code; write codes such as en, zh, "
                    "ja, pt-BR or zh-Hant, one per column"
                )
        for code in codes:
            if codes.count(code) > 1:
                raise ValueError(f"{where}: the language {code!r} appears twice; keep one column")
        if len(codes) > MAX_PARALLEL_LANGUAGES:
            raise ValueError(
                f"{where}: {len(codes)} languages, over the bound of {MAX_PARALLEL_LANGUAGES}; "
                "split the file"
            )
        return codes
    raise ValueError(f"{source}: no header line such as 'en<TAB>zh'; add it as the first line")


def parse_multilingual(text: str, source: str = "uploaded file") -> ParallelSet:
    """Parse a parallel file of two or more languages: header `en<TAB>zh<TAB>ja...` (language
    codes; the first is the base the others are compared with), then one row per line, the
    same meaning in each language. An `en<TAB>zh` file is the two-language case.

    Same rules and bounds as parse_parallel: comments, blank lines, BOM and CRLF tolerated;
    MAX_PARALLEL_CHARS per file, MAX_PARALLEL_PAIRS rows, MAX_FIELD_CHARS per text; plus at most
    MAX_PARALLEL_LANGUAGES columns.
    """
    _check_parallel_size(text, source)
    languages = _language_header(text, source)
    rows = []
    for number, texts in _tsv_rows(text, languages, source):
        if max(map(len, texts)) > MAX_FIELD_CHARS:
            raise ValueError(
                f"{source}, line {number}: a sentence is over {MAX_FIELD_CHARS:,} characters; "
                "split it into shorter sentences"
            )
        rows.append(ParallelRow(tuple(texts), number))
    if len(rows) > MAX_PARALLEL_PAIRS:
        raise ValueError(
            f"{source} has {len(rows):,} rows, over the bound of {MAX_PARALLEL_PAIRS:,}; "
            "split the file"
        )
    return ParallelSet(languages, tuple(rows))


def multilingual_set() -> ParallelSet:
    """The built-in eight-language set, data/parallel/multi.tsv."""
    relpath = "parallel/multi.tsv"
    return parse_multilingual(_read(relpath), source=f"data/{relpath}")


def parallel_pairs() -> list[ParallelPair]:
    """The built-in English/Chinese pairs, data/parallel/en_zh.tsv."""
    relpath = "parallel/en_zh.tsv"
    return parse_parallel(_read(relpath), source=f"data/{relpath}")


def emoji_catalogue() -> list[EmojiEntry]:
    """data/emoji.tsv: `category<TAB>name<TAB>emoji`, categories as in EMOJI_CATEGORIES."""
    source = "data/emoji.tsv"
    entries = []
    for number, (category, name, emoji) in _tsv_rows(_read("emoji.tsv"), EMOJI_HEADER, source):
        if category not in EMOJI_CATEGORIES:
            raise ValueError(
                f"{source}, line {number}: unknown category {category!r}; "
                f"use one of {', '.join(EMOJI_CATEGORIES)}"
            )
        if len(emoji) > MAX_EMOJI_CODE_POINTS:
            raise ValueError(f"{source}, line {number}: over {MAX_EMOJI_CODE_POINTS} code points")
        entries.append(EmojiEntry(category, name, emoji))
    return entries


# --- playground presets --------------------------------------------------------------------


def playground_presets() -> list[PlaygroundPreset]:
    """data/playground_presets.json: texts that show classic tokenizer quirks."""
    source = "data/playground_presets.json"
    records = _json("playground_presets.json")
    if not isinstance(records, list) or not records:
        raise ValueError(f"{source} must be a non-empty JSON list")
    found = []
    for i, record in enumerate(records, start=1):
        where = f"{source}, preset {i}"
        if not isinstance(record, dict):
            raise ValueError(f"{where}: must be a JSON object, got {record!r}")
        fields = [_text_field(record, k, where) for k in ("id", "label", "text", "what_to_notice")]
        if len(fields[2]) > MAX_PLAYGROUND_TEXT_CHARS:
            raise ValueError(f"{where}: text is over {MAX_PLAYGROUND_TEXT_CHARS:,} characters")
        found.append(PlaygroundPreset(*fields))
    _check_unique([p.id for p in found], source)
    return found
