"""The three levels a BPE works at, and the starting symbols of each.

`word`: whitespace-split words, each ending in `</w>`; `sentence`: each line a sequence of
characters, spaces included; `byte`: the UTF-8 bytes of regex-cut chunks, 256 base symbols.
Models, trainers and lessons all speak of symbols and levels, so they live here, below them all.

Symbols are `str` at the word and sentence levels and single `bytes` at the byte level.

Leaves out: cutting text into pieces (pretokenize.py) and counting them (trainers/corpus.py).
"""

from __future__ import annotations

from typing import Literal, Union

Level = Literal["word", "sentence", "byte"]
LEVELS: tuple[Level, ...] = ("word", "sentence", "byte")
Symbol = Union[str, bytes]
BYTE_SYMBOLS: tuple[bytes, ...] = tuple(bytes([b]) for b in range(256))


def byte_parts(data: bytes) -> tuple[bytes, ...]:
    """`b"hi"` -> (b"h", b"i"): the byte level's starting symbols, one per byte."""
    return tuple(BYTE_SYMBOLS[b] for b in data)


def check_level(level: str) -> Level:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return level  # type: ignore[return-value]
