"""What text costs: the token premium of Chinese (hand-checked on a tiny parallel file, and equal
to tiktoken's own counts on the built-in pairs), and the code points and bytes of emoji."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shared import core, tiktoken, tiktoken_encoding
from tokenizer_core import bpe_model, corpus_from_text, train_bpe
from tokenizer_core.measure.language_costs import (
    PROGRESS_CHARS,
    premium,
    string_cost,
    token_counts,
    utf8_bytes,
)
from tokenizer_core.samples import emoji_catalogue, parallel_pairs, parse_parallel

TINY = "en\tzh\nGood morning.\t早上好。\nI like tea.\t我喜欢茶。\n# a comment\n\nYes.\t是。\n"


def test_tiny_file_by_characters_hand_checked():
    pairs = parse_parallel(TINY, "tiny.tsv")
    result = premium(pairs, len)  # "tokens" = characters, easy to count by hand
    # Good morning. = 13, 早上好。 = 4; I like tea. = 11, 我喜欢茶。 = 5; Yes. = 4, 是。 = 2
    assert [(c.line, c.en_tokens, c.zh_tokens) for c in result.pairs] == [(2, 13, 4), (3, 11, 5), (6, 4, 2)]
    assert result.total_ratio == pytest.approx(11 / 28)
    assert result.median_ratio == pytest.approx(5 / 11)  # sorted: 4/13 = .31, 5/11 = .45, 2/4 = .5
    assert result.pairs_costlier_in_zh == 0
    assert (result.en.characters, result.zh.characters) == (28, 11)


def test_tiny_file_by_utf8_bytes_hand_checked():
    pairs = parse_parallel(TINY, "tiny.tsv")
    result = premium(pairs, utf8_bytes)
    # Chinese characters and full-width punctuation are 3 bytes each: 12, 15, 6 bytes.
    assert [c.zh_tokens for c in result.pairs] == [12, 15, 6]
    assert result.total_ratio == pytest.approx(33 / 28)
    assert result.median_ratio == pytest.approx(15 / 11)  # sorted: 12/13 = .92, 15/11 = 1.36, 6/4
    assert result.zh.bytes_per_char == 3.0 and result.en.bytes_per_char == 1.0
    assert result.zh.tokens_per_char == 3.0 and result.zh.bytes_per_token == 1.0
    assert result.pairs_costlier_in_zh == 2


def test_even_number_of_pairs_takes_the_mean_of_the_middle_two():
    pairs = parse_parallel("en\tzh\nab\t一\nabcd\t一二三\n")
    result = premium(pairs, len)
    assert result.median_ratio == pytest.approx((1 / 2 + 3 / 4) / 2)
    assert result.total_ratio == pytest.approx(4 / 6)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_built_in_pairs_match_tiktoken_counts(name):
    pairs = parallel_pairs()
    encoding = tiktoken_encoding(name)  # tiktoken's own Encoding: the oracle
    tokenizer = tiktoken(name)
    result = premium(pairs, lambda s: len(tokenizer.encode(s, disallowed_special=())))
    expected_en = [len(encoding.encode_ordinary(p.en)) for p in pairs]
    expected_zh = [len(encoding.encode_ordinary(p.zh)) for p in pairs]
    assert [c.en_tokens for c in result.pairs] == expected_en
    assert [c.zh_tokens for c in result.pairs] == expected_zh
    assert result.total_ratio == sum(expected_zh) / sum(expected_en)
    assert result.median_ratio == statistics.median(z / e for z, e in zip(expected_zh, expected_en))
    # Our own pure-Python encoder over the same ranks gives the same premium.
    ours = core(name)
    assert premium(pairs, lambda s: len(ours.encode_ordinary_ids(s))) == result


def test_built_in_pairs_premium_orders_the_tokenizers():
    """Newer vocabularies learned more Chinese: the premium falls from GPT-2 to o200k_base."""
    pairs = parallel_pairs()
    ratios = [
        premium(pairs, lambda s, e=tiktoken_encoding(n): len(e.encode_ordinary(s))).total_ratio
        for n in ("gpt2", "cl100k_base", "o200k_base")
    ]
    assert ratios == sorted(ratios, reverse=True)
    assert len(pairs) >= 30


def test_no_pairs_or_a_zero_count_is_refused():
    with pytest.raises(ValueError, match="no parallel pairs"):
        premium([], len)
    pairs = parse_parallel("en\tzh\nhello\t你好\n")
    with pytest.raises(ValueError, match="line 2: the Chinese sentence counts 0 tokens"):
        premium(pairs, lambda s: 0 if s == "你好" else 1)


@pytest.mark.parametrize(
    "text, code_points, n_bytes",
    [
        ("👍🏽", ("U+1F44D", "U+1F3FD"), 8),
        ("🇯🇵", ("U+1F1EF", "U+1F1F5"), 8),
        ("1️⃣", ("U+0031", "U+FE0F", "U+20E3"), 7),
        ("👨‍👩‍👧‍👦", ("U+1F468", "U+200D", "U+1F469", "U+200D", "U+1F467", "U+200D", "U+1F466"), 25),
        ("你", ("U+4F60",), 3),
    ],
)
def test_emoji_code_points_and_bytes(text, code_points, n_bytes):
    cost = string_cost(text)
    assert cost.code_points == code_points and cost.n_code_points == len(code_points)
    assert cost.n_bytes == n_bytes == len(text.encode("utf-8"))


def test_ni_bytes_in_hex():
    assert string_cost("你").utf8_hex == ("E4", "BD", "A0")


def test_catalogue_entries_cost_what_their_kind_says():
    by_name = {e.name: e for e in emoji_catalogue()}
    england = string_cost(by_name["flag: England"].emoji)
    assert england.n_code_points == 7 and england.n_bytes == 28  # flag, 5 tag letters, cancel tag
    for entry in emoji_catalogue():
        cost = string_cost(entry.emoji)
        if entry.category == "flag":
            assert cost.n_code_points == 2 and cost.n_bytes == 8
        if entry.category == "keycap":
            assert cost.code_points[1:] == ("U+FE0F", "U+20E3") and cost.n_bytes == 7
        if entry.category == "skin_tone":
            assert cost.n_code_points == 2 and "U+1F3F" in cost.code_points[1]


# --- token_counts: the page's fast count, checked against tiktoken and the slow Token path ------

SPECIAL = "<|endoftext|>"
TEXTS = st.lists(
    st.one_of(st.text(max_size=40), st.sampled_from([SPECIAL, f"a{SPECIAL}b", "你好，世界！", "👍🏽 x"])),
    max_size=12,
)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
@settings(max_examples=60, deadline=None)
@given(texts=TEXTS)
def test_token_counts_equal_tiktoken_reading_special_strings_as_text(name, texts):
    expected = [len(tiktoken_encoding(name).encode(t, disallowed_special=())) for t in texts]
    assert token_counts(tiktoken(name), texts) == expected


@settings(max_examples=60, deadline=None)
@given(texts=TEXTS)
def test_token_counts_of_our_encoder_equal_its_slow_token_path(texts):
    encoder = core("gpt2")
    assert token_counts(encoder, texts) == [len(encoder.encode(t, disallowed_special=())) for t in texts]


def test_token_counts_fall_back_to_encode_for_other_tokenizers():
    word_level = bpe_model(train_bpe(corpus_from_text("low lower lowest low", "word"), 3))
    assert not hasattr(word_level, "encode_ordinary_ids")
    texts = ["low low", "lowest", "low low"]
    assert token_counts(word_level, texts) == [len(word_level.encode(t)) for t in texts]


def test_token_counts_on_the_built_in_pairs_equal_tiktoken():
    sentences = [s for p in parallel_pairs() for s in (p.en, p.zh)]
    expected = [len(tiktoken_encoding("o200k_base").encode_ordinary(s)) for s in sentences]
    assert token_counts(tiktoken("o200k_base"), sentences) == expected


def test_token_counts_count_each_distinct_text_once_and_report_progress():
    texts = ["a" * PROGRESS_CHARS, "b", "a" * PROGRESS_CHARS, "c" * PROGRESS_CHARS, "b"]
    calls = []
    counts = token_counts(tiktoken("gpt2"), texts, lambda done, total: calls.append((done, total)))
    assert counts[0] == counts[2] and counts[1] == counts[4] == 1
    assert calls == [(1, 3), (3, 3)]  # after each PROGRESS_CHARS characters, and at the end


class Cancelled(Exception):
    """Stands for Streamlit's StopException, which a page's progress callback raises."""


def test_token_counts_stop_when_progress_raises():
    def stop(done: int, total: int) -> None:
        raise Cancelled

    with pytest.raises(Cancelled):
        token_counts(tiktoken("gpt2"), ["x" * PROGRESS_CHARS, "y"], stop)


def test_token_counts_refuse_a_lone_surrogate_like_encode():
    with pytest.raises(ValueError, match="lone surrogate"):
        tiktoken("gpt2").encode("a\ud800", disallowed_special=())
    with pytest.raises(ValueError, match="lone surrogate"):
        token_counts(tiktoken("gpt2"), ["ok", "a\ud800"])
