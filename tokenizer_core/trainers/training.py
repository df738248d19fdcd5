"""What a training run is asked and what it keeps, shared by the BPE and WordPiece trainers.

What it adds: the checks of a run's arguments (the tie-break, the number of merges), the record
of a BPE run (`BPETraining`: its steps, why it stopped, the vocabulary), and the history a run
may keep of every step, so that any step's segmentation is a lookup (`segmentation_from_history`)
instead of training again; with what keeping it costs, bounded by MAX_HISTORY_SYMBOLS
(`check_history_cost`).

Leaves out: training itself (bpe.py, wordpiece.py) and WordPiece's own record
(wordpiece_steps.py), which adds a score to every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

from ..bounds import MAX_HISTORY_SYMBOLS
from ..levels import Symbol
from ..messages import N_, Refusal
from ..trace import MergeStep
from .corpus import Corpus
from .textbook import merge_pair

TieBreak = Literal["first", "lexical"]
ENTRY_NOUNS = {"word": "word", "sentence": "line", "byte": "chunk"}  # what one sequence is
TIE_BREAKS: tuple[TieBreak, ...] = ("first", "lexical")
History = tuple[tuple[tuple[int, tuple[Symbol, ...]], ...], ...]  # per sequence: (step, after it)


def check_tie_break(tie_break: str) -> TieBreak:
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break {tie_break!r}; choose 'first' or 'lexical'")
    return tie_break  # type: ignore[return-value]


def history_symbols(corpus: Corpus, num_merges: int) -> int:
    """At most how many symbols `record_history` keeps: a sequence of n symbols is stored again
    at each merge that changes it, and it can change at most n - 1 times."""
    return sum(len(seq) * min(num_merges, len(seq) - 1) for seq in corpus.sequences)


def most_merges_recorded(corpus: Corpus, limit: int = MAX_HISTORY_SYMBOLS) -> int:
    """The most merges whose every step can be recorded within `limit` symbols."""
    low, high = 0, max(map(len, corpus.sequences), default=1)  # beyond: nothing changes
    while low < high:  # history_symbols grows with the merges: the last count that fits
        middle = (low + high + 1) // 2
        low, high = (middle, high) if history_symbols(corpus, middle) <= limit else (low, middle - 1)
    return low


def check_history_cost(corpus: Corpus, num_merges: int) -> None:
    """ValueError, saying what to do, when recording every step would keep too much."""
    cost = history_symbols(corpus, num_merges)
    if cost <= MAX_HISTORY_SYMBOLS:
        return
    longest = max(map(len, corpus.sequences))
    most = most_merges_recorded(corpus)
    values = dict(merges=num_merges, cost=cost, bound=MAX_HISTORY_SYMBOLS, longest=longest)
    raise Refusal(_HISTORY_TOO_BIG[corpus.level][0 if most else 1], most=most, **values)


# (with the most merges that fit, without), per level: whole sentences for the catalog
_HISTORY_TOO_BIG = {
    "word": (
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each word is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Ask for {most} merges or fewer, or use text whose words are "
           "shorter"),
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each word is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Use text whose words are shorter"),
    ),
    "sentence": (
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each line is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Ask for {most} merges or fewer, or use text whose lines are "
           "shorter"),
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each line is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Use text whose lines are shorter"),
    ),
    "byte": (
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each chunk is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Ask for {most} merges or fewer, or use text whose chunks are "
           "shorter (at byte level, text with no spaces is one chunk)"),
        N_("keeping every step of {merges} merges could hold {cost} symbols, over the "
           "bound of {bound}: "
           "each chunk is stored again at every merge that changes it, and the longest has "
           "{longest} symbols. Use text whose chunks are shorter (at byte level, text with no "
           "spaces is one chunk)"),
    ),
}


def check_num_merges(num_merges: object) -> int:
    if isinstance(num_merges, bool) or not isinstance(num_merges, int) or num_merges < 0:
        raise ValueError(f"number of merges must be a whole number >= 0, got {num_merges!r}")
    return num_merges


@dataclass(frozen=True)
class BPETraining:
    """What training learned, step by step.

    `segmentation_at(k)` gives every corpus sequence as it stood after the first k merges,
    without training again.
    """

    corpus: Corpus
    steps: tuple[MergeStep, ...]
    stop_reason: str
    tie_break: TieBreak
    special_tokens: tuple[str, ...]
    vocab: tuple[Symbol, ...]
    requested_merges: int
    history: History | None = field(default=None, repr=False)

    @property
    def merges(self) -> list[tuple[Symbol, Symbol]]:
        return [step.pair for step in self.steps]

    @property
    def counts(self) -> list[int]:
        return [step.count for step in self.steps]

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def segmentation_at(self, k: int) -> list[tuple[Symbol, ...]]:
        """Each distinct corpus sequence after the first `k` merges (0 <= k <= len(steps))."""
        return segmentation_from_history(
            self.corpus.sequences, self.history, len(self.steps), k,
            lambda n: _replay(self.corpus, self.merges[:n]),
        )


def segmentation_from_history(
    sequences: Sequence[tuple[Symbol, ...]],
    history: History | None,
    num_steps: int,
    k: int,
    replay: Callable[[int], list[tuple[Symbol, ...]]],
) -> list[tuple[Symbol, ...]]:
    """Each sequence after the first `k` of `num_steps` merges: a lookup in the recorded
    history, or `replay(k)` when training kept none (BPE's and WordPiece's segmentation_at)."""
    if not 0 <= k <= num_steps:
        raise ValueError(f"step must be between 0 and {num_steps}, got {k}")
    if history is None:
        return replay(k)
    result = []
    for seq, changes in zip(sequences, history):
        current = seq
        for step, symbols in changes:  # few changes per sequence: a scan is enough
            if step >= k:
                break
            current = symbols
        result.append(current)
    return result


def freeze_history(
    history: list[list[tuple[int, Any]]] | None,
    content: Sequence[Symbol],
    key: Callable[[Any], int] | None = None,
) -> History | None:
    """Each sequence's recorded (step, ids) changes as symbols, `content[key(id)]` per id
    (key=ord for BPE's chr-coded sequences; WordPiece's plain ids need none)."""
    if history is None:
        return None
    return tuple(
        tuple(
            (step, tuple(content[i] for i in (ids if key is None else map(key, ids))))
            for step, ids in changes
        )
        for changes in history
    )


def _replay(corpus: Corpus, merges: list[tuple[Symbol, Symbol]]) -> list[tuple[Symbol, ...]]:
    splits = [list(seq) for seq in corpus.sequences]
    for pair in merges:
        splits = [merge_pair(s, pair) if len(s) > 1 else s for s in splits]
    return [tuple(s) for s in splits]
