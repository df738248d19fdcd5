"""Encoding and decoding at the word and sentence levels, and with learned byte-level merges."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.models.char_bpe import CharLevelBPE
from tokenizer_core.models.merge import _merge_long, _merge_short, merge_traced
from tokenizer_core.trainers.textbook import merge_pair

from ..classroom import LESSON_MERGES, LOW_NEWEST, TEN_SENTENCES

LESSON_ALPHABET = corpus_from_counts({**LOW_NEWEST, "tax": 1}).alphabet


def lesson_model(**kwargs) -> CharLevelBPE:
    return CharLevelBPE("word", LESSON_MERGES, LESSON_ALPHABET, **kwargs)


@pytest.mark.parametrize(
    "word, pieces",
    [
        ("lowest", ["low", "est</w>"]),
        ("newer", ["new", "e", "r", "</w>"]),
        ("tax", ["t", "a", "x", "</w>"]),
    ],
)
def test_lesson_words_encode_exactly(word, pieces):
    assert [t.piece for t in lesson_model().encode(word)] == pieces


def test_end_of_word_covers_no_character():
    tokens = lesson_model().encode("newer lowest")
    assert [(t.piece, t.start, t.end) for t in tokens] == [
        ("new", 0, 3), ("e", 3, 4), ("r", 4, 5), ("</w>", 5, 5), ("low", 6, 9), ("est</w>", 9, 12),
    ]
    assert [t.bytes for t in tokens][-1] == b"est"


def test_encode_trace_names_each_rule_and_the_parts_after():
    steps = lesson_model().trace("lowest")
    assert [(s.rank, s.pair) for s in steps] == [
        (0, ("e", "s")), (1, ("es", "t")), (2, ("est", "</w>")), (3, ("l", "o")), (4, ("lo", "w")),
    ]
    assert steps[-1].parts == ("low", "est</w>")


@pytest.mark.parametrize(
    "merges, expected",
    [
        (5, 13),
        (15, ["the cat ", "sat o", "n", " the ", "m", "at"]),
        (30, 4),
    ],
)
def test_ten_sentences_vocab_size_effect(merges, expected):
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    model = bpe_model(train_bpe(corpus, merges))
    pieces = [t.piece for t in model.encode("the cat sat on the mat")]
    assert (len(pieces) if isinstance(expected, int) else pieces) == expected


def test_unknown_character_names_the_character_and_where():
    with pytest.raises(ValueError, match=r"'q' \(U\+0071\) at position 4 .*byte level"):
        lesson_model().encode("low quiet")


def test_unknown_character_maps_to_unk_when_the_model_has_one():
    model = lesson_model(unk_token="<unk>")
    tokens = model.encode("lowq")
    assert [t.piece for t in tokens] == ["low", "<unk>", "</w>"]
    assert tokens[1].bytes == b"q" and model.vocab[tokens[1].id] == "<unk>"
    assert [t.unknown for t in tokens] == [False, True, False]
    assert model.special_tokens == {"<unk>": 0}


def test_special_tokens_refused_unless_allowed_or_read_as_text():
    corpus = corpus_from_text("a<b>c a", "word")
    model = bpe_model(train_bpe(corpus, 3, special_tokens=("<b>",)))
    with pytest.raises(ValueError, match="disallowed special token '<b>'.*allowed_special"):
        model.encode("a<b>c")
    allowed = model.encode("a<b>c", allowed_special="all")
    assert [t.special for t in allowed] == [False, False, True, False, False]
    assert allowed[2].id == 0 and (allowed[2].start, allowed[2].end) == (1, 4)
    plain = model.encode("a<b>c", disallowed_special=())
    assert not any(t.special for t in plain)
    assert "".join(t.bytes.decode() for t in plain) == "a<b>c"


def test_word_level_round_trip_keeps_words_not_layout():
    model = lesson_model()
    text = "  lowest\tnewer \n\n tax "
    assert model.decode([t.id for t in model.encode(text)]) == "lowest newer tax"
    assert model.normal_form(text) == "lowest newer tax"


def test_sentence_level_round_trip_keeps_lines_not_line_breaks():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    model = bpe_model(train_bpe(corpus, 20))
    text = "the cat sat\n\nthe dog sat "
    assert model.decode([t.id for t in model.encode(text)]) == "the cat satthe dog sat "
    assert model.normal_form(text) == "the cat satthe dog sat "


def test_decode_refuses_ids_outside_the_vocab():
    with pytest.raises(ValueError, match="id -1 is not in this model"):
        lesson_model().decode([-1])


def test_merges_out_of_training_order_are_refused():
    with pytest.raises(ValueError, match="not in training order"):
        CharLevelBPE("word", [("es", "t"), ("e", "s")], LESSON_ALPHABET)


def test_model_vocab_is_derived_exactly_as_training_built_it():
    training = train_bpe(corpus_from_text(TEN_SENTENCES, "word"), 40, special_tokens=("<s>",))
    assert bpe_model(training).vocab == training.vocab


# Encoding the training corpus with the learned merges gives back training's own segmentation,
# at every level and after every number of merges.
_texts = st.lists(st.text(alphabet="ab c\né", max_size=20), max_size=10).map("\n".join)


@given(_texts, st.sampled_from(["word", "sentence", "byte"]), st.integers(0, 30))
def test_encoding_training_text_reproduces_training_segmentation(text, level, k):
    corpus = corpus_from_text(text, level)
    training = train_bpe(corpus, k, record_history=True)
    model = bpe_model(training)
    segmentation = training.segmentation_at(len(training.steps))
    for label, expected in zip(corpus.labels, segmentation):
        tokens = model.encode(label)
        if level == "byte":
            assert tuple(t.bytes for t in tokens) == expected
        else:
            assert tuple(t.piece for t in tokens) == expected


@given(_texts, st.sampled_from(["word", "sentence"]), st.integers(0, 30))
def test_token_offsets_cover_the_text_they_came_from(text, level, k):
    model = bpe_model(train_bpe(corpus_from_text(text, level), k))
    for token in model.encode(text):
        assert text[token.start : token.end].encode() == token.bytes
        assert token.piece.startswith(token.bytes.decode())


@given(st.text(max_size=40), st.integers(0, 40))
def test_byte_level_never_fails_and_round_trips_exactly(text, k):
    model = bpe_model(train_bpe(corpus_from_text("aaab ab abc 你好 你 🙂🙂", "byte"), k))
    assert isinstance(model, ByteLevelBPE)
    tokens = model.encode(text, disallowed_special=())
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert model.decode([t.id for t in tokens]) == text


# The three versions of the join rule agree (the traced loop is the oracle).
@given(
    st.lists(st.text(alphabet="ab c", min_size=2, max_size=4), max_size=25, unique=True),
    st.text(alphabet="ab c", max_size=150),
)
def test_fast_join_rule_equals_the_traced_loop(tokens, text):
    ranks = {tok: i for i, tok in enumerate(tokens)}

    def rank_of(a: str, b: str) -> int | None:
        return ranks.get(a + b)

    parts = list(text)
    final, _ = merge_traced(parts, rank_of)
    for version in (_merge_short, _merge_long):
        assert ["".join(parts[a:b]) for a, b in version(parts, rank_of)] == final


def test_traced_rank_order_equals_applying_merges_one_by_one():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    training = train_bpe(corpus, 30)
    rank = {pair: r for r, pair in enumerate(training.merges)}
    parts = list("the cat sat on the mat")
    final, _ = merge_traced(parts, lambda a, b: rank.get((a, b)))
    by_hand = parts
    for pair in training.merges:
        by_hand = merge_pair(by_hand, pair)
    assert final == by_hand
