"""The tiny tokenizer of the last exercise: decode(encode(text)) == text, special tokens cut out
first, and ids equal to tiktoken's on the same ranks."""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.lessons.tiny_tokenizer import TinyTokenizer
from tokenizer_core.samples import sample_text
from tokenizer_core.trainers.corpus import corpus_from_text
from tokenizer_core.trainers.textbook import textbook_train

SPECIALS = ["<|endoftext|>", "<|user|>"]
TRAINING_TEXT = sample_text("english")[:1500]


@pytest.fixture(scope="module")
def tiny() -> TinyTokenizer:
    merges, _ = textbook_train(corpus_from_text(TRAINING_TEXT, "byte"), 60)
    return TinyTokenizer(merges, SPECIALS)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def reference(tiny: TinyTokenizer) -> tiktoken.Encoding:
    """tiktoken with the same ranks; a pattern that keeps the whole text as one piece."""
    ranks = dict(tiny.ranks)  # bytes -> id, the specials left out
    return tiktoken.Encoding("tiny", pat_str=r"[\s\S]+", mergeable_ranks=ranks,
                             special_tokens=tiny.special_ids)


TEXTS = st.lists(st.sampled_from(list("the cat sat on a mat,.\n你好😀é") + SPECIALS),
                 max_size=40).map("".join) | st.text(max_size=40)


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_decode_of_encode_is_the_text(tiny, text):
    assert tiny.decode(tiny.encode(text)) == text


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_ids_equal_tiktoken_s_on_the_same_ranks(tiny, reference, text):
    assert tiny.encode(text) == reference.encode(text, allowed_special="all")


def test_special_tokens_are_cut_out_first(tiny):
    ids = tiny.encode("hi<|endoftext|>there")
    assert tiny.special_ids["<|endoftext|>"] in ids
    assert ids.count(tiny.special_ids["<|endoftext|>"]) == 1
    assert tiny.encode("<|endoftext|>") == [256 + 60]  # ids: bytes, merges, then specials


def test_the_longest_special_wins_over_its_prefix():
    tok = TinyTokenizer([], ["<|end", "<|endoftext|>"])
    assert tok.encode("<|endoftext|>") == [tok.special_ids["<|endoftext|>"]]
    assert tok.encode("<|end") == [tok.special_ids["<|end"]]


def test_minbpe_golden_example():
    # minbpe's test: "aaabdaaabac" with merges aa, aaab... gives [258, 100, 258, 97, 99]
    tok = TinyTokenizer([(b"a", b"a"), (b"aa", b"a"), (b"aaa", b"b")])
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_bad_merges_and_specials_say_why():
    with pytest.raises(ValueError, match="not made yet"):
        TinyTokenizer([(b"ab", b"c")])
    with pytest.raises(ValueError, match="second time"):
        TinyTokenizer([(b"a", b"b"), (b"a", b"b")])
    with pytest.raises(ValueError, match="listed twice"):
        TinyTokenizer([], ["<s>", "<s>"])
