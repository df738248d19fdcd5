"""tiktoken over our offline ranks: tiktoken's ids, with honest bytes and character spans."""

from __future__ import annotations

import pytest
from hypothesis import given

from tokenizer_core.interface import Tokenizer
from tokenizer_core.reference.rankfiles import ENCODING_NAMES
from tokenizer_core.reference.tiktoken_encodings import TiktokenTokenizer, tiktoken_tokenizer

from .hard_text import ENDOFTEXT, NIHAO, TEXT, assert_tokens_cover, ids


@pytest.fixture(scope="module")
def tiktokens() -> dict[str, TiktokenTokenizer]:
    return {name: tiktoken_tokenizer(name) for name in ENCODING_NAMES}


@pytest.fixture(scope="module")
def gpt2(tiktokens) -> TiktokenTokenizer:
    return tiktokens["gpt2"]



# =============================================================================================
# tiktoken


def test_tiktoken_tokenizers_follow_the_protocol(tiktokens):
    for name, tokenizer in tiktokens.items():
        assert isinstance(tokenizer, Tokenizer) and tokenizer.name == name
    assert [t.vocab_size for t in tiktokens.values()] == [50257, 100277, 200019]
    assert tiktokens["o200k_base"].special_tokens == {ENDOFTEXT: 199999, "<|endofprompt|>": 200018}


def test_gpt2_goldens(gpt2):
    assert ids(gpt2.encode("the cat sat on the mat")) == [1169, 3797, 3332, 319, 262, 2603]
    assert ids(gpt2.encode("1.11")) == [16, 13, 1157]
    cat = gpt2.encode("the cat sat on the mat")[1]
    assert (cat.bytes, cat.piece, cat.start, cat.end, cat.partial) == (b" cat", " cat", 3, 7, False)


def test_gpt2_splits_chinese_characters_honestly(gpt2):
    tokens = gpt2.encode(NIHAO)
    assert len(tokens) == 13 and ids(tokens)[:3] == [19526, 254, 25001]
    first, second, third = tokens[:3]
    # 你 is E4 BD A0: one token holds E4 BD, the next A0; both map onto character 0.
    assert (first.bytes, first.start, first.end, first.partial) == (b"\xe4\xbd", 0, 1, True)
    assert (second.bytes, second.start, second.end, second.partial) == (b"\xa0", 0, 1, True)
    assert (third.start, third.end, third.partial) == (1, 2, True)  # 好 starts the same way
    assert first.piece is None and first.display() == "<E4 BD>" and second.display() == "<A0>"
    assert_tokens_cover(NIHAO, tokens)
    assert ids(tokens) == gpt2.encoding.encode_ordinary(NIHAO)


def test_special_token_refused_unless_allowed(gpt2):
    text = "hello<|endoftext|>world"
    refused = r"disallowed special token '<\|endoftext\|>'.*allowed_special"
    with pytest.raises(ValueError, match=refused):
        gpt2.encode(text)
    for allowed in ({ENDOFTEXT}, "all"):
        tokens = gpt2.encode(text, allowed_special=allowed)
        assert ids(tokens) == [31373, 50256, 6894]
        assert [t.special for t in tokens] == [False, True, False]
        assert (tokens[1].start, tokens[1].end, tokens[1].bytes) == (5, 18, ENDOFTEXT.encode())
    plain = gpt2.encode(text, disallowed_special=())
    assert ids(plain) == gpt2.encoding.encode_ordinary(text) and 50256 not in ids(plain)
    assert not any(t.special for t in plain)
    assert_tokens_cover(text, plain)


def test_unknown_allowed_special_is_refused(gpt2):
    with pytest.raises(ValueError, match="<\\|fim_prefix\\|>.*not special tokens"):
        gpt2.encode("x", allowed_special={"<|fim_prefix|>"})


@pytest.mark.parametrize(
    ("name", "special", "token_id"),
    [("cl100k_base", "<|endofprompt|>", 100276), ("cl100k_base", "<|fim_middle|>", 100259),
     ("o200k_base", "<|endofprompt|>", 200018), ("o200k_base", ENDOFTEXT, 199999)],
)
def test_newer_encodings_special_tokens(tiktokens, name, special, token_id):
    tokenizer = tiktokens[name]
    tokens = tokenizer.encode(f"a{special}b", allowed_special={special})
    assert ids(tokens) == tokenizer.encoding.encode(f"a{special}b", allowed_special={special})
    assert tokens[1].id == token_id and tokens[1].special


def test_decode_round_trip_and_unknown_ids(tiktokens):
    for tokenizer in tiktokens.values():
        assert tokenizer.decode(ids(tokenizer.encode(NIHAO))) == NIHAO
    gpt2 = tiktokens["gpt2"]
    assert gpt2.decode([31373, 50256, 6894]) == "hello<|endoftext|>world"
    assert gpt2.decode([19526]) == "\ufffd"  # tiktoken's rule for a cut character
    with pytest.raises(ValueError, match="^50257 is not a token id"):
        gpt2.decode([31373, 50257])
    with pytest.raises(ValueError, match="^100256 is not a token id"):  # a gap in cl100k's ids
        tiktokens["cl100k_base"].decode([100256])


def test_lone_surrogate_is_refused_clearly(gpt2):
    with pytest.raises(ValueError, match="lone surrogate '\\\\ud800' at character 2"):
        gpt2.encode("ab\ud800")


def test_empty_text(tiktokens):
    assert all(t.encode("") == [] for t in tiktokens.values())


@given(text=TEXT)
def test_tiktoken_tokens_cover_the_text(tiktokens, text):
    # (hypothesis also tries string constants it finds in the code, `<|endofprompt|>` included;
    # read as plain text, they are ordinary tokens.)
    for tokenizer in tiktokens.values():
        tokens = tokenizer.encode(text, disallowed_special=())
        assert_tokens_cover(text, tokens)
        assert ids(tokens) == tokenizer.encoding.encode_ordinary(text)
