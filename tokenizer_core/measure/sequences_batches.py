"""Batching by length: how much of a batch is padding, in order vs sorted into length buckets.

Every row of a batch is padded to the batch's longest row, and the model computes over the
padding too. Taking lines in order mixes a 3-token line with a 200-token one; sorting them into
buckets of similar length first wastes far less. The number the lesson cares about:
padding waste = pad tokens / all tokens computed.

Also the two attention masks a page can draw: full (every real token sees every real token,
an encoder) and causal (each sees itself and those before it, a decoder).

Leaves out: shuffling the batches for training (order does not change the waste).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Sequence

from ..messages import N_, Refusal


@dataclass(frozen=True)
class BatchPlan:
    """Batches as lists of line indices, and what padding them costs."""

    batches: tuple[tuple[int, ...], ...]
    real: int  # tokens of the lines themselves
    computed: int  # rows x longest row, summed over batches

    @property
    def padding(self) -> int:
        return self.computed - self.real

    @property
    def waste(self) -> float:
        return self.padding / self.computed if self.computed else 0.0


def plan(lengths: Sequence[int], batches: Sequence[Sequence[int]]) -> BatchPlan:
    computed = sum(len(b) * max((lengths[i] for i in b), default=0) for b in batches)
    return BatchPlan(tuple(tuple(b) for b in batches), sum(lengths), computed)


def check_batch_size(batch_size: int) -> None:
    if batch_size < 1:
        raise Refusal(N_("batch size {size} must be at least 1"), size=batch_size)


def naive_batches(lengths: Sequence[int], batch_size: int) -> BatchPlan:
    """Lines in the order they come, batch_size at a time."""
    check_batch_size(batch_size)
    idx = range(len(lengths))
    return plan(lengths, [idx[k : k + batch_size] for k in range(0, len(lengths), batch_size)])


def bucketed_batches(
    lengths: Sequence[int], batch_size: int, bucket_width: int = 8, max_tokens: int | None = None
) -> BatchPlan:
    """Lines sorted by length into buckets `bucket_width` tokens wide, batched within a bucket.

    A batch closes when it has batch_size rows, or when one more row would make
    rows x longest exceed max_tokens (the memory a step may use); a row longer than max_tokens
    on its own still gets a batch of one.
    """
    check_batch_size(batch_size)
    if bucket_width < 1:
        raise Refusal(N_("bucket width {width} must be at least 1"), width=bucket_width)
    if max_tokens is not None and max_tokens < 1:
        raise Refusal(N_("max tokens per batch {max} must be at least 1"), max=max_tokens)
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = lengths[i]  # sorted: the newcomer is the longest so far
        fits = (
            current
            and len(current) < batch_size
            and lengths[current[0]] // bucket_width == lengths[i] // bucket_width
            and (max_tokens is None or (len(current) + 1) * longest <= max_tokens)
        )
        if not fits and current:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return plan(lengths, batches)


def padding_grid(
    lengths: Sequence[int],
    batch_sizes: Sequence[int],
    bucket_widths: Sequence[int],
    max_tokens: int | None = None,
) -> dict[tuple[int, int], int]:
    """Pad tokens of bucketed_batches for every (batch size, bucket width): the chart's grid.

    Same plans as bucketed_batches, cell by cell, but the lines are sorted once and no batch
    lists are built: 10,000 lines x 72 cells stay well under a second. Without max_tokens a
    bucket's sorted lengths split into runs of batch_size, each padded to its last (longest).
    """
    for size in batch_sizes:
        check_batch_size(size)
    if any(width < 1 for width in bucket_widths):
        raise ValueError(f"bucket widths {list(bucket_widths)} must all be at least 1")
    ordered = sorted(lengths)
    real = sum(ordered)
    grid: dict[tuple[int, int], int] = {}
    for width in bucket_widths:
        buckets = _buckets(ordered, width)
        for size in batch_sizes:
            if max_tokens is None:
                computed = sum(_runs(ordered, lo, hi, size) for lo, hi in buckets)
            else:
                computed = sum(_capped(ordered[lo:hi], size, max_tokens) for lo, hi in buckets)
            grid[size, width] = computed - real
    return grid


def _runs(ordered: list[int], lo: int, hi: int, size: int) -> int:
    """Tokens computed over ordered[lo:hi] cut into runs of `size`, each padded to its last
    (longest) row: the full runs' last rows are a stride slice, the short tail is one run."""
    full = (hi - lo) // size
    computed = size * sum(ordered[lo + size - 1 : lo + full * size : size])
    return computed + (hi - lo - full * size) * ordered[hi - 1] if hi - lo > full * size else computed


def naive_padding(lengths: Sequence[int], batch_size: int) -> int:
    """Pad tokens of naive_batches, without building the batches (the chart's cheap path)."""
    check_batch_size(batch_size)
    computed = sum(
        len(run) * max(run) for run in (lengths[k : k + batch_size] for k in range(0, len(lengths), batch_size))
    )
    return computed - sum(lengths)


def _buckets(ordered: list[int], width: int) -> list[tuple[int, int]]:
    """(start, stop) of each bucket's run in the sorted lengths, found by bisection."""
    runs, lo = [], 0
    while lo < len(ordered):
        hi = bisect_left(ordered, (ordered[lo] // width + 1) * width, lo)
        runs.append((lo, hi))
        lo = hi
    return runs


def _capped(bucket: list[int], batch_size: int, max_tokens: int) -> int:
    """Tokens computed over one sorted bucket when a batch also closes at max_tokens."""
    computed = rows = longest = 0
    for n in bucket:  # sorted: the newcomer is the batch's longest
        if rows and (rows == batch_size or (rows + 1) * n > max_tokens):
            computed += rows * longest
            rows = 0
        rows, longest = rows + 1, n
    return computed + rows * longest


def full_mask(attention: Sequence[int]) -> list[list[int]]:
    """Who may look at whom in an encoder: real tokens see all real tokens, padding sees none."""
    return [[int(q and k) for k in attention] for q in attention]


def causal_mask(attention: Sequence[int]) -> list[list[int]]:
    """A decoder: each real token sees itself and the real tokens before it."""
    return [[int(q and k and j <= i) for j, k in enumerate(attention)] for i, q in enumerate(attention)]
