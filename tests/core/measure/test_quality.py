"""The quality record of one tokenizer on held-out text, and HF lines on the same split."""

from __future__ import annotations

import math

import pytest

import tokenizer_core.measure.quality as quality
from tests.shared import tiktoken
from tokenizer_core.bounds import MAX_HF_WORD_BYTES
from tokenizer_core.measure.compression import split_held_out
from tokenizer_core.measure.metrics import word_set
from tokenizer_core.measure.quality import (
    hf_lines,
    hf_refusal,
    longest_word_bytes,
    measure,
    train_family,
)
from tokenizer_core.samples import sample_text


def test_measure_gpt2_by_hand():
    text = "the cat sat on the mat"  # 6 GPT-2 tokens, all different ('the' and ' the')
    q = measure(tiktoken("gpt2"), text, {"the", "cat"})
    assert (q.stats.tokens, q.stats.characters, q.vocab_size) == (6, 22, 50_257)
    assert q.round_trip_ok and q.round_trip_lost == ""
    assert q.single_token_words == 1.0
    assert (q.tokens_per_unseen_word, q.unseen_words) == (1.0, 3)
    assert q.usage_entropy == pytest.approx(math.log2(6))
    assert q.normalized_entropy == pytest.approx(math.log2(6) / math.log2(50_257))
    assert q.renyi_efficiency == pytest.approx(math.log2(6) / math.log2(50_257))  # uniform
    assert q.vocab_used == pytest.approx(6 / 50_257)
    assert q.unk_rate == 0.0 and q.char_coverage == 1.0


def test_measure_reads_special_token_strings_as_text():
    q = measure(tiktoken("gpt2"), "a <|endoftext|> b", set())
    assert q.round_trip_ok and q.stats.tokens > 3


def test_per_word_numbers_do_not_apply_to_chinese():
    text = "今天天气很好，我们去公园散步吧。"
    q = measure(tiktoken("cl100k_base"), text, set())
    assert q.single_token_words is None and q.tokens_per_unseen_word is None
    assert q.unseen_words == 0 and q.stats.tokens > 0


@pytest.fixture(scope="module")
def english():
    return split_held_out(sample_text("english"), 0.25)


def test_hf_lines_count_what_the_model_encodes(english):
    points = hf_lines("bpe_bytes", english.train, english.held_out, (300, 400))
    assert [p.requested for p in points] == [300, 400]
    for point in points:
        model = point.tokenizer()
        assert model.vocab_size == point.vocab_size <= point.requested
        assert point.held_out.tokens == len(model.encode(english.held_out, disallowed_special=()))
        assert point.hidden_in_unk == 0.0  # byte level never hides text
    assert points[1].held_out.tokens < points[0].held_out.tokens


def test_wordpiece_hides_unseen_chinese_in_unk(english):
    points = hf_lines("wordpiece", english.train, sample_text("chinese")[:300], (400,))
    assert points[0].hidden_in_unk > 0.5  # whole Chinese clauses become [UNK]
    q = measure(points[0].tokenizer(), sample_text("chinese")[:300], word_set(english.train))
    assert q.unk_rate > 0 and q.char_coverage == pytest.approx(1 - points[0].hidden_in_unk)


def test_progress_is_reported_per_model(english):
    seen: list[tuple[int, int]] = []
    hf_lines("unigram", english.train, english.held_out, (300, 400),
             progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (1, 2), (2, 2)]


def test_unigram_trained_on_lines_knows_the_line_break(english):
    model = train_family("unigram", english.train, 400)
    tokens = model.encode(english.held_out, disallowed_special=())
    unknown = {english.held_out[t.start : t.end] for t in tokens if t.unknown}
    assert unknown == set(english.held_out) - set(english.train) == {"?", "B", "D"}
    assert "\n" not in unknown  # the training lines keep their line breaks


# HF's trainers slow down faster than linearly on a long word (issue 9, 6c): a text whose longest
# stretch without a space passes MAX_HF_WORD_BYTES is refused, saying so, and nothing is trained.


def test_the_longest_stretch_without_a_space_is_counted_in_bytes_across_lines():
    assert longest_word_bytes("ab cd\nabcdé\n\n  x") == 6  # "abcdé": é is two bytes
    assert longest_word_bytes("") == 0


def test_a_word_longer_than_the_bound_is_refused_before_any_hf_training(monkeypatch):
    trained = []
    monkeypatch.setattr(quality, "train_family", lambda *args: trained.append(args))
    chinese = "中" * (MAX_HF_WORD_BYTES // 3 + 1)  # 3 bytes a character: one byte over
    text = "a short line\n" + chinese + "\nanother line"
    assert longest_word_bytes(text) == 3 * (MAX_HF_WORD_BYTES // 3 + 1) > MAX_HF_WORD_BYTES
    with pytest.raises(ValueError, match=f"longest stretch without a space is "
                                         f"{3 * (MAX_HF_WORD_BYTES // 3 + 1):,} bytes"):
        hf_lines("bpe_bytes", text, "held out", (500,))
    assert trained == []


def test_a_word_at_the_bound_is_trained():
    word = "ab" * (MAX_HF_WORD_BYTES // 2)
    assert hf_refusal(f"{word} {word[::-1]}\nmore words here") is None


# --- SentencePiece lines beside HF's (issue 10) -------------------------------------------------


@pytest.mark.parametrize("family", ["sp_unigram", "sp_bpe"])
def test_sentencepiece_lines_are_the_librarys_own_models_one_run_per_size(family):
    """Each point is the real library trained once at that size with the lesson's parameters;
    its held-out count is the library's own, and the kept model encodes as the library does."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    from tokenizer_core.measure.quality import hf_lines
    from tokenizer_core.samples import corpus_text

    # Chinese needs a bigger vocabulary: its ~1,800 characters are all required pieces
    for text, sizes in ((sample_text("english"), (600, 900)), (corpus_text("chinese"), (2_000, 3_000))):
        parts = split_held_out(text, 0.2)
        points = hf_lines(family, parts.train, parts.held_out, sizes)
        assert [p.requested for p in points] == list(sizes)
        for point in points:
            proto = point.tokenizer().model_proto
            own = spm.SentencePieceProcessor(model_proto=proto)
            assert point.vocab_size == own.get_piece_size() <= point.requested
            assert point.held_out.tokens == len(own.encode(parts.held_out))
            spec = model_pb2.ModelProto.FromString(proto).trainer_spec
            assert model_pb2.TrainerSpec.ModelType.Name(spec.model_type).lower() == family[3:]
            assert spec.character_coverage == pytest.approx(0.9995)
        assert points[1].held_out.tokens < points[0].held_out.tokens  # a bigger vocab compresses


def test_a_long_stretch_without_spaces_refuses_hf_but_not_sentencepiece():
    """HF's trainers slow down on a long word (hf_refusal); SentencePiece (C++) is not slowed."""
    from tokenizer_core.measure.quality import hf_lines, hf_refusal
    from tokenizer_core.samples import corpus_text

    paragraph = next(line for line in corpus_text("chinese").splitlines() if len(line) > 60)
    long_line = paragraph * (MAX_HF_WORD_BYTES // len(paragraph.encode()) + 1)  # one stretch
    parts = split_held_out(long_line + "\n" + corpus_text("chinese"), 0.2)
    assert hf_refusal(parts.train) is not None
    with pytest.raises(ValueError, match="not trained on this text"):
        hf_lines("unigram", parts.train, parts.held_out, (600,))
    assert len(hf_lines("sp_unigram", parts.train, parts.held_out, (3_000,))) == 1


@pytest.mark.parametrize("text", ["ab c\nc ba\n", "no spaces\n你好世界\n", None])
def test_hf_unigram_refuses_exactly_below_its_alphabet(text):
    """Issue 23, item 11: the size the Compression page says HF Unigram needs is HF's own: the
    real trainer refuses one piece fewer and trains at that size (None: the Chinese corpus's
    training part, where 500 and 1,000 are refused)."""
    from tokenizer_core.measure.quality import unigram_alphabet
    from tokenizer_core.samples import corpus_text

    if text is None:
        text = split_held_out(corpus_text("chinese"), 0.2).train
    needed = unigram_alphabet(text)
    with pytest.raises(ValueError, match="not large enough to contain all chars"):
        train_family("unigram", text, needed - 1)
    assert train_family("unigram", text, needed).vocab_size >= needed
    if len(text) > 1_000:
        assert needed > 1_000
