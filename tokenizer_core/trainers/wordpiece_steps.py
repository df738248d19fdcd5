"""What WordPiece training records: one step per merge, and the run with every step's split.

What it adds: `WordPieceStep`, a merge with its score and the three counts behind it, and
`WordPieceTraining`, the run, whose `segmentation_at(k)` gives every word as it stood after k
merges (a lookup in the history a run may keep, else a replay). And the merge itself, in the
two forms the trainers use: `merge_wordpiece` on pieces (the textbook's, and the replay's) and
`merge_ids` on the fast trainer's integer ids; both join every pair left to right.

Leaves out: choosing the merges (wordpiece.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ..models.wordpiece import CONTINUATION, ScoreKind, join_pieces
from ..trace import Candidate
from .corpus import Corpus
from .training import TieBreak, segmentation_from_history

Pair = tuple[str, str]
History = tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]  # per word: (step, pieces after it)


def string_splits(corpus: Corpus) -> list[list[str]]:
    """The corpus's words as lists of pieces (at the word level every symbol is a str)."""
    return cast("list[list[str]]", [list(seq) for seq in corpus.sequences])


def merge_wordpiece(split: list[str], pair: Pair, continuation: str = CONTINUATION) -> list[str]:
    """Replace every occurrence of `pair`, left to right, by the joined piece."""
    a, b = pair
    merged: list[str] = []
    i = 0
    while i < len(split):
        if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
            merged.append(join_pieces(a, b, continuation))
            i += 2
        else:
            merged.append(split[i])
            i += 1
    return merged


def merge_ids(word: list[int], a: int, b: int, new: int) -> tuple[list[int], int]:
    """Join every (a, b) left to right; returns the new word and how many joins were made."""
    out: list[int] = []
    joins = 0
    i, n = 0, len(word)
    while i < n:
        if word[i] == a and i + 1 < n and word[i + 1] == b:
            out.append(new)
            joins += 1
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out, joins


@dataclass(frozen=True, slots=True)
class WordPieceStep:
    """One WordPiece merge as training chose it.

    rank:        0 for the first merge learned.
    pair:        the two pieces joined; new_token is the joined piece, new_id its vocabulary id
                 (an existing id when the same piece was made before: `ab`+`##c`, `a`+`##bc`).
    score:       the pair's score when it was chosen.
    count:       count(ab); count_a, count_b: the parts' own counts (all weighted by word count).
    total:       N, the number of symbols in the corpus when it was chosen (the likelihood's P).
    vocab_size:  size of the vocabulary after this merge.
    candidates:  on request, the top pairs at this step, best first (the winner is first).
    ties:        on request, how many pairs shared the winner's score.
    """

    rank: int
    pair: Pair
    new_token: str
    new_id: int
    score: float
    count: int
    count_a: int
    count_b: int
    total: int
    vocab_size: int
    candidates: tuple[Candidate, ...] = ()
    ties: int | None = None


@dataclass(frozen=True)
class WordPieceTraining:
    """What WordPiece training learned, step by step; `segmentation_at(k)` replays nothing twice."""

    corpus: Corpus
    steps: tuple[WordPieceStep, ...]
    stop_reason: str
    score: ScoreKind
    tie_break: TieBreak
    special_tokens: tuple[str, ...]
    vocab: tuple[str, ...]
    requested_merges: int
    continuation: str = CONTINUATION
    history: History | None = field(default=None, repr=False)

    @property
    def merges(self) -> list[Pair]:
        return [step.pair for step in self.steps]

    @property
    def counts(self) -> list[int]:
        return [step.count for step in self.steps]

    @property
    def scores(self) -> list[float]:
        return [step.score for step in self.steps]

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def segmentation_at(self, k: int) -> list[tuple[str, ...]]:
        """Each distinct word of the corpus after the first `k` merges (0 <= k <= len(steps))."""
        return segmentation_from_history(  # type: ignore[return-value]
            self.corpus.sequences, self.history, len(self.steps), k, self._replay
        )

    def _replay(self, k: int) -> list[tuple[str, ...]]:
        splits = string_splits(self.corpus)
        for pair in self.merges[:k]:
            splits = [merge_wordpiece(s, pair, self.continuation) for s in splits]
        return [tuple(s) for s in splits]
