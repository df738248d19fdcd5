"""Grow a Chinese vocabulary: the 256 bytes plus the N most frequent characters, measured on a
held-out text. Hand-computed examples, and the curve agrees with actually encoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core.measure.vocab_growth import (
    grow_curve,
    grow_tokens,
    is_han,
    is_han_or_punctuation,
    rank_characters,
)
from tokenizer_core.samples import parallel_pairs, sample_text


def test_hand_computed_curve():
    # Training: 你 x3, 好 x2, 我 x1. Held out: 你好吗, 3 characters of 3 bytes = 9 byte tokens.
    curve = grow_curve("你你你好好我", "你好吗")
    assert curve.added == ("你", "好", "我") and curve.train_counts == (3, 2, 1)
    # N=0: 9 bytes. N=1: 你 is one token: 1 + 3 + 3 = 7. N=2: 1 + 1 + 3 = 5. N=3: 我 is not in
    # the held-out text, still 5. 吗 was never seen in training: it stays 3 bytes.
    assert curve.tokens == (9, 7, 5, 5)
    assert curve.unseen == 1 and curve.floor == 5 and curve.heldout_chars == 3
    assert curve.vocab_size(2) == 258


def test_ties_go_to_the_character_met_first():
    assert rank_characters("好你好你") == [("好", 2), ("你", 2)]
    assert rank_characters("你好你好") == [("你", 2), ("好", 2)]


def test_punctuation_only_when_asked():
    train, held = "我们，我们的。abc", "我的，x"
    # Held out: 我 的 ， (3 bytes each) and x (1 byte) = 10 byte tokens.
    assert grow_curve(train, held).added == ("我", "们", "的")
    assert grow_curve(train, held).tokens == (10, 8, 8, 6)  # ， stays 3 bytes
    with_punct = grow_curve(train, held, is_han_or_punctuation)
    assert with_punct.added == ("我", "们", "，", "的", "。")
    assert with_punct.tokens == (10, 8, 8, 6, 4, 4)


def test_max_added_cuts_the_curve():
    curve = grow_curve("你你你好好我", "你好吗", max_added=1)
    assert curve.added == ("你",) and curve.tokens == (9, 7)


def test_grow_tokens_ids_and_offsets():
    tokens = grow_tokens("你a吗", ["吗", "你"])
    assert [(t.id, t.bytes, t.start, t.end, t.partial) for t in tokens] == [
        (257, "你".encode(), 0, 1, False),
        (ord("a"), b"a", 1, 2, False),
        (256, "吗".encode(), 2, 3, False),
    ]
    bytes_only = grow_tokens("你", [])
    assert [t.id for t in bytes_only] == [0xE4, 0xBD, 0xA0] and all(t.partial for t in bytes_only)


def test_bad_input_says_what_to_do():
    with pytest.raises(ValueError, match="held-out text is empty"):
        grow_curve("你好", "")
    with pytest.raises(ValueError, match="distinct single characters"):
        grow_tokens("你", ["你", "你"])
    with pytest.raises(ValueError, match="distinct single characters"):
        grow_tokens("你好", ["你好"])


def test_han_is_ideographs_only():
    assert all(is_han(c) for c in "你好世界㐀𠀀")
    assert not any(is_han(c) for c in "，。a1🙂ア한")
    assert all(is_han_or_punctuation(c) for c in "你，。！？“”…")


def test_built_in_texts_give_a_falling_curve_to_a_floor():
    held = "\n".join(p.zh for p in parallel_pairs())
    curve = grow_curve(sample_text("chinese"), held)
    assert curve.tokens[0] == len(held.encode("utf-8"))
    assert all(a >= b for a, b in zip(curve.tokens, curve.tokens[1:]))
    assert curve.tokens[-1] < curve.tokens[0] and curve.unseen > 0
    # The floor: every held-out character seen in training is one token, the rest their bytes.
    seen = set(curve.added)
    assert curve.floor == sum(1 if c in seen else len(c.encode()) for c in held)


han = st.sampled_from("的一是不了人我在有他这中大来上个们到说和")
texts = st.lists(st.one_of(han, st.sampled_from("，。ab 🙂\n")), max_size=60).map("".join)


@given(texts, texts.filter(bool))
def test_curve_equals_encoding_at_every_n(train, held):
    curve = grow_curve(train, held)
    assert len(curve.tokens) == len(curve.added) + 1
    for n in range(len(curve.tokens)):
        tokens = grow_tokens(held, curve.added[:n])
        assert len(tokens) == curve.tokens[n]
        assert b"".join(t.bytes for t in tokens) == held.encode("utf-8")
