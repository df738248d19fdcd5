"""The lesson's "0 means unset" Viterbi, run beside ours: the same answer wherever every position
is reachable, and a walk that breaks on an unreachable one (checked against the oracle copy of
the lesson's code in tests/core/models/test_unigram.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.models.test_unigram import ALPHABET, TABLE, lesson_viterbi_segment
from tokenizer_core.lessons.viterbi_shortcut import compare_shortcut, lesson_viterbi
from tokenizer_core.models.unigram import UnigramModel

LOG_TABLE = {p: math.log(q) for p, q in TABLE.items()}
MODEL = UnigramModel(list(LOG_TABLE.items()), level="sentence")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET + "xz", min_size=1, max_size=20))
def test_matches_the_lessons_code_or_breaks_where_it_fails(text):
    run = lesson_viterbi(text, LOG_TABLE)
    try:
        score, tokens = lesson_viterbi_segment(text, TABLE)
    except TypeError:  # the lesson's walk met back[i] = None
        assert run.pieces is None and run.back[run.broken_at] is None
        return
    assert run.pieces == tuple(tokens) and run.dp[-1] == pytest.approx(score)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=20))
def test_agrees_with_ours_when_every_character_is_a_piece(text):
    note = compare_shortcut(MODEL, text)
    assert note.agreement in ("same", "differs")
    assert sum(LOG_TABLE[p] for p in note.lesson.pieces) == pytest.approx(
        MODEL.viterbi(text).score)


def test_unseen_character_breaks_the_shortcut_and_ours_uses_unk():
    note = compare_shortcut(MODEL, "unxable")
    assert note.agreement == "breaks"
    assert 3 in note.lesson.phantoms and note.lesson.dp[3] == 0.0  # "unx" unreachable: dp 0
    assert "<unk>" in note.ours


def test_probability_one_piece_makes_the_shortcut_differ():
    model = UnigramModel([("ab", 0.0), ("a", math.log(0.5)), ("b", math.log(0.5))])
    note = compare_shortcut(model, "ab")
    assert note.agreement == "differs"
    assert note.lesson.pieces == ("a", "b") and note.ours == ("ab",)
