"""Sentences in the app's data files, for the catalog: a Babel extractor for JSON.

Presets' titles and notes, Practice's exercises, hints and feedback live in data/*.json, not in
code; `pybabel extract` finds them through this extractor (locales/babel.cfg names the files and
the fields a person reads), and the page passes each through `_()` where it shows it. Token
text, code and ids in the same files are not read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any


def strings_in(value: Any, fields: frozenset[str], key: str | None = None) -> Iterator[str]:
    """Every string under one of `fields`, depth first, in the file's order."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from strings_in(item, fields, name)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item, fields, key)
    elif isinstance(value, str) and key in fields and value.strip():
        yield value


def extract_json(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: dict[str, str]) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor interface: (line, function, message, comments) per string found."""
    raw = fileobj.read().decode("utf-8")
    fields = frozenset(options.get("fields", "").split())
    for message in strings_in(json.loads(raw), fields):
        at = raw.find(json.dumps(message, ensure_ascii=False)[1:-1])
        yield (raw.count("\n", 0, at) + 1 if at >= 0 else 1), None, message, []
