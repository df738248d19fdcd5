"""Numbers about tokenized text: counts, compression, round trip, usage entropy, unknown tokens.

Each number is defined here once, in the field's usual terms, so the Playground, the Compression
page and the Languages page report the same thing under the same name.

Leaves out: tokenizing (the tokenizers do that) and charts (the app does that).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from .interface import Tokenizer
from .pretokenize import word_pieces
from .tokens import Token


@dataclass(frozen=True)
class TextStats:
    """How one tokenizer cut one text. Ratios are None when there are no tokens or words."""

    tokens: int
    characters: int
    utf8_bytes: int
    words: int

    def _ratio(self, a: int, b: int) -> float | None:
        return a / b if b else None

    @property
    def chars_per_token(self) -> float | None:
        return self._ratio(self.characters, self.tokens)

    @property
    def bytes_per_token(self) -> float | None:
        return self._ratio(self.utf8_bytes, self.tokens)

    @property
    def words_per_token(self) -> float | None:
        return self._ratio(self.words, self.tokens)

    @property
    def tokens_per_word(self) -> float | None:
        return self._ratio(self.tokens, self.words)

    def context_share(self, window: int) -> float:
        """Fraction of a context window of `window` tokens this text fills (may exceed 1)."""
        if window <= 0:
            raise ValueError(f"a context window holds at least one token, got {window}")
        return self.tokens / window


def text_stats(text: str, tokens: Sequence[Token]) -> TextStats:
    """Counts for text and its tokens; words are whitespace-separated, as `str.split` sees them."""
    return TextStats(
        tokens=len(tokens),
        characters=len(text),
        utf8_bytes=len(text.encode("utf-8")),
        words=len(word_pieces(text)),
    )


@dataclass(frozen=True)
class RoundTrip:
    """Whether decode(encode(text)) gave the text back, and if not, what was lost."""

    ok: bool
    decoded: str
    lost: str  # "" when ok


def round_trip(tokenizer: Tokenizer, text: str, tokens: Sequence[Token]) -> RoundTrip:
    decoded = tokenizer.decode([t.id for t in tokens])
    if decoded == text:
        return RoundTrip(True, decoded, "")
    normal_form = getattr(tokenizer, "normal_form", None)
    if normal_form is not None and decoded == normal_form(text):
        level = getattr(tokenizer, "level", "")
        what = "line breaks" if level == "sentence" else "whitespace layout (spaces, tabs, newlines)"
        return RoundTrip(False, decoded, f"{what}: this level does not keep them")
    return RoundTrip(False, decoded, _first_difference(text, decoded))


def _first_difference(expected: str, got: str) -> str:
    i = next((k for k, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    want, have = expected[i : i + 12], got[i : i + 12]
    return f"differs from character {i}: the text has {want!r}, decoding gives {have!r}"


def usage_entropy(ids: Iterable[int]) -> float:
    """Shannon entropy, in bits, of how often each token id is used."""
    counts = Counter(ids)
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def normalized_entropy(ids: Iterable[int], vocab_size: int) -> float:
    """Usage entropy divided by its maximum, log2(vocab size): 1 means every token used evenly."""
    if vocab_size < 2:
        return 0.0
    return usage_entropy(ids) / math.log2(vocab_size)


def unk_rate(tokens: Sequence[Token], unk_ids: frozenset[int]) -> float:
    """Share of tokens that are the unknown token (0 for byte-level tokenizers)."""
    return sum(t.id in unk_ids for t in tokens) / len(tokens) if tokens else 0.0
