"""The exercises data file stays in step with the code it quotes, and its answers are right.

The sha256 test is the staleness alarm: change a quoted function and this fails until
data/practice/exercises.json is updated (new sha256, blanks still found where they were)."""

from __future__ import annotations

import ast
import io
import json
import random
import tokenize
from dataclasses import replace

import pytest

from tokenizer_core.lessons.practice import all_exercises, exercise
from tokenizer_core.lessons.practice.exercises import (
    EXERCISES_FILE,
    Source,
    blank_spans,
    code_sha256,
    quoted_code,
    with_markers,
)

EXERCISES = all_exercises()
IDS = [e.id for e in EXERCISES]


def test_five_exercises_quote_the_project_s_own_code():
    assert IDS == ["bpe_trainer", "bpe_encoder", "wordpiece_score", "utf8_bytes", "tiny_tokenizer"]
    modules = {e.id: {s.module for s in e.sources} for e in EXERCISES}
    assert modules["bpe_trainer"] == {"tokenizer_core.trainers.textbook"}
    assert modules["bpe_encoder"] == {"tokenizer_core.models.merge"}
    assert modules["wordpiece_score"] == {"tokenizer_core.trainers.wordpiece"}
    assert "tokenizer_core.measure.byte_ruler" in modules["utf8_bytes"]
    assert modules["tiny_tokenizer"] == {"tokenizer_core.lessons.tiny_tokenizer"}


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_the_quoted_code_is_the_code_the_exercise_was_written_for(ex):
    code = quoted_code(ex)
    assert code_sha256(code) == ex.sha256, (
        f"the code exercise {ex.id!r} quotes has changed: check its blanks in "
        f"{EXERCISES_FILE.name} still make sense, then set its sha256 to {code_sha256(code)}")


def _token_bounds(code: str) -> tuple[set[int], set[int], list[tuple[int, int]]]:
    """Offsets where tokens start and end, and the spans of comments."""
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    starts, ends, comments = set(), set(), []
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        a = offsets[tok.start[0] - 1] + tok.start[1]
        b = offsets[tok.end[0] - 1] + tok.end[1]
        if tok.type == tokenize.COMMENT:
            comments.append((a, b))
        starts.add(a)
        ends.add(b)
    return starts, ends, comments


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_each_blank_is_whole_code_at_its_place(ex):
    code = quoted_code(ex)
    starts, ends, comments = _token_bounds(code)
    spans = blank_spans(ex, code)
    for blank, (start, end) in zip(ex.blanks, spans):
        assert code[start:end] == blank.original
        assert start in starts and end in ends, blank.original  # whole tokens
        assert not any(a <= start < b for a, b in comments), blank.original
        blank.check(blank.original)  # parses in its mode
        assert blank.check(blank.original).correct
    assert 3 <= len(ex.blanks) <= 6


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_the_code_with_markers_hides_exactly_the_blanks(ex):
    code = quoted_code(ex)
    shown = with_markers(code, blank_spans(ex, code))
    for n, blank in enumerate(ex.blanks, start=1):
        assert shown.count(f"__{n}__") == 1
    # putting the answers back gives the quoted code
    for n, blank in enumerate(ex.blanks, start=1):
        shown = shown.replace(f"__{n}__", blank.original)
    assert shown == code


def test_a_changed_quote_is_caught():
    ex = exercise("bpe_trainer")
    other = replace(ex, sources=(Source("tokenizer_core.trainers.textbook", "merge_pair"),))
    assert code_sha256(quoted_code(other)) != ex.sha256
    with pytest.raises(ValueError, match="not in the quoted code any more"):
        blank_spans(other, quoted_code(other))


def test_only_this_project_s_code_can_be_quoted():
    ex = replace(exercise("bpe_trainer"), sources=(Source("os", "system"),))
    with pytest.raises(ValueError, match="only tokenizer_core"):
        quoted_code(ex)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_listed_answers_parse_and_wrong_answers_are_not_accepted(ex):
    for blank in ex.blanks:
        assert blank.hint.strip()
        for answer in blank.accepted:
            assert blank.check(answer).correct, answer
        for wrong in blank.wrong:
            verdict = blank.check(wrong.answer)
            assert verdict.status == "not_yet" and wrong.why in verdict.message, wrong.answer


def test_the_data_file_is_valid_json_with_a_version():
    data = json.loads(EXERCISES_FILE.read_text(encoding="utf-8"))
    assert data["version"] == 1 and len(data["exercises"]) == 5


# --- the accepted answers are really right: evaluate OUR data's answers (never a student's)
# against the original on sample values, in the context the blank sits in.


def _agree(ex_id: str, original: str, envs: list[dict]) -> None:
    blank = next(b for b in exercise(ex_id).blanks if b.original == original)
    looped = "iterated" in blank.equivalences  # only looped over: compare what a loop sees
    for env in envs:
        want = eval(compile(ast.parse(original, mode="eval"), "<original>", "eval"), dict(env))
        for answer in blank.accepted:
            got = eval(compile(ast.parse(answer, mode="eval"), "<answer>", "eval"), dict(env))
            if looped:
                got, want = list(got), list(want)
            assert got == want, (answer, env)


def test_accepted_byte_tests_agree_on_every_byte():
    import bisect
    import math
    _agree("utf8_bytes", "b < 0x80", [{"b": b} for b in range(256)])
    _agree("utf8_bytes", "b < 0xC0", [{"b": b} for b in range(0x80, 256)])  # ASCII handled
    chars = ["a", " ", "é", "你", "😀", "\u200d", "\U0010ffff"]
    _agree("utf8_bytes", 'len(ch.encode("utf-8"))', [{"ch": c} for c in chars])

    class Starts:
        char_byte_starts = [0, 1, 4, 8, 9]
    _agree("utf8_bytes", "bisect.bisect_right(self.char_byte_starts, byte_offset) - 1",
           [{"bisect": bisect, "self": Starts, "byte_offset": o} for o in range(9)])
    rng = random.Random(7)
    envs = [{"math": math, "count_ab": rng.randint(1, 50), "count_a": rng.randint(50, 500),
             "count_b": rng.randint(50, 500), "total": rng.randint(1000, 5000)} for _ in range(200)]
    _agree("wordpiece_score", "count_ab / (count_a * count_b)", envs)
    _agree("wordpiece_score", "count_ab * math.log(count_ab * total / (count_a * count_b))", envs)


def test_accepted_loop_pieces_agree():
    rng = random.Random(3)
    splits = [[rng.choice("abc") for _ in range(rng.randint(0, 6))] for _ in range(50)]
    _agree("bpe_trainer", "zip(split, split[1:])", [{"split": s, "zip": lambda *a: list(zip(*a))}
                                                    for s in splits])
    _agree("bpe_encoder", "range(len(current) - 1)",
           [{"current": s, "range": lambda *a: list(range(*a))} for s in splits])
    rankeds = [[(rng.randint(0, 5), i) for i in range(rng.randint(1, 6))] for _ in range(50)]
    _agree("tiny_tokenizer", "min(ranked)", [{"ranked": r} for r in rankeds])
    counts = [{(rng.choice("ab"), rng.choice("ab")): rng.randint(1, 4) for _ in range(5)}
              for _ in range(50)]
    _agree("bpe_trainer", "max(pair_counts, key=pair_counts.get)",
           [{"pair_counts": c} for c in counts])

    class Specials:
        special_ids = {"<|end|>": 1, "<|endoftext|>": 2, "<s>": 3}
    _agree("tiny_tokenizer", "sorted(self.special_ids, key=len, reverse=True)",
           [{"self": Specials}])
