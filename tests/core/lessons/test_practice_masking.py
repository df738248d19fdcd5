"""Random masking: whole tokens only, never in comments, strings' insides or docstrings; the
count is round(share x possible); the same seed gives the same mask."""

from __future__ import annotations

import ast
import keyword
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.lessons.practice import all_exercises, quoted_code
from tokenizer_core.lessons.practice.masking import (
    MAX_SEED,
    SHARES,
    check_token,
    choose_hidden,
    hidden_count,
    mask_code,
    mask_slots,
)

NAMES = st.sampled_from(["a", "b", "count", "pair", "x1", "_y", "merges"])
OPS = st.sampled_from(["+", "-", "*", "//", "%", "<", "==", "!=", ">="])
NUMBERS = st.sampled_from(["0", "1", "42", "0x80", "3.5"])
WORDS = st.lists(st.sampled_from(["a", "+", "count", "=", "1", "pair", "#", "'", "x1 < 2"]),
                 max_size=6).map(" ".join)


@st.composite
def statements(draw) -> str:
    kind = draw(st.integers(0, 3))
    target, left, right = draw(NAMES), draw(NAMES), draw(NAMES)
    if kind == 0:
        line = f"{target} = {left} {draw(OPS)} {draw(NUMBERS)}"
    elif kind == 1:
        text = draw(WORDS).replace("\\", "").replace('"', "")
        line = f'{target} = "{text}" + {right}'
    elif kind == 2:
        line = f"{target} += {left}[{draw(NUMBERS)}]"
    else:
        line = f"if {left} {draw(OPS)} {right}:\n        {target} = {draw(NUMBERS)}"
    if draw(st.booleans()):
        line += f"  # {draw(WORDS)}"
    return line


@st.composite
def functions(draw) -> str:
    body = draw(st.lists(statements(), min_size=1, max_size=8))
    doc = draw(st.booleans())
    lines = ["def f(a, b):"]
    if doc:
        lines.append('    """Docstring with count + pair = 1."""')
    lines += [f"    {s}" for s in body]
    lines.append("    return a")
    return "\n".join(lines) + "\n"


def _spans(code: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Independent of tokenize: comment spans by scanning each line outside quotes, and every
    string literal's span from the syntax tree."""
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    strings = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append((offsets[node.lineno - 1] + node.col_offset,
                            offsets[node.end_lineno - 1] + node.end_col_offset))  # type: ignore
    comments = []
    for n, line in enumerate(code.splitlines(keepends=True)):
        quote = None
        for i, ch in enumerate(line):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                comments.append((offsets[n] + i, offsets[n] + len(line)))
                break
    return comments, strings


@settings(max_examples=150, deadline=None)
@given(functions())
def test_slots_are_whole_tokens_outside_comments_and_strings(code):
    comments, strings = _spans(code)
    for slot in mask_slots(code):
        assert code[slot.start:slot.end] == slot.text
        assert not any(a <= slot.start < b for a, b in comments), slot
        inside = [(a, b) for a, b in strings if a <= slot.start < b]
        if inside:  # only a whole string literal, quotes and all, is a slot
            assert slot.kind == "literal" and [(slot.start, slot.end)] == inside
        if slot.kind == "identifier":
            assert slot.text.isidentifier() and not keyword.iskeyword(slot.text)
        assert slot.text not in ("def", "return", "if", "f", "(", ")", ",", ":")
        assert slot.start > code.index(":\n")  # never in the signature line
    docstring = '"""Docstring with count + pair = 1."""'
    assert all(s.text != docstring for s in mask_slots(code))


@settings(max_examples=150, deadline=None)
@given(functions(), st.sampled_from(SHARES), st.integers(0, MAX_SEED))
def test_mask_count_seed_and_round_trip(code, share, seed):
    mask = mask_code(code, share, seed)
    possible = len(mask.slots)
    exact = Fraction(possible * share, 100)
    assert len(mask.hidden) == int(exact + Fraction(1, 2))  # round, halves up
    assert mask_code(code, share, seed) == mask  # same seed, same mask
    shown = mask.code
    for n, slot in enumerate(mask.hidden, start=1):
        assert shown.count(f"__{n}__") == 1
    for n, slot in reversed(list(enumerate(mask.hidden, start=1))):
        shown = shown.replace(f"__{n}__", slot.text)
    assert shown == code
    starts = [s.start for s in mask.hidden]
    assert starts == sorted(starts)  # blank 1 is the first in reading order


def test_the_count_of_the_issue_s_example():
    # "97 blanks possible, 15 hidden": 15% of 97 is 14.55
    assert hidden_count(97, 15) == 15
    assert hidden_count(97, 10) == 10  # 9.7
    assert hidden_count(10, 15) == 2  # 1.5 rounds up
    assert hidden_count(0, 50) == 0
    with pytest.raises(ValueError, match="choose one of"):
        hidden_count(97, 25)


def test_different_seeds_give_different_masks_and_seeds_are_bounded():
    code = quoted_code(all_exercises()[0])
    masks = {tuple(choose_hidden(len(mask_slots(code)), 30, seed)) for seed in range(20)}
    assert len(masks) == 20
    with pytest.raises(ValueError, match="seed"):
        choose_hidden(10, 10, MAX_SEED + 1)


def test_the_exercises_code_has_slots_of_every_kind():
    for ex in all_exercises():
        kinds = {s.kind for s in mask_slots(quoted_code(ex))}
        assert kinds == {"identifier", "literal", "operator"}, ex.id


def test_keywords_brackets_signatures_and_annotations_are_never_slots():
    code = ('def count_pairs(splits: list, n: int = 0) -> dict:\n    """Doc."""\n'
            '    total: dict[str, int] = {}\n'
            '    for s in splits:\n        n += len(s) * 2  # count + pair\n'
            '    return {"k": n, "f": lambda x: x}\n')
    texts = [s.text for s in mask_slots(code)]
    assert texts == ["total", "=", "s", "splits", "n", "+=", "len", "s", "*", "2", '"k"', "n",
                     '"f"', "x", "x"]


def test_checking_a_masked_token():
    code = 'x = y + 0x80\nz = "utf-8"\nw = None\n'
    slots = {s.text: s for s in mask_slots(code)}
    assert check_token(" + ", slots["+"]) and not check_token("-", slots["+"])
    assert check_token("y", slots["y"]) and not check_token("Y", slots["y"])
    assert check_token("0x80", slots["0x80"]) and check_token("128", slots["0x80"])
    assert not check_token("0x81", slots["0x80"]) and not check_token("", slots["0x80"])
    assert check_token("'utf-8'", slots['"utf-8"']) and not check_token("utf-8", slots['"utf-8"'])
    assert check_token("None", slots["None"]) and not check_token("0", slots["None"])
    assert not check_token("__import__('os').system('x')", slots["0x80"])
