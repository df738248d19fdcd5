"""WordPiece shown: the greedy search replay equals encoding; the race equals compare.race."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text, race, rank_pairs
from tokenizer_core.lessons.wordpiece_replay import match_trace, race_steps, why_unknown
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.trainers.wordpiece import train_wordpiece, wordpiece_corpus

from ..classroom import HUG_PUG, LOW_NEWEST, TEN_SENTENCES, THE_TABLE

CLASSROOM = WordPieceTokenizer.from_vocab(["[UNK]", "un", "##believ", "##able", "##ably"])


def pieces_of(tokenizer: WordPieceTokenizer, word: str) -> tuple[str, ...]:
    return tuple(t.piece for t in tokenizer.encode(word))


def test_unbelievable_is_un_believ_able():
    trace = match_trace(CLASSROOM, "unbelievable")
    assert trace.pieces == ("un", "##believ", "##able") == pieces_of(CLASSROOM, "unbelievable")
    assert [s.start for s in trace.steps] == [0, 2, 8]
    assert trace.steps[0].tries == 11  # 'unbelievable' down to 'un', longest first
    assert trace.steps[2].tried == ("##able",) and not trace.unknown


def test_a_word_that_cannot_be_finished_is_one_unk():
    trace = match_trace(CLASSROOM, "believable")  # no start piece fits 'b...'
    assert trace.unknown and trace.pieces == ("[UNK]",) == pieces_of(CLASSROOM, "believable")
    assert trace.steps[-1].match is None
    stuck = match_trace(CLASSROOM, "unbelievablyy")
    assert stuck.unknown and stuck.steps[-1].start == 12  # un ##believ ##ably, then '##y' fits not


def test_too_long_a_word_is_unk_without_search():
    tokenizer = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"], max_input_chars_per_word=5)
    trace = match_trace(tokenizer, "aaaaaa")
    assert trace.too_long and trace.pieces == ("[UNK]",) == pieces_of(tokenizer, "aaaaaa")


pieces = st.text(alphabet="abc", min_size=1, max_size=3)


@given(st.lists(pieces, max_size=8), st.lists(pieces, max_size=8), st.text(alphabet="abc", min_size=1, max_size=9))
def test_the_replay_finds_what_encoding_finds(starts, continuations, word):
    vocab = list(dict.fromkeys(["[UNK]", *starts, *("##" + c for c in continuations)]))
    tokenizer = WordPieceTokenizer.from_vocab(vocab)
    assert match_trace(tokenizer, word).pieces == pieces_of(tokenizer, word)


@pytest.mark.parametrize("corpus", [
    corpus_from_counts(LOW_NEWEST), corpus_from_counts(HUG_PUG), corpus_from_counts(THE_TABLE),
    corpus_from_text(TEN_SENTENCES, "word"),
], ids=["low_newest", "hug_pug", "the_table", "ten_sentences"])
@pytest.mark.parametrize("score", ["ratio", "likelihood"])
def test_race_steps_agree_with_compare_race(corpus, score):
    view = race_steps(corpus, 12, score)
    oracle = race(corpus, 12, score)
    assert view.choices == oracle.choices
    assert view.first_difference == oracle.first_difference
    first = view.steps[0]
    bpe, wp = rank_pairs(corpus, "bpe"), rank_pairs(corpus, score)
    assert first.bpe == bpe.candidates[:8] and first.bpe_ties == bpe.ties
    assert first.wordpiece == wp.candidates[:8] and first.wordpiece_ties == wp.ties
    for step, (b, w) in zip(view.steps, view.choices):  # each ranking's winner is the merge made
        assert (step.bpe[0].pair if step.bpe else None) == b
        assert (step.wordpiece[0].pair if step.wordpiece else None) == w


def test_low_newest_first_differs_at_step_one():
    view = race_steps(corpus_from_counts(LOW_NEWEST), 10)
    assert view.first_difference == 0
    assert view.steps[0].bpe[0].pair == ("e", "s")
    top = view.steps[0].wordpiece[0]
    assert top.pair == ("i", "d") and (top.count, top.count_a, top.count_b) == (3, 3, 3)


def test_each_race_step_knows_its_n_for_the_likelihood():
    # hug pug pun bun, `</w>`-split: N = 4 words * 4 symbols = 16; the likelihood's first merge,
    # (u,g), joins 2 pairs (hug, pug), so N = 14 before the second merge.
    view = race_steps(corpus_from_counts(HUG_PUG), 2, "likelihood")
    assert [s.wordpiece_total for s in view.steps] == [16, 14]


# Why a word is [UNK] (issue 9, item 13). hug pug pun bun on the ## split: words start with h, p,
# b; u, g, n only continue words (##u, ##g, ##n); q appears nowhere.
TRAINED = WordPieceTokenizer.from_training(train_wordpiece(wordpiece_corpus(HUG_PUG), 3))


def test_why_unknown_names_the_character_no_piece_can_spell():
    assert why_unknown(TRAINED, match_trace(TRAINED, "hug"), corpus=True) is None
    assert why_unknown(TRAINED, match_trace(TRAINED, "huq"), corpus=True) == (
        "'q' never appears in the corpus, so no piece can spell it"
    )
    assert why_unknown(TRAINED, match_trace(TRAINED, "ugh"), corpus=True) == (
        "no word of the corpus starts with 'u', so no piece can start 'ugh'"
    )
    assert why_unknown(TRAINED, match_trace(TRAINED, "bh"), corpus=True) == (
        "'h' only ever starts words in the corpus, so no piece ('##h') can continue 'b'"
    )


def test_why_unknown_for_a_written_vocabulary_says_what_to_add():
    # CLASSROOM: [UNK] un ##believ ##able ##ably
    assert why_unknown(CLASSROOM, match_trace(CLASSROOM, "xun")) == (
        "no piece of the vocabulary holds 'x', so nothing can spell it (add 'x')"
    )
    assert why_unknown(CLASSROOM, match_trace(CLASSROOM, "believable")) == (
        "no piece of the vocabulary can start 'believable', not even 'b'"
    )
    assert why_unknown(CLASSROOM, match_trace(CLASSROOM, "unbelievablyy")) == (
        "no piece of the vocabulary continues 'unbelievably' with 'y', not even '##y'"
    )
    tokenizer = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"], max_input_chars_per_word=5)
    assert why_unknown(tokenizer, match_trace(tokenizer, "aaaaaa")) == (
        "6 characters is over the model's limit of 5 per word, so it is [UNK] without a search"
    )
