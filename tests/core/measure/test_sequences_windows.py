"""Long-text windows: sliding windows equal HF's overflowing tokens; boundary windows never cut a
character and end at the best boundary within reach."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models

from tokenizer_core.measure.sequences_windows import (
    NOWHERE,
    PARAGRAPH,
    SENTENCE,
    SENTENCE_END,
    TOKEN,
    WORD,
    TooManyWindows,
    boundary_windows,
    boundary_windows_of,
    char_spans,
    cut_ranks,
    sliding_ranges,
    sliding_windows,
    sliding_windows_of,
    spans_of,
    summarize,
    window_count,
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


# --- the summary's figures and the bound on the number of windows --------------------------------


def plain_spans(n: int):
    """Spans of n one-character tokens: windows over token counts alone."""
    return list(range(n)), list(range(1, n + 1))


def coverage(windows, n):
    """The slow obvious count: for every token, how many windows read it."""
    return [sum(w.first <= i < w.stop for w in windows) for i in range(n)]


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 400), max_length=st.integers(1, 60), data=st.data())
def test_the_share_read_more_than_once_is_a_share_of_the_tokens(n, max_length, data):
    stride = data.draw(st.integers(0, max_length - 1))
    windows = sliding_windows_of(plain_spans(n), max_length, stride)
    summary = summarize(windows, n)
    counts = coverage(windows, n)
    assert 0.0 <= summary.repeated <= 1.0  # never "716759.3% read twice"
    assert summary.overlapped == sum(c >= 2 for c in counts)
    assert summary.fed == sum(counts) and summary.reads_per_token == sum(counts) / n
    assert window_count(n, max_length, stride) == len(windows)  # counted without building them


@settings(max_examples=200, deadline=None)
@given(text=texts, max_length=st.integers(4, 24), data=st.data())
def test_boundary_windows_share_is_a_share_too(gpt2, text, max_length, data):
    stride = data.draw(st.integers(0, max_length - 1))
    tokens = gpt2.encode(text)
    try:
        windows = boundary_windows(text, tokens, max_length, stride)
    except ValueError:
        return
    summary = summarize(windows, len(tokens))
    assert 0.0 <= summary.repeated <= 1.0
    assert summary.overlapped == sum(c >= 2 for c in coverage(windows, len(tokens)))


def test_boundary_windows_stop_at_their_bound(gpt2):
    tokens = gpt2.encode(TEXT)
    every = boundary_windows(TEXT, tokens, 8, 7)
    assert boundary_windows(TEXT, tokens, 8, 7, max_windows=len(every)) == every
    with pytest.raises(TooManyWindows, match=f"more than {len(every) - 1:,} windows") as raised:
        boundary_windows(TEXT, tokens, 8, 7, max_windows=len(every) - 1)
    assert raised.value.limit == len(every) - 1


# The plain loops these functions were before they were made fast: the oracles they must equal.


def slow_rank_at(text: str, q: int) -> int:
    a = q
    while a > 0 and text[a - 1].isspace():
        a -= 1
    b = q
    while b < len(text) and text[b].isspace():
        b += 1
    gap = text[a:b]
    if b == len(text) or re.search(r"\n[^\S\n]*\n", gap):
        return PARAGRAPH
    before = text[a - 1] if a > 0 else ""
    if before and before in SENTENCE_END and (gap or before in "。！？"):
        return SENTENCE
    return WORD if gap else TOKEN


def slow_cut_ranks(text, spans):
    starts, ends = spans
    n = len(starts)
    ranks = [PARAGRAPH] * (n + 1)
    for c in range(1, n):
        ranks[c] = NOWHERE if ends[c - 1] > starts[c] else slow_rank_at(text, starts[c])
    return ranks


def slow_boundary_windows(text, spans, max_length, stride):
    ranks = slow_cut_ranks(text, spans)
    n, windows, first = len(spans[0]), [], 0
    while first < n:
        reach = range(first + 1, min(first + max_length, n) + 1)
        stop = max(reach, key=lambda c: (ranks[c], c))
        if ranks[stop] == NOWHERE:
            raise ValueError("share characters")
        windows.append((first, stop, ranks[stop]))
        if stop == n:
            break
        back = [c for c in range(max(first + 1, stop - stride), stop + 1) if ranks[c] > NOWHERE]
        first = max(back, key=lambda c: (ranks[c], -c))
    return windows


spaced = st.text(alphabet=st.sampled_from(list("ab .!?\n\t") + ["\u3000", "\x1c", "。", "！", "中", "😀"]),
                 min_size=1, max_size=160)


@settings(max_examples=300, deadline=None)
@given(text=spaced, max_length=st.integers(1, 30), data=st.data())
def test_fast_boundary_windows_equal_the_plain_loop(gpt2, text, max_length, data):
    stride = data.draw(st.integers(0, max_length - 1))
    spans = spans_of(gpt2.encode(text))
    assert cut_ranks(text, spans) == slow_cut_ranks(text, spans)
    try:
        expected = slow_boundary_windows(text, spans, max_length, stride)
    except ValueError:
        with pytest.raises(ValueError, match="share characters"):
            boundary_windows_of(text, spans, max_length, stride)
        return
    ours = boundary_windows_of(text, spans, max_length, stride)
    assert [(w.first, w.stop, w.cut) for w in ours] == expected
