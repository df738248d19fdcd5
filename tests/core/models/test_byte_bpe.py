"""Our byte-level encoder over the real ranks (core:gpt2, core:cl100k_base, core:o200k_base)
returns exactly tiktoken's ids, on arbitrary Unicode and on real multilingual text."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.shared import core, tiktoken_encoding
from tokenizer_core.models.byte_bpe import joinable_pairs, segments
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
