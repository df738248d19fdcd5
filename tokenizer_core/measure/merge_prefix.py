"""The first k merges are themselves a tokenizer: its model, and its token count for every k.

What it adds:
- `model_with_first(training, k)`: the real encoder over `merges[:k]`, at any level;
- `counts_by_merges(pieces, rank_of, n)`: how many tokens the first k merges need for some
  pieces, for EVERY k from 0 to n, from one encoding of each distinct piece;
- `token_counts_by_merges(merges, text)` (byte level, for the Compression page) and
  `training_token_counts(training, text)` (any level, for the Merge steps page) on top of it.

Why one encoding is enough (subtle). Encoding a piece with the first k merges repeats "join the
adjacent pair of lowest rank < k, the leftmost on ties" until no pair qualifies; encoding with
all merges runs the same loop without "< k". The two make the same joins until the full run
first picks a rank >= k: it picked the lowest rank present, so at that moment no pair of rank
< k is left and the k-run stops there too. With r_1, r_2, ... the ranks of the full run's joins
and m_j = max(r_1..r_j), the k-run makes exactly the joins with m_j < k, so tokens(k) =
starting parts - #{j : m_j < k}: a histogram over m_j and one running sum. Usually r_j rises
and m_j = r_j; it need not when one string is made by two merges (`ab+c`, `a+bc`), which is
why the running maximum is used.

Leaves out: training (trainers/bpe.py), drawing and caching (the pages).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from ..levels import Symbol, byte_parts
from ..modelfile import Model, bpe_model
from ..models.byte_bpe import ByteLevelBPE
from ..models.merge import RankOf, join_ranks, learned_rank_of
from ..pretokenize import GPT2_PATTERN, regex_chunks
from ..trainers.bpe import BPETraining

Pieces = Sequence[tuple[Sequence[Symbol], int]]  # (starting parts, how often the piece occurs)


def model_with_first(training: BPETraining, k: int, name: str = "bpe") -> Model:
    """The tokenizer made of the first k merges of a training run (k = 0: the alphabet only)."""
    if not 0 <= k <= len(training.steps):
        raise ValueError(f"k must be between 0 and {len(training.steps)} merges, got {k}")
    return bpe_model(training, name, k=k)


def counts_by_merges(pieces: Pieces, rank_of: RankOf, num_merges: int) -> list[int]:
    """counts[k] = tokens the first k merges make of the pieces, for k = 0..num_merges."""
    saved = [0] * (num_merges + 1)  # saved[m]: joins whose running-maximum rank is m
    total = 0
    for parts, times in pieces:
        total += len(parts) * times
        highest = -1
        for rank in join_ranks(parts, rank_of):
            highest = max(highest, rank)
            saved[highest] += times
    counts = [total]
    for k in range(num_merges):
        counts.append(counts[-1] - saved[k])
    return counts


def token_counts_by_merges(
    merges: Sequence[tuple[bytes, bytes]], text: str, pat_str: str = GPT2_PATTERN
) -> list[int]:
    """Byte level: counts[k] = tokens ByteLevelBPE.from_merges(merges[:k]) gives for `text`."""
    pieces = _byte_pieces(regex_chunks(text, pat_str))
    return counts_by_merges(pieces, learned_rank_of(merges), len(merges))


def _byte_pieces(chunks: Iterable[str]) -> list[tuple[tuple[bytes, ...], int]]:
    """Each distinct chunk's single bytes, with how often the chunk occurs (first-seen order)."""
    return [(byte_parts(chunk.encode("utf-8")), n) for chunk, n in Counter(chunks).items()]


def training_pieces(training: BPETraining, text: str) -> list[tuple[tuple[Symbol, ...], int]]:
    """The text's distinct pieces as the trained model starts them, with how often each occurs.

    Raises the model's ValueError for a character it has never seen (word and sentence levels).
    """
    model = bpe_model(training)
    if isinstance(model, ByteLevelBPE):
        chunks = (chunk.text for chunk in model.pieces(text))
        return _byte_pieces(chunks)  # type: ignore[return-value]
    counts: Counter[tuple[Symbol, ...]] = Counter(
        tuple(model.starting_symbols(piece)) for piece in model.pre_tokenize(text)
    )
    return list(counts.items())


def training_token_counts(training: BPETraining, text: str) -> list[int]:
    """counts[k] = tokens model_with_first(training, k) gives for `text`, for every k."""
    return counts_by_merges(
        training_pieces(training, text), learned_rank_of(training.merges), len(training.merges)
    )
