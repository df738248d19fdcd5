"""BPE and WordPiece side by side on the same `</w>` split: the issue's golden examples, the tie
counts checked by hand, and agreement with both trainers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.lessons.bpe_vs_wordpiece import METHODS, race, rank_pairs, side_by_side
from tokenizer_core.trainers.wordpiece import train_wordpiece, wordpiece_corpus

from ..classroom import HUG_PUG, THE_TABLE


def by_pair(ranking):
    return {c.pair: c for c in ranking.candidates}


def test_the_table_bpe_takes_t_h_but_the_ratio_takes_i_n():
    view = side_by_side(corpus_from_counts(THE_TABLE))
    bpe = view.bpe.winner
    assert (bpe.pair, bpe.count) == (("t", "h"), 20)
    ratio = view.ratio.winner
    assert (ratio.pair, ratio.score) == (("i", "n"), 0.5)
    assert (ratio.count, ratio.count_a, ratio.count_b) == (2, 2, 2)
    th = by_pair(view.ratio)[("t", "h")]
    # t is counted everywhere it occurs, `</w>`-split: the 10, there 3, that 2*5, thin 2, cat 7
    assert (th.count, th.count_a, th.count_b) == (20, 32, 20)
    assert th.score == 20 / (32 * 20) == 0.03125
    assert view.bpe.ties == view.ratio.ties == 1


# hug pug pun bun, `</w>`-split: h u g </w> | p u g </w> | p u n </w> | b u n </w>; N = 16.
# Symbols: h 1, u 4, g 2, </w> 4, p 2, n 2, b 1. Pairs in scan order with count and ratio:
#   (h,u) 1  1/(1*4)      (u,g) 2  2/(4*2)      (g,</w>) 2  2/(2*4)    (p,u) 2  2/(2*4)
#   (u,n) 2  2/(4*2)      (n,</w>) 2  2/(2*4)   (b,u) 1  1/(1*4)
# Ratio: all SEVEN are 0.25 (not five, as the issue says: five is what the `##` split gives,
# where `</w>` pairs do not exist). The first met, (h, u), wins.
# Likelihood: count(ab) * ln(count(ab) * 16 / (count(a) * count(b))) is 2 ln 4 for the five
# pairs of count 2 and ln 4 for (h,u) and (b,u): FIVE tie at 2 ln 4 = 2.773, (u, g) wins.
# BPE: the same five pairs tie at count 2, (u, g) wins.
HUG_PAIRS = [
    ("h", "u"), ("u", "g"), ("g", "</w>"), ("p", "u"), ("u", "n"), ("n", "</w>"), ("b", "u"),
]
COUNT_TWO = [("u", "g"), ("g", "</w>"), ("p", "u"), ("u", "n"), ("n", "</w>")]


def test_hug_pug_each_rule_its_winner_and_its_ties():
    view = side_by_side(corpus_from_counts(HUG_PUG))
    assert view.total_symbols == 16
    assert (view.bpe.winner.pair, view.bpe.winner.count, view.bpe.ties) == (("u", "g"), 2, 5)
    ratio = view.ratio.winner
    assert (ratio.pair, ratio.score, view.ratio.ties) == (("h", "u"), 0.25, 7)
    likelihood = view.likelihood.winner
    assert (likelihood.pair, view.likelihood.ties) == (("u", "g"), 5)
    assert likelihood.score == pytest.approx(2 * math.log(4))
    assert round(likelihood.score, 3) == 2.773
    # the tied pairs, in the first-seen order that breaks the tie
    assert [c.pair for c in view.ratio.candidates] == HUG_PAIRS
    assert [c.pair for c in view.likelihood.candidates[:5]] == COUNT_TWO
    assert [c.pair for c in view.bpe.candidates[:5]] == COUNT_TWO
    assert {c.score for c in view.likelihood.candidates[5:]} == {math.log(4)}


def test_on_the_wordpiece_split_the_ratio_ties_five():
    step = train_wordpiece(wordpiece_corpus(HUG_PUG), 1, top_k=10).steps[0]
    assert step.ties == 5 and step.pair == ("h", "##u") and step.score == 0.25


def test_every_pair_carries_its_counts_and_score():
    view = side_by_side(corpus_from_counts(HUG_PUG))
    for method in METHODS:
        ranking = view.ranking(method)
        assert ranking.method == method and len(ranking.candidates) == len(HUG_PAIRS)
        scores = [c.score for c in ranking.candidates]
        assert scores == sorted(scores, reverse=True)
    ug = by_pair(view.likelihood)[("u", "g")]
    assert (ug.count, ug.count_a, ug.count_b) == (2, 4, 2)
    assert by_pair(view.bpe)[("u", "g")].score == 2


@pytest.mark.parametrize("table", [THE_TABLE, HUG_PUG], ids=["the", "hug"])
def test_the_race_parts_at_the_first_step(table):
    result = race(corpus_from_counts(table), 10)
    assert result.first_difference == 0
    bpe_first, wordpiece_first = result.choices[0]
    view = side_by_side(corpus_from_counts(table))
    assert (bpe_first, wordpiece_first) == (view.bpe.winner.pair, view.ratio.winner.pair)


def test_a_race_that_agrees_for_two_steps():
    # a+</w> (count 9) then a+b (count 5) under both rules; then BPE joins ab+b (count 4) while
    # WordPiece joins ab+</w>: count 1 but 1/(5*1) = 0.2, the rarest parts win
    result = race(corpus_from_counts({"abba": 4, "a": 5, "bbab": 1}), 6)
    assert result.first_difference == 2
    assert result.choices[:2] == [(("a", "</w>"), ("a", "</w>")), (("a", "b"), ("a", "b"))]
    assert result.choices[2] == (("ab", "b"), ("ab", "</w>"))


def test_a_race_that_never_parts():
    result = race(corpus_from_counts({"ab": 5}), 5)
    assert result.first_difference is None
    assert result.bpe.merges == result.wordpiece.merges == [("a", "b"), ("ab", "</w>")]


def test_likelihood_race_on_the_table_agrees_at_first():
    result = race(corpus_from_counts(THE_TABLE), 8, score="likelihood")
    assert result.choices[0] == (("t", "h"), ("t", "h"))
    assert result.first_difference is not None and result.first_difference > 0


@pytest.mark.parametrize(
    "corpus",
    [
        corpus_from_text("hug pug", "sentence"),
        wordpiece_corpus(HUG_PUG),
        corpus_from_text("hug", "byte"),
    ],
    ids=["sentence", "wordpiece-split", "byte"],
)
def test_only_word_end_splits_are_compared(corpus):
    with pytest.raises(ValueError, match="`</w>`-split"):
        side_by_side(corpus)
    with pytest.raises(ValueError, match="`</w>`-split"):
        race(corpus, 3)


def test_bad_score_is_refused():
    with pytest.raises(ValueError, match="'ratio' or 'likelihood'"):
        race(corpus_from_counts(HUG_PUG), 3, score="count")
    with pytest.raises(ValueError, match="'ratio' or 'likelihood'"):
        rank_pairs(corpus_from_counts(HUG_PUG), "count")  # type: ignore[arg-type]


_tables = st.dictionaries(
    st.text("abc", min_size=1, max_size=6), st.integers(1, 9), min_size=1, max_size=10
)


@given(_tables)
def test_winners_are_what_the_trainers_merge_first(table):
    corpus = corpus_from_counts(table)
    view = side_by_side(corpus)
    assert [view.bpe.winner.pair] == train_bpe(corpus, 1).merges
    for score in ("ratio", "likelihood"):
        ranking = view.ranking(score)
        first = train_wordpiece(corpus, 1, score, special_tokens=(), continuation="").steps[0]
        assert (ranking.winner.pair, ranking.winner.score) == (first.pair, first.score)
        assert ranking.ties == sum(1 for c in ranking.candidates if c.score == first.score)
    assert view.bpe.ties == sum(1 for c in view.bpe.candidates if c.count == view.bpe.winner.count)
