"""The vocabulary table, checked against tiktoken, GPT-2's own merge file, HF and hand-picked tokens."""

from __future__ import annotations

import functools
import time
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.measure.vocabulary import (
    MAX_REGEX_CHARS,
    SCRIPTS,
    _search_long,
    compare,
    length_histogram,
    longest,
    merge_parts,
    script_counts,
    script_of,
    search_bytes,
    search_id,
    search_regex,
    search_text,
    vocabulary,
)
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.reference.rankfiles import GPT2_VOCAB_BPE, gpt2_token_bytes, read_packaged
from tokenizer_core.registry import load_tokenizer

ENCODINGS = ("gpt2", "cl100k_base", "o200k_base")


@functools.cache
def table(name: str):
    return vocabulary(load_tokenizer(name))


def tiktoken_of(name: str):
    return load_tokenizer(name).encoding  # the tiktoken.Encoding itself


# --- every id against tiktoken -----------------------------------------------------------------


@pytest.mark.parametrize("name", ENCODINGS)
def test_size_and_every_ids_bytes_equal_tiktoken(name):
    """Every id below n_vocab: the row's bytes are decode_single_token_bytes(id), or, for the
    ids no token holds (cl100k's and o200k's gaps), tiktoken refuses the id and it is a gap."""
    encoding, vocab = tiktoken_of(name), table(name)
    assert vocab.size == encoding.n_vocab
    rows = {r.id: r for r in vocab.rows}
    gaps = []
    for token_id in range(encoding.n_vocab):
        try:
            expected = encoding.decode_single_token_bytes(token_id)
        except KeyError:
            gaps.append(token_id)
            assert token_id not in rows
            continue
        assert rows[token_id].bytes == expected, token_id
    assert list(vocab.gaps) == gaps
    assert len(vocab.rows) + len(gaps) == encoding.n_vocab
    assert [r.id for r in vocab.rows] == sorted(rows)


def test_the_gaps_are_the_ones_tiktoken_leaves():
    assert table("gpt2").gaps == ()
    assert table("cl100k_base").gaps == (100256, *range(100261, 100276))
    assert table("o200k_base").gaps == (199998, *range(200000, 200018))


def test_our_encoder_over_the_same_ranks_has_the_same_table():
    ours, theirs = vocabulary(load_tokenizer("core:gpt2")), table("gpt2")
    assert [(r.id, r.bytes, r.rank) for r in ours.rows] == [
        (r.id, r.bytes, r.rank) for r in theirs.rows
    ]


def test_text_is_none_exactly_when_bytes_are_not_utf8():
    for row in table("cl100k_base").rows:
        try:
            expected = row.bytes.decode("utf-8")
        except UnicodeDecodeError:
            expected = None
        assert row.text == expected
        assert row.n_bytes == len(row.bytes)
        assert row.n_chars == (None if expected is None else len(expected))


# --- ranks and merges --------------------------------------------------------------------------


def test_gpt2_ranks_and_merges_are_the_lines_of_vocab_bpe():
    """GPT-2's own merge file, line k: the merge that made the token of rank 256 + k."""
    lines = read_packaged(GPT2_VOCAB_BPE, "GPT-2 merges").decode("utf-8").split("\n")[1:]
    merges = [tuple(gpt2_token_bytes(p) for p in line.split()) for line in lines if line]
    ranks = load_tokenizer("gpt2").spec.mergeable_ranks
    vocab = table("gpt2")
    for k in range(0, len(merges), 97):  # a spread of 500 of the 50,000
        a, b = merges[k]
        row = vocab.row(ranks[a + b])
        assert row.rank == k
        assert merge_parts(dict(ranks), a + b) == (a, b)
    assert merge_parts(dict(ranks), b"a") is None


def test_our_trained_merges_number_their_tokens():
    from tokenizer_core.modelfile import bpe_model
    from tokenizer_core.trainers.bpe import train_bpe
    from tokenizer_core.trainers.corpus import corpus_from_text

    training = train_bpe(corpus_from_text("low lower lowest newest widest " * 3, "byte"), 12,
                         special_tokens=("<|endoftext|>",))
    vocab = vocabulary(bpe_model(training))
    made = {a + b: k for k, (a, b) in reversed(list(enumerate(training.merges)))}
    by_bytes = {r.bytes: r for r in vocab.rows}
    for token, k in made.items():
        assert by_bytes[token].rank == k
    assert by_bytes[b"l"].rank is None
    assert vocab.row(0).special and vocab.row(0).script == "special"


# --- script classes and marks, by hand ---------------------------------------------------------


@pytest.mark.parametrize(("text", "script"), [
    (" the", "Latin"), ("ing", "Latin"), ("é", "Latin"), ("e\u0301", "Latin"),
    ("##ing", "Latin"), ("▁the", "Latin"), ("est</w>", "Latin"),
    ("你好", "Han"), (" 中国", "Han"), ("при", "Cyrillic"), (" Москва", "Cyrillic"),
    ("123", "digits"), (" 2024", "digits"), ("!!", "punctuation"), (" {", "punctuation"),
    ("\n\n", "whitespace"), ("   ", "whitespace"), ("▁", "whitespace"),
    ("😀", "emoji"), ("❤\ufe0f", "emoji"), ("🇫🇷", "emoji"),
    ("Σ", "other"), ("aб", "other"), ("こんにちは", "other"), ("\u200b", "other"),
    (None, "partial bytes"),
])  # fmt: skip
def test_script_classes_by_hand(text, script):
    assert script_of(text) == script


def test_real_tokens_get_their_class_and_start_mark():
    gpt2 = tiktoken_of("gpt2")
    vocab = table("gpt2")

    def row(data: bytes):
        return vocab.row(gpt2.encode_single_token(data))

    assert row(b" the").script == "Latin" and row(b" the").start == "space"
    assert row(b"the").start == ""
    assert row(b"\n\n").script == "whitespace"
    assert row(b"2017").script == "digits"
    assert row(b"\xe4").script == "partial bytes" and row(b"\xe4").text is None
    assert row("的".encode()).script == "Han"
    assert row(b"<|endoftext|>").script == "special" and row(b"<|endoftext|>").id == 50256


def test_wordpiece_marks_continuations_and_numbers_its_merges():
    model = WordPieceTokenizer.from_vocab(["[UNK]", "p", "##l", "##a", "##y", "play", "##ing"])
    vocab = vocabulary(model)
    assert vocab.kind == "WordPiece"
    assert [r.start for r in vocab.rows] == ["", "", "##", "##", "##", "", "##"]
    assert vocab.row(6).script == "Latin"


# --- search, against plain filters over tiktoken's bytes ---------------------------------------


def _texts(name: str) -> dict[int, str]:
    encoding, found = tiktoken_of(name), {}
    for token_id in range(encoding.n_vocab):
        try:
            found[token_id] = encoding.decode_single_token_bytes(token_id).decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            pass
    return found


@functools.cache
def gpt2_texts() -> dict[int, str]:
    return _texts("gpt2")


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="aeiouy tnsg中的1😀\n", min_size=1, max_size=3))
def test_text_search_equals_a_plain_filter(needle):
    expected = [i for i, t in gpt2_texts().items() if needle in t]
    assert search_text(table("gpt2"), needle) == expected


def test_text_search_ignoring_case():
    found = search_text(table("gpt2"), "HELLO", ignore_case=True)
    assert found == [i for i, t in gpt2_texts().items() if "hello" in t.casefold()]
    assert 31373 in found  # 'hello'


def test_bytes_search_finds_partial_tokens_too():
    encoding = tiktoken_of("gpt2")
    expected = [i for i in range(encoding.n_vocab) if b"\xe4\xbd" in encoding.decode_single_token_bytes(i)]
    assert search_bytes(table("gpt2"), "<E4 BD>") == expected
    assert search_bytes(table("gpt2"), "e4bd") == expected
    with pytest.raises(ValueError, match="not hex bytes"):
        search_bytes(table("gpt2"), "zz")


def test_id_search():
    assert search_id(table("cl100k_base"), 300) == [300]
    assert search_id(table("cl100k_base"), 100256) == []  # a gap


@pytest.mark.parametrize("pattern", [r"^ [A-Z][a-z]+ing$", r"\d{3}", r"^\s+$", r"[\p{Han}]"])
def test_regex_search_equals_a_plain_filter(pattern):
    expected = [i for i, t in gpt2_texts().items() if regex.search(pattern, t)]
    assert search_regex(table("gpt2"), pattern) == expected


def test_regex_search_is_bounded():
    with pytest.raises(ValueError, match="bound"):
        search_regex(table("gpt2"), "a" * (MAX_REGEX_CHARS + 1))
    with pytest.raises(ValueError, match="not valid"):
        search_regex(table("gpt2"), "(unclosed")


def test_a_backtracking_regex_is_stopped_with_a_clear_message():
    long_token = "a" * 40 + "!"
    vocab = vocabulary(WordPieceTokenizer.from_vocab(["[UNK]", "a", long_token]))
    with pytest.raises(ValueError, match="was stopped"):
        search_regex(vocab, r"^(a|aa)+$", seconds=0.2)


def test_a_timeout_while_the_thread_waited_for_the_processor_is_not_the_patterns_fault():
    # The regex module's timeout counts wall-clock time; a loaded machine can spend it before
    # the search runs. Such a timeout is tried again while this thread's CPU budget lasts.
    timeouts = []

    def search(text: str, timeout: float) -> bool:
        timeouts.append(timeout)
        if len(timeouts) == 1:
            raise TimeoutError("regex timed out")
        return True

    assert _search_long(search, "a" * 40, time.thread_time() + 5.0)
    assert len(timeouts) == 2 and 0 < timeouts[1] <= 5.0
    with pytest.raises(TimeoutError):  # once the budget is spent, the timeout is believed
        _search_long(search, "a" * 40, time.thread_time() - 1.0)


# --- counts and comparison ---------------------------------------------------------------------


def test_length_histogram_and_script_counts_add_up():
    encoding, vocab = tiktoken_of("gpt2"), table("gpt2")
    ordinary = [encoding.decode_single_token_bytes(i) for i in range(50256)]
    assert length_histogram(vocab.rows) == dict(sorted(Counter(map(len, ordinary)).items()))
    counts = script_counts(vocab.rows)
    assert sum(counts.values()) == len(vocab.rows)
    assert set(counts) <= {*SCRIPTS, "special"}
    assert counts["special"] == 1
    chars = length_histogram(vocab.rows, "chars")
    assert sum(chars.values()) == 50256 - counts["partial bytes"]


def test_longest_tokens():
    top = longest(table("gpt2"), 5)
    assert [r.n_bytes for r in top] == sorted((r.n_bytes for r in top), reverse=True)
    assert top[0].n_bytes == max(len(b) for b in load_tokenizer("gpt2").spec.mergeable_ranks)


def test_compare_gpt2_with_o200k_against_plain_sets():
    a_spec, b_spec = load_tokenizer("gpt2").spec, load_tokenizer("o200k_base").spec
    a = set(a_spec.mergeable_ranks) | {s.encode() for s in a_spec.special_tokens}
    b = set(b_spec.mergeable_ranks) | {s.encode() for s in b_spec.special_tokens}
    result = compare(table("gpt2"), table("o200k_base"))
    assert (result.shared, result.only_a, result.only_b) == (len(a & b), len(a - b), len(b - a))
    assert result.shared + result.only_a == len(a)
    assert result.shared + result.only_b == len(b)
    assert sum(result.shared_scripts.values()) == result.shared
    assert sum(result.only_a_scripts.values()) == result.only_a
    assert sum(result.only_b_scripts.values()) == result.only_b
    assert all(r.bytes not in b for r in result.only_a_examples)
    assert all(r.bytes not in a for r in result.only_b_examples)


def test_a_vocabulary_compared_with_itself_shares_everything():
    result = compare(table("gpt2"), table("gpt2"))
    assert (result.shared, result.only_a, result.only_b) == (50257, 0, 0)


# --- HF tokenizers -----------------------------------------------------------------------------


def test_hf_byte_level_vocabulary_decodes_like_hf():
    """DeepSeek-V4's tokenizer.json, read by HF: each whole-UTF-8 token's text is HF's decode."""
    tokenizer = load_tokenizer("deepseek-v4")
    vocab = vocabulary(tokenizer)
    hf = tokenizer.tokenizer
    assert vocab.size == hf.get_vocab_size(with_added_tokens=True)
    assert len(vocab.rows) == len(hf.get_vocab(with_added_tokens=True))
    for row in vocab.rows[::37]:
        if row.text is not None and not row.special:
            assert hf.decode([row.id], skip_special_tokens=False) == row.text, row
