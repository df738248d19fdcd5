"""The answer checker: many right and many wrong answers per kind of blank, friendly syntax
errors, bounds, and the guarantee that nothing a student types is run."""

from __future__ import annotations

import ast
import builtins
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.lessons.practice import all_exercises, check_answer, exercise, normal_form
from tokenizer_core.lessons.practice.checker import MAX_ANSWER_CHARS, WrongAnswer

COUNT = "pair_counts.get(pair, 0) + count"
RIGHT_COUNT = [
    "pair_counts.get(pair, 0) + count",
    "pair_counts.get(pair,0)+count",
    "  pair_counts.get( pair , 0 )  +  count  ",
    "(pair_counts.get(pair, 0) + count)",
    "((pair_counts.get(pair, 0)) + (count))",
    "pair_counts.get((pair), 0) + count",
    "pair_counts.get(pair, 0x0) + count",
    "pair_counts.get(pair, 00) + count",
    "pair_counts.get(\n    pair, 0\n) + count",
    "count + pair_counts.get(pair, 0)",  # listed in the data as equivalent
    "(count) + pair_counts.get(pair, 0)",
]
WRONG_COUNT = [
    "pair_counts[pair] + count",  # KeyError on a plain dict: listed as a known wrong answer
    "pair_counts.get(pair, 0) + 1",
    "pair_counts.get(pair) + count",
    "pair_counts.get(pair, 1) + count",
    "pair_counts.get(pair, 0) - count",
    "pair_counts.get(pair, 0) * count",
    "pair_counts.get(count, 0) + pair",
    "counts.get(pair, 0) + count",
    "pair_counts.get(pair, 0)",
    "count",
    "pair_counts.get(pair, 0) + count + 0",
    "pair_counts.setdefault(pair, 0) + count",
]


def blank(exercise_id: str, original: str):
    return next(b for b in exercise(exercise_id).blanks if b.original == original)


@pytest.mark.parametrize("answer", RIGHT_COUNT)
def test_right_answers_for_an_expression_blank_are_correct(answer):
    assert blank("bpe_trainer", COUNT).check(answer).correct


@pytest.mark.parametrize("answer", WRONG_COUNT)
def test_wrong_answers_for_an_expression_blank_are_not_yet(answer):
    verdict = blank("bpe_trainer", COUNT).check(answer)
    assert verdict.status == "not_yet"
    assert verdict.message.startswith("Not yet")


def test_a_listed_wrong_answer_says_why():
    verdict = blank("bpe_trainer", COUNT).check("pair_counts[pair]+count")
    assert "KeyError" in verdict.message and "defaultdict" in verdict.message


STATEMENT = "splits = [merge_pair(split, best) for split in splits]"
RIGHT_STATEMENT = [
    STATEMENT,
    "splits=[merge_pair(split,best) for split in splits]",
    "splits = [merge_pair(s, best) for s in splits]",  # the comprehension's own name
    "splits = [merge_pair(word, best) for word in splits]",
    "splits = [(merge_pair(s, best)) for (s) in (splits)]",
    "splits = [\n    merge_pair(x, best)\n    for x in splits\n]",
    "splits = list(map(lambda split: merge_pair(split, best), splits))",
    "splits = list(map(lambda w: merge_pair(w, best), splits))",  # a lambda's own name
    "splits = [merge_pair(split, best) for split in splits]  # a comment",
    "splits = [merge_pair(split, best,) for split in splits]",
]
WRONG_STATEMENT = [
    "[merge_pair(split, best) for split in splits]",
    "splits = [merge_pair(split, best) for split in split]",
    "splits = [merge_pair(s, best) for x in splits]",  # s is not the loop's name
    "splits = [merge_pair(best, split) for split in splits]",
    "splits = [merge_pair(split, pair) for split in splits]",
    "split = [merge_pair(split, best) for split in splits]",
    "splits = (merge_pair(split, best) for split in splits)",
    "splits = [merge_pair(split, best) for split in splits if split]",
    "splits += [merge_pair(split, best) for split in splits]",
    "splits = merge_pair(splits, best)",
    "splits = [merge_pair(splits, best) for split in splits]",
]


@pytest.mark.parametrize("answer", RIGHT_STATEMENT)
def test_right_answers_for_a_statement_blank_are_correct(answer):
    assert blank("bpe_trainer", STATEMENT).check(answer).correct


@pytest.mark.parametrize("answer", WRONG_STATEMENT)
def test_wrong_answers_for_a_statement_blank_are_not_yet(answer):
    assert blank("bpe_trainer", STATEMENT).check(answer).status == "not_yet"


CONDITION = "rank is not None and (best_rank is None or rank < best_rank)"
RIGHT_CONDITION = [
    CONDITION,
    "rank is not None and (best_rank is None or best_rank > rank)",  # a flipped comparison
    "not rank is None and (best_rank is None or rank < best_rank)",  # not ... is -> is not
    "not (rank is None) and (best_rank is None or rank < best_rank)",
    "(rank is not None) and ((best_rank is None) or (rank < best_rank))",
    "(rank is not None and (best_rank is None or rank < best_rank))",
    "not rank is None and (best_rank is None or best_rank > rank)",
    "rank   is not   None and(best_rank is None or rank<best_rank)",
    "rank is not None and (\n best_rank is None\n or rank < best_rank\n)",
    "rank is not None and (best_rank is None or (rank) < (best_rank))",
]
WRONG_CONDITION = [
    "rank is not None and (best_rank is None or rank <= best_rank)",
    "best_rank is None or rank < best_rank",
    "rank and (best_rank is None or rank < best_rank)",
    "rank is not None and (best_rank is None or rank > best_rank)",
    "rank is not None and best_rank is None or rank < best_rank",  # precedence: a different tree
    "rank is None and (best_rank is None or rank < best_rank)",
    "rank is not None or (best_rank is None or rank < best_rank)",
    "rank is not None and (best_rank is not None or rank < best_rank)",
    "rank != None and (best_rank is None or rank < best_rank)",
    "rank is not None and (best_rank is None and rank < best_rank)",
]


@pytest.mark.parametrize("answer", RIGHT_CONDITION)
def test_equivalent_comparisons_are_correct(answer):
    assert blank("bpe_encoder", CONDITION).check(answer).correct


@pytest.mark.parametrize("answer", WRONG_CONDITION)
def test_conditions_that_differ_are_not_yet(answer):
    assert blank("bpe_encoder", CONDITION).check(answer).status == "not_yet"


@pytest.mark.parametrize(("left", "right"), [
    ("x += 1", "x = x + 1"),
    ("total -= n", "total = total - n"),
    ("a != b", "not a == b"),
    ("a == b", "not a != b"),
    ("a == b", "b == a"),
    ("x not in seen", "not x in seen"),
    ("x is not None", "not x is None"),
    ("a >= b", "b <= a"),
    ("[f(v) for v in xs if v]", "[f(w) for w in xs if w]"),
    ("{k: v for k, v in d.items()}", "{a: b for a, b in d.items()}"),
    ("lambda p: d[p]", "lambda q: d[q]"),
    ("'utf-8'", '"utf-8"'),
    ("0x80", "128"),
])
def test_listed_equivalences_have_one_normal_form(left, right):
    mode = "statement" if "=" in left and "==" not in left and "!=" not in left \
        and ">=" not in left else "expression"
    assert normal_form(left, mode) == normal_form(right, mode)


@pytest.mark.parametrize(("left", "right"), [
    ("x.y += 1", "x.y = x.y + 1"),  # only a plain name: an attribute may be a shared object
    ("[f(x) for x in x]", "[f(y) for y in y]"),  # the first iter is the outer x, not the loop's
    ("a - b", "b - a"),
    ("a < b < c", "c > b > a"),  # chains are left alone
    ("f(x)", "f(y)"),  # free names are the code's names: never renamed
    ("a + b", "b + a"),  # not commutative for strings and lists: listed per blank instead
])
def test_non_equivalences_stay_apart(left, right):
    mode = "statement" if "+=" in left else "expression"
    assert normal_form(left, mode) != normal_form(right, mode)


def test_comprehension_renaming_keeps_the_outer_iterable():
    # x in `for x in x` reads the outer x; renaming must not turn it into the loop variable
    assert normal_form("[f(y) for y in x]", "expression") == normal_form(
        "[f(x) for x in x]", "expression")


@pytest.mark.parametrize(("answer", "line", "column"), [
    ("pair_counts.get(pair, 0 + count", 1, 16),
    ("pair_counts.get(pair, 0) + ", 1, 27),  # the end: just past the +
    ("pair_counts.get(pair 0) + count", 1, 17),
    ("a +\n+ * b", 1, 4),  # a line break ends an expression outside brackets
    ("(a +\n+ * b)", 2, 3),
])
def test_a_syntax_error_points_at_line_and_column(answer, line, column):
    verdict = check_answer(answer, "expression", [COUNT])
    assert verdict.status == "syntax_error"
    assert (verdict.line, verdict.column) == (line, column)
    assert f"line {line}, column {column}" in verdict.message
    assert verdict.message.splitlines()[-1] == " " * (column - 1) + "^"


def test_a_statement_in_an_expression_blank_is_a_clear_syntax_error():
    verdict = check_answer("x = 1", "expression", ["x == 1"])
    assert verdict.status == "syntax_error"
    assert "expression" in verdict.message


def test_empty_and_too_long_answers_are_refused_without_parsing():
    assert check_answer("   ", "expression", [COUNT]).status == "empty"
    long_answer = "a + " * (MAX_ANSWER_CHARS // 4 + 1) + "a"
    assert check_answer(long_answer, "expression", [COUNT]).status == "too_long"


@pytest.mark.parametrize("answer", ["(" * 1000, "-" * 390 + "1", "\x00", "a \x00 b", "'\ud800'"])
def test_hostile_answers_get_a_verdict_not_a_crash(answer):
    verdict = check_answer(answer, "expression", [COUNT])
    assert verdict.status in ("syntax_error", "not_yet", "too_long")


@pytest.fixture
def no_running(monkeypatch):
    """Make every way of running code fail the test, for the duration of a check."""
    real_compile = builtins.compile

    def refuse(*args, **kwargs):
        raise AssertionError("the checker tried to run code")

    def parse_only(source, filename, mode, flags=0, *args, **kwargs):
        # ast.parse is compile(..., flags=PyCF_ONLY_AST): a tree, no code object
        if not flags & ast.PyCF_ONLY_AST:
            raise AssertionError("the checker tried to compile code")
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    for name in ("eval", "exec"):
        monkeypatch.setattr(builtins, name, refuse)
    monkeypatch.setattr(builtins, "compile", parse_only)
    monkeypatch.setattr(os, "system", refuse)


def test_nothing_the_student_types_is_run(tmp_path: Path):
    marker = tmp_path / "ran"
    payloads = [
        f"__import__('os').system('touch {marker}')",
        f"open('{marker}', 'w').write('x')",
        f"exec(\"open('{marker}', 'w')\")",
        f"(lambda: __import__('pathlib').Path('{marker}').touch())()",
        f"[__import__('os').system('touch {marker}') for _ in range(3)]",
    ]
    for payload in payloads:
        for mode in ("expression", "statement"):
            verdict = check_answer(payload, mode, [COUNT],  # type: ignore[arg-type]
                                   [WrongAnswer(payload.replace("ran", "nope"), "no")])
            assert verdict.status == "not_yet"
    statement = f"import os; os.system('touch {marker}')"
    assert check_answer(statement, "statement", ["x = 1"]).status == "not_yet"
    assert not marker.exists()


def test_checking_needs_no_eval_exec_or_compile(no_running):
    # the real check, with eval/exec and compiling to code replaced by traps
    counting = blank("bpe_trainer", COUNT)
    assert counting.check("count + pair_counts.get(pair, 0)").correct
    assert counting.check("pair_counts[pair] + count").status == "not_yet"
    assert counting.check("__import__('os').system('id')").status == "not_yet"
    assert counting.check("pair_counts.get(pair, 0 + count").status == "syntax_error"


def _tokens(code: str) -> list[str]:
    import io
    import tokenize
    skip = (tokenize.ENCODING, tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)
    return [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in skip]


ALL_BLANKS = [(ex.id, n, b) for ex in all_exercises() for n, b in enumerate(ex.blanks, start=1)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL_BLANKS), st.data())
def test_any_spacing_and_extra_parentheses_keep_every_answer_correct(item, data):
    _, _, blank = item
    for answer in (blank.original, *blank.accepted):
        tokens = _tokens(answer)
        gaps = data.draw(st.lists(st.sampled_from([" ", "  ", "\t", "   "]),
                                  min_size=len(tokens), max_size=len(tokens)))
        spaced = "".join(g + t for g, t in zip(gaps, tokens))
        if blank.mode == "expression" and data.draw(st.booleans()):
            spaced = f"( {spaced} )"
        assert blank.check(spaced).correct, spaced
