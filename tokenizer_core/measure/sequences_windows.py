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
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal, Sequence

from ..messages import N_, Refusal
from ..tokens import Token

Boundaries = Literal["none", "paragraph"]
BOUNDARIES: tuple[Boundaries, ...] = ("none", "paragraph")
SENTENCE_END = ".!?。！？"

# How good a place to cut is; a window ends at the best one within reach, latest on ties.
NOWHERE, TOKEN, WORD, SENTENCE, PARAGRAPH = range(5)
RANK_NAMES = {TOKEN: N_("token"), WORD: N_("word"), SENTENCE: N_("sentence"),
              PARAGRAPH: N_("paragraph")}


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
        raise Refusal(N_("max length {max_length} must be at least 1"), max_length=max_length)
    if stride < 0 or stride >= max_length:
        raise Refusal(N_("stride {stride} must be at least 0 and below the max length "
                         "{max_length} (it is the overlap between one window and the next)"),
                      stride=stride, max_length=max_length)


def window_count(n: int, max_length: int, stride: int) -> int:
    """How many sliding windows n tokens make, by arithmetic alone: a caller checks its bound
    on the number of windows before any window is built (one token of step and 8,192 of length
    over 60,000 tokens would be 52,000 windows of 8,192 ids)."""
    check_window_args(max_length, stride)
    if n <= max_length:
        return 1
    return 1 + -(-(n - max_length) // (max_length - stride))  # windows start at 0, step, 2·step...


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

    NOWHERE where tokens c-1 and c share a character: a window must never split one. Elsewhere
    the whitespace run the cut touches decides (a blank line: PARAGRAPH; after a sentence end:
    SENTENCE; else WORD); a cut touching no run is a SENTENCE after 。！？, else a TOKEN.

    subtle: walking out from each cut over the spaces around it costs the run's length per cut
    (100,000 spaces hold thousands of cuts in one run); instead each run is found and ranked
    once, every character position gets its rank, and a cut looks its position up.
    """
    starts, ends = spans
    n = len(starts)
    if n == 0:
        return [PARAGRAPH]
    at = _position_ranks(text)
    inner = [NOWHERE if end > q else at[q] for end, q in zip(ends, starts[1:])]
    return [PARAGRAPH, *inner, PARAGRAPH]


def _position_ranks(text: str) -> list[int]:
    """The rank of a cut at each character position 0..len(text), runs first found by regex."""
    at = [TOKEN] * (len(text) + 1)
    for m in re.finditer("[。！？]", text):  # these end a sentence without a space after them
        at[m.end()] = SENTENCE
    for m in re.finditer(r"\s+", text):  # \s is str.isspace; the runs are maximal
        a, b = m.span()
        at[a : b + 1] = [_run_rank(text, a, b)] * (b - a + 1)  # a cut on the run, or at its edges
    at[len(text)] = PARAGRAPH
    return at


def _run_rank(text: str, a: int, b: int) -> int:
    """Rank of a cut anywhere on the whitespace run text[a:b], by the run and what precedes it."""
    if b == len(text) or re.search(r"\n[^\S\n]*\n", text[a:b]):
        return PARAGRAPH
    return SENTENCE if a and text[a - 1] in SENTENCE_END else WORD


def boundary_windows(
    text: str, tokens: Sequence[Token], max_length: int, stride: int = 0, *,
    max_windows: int | None = None,
) -> list[Window]:
    """Windows of at most max_length tokens, each ending at the best boundary within reach.

    With a stride, the next window starts up to `stride` tokens back, at the best boundary there
    (earliest on ties, for the most overlap); without one, where the last window ended.
    """
    return boundary_windows_of(text, spans_of(tokens), max_length, stride, max_windows=max_windows)


class TooManyWindows(Refusal):
    """More windows than the caller's bound; `limit` names it, so a page can say it its own way."""

    def __init__(self, limit: int) -> None:
        super().__init__(N_("these settings cut the text into more than {limit} windows; "
                            "raise the max length or lower the stride"), limit=limit)
        self.limit = limit


def boundary_windows_of(
    text: str, spans: Spans, max_length: int, stride: int = 0, *, max_windows: int | None = None
) -> list[Window]:
    """Boundary windows from token spans; `max_windows` (optional) raises TooManyWindows as soon
    as one more would be made, so a bound costs no more than the windows it allows.

    subtle: the best cut in reach is the latest cut of the highest rank present there, so each
    rank's cut positions are kept sorted and found by bisection: a window costs a few bisections
    instead of a scan of max_length candidates (8,192 tokens a window, thousands of windows).
    """
    check_window_args(max_length, stride)
    ranks = cut_ranks(text, spans)
    at = _cuts_by_rank(ranks)
    n, windows, first = len(spans[0]), [], 0
    while first < n:
        if max_windows is not None and len(windows) >= max_windows:
            raise TooManyWindows(max_windows)
        stop = _latest_best(at, first + 1, min(first + max_length, n))
        if stop is None:
            raise Refusal(N_("tokens {first}..{last} all share characters: no window of "
                             "{max_length} tokens ends between two characters; raise the max "
                             "length"), first=str(first), last=str(min(first + max_length, n)),
                          max_length=max_length)
        windows.append(_window(spans, first, stop, ranks[stop]))
        if stop == n:
            break
        # the next window starts up to `stride` back, at the best cut there, earliest on ties;
        # the stop itself is a cut, so there is always one
        first = _earliest_best(at, max(first + 1, stop - stride), stop)
    return windows


def _cuts_by_rank(ranks: list[int]) -> dict[int, list[int]]:
    """Each rank's cut positions in order, best rank first. A stable sort by rank keeps the
    positions in order within a rank, and runs in C (a loop over 160,000 cuts did not)."""
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    at, lo = {}, ranks.count(NOWHERE)
    for rank in (TOKEN, WORD, SENTENCE, PARAGRAPH):
        hi = lo + ranks.count(rank)
        at[rank] = order[lo:hi]
        lo = hi
    return dict(reversed(at.items()))  # PARAGRAPH first: the best rank is tried first


def _latest_best(at: dict[int, list[int]], lo: int, hi: int) -> int | None:
    """The latest cut in [lo, hi] of the highest rank that has one there (None: no cut)."""
    for cuts in at.values():  # PARAGRAPH first
        k = bisect_right(cuts, hi) - 1
        if k >= 0 and cuts[k] >= lo:
            return cuts[k]
    return None


def _earliest_best(at: dict[int, list[int]], lo: int, hi: int) -> int:
    """The earliest cut in [lo, hi] of the highest rank that has one there."""
    for cuts in at.values():
        k = bisect_left(cuts, lo)
        if k < len(cuts) and cuts[k] <= hi:
            return cuts[k]
    raise AssertionError(f"no cut in [{lo}, {hi}], yet {hi} is one")


@dataclass(frozen=True)
class WindowSummary:
    """The numbers under the drawing: "9 windows of 512; 12.5% of the tokens are read twice"."""

    windows: int
    tokens: int
    fed: int  # tokens the model reads in all, overlap counted each time
    overlapped: int = 0  # tokens of the text read by two windows or more

    @property
    def repeated(self) -> float:
        """Share of the text's tokens the model reads more than once: between 0 and 1 (not the
        extra reads over the tokens, which grows past 100% when windows overlap a lot)."""
        return self.overlapped / self.tokens if self.tokens else 0.0

    @property
    def reads_per_token(self) -> float:
        """Tokens read in all windows over tokens in the text: 1.0 without overlap."""
        return self.fed / self.tokens if self.tokens else 0.0


def summarize(windows: Sequence[Window], n_tokens: int) -> WindowSummary:
    return WindowSummary(len(windows), n_tokens, sum(len(w) for w in windows), overlapped(windows))


def overlapped(windows: Sequence[Window]) -> int:
    """Tokens covered by two windows or more: a sweep over the windows' ends, in any order."""
    events = sorted([(w.first, 1) for w in windows if len(w)] + [(w.stop, -1) for w in windows if len(w)])
    total = depth = 0
    last = 0
    for position, change in events:
        if depth >= 2:
            total += position - last
        depth += change
        last = position
    return total
