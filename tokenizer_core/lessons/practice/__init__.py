"""Practice: fill-in-the-blank exercises on this project's own code, random masking, and
guess-the-token-count. Answers are parsed and compared, never run."""

from .checker import MAX_ANSWER_CHARS, Verdict, WrongAnswer, check_answer, normal_form
from .exercises import (
    Blank,
    Exercise,
    all_exercises,
    blank_spans,
    exercise,
    quoted_code,
    with_markers,
)
from .guess import (
    SCORING_RULE,
    GuessScore,
    GuessText,
    guess_texts,
    score_guess,
    scoring_rule,
    scoring_values,
)
from .masking import MAX_SEED, SHARES, Mask, Slot, check_token, hidden_count, mask_code, mask_slots

__all__ = [
    "MAX_ANSWER_CHARS", "MAX_SEED", "SCORING_RULE", "SHARES", "Blank", "Exercise", "GuessScore",
    "GuessText", "Mask", "Slot", "Verdict", "WrongAnswer", "blank_spans", "check_answer", "check_token",
    "all_exercises", "exercise", "guess_texts", "hidden_count", "mask_code", "mask_slots",
    "normal_form", "quoted_code", "score_guess", "scoring_rule",
    "scoring_values", "with_markers",
]
