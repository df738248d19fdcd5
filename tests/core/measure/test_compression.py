"""The compression curve: one training run and one pass give, for every k, exactly the tokens that
the first k merges need. Oracles: a separate training run per k (small k), and the tokenizer of
merges[:k] encoding the text (every k), plus hand-made merges that make one string twice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import ByteLevelBPE, bpe_model, corpus_from_text, train_bpe
from tokenizer_core.measure.compression import (
    BYTE_VOCAB,
    compression_curve,
    log_spaced,
    split_held_out,
)
from tokenizer_core.measure.merge_prefix import token_counts_by_merges
from tokenizer_core.models.merge import _merge_long, _merge_short, join_ranks, pair_ranks
from tokenizer_core.samples import sample_text

from ..classroom import TEN_SENTENCES


def ranks_of_joins(chunk: bytes, merges) -> list[int]:
    ranks = pair_ranks(merges)
    return join_ranks([chunk[i : i + 1] for i in range(len(chunk))], lambda a, b: ranks.get((a, b)))


def encoded_count(merges, text: str) -> int:
    return len(ByteLevelBPE.from_merges("k", merges).encode_ordinary_ids(text))


@pytest.fixture(scope="module")
def english_split():
    return split_held_out(sample_text("english"), 0.25)


# --- the held-out split -----------------------------------------------------------------------


def test_split_cuts_at_the_nearest_paragraph_break():
    text = "aaaa aaaa\n\nbbbb bbbb\n\ncccc cccc\n\ndddd dddd"  # 42 characters, 4 paragraphs
    split = split_held_out(text, 0.25)
    assert split.held_out == "dddd dddd" and split.train == text[: split.cut]
    assert split.train + split.held_out == text
    assert split.held_out_first_line == 7
    assert split.held_out_share == pytest.approx(9 / 42)


def test_split_without_line_breaks_cuts_at_a_space():
    text = " ".join(["word"] * 50)  # 249 characters
    split = split_held_out(text, 0.2)
    assert split.train.endswith(" ") and split.held_out.startswith("word")
    assert split.train + split.held_out == text


@pytest.mark.parametrize("share", [0, 1, -0.1, 1.5])
def test_split_refuses_a_share_outside_0_1(share):
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_held_out("some text here", share)


def test_split_refuses_a_text_too_short_to_split():
    with pytest.raises(ValueError, match="too short"):
        split_held_out("x", 0.5)


# --- the one-pass counts against oracles -------------------------------------------------------


def test_point_at_k_equals_a_separate_training_run_per_k(english_split):
    """The brief's oracle: bpe_model(train_bpe(corpus, k)) on the held-out text, for small k."""
    corpus = corpus_from_text(english_split.train, "byte")
    counts = token_counts_by_merges(train_bpe(corpus, 40).merges, english_split.held_out)
    for k in range(41):
        model = bpe_model(train_bpe(corpus, k))
        assert counts[k] == len(model.encode_ordinary_ids(english_split.held_out)), k


def test_every_k_equals_the_tokenizer_of_the_first_k_merges(english_split):
    curve = compression_curve(english_split, 600)
    assert curve.learned_merges == 600
    for k in range(0, 601, 7):
        held = curve.tokenizer(k).encode_ordinary_ids(english_split.held_out)
        train = curve.tokenizer(k).encode_ordinary_ids(english_split.train)
        assert curve.held_out_tokens[k] == len(held)
        assert curve.train_tokens[k] == len(train)


@pytest.mark.parametrize("name", ["chinese", "emoji", "code"])
def test_other_scripts_every_k(name):
    """Chinese chunks are long (a clause is one chunk: the heap path), emoji split characters."""
    split = split_held_out(sample_text(name), 0.2)
    curve = compression_curve(split, 5_000)
    assert curve.learned_merges < 5_000 and "no pair is left" in curve.stop_reason
    for k in range(0, curve.learned_merges + 1, 13):
        assert curve.held_out_tokens[k] == encoded_count(curve.merges[:k], split.held_out), k


def test_counts_start_at_the_byte_count_and_never_rise(english_split):
    curve = compression_curve(english_split, 300)
    counts = curve.held_out_tokens
    assert counts[0] == len(english_split.held_out.encode("utf-8"))
    assert all(a >= b for a, b in zip(counts, counts[1:]))
    assert curve.at(0).bytes_per_token == 1.0


def test_one_string_made_by_two_merges_uses_the_prefix_maximum():
    """`abc` is made by merge 2 (ab + c) and again by merge 4 (a + bc); merge 3 joins x + abc.
    Encoding `xabc` with all merges joins b+c (rank 0), a+bc (4), then x+abc (3): the ranks fall.
    With the first 4 merges, a+bc is not there yet, so `x a bc` stays 3 tokens; counting the
    joins of rank < 4 (two) would wrongly say 2. The prefix maximum (0, 4, 4) says 3."""
    a, b, c, x = b"a", b"b", b"c", b"x"
    merges = [(b, c), (a, b), (a + b, c), (x, a + b + c), (a, b + c)]
    assert ranks_of_joins(b"xabc", merges) == [0, 4, 3]
    assert token_counts_by_merges(merges, "xabc") == [4, 3, 3, 3, 3, 1]
    for text in ["xabc", "abc xabc", "xbc", "xabcabc", "ab cxabc"]:
        counts = token_counts_by_merges(merges, text)
        assert counts == [encoded_count(merges[:k], text) for k in range(len(merges) + 1)], text


@given(st.text(alphabet="ab c\n", min_size=1, max_size=60),
       st.text(alphabet="ab cd\n", max_size=60))
def test_random_texts_every_k(train_text, held_out):
    """Tiny alphabets make long merge chains and repeated strings: every k must still agree."""
    merges = train_bpe(corpus_from_text(train_text, "byte"), 80).merges
    counts = token_counts_by_merges(merges, held_out)
    assert counts == [encoded_count(merges[:k], held_out) for k in range(len(merges) + 1)]


@given(st.binary(min_size=0, max_size=120))
def test_heap_and_list_join_in_the_same_order(data):
    merges = train_bpe(corpus_from_text("ab" * 40 + "ba" * 30 + "aab" * 20, "byte"), 60).merges
    ranks = pair_ranks(merges)  # type: ignore[arg-type]
    chunk = bytes(b % 2 + 97 for b in data)  # only a and b, so merges keep firing
    parts = [chunk[i : i + 1] for i in range(len(chunk))]
    short, long = [], []
    _merge_short(parts, lambda a, b: ranks.get((a, b)), short)
    _merge_long(parts, lambda a, b: ranks.get((a, b)), long)
    assert short == long


def test_join_ranks_by_hand():
    merges = [(b"a", b"a"), (b"aa", b"a")]
    assert ranks_of_joins(b"aaaa", merges) == [0, 0]  # aa aa, and (aa, a) never forms
    assert ranks_of_joins(b"aaa", merges) == [0, 1]  # aa a -> aaa
    assert ranks_of_joins(b"ba", merges) == []


# --- the curve record ---------------------------------------------------------------------------


def test_curve_of_the_ten_sentences_by_hand():
    split = split_held_out(TEN_SENTENCES, 0.2)
    assert split.held_out == "the log is hard\ncats and dogs are friends"
    curve = compression_curve(split, 10_000)
    assert curve.learned_merges < 10_000  # a classroom corpus runs out of pairs
    stats = curve.at(0)
    assert (stats.tokens, stats.characters, stats.utf8_bytes, stats.words) == (41, 41, 41, 4 + 5)
    assert curve.space_separated
    assert curve.tokenizer(5).vocab_size == BYTE_VOCAB + 5
    with pytest.raises(ValueError, match="learned merges"):
        curve.at(curve.learned_merges + 1)


def test_chinese_is_not_space_separated():
    curve = compression_curve(split_held_out(sample_text("chinese"), 0.2), 50)
    assert not curve.space_separated


# --- log-spaced sampling -------------------------------------------------------------------------


def test_log_spaced_keeps_the_ends_and_the_included_values():
    sizes = log_spaced(256, 4_256, 20, include=(500, 1_000, 5_000))
    assert sizes[0] == 256 and sizes[-1] == 4_256
    assert 500 in sizes and 1_000 in sizes and 5_000 not in sizes
    assert sizes == sorted(set(sizes))
    extra = (500, 1_000)
    ratios = [b / a for a, b in zip(sizes, sizes[1:]) if a not in extra and b not in extra]
    assert max(ratios) < 1.25  # evenly spread on a log axis: 16.6x over 19 steps is ~1.16 each


def test_log_spaced_small_ranges_and_errors():
    assert log_spaced(256, 256, 10) == [256]
    assert log_spaced(256, 260, 60) == [256, 257, 258, 259, 260]
    with pytest.raises(ValueError, match="low <= high"):
        log_spaced(300, 200, 5)
    with pytest.raises(ValueError, match="at least 2"):
        log_spaced(1, 10, 1)
