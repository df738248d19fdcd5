"""Encoding one piece with learned merges: lowest rank first, leftmost on ties.

Given a piece's starting parts (characters or bytes) and a `rank_of(left, right)` rule, join the
adjacent pair with the lowest rank, the leftmost one when ranks tie, until no adjacent pair has a
rank. This is tiktoken's rule (`_byte_pair_merge`); for merges learned by training, where a pair
made from a new token always ranks after that token, it gives the same parts as applying the
merges one by one in rank order, each to every occurrence left to right (the textbook encode).

`learned_rank_of(merges)` is the rule for learned merges (minbpe's and HF's): only a learned
pair joins, at its first place in `merges` (`pair_ranks`).

Versions of the same rule:
- `merge_traced`: the obviously-right loop, one record per join, for replays and as the oracle;
- `merge_spans` on short pieces: a list of pair ranks updated around each join;
- `merge_spans` on long pieces: a heap over a linked list, so a 20,000-digit run stays fast;
- `join_ranks`: either of those, reporting the rank of each join in order (measure/merge_prefix.py uses it);
- `byte_pair_boundaries`: tiktoken's case (rank of the joined bytes) on short pieces, with the
  parts kept as boundaries into the bytes, so a join costs a slice and a lookup, no calls.

Leaves out: pre-tokenization, vocabularies and ids (char_bpe.py and byte_bpe.py).
"""

from __future__ import annotations

import heapq
from typing import Callable, Sequence, TypeVar

from ..trace import EncodeStep

S = TypeVar("S", str, bytes)
RankOf = Callable[[S, S], "int | None"]

_NO_RANK = float("inf")
_SHORT = 48  # above this many parts the heap version wins (measured on runs of digits/spaces)


def pair_ranks(merges: Sequence[tuple[S, S]]) -> dict[tuple[S, S], int]:
    """Each learned pair's rank: its first place in `merges` (as the encoders keep it)."""
    ranks: dict[tuple[S, S], int] = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    return ranks


def learned_rank_of(merges: Sequence[tuple[S, S]]) -> RankOf:
    """`rank_of` for learned merges: a pair's rank if it was learned, else None."""
    ranks = pair_ranks(merges)
    return lambda a, b: ranks.get((a, b))


def merge_traced(parts: Sequence[S], rank_of: RankOf) -> tuple[list[S], list[EncodeStep]]:
    """Join pairs one at a time, recording each join (the rule that fired and the parts after)."""
    current = list(parts)
    steps: list[EncodeStep] = []
    while len(current) > 1:
        best_rank, best_i = None, -1
        for i in range(len(current) - 1):
            rank = rank_of(current[i], current[i + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best_rank, best_i = rank, i
        if best_rank is None:
            break
        pair = (current[best_i], current[best_i + 1])
        current[best_i : best_i + 2] = [pair[0] + pair[1]]
        steps.append(EncodeStep(best_rank, pair, tuple(current)))
    return current, steps


def merge_spans(parts: Sequence[S], rank_of: RankOf) -> list[tuple[int, int]]:
    """The final parts as [start, end) ranges of indices into `parts`."""
    if len(parts) <= _SHORT:
        return _merge_short(parts, rank_of)
    return _merge_long(parts, rank_of)


def join_ranks(parts: Sequence[S], rank_of: RankOf) -> list[int]:
    """The rank of every join the rule makes on `parts`, in the order it makes them."""
    record: list[int] = []
    if len(parts) <= _SHORT:
        _merge_short(parts, rank_of, record)
    else:
        _merge_long(parts, rank_of, record)
    return record


def _merge_short(
    parts: Sequence[S], rank_of: RankOf, record: list[int] | None = None
) -> list[tuple[int, int]]:
    spans = [(i, i + 1) for i in range(len(parts))]
    symbols = list(parts)

    def rank_at(i: int) -> float:
        rank = rank_of(symbols[i], symbols[i + 1])
        return _NO_RANK if rank is None else rank

    ranks = [rank_at(i) for i in range(len(symbols) - 1)]
    while ranks:
        best = min(ranks)  # min then index: the leftmost of the lowest
        if best == _NO_RANK:
            break
        i = ranks.index(best)
        if record is not None:
            record.append(best)  # type: ignore[arg-type]
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
        spans[i : i + 2] = [(spans[i][0], spans[i + 1][1])]
        del ranks[i]
        if i < len(ranks):
            ranks[i] = rank_at(i)
        if i > 0:
            ranks[i - 1] = rank_at(i - 1)
    return spans


def _merge_long(
    parts: Sequence[S], rank_of: RankOf, record: list[int] | None = None
) -> list[tuple[int, int]]:
    """Same rule with a heap of (rank, left start) and a linked list of parts.

    A heap entry names both parts by where they start and where the right one ends. Parts only
    grow by taking in their right neighbour, so those three indices pin both parts down: once
    either has been joined into something else, the entry is stale and skipped.
    """
    n = len(parts)
    symbol: dict[int, S] = dict(enumerate(parts))  # keyed by a part's start index
    nxt = list(range(1, n + 1))  # start index of the next part (n: none)
    prv = list(range(-1, n - 1))  # start index of the previous part (-1: none)
    heap: list[tuple[int, int, int, int]] = []

    def push(left: int) -> None:
        right = nxt[left]
        if right < n:
            rank = rank_of(symbol[left], symbol[right])
            if rank is not None:
                heapq.heappush(heap, (rank, left, right, nxt[right]))

    for i in range(n - 1):
        push(i)
    while heap:
        rank, left, right, right_end = heapq.heappop(heap)
        if left not in symbol or nxt[left] != right or nxt[right] != right_end:
            continue  # stale: one of the two parts was joined since this entry was pushed
        if record is not None:
            record.append(rank)
        symbol[left] = symbol[left] + symbol.pop(right)
        nxt[left] = nxt[right]
        if nxt[left] < n:
            prv[nxt[left]] = left
        push(left)
        if prv[left] >= 0:
            push(prv[left])
    spans = []
    start = 0
    while start < n:
        spans.append((start, nxt[start]))
        start = nxt[start]
    return spans


def byte_pair_boundaries(piece: bytes, ranks: dict[bytes, int]) -> list[int] | None:
    """Boundaries of the final parts of a short piece under tiktoken's rule; None if too long.

    `ranks[joined bytes]` is the rank; the parts are piece[b[k]:b[k+1]] for the returned b.
    """
    n = len(piece)
    if n > _SHORT:
        return None
    get = ranks.get
    bounds = list(range(n + 1))
    pair_ranks = [get(piece[i : i + 2], _NO_RANK) for i in range(n - 1)]
    while pair_ranks:
        best = min(pair_ranks)
        if best == _NO_RANK:
            break
        i = pair_ranks.index(best)  # the leftmost of the lowest
        del bounds[i + 1]
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = get(piece[bounds[i] : bounds[i + 2]], _NO_RANK)
        if i > 0:
            pair_ranks[i - 1] = get(piece[bounds[i - 1] : bounds[i + 1]], _NO_RANK)
    return bounds
