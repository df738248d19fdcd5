"""JSON written while it is produced: the command line's long answers, never held as one string.

What it adds: `JsonStream`, an object whose one long list (tokens, windows, chunks) is an
iterator, and `write_json`, which writes it in pieces of about 1 MB that join into exactly what
json.dumps(..., ensure_ascii=False) gives for the whole. 2 MB of text is about 600,000 tokens:
as one list of dicts and one string they peaked at 750 MB, streamed at 250 MB (the tokens).

Leaves out: what goes in the rows (cli.py) and reading JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable, Iterator


@dataclass(frozen=True)
class JsonStream:
    """A JSON object whose one long list is written while it is produced: `head`'s keys, then
    `key`: [rows], the rows drawn from an iterator only as they are written."""

    head: dict[str, Any]
    key: str
    rows: Iterable[Any]


def json_chunks(result: dict[str, Any] | JsonStream) -> Iterator[str]:
    """The same text as json.dumps(result, ensure_ascii=False), in pieces of about 1 MB."""
    if isinstance(result, dict):
        yield json.dumps(result, ensure_ascii=False)
        return
    head = json.dumps({**result.head, result.key: []}, ensure_ascii=False)
    assert head.endswith("[]}"), head  # the list is the last key: its rows go before "]}"
    yield head[:-2]
    pieces: list[str] = []
    size, separator = 0, ""
    for row in result.rows:
        pieces.append(json.dumps(row, ensure_ascii=False))
        size += len(pieces[-1])
        if size > 1_000_000:
            yield separator + ", ".join(pieces)
            pieces, size, separator = [], 0, ", "
    yield (separator if pieces else "") + ", ".join(pieces) + "]}"


def write_json(result: dict[str, Any] | JsonStream, out: BinaryIO) -> None:
    for chunk in json_chunks(result):
        out.write(chunk.encode("utf-8"))
    out.write(b"\n")
