"""Our regexes and tiktoken's must agree on what a letter, number or mark is, character by
character, or `core:*` ids drift from tiktoken's on newly assigned characters.

tiktoken 0.14 splits text with Rust's regex crate, whose tables are Unicode 16.0; Python's
`regex` module moved to Unicode 17.0 in release 2025.10.22, which made U+3D000 a letter for us
and not for tiktoken (hypothesis found it: '\\U0003d000:A'). requirements.txt therefore pins
`regex==2025.9.18`, the last release with Unicode 16.0 tables. These tests fail loudly if either
side moves.
"""

from __future__ import annotations

import unicodedata

import pytest
import regex

from tests.shared import core, tiktoken_encoding
from tokenizer_core.registry import ENCODINGS

LETTER = regex.compile(r"\p{L}")


def test_our_regex_tables_are_unicode_16():
    assert LETTER.match("\U000105c0")  # TODHRI LETTER A: new in Unicode 16.0
    assert not LETTER.match("\U000323b0")  # assigned in Unicode 17.0: not yet a letter
    assert not LETTER.match("\U0003d000")


def _candidates() -> list[str]:
    """Code points Python 3.11's own tables (Unicode 14.0) call unassigned, in the planes where
    Unicode 15-17 assigned characters: the ones whose class depends on the table version."""
    planes = [range(0x0000, 0x40000), range(0xE0000, 0xE1000)]
    return [
        chr(c) for plane in planes for c in plane
        if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) == "Cn"
    ]


@pytest.mark.parametrize("name", ENCODINGS)
def test_every_newer_code_point_splits_like_tiktoken(name):
    ours, theirs = core(name), tiktoken_encoding(name)
    # Around the character, contexts where its class decides the split: after a letter,
    # before a letter after punctuation, and between a space and a letter.
    wrong = [
        f"U+{ord(ch):04X}" for ch in _candidates()
        for text in (ch + ":A", "a" + ch + "1", " " + ch + "b")
        if ours.encode_ordinary_ids(text) != theirs.encode_ordinary(text)
    ]
    assert not wrong, f"{len(wrong)} texts differ, first around {wrong[:5]}"

