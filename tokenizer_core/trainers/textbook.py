"""BPE training the way the textbook writes it: count every pair, merge the best, repeat.

This is the slow, obviously-right loop. Each step walks the whole corpus to count pairs, takes
`max(pair_counts, key=pair_counts.get)` (which, over a dict filled in scan order, returns the
pair met *first* among those with the top count), then rewrites every sequence.

It is the oracle the fast trainer (bpe.py) is tested against merge for merge, the
baseline the benchmarks measure it against, and the code the app shows a class.

Leaves out: everything that makes training fast, and traces.
"""

from __future__ import annotations

from ..levels import Symbol
from .corpus import Corpus

Pair = tuple[Symbol, Symbol]


def count_pairs(splits: list[list[Symbol]], counts: tuple[int, ...]) -> dict[Pair, int]:
    """How often each adjacent pair occurs, weighted by sequence count, in scan order."""
    pair_counts: dict[Pair, int] = {}
    for split, count in zip(splits, counts):
        for pair in zip(split, split[1:]):
            pair_counts[pair] = pair_counts.get(pair, 0) + count
    return pair_counts


def merge_pair(split: list[Symbol], pair: Pair) -> list[Symbol]:
    """Replace every occurrence of `pair`, left to right, by the joined symbol."""
    a, b = pair
    merged: list[Symbol] = []
    i = 0
    while i < len(split):
        if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
            merged.append(a + b)  # type: ignore[operator]
            i += 2
        else:
            merged.append(split[i])
            i += 1
    return merged


def textbook_train(
    corpus: Corpus, num_merges: int, tie_break: str = "first"
) -> tuple[list[Pair], list[int]]:
    """Learn up to `num_merges` merges; returns (merges, the count of each when it was picked)."""
    splits = [list(seq) for seq in corpus.sequences]
    merges: list[Pair] = []
    merge_counts: list[int] = []
    for _ in range(num_merges):
        pair_counts = count_pairs(splits, corpus.counts)
        if not pair_counts:
            break  # every sequence is one symbol: nothing left to merge
        if tie_break == "first":
            best = max(pair_counts, key=pair_counts.get)  # type: ignore[arg-type]
        else:  # lexical: the top count, then the smallest pair
            best = min(pair_counts, key=lambda p: (-pair_counts[p], p))
        splits = [merge_pair(split, best) for split in splits]
        merges.append(best)
        merge_counts.append(pair_counts[best])
    return merges, merge_counts
