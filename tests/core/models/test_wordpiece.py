"""WordPiece encoding: classroom vocabulary, offsets, special tokens, the model file, and parity
with HF `tokenizers` given the same vocabulary (encoding, not training: HF's WordPieceTrainer
trains BPE)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers

from tokenizer_core import corpus_from_counts
from tokenizer_core.interface import Tokenizer
from tokenizer_core.modelfile import train_wordpiece_json
from tokenizer_core.models.wordpiece import (
    DEFAULT_SPECIAL_TOKENS,
    WordPieceTokenizer,
    bert_pieces,
    is_bert_punctuation,
    is_bert_whitespace,
    wordpiece_from_json,
)
from tokenizer_core.trainers.wordpiece import (
    bert_word_counts,
    train_wordpiece,
    wordpiece_corpus,
)

from ..classroom import HUG_PUG, LOW_NEWEST

# --- encoding ------------------------------------------------------------------------------------

CLASSROOM_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##believ", "##able",
                   "##ably", "believ", "able", "a", "##b", ",", "!"]


@pytest.fixture
def classroom() -> WordPieceTokenizer:
    return WordPieceTokenizer.from_vocab(CLASSROOM_VOCAB)


def test_unbelievable_is_un_believ_able(classroom):
    tokens = classroom.encode("unbelievable")
    assert [t.piece for t in tokens] == ["un", "##believ", "##able"]
    assert [t.id for t in tokens] == [5, 6, 7]
    assert [t.bytes for t in tokens] == [b"un", b"believ", b"able"]  # ## covers `able`
    assert [(t.start, t.end) for t in tokens] == [(0, 2), (2, 8), (8, 12)]
    assert classroom.tokenize_word("unbelievably") == ["un", "##believ", "##ably"]


def test_a_word_with_an_unknown_character_is_one_unk(classroom):
    tokens = classroom.encode("unbelievablé ab")
    assert [t.piece for t in tokens] == ["[UNK]", "a", "##b"]
    assert tokens[0].bytes == "unbelievablé".encode()
    assert (tokens[0].start, tokens[0].end) == (0, 12)
    assert tokens[0].id == classroom.unk_id == 1


def test_longest_match_first_is_greedy_not_optimal():
    model = WordPieceTokenizer.from_vocab(["[UNK]", "ab", "a", "##bc", "##c"])
    assert model.tokenize_word("abc") == ["ab", "##c"]  # greedy takes `ab`; `a ##bc` is never tried
    assert model.tokenize_word("abcc") == ["ab", "##c", "##c"]


def test_long_words_become_unk():
    model = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"], max_input_chars_per_word=3)
    assert [t.piece for t in model.encode("aaa aaaa")] == ["a", "##a", "##a", "[UNK]"]
    default = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"])  # 100 characters
    assert default.tokenize_word("a" * 100) == ["a"] + ["##a"] * 99
    assert default.tokenize_word("a" * 101) == ["[UNK]"]


def test_pretokenizer_isolates_punctuation_and_splits_rust_whitespace():
    assert [(p.text, p.start, p.end) for p in bert_pieces("Hi, you!! ok")] == [
        ("Hi", 0, 2), (",", 2, 3), ("you", 4, 7), ("!", 7, 8), ("!", 8, 9), ("ok", 10, 12)]
    assert [p.text for p in bert_pieces("a\u3000b\u00a0c\u2028d\x85e")] == list("abcde")
    assert [p.text for p in bert_pieces("a\x1cb")] == ["a\x1cb"]  # str.isspace says yes, Rust no
    assert "\x1c".isspace() and not is_bert_whitespace("\x1c")
    assert is_bert_punctuation("$") and is_bert_punctuation("、") and not is_bert_punctuation("a")
    assert not is_bert_punctuation("\u2e45")  # P* in today's Unicode, but not in HF's tables


def test_special_tokens_follow_the_interface_rule(classroom):
    with pytest.raises(ValueError, match="disallowed special token"):
        classroom.encode("[CLS] unbelievable")
    tokens = classroom.encode("[CLS]unbelievable[SEP]", allowed_special="all")
    assert [t.piece for t in tokens] == ["[CLS]", "un", "##believ", "##able", "[SEP]"]
    assert tokens[0].special and not tokens[1].special
    assert [(t.start, t.end) for t in tokens] == [(0, 5), (5, 7), (7, 13), (13, 17), (17, 22)]
    plain = classroom.encode("[CLS]", disallowed_special=())
    assert [t.piece for t in plain] == ["[UNK]", "[UNK]", "[UNK]"]  # `[`, `CLS`, `]`
    assert classroom.special_tokens == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}


def test_decode_glues_continuations_and_says_what_it_loses(classroom):
    ids = [t.id for t in classroom.encode("unbelievable,  unbelievably!")]
    assert classroom.decode(ids) == "unbelievable , unbelievably !"  # spacing is lost
    unk = [t.id for t in classroom.encode("xyz ab")]
    assert classroom.decode(unk) == "[UNK] ab"  # what [UNK] stood for is lost
    assert classroom.decode([6, 5]) == "##believ un"  # a leading ## piece keeps its prefix
    with pytest.raises(ValueError, match="not in this vocabulary"):
        classroom.decode([5, 99])


def test_is_a_tokenizer(classroom):
    assert isinstance(classroom, Tokenizer)
    assert classroom.vocab_size == len(CLASSROOM_VOCAB)
    assert classroom.encode("") == [] and classroom.encode(" \t\n") == []


def test_lone_surrogates_are_refused(classroom):
    with pytest.raises(ValueError, match="lone surrogate"):
        classroom.encode("ab\ud800")


# --- the model file ----------------------------------------------------------------------------


def test_model_file_round_trip_and_command_line_entry_points():
    data = train_wordpiece_json(corpus_from_counts(LOW_NEWEST), 6, "first", "likelihood")
    assert data["algorithm"] == "wordpiece" and data["level"] == "word"
    assert data["score"] == "likelihood" and len(data["merges"]) == len(data["scores"]) == 6
    assert data["vocab_size"] == len(data["vocab"])
    assert data["vocab"][:5] == list(DEFAULT_SPECIAL_TOKENS)
    training = train_wordpiece(wordpiece_corpus(LOW_NEWEST), 6, "likelihood")
    assert data["merges"] == [list(m) for m in training.merges]
    assert data["counts"] == training.counts
    model = wordpiece_from_json(json.loads(json.dumps(data)))
    assert model.to_dict() == data
    assert [t.piece for t in model.encode("lowest")] == model.tokenize_word("lowest")


def test_a_vocabulary_written_by_hand_loads():
    model = WordPieceTokenizer.from_dict({"algorithm": "wordpiece", "vocab": CLASSROOM_VOCAB})
    assert model.tokenize_word("unbelievable") == ["un", "##believ", "##able"]
    assert model.to_dict()["score"] is None and model.to_dict()["merges"] == []


GOOD = {"algorithm": "wordpiece", "level": "word", "merges": [["a", "##b"]], "counts": [3],
        "scores": [0.5], "vocab_size": 4, "vocab": ["[UNK]", "a", "##b", "ab"],
        "special_tokens": ["[UNK]"], "unk_token": "[UNK]", "max_input_chars_per_word": 100,
        "score": "ratio"}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"algorithm": "bpe"}, "expected 'wordpiece'"),
        ({"level": "byte"}, "level should be 'word'"),
        ({"vocab": "abc"}, "'vocab' should be a list of strings"),
        ({"vocab": [], "vocab_size": 0}, "empty"),
        ({"vocab": ["[UNK]", "a", "a", "##b", "ab"], "vocab_size": 5}, "twice"),
        ({"vocab": ["[UNK]", "", "##b", "ab"]}, "non-empty"),
        ({"vocab_size": 9}, "vocab_size 9"),
        ({"unk_token": "<unk>"}, "'<unk>' is not in the vocabulary"),
        ({"unk_token": 3}, "unk_token should be a string"),
        ({"special_tokens": ["[CLS]"]}, "special token '\\[CLS\\]'"),
        ({"max_input_chars_per_word": 0}, "max_input_chars_per_word"),
        ({"max_input_chars_per_word": "100"}, "max_input_chars_per_word"),
        ({"merges": [["a"]]}, "merge 0 should be a pair"),
        ({"merges": [["a", "b"]]}, "'##' piece"),
        ({"merges": [["a", "##c"]]}, "'##c' is not in the vocabulary"),
        ({"counts": []}, "go together"),
        ({"counts": [0]}, "counts"),
        ({"scores": ["x"]}, "scores"),
        ({"score": "frequency"}, "score should be"),
        ({"score": None}, "needs its score"),
        ({"unk": "[UNK]"}, "unknown key"),
    ],
)
def test_malformed_model_files_are_refused_clearly(change, message):
    assert WordPieceTokenizer.from_dict(GOOD).tokenize_word("ab") == ["ab"]
    with pytest.raises(ValueError, match=message):
        WordPieceTokenizer.from_dict({**GOOD, **change})


@pytest.mark.parametrize("data", [[], "x", None, {"vocab": ["[UNK]"]}])
def test_not_a_model_file_at_all(data):
    with pytest.raises(ValueError):
        wordpiece_from_json(data)


def test_training_without_unk_cannot_make_an_encoder():
    training = train_wordpiece(wordpiece_corpus(HUG_PUG), 2, special_tokens=("<pad>",))
    with pytest.raises(ValueError, match="special_tokens"):
        WordPieceTokenizer.from_training(training)


# --- parity with HF `tokenizers` (encoding, given the same vocabulary) ----------------------------


def hf_wordpiece(model: WordPieceTokenizer) -> HFTokenizer:
    hf = HFTokenizer(models.WordPiece(
        model.get_vocab(), unk_token=model.unk_token,
        max_input_chars_per_word=model.max_input_chars_per_word,
    ))
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return hf


def assert_same_as_hf(model: WordPieceTokenizer, text: str) -> None:
    ours = model.encode(text, disallowed_special=())
    theirs = hf_wordpiece(model).encode(text)
    assert [t.id for t in ours] == theirs.ids
    assert [(t.start, t.end) for t in ours] == theirs.offsets
    assert [t.piece for t in ours] == theirs.tokens
    assert [t.bytes for t in ours] == [text[a:b].encode() for a, b in theirs.offsets]


def test_pretokenizer_matches_hf_on_every_code_point():
    hf = pre_tokenizers.BertPreTokenizer()
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for i in range(0, len(points), 50_000):
        text = "".join("a" + chr(c) for c in points[i : i + 50_000]) + "a"
        ours = [(p.text, (p.start, p.end)) for p in bert_pieces(text)]
        assert ours == hf.pre_tokenize_str(text), f"code points from U+{points[i]:04X}"


_SMALL = "ab#é你🙂,.!"
_WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u3000\u180e\u200b"
_OTHER = "\u2e45\u166d\U000111c9\u00ad\u0301\U0001f1fa\U0001f1f8\u4e00-_"


@st.composite
def vocabularies(draw):
    """Some single characters (as starts and as `##` continuations) and longer entries."""
    singles = draw(st.lists(st.sampled_from([*_SMALL, *("##" + c for c in _SMALL)]), max_size=18))
    entries = draw(st.lists(st.text(alphabet=_SMALL, min_size=2, max_size=4), max_size=20))
    prefixed = draw(st.lists(st.booleans(), min_size=len(entries), max_size=len(entries)))
    vocab = ["[UNK]", *singles, *(("##" + e) if p else e for e, p in zip(entries, prefixed))]
    max_chars = draw(st.sampled_from([1, 2, 3, 5, 8, 100]))
    return WordPieceTokenizer.from_vocab(
        list(dict.fromkeys(vocab)), max_input_chars_per_word=max_chars
    )


_small = st.sampled_from(_SMALL)
_texts = st.text(
    alphabet=st.one_of(  # mostly the vocabulary's own characters, so that words do match
        _small, _small, _small, st.sampled_from(_WHITESPACE), st.sampled_from(_OTHER),
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=40,
) | st.text(alphabet=_SMALL + " \t", max_size=30)


@given(vocabularies(), _texts)
def test_encoding_matches_hf_on_random_vocabularies(model, text):
    assert_same_as_hf(model, text)


@given(st.text(alphabet="ab é,\n你", max_size=60), _texts)
def test_encoding_matches_hf_with_a_trained_vocabulary(training_text, text):
    table = bert_word_counts(training_text + " a b é , 你")
    training = train_wordpiece(wordpiece_corpus(table), 15)
    model = WordPieceTokenizer.from_training(training)
    assert_same_as_hf(model, text)
    assert_same_as_hf(model, training_text)


@given(vocabularies(), st.lists(st.integers(0, 24), max_size=12))
def test_decode_matches_hf_wordpiece_decoder_without_cleanup(model, ids):
    ids = [i % model.vocab_size for i in ids]
    pieces = [model.vocab[i] for i in ids]
    assert model.decode(ids) == decoders.WordPiece(prefix="##", cleanup=False).decode(pieces)


_SPECIAL_TEXT_PARTS = [*"ab ,", "[CLS]", "[SEP]", "[UNK]"]


@given(st.lists(st.sampled_from(_SPECIAL_TEXT_PARTS), max_size=12).map("".join))
def test_allowed_special_tokens_match_hf_added_tokens(text):
    model = WordPieceTokenizer.from_vocab(["[UNK]", "[CLS]", "[SEP]", "a", "##b", "b", ","])
    hf = hf_wordpiece(model)
    hf.add_special_tokens(["[UNK]", "[CLS]", "[SEP]"])
    ours, theirs = model.encode(text, allowed_special="all"), hf.encode(text)
    assert [t.id for t in ours] == theirs.ids
    assert [(t.start, t.end) for t in ours] == theirs.offsets
