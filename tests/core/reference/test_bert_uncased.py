"""BERT base (uncased) from blingfire's file: the real vocabulary, BERT's pipeline, three checks.

- The vocabulary read out of blingfire's `bert_base_tok.i2w` is bert-base-uncased's vocab.txt
  byte for byte (the published sha256), and reading the *cased* model's file the same way is
  refused (so the check can fail).
- Goldens from elsewhere: `hello world` -> [7592, 2088] (the issue), and HF's own documentation
  example, "I have a new GPU!" -> i have a new gp ##u ! (the tokenizer summary in transformers'
  docs, run on bert-base-uncased).
- A slow oracle written here from BERT's definition (clean text, space around CJK ideographs,
  lower case, strip accents, split on whitespace and punctuation, greedy longest-match
  WordPiece with a 100-character limit) gives the same ids on hard text and on any text.
- blingfire's own compiled BERT tokenizer (`bert_base_tok.bin`, Microsoft's implementation,
  not HF's) gives the same ids on 2,000 lines of English; it departs from BERT's definition on
  format characters (it splits at a zero-width joiner that BERT deletes) and Hangul (BERT's accent
  stripping decomposes a syllable into jamo, which the vocabulary holds), shown below.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.reference import bert_uncased
from tokenizer_core.reference.open_models import OPEN_MODELS, load_open_model, packaged_path
from tokenizer_core.samples import english_reference_corpus

from .hard_text import HARD_CHARS, NIHAO, ids

BLINGFIRE_DIR = packaged_path(OPEN_MODELS["bert-base-uncased"].file).parent


@pytest.fixture(scope="module")
def bert():
    return load_open_model("bert-base-uncased")


@pytest.fixture(scope="module")
def pieces() -> list[str]:
    return bert_uncased.recover_vocabulary(BLINGFIRE_DIR / "bert_base_tok.i2w")


@pytest.fixture(scope="module")
def vocab(pieces) -> dict[str, int]:
    """piece -> id, built once (not once per hypothesis example)."""
    return {p: i for i, p in enumerate(pieces)}


# -- the vocabulary ------------------------------------------------------------------------------


def test_recovered_vocabulary_is_the_published_vocab_txt(pieces):
    import hashlib

    data = bert_uncased.vocab_txt(pieces)
    assert len(data) == 231_508 and len(pieces) == 30_522
    assert hashlib.sha256(data).hexdigest() == (
        "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
    )
    assert pieces[:2] == ["[PAD]", "[unused0]"] and pieces[100:104] == ["[UNK]", "[CLS]", "[SEP]",
                                                                       "[MASK]"]
    assert pieces[1996] == "the" and pieces[-1] == "##～"


def test_another_vocabulary_is_refused():
    """The cased model's file decodes fine but is not bert-base-uncased's vocab.txt."""
    with pytest.raises(bert_uncased.VocabularyMismatch, match="sha256 [0-9a-f]{64}, expected 07eced"):
        bert_uncased.recover_vocabulary(BLINGFIRE_DIR / "bert_base_cased_tok.i2w")


# -- goldens -----------------------------------------------------------------------------------


def test_known_ids(bert):
    assert ids(bert.encode("hello world")) == [7592, 2088]
    assert ids(bert.encode("Hello World")) == [7592, 2088]  # uncased
    assert [t.piece for t in bert.encode("I have a new GPU!")] == [
        "i", "have", "a", "new", "gp", "##u", "!"]
    assert bert.vocab_size == 30_522
    assert bert.special_tokens == {"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102,
                                   "[MASK]": 103}


def test_tokens_are_spans_of_the_text_as_typed(bert):
    """`Hello` is one token whose bytes are `Hello` and whose piece is `hello`; `Wörld` keeps
    its ö; an emoji BERT cannot spell is [UNK] over the emoji, not partial bytes."""
    text = "Hello, Wörld 🙂"
    tokens = bert.encode(text)
    assert [(t.bytes.decode(), t.piece) for t in tokens] == [
        ("Hello", "hello"), (",", ","), ("Wörld", "world"), ("🙂", "[UNK]")]
    assert tokens[-1].unknown and not tokens[-1].special
    assert all(text[t.start:t.end].encode() == t.bytes and not t.partial for t in tokens)


def test_special_tokens_refused_allowed_plain(bert):
    text = "hi[SEP]there"
    with pytest.raises(ValueError, match="disallowed special token"):
        bert.encode(text)
    allowed = bert.encode(text, allowed_special={"[SEP]"})
    assert [(t.id, t.special, t.start, t.end) for t in allowed if t.special] == [(102, True, 2, 7)]
    plain = bert.encode(text, disallowed_special=())
    assert 102 not in ids(plain) and [t.piece for t in plain][:4] == ["hi", "[", "sep", "]"]


# -- the slow oracle ---------------------------------------------------------------------------


def _is_cjk_ideograph(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in (
        (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)))


def _is_punctuation(ch: str) -> bool:
    """ASCII symbols count as punctuation for BERT (`$`, `^`), as does Unicode's P*."""
    cp = ord(ch)
    ascii_symbol = 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126
    return ascii_symbol or unicodedata.category(ch).startswith("P")


def _is_whitespace(ch: str) -> bool:
    """HF's test (Rust's char::is_whitespace): the Unicode White_Space property.

    subtle: Google's original tokenization.py asked for category Zs only, so U+2028 and U+2029
    were word characters there; HF's BertNormalizer, which bert-base-uncased's tokenizer.json
    uses, makes them spaces."""
    return ch in "\t\n\r" or ch.isspace() or unicodedata.category(ch) == "Zs"


def oracle_ids(text: str, vocab: dict[str, int]) -> list[int]:
    """BERT uncased, from its definition, character by character."""
    cleaned = []
    for ch in text:  # clean: drop NUL, U+FFFD and other control/format characters
        if ch in "\x00\ufffd" or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r"):
            continue
        if _is_whitespace(ch):
            cleaned.append(" ")
        elif _is_cjk_ideograph(ord(ch)):
            cleaned.append(f" {ch} ")
        else:
            cleaned.append(ch)
    text = unicodedata.normalize("NFD", "".join(cleaned))
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn").lower()
    words = []
    for chunk in text.split():
        word = ""
        for ch in chunk:  # each punctuation character is a word of its own
            if _is_punctuation(ch):
                words += [word, ch] if word else [ch]
                word = ""
            else:
                word += ch
        if word:
            words.append(word)
    out: list[int] = []
    for word in words:  # greedy longest match; a word it cannot spell is one [UNK]
        if len(word) > 100:
            out.append(vocab["[UNK]"])
            continue
        start, pieces = 0, []
        while start < len(word):
            end = len(word)
            while end > start:
                piece = ("##" if start else "") + word[start:end]
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                pieces = [vocab["[UNK]"]]
                break
            pieces.append(vocab[piece])
            start = end
        out += pieces
    return out


HARD = [
    "The quick brown fox jumps over the lazy dog. It's 3:45pm; I'll pay $1,234.56!",
    NIHAO, "机器学习是人工智能的一个分支。", "日本語のテキスト、カタカナ。한국어 문장도 있습니다.",
    "🙂👍🏽👩‍👩‍👧🇫🇷 emoji!!", "def f(x):\n    return x ** 2  # square\n", "café naïve e\u0301 ß ǅ İstanbul",
    "Ⅻ ① ﬁ ２０２６ Ǆ", "a\u200db\u2028c\u0085d\x00e\x07f", "x" * 101 + " " + "a" * 100,
    "electroencephalographically unaffable",
]


@pytest.mark.parametrize("text", HARD)
def test_ids_equal_the_slow_oracle(bert, vocab, text):
    assert ids(bert.encode(text)) == oracle_ids(text, vocab)


# subtle: the oracle reads Python 3.11's Unicode 14 tables, HF the tables of its Rust crates,
# some much older; they disagree on characters added since (U+2E43, a dash from Unicode 10, is
# punctuation to Python and a letter to HF; U+14647 is unassigned to Python, a letter to HF). So
# the oracle is asked about characters Unicode 3.2 already had, with the same category in both
# tables, plus the hard characters (emoji, ZWJ sequences, controls).
def _settled(ch: str) -> bool:
    return unicodedata.ucd_3_2_0.category(ch) == unicodedata.category(ch) != "Cn"


SETTLED_TEXT = st.text(
    st.one_of(
        st.characters(exclude_categories=("Cs", "Cn"), exclude_characters="\ufffd").filter(
            _settled),
        st.sampled_from(HARD_CHARS),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(text=SETTLED_TEXT)
def test_ids_equal_the_slow_oracle_on_any_text(bert, vocab, text):
    tokens = bert.encode(text, disallowed_special=())
    assert ids(tokens) == oracle_ids(text, vocab)
    # tokens are spans of the text as typed, in order; pieces cut from one character (a Hangul
    # syllable's jamo) share its span: the first carries its bytes, and all are partial
    cursor = 0
    for n, t in enumerate(tokens):
        assert t.start < t.end and t.start >= (tokens[n - 1].start if n else 0)
        assert t.bytes == text[max(t.start, cursor):t.end].encode()
        shares = any(u is not t and u.start < t.end and t.start < u.end for u in tokens)
        assert t.partial == shares
        cursor = max(cursor, t.end)


# -- blingfire's own BERT tokenizer --------------------------------------------------------------


@pytest.fixture(scope="module")
def blingfire_ids():
    import blingfire

    handle = blingfire.load_model(str(BLINGFIRE_DIR / "bert_base_tok.bin"))

    def encode(text: str) -> list[int]:
        # it pads its answer with [PAD] (0) up to the length asked for; no text here holds
        # "[PAD]", so trailing zeros are padding
        out = [int(i) for i in blingfire.text_to_ids(handle, text, 4 * len(text) + 8, 100)]
        while out and out[-1] == 0:
            out.pop()
        return out

    yield encode
    blingfire.free_model(handle)


def test_blingfire_agrees_on_english(bert, blingfire_ids):
    lines = [line for line in english_reference_corpus().splitlines() if line.strip()][:2000]
    assert len(lines) == 2000
    for line in lines:
        assert blingfire_ids(line) == ids(bert.encode(line, disallowed_special=())), line


def test_where_blingfire_departs_from_bert(bert, vocab, blingfire_ids):
    """Two departures, both blingfire's (the oracle sides with HF's pipeline): it splits at a
    zero-width joiner, which BERT's cleaning deletes, and cannot spell Hangul, which BERT's
    accent stripping decomposes into jamo that the vocabulary holds."""
    for text in ("a\u200db", "한국어"):
        ours = ids(bert.encode(text))
        assert ours == oracle_ids(text, vocab) != blingfire_ids(text)
    assert [t.piece for t in bert.encode("a\u200db")] == ["ab"]
    assert blingfire_ids("a\u200db") == [vocab["a"], vocab["b"]]
    assert not any(t.unknown for t in bert.encode("한국어"))
    assert blingfire_ids("한국어") == [vocab["[UNK]"]]
