"""The Practice page's bounds: every input it takes has one, and going over says so."""

from tokenizer_core.lessons.practice import MAX_ANSWER_CHARS, MAX_SEED
from tokenizer_core.lessons.practice.guess import MAX_GUESS

__all__ = ["MAX_ANSWER_CHARS", "MAX_GUESS", "MAX_GUESS_TEXT_CHARS", "MAX_KEPT_MASKS",
           "MAX_MASK_ANSWER_CHARS", "MAX_ROUNDS", "MAX_SEED", "MAX_TINY_TEXT_CHARS"]

MAX_GUESS_TEXT_CHARS = 2_000  # your own text to guess the count of (a paragraph)
MAX_ROUNDS = 100  # revealed guesses kept for the running score (the oldest go first)
MAX_TINY_TEXT_CHARS = 300  # text tried on the tiny tokenizer (its encoder is the slow, clear one)
MAX_MASK_ANSWER_CHARS = 80  # one hidden token's answer (the longest token quoted is ~40)
MAX_KEPT_MASKS = 5  # masks whose typed answers a session keeps (the one on screen is newest)
