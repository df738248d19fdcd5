"""Pre-tokenization: cut text into the pieces a model works inside, with character offsets.

Three ways, one per level:
- word:     whitespace-separated words; each word becomes its characters plus `</w>`.
- sentence: each line (split on `\\n`) is one character sequence; spaces are ordinary characters.
- byte:     chunks cut by a regex (GPT-2's by default, cl100k's and o200k's as options); the
            model then works on each chunk's UTF-8 bytes.

The three regexes are the ones tiktoken ships for `gpt2`, `cl100k_base` and `o200k_base`
(a test checks they are still equal to tiktoken's own).

Leaves out: normalization (no lowercasing, no NFC) and special tokens (see interface.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import regex

WORD_END = "</w>"

# GPT-2's pattern as tiktoken writes it (possessive quantifiers; same splits as the original).
GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}


@dataclass(frozen=True, slots=True)
class Piece:
    """A pre-tokenized piece of the input and where it sits (character offsets)."""

    text: str
    start: int
    end: int


def pattern_named(name: str) -> str:
    """The regex for a pattern name; a clear error listing the names otherwise."""
    try:
        return PATTERNS[name]
    except KeyError:
        raise ValueError(
            f"unknown pre-tokenization pattern {name!r}; choose one of {sorted(PATTERNS)}"
        ) from None


@functools.lru_cache(maxsize=16)
def compile_pattern(pat_str: str) -> regex.Pattern[str]:
    return regex.compile(pat_str)


def regex_pieces(text: str, pat_str: str = GPT2_PATTERN) -> list[Piece]:
    """Chunks cut by a tiktoken-style regex. Together they cover the text exactly."""
    return [Piece(m.group(), m.start(), m.end()) for m in compile_pattern(pat_str).finditer(text)]


def regex_chunks(text: str, pat_str: str = GPT2_PATTERN) -> list[str]:
    """Just the chunk strings (the fast path for training and encoding)."""
    return compile_pattern(pat_str).findall(text)


# GPT-2's pattern for ASCII text, in the standard library's `re`, which runs it about 2.5x
# faster than `regex` runs the Unicode one. On ASCII, \p{L} is [A-Za-z], \p{N} is [0-9] and
# regex's \s is these six characters (re's own \s would add \x1c-\x1f, which are not spaces).
_SPACE, _NOT_SPACE = r"[\t\n\x0b\x0c\r ]", r"[^\t\n\x0b\x0c\r ]"
_ASCII_GPT2 = re.compile(
    r"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]++| ?[0-9]++| ?[^\t\n\x0b\x0c\r A-Za-z0-9]++"""
    rf"|{_SPACE}++$|{_SPACE}+(?!{_NOT_SPACE})|{_SPACE}"
)
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
# A line break between two non-spaces: GPT-2's pattern makes it a chunk of its own whatever
# comes before or after, so text cut right after it gives the same chunks piece by piece.
# (re's \s holds every space regex's does, so its \S is never a space: a safe cut.)
_SAFE_CUT = re.compile(r"(?<=\S)\n(?=\S)")
_ISLAND_GAP = 2_000  # non-ASCII characters closer than this share one `regex` call


def gpt2_chunks(text: str) -> list[str]:
    """`regex_chunks(text, GPT2_PATTERN)`, faster on mostly-ASCII text: the ASCII stretches go
    through `_ASCII_GPT2`, and each stretch holding non-ASCII text, cut at safe line breaks,
    through GPT-2's own pattern. Training's pre-tokenizer (a test checks it against regex_chunks).
    """
    unicode_findall = compile_pattern(GPT2_PATTERN).findall
    chunks: list[str] = []
    done = 0  # text[:done] is chunked
    found = _NOT_ASCII.search(text)
    while found is not None:
        start = text.rfind("\n", done, found.start()) + 1  # after a safe line break, or `done`
        while start > done and not _SAFE_CUT.match(text, start - 1):
            start = text.rfind("\n", done, start - 1) + 1
        start = max(start, done)
        end = found.end()
        while True:  # past the next safe cut, and on while more non-ASCII text is close
            cut = _SAFE_CUT.search(text, end)
            end = len(text) if cut is None else cut.end()
            found = _NOT_ASCII.search(text, end)
            if found is None or found.start() - end > _ISLAND_GAP:
                break
            end = min(found.end() + _ISLAND_GAP, len(text))  # a stride, not a line at a time
        chunks += _ASCII_GPT2.findall(text[done:start])
        chunks += unicode_findall(text[start:end])
        done = end
    chunks += _ASCII_GPT2.findall(text[done:])
    return chunks


# Whitespace as str.split() sees it (the textbook's `text.split()`): regex's \s plus the four
# information separators U+001C..U+001F, which Python also counts as whitespace.
_WORD = regex.compile(r"[^\s\x1c-\x1f]+")


def word_pieces(text: str) -> list[Piece]:
    """Whitespace-separated words with offsets (the word level's pre-tokenizer)."""
    return [Piece(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def word_symbols(word: str) -> tuple[str, ...]:
    """`low` -> ('l', 'o', 'w', '</w>'): the word level's starting symbols."""
    return (*word, WORD_END)


def line_pieces(text: str) -> list[Piece]:
    """Non-empty lines split on `\\n` (the sentence level's pre-tokenizer).

    The line break itself belongs to no line: it is never a token at sentence level.
    """
    pieces = []
    start = 0
    for line in text.split("\n"):
        if line:
            pieces.append(Piece(line, start, start + len(line)))
        start += len(line) + 1
    return pieces
