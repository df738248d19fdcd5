"""BPE training: classroom examples exactly, and the fast trainer merge-for-merge equal to the
textbook loop (the oracle), ties included, on classroom corpora and random ones."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text, textbook_train, train_bpe
from tokenizer_core.bounds import MAX_HISTORY_SYMBOLS
from tokenizer_core.samples import sample_text
from tokenizer_core.trainers import bpe
from tokenizer_core.trainers.bpe import history_symbols
from tokenizer_core.trainers.textbook import count_pairs, merge_pair

from ..classroom import HUG_PUG, LESSON_MERGES, LOW_LOWER, LOW_NEWEST, TEN_SENTENCES, THE_TABLE

CLASSROOM = [
    corpus_from_counts(LOW_NEWEST),
    corpus_from_text(TEN_SENTENCES, "sentence"),
    corpus_from_text(TEN_SENTENCES, "word"),
    corpus_from_text(TEN_SENTENCES, "byte"),
    corpus_from_counts(THE_TABLE),
    corpus_from_counts(HUG_PUG),
    corpus_from_text(LOW_LOWER, "word"),
]


def test_low_newest_first_merge_is_e_s_with_nine():
    training = train_bpe(corpus_from_counts(LOW_NEWEST), 1)
    assert training.steps[0].pair == ("e", "s")
    assert training.steps[0].count == 9
    assert training.steps[0].new_token == "es"


def test_low_newest_eight_merges_match_the_lesson():
    training = train_bpe(corpus_from_counts(LOW_NEWEST), 8)
    assert training.merges == LESSON_MERGES


def test_ten_sentences_first_five_merges():
    training = train_bpe(corpus_from_text(TEN_SENTENCES, "sentence"), 5)
    assert training.merges == [("e", " "), ("t", "h"), ("th", "e "), ("a", "t"), ("o", "g")]


def test_ten_sentences_step_two_is_a_tie_won_by_the_pair_met_first():
    training = train_bpe(corpus_from_text(TEN_SENTENCES, "sentence"), 2, top_k=5)
    step = training.steps[1]
    assert step.pair == ("t", "h") and step.count == 10
    assert step.ties is not None and step.ties > 1  # ('h', 'e ') also has 10: the textbook tie
    assert [c.count for c in step.candidates[: step.ties]] == [10] * step.ties


def test_the_table_bpe_picks_t_h_with_twenty():
    step = train_bpe(corpus_from_counts(THE_TABLE), 1).steps[0]
    assert (step.pair, step.count) == (("t", "h"), 20)


def test_hug_pug_bpe_picks_u_g_with_two():
    step = train_bpe(corpus_from_counts(HUG_PUG), 1).steps[0]
    assert (step.pair, step.count) == (("u", "g"), 2)


@pytest.mark.parametrize("corpus", CLASSROOM, ids=lambda c: f"{c.level}-{c.labels[0]}")
@pytest.mark.parametrize("tie_break", ["first", "lexical"])
def test_fast_equals_textbook_on_classroom_corpora(corpus, tie_break):
    training = train_bpe(corpus, 200, tie_break)
    merges, counts = textbook_train(corpus, 200, tie_break)
    assert training.merges == merges
    assert training.counts == counts


def test_lexical_changes_the_tie_winner():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    first = train_bpe(corpus, 2, "first").merges
    lexical = train_bpe(corpus, 2, "lexical").merges
    assert first[1] == ("t", "h")
    assert lexical[1] == ("h", "e ")  # same count 10; 'h' sorts before 't'


def test_training_stops_early_and_says_why():
    training = train_bpe(corpus_from_counts({"ab": 3}), 10)
    assert training.merges == [("a", "b"), ("ab", "</w>")]
    assert "stopped after 2 of 10 merges" in training.stop_reason


def test_vocab_grows_by_one_per_new_token_and_specials_come_first():
    training = train_bpe(corpus_from_counts(LOW_NEWEST), 3, special_tokens=("<|endoftext|>",))
    assert training.vocab[0] == "<|endoftext|>"
    alphabet = corpus_from_counts(LOW_NEWEST).alphabet
    assert training.vocab[1 : 1 + len(alphabet)] == alphabet
    sizes = [s.vocab_size for s in training.steps]
    assert sizes == [1 + len(alphabet) + k for k in (1, 2, 3)]
    assert [training.vocab[s.new_id] for s in training.steps] == ["es", "est", "est</w>"]


@pytest.mark.parametrize("corpus", CLASSROOM[:3], ids=["low", "sentence", "word"])
def test_segmentation_at_every_step_equals_replaying_the_merges(corpus):
    training = train_bpe(corpus, 40, record_history=True)
    splits = [list(seq) for seq in corpus.sequences]
    assert training.segmentation_at(0) == [tuple(s) for s in splits]
    for k, pair in enumerate(training.merges, start=1):
        splits = [merge_pair(s, pair) for s in splits]
        assert training.segmentation_at(k) == [tuple(s) for s in splits]


def test_segmentation_without_history_replays():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    with_history = train_bpe(corpus, 15, record_history=True)
    without = train_bpe(corpus, 15)
    assert without.segmentation_at(15) == with_history.segmentation_at(15)
    with pytest.raises(ValueError, match="between 0 and 15"):
        without.segmentation_at(16)


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_merge_counts_are_refused(bad):
    with pytest.raises(ValueError, match="whole number"):
        train_bpe(corpus_from_counts(LOW_NEWEST), bad)


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="'first' or 'lexical'"):
        train_bpe(corpus_from_counts(LOW_NEWEST), 1, tie_break="random")


def test_special_token_strings_are_cut_out_of_the_training_text():
    text = "ab<s>ab<s>cd"
    with_specials = corpus_from_text(text, "word", special_tokens=("<s>",))
    assert with_specials.labels == ("ab", "cd") and with_specials.counts == (2, 1)
    assert "<" not in with_specials.alphabet


def test_progress_is_reported_per_merge():
    seen = []
    train_bpe(corpus_from_counts(LOW_NEWEST), 4, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


# Random corpora: few letters so that ties and repeats are common; unicode, single characters,
# empty lines and long runs included.
_alphabets = st.sampled_from(["ab", "abc ", "aab b", "xé你🙂 ", "z", "ab\t"])


@st.composite
def corpora(draw):
    alphabet = draw(_alphabets)
    lines = draw(st.lists(st.text(alphabet=alphabet, max_size=25), max_size=15))
    level = draw(st.sampled_from(["word", "sentence", "byte"]))
    return corpus_from_text("\n".join(lines), level)


@given(corpora(), st.integers(0, 60), st.sampled_from(["first", "lexical"]))
def test_fast_equals_textbook_on_random_corpora(corpus, num_merges, tie_break):
    training = train_bpe(corpus, num_merges, tie_break)
    merges, counts = textbook_train(corpus, num_merges, tie_break)
    assert training.merges == merges
    assert training.counts == counts


@given(st.dictionaries(st.text("abcd", min_size=1, max_size=8), st.integers(1, 50), max_size=12),
       st.integers(0, 40))
def test_fast_equals_textbook_on_random_count_tables(table, num_merges):
    corpus = corpus_from_counts(table)
    assert train_bpe(corpus, num_merges).merges == textbook_train(corpus, num_merges)[0]


@given(corpora(), st.sampled_from(["first", "lexical"]))
def test_candidates_are_the_textbook_ranking(corpus, tie_break):
    training = train_bpe(corpus, 12, tie_break, top_k=4)
    splits = [list(seq) for seq in corpus.sequences]
    for step in training.steps:
        pair_counts = count_pairs(splits, corpus.counts)
        top = max(pair_counts.values())
        if tie_break == "first":  # Python's sort is stable: scan order breaks count ties
            expected = sorted(pair_counts, key=lambda p: -pair_counts[p])[:4]
        else:
            expected = sorted(pair_counts, key=lambda p: (-pair_counts[p], p))[:4]
        assert [c.pair for c in step.candidates] == expected
        assert step.candidates[0].pair == step.pair
        assert step.ties == sum(1 for c in pair_counts.values() if c == top)
        splits = [merge_pair(s, step.pair) for s in splits]


# Long sequences: text with no spaces is one enormous chunk. The trainer keeps a sequence longer
# than LONG_SEQUENCE as a linked list with its pairs' positions (_Chain); these check that path
# merge for merge against the textbook, and the bounds on what training may keep.


@contextmanager
def long_sequences_from(length: int):
    """Every sequence longer than `length` takes the long-sequence path."""
    saved = bpe.LONG_SEQUENCE
    bpe.LONG_SEQUENCE = length
    try:
        yield
    finally:
        bpe.LONG_SEQUENCE = saved


def _random_cjk(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(n))


NO_SPACES = {
    "one letter (overlapping pairs)": "a" * 301,
    "two letters": "ab" * 250 + "a",
    "one word repeated": "tokenization" * 60,
    "random Chinese": _random_cjk(700, seed=1),
    "a few Chinese characters": "".join(random.Random(2).choice("的一是不了人我在") for _ in range(900)),
    "emoji": "😀🎉🚀👍🏽" * 80,
}


@pytest.mark.parametrize("text", NO_SPACES.values(), ids=NO_SPACES.keys())
@pytest.mark.parametrize("level", ["byte", "sentence"])
@pytest.mark.parametrize("tie_break", ["first", "lexical"])
def test_one_long_chunk_trains_as_the_textbook_does(text, level, tie_break):
    corpus = corpus_from_text(text, level)
    assert max(map(len, corpus.sequences)) > bpe.LONG_SEQUENCE  # the long path is taken
    training = train_bpe(corpus, 400, tie_break)
    merges, counts = textbook_train(corpus, 400, tie_break)
    assert training.merges == merges
    assert training.counts == counts


@pytest.mark.parametrize("text", NO_SPACES.values(), ids=NO_SPACES.keys())
def test_long_chunks_among_short_ones_train_as_the_textbook_does(text):
    corpus = corpus_from_text(f"the cat {text} sat on {text[::-1]} the mat {text[:90]}", "byte")
    training = train_bpe(corpus, 300)
    assert (training.merges, training.counts) == textbook_train(corpus, 300)


@given(corpora(), st.integers(0, 60), st.sampled_from(["first", "lexical"]),
       st.sampled_from([0, 1, 3, 8]))
def test_long_sequence_path_equals_textbook_on_random_corpora(corpus, num_merges, tie_break,
                                                               length):
    with long_sequences_from(length):
        training = train_bpe(corpus, num_merges, tie_break)
    merges, counts = textbook_train(corpus, num_merges, tie_break)
    assert training.merges == merges
    assert training.counts == counts


@given(corpora(), st.sampled_from(["first", "lexical"]))
def test_long_sequence_path_gives_textbook_candidates_and_segmentations(corpus, tie_break):
    with long_sequences_from(0):
        training = train_bpe(corpus, 12, tie_break, top_k=4, record_history=True)
    splits = [list(seq) for seq in corpus.sequences]
    for k, step in enumerate(training.steps, start=1):
        pair_counts = count_pairs(splits, corpus.counts)
        if tie_break == "first":
            expected = sorted(pair_counts, key=lambda p: -pair_counts[p])[:4]
        else:
            expected = sorted(pair_counts, key=lambda p: (-pair_counts[p], p))[:4]
        assert [c.pair for c in step.candidates] == expected
        splits = [merge_pair(s, step.pair) for s in splits]
        assert training.segmentation_at(k) == [tuple(s) for s in splits]


def test_recording_every_step_of_one_huge_chunk_is_refused_saying_what_to_do():
    # the Merge steps report: 19,990 Chinese characters at byte level, 500 merges
    corpus = corpus_from_text(_random_cjk(19_990, seed=3), "byte")
    chunk = len(corpus.sequences[0])
    assert history_symbols(corpus, 500) > MAX_HISTORY_SYMBOLS
    most = MAX_HISTORY_SYMBOLS // chunk  # one chunk, stored again at every merge
    with pytest.raises(ValueError) as refused:
        train_bpe(corpus, 500, record_history=True)
    message = str(refused.value)
    assert f"longest has {chunk:,} symbols" in message
    assert f"Ask for {most:,} merges or fewer" in message
    assert "text with no spaces is one chunk" in message
    assert history_symbols(corpus, most) <= MAX_HISTORY_SYMBOLS  # and that many are accepted
    assert len(train_bpe(corpus, most, record_history=True).steps) == most


def test_training_without_history_is_not_bounded_by_it():
    corpus = corpus_from_text(_random_cjk(19_990, seed=3), "byte")
    assert len(train_bpe(corpus, 500).steps) == 500


def test_a_progress_callback_that_raises_stops_training_mid_way():
    class Cancelled(Exception):
        pass

    calls = []

    def cancel_after_five(done: int, total: int) -> None:
        calls.append(done)
        if done == 5:
            raise Cancelled

    with pytest.raises(Cancelled):
        train_bpe(corpus_from_text(_random_cjk(5_000, seed=4), "byte"), 3_000,
                  progress=cancel_after_five)
    assert calls == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("name", ["chinese", "english", "code", "emoji"])
@pytest.mark.parametrize("level", ["byte", "sentence"])
def test_built_in_samples_trained_until_no_pair_is_left_equal_the_textbook(name, level):
    """Real text, to the last merge: the trainer keeps new pairs of count 1 and 2 aside (no
    index, no heap entry) until the top count falls to theirs, and the last hundreds of merges
    are picked among them, ties and all."""
    corpus = corpus_from_text(sample_text(name), level)
    training = train_bpe(corpus, 100_000)
    assert training.stop_reason.startswith("stopped after")
    assert (training.merges, training.counts) == textbook_train(corpus, 100_000)
    assert training.counts[-1] == 1  # the deferred pairs did take part
