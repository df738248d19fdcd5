"""Our byte-level encoder over the real ranks (core:gpt2, core:cl100k_base, core:o200k_base)
returns exactly tiktoken's ids, on arbitrary Unicode and on real multilingual text."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.shared import core, tiktoken_encoding
from tokenizer_core.levels import byte_parts
from tokenizer_core.models.byte_bpe import (
    THREE_BYTE_RUN,
    joinable_pairs,
    joins_between_three_byte_characters,
    merge_small,
    segments,
    three_byte_segments,
)
from tokenizer_core.models.merge import merge_traced
from tokenizer_core.registry import ENCODINGS
from tokenizer_core.samples import corpus_text, emoji_catalogue, parallel_pairs, sample_text


@pytest.fixture(scope="module", params=ENCODINGS)
def pair(request):
    """(ours, tiktoken's Encoding) over the same ranks."""
    return core(request.param), tiktoken_encoding(request.param)


# Text hypothesis would rarely build by itself: the places where regexes and merges get subtle.
_tricky = st.sampled_from(
    ["👨‍👩‍👧‍👦", "🇯🇵", "1️⃣", "👍🏽", "你好，世界", "e\u0301", "\u0000", "\r\n", "\t", "   ",
     "123456789", "'s", "'LL", "ℝ", "ﬁ", "\u2028", "\ufeff", "😀" * 3, "  \n  x", "’re"]
)
_texts = st.lists(st.one_of(st.text(max_size=12), _tricky), max_size=12).map("".join)


@given(_texts)
@example("hello world  \n\n   foo 1.11 and 12345678")
@example(" " * 300 + "x")
def test_ids_equal_tiktoken_on_arbitrary_text(pair, text):
    ours, reference = pair
    assert ours.encode_ordinary_ids(text) == reference.encode_ordinary(text)


def test_ids_equal_tiktoken_on_the_built_in_samples(pair):
    ours, reference = pair
    texts = [sample_text(n) for n in ("english", "chinese", "code", "emoji", "mixed_default")]
    texts += [p.en + "\n" + p.zh for p in parallel_pairs()]
    texts += [e.emoji for e in emoji_catalogue()]
    for text in texts:
        assert ours.encode_ordinary_ids(text) == reference.encode_ordinary(text)


def test_ids_equal_tiktoken_on_the_long_corpora_from_a_cold_cache(pair):
    # Chinese, code and emoji at length: most chunks are new, so the cut-where-no-join-crosses
    # path (byte_bpe.segments) does the work, and its segment cache too
    ours, reference = pair
    for name in ("chinese", "code", "emoji"):
        ours.clear_cache()
        text = corpus_text(name)
        assert ours.encode_ordinary_ids(text) == reference.encode_ordinary(text), name


def test_segments_cut_only_where_no_token_joins():
    # GPT-2 holds tokens for 你 (E4 BD A0) split in two, but none joining a character's last
    # byte to the next one's first: every boundary between these characters is a cut
    ours = core("gpt2")
    flags = joinable_pairs(ours.encoder)
    assert segments("你好世界", flags, {}) == ["你", "好", "世", "界"]
    # " the" is one token, so every pair inside it is joinable: no cut
    assert segments(" the", flags, {}) == [" the"]
    # and a pair is joinable exactly when some token holds it
    assert flags[ord("t") << 8 | ord("h")] == 1
    assert all(flags[a << 8 | b] for token in list(ours.encoder)[:2000]
               for a, b in zip(token, token[1:]))


def test_long_runs_take_the_long_path_and_still_agree(pair):
    ours, reference = pair
    for text in ["9" * 5000, " " * 5000 + "a", "ab" * 3000, "你" * 2000]:
        assert ours.encode_ordinary_ids(text) == reference.encode_ordinary(text)


def test_special_tokens_follow_tiktokens_rule():
    ours = core("gpt2")
    with pytest.raises(ValueError, match="disallowed special token '<|endoftext|>'"):
        ours.encode_ids("hello<|endoftext|>world")
    assert ours.encode_ids("hello<|endoftext|>world", allowed_special="all") == [31373, 50256, 6894]
    assert ours.encode_ids("hello<|endoftext|>world", disallowed_special=()) == \
        tiktoken_encoding("gpt2").encode_ordinary("hello<|endoftext|>world")


def test_tokens_carry_honest_spans_for_split_characters():
    tokens = core("gpt2").encode("你好，世界🙂")
    assert [t.id for t in tokens][:3] == [19526, 254, 25001]
    assert len(tokens) == 13
    first, second = tokens[0], tokens[1]
    assert (first.start, first.end, first.partial, first.display()) == (0, 1, True, "<E4 BD>")
    assert (second.start, second.end, second.partial, second.display()) == (0, 1, True, "<A0>")


def test_trace_replays_gpt2_building_a_word_from_bytes():
    ours = core("gpt2")
    parts, steps = ours.trace_chunk(" tokenization")
    assert [ours.encoder[p] for p in parts] == tiktoken_encoding("gpt2").encode_ordinary(" tokenization")
    ranks = [s.rank for s in steps]
    assert len(steps) == len(" tokenization") - len(parts)
    assert all(ours.encoder[s.pair[0] + s.pair[1]] == s.rank for s in steps)
    assert ranks == sorted(ranks)  # a learned merge never outranks the merges it builds on


# merge_small: tiktoken's rule on 1-3 bytes spelled out without a loop (the cold-cache path
# for single CJK characters), against the obviously-right loop (merge_traced) on random ranks,
# where a whole token need not be reachable by joins, and on GPT-2's own ranks.
_short_bytes = st.binary(min_size=1, max_size=3)


@given(_short_bytes, st.dictionaries(st.binary(min_size=2, max_size=3), st.integers(256, 400)))
def test_merge_small_is_the_rule_on_random_ranks(data, extra):
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({tok: rank for tok, rank in extra.items() if rank not in ranks.values()})
    parts, _ = merge_traced(byte_parts(data), lambda a, b: ranks.get(a + b))
    assert merge_small(data, ranks) == [ranks[p] for p in parts]


@given(_short_bytes)
def test_merge_small_is_the_rule_on_gpt2_ranks(data):
    ranks = core("gpt2").encoder
    parts, _ = merge_traced(byte_parts(data), lambda a, b: ranks.get(a + b))
    assert merge_small(data, ranks) == [ranks[p] for p in parts]


def test_merge_small_leaves_longer_pieces_to_the_loop():
    assert merge_small(b"abcd", core("gpt2").encoder) is None


# three_byte_segments: the C-found cuts of a run of 3-byte characters, against the plain
# character-by-character `segments`, on the real vocabularies and on random joinable pairs.
_three_byte_chars = st.characters(min_codepoint=0x800, max_codepoint=0xFFFF,
                                  blacklist_categories=("Cs",))
_three_byte_runs = st.one_of(
    st.text(_three_byte_chars, min_size=1, max_size=40),
    st.text(st.sampled_from("你好世界的一是不了人我在有他这中大来上个们到说国和地也子时道出而要于就下得"),
            min_size=1, max_size=40),
)


@pytest.fixture(scope="module")
def real_joins(pair):
    """The real vocabulary's joinable pairs and three-byte joins, built once per vocabulary
    (building them took seconds per example on o200k's 200,000 tokens: most of CI's minute)."""
    flags = joinable_pairs(pair[0].encoder)
    return flags, joins_between_three_byte_characters(flags)


@given(_three_byte_runs)
@example("你好世界")
def test_three_byte_segments_equal_segments_on_real_vocabularies(real_joins, chunk):
    flags, joins = real_joins
    assert THREE_BYTE_RUN.fullmatch(chunk)
    assert three_byte_segments(chunk, chunk.encode(), joins) == segments(chunk, flags, {})


@given(_three_byte_runs, st.lists(st.tuples(st.integers(0x80, 0xBF), st.integers(0xE0, 0xEF)),
                                  max_size=60))
def test_three_byte_segments_equal_segments_on_random_joins(chunk, pairs):
    flags = bytearray(65_536)
    for a, b in pairs:
        flags[a << 8 | b] = 1
    joins = joins_between_three_byte_characters(flags)
    assert three_byte_segments(chunk, chunk.encode(), joins) == segments(chunk, flags, {})


def test_three_byte_runs_are_only_three_byte_characters():
    assert THREE_BYTE_RUN.fullmatch("你好，世界")
    for mixed in (" 你好", "a你", "é你", "😀你", "你\n"):
        assert not THREE_BYTE_RUN.fullmatch(mixed)
