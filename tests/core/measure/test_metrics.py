"""Metrics with hand-checked values, and boundary disagreements between tokenizers."""

from __future__ import annotations

import math

import pytest

from tests.shared import tiktoken
from tokenizer_core import corpus_from_counts, train_bpe
from tokenizer_core.measure.boundaries import byte_spans, disagreements
from tokenizer_core.measure.metrics import (
    normalized_entropy,
    round_trip,
    text_stats,
    unk_rate,
    usage_entropy,
)
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.models.char_bpe import CharLevelBPE

from ..classroom import LOW_NEWEST


def test_text_stats_by_hand(gpt2):
    text = "the cat sat on the mat"  # 22 characters, 22 bytes, 6 words, 6 GPT-2 tokens
    stats = text_stats(text, gpt2.encode(text))
    assert (stats.tokens, stats.characters, stats.utf8_bytes, stats.words) == (6, 22, 22, 6)
    assert stats.chars_per_token == pytest.approx(22 / 6)
    assert stats.words_per_token == 1.0 and stats.tokens_per_word == 1.0
    assert stats.context_share(1024) == pytest.approx(6 / 1024)


def test_chinese_costs_more_bytes_than_characters(gpt2):
    text = "你好，世界🙂"  # 6 characters: 5 of 3 bytes and one emoji of 4 bytes
    stats = text_stats(text, gpt2.encode(text))
    assert (stats.characters, stats.utf8_bytes, stats.tokens) == (6, 19, 13)


def test_empty_text_has_no_ratios():
    stats = text_stats("", [])
    assert stats.tokens == 0 and stats.chars_per_token is None and stats.tokens_per_word is None
    with pytest.raises(ValueError, match="at least one token"):
        stats.context_share(0)


def test_round_trip_byte_level_exact(gpt2):
    text = "tabs\tand  spaces\n你好"
    assert round_trip(gpt2, text, gpt2.encode(text)).ok


def test_round_trip_word_level_names_what_is_lost():
    model = bpe_model(train_bpe(corpus_from_counts(LOW_NEWEST), 8))
    text = "lowest   newer\nlow"
    result = round_trip(model, text, model.encode(text))
    assert not result.ok and result.decoded == "lowest newer low"
    assert "whitespace layout" in result.lost


def test_round_trip_unknown_token_says_where():
    model = CharLevelBPE("word", [], ["</w>", "a", "b"], unk_token="<unk>")
    result = round_trip(model, "ab abc", model.encode("ab abc"))
    assert not result.ok and "character 5" in result.lost


def test_round_trip_says_when_decoding_itself_fails(gpt2):
    """An uploaded tokenizer.json decodes in a worker with a time limit: a failure is a row's
    note, not a crash of the page."""

    overran = "x.json took longer than 10 s to decode these ids"

    class Overran:
        def decode(self, ids):
            raise ValueError(overran)

    result = round_trip(Overran(), "hello", gpt2.encode("hello"))
    assert not result.ok and result.lost == f"decoding failed: {overran}"


def test_entropy_by_hand():
    assert usage_entropy([1, 1, 2, 2]) == pytest.approx(1.0)  # two tokens used evenly: 1 bit
    assert usage_entropy([7, 7, 7]) == 0.0
    assert usage_entropy([1, 2, 3, 4]) == pytest.approx(2.0)
    assert normalized_entropy([1, 2, 3, 4], 16) == pytest.approx(0.5)  # 2 bits of log2(16) = 4
    assert usage_entropy([]) == 0.0


def test_unk_rate_by_hand():
    model = CharLevelBPE("word", [], ["</w>", "a"], unk_token="<unk>")
    tokens = model.encode("a x")  # a, </w>, <unk>, </w>
    assert unk_rate(tokens, frozenset({model.id_of["<unk>"]})) == pytest.approx(1 / 4)


def test_byte_spans_inside_a_character(gpt2):
    text = "你好"
    assert byte_spans(text, gpt2.encode(text)) == [(0, 2), (2, 3), (3, 5), (5, 6)]


def test_disagreements_between_gpt2_and_cl100k():
    text = "  indentation\n    matters 12345"
    a = tiktoken("gpt2").encode(text)
    b = tiktoken("cl100k_base").encode(text)
    marked = disagreements(text, a, b)
    spans_a, spans_b = byte_spans(text, a), byte_spans(text, b)
    assert {spans_a[i] for i in marked} == set(spans_a) - set(spans_b)  # both tile the bytes
    assert marked  # GPT-2 groups digits in one run, cl100k in threes: they must disagree
    assert disagreements(text, a, a) == frozenset()


def test_word_level_and_byte_level_compare_on_one_scale(gpt2):
    model = bpe_model(train_bpe(corpus_from_counts(LOW_NEWEST), 8))
    text = "lowest newer"
    word_tokens = model.encode(text)
    assert byte_spans(text, word_tokens)[:2] == [(0, 3), (3, 6)]
    # GPT-2: 'low' 'est' ' newer'. Word level: 'low' 'est</w>' 'new' 'e' 'r' '</w>'.
    assert [t.piece for t in gpt2.encode(text)] == ["low", "est", " newer"]
    assert disagreements(text, word_tokens, gpt2.encode(text)) == {2, 3, 4}  # new, e, r
    # ' newer' runs from the end of 'est' (byte 6) to the end of the text: both are word-level
    # boundaries, but the word level cuts inside it (after the space, and in 'new e r'), so
    # GPT-2's side is marked too: each panel shows what the other cuts differently.
    assert disagreements(text, gpt2.encode(text), word_tokens) == {2}
    assert model.encode(text)[1].piece == "est</w>"


# --- per-word, coverage and vocabulary-use metrics (the Compression page) -----------------------

from tokenizer_core.measure.metrics import (
    char_coverage,
    is_space_separated,
    letter_words,
    renyi_efficiency,
    renyi_entropy,
    single_token_word_share,
    tokens_per_unseen_word,
    tokens_touching_words,
    vocab_used_share,
    word_cuts,
    word_set,
)
from tokenizer_core.tokens import Token


def test_letter_words_are_runs_of_letters_and_digits():
    words = letter_words("Hello, world! 3rd-place café")
    assert [(w.text, w.start, w.end) for w in words] == [
        ("Hello", 0, 5), ("world", 7, 12), ("3rd", 14, 17), ("place", 18, 23), ("café", 24, 28),
    ]


def test_space_separated_by_hand():
    assert is_space_separated("the cat sat")
    assert not is_space_separated("你好世界")
    assert is_space_separated("")  # nothing to say otherwise
    assert is_space_separated("我爱 Python programming")  # 2 Han of 19 letters: 11%
    assert not is_space_separated("我爱北京 ok")  # 4 Han of 6 letters: 67%
    assert not is_space_separated("こんにちは、せかい")  # kana


def test_tokens_touching_words_by_hand():
    text = "cat, dog"  # words cat (0-3) and dog (5-8)
    tokens = [Token(0, b"cat,", 0, 4), Token(1, b" d", 4, 6), Token(2, b"og", 6, 8)]
    assert tokens_touching_words(letter_words(text), tokens) == [1, 2]
    assert single_token_word_share(text, tokens) == 0.5


def test_a_zero_width_end_of_word_token_counts_for_its_word():
    # word level: "on" -> 'on', '</w>' (zero-width at the word's end); "x" -> 'x</w>'
    tokens = [Token(0, b"on", 0, 2), Token(1, b"", 2, 2, piece="</w>"), Token(2, b"x", 3, 4)]
    assert tokens_touching_words(letter_words("on x"), tokens) == [2, 1]


def test_a_token_across_two_words_touches_both():
    tokens = [Token(0, b"the cat ", 0, 8), Token(1, b"sat", 8, 11)]  # sentence-level BPE
    assert tokens_touching_words(letter_words("the cat sat"), tokens) == [1, 1, 1]


def test_tokens_per_unseen_word_by_hand(gpt2):
    text = "the cat sat on the mat"  # GPT-2: one token per word
    tokens = gpt2.encode(text)
    assert single_token_word_share(text, tokens) == 1.0
    assert tokens_per_unseen_word(text, tokens, {"the", "cat"}) == (1.0, 3)  # sat, on, mat
    assert tokens_per_unseen_word(text, tokens, word_set(text)) == (None, 0)
    split = [Token(0, b"un", 0, 2), Token(1, b"seen", 2, 6), Token(2, b" cat", 6, 10)]
    cuts = word_cuts("unseen cat", split)
    assert cuts.words == ("unseen", "cat") and cuts.tokens == (2, 1)
    assert cuts.unseen({"cat"}) == (2.0, 1) and cuts.single_token_share == 0.5


def test_no_words_no_share():
    assert single_token_word_share("... !!!", [Token(0, b"... !!!", 0, 7)]) is None


def test_word_set_keeps_case():
    assert word_set("The cat, the CAT.") == frozenset({"The", "cat", "the", "CAT"})


def test_char_coverage_by_hand():
    model = CharLevelBPE("word", [], ["</w>", "a"], unk_token="<unk>")
    tokens = model.encode("a x")  # a, </w>, <unk> (covers x), </w>
    assert char_coverage("a x", tokens) == pytest.approx(2 / 3)
    assert char_coverage("", []) == 1.0


def test_vocab_used_share_by_hand():
    assert vocab_used_share([1, 1, 2], 4) == 0.5
    with pytest.raises(ValueError, match="at least one token"):
        vocab_used_share([], 0)


def test_renyi_by_hand():
    assert renyi_entropy([1, 2, 3, 4]) == pytest.approx(2.0)  # uniform: log2(4) for every alpha
    # p = (2/3, 1/3), alpha 2: -log2(4/9 + 1/9) = log2(9/5)
    assert renyi_entropy([1, 1, 2], alpha=2) == pytest.approx(math.log2(9 / 5))
    assert renyi_efficiency([1, 1, 2], 4, alpha=2) == pytest.approx(math.log2(9 / 5) / 2)
    assert renyi_efficiency([1, 2, 3, 4], 16) == pytest.approx(0.5)
    assert renyi_entropy([]) == 0.0 and renyi_efficiency([5], 1) == 0.0
    with pytest.raises(ValueError, match="usage_entropy"):
        renyi_entropy([1, 2], alpha=1)


@pytest.mark.parametrize(("text", "words"), [
    ("The cat sat on the mat.", 6),
    ("Hello, world! — ok", 3),  # a lone dash is not a word
    ("我爱你", 3),  # each Chinese character is a word
    ("Hello 世界!", 3),
    ("カタカナとひらがな", 9),
    ("", 0),
    ("สวัสดีครับ friend", None),  # Thai: no spaces and no one-character rule, no count
])
def test_words_are_counted_per_script(text, words):
    """Issue 23, item 11: Chinese is not "3 words" because it has no spaces."""
    from tokenizer_core.measure.metrics import count_words

    assert count_words(text).words == words
