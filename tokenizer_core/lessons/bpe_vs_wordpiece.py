"""BPE and WordPiece side by side on one corpus: which pair each would merge, and why.

Both rules look at the same `</w>`-split words (corpus_from_counts / corpus_from_text at the word
level), so the only difference on screen is the rule:
- BPE         ranks a pair by count(ab);
- WordPiece   divides by how common the parts are: `ratio` count(ab) / (count(a) * count(b)),
              or `likelihood` count(ab) * ln(P(ab) / (P(a) P(b))) with P = count / N, N the
              number of symbols in the corpus (16 for hug pug pun bun with their `</w>`s).
Counts are weighted by word count; ties go to the pair met first (words in first-seen order,
positions left to right), as both trainers do by default.

What it adds: every pair ranked under each rule with count(ab), count(a), count(b) and the
score, how many pairs tie at the top, and a race that trains both for k steps and says where
their choices first part.

Leaves out: WordPiece's own `##` split (trainers/wordpiece.py): here WordPiece joins the same
symbols BPE does, so the two rules are compared on equal terms. Charts live in the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..models.wordpiece import ScoreKind, check_score
from ..pretokenize import WORD_END
from ..trace import Candidate
from ..trainers.bpe import BPETraining, train_bpe
from ..trainers.corpus import Corpus
from ..trainers.wordpiece import (
    WordPieceTraining,
    rank_by_count,
    rank_by_score,
    string_splits,
    train_wordpiece,
)

Method = Literal["bpe", "ratio", "likelihood"]
METHODS: tuple[Method, ...] = ("bpe", "ratio", "likelihood")
Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Ranking:
    """Every pair of the corpus under one rule, best first (the first is what training merges).

    For `bpe` the score is count(ab) itself.
    """

    method: Method
    candidates: tuple[Candidate, ...]
    ties: int  # how many pairs share the top score

    @property
    def winner(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True, slots=True)
class SideBySide:
    """The first merge under each rule, on one corpus."""

    total_symbols: int  # N: the symbols in the corpus, `</w>` included, weighted by word count
    bpe: Ranking
    ratio: Ranking
    likelihood: Ranking

    def ranking(self, method: Method) -> Ranking:
        return {"bpe": self.bpe, "ratio": self.ratio, "likelihood": self.likelihood}[method]


def check_word_end_split(corpus: Corpus) -> None:
    if corpus.level != "word" or not all(seq and seq[-1] == WORD_END for seq in corpus.sequences):
        raise ValueError(
            "the side by side works on `</w>`-split words; build the corpus with "
            "corpus_from_counts({word: count}) or corpus_from_text(text, 'word')"
        )


def rank_pairs(corpus: Corpus, method: Method) -> Ranking:
    """All pairs under one rule, best first, ties in first-seen order."""
    check_word_end_split(corpus)
    splits = string_splits(corpus)
    if method == "bpe":
        ranked, ties = rank_by_count(splits, corpus.counts)
    else:
        ranked, ties = rank_by_score(splits, corpus.counts, check_score(method))
    return Ranking(method, tuple(ranked), ties)


def side_by_side(corpus: Corpus) -> SideBySide:
    """Each rule's ranking of the corpus's pairs before any merge."""
    return SideBySide(
        total_symbols=corpus.total_symbols,
        bpe=rank_pairs(corpus, "bpe"),
        ratio=rank_pairs(corpus, "ratio"),
        likelihood=rank_pairs(corpus, "likelihood"),
    )


@dataclass(frozen=True)
class Race:
    """BPE and WordPiece trained on the same symbols, step by step."""

    bpe: BPETraining
    wordpiece: WordPieceTraining
    first_difference: int | None  # rank (0-based) of the first step whose merges differ

    @property
    def choices(self) -> list[tuple[Pair | None, Pair | None]]:
        """(BPE's merge, WordPiece's merge) per step; None once a side has stopped."""
        a, b = self.bpe.merges, self.wordpiece.merges
        return [
            (a[i] if i < len(a) else None, b[i] if i < len(b) else None)  # type: ignore[misc]
            for i in range(max(len(a), len(b)))
        ]


def race(
    corpus: Corpus,
    num_merges: int,
    score: str = "ratio",
    tie_break: str = "first",
    record_history: bool = False,
) -> Race:
    """Train BPE (bpe_train.train_bpe) and WordPiece (by score, joining symbols plainly) for up
    to `num_merges` steps on the same `</w>` corpus; find the first step where they differ.

    record_history keeps both runs' histories, so their segmentation_at(k) is a lookup.
    """
    check_word_end_split(corpus)
    score_kind: ScoreKind = check_score(score)
    bpe = train_bpe(corpus, num_merges, tie_break, record_history=record_history)
    wordpiece = train_wordpiece(
        corpus, num_merges, score_kind, tie_break, special_tokens=(), continuation="",
        record_history=record_history,
    )
    first = next(
        (i for i, (x, y) in enumerate(zip(bpe.merges, wordpiece.merges)) if x != y), None
    )
    # the same merges leave the same words, so neither can stop before the other
    assert first is not None or len(bpe.merges) == len(wordpiece.merges)
    return Race(bpe, wordpiece, first)
