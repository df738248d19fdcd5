"""HF models, trained here or loaded from a tokenizer.json: HF's ids, with offsets that say which
text each token covers."""

from __future__ import annotations

import json

import pytest
import tokenizers
from hypothesis import given
from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers

from tokenizer_core.interface import Tokenizer
from tokenizer_core.reference.hf import HFTokenizer
from tokenizer_core.reference.hf_train import train_hf

from .hard_text import ENDOFTEXT, TEXT, assert_tokens_cover, ids

# =============================================================================================
# HF tokenizers

SENTENCES = [
    "the cat sat on the mat",
    "the dog sat on the log",
    "the cat and the dog are running and jumping",
    "cats and dogs are friends, naturally",
    "a lower newer wider widest",
]


@pytest.fixture(scope="module")
def hf_models() -> dict[str, HFTokenizer]:
    return {
        "bpe": train_hf("bpe", SENTENCES, 80),
        "wordpiece": train_hf("wordpiece", SENTENCES, 80),
        "unigram": train_hf("unigram", SENTENCES, 60),
        "byte": train_hf("bpe", SENTENCES, 300, byte_level=True, special_tokens=["<sep>"]),
    }


def hf_ids(model: HFTokenizer, text: str) -> list[int]:
    return model.tokenizer.encode(text, add_special_tokens=False).ids


def test_hf_models_follow_the_protocol(hf_models):
    for kind, model in hf_models.items():
        assert isinstance(model, Tokenizer)
        assert model.vocab_size == model.tokenizer.get_vocab_size(with_added_tokens=True)
    assert hf_models["bpe"].name == "hf:bpe" and hf_models["byte"].name == "hf:bpe:byte"
    assert hf_models["byte"].special_tokens == {ENDOFTEXT: 0, "<sep>": 1}
    assert hf_models["wordpiece"].special_tokens == {"[UNK]": 0}


TEXT_IN_DOMAIN = "the cats sat, and the dogs ran widest"


def test_hf_bpe_offsets(hf_models):
    model = hf_models["bpe"]
    tokens = model.encode(TEXT_IN_DOMAIN)
    assert ids(tokens) == hf_ids(model, TEXT_IN_DOMAIN)
    for t in tokens:  # `sat,</w>` covers `sat,`
        assert TEXT_IN_DOMAIN[t.start : t.end] == t.piece.removesuffix("</w>")
        assert t.bytes == TEXT_IN_DOMAIN[t.start : t.end].encode() and not t.partial
    assert any(t.piece.endswith("</w>") for t in tokens)


def test_hf_wordpiece_offsets(hf_models):
    model = hf_models["wordpiece"]
    tokens = model.encode(TEXT_IN_DOMAIN)
    assert ids(tokens) == hf_ids(model, TEXT_IN_DOMAIN)
    for t in tokens:  # `##s` covers `s`
        assert TEXT_IN_DOMAIN[t.start : t.end] == t.piece.removeprefix("##")
        assert t.bytes == TEXT_IN_DOMAIN[t.start : t.end].encode()
    assert any(t.piece.startswith("##") for t in tokens)


def test_hf_unigram_offsets_and_the_prepended_mark(hf_models):
    model = hf_models["unigram"]
    tokens = model.encode(TEXT_IN_DOMAIN)
    assert ids(tokens) == hf_ids(model, TEXT_IN_DOMAIN)
    # The `▁` that Metaspace puts before the text covers none of it. HF reports it on the first
    # character, overlapping the next token (`t`); here it is zero-width with no bytes.
    assert tokens[0].piece == "▁" and tokens[1].piece == "t"
    hf_offsets = model.tokenizer.encode(TEXT_IN_DOMAIN, add_special_tokens=False).offsets
    assert hf_offsets[:2] == [(0, 1), (0, 1)]
    assert (tokens[0].start, tokens[0].end, tokens[0].bytes) == (0, 0, b"")
    for t, hf_offset in list(zip(tokens, hf_offsets))[1:]:  # other `▁`s stand for spaces
        assert TEXT_IN_DOMAIN[t.start : t.end] == t.piece.replace("▁", " ")
        assert (t.start, t.end) == hf_offset
    assert any(t.piece.startswith("▁") and len(t.piece) > 1 for t in tokens)
    assert b"".join(t.bytes for t in tokens) == TEXT_IN_DOMAIN.encode()


def test_hf_unknown_token_covers_its_text_and_is_not_special(hf_models):
    for kind in ("bpe", "wordpiece"):
        tokens = hf_models[kind].encode("cat 好")
        unknown = tokens[-1]
        assert unknown.piece == "[UNK]" and unknown.bytes == "好".encode()
        assert (unknown.start, unknown.end) == (4, 5) and not unknown.special and unknown.unknown


def test_hf_byte_level_splits_chinese_honestly(hf_models):
    model = hf_models["byte"]  # trained on English only: 你 and 好 stay three bytes each
    tokens = model.encode("你好")
    assert ids(tokens) == hf_ids(model, "你好")
    assert [t.bytes for t in tokens] == [bytes([b]) for b in "你好".encode()]
    assert [(t.start, t.end) for t in tokens] == [(0, 1)] * 3 + [(1, 2)] * 3
    assert all(t.partial and t.piece is None for t in tokens)
    assert [t.display() for t in tokens[:3]] == ["<E4>", "<BD>", "<A0>"]
    # HF's own character offsets agree
    assert model.tokenizer.encode("你好", add_special_tokens=False).offsets == [
        (t.start, t.end) for t in tokens
    ]


def test_hf_byte_level_pieces_are_decoded_text(hf_models):
    tokens = hf_models["byte"].encode("the cat")
    assert [t.piece for t in tokens][-1] == " cat" and tokens[-1].bytes == b" cat"
    assert hf_models["byte"].decode(ids(tokens)) == "the cat"


@given(text=TEXT)
def test_hf_byte_level_tokens_cover_the_text(hf_models, text):
    model = hf_models["byte"]
    tokens = model.encode(text, disallowed_special=())
    assert_tokens_cover(text, tokens)
    plain = tokenizers.Tokenizer.from_str(model.tokenizer.to_str())
    plain.encode_special_tokens = True  # HF's own way to read special strings as text
    assert ids(tokens) == plain.encode(text, add_special_tokens=False).ids
    assert model.decode(ids(tokens)) == text


@given(text=TEXT)
def test_hf_word_models_tokens_are_their_text_spans(hf_models, text):
    """BPE, WordPiece, Unigram: each token's bytes are the text it covers, in order, no overlap
    (whitespace the pre-tokenizer drops belongs to no token); ids are HF's."""
    for kind in ("bpe", "wordpiece", "unigram"):
        model = hf_models[kind]
        plain = tokenizers.Tokenizer.from_str(model.tokenizer.to_str())
        plain.encode_special_tokens = True
        tokens = model.encode(text, disallowed_special=())
        assert ids(tokens) == plain.encode(text, add_special_tokens=False).ids
        end = 0
        for t in tokens:
            assert end <= t.start <= t.end <= len(text) and not t.partial
            assert t.bytes == text[t.start : t.end].encode()
            assert t.start < t.end or (kind, t.piece, t.start) == ("unigram", "▁", 0)
            end = t.end


def test_hf_special_token_rule(hf_models):
    model = hf_models["byte"]
    text = "a<sep>b<|endoftext|>c"
    with pytest.raises(ValueError, match="disallowed special token '<sep>'"):
        model.encode(text)
    honoured = model.encode(text, allowed_special="all")
    assert [(t.id, t.start, t.end) for t in honoured if t.special] == [(1, 1, 6), (0, 7, 20)]
    assert ids(honoured) == hf_ids(model, text)
    plain = model.encode(text, disallowed_special=())
    assert not any(t.special for t in plain) and len(plain) > len(honoured)
    assert b"".join(t.bytes for t in plain) == text.encode()
    mixed = model.encode(text, allowed_special={"<sep>"}, disallowed_special=())
    assert [t.id for t in mixed if t.special] == [1]
    assert b"".join(t.bytes for t in mixed) == text.encode()
    assert [(t.start, t.end) for t in mixed if t.special] == [(1, 6)]


def test_hf_unigram_reads_special_strings_with_its_own_pieces():
    """An HF quirk, pinned: Unigram keeps `<sep>` among its ordinary pieces (score 0, the best),
    so even read as plain text the string comes out as the special token's id."""
    model = train_hf("unigram", SENTENCES, 60, special_tokens=["<sep>"])
    tokens = model.encode("cat<sep>dog", disallowed_special=())
    plain = tokenizers.Tokenizer.from_str(model.tokenizer.to_str())
    plain.encode_special_tokens = True
    assert ids(tokens) == plain.encode("cat<sep>dog", add_special_tokens=False).ids
    sep = next(t for t in tokens if t.id == model.special_tokens["<sep>"])
    assert (sep.start, sep.end, sep.bytes, sep.special) == (3, 8, b"<sep>", True)


def test_hf_decode_unknown_id(hf_models):
    with pytest.raises(ValueError, match="^99999 is not a token id"):
        hf_models["bpe"].decode([3, 99999])


def byte_fallback_model() -> tokenizers.Tokenizer:
    """A Llama-style model: `▁` put before the text, and unknown characters spelled as bytes."""
    vocab = {"<unk>": 0, **{f"<0x{b:02X}>": 1 + b for b in range(256)}}
    vocab |= {"▁": 257, "t": 258, "h": 259, "e": 260, "▁t": 261, "he": 262, "▁the": 263}
    merges = [("▁", "t"), ("h", "e"), ("▁t", "he")]
    tokenizer = tokenizers.Tokenizer(
        models.BPE(vocab=vocab, merges=merges, byte_fallback=True, unk_token="<unk>")
    )
    tokenizer.normalizer = normalizers.Sequence(
        [normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")]
    )
    tokenizer.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
         decoders.Strip(" ", 1, 0)]
    )
    return tokenizer


def test_hf_byte_fallback_tokens_carry_their_byte():
    model = HFTokenizer(byte_fallback_model(), "llama-like")
    text = "the 好 t"
    tokens = model.encode(text)
    assert ids(tokens) == hf_ids(model, text)
    assert [t.piece for t in tokens[:2]] == ["▁the", "▁"]
    fallback = tokens[2:5]
    assert [t.bytes for t in fallback] == [b"\xe5", b"\xa5", b"\xbd"]
    assert all((t.start, t.end, t.partial) == (4, 5, True) for t in fallback)
    assert b"".join(t.bytes for t in tokens) == text.encode()
    assert model.decode(ids(tokens)) == text


@given(text=TEXT)
def test_hf_byte_fallback_tokens_cover_the_text(text):
    model = HFTokenizer(byte_fallback_model(), "llama-like")
    tokens = model.encode(text)
    assert ids(tokens) == hf_ids(model, text)
    assert b"".join(t.bytes for t in tokens) == text.encode()
    for t in tokens:
        assert 0 <= t.start <= t.end <= len(text) and t.partial == (t.piece is None)
        assert t.start < t.end or (t.piece, t.start) == ("▁", 0)


def test_hf_settings_that_hide_tokens_are_switched_off():
    """A saved tokenizer.json may truncate, pad or trim offsets; the wrapper shows every token
    with the space it really holds, and leaves the caller's object alone."""
    tokenizer = tokenizers.Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=True)
    tokenizer.train_from_iterator(
        SENTENCES,
        trainers.BpeTrainer(vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                            show_progress=False),
    )
    tokenizer.enable_truncation(2)
    text = "the cat sat"
    tokens = HFTokenizer(tokenizer).encode(text)
    assert len(tokens) > 2 and b"".join(t.bytes for t in tokens) == text.encode()
    cat = next(t for t in tokens if t.piece == " cat")
    assert (cat.start, cat.end) == (3, 7)  # trim_offsets would have said (4, 7)
    assert len(tokenizer.encode(text).ids) == 2  # the caller's tokenizer still truncates


# --- files -----------------------------------------------------------------------------------


def test_from_file_round_trip(hf_models, tmp_path):
    for kind, model in hf_models.items():
        path = tmp_path / kind / "tokenizer.json"
        path.parent.mkdir()
        model.tokenizer.save(str(path))
        loaded = HFTokenizer.from_file(path)
        assert loaded.name == "hf:tokenizer.json"
        assert loaded.encode(TEXT_IN_DOMAIN) == model.encode(TEXT_IN_DOMAIN)
        assert HFTokenizer.from_file(path.parent).encode("cat") == model.encode("cat")
        assert HFTokenizer.from_str(path.read_text()).special_tokens == model.special_tokens


def test_from_file_missing(tmp_path):
    missing = tmp_path / "nope" / "tokenizer.json"
    with pytest.raises(ValueError, match="no tokenizer file at .*nope.*Tokenizer.save"):
        HFTokenizer.from_file(missing)
    with pytest.raises(ValueError, match="no tokenizer file"):
        HFTokenizer.from_file(tmp_path)  # a directory without a tokenizer.json


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b"hello world", "tokenizer.json"), (b"\xff\xfe\x00binary", "not UTF-8"),
     (json.dumps({"vocab": {"a": 0}}).encode(), "tokenizer.json"), (b"", "tokenizer.json")],
)
def test_from_file_not_a_tokenizer(tmp_path, content, reason):
    path = tmp_path / "vocab.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="vocab.json.* is not a usable tokenizer.json") as caught:
        HFTokenizer.from_file(path)
    assert reason in str(caught.value)
