"""The four-way comparison table is read off trained tokenizers: each cell follows what the
tokenizer does, so changing the tokenizer (its level, its marker) changes the table."""

from __future__ import annotations

import math

import pytest

from tokenizer_core import corpus_from_text, train_bpe
from tokenizer_core.lessons.four_way import (
    EXAMPLES,
    UNSEEN,
    compare_row,
    cut,
    subword_marker,
    unseen_character,
    vocabulary,
)
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.models.unigram import UnigramModel
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.reference.sentencepiece_models import train_sentencepiece
from tokenizer_core.samples import sample_text

LESSON_VOCAB = ["[UNK]", "play", "##ing", "##ed", "un", "##believ", "##able"]
TEXT = "low lower lowest newer newest wider widest " * 20
WORDS = ("low", "newest")
PIECES = [("l", -2.0), ("o", -2.0), ("w", -2.0), ("e", -2.0), ("r", -2.5), ("s", -2.5),
          ("t", -2.5), ("n", -2.5), ("i", -3.0), ("d", -3.0), ("low", -1.5), ("est", -1.8)]


def unigram(level: str, marked: bool) -> UnigramModel:
    """The same pieces; at word level the word-initial ones carry ▁ (as training makes them)."""
    pieces = [(("\u2581" + p) if marked and p == "low" else p, lp) for p, lp in PIECES]
    pieces += [("\u2581", -1.0)] if marked else [(" ", -1.0)]
    return UnigramModel(pieces, level=level)


def test_lesson_wordpiece_vocab_cuts_unbelievable_and_reads_as_hash_marker():
    model = WordPieceTokenizer.from_vocab(LESSON_VOCAB)
    assert cut(model, "unbelievable").pieces == ("un", "##believ", "##able")
    assert subword_marker(vocabulary(model)) == ("##", 4)  # ##ing ##ed ##believ ##able
    assert unseen_character(model) == "becomes the unknown token [UNK]"


def test_bpe_marker_follows_the_level_it_was_trained_at():
    word = bpe_model(train_bpe(corpus_from_text(TEXT, "word"), 12))
    sentence = bpe_model(train_bpe(corpus_from_text(TEXT, "sentence"), 12))
    word_row = compare_row("bpe", word, ["lowest"], WORDS)
    sentence_row = compare_row("bpe", sentence, ["lowest"], WORDS)
    assert word_row.marker == "</w>" and sentence_row.marker == "none"
    # word level drops the space (words end in </w>); sentence level keeps it as a character
    assert not word_row.spaces.in_pieces and word_row.spaces.single_kept
    assert sentence_row.spaces.in_pieces
    assert word_row.unseen == sentence_row.unseen == "refused: encoding raises an error"
    assert word_row.criterion.startswith("merge the most frequent pair")


def test_flipping_unigram_from_word_to_sentence_level_flips_marker_and_spaces():
    marked = compare_row("u", unigram("word", True), ["lowest"], WORDS)
    plain = compare_row("u", unigram("sentence", False), ["lowest"], WORDS)
    assert marked.marker == "▁" and plain.marker == "none"
    assert marked.spaces.in_pieces  # ▁low
    assert marked.spaces.single_kept and not marked.spaces.layout_kept
    # at sentence level the space is an ordinary piece: even the leading and double ones survive
    assert plain.spaces.in_pieces and plain.spaces.layout_kept
    assert marked.unseen == "becomes the unknown token <unk>"


def test_marker_needs_a_share_of_the_pieces():
    pieces = [f"p{i}" for i in range(100)]
    assert subword_marker(pieces + ["##a"] * 4) == ("none", 0)
    assert subword_marker(pieces + ["##a"] * 6) == ("##", 6)
    assert subword_marker(pieces + ["a</w>"] * 7 + ["##a"] * 6) == ("</w>", 7)


@pytest.fixture(scope="module")
def sentencepiece():
    corpus = "\n".join(sample_text(n) for n in ("english", "chinese", "code", "emoji"))
    return {kind: train_sentencepiece(corpus, 1200, kind) for kind in ("unigram", "bpe")}


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_sentencepiece_row_shows_its_space_marker_and_exact_round_trip(sentencepiece, kind):
    model = sentencepiece[kind]
    row = compare_row(kind, model, [text for text, _ in EXAMPLES], ("the", "of"))
    assert row.marker == "▁" and row.marker_pieces > 0
    assert row.spaces.in_pieces and row.spaces.layout_kept
    assert row.unseen == f"falls back to its {len(UNSEEN.encode())} UTF-8 bytes"
    assert row.round_trips == row.examples == len(EXAMPLES)
    assert ("SentencePiece" in row.criterion) and (("frequent" in row.criterion) == (kind == "bpe"))
    # the library's own decode of its own pieces: what the table's "exact" rests on
    for text, _ in EXAMPLES:
        assert model.processor.decode(model.processor.encode(text)) == text


def test_a_refused_text_is_a_cut_with_the_error_not_an_exception():
    model = bpe_model(train_bpe(corpus_from_text(TEXT, "word"), 5))
    refused = cut(model, UNSEEN)
    assert refused.error and refused.decoded is None and not refused.round_trip


def test_unigram_unknown_keeps_the_round_trip_false():
    model = unigram("word", True)
    result = cut(model, "low" + UNSEEN)
    assert result.unknown == 1 and not result.round_trip
    assert math.isfinite(model.viterbi(model.sequence("low")).score)
