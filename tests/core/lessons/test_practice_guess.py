"""Guess the token count: points fall by one per 5% off, relative to the true count."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core.lessons.practice import guess_texts, score_guess


@pytest.mark.parametrize(("guess", "count", "points"), [
    (20, 20, 10),  # exact
    (21, 20, 8),  # 5% off exactly: the second band
    (19, 20, 8),
    (101, 100, 9),  # 1% off
    (104, 100, 9),
    (110, 100, 7),  # 10%
    (145, 100, 0),  # 45%
    (144, 100, 1),
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
