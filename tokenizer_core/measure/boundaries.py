"""Where tokens begin and end, in bytes, and where two tokenizers disagree about it.

Boundaries are byte offsets into the text's UTF-8, so a byte-level tokenizer that cuts inside a
character and a word-level one that never does can be compared on one scale.

Leaves out: drawing the disagreement (render.py marks the tokens it is given).
"""

from __future__ import annotations

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


def disagreements(
    text: str, tokens: Sequence[Token], other: Sequence[Token]
) -> frozenset[int]:
    """Indices of `tokens` that begin or end where `other` has no boundary."""
    theirs = boundaries(byte_spans(text, other))
    return frozenset(
        i for i, (start, end) in enumerate(byte_spans(text, tokens))
        if start not in theirs or end not in theirs
    )
