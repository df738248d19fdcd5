"""Guess the token count: how far off a guess is, in points a class can add up.

A guess is scored by its relative error, |guess - count| / count: 10 points for the exact count,
then one point fewer for each 5% off or part of 5% (9 within 5%, 8 within 10%, so 11% off is
7), and 0 past 45%. Relative, not absolute, so being 3 off on a 6-token emoji counts as much as
being 50 off on a paragraph. `scoring_rule()` says this in words from the same constants, so
the page's caption and the points cannot drift apart.

The texts of a series are data/practice/guess_texts.json: short, each chosen because tokenizers
disagree on it (numbers, Chinese, emoji, code, a long rare word, plain English).

Leaves out: counting (the page runs the real tokenizers) and keeping the score (per session, in
the page).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from ...messages import N_
from ...samples import DATA_DIR, MAX_DATA_FILE_BYTES

GUESS_TEXTS_FILE = DATA_DIR / "practice" / "guess_texts.json"
MAX_POINTS = 10
PERCENT_PER_POINT = 5
MAX_GUESS = 1_000_000  # a guess above this is not a guess


@dataclass(frozen=True)
class GuessText:
    id: str
    label: str
    text: str


@dataclass(frozen=True)
class GuessScore:
    guess: int
    count: int
    points: int
    off: int  # guess - count: negative when the guess was too low
    percent_off: float  # |guess - count| / count, in percent

    def summary(self) -> str:
        if self.off == 0:
            return f"Exactly right: {self.count:,} tokens. {self.points} points."
        direction = "too high" if self.off > 0 else "too low"
        return (f"{abs(self.off):,} {direction} ({self.percent_off:.0f}% off): the count is "
                f"{self.count:,}: {self.points} point{'s' if self.points != 1 else ''}.")


def score_guess(guess: int, count: int) -> GuessScore:
    """Points for guessing `guess` when the tokenizer gave `count` tokens (count >= 1)."""
    if count < 1:
        raise ValueError("there is nothing to guess: the text has no tokens")
    if not 0 <= guess <= MAX_GUESS:
        raise ValueError(f"a guess is a whole number from 0 to {MAX_GUESS:,}, got {guess}")
    off = guess - count
    step = count * PERCENT_PER_POINT  # |off| * 100 / step is the number of 5% steps off
    # subtle: integer ceiling, so 5% off exactly is 9 points and 5.01% is 8 on every machine
    lost = -(-abs(off) * 100 // step)
    points = max(0, MAX_POINTS - lost)
    return GuessScore(guess, count, points, off, abs(off) * 100 / count)


SCORING_RULE = N_("{most} points for the exact count, then one point fewer for each {step}% off "
                  "or part of it: {one_less} within {step}%, {two_less} within {step2}%, "
                  "{three_less} within {step3}%, and 0 past {last}%.")


def scoring_values() -> dict[str, int]:
    """The numbers of SCORING_RULE, from the constants `score_guess` uses."""
    step = PERCENT_PER_POINT
    return {"most": MAX_POINTS, "step": step, "one_less": MAX_POINTS - 1,
            "two_less": MAX_POINTS - 2, "step2": 2 * step, "three_less": MAX_POINTS - 3,
            "step3": 3 * step, "last": (MAX_POINTS - 1) * step}


def scoring_rule() -> str:
    """The scoring rule as the page states it (in English; the page translates SCORING_RULE)."""
    return SCORING_RULE.format_map(scoring_values())


@cache
def guess_texts() -> tuple[GuessText, ...]:
    """The built-in series, in order (read once; never changed)."""
    raw = GUESS_TEXTS_FILE.read_bytes()
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise ValueError(f"{GUESS_TEXTS_FILE} is over {MAX_DATA_FILE_BYTES:,} bytes")
    data = json.loads(raw.decode("utf-8"))
    return tuple(GuessText(str(t["id"]), str(t["label"]), str(t["text"])) for t in data["texts"])
