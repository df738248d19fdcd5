"""Long text into windows a model can read: fixed, sliding with overlap, or cut at boundaries.

A model reads at most `max_length` tokens at once, so a long document is cut into windows:

- sliding: window k holds ids[k*(N-S) : k*(N-S)+N]; `stride` S tokens of each window are seen
  again at the start of the next, so no token loses all its left context. The last window ends
  at the last token. This is exactly HF's overflowing tokens with the same stride (tested).
  Fixed windows are the same with stride 0.
- boundary-aware: each window ends at the best place within reach: a paragraph break, else a
  sentence end, else a space between words, else any place between two tokens that does not
  cut a character in two (a byte-level tokenizer can spread one character over several tokens).

Every window reports its token range and its character span, so a page can draw it on the text.

Leaves out: what the model does with the windows (pooling answers across them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal, Sequence

from ..tokens import Token

Boundaries = Literal["none", "paragraph"]
BOUNDARIES: tuple[Boundaries, ...] = ("none", "paragraph")
SENTENCE_END = ".!?。！？"

# How good a place to cut is; a window ends at the best one within reach, latest on ties.
NOWHERE, TOKEN, WORD, SENTENCE, PARAGRAPH = range(5)
RANK_NAMES = {TOKEN: "token", WORD: "word", SENTENCE: "sentence", PARAGRAPH: "paragraph"}


@dataclass(frozen=True)
class Window:
    """Tokens [first, stop) of the text, covering characters [start, end)."""

    first: int
    stop: int
    start: int
    end: int
    cut: int = TOKEN  # what the window ends on (PARAGRAPH...), for the page's legend

    def __len__(self) -> int:
        return self.stop - self.first


def check_window_args(max_length: int, stride: int) -> None:
    if max_length < 1:
        raise ValueError(f"max length {max_length} must be at least 1")
    if stride < 0 or stride >= max_length:
        raise ValueError(f"stride {stride} must be at least 0 and below the max length {max_length} "
                         "(it is the overlap between one window and the next)")


def sliding_ranges(n: int, max_length: int, stride: int) -> list[tuple[int, int]]:
    """Token ranges of sliding windows over n tokens (HF's `Encoding.truncate` ranges)."""
    check_window_args(max_length, stride)
    step = max_length - stride
    ranges: list[tuple[int, int]] = []
    for start in range(0, max(n, 1), step):
        stop = min(start + max_length, n)
        ranges.append((start, stop))
        if stop == n:
            break
    return ranges


# --- character spans of tokens -------------------------------------------------------------------

Spans = tuple[Sequence[int], Sequence[int]]  # (starts, ends): each token's character span


def spans_of(tokens: Sequence[Token]) -> Spans:
    return [t.start for t in tokens], [t.end for t in tokens]


_LEAD = bytes(0 if 0x80 <= b < 0xC0 else 1 for b in range(256))  # 0 for UTF-8 continuation bytes


def char_spans(text: str, byte_lengths: Sequence[int]) -> Spans:
    """Character spans of tokens from their byte lengths alone, by the Token rule (a token
    inside a character maps onto it), without building Token records: for a megabyte of ids.

    subtle: leads[b] counts the characters begun up to byte b, so the character holding byte b
    is leads[b] - 1; one C-speed pass over the bytes instead of a search per token.
    """
    data = text.encode("utf-8")
    offsets = list(accumulate(byte_lengths, initial=0))
    if offsets[-1] != len(data):
        raise ValueError("the tokens' bytes do not add up to the text's UTF-8 bytes")
    leads = list(accumulate(data.translate(_LEAD)))
    leads.append(len(text) + 1)  # a token starting at the very end starts at len(text)
    starts = [leads[b] - 1 for b in offsets[:-1]]
    ends = [leads[e - 1] if e > b else s for b, e, s in zip(offsets, offsets[1:], starts)]
    return starts, ends


# --- windows -------------------------------------------------------------------------------------


def sliding_windows(tokens: Sequence[Token], max_length: int, stride: int = 0) -> list[Window]:
    """Sliding windows (fixed ones with stride 0) with their character spans."""
    return sliding_windows_of(spans_of(tokens), max_length, stride)


def sliding_windows_of(spans: Spans, max_length: int, stride: int = 0) -> list[Window]:
    return [_window(spans, a, b) for a, b in sliding_ranges(len(spans[0]), max_length, stride)]


def _window(spans: Spans, first: int, stop: int, cut: int = TOKEN) -> Window:
    if first == stop:
        return Window(first, stop, 0, 0, cut)
    return Window(first, stop, spans[0][first], spans[1][stop - 1], cut)


def cut_ranks(text: str, spans: Spans) -> list[int]:
    """ranks[c]: how good it is to cut before token c (c = 0..n; cutting at n ends the text).

    NOWHERE where tokens c-1 and c share a character: a window must never split one.
    """
    starts, ends = spans
    n = len(starts)
    ranks = [PARAGRAPH] * (n + 1)
    for c in range(1, n):
        ranks[c] = NOWHERE if ends[c - 1] > starts[c] else _rank_at(text, starts[c])
    return ranks


def _rank_at(text: str, q: int) -> int:
    """Rank a cut at character q by the whitespace run around it and what precedes that run."""
    a = q
    while a > 0 and text[a - 1].isspace():
        a -= 1
    b = q
    while b < len(text) and text[b].isspace():
        b += 1
    gap = text[a:b]
    if b == len(text) or re.search(r"\n[^\S\n]*\n", gap):
        return PARAGRAPH
    before = text[a - 1] if a > 0 else ""
    if before and before in SENTENCE_END and (gap or before in "。！？"):
        return SENTENCE
    return WORD if gap else TOKEN


def boundary_windows(
    text: str, tokens: Sequence[Token], max_length: int, stride: int = 0
) -> list[Window]:
    """Windows of at most max_length tokens, each ending at the best boundary within reach.

    With a stride, the next window starts up to `stride` tokens back, at the best boundary there
    (earliest on ties, for the most overlap); without one, where the last window ended.
    """
    return boundary_windows_of(text, spans_of(tokens), max_length, stride)


def boundary_windows_of(text: str, spans: Spans, max_length: int, stride: int = 0) -> list[Window]:
    check_window_args(max_length, stride)
    ranks = cut_ranks(text, spans)
    n, windows, first = len(spans[0]), [], 0
    while first < n:
        reach = range(first + 1, min(first + max_length, n) + 1)
        stop = max(reach, key=lambda c: (ranks[c], c))
        if ranks[stop] == NOWHERE:
            raise ValueError(
                f"tokens {first}..{reach[-1]} all share characters: no window of {max_length} tokens "
                "ends between two characters; raise the max length"
            )
        windows.append(_window(spans, first, stop, ranks[stop]))
        if stop == n:
            break
        back = [c for c in range(max(first + 1, stop - stride), stop + 1) if ranks[c] > NOWHERE]
        first = max(back, key=lambda c: (ranks[c], -c))
    return windows


@dataclass(frozen=True)
class WindowSummary:
    """The numbers under the drawing: "9 windows of 512, 64 tokens overlap, 3.1% seen twice"."""

    windows: int
    tokens: int
    fed: int  # tokens the model reads in all, overlap counted each time

    @property
    def repeated(self) -> float:
        """Share of the text's tokens the model reads more than once (overlap cost)."""
        return (self.fed - self.tokens) / self.tokens if self.tokens else 0.0


def summarize(windows: Sequence[Window], n_tokens: int) -> WindowSummary:
    return WindowSummary(len(windows), n_tokens, sum(len(w) for w in windows))
