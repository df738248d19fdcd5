"""WordPiece, shown: the greedy longest-match search word by word, and BPE vs WordPiece per step.

What it adds to wordpiece.py and compare.py:
- `match_trace(tokenizer, word)`: the search `WordPieceTokenizer` runs on one word, recorded:
  at each position, how many candidates were tried (longest first), which one matched, and
  where it failed when the word becomes `[UNK]`. Tests check it against the tokenizer's own
  encoding, so the replay cannot drift from what encoding does;
- `race_steps(corpus, k)`: BPE and WordPiece trained on the same `</w>` symbols (compare.race's
  setting), with each rule's ranking of the pairs at every step, count(a) and count(b) included
  for both, and the first step where their choices differ.

Leaves out: BERT pre-tokenization details (the tokenizer does it; words here are single words),
training itself and drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from .bpe_train import BPETraining, check_tie_break, train_bpe
from .compare import check_word_end_split
from .corpus import Corpus
from .trace import Candidate
from .wordpiece import CONTINUATION, WordPieceTokenizer
from .wordpiece_train import (
    WordPieceTraining,
    check_score,
    count_symbols_and_pairs,
    rank_by_score,
    train_wordpiece,
)

Pair = tuple[str, str]
MAX_TRIES_SHOWN = 6  # tried candidates kept per position (the longest ones and the match)


@dataclass(frozen=True, slots=True)
class MatchStep:
    """One position of the greedy search."""

    start: int  # character offset in the word
    tried: tuple[str, ...]  # candidates tried, longest first (at most MAX_TRIES_SHOWN kept)
    tries: int  # how many were tried in all
    match: str | None  # the piece found (`##able`), or None: no piece fits, the word is [UNK]


@dataclass(frozen=True, slots=True)
class MatchTrace:
    word: str
    steps: tuple[MatchStep, ...]
    pieces: tuple[str, ...]  # the pieces found, or (unk_token,) when the search failed
    unknown: bool
    too_long: bool  # longer than max_input_chars_per_word: [UNK] without a search


def match_trace(tokenizer: WordPieceTokenizer, word: str) -> MatchTrace:
    """Greedy longest-match-first on one word, recorded (no cache, no pre-tokenization)."""
    if len(word) > tokenizer.max_input_chars_per_word:
        return MatchTrace(word, (), (tokenizer.unk_token,), True, True)
    steps: list[MatchStep] = []
    start = 0
    while start < len(word):
        prefix = CONTINUATION if start else ""
        tried: list[str] = []
        match = None
        for end in range(len(word), start, -1):
            candidate = prefix + word[start:end]
            tried.append(candidate)
            if tokenizer.token_to_id(candidate) is not None:
                match = candidate
                break
        kept = tried if len(tried) <= MAX_TRIES_SHOWN else tried[: MAX_TRIES_SHOWN - 1] + tried[-1:]
        steps.append(MatchStep(start, tuple(kept), len(tried), match))
        if match is None:
            return MatchTrace(word, tuple(steps), (tokenizer.unk_token,), True, False)
        start += len(match) - len(prefix)
    pieces = tuple(s.match for s in steps if s.match is not None)
    return MatchTrace(word, tuple(steps), pieces, False, False)


# --- BPE vs WordPiece, step by step --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RaceStep:
    """Before merge number k + 1: each rule's top pairs (winner first) and how many tie."""

    k: int
    bpe: tuple[Candidate, ...]  # score = count(ab); count_a, count_b filled in
    wordpiece: tuple[Candidate, ...]
    bpe_ties: int
    wordpiece_ties: int


@dataclass(frozen=True)
class RaceView:
    bpe: BPETraining
    wordpiece: WordPieceTraining
    steps: tuple[RaceStep, ...]
    first_difference: int | None  # 0-based step where the chosen pairs first differ

    @property
    def choices(self) -> list[tuple[Pair | None, Pair | None]]:
        a, b = self.bpe.merges, self.wordpiece.merges
        return [
            (a[i] if i < len(a) else None, b[i] if i < len(b) else None)  # type: ignore[misc]
            for i in range(max(len(a), len(b)))
        ]


def _rank_by_count(splits: list[list[str]], counts: tuple[int, ...], top_k: int,
                   tie_break: str) -> tuple[tuple[Candidate, ...], int]:
    symbols, pairs = count_symbols_and_pairs(splits, counts)
    if tie_break == "first":  # stable: scan order among equal counts, as the trainer breaks ties
        order = sorted(pairs, key=lambda p: -pairs[p])
    else:
        order = sorted(pairs, key=lambda p: (-pairs[p], p))
    ranked = tuple(
        Candidate(p, pairs[p], float(pairs[p]), symbols[p[0]], symbols[p[1]]) for p in order[:top_k]
    )
    ties = sum(1 for c in pairs.values() if order and c == pairs[order[0]])
    return ranked, ties


def race_steps(
    corpus: Corpus, num_merges: int, score: str = "ratio", tie_break: str = "first", top_k: int = 8
) -> RaceView:
    """compare.race with every step's rankings kept (a rescan per step: classroom corpora)."""
    check_word_end_split(corpus)
    score_kind = check_score(score)
    bpe = train_bpe(corpus, num_merges, tie_break, record_history=True)
    wordpiece = train_wordpiece(
        corpus, num_merges, score_kind, tie_break, special_tokens=(), continuation="",
        record_history=True,
    )
    steps = []
    for k in range(max(len(bpe.steps), len(wordpiece.steps))):
        b_seqs = bpe.segmentation_at(min(k, len(bpe.steps)))
        w_seqs = wordpiece.segmentation_at(min(k, len(wordpiece.steps)))
        b_splits = cast("list[list[str]]", [list(s) for s in b_seqs])  # `</w>` words: all str
        w_splits = [list(s) for s in w_seqs]
        b_ranked, b_ties = _rank_by_count(b_splits, corpus.counts, top_k, tie_break)
        w_ranked, w_ties = rank_by_score(w_splits, corpus.counts, score_kind,
                                         check_tie_break(tie_break))
        steps.append(RaceStep(k, b_ranked, tuple(w_ranked[:top_k]), b_ties, w_ties))
    first = next(
        (i for i, (x, y) in enumerate(zip(bpe.merges, wordpiece.merges)) if x != y), None
    )
    return RaceView(bpe, wordpiece, tuple(steps), first)
