"""Guess the token count: one point fewer for each 5% off (or part of it), relative to the true
count, and the words of the rule match the points."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core.lessons.practice import guess_texts, score_guess, scoring_rule


@pytest.mark.parametrize(("guess", "count", "points"), [
    (20, 20, 10),  # exact
    (21, 20, 9),  # 5% off exactly: still within 5%
    (19, 20, 9),
    (101, 100, 9),  # 1% off
    (104, 100, 9),
    (106, 100, 8),
    (110, 100, 8),  # 10%: within 10%
    (111, 100, 7),  # 11%: the audit's case, past 10%
    (145, 100, 1),  # 45%
    (146, 100, 0),
    (0, 7, 0),
    (1000, 3, 0),
])
def test_points_by_hand(guess, count, points):
    assert score_guess(guess, count).points == points


@given(st.integers(1, 5_000), st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_closer_guess_never_scores_less(count, a, b):
    closer, farther = sorted((a, b), key=lambda g: abs(g - count))
    assert score_guess(closer, count).points >= score_guess(farther, count).points
    assert 0 <= score_guess(a, count).points <= 10


def test_the_summary_says_direction_and_count():
    assert "too high" in score_guess(12, 10).summary() and "10 tokens" not in score_guess(
        12, 10).summary()
    assert "the count is 10" in score_guess(8, 10).summary() and "too low" in score_guess(
        8, 10).summary()
    assert score_guess(10, 10).summary().startswith("Exactly right")


def test_bad_guesses_and_counts_say_why():
    with pytest.raises(ValueError, match="no tokens"):
        score_guess(3, 0)
    with pytest.raises(ValueError, match="whole number"):
        score_guess(-1, 5)


def test_the_built_in_series_is_short_varied_text():
    texts = guess_texts()
    assert 5 <= len(texts) <= 10
    assert len({t.id for t in texts}) == len(texts)
    assert all(0 < len(t.text) <= 200 for t in texts)
    assert any("你" in t.text or "我" in t.text for t in texts)


def rule_from_words(rule: str):
    """The points the stated rule gives, read from its words alone (not from the code)."""
    top = int(re.search(r"(\d+) points for the exact count", rule).group(1))
    step = int(re.search(r"one point fewer for each (\d+)% off or part of it", rule).group(1))
    return lambda guess, count: max(0, top - math.ceil(Fraction(abs(guess - count) * 100,
                                                                 count * step)))


@pytest.mark.parametrize(("guess", "count"), [
    (100, 100), (101, 100), (105, 100), (106, 100), (110, 100), (111, 100), (115, 100),
    (89, 100), (145, 100), (146, 100), (7, 20), (21, 20), (3, 6), (9, 6), (1, 1), (2, 1),
    (333, 1000), (1051, 1000),
])
def test_the_stated_rule_gives_the_points(guess, count):
    rule = scoring_rule()
    assert rule_from_words(rule)(guess, count) == score_guess(guess, count).points, rule
    # and its examples: "9 within 5%, 8 within 10%, 7 within 15%"
    for points, percent in re.findall(r"(\d+) within (\d+)%", rule):
        assert score_guess(100 + int(percent), 100).points == int(points)
        assert score_guess(101 + int(percent), 100).points == int(points) - 1
