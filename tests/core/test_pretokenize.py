"""Pre-tokenization: tiktoken's regexes, word and line pieces with offsets."""

from __future__ import annotations

import ast
import inspect
import textwrap

import tiktoken_ext.openai_public as openai_public
from hypothesis import example, given
from hypothesis import strategies as st

from tokenizer_core import pretokenize
from tokenizer_core.pretokenize import (
    GPT2_PATTERN,
    PATTERNS,
    gpt2_chunks,
    line_pieces,
    regex_chunks,
    regex_pieces,
    word_pieces,
)


def _tiktoken_pat_str(function) -> str:
    """pat_str as written in tiktoken_ext's source (calling the function would download ranks)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    local = {}

    def value(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return value(local[node.id]) if node.id in local else getattr(openai_public, node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
            return value(node.func.value).join(value(e) for e in node.args[0].elts)
        raise AssertionError(f"unexpected node {ast.dump(node)}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            local[node.targets[0].id] = node.value  # evaluated only if pat_str uses it
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, val in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "pat_str":
                    return value(val)
    raise AssertionError("no pat_str found")


def test_patterns_are_still_tiktokens_own():
    assert _tiktoken_pat_str(openai_public.gpt2) == PATTERNS["gpt2"]
    assert _tiktoken_pat_str(openai_public.cl100k_base) == PATTERNS["cl100k_base"]
    assert _tiktoken_pat_str(openai_public.o200k_base) == PATTERNS["o200k_base"]


@given(st.text(max_size=60), st.sampled_from(sorted(PATTERNS)))
def test_regex_pieces_cover_the_text_exactly(text, name):
    pieces = regex_pieces(text, PATTERNS[name])
    assert "".join(p.text for p in pieces) == text
    position = 0
    for piece in pieces:
        assert piece.start == position and text[piece.start : piece.end] == piece.text
        position = piece.end


@given(st.text(max_size=60))
def test_word_pieces_are_str_split(text):
    pieces = word_pieces(text)
    assert [p.text for p in pieces] == text.split()
    assert all(text[p.start : p.end] == p.text for p in pieces)


@given(st.text(max_size=60))
def test_line_pieces_are_the_non_empty_lines(text):
    pieces = line_pieces(text)
    assert [p.text for p in pieces] == [line for line in text.split("\n") if line]
    assert all(text[p.start : p.end] == p.text for p in pieces)


# gpt2_chunks: ASCII stretches through `re`, the rest through `regex`, cut at safe line breaks;
# it must give regex_chunks' chunks exactly, on any text.
_gpt2_alphabet = st.sampled_from(
    list("ab Z09'sdtmlvre\n\r\t\x0b\x0c\x1c\x1f.,!-_ ") + ["\n\n", "  ", "'ll", "é", "你好", "ß",
                                                        "\u00a0", "\u3000", "\u2028", "١٢",
                                                        "😀", "\x85", "\u00b2"]
)
_gpt2_texts = st.lists(_gpt2_alphabet, max_size=60).map("".join)


@given(st.one_of(_gpt2_texts, st.text(max_size=80)), st.sampled_from([0, 3, 2_000]))
@example("a\nb\n你\nc d\n", 0)
@example("x\n" * 10 + "é" + "\ny" * 3000 + "\n你 \n", 2_000)
def test_gpt2_chunks_equal_regex_chunks(text, gap):
    # a small gap makes short texts take many ASCII stretches and islands, as long ones do
    saved, pretokenize._ISLAND_GAP = pretokenize._ISLAND_GAP, gap
    try:
        assert gpt2_chunks(text) == regex_chunks(text, GPT2_PATTERN)
    finally:
        pretokenize._ISLAND_GAP = saved


def test_gpt2_chunks_equal_regex_chunks_on_long_mixed_text():
    from tokenizer_core.samples import corpus_text, english_reference_corpus, sample_text

    texts = [english_reference_corpus(), corpus_text("chinese"), corpus_text("code"),
             corpus_text("emoji"), sample_text("mixed_default")]
    texts.append("\n".join(texts))
    for text in texts:
        assert gpt2_chunks(text) == regex_chunks(text, GPT2_PATTERN)
