"""Narration: the exact sentences the lessons say, written the way the textbooks write them."""

from __future__ import annotations

import math

from tokenizer_core.lessons.narration import (
    amount,
    label_text,
    listing,
    narrate_merge,
    narrate_start,
    pair_text,
    score_formula,
    where_first_met,
    why_winner,
    why_wordpiece,
)


def test_pairs_are_written_like_the_lessons():
    assert pair_text(("e", "s")) == "('e','s')"
    assert pair_text(("h", "e ")) == "('h','e ')"
    assert pair_text(("est", "</w>")) == "('est','</w>')"
    assert pair_text((b"\xe4", b"\xbd")) == "('<E4>','<BD>')"  # stray bytes as hex, never U+FFFD
    assert pair_text((b" t", b"o")) == "(' t','o')"
    assert pair_text((b"\xe4\xbd\xa0", b"\xe5")) == "('你','<E5>')"


def test_characters_that_draw_nothing_are_named():
    assert pair_text((b"\xef\xb8\x8f", b"\xe2")) == "('<U+FE0F>','<E2>')"  # VS16 alone, then a stray byte
    assert pair_text(("\u200d", "x")) == "('<U+200D>','x')"  # ZWJ
    assert pair_text(("e\u0301", "x")) == "('e\u0301','x')"  # a mark on a letter stays as it is


def test_the_textbook_sentence_for_the_first_merge():
    places = [("newest", 1, 6), ("widest", 1, 3)]
    assert narrate_merge(("e", "s"), 9, places, "word") == (
        "('e','s') appears in newest (6) and widest (3): 9 times"
    )


def test_long_lists_are_cut_and_counted():
    places = [(f"line {i}", 1, 1) for i in range(7)]
    sentence = narrate_merge(("t", "h"), 7, places, "sentence")
    assert sentence == "('t','h') appears in 'line 0' (1), 'line 1' (1), 'line 2' (1) and 4 more lines: 7 times"
    four = narrate_merge(("a", "b"), 4, [(w, 1, 1) for w in "wxyz"], "word")
    assert four == "('a','b') appears in w (1), x (1), y (1) and z (1): 4 times"  # never "and 1 more"


def test_amounts_and_labels():
    assert amount(1, 6) == "6"
    assert amount(2, 1) == "2"
    assert amount(2, 5) == "2×5"
    assert amount(1, 2499) == "2,499"
    assert label_text("newest", "word") == "newest"
    assert label_text(" the", "byte") == "' the'"
    assert label_text("x" * 40, "sentence") == repr("x" * 27 + "…")
    assert listing(["a"]) == "a" and listing(["a", "b", "c"]) == "a, b and c"


def test_why_lines_say_the_rule_in_plain_words():
    clear = why_winner(("est", "</w>"), 9, [], 1, "first", (("l", "o"), 7))
    assert clear == "('est','</w>') has the highest count, 9; the next best, ('l','o'), has 7."
    first = why_winner(("e", "s"), 9, [("s", "t"), ("t", "</w>")], 3, "first", (("w", "e"), 8),
                       "in newest it comes before ('s','t')")
    assert first.startswith("Tie: 3 pairs have 9 (also ('s','t') and ('t','</w>')).")
    assert "met first when reading the corpus" in first
    assert first.endswith("('e','s') wins: in newest it comes before ('s','t').")
    lexical = why_winner(("h", "e "), 10, [("t", "h")], 2, "lexical", None)
    assert "alphabetically smallest" in lexical and lexical.endswith("('h','e ') comes first.")
    assert why_winner(("a", "b"), 1, [], 1, "first", None) == "('a','b') is the only pair left, so it is merged."


def test_where_first_met_names_the_entry():
    labels = ["hug", "pug", "pun", "bun"]
    assert where_first_met((0, 1), ("g", "</w>"), (0, 2), labels, "word") == (
        "in hug it comes before ('g','</w>')"
    )
    assert where_first_met((0, 1), ("u", "n"), (2, 1), labels, "word") == (
        "it is met first, in hug; ('u','n') first appears in pun"
    )


def test_start_and_wordpiece_sentences():
    assert narrate_start("word", 4, 16, 11, 95) == (
        "Before any merge: 4 distinct words (16 in all), each word split into characters and "
        "ended with '</w>': 95 tokens from an alphabet of 11."
    )
    assert why_wordpiece(("i", "d"), 1 / 3, 3, 3, 3).startswith("('i','d') scores 3 / (3 × 3) = 0.3333")


# WordPiece's two scores, each with its own arithmetic (issue 9, item 11), worked by hand:
# low lower newest widest (5, 2, 6, 3), `</w>`-split: N = 5*4 + 2*6 + 6*7 + 3*7 = 95 symbols;
#   s 9 (newest, widest), t 9, (s,t) 9: ratio 9 / (9*9) = 0.1111;
#   likelihood 9 * ln(9 * 95 / (9 * 9)) = 9 ln(10.556) = 21.21.
# hug pug pun bun, `</w>`-split: N = 16; (u,g) 2, u 4, g 2: likelihood 2 * ln(2*16 / (4*2))
#   = 2 ln 4 = 2.773 (tests/core/lessons/test_bpe_vs_wordpiece.py works the whole table).
def test_each_wordpiece_score_is_told_with_its_own_formula():
    assert score_formula("ratio", 9, 9, 9, 95) == "9 / (9 × 9)"
    assert score_formula("likelihood", 9, 9, 9, 95) == "9 × ln(9 × 95 / (9 × 9))"
    assert score_formula("likelihood", 2, 4, 2, 16, compact=True) == "2·ln(2·16/(4·2))"
    likelihood = why_wordpiece(("s", "t"), 9 * math.log(95 / 9), 9, 9, 9, "likelihood", 95)
    assert likelihood.startswith("('s','t') scores 9 × ln(9 × 95 / (9 × 9)) = 21.21")
    assert "N = 95" in likelihood and "scores 9 / (9 × 9)" not in likelihood
    hug = why_wordpiece(("u", "g"), 2 * math.log(4), 2, 4, 2, "likelihood", 16)
    assert hug.startswith("('u','g') scores 2 × ln(2 × 16 / (4 × 2)) = 2.773")
    ratio = why_wordpiece(("s", "t"), 1 / 9, 9, 9, 9, "ratio", 95)
    assert ratio.startswith("('s','t') scores 9 / (9 × 9) = 0.1111")
    assert "ln" not in ratio
