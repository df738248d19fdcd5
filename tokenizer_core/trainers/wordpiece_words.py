"""The words WordPiece learns from, and the bounds of one training run.

What it adds: WordPiece's starting split (`hug` -> h ##u ##g) of a `{word: count}` table or a
word-level corpus (`wordpiece_corpus`), words cut the way BERT's encoding cuts them, at
whitespace and punctuation (`bert_word_counts`), and the checks a corpus passes before training
(`check_split`, `check_training_bounds`).

Leaves out: training (wordpiece.py) and encoding (models/wordpiece.py).
"""

from __future__ import annotations

from typing import Mapping, Union

from ..models.wordpiece import bert_pieces, continuation_split
from .corpus import Corpus, corpus_from_counts, count_in_order

# Bounds of one training run (wordpiece.py's docstring, "Cost and bounds", says what they buy).
MAX_MERGES = 50_000
MAX_DISTINCT_WORDS = 200_000
MAX_WORD_CHARS = 1_000  # a longer "word" is data, not a word; encoding makes it [UNK] anyway
MAX_TOP_K = 100


def bert_word_counts(text: str) -> dict[str, int]:
    """`{word: count}` in first-seen order, words cut the way encoding cuts them.

    Train on this (wordpiece_corpus(bert_word_counts(text))) when punctuation should be learned
    as the standalone pieces encoding will look up, not glued to words.
    """
    return count_in_order(piece.text for piece in bert_pieces(text))


def wordpiece_corpus(source: Union[Mapping[str, int], Corpus]) -> Corpus:
    """WordPiece's starting split of a `{word: count}` table or of a word-level corpus.

    A word-level corpus (corpus_from_text(text) or corpus_from_counts(table)) keeps its words,
    counts and first-seen order; only the `</w>` split is replaced by the `##` split.
    """
    if not isinstance(source, Corpus):
        source = corpus_from_counts(source, "word")
    if source.level != "word":
        raise ValueError(
            f"WordPiece trains on words, got a {source.level}-level corpus; build a word-level "
            "one (corpus_from_text(text, 'word'), or --level word on the command line)"
        )
    return Corpus(
        level="word",
        sequences=tuple(continuation_split(word) for word in source.labels),
        counts=source.counts,
        labels=source.labels,
    )


def check_split(corpus: Corpus, continuation: str) -> None:
    """Refuse a corpus whose split does not match the continuation rule the trainer will use."""
    if corpus.level != "word":
        raise ValueError(
            f"WordPiece trains on words, got a {corpus.level}-level corpus; "
            "use wordpiece_corpus(...) to build one"
        )
    for label, seq in zip(corpus.labels, corpus.sequences):
        if continuation and not all(str(s).startswith(continuation) for s in seq[1:]):
            raise ValueError(
                f"word {label!r} is split as {list(seq)}, not with {continuation!r} continuation; "
                "build the corpus with wordpiece_corpus(...), or pass continuation='' to train "
                "on the symbols as they are (e.g. a `</w>` split)"
            )


def check_training_bounds(corpus: Corpus, num_merges: int, top_k: int) -> None:
    if num_merges > MAX_MERGES:
        raise ValueError(f"{num_merges} merges is over the bound of {MAX_MERGES:,}; ask for fewer")
    if len(corpus) > MAX_DISTINCT_WORDS:
        raise ValueError(
            f"the corpus has {len(corpus):,} distinct words, over the bound of "
            f"{MAX_DISTINCT_WORDS:,}; train on a smaller sample"
        )
    for label in corpus.labels:
        if len(label) > MAX_WORD_CHARS:
            raise ValueError(
                f"word {label[:20]!r}... has {len(label):,} characters, over the bound of "
                f"{MAX_WORD_CHARS:,}; split it or leave it out of the corpus"
            )
    if not 0 <= top_k <= MAX_TOP_K:
        raise ValueError(f"top_k must be between 0 and {MAX_TOP_K}, got {top_k}")
