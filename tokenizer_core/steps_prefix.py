"""Encoding with only the first k merges: the model a training run had after k steps.

What it adds: `model_with_first(training, k)`, the real encoder over `merges[:k]`, and
`prefix_counts`, the token count of a text for every k from 0 to all merges in one pass.

Why one pass is exact (subtle): encoding joins the lowest-ranked pair first. With merges learned
by training, a pair built from a new token ranks after that token, so the ranks of the joins
replayed on a piece never go down; then encoding with `merges[:k]` makes exactly the joins of
rank < k, and the count at k is the starting length minus those joins. A piece whose replay
does go down in rank (possible when two merges make the same string) is counted the slow way,
with the rule cut at every k. Tests check both against `model_with_first(training, k)`.

Leaves out: drawing, and GPT-2's ranks (50,000 merges: use the trained models here).
"""

from __future__ import annotations

from itertools import accumulate
from typing import Sequence

from .bpe_model import CharLevelBPE
from .bpe_train import BPETraining
from .bytelevel import ByteLevelBPE
from .corpus import Symbol
from .merge import RankOf, merge_traced
from .modelfile import bpe_model
from .pretokenize import GPT2_PATTERN

Model = CharLevelBPE | ByteLevelBPE
Piece = tuple[tuple[Symbol, ...], int]  # (starting parts, how many times it occurs)


def model_with_first(training: BPETraining, k: int, name: str = "bpe") -> Model:
    """The tokenizer made of the first k merges of a training run (k = 0: the alphabet only)."""
    if not 0 <= k <= len(training.steps):
        raise ValueError(f"k must be between 0 and {len(training.steps)} merges, got {k}")
    merges = training.merges[:k]
    corpus = training.corpus
    if corpus.level == "byte":
        return ByteLevelBPE.from_merges(
            name, merges,  # type: ignore[arg-type]
            corpus.pat_str or GPT2_PATTERN, training.special_tokens,
        )
    return CharLevelBPE(
        corpus.level, merges, corpus.alphabet,  # type: ignore[arg-type]
        training.special_tokens, name=name,
    )


def rank_rule(merges: Sequence[tuple[Symbol, Symbol]]) -> dict[tuple[Symbol, Symbol], int]:
    """pair -> rank, the first rank where a pair repeats (as the encoders keep it)."""
    ranks: dict[tuple[Symbol, Symbol], int] = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    return ranks


def text_pieces(training: BPETraining, text: str) -> list[Piece]:
    """The text's distinct pieces as the full model starts them, with how often each occurs.

    Raises the model's ValueError for a character it has never seen (word and sentence levels).
    """
    model = bpe_model(training)
    counts: dict[tuple[Symbol, ...], int] = {}
    if isinstance(model, ByteLevelBPE):
        for chunk in model.pieces(text):
            data = chunk.text.encode("utf-8")
            parts = tuple(data[i : i + 1] for i in range(len(data)))
            counts[parts] = counts.get(parts, 0) + 1
    else:
        for piece in model.pre_tokenize(text):
            parts = tuple(model.starting_symbols(piece))
            counts[parts] = counts.get(parts, 0) + 1
    return list(counts.items())


def _cut(rank_of: RankOf, k: int) -> RankOf:
    def rule(a: Symbol, b: Symbol) -> int | None:
        rank = rank_of(a, b)
        return rank if rank is not None and rank < k else None

    return rule  # type: ignore[return-value]


def prefix_counts(pieces: Sequence[Piece], rank_of: RankOf, num_merges: int) -> list[int]:
    """Token count of the pieces with only the first k merges, for k = 0..num_merges."""
    change = [0] * (num_merges + 2)  # change[k]: tokens gained (negative) from k on
    start = 0
    for parts, times in pieces:
        start += len(parts) * times
        _, steps = merge_traced(parts, rank_of)
        ranks = [s.rank for s in steps]
        if all(a <= b for a, b in zip(ranks, ranks[1:])):
            for rank in ranks:
                change[rank + 1] -= times
            continue
        previous = len(parts)  # the slow way: replay with the rule cut at each k
        for k in range(1, num_merges + 1):
            now = len(merge_traced(parts, _cut(rank_of, k))[0])
            change[k] += (now - previous) * times
            previous = now
    return [start + c for c in accumulate(change[: num_merges + 1])]


def training_prefix_counts(training: BPETraining, text: str) -> list[int]:
    """prefix_counts for a text under a training run's merges (index k: first k merges)."""
    ranks = rank_rule(training.merges)
    rule = lambda a, b: ranks.get((a, b))  # noqa: E731
    return prefix_counts(text_pieces(training, text), rule, len(training.merges))
