"""Long-text windows: sliding windows equal HF's overflowing tokens; boundary windows never cut a
character and end at the best boundary within reach."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models

from tokenizer_core.measure.sequences_windows import (
    PARAGRAPH,
    SENTENCE,
    WORD,
    boundary_windows,
    char_spans,
    cut_ranks,
    sliding_ranges,
    sliding_windows,
    spans_of,
    summarize,
)
from tokenizer_core.registry import load_tokenizer

VOCAB = 60


def hf_windows(ids, max_length, stride):
    hf = HFTokenizer(models.WordLevel({str(i): i for i in range(VOCAB)}, unk_token="0"))
    hf.enable_truncation(max_length, stride=stride)
    encoding = hf.encode([str(i) for i in ids], is_pretokenized=True)
    return [encoding.ids] + [o.ids for o in encoding.overflowing]


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(st.integers(0, VOCAB - 1), min_size=1, max_size=80),
    max_length=st.integers(1, 20),
    data=st.data(),
)
def test_sliding_windows_equal_hf_overflowing_tokens(ids, max_length, data):
    stride = data.draw(st.integers(0, max_length - 1))
    ours = [ids[a:b] for a, b in sliding_ranges(len(ids), max_length, stride)]
    assert ours == hf_windows(ids, max_length, stride)


def test_the_command_line_rule_window_k_starts_at_k_times_n_minus_s():
    assert sliding_ranges(10, 4, 1) == [(0, 4), (3, 7), (6, 10)]
    assert sliding_ranges(11, 4, 1) == [(0, 4), (3, 7), (6, 10), (9, 11)]


@pytest.mark.parametrize("max_length, stride", [(0, 0), (4, 4), (4, -1)])
def test_bad_window_arguments_say_what_is_wrong(max_length, stride):
    with pytest.raises(ValueError, match="max length|stride"):
        sliding_ranges(10, max_length, stride)


TEXT = (
    "The first paragraph is short. It has two sentences.\n\n"
    "The second paragraph talks about tokens and windows and goes on for a while, "
    "so that a window has to end somewhere inside it. 中文也要有。还有表情 👩‍👩‍👧 emoji.\n\n"
    "Third."
)


@pytest.fixture(scope="module")
def gpt2():
    return load_tokenizer("gpt2")


def test_sliding_window_spans_are_the_tokens_characters(gpt2):
    tokens = gpt2.encode(TEXT)
    windows = sliding_windows(tokens, 16, 4)
    assert windows[0].start == 0 and windows[-1].end == len(TEXT)
    for w in windows:
        assert (w.start, w.end) == (tokens[w.first].start, tokens[w.stop - 1].end)
    summary = summarize(windows, len(tokens))
    assert summary.fed == sum(len(w) for w in windows)
    assert summary.repeated == pytest.approx(4 * (len(windows) - 1) / len(tokens))


def test_boundary_windows_prefer_the_paragraph_break(gpt2):
    tokens = gpt2.encode(TEXT)
    first_break = TEXT.index("\n\n")
    windows = boundary_windows(TEXT, tokens, 30)
    assert windows[0].cut == PARAGRAPH
    assert TEXT[windows[0].end : windows[1].start].strip() == ""
    assert windows[0].end <= first_break + 2 and windows[1].start >= first_break


def test_boundary_windows_fall_back_to_sentence_then_word(gpt2):
    text = "One two three four. Five six seven eight nine ten eleven twelve"
    tokens = gpt2.encode(text)
    first = boundary_windows(text, tokens, 8)[0]
    assert first.cut == SENTENCE and text[: first.end].rstrip().endswith("four.")
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    first = boundary_windows(words, gpt2.encode(words), 5)[0]
    assert first.cut == WORD


texts = st.text(
    alphabet=st.sampled_from(list("ab .\n") + ["中", "文", "。", "😀", "é"]), min_size=1, max_size=120
)


@settings(max_examples=200, deadline=None)
@given(text=texts, max_length=st.integers(4, 24), data=st.data())
def test_boundary_windows_cover_everything_and_never_split_a_character(gpt2, text, max_length, data):
    stride = data.draw(st.integers(0, max_length - 1))
    tokens = gpt2.encode(text)
    ranks = cut_ranks(text, spans_of(tokens))
    try:
        windows = boundary_windows(text, tokens, max_length, stride)
    except ValueError as error:  # only when every cut within reach is inside a character
        assert "share characters" in str(error)
        return
    assert windows[0].first == 0 and windows[-1].stop == len(tokens)
    for w, nxt in zip(windows, windows[1:]):
        assert nxt.first > w.first and w.stop - stride <= nxt.first <= w.stop  # overlap <= stride
    for w in windows:
        assert 1 <= len(w) <= max_length
        assert ranks[w.first] > 0 and ranks[w.stop] > 0  # both ends between whole characters
        assert w.start == tokens[w.first].start and w.end == tokens[w.stop - 1].end
        # the window's bytes are exactly its span's bytes: no character cut in two
        assert b"".join(t.bytes for t in tokens[w.first : w.stop]) == text[w.start : w.end].encode()


@settings(max_examples=200, deadline=None)
@given(text=texts)
def test_char_spans_from_bytes_equal_the_token_records_offsets(gpt2, text):
    tokens = gpt2.encode(text)
    assert char_spans(text, [len(t.bytes) for t in tokens]) == spans_of(tokens)


def test_char_spans_refuse_bytes_that_are_not_the_text():
    with pytest.raises(ValueError, match="do not add up"):
        char_spans("abc", [2])
