"""A BPE training run told step by step: where each merged pair occurs, why it won, what it made.

What it adds to trainers/bpe.py's trace (`MergeStep`, `segmentation_at`): for every step k,
- `where`: each corpus entry that held the pair just before the merge, with how often the pair
  occurred in it (as the textbook counts pairs) and the entry's count;
- `joined`: in each entry the merge rewrote, the positions of the new token (to highlight it);
- `first_met`: for a tie, where a scan of the corpus first meets the winner and the best other
  tied pair (the `first` rule's evidence);
- `tokens_after`: the corpus length in tokens once the merge is done;
- the narration and the "why" line (narration.py).

It walks the training's history once, so building a lesson costs one pass over the changes,
plus a scan of the corpus per tied step. Train with `record_history=True` (and `top_k` for the
candidates and ties); without history each step rescans every entry.

Leaves out: training itself, encoding, and anything about drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..levels import Symbol
from ..trace import MergeStep
from ..trainers.bpe import BPETraining
from ..trainers.corpus import Corpus
from ..trainers.textbook import merge_pair
from .narration import narrate_merge, narrate_start, where_first_met, why_winner

Pair = tuple[Symbol, Symbol]
Split = tuple[Symbol, ...]


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One corpus entry holding the merged pair just before the merge."""

    entry: int  # index into corpus.sequences / corpus.labels
    pairs: int  # occurrences of the pair in the entry (overlaps counted, like count_pairs)
    count: int  # how often the entry occurs in the corpus

    @property
    def total(self) -> int:
        return self.pairs * self.count


@dataclass(frozen=True, slots=True)
class LessonStep:
    """Step k of the lesson (k = step.rank + 1): merge number k and what it did."""

    step: MergeStep
    where: tuple[Occurrence, ...]
    joined: tuple[tuple[int, Split, tuple[int, ...]], ...]  # (entry, parts after, new positions)
    first_met: tuple[int, int] | None  # (entry, position) of the winner's first occurrence
    tokens_after: int
    narration: str
    why: str

    @property
    def tied(self) -> tuple[Pair, ...]:
        """The recorded candidates that share the winner's count, winner excluded."""
        return tied_with(self.step)


@dataclass(frozen=True)
class Lesson:
    training: BPETraining
    steps: tuple[LessonStep, ...]
    tokens_before: int
    start: str  # the narration of step 0

    @property
    def corpus(self) -> Corpus:
        return self.training.corpus

    def tokens_at(self, k: int) -> int:
        """Corpus length in tokens after k merges."""
        return self.tokens_before if k == 0 else self.steps[k - 1].tokens_after


def tied_with(step: MergeStep) -> tuple[Pair, ...]:
    """The recorded candidates that share the winner's count, winner excluded."""
    return tuple(c.pair for c in step.candidates[1:] if c.count == step.count)


def count_in(split: Split, pair: Pair) -> int:
    """Occurrences of a pair in one entry, overlapping ones included (as count_pairs counts)."""
    a, b = pair
    return sum(1 for x, y in zip(split, split[1:]) if x == a and y == b)


def joined_positions(before: Split, pair: Pair) -> tuple[int, ...]:
    """Where the new tokens sit after merging `pair` left to right (the textbook's merge)."""
    a, b = pair
    positions: list[int] = []
    i = out = 0
    while i < len(before):
        if i + 1 < len(before) and before[i] == a and before[i + 1] == b:
            positions.append(out)
            i += 2
        else:
            i += 1
        out += 1
    return tuple(positions)


def first_occurrences(
    splits: Sequence[Split], pairs: Sequence[Pair]
) -> dict[Pair, tuple[int, int]]:
    """(entry, position) where a scan in corpus order first meets each pair; stops when all are
    found."""
    wanted = set(pairs)
    found: dict[Pair, tuple[int, int]] = {}
    for e, split in enumerate(splits):
        for i, pair in enumerate(zip(split, split[1:])):
            if pair in wanted and pair not in found:
                found[pair] = (e, i)
                if len(found) == len(wanted):
                    return found
    return found


def _changes_by_step(training: BPETraining) -> list[list[tuple[int, Split]]] | None:
    if training.history is None:
        return None
    by_step: list[list[tuple[int, Split]]] = [[] for _ in training.steps]
    for e, changes in enumerate(training.history):
        for step, parts in changes:
            by_step[step].append((e, parts))
    return by_step


def build_lesson(training: BPETraining) -> Lesson:
    """Every step of a training run, told (see the module docstring)."""
    corpus = training.corpus
    splits: list[Split] = list(corpus.sequences)
    tokens = corpus.total_symbols
    by_step = _changes_by_step(training)
    steps: list[LessonStep] = []
    for k, step in enumerate(training.steps):
        if by_step is not None:
            changed = sorted(by_step[k])
        else:  # no history: find the entries holding the pair and merge them here
            changed = [(e, tuple(merge_pair(list(s), step.pair))) for e, s in enumerate(splits)
                       if count_in(s, step.pair)]
        first_met, why = _why(step, splits, corpus, training.tie_break)
        where, joined = [], []
        for e, after in changed:
            before = splits[e]
            where.append(Occurrence(e, count_in(before, step.pair), corpus.counts[e]))
            joined.append((e, after, joined_positions(before, step.pair)))
            tokens -= (len(before) - len(after)) * corpus.counts[e]
            splits[e] = after
        places = [(corpus.labels[o.entry], o.pairs, o.count) for o in where]
        narration = narrate_merge(step.pair, step.count, places, corpus.level)
        steps.append(
            LessonStep(step, tuple(where), tuple(joined), first_met, tokens, narration, why)
        )
    start = narrate_start(
        corpus.level, len(corpus), sum(corpus.counts), len(corpus.alphabet), corpus.total_symbols
    )
    return Lesson(training, tuple(steps), corpus.total_symbols, start)


def _why(
    step: MergeStep, splits: Sequence[Split], corpus: Corpus, tie_break: str
) -> tuple[tuple[int, int] | None, str]:
    """The winner's first occurrence (for ties under `first`) and the why line."""
    if step.ties is None:  # trained without top_k: no candidates to explain with
        return None, ""
    tied = tied_with(step)
    lower = [c for c in step.candidates if c.count < step.count]
    runner_up = (lower[0].pair, lower[0].count) if lower else None
    first_met, phrase = None, None
    if step.ties > 1 and tie_break == "first":
        found = first_occurrences(splits, [step.pair, *tied[:1]])
        first_met = found.get(step.pair)
        other = tied[0] if tied else None
        if first_met is not None:
            phrase = where_first_met(
                first_met, other, found.get(other) if other else None, corpus.labels, corpus.level
            )
    return first_met, why_winner(
        step.pair, step.count, tied, step.ties, tie_break, runner_up, phrase
    )
