"""Where tokens begin and end, in bytes, and where two tokenizers disagree about it.

Boundaries are byte offsets into the text's UTF-8, so a byte-level tokenizer that cuts inside a
character and a word-level one that never does can be compared on one scale.

Leaves out: drawing the disagreement (render.py marks the tokens it is given).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

from ..tokens import ByteToChar, Token


def byte_spans(text: str, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Each token's [start, end) in the text's UTF-8 bytes.

    Tokens that tile the bytes exactly (byte level) are placed by their own lengths, which is
    exact even inside a character; others (word level, WordPiece, gaps between words) are placed
    by their character offsets.
    """
    encoded_length = len(text.encode("utf-8"))
    if sum(len(t.bytes) for t in tokens) == encoded_length and not any(
        t.start > prev.end for prev, t in zip(tokens, tokens[1:])
    ):
        spans, offset = [], 0
        for token in tokens:
            spans.append((offset, offset + len(token.bytes)))
            offset += len(token.bytes)
        return spans
    index = ByteToChar(text)
    starts = index.char_byte_starts + [encoded_length]
    return [(starts[t.start], starts[t.start] + len(t.bytes) if t.bytes else starts[t.end]) for t in tokens]


def boundaries(spans: Sequence[tuple[int, int]]) -> frozenset[int]:
    return frozenset(offset for span in spans for offset in span)


def unshared(spans: Sequence[tuple[int, int]], other: Sequence[tuple[int, int]]) -> frozenset[int]:
    """Indices of `spans` whose cuts `other` does not share: a start or an end that is not a
    boundary of `other`, or a boundary of `other` strictly inside the span.

    subtle: the inside matters. o200k's one token for a Chinese word starts and ends where GPT-2
    cuts too, but GPT-2 also cuts inside it twice; checking only the ends would mark nearly every
    GPT-2 token and almost no o200k one, which a class reads as "o200k agrees". With the inside
    checked, each side marks what the other cuts differently, and two equal tokenizations mark
    nothing.
    """
    theirs = sorted(boundaries(other))
    shared = set(theirs)
    marked = []
    for i, (start, end) in enumerate(spans):
        after_start = bisect_right(theirs, start)  # the first boundary of theirs past `start`
        cut_inside = after_start < len(theirs) and theirs[after_start] < end
        if start not in shared or end not in shared or cut_inside:
            marked.append(i)
    return frozenset(marked)


def disagreements(
    text: str, tokens: Sequence[Token], other: Sequence[Token]
) -> frozenset[int]:
    """Indices of `tokens` whose cuts `other` does not share (see `unshared`): ask both ways,
    `disagreements(text, a, b)` and `disagreements(text, b, a)`, to mark both panels."""
    return unshared(byte_spans(text, tokens), byte_spans(text, other))
