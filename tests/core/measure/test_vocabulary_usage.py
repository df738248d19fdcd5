"""Glitch candidates and growth by rank, checked against tiktoken's own encoding and GPT-2's merge
file (vocab.bpe, whose line order is the merge order)."""

from __future__ import annotations

from collections import Counter

from tests.shared import tiktoken_encoding
from tokenizer_core.measure.vocabulary import Vocabulary, vocabulary
from tokenizer_core.measure.vocabulary_usage import rank_bands, token_counts, unused_tokens
from tokenizer_core.reference.rankfiles import GPT2_VOCAB_BPE, gpt2_token_bytes, read_packaged
from tokenizer_core.registry import load_tokenizer
from tokenizer_core.samples import sample_text


def test_counts_are_tiktokens_and_unused_is_every_other_ordinary_id():
    text = sample_text("english") + "<|endoftext|>"  # read as plain text, not the special token
    encoding, gpt2 = tiktoken_encoding("gpt2"), load_tokenizer("gpt2")
    ids = encoding.encode_ordinary(text)
    assert token_counts(gpt2, text) == Counter(ids)
    unused = unused_tokens(vocabulary(gpt2), token_counts(gpt2, text))
    assert {r.id for r in unused} == set(range(encoding.n_vocab - 1)) - set(ids)  # 50256: special
    lengths = [r.n_bytes for r in unused]
    assert lengths == sorted(lengths, reverse=True)


def test_solidgoldmagikarp_is_a_glitch_candidate():
    """The best-known glitch token: one GPT-2 token that ordinary English never produces."""
    encoding, gpt2 = tiktoken_encoding("gpt2"), load_tokenizer("gpt2")
    [magikarp] = encoding.encode_ordinary(" SolidGoldMagikarp")
    counts = token_counts(gpt2, sample_text("english") + sample_text("code"))
    assert magikarp in {r.id for r in unused_tokens(vocabulary(gpt2), counts)}


def test_gpt2_bands_are_the_first_and_last_lines_of_vocab_bpe():
    lines = read_packaged(GPT2_VOCAB_BPE, "test").decode("utf-8").splitlines()[1:]
    made = [gpt2_token_bytes(a) + gpt2_token_bytes(b) for a, b in (line.split() for line in lines)]
    first, last = rank_bands(vocabulary(load_tokenizer("gpt2")), 1000)
    assert [r.bytes for r in first.examples] == made[: len(first.examples)]
    assert (first.first, first.last, last.first, last.last) == (0, 999, 49_000, 49_999)
    assert [r.bytes for r in last.examples] == made[-1000:][: len(last.examples)]
    assert first.mean_bytes < last.mean_bytes  # late merges make longer tokens
    assert sum(first.scripts.values()) == sum(last.scripts.values()) == 1000


def test_no_bands_without_merge_ranks():
    """The 256 bytes and the special token have no merge rank: nothing to band."""
    gpt2 = vocabulary(load_tokenizer("gpt2"))
    unranked = Vocabulary("bytes", "byte-level BPE", gpt2.size,
                          tuple(r for r in gpt2.rows if r.rank is None))
    assert len(unranked.rows) == 257
    assert rank_bands(unranked) is None


def test_sentencepiece_vocabulary_is_the_librarys_pieces():
    """Mistral 7B's SentencePiece model read piece by piece, checked against the library."""
    model = load_tokenizer("mistral-7b")
    p = model.processor
    vocab = vocabulary(model)
    assert vocab.size == len(vocab.rows) == p.get_piece_size() == 32_000
    assert [r.id for r in vocab.rows if r.special] == [0, 1, 2]  # <unk> <s> </s>
    row = vocab.row(p.piece_to_id("<0xE4>"))
    assert row.bytes == b"\xe4" and row.script == "partial bytes"
    the = vocab.row(p.piece_to_id("▁the"))
    assert the.text == "▁the" and the.start == "▁" and the.script == "Latin"
    counts = token_counts(model, "the cat 你好")
    assert sum(counts.values()) == len(p.encode("the cat 你好"))
