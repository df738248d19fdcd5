"""Encode replay and the first-k-merges models: checked against the real encoders and tiktoken."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.shared import tiktoken_encoding
from tokenizer_core import bpe_model, corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.lessons.encode_replay import replay
from tokenizer_core.measure.merge_prefix import (
    counts_by_merges,
    model_with_first,
    training_token_counts,
)
from tokenizer_core.models.merge import merge_traced, pair_ranks
from tokenizer_core.samples import sample_text

from ..classroom import LOW_NEWEST, TEN_SENTENCES


@pytest.fixture(scope="module")
def tiktoken_gpt2():
    """tiktoken itself, built from the offline rank files (never the network)."""
    return tiktoken_encoding("gpt2")


def test_lowest_replays_to_low_and_est():
    model = bpe_model(train_bpe(corpus_from_counts(LOW_NEWEST), 10))
    (piece,) = replay(model, "lowest").pieces
    assert piece.parts == ("l", "o", "w", "e", "s", "t", "</w>")
    assert [s.pair for s in piece.steps] == [
        ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"),
    ]
    assert piece.tokens == ("low", "est</w>")
    assert list(piece.ids) == [t.id for t in model.encode("lowest")]


def test_gpt2_builds_tokenization_from_bytes_with_real_ranks(gpt2, tiktoken_gpt2):
    result = replay(gpt2, " tokenization")
    (piece,) = result.pieces
    assert piece.parts == tuple(bytes([b]) for b in b" tokenization")
    assert piece.tokens == (b" token", b"ization")
    assert result.ids == tiktoken_gpt2.encode_ordinary(" tokenization") == [11241, 1634]
    assert piece.steps[0].rank == 256 and piece.steps[0].pair == (b" ", b"t")  # GPT-2's first merge
    assert piece.steps[-1].rank == 11241  # the last join made the token whose id it is


@pytest.mark.parametrize("text", ["你好", "🙂 emoji", "Hello, world! 1234567", " SolidGoldMagikarp", "naïve café"])
def test_gpt2_replay_ids_equal_tiktoken(gpt2, tiktoken_gpt2, text):
    assert replay(gpt2, text).ids == tiktoken_gpt2.encode_ordinary(text)


def test_non_ascii_bytes_stay_bytes(gpt2):
    (piece,) = replay(gpt2, "你好").pieces
    assert len(piece.parts) == 6 and all(len(p) == 1 for p in piece.parts)
    assert b"".join(piece.tokens) == "你好".encode()


def test_an_unseen_character_is_named():
    model = bpe_model(train_bpe(corpus_from_counts(LOW_NEWEST), 10))
    with pytest.raises(ValueError, match=r"character 'z' \(U\+007A\) at position 3"):
        replay(model, "lowz")


def test_long_texts_replay_a_bounded_number_of_pieces(gpt2):
    result = replay(gpt2, "word" + " word" * 99, max_pieces=10)
    assert len(result.pieces) == 10 and result.total_pieces == 100


# --- only the first k merges ------------------------------------------------------------------


def prefix_cases():
    yield "low_newest-word", corpus_from_counts(LOW_NEWEST), "lowest newer widest low", 10
    yield "ten-sentence", corpus_from_text(TEN_SENTENCES, "sentence"), TEN_SENTENCES, 30
    english = sample_text("english")
    yield "english-byte", corpus_from_text(english, "byte"), english[:1500], 120
    yield "english-word", corpus_from_text(english, "word"), english[:1500], 120
    chinese = sample_text("chinese")
    yield "chinese-byte", corpus_from_text(chinese, "byte"), chinese[:400], 80


CASES = list(prefix_cases())


@pytest.mark.parametrize("name, corpus, text, merges", CASES, ids=[c[0] for c in CASES])
def test_prefix_counts_equal_the_truncated_encoder_at_every_k(name, corpus, text, merges):
    training = train_bpe(corpus, merges)
    counts = training_token_counts(training, text)
    assert len(counts) == len(training.merges) + 1
    for k in range(len(training.merges) + 1):
        assert counts[k] == len(model_with_first(training, k).encode(text)), k
    assert model_with_first(training, len(training.merges)).encode(text) == bpe_model(training).encode(text)


def test_ranks_that_go_down_count_by_their_running_maximum():
    ranks = {("a", "b"): 5, ("ab", "c"): 1}  # not learned merges: (ab, c) ranks before ab exists
    rule = lambda a, b: ranks.get((a, b))  # noqa: E731
    counts = counts_by_merges([(("a", "b", "c"), 2)], rule, 7)
    cut = lambda k: lambda a, b: r if (r := rule(a, b)) is not None and r < k else None  # noqa: E731
    assert counts == [2 * len(merge_traced(("a", "b", "c"), cut(k))[0]) for k in range(8)]
    assert counts == [6, 6, 6, 6, 6, 6, 2, 2]


def test_rank_rule_keeps_the_first_rank():
    assert pair_ranks([("a", "b"), ("c", "d"), ("a", "b")]) == {("a", "b"): 0, ("c", "d"): 1}


def test_k_out_of_range_is_refused():
    training = train_bpe(corpus_from_counts(LOW_NEWEST), 3)
    with pytest.raises(ValueError, match="between 0 and 3"):
        model_with_first(training, 4)


@given(st.text(alphabet="abc d", min_size=1, max_size=40), st.text(alphabet="abc d", max_size=30),
       st.integers(0, 12), st.sampled_from(["word", "sentence", "byte"]))
def test_any_text_counts_like_the_truncated_encoder(corpus_text, text, merges, level):
    if not corpus_text.split():
        return
    training = train_bpe(corpus_from_text(corpus_text, level), merges)
    try:
        counts = training_token_counts(training, text)
    except ValueError:  # a character the corpus never had (word and sentence levels)
        return
    for k in range(len(training.merges) + 1):
        assert counts[k] == len(model_with_first(training, k).encode(text))
