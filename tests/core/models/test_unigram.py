"""Unigram encoding: Viterbi (fast and textbook), the lesson's own viterbi_segment as an oracle,
the lattice, n-best, sampling, unknown characters, offsets and the model file."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.interface import Tokenizer
from tokenizer_core.models.unigram import (
    UNK_TOKEN,
    UnigramModel,
    unigram_from_json,
    viterbi_textbook,
)

# A fixed piece table of our own (probabilities, as the lesson writes them): every character is
# in it, so every position of a text over its alphabet can be reached.
TABLE = {
    "u": 0.03, "n": 0.05, "b": 0.02, "e": 0.08, "l": 0.04, "i": 0.05, "v": 0.01, "a": 0.06,
    "un": 0.04, "be": 0.03, "lie": 0.02, "believ": 0.015, "able": 0.03, "ab": 0.02, "le": 0.03,
    "unbeliev": 0.0001, "vable": 0.005, "ev": 0.01, "li": 0.02, "bel": 0.01,
}  # fmt: skip
ALPHABET = "unbelivable"  # the characters of the table (repeats do not matter to st.text)


def lesson_viterbi_segment(text: str, token_probs: dict[str, float]) -> tuple[float, list[str]]:
    """The lesson's viterbi_segment, as the issue describes it (our own copy, the oracle).

    dp starts as n+1 zeros and back as n+1 None; a score is taken when `score > dp[i] or
    dp[i] == 0`; then it walks back from n. Returns (dp[n], tokens).
    """
    n = len(text)
    dp = [0.0] * (n + 1)
    back: list[int | None] = [None] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            token = text[j:i]
            if token in token_probs:
                score = dp[j] + math.log(token_probs[token])
                if score > dp[i] or dp[i] == 0:
                    dp[i] = score
                    back[i] = j
    tokens = []
    i: int | None = n
    while i > 0:  # type: ignore[operator]
        j = back[i]  # type: ignore[index]
        tokens.append(text[j:i])
        i = j
    return dp[n], tokens[::-1]


def model_of(table: dict[str, float], level: str = "sentence") -> UnigramModel:
    return UnigramModel([(p, math.log(q)) for p, q in table.items()], level=level)


MODEL = model_of(TABLE)


def score_of(pieces: list[str], table: dict[str, float]) -> float:
    return sum(math.log(table[p]) for p in pieces)


def all_segmentations(text: str, table: dict[str, float]) -> list[list[str]]:
    """Every way to cut text into pieces of the table (brute force, short texts only)."""
    found = []
    for cuts in itertools.product((False, True), repeat=max(len(text) - 1, 0)):
        bounds = [0] + [i + 1 for i, cut in enumerate(cuts) if cut] + [len(text)]
        parts = [text[a:b] for a, b in zip(bounds, bounds[1:])]
        if all(p in table for p in parts):
            found.append(parts)
    return found


# --- the lesson's example and its oracle ---------------------------------------------------------


def test_is_a_tokenizer_and_cuts_unbelievable():
    assert isinstance(MODEL, Tokenizer)
    pieces = [t.piece for t in MODEL.encode("unbelievable")]
    best = max(all_segmentations("unbelievable", TABLE), key=lambda s: score_of(s, TABLE))
    assert pieces == best == ["un", "believ", "able"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=30))
def test_same_best_score_as_the_lessons_viterbi(text):
    lesson_score, lesson_tokens = lesson_viterbi_segment(text, TABLE)
    ours = MODEL.viterbi(text)
    assert ours.score == pytest.approx(lesson_score, abs=1e-9)
    assert score_of(lesson_tokens, TABLE) == pytest.approx(ours.score, abs=1e-9)


def test_lesson_shortcut_zero_means_unset_crashes_on_an_unreachable_position():
    # 'a' is not a piece, so position 1 of "ab" cannot be reached. The lesson leaves dp[1] = 0,
    # which reads as probability 1: the path through it ("b" after an unreachable "a") beats
    # the real one-piece path "ab", and walking back meets back[1] = None.
    table = {"ab": 0.1, "b": 0.5}
    with pytest.raises(TypeError):
        lesson_viterbi_segment("ab", table)
    ours = model_of(table).viterbi("ab")
    assert ours.pieces == ("ab",) and ours.score == pytest.approx(math.log(0.1))


def test_lesson_shortcut_fails_on_a_text_with_no_segmentation():
    # No piece ends at position 2 of "ax": the lesson's walk starts at back[2] = None and fails;
    # ours says plainly there is no segmentation (score -inf, no pieces) in the textbook form.
    with pytest.raises(TypeError):
        lesson_viterbi_segment("ax", {"a": 0.5, "b": 0.5})
    score, pieces = viterbi_textbook("ax", {"a": math.log(0.5), "b": math.log(0.5)})
    assert score == -math.inf and pieces is None


def test_lesson_shortcut_overwrites_a_true_best_score_of_zero():
    # A piece of probability 1 has log 0, a real score the lesson cannot tell from "unset":
    # the worse path a+b (log .5 + log .5) overwrites the best one, "ab" at score 0.
    table = {"ab": 1.0, "a": 0.5, "b": 0.5}
    lesson_score, lesson_tokens = lesson_viterbi_segment("ab", table)
    assert lesson_tokens == ["a", "b"] and lesson_score == pytest.approx(2 * math.log(0.5))
    score, pieces = viterbi_textbook("ab", {p: math.log(q) for p, q in table.items()})
    assert pieces == ["ab"] and score == 0.0


# --- fast Viterbi against the textbook programme ------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_fast_viterbi_equals_the_textbook(text):
    log_probs = {p: math.log(q) for p, q in TABLE.items()}
    score, pieces = viterbi_textbook(text, log_probs)
    fast = MODEL.viterbi(text)
    assert fast.score == pytest.approx(score, abs=1e-9)
    assert list(fast.pieces) == pieces  # same tie rule: the longest last piece wins a tie


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=10))
def test_viterbi_is_the_true_maximum(text):
    best = max(score_of(s, TABLE) for s in all_segmentations(text, TABLE))
    assert MODEL.viterbi(text).score == pytest.approx(best, abs=1e-9)


def test_viterbi_trace_holds_dp_and_back_pointers():
    trace = MODEL.viterbi("unbelievable")
    assert len(trace.dp) == len(trace.back) == len("unbelievable") + 1
    assert trace.dp[0] == 0.0 and trace.back[0] is None
    assert trace.dp[-1] == trace.score
    assert trace.path == ((0, 2), (2, 8), (8, 12))


def test_lattice_lists_every_matching_piece():
    arcs = MODEL.lattice("able")
    spans = {(a.start, a.end, a.piece) for a in arcs}
    expected = {
        (i, j, "able"[i:j]) for i in range(4) for j in range(i + 1, 5) if "able"[i:j] in TABLE
    }
    assert spans == expected
    for arc in arcs:
        assert arc.log_prob == pytest.approx(math.log(TABLE[arc.piece]))
        assert MODEL.id_to_token(arc.id) == arc.piece


# --- n-best and sampling -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["unbelievable", "able", "bel", "unable", "a"])
def test_nbest_is_the_brute_force_ranking(text):
    segs = sorted((score_of(s, TABLE) for s in all_segmentations(text, TABLE)), reverse=True)
    best = MODEL.nbest(text, 8)
    assert [b.score for b in best] == pytest.approx(segs[:8])
    assert list(best[0].pieces) == list(MODEL.viterbi(text).pieces)
    assert len({b.pieces for b in best}) == len(best)
    for b in best:
        assert "".join(b.pieces) == text and b.score == pytest.approx(score_of(list(b.pieces), TABLE))


def test_nbest_bounds():
    with pytest.raises(ValueError, match="1 to 100"):
        MODEL.nbest("able", 101)
    with pytest.raises(ValueError, match="1 to 100"):
        MODEL.nbest("able", 0)
    assert len(MODEL.nbest("able", 100)) == len(all_segmentations("able", TABLE))


def test_sampling_follows_the_probabilities():
    text = "bel"
    segs = all_segmentations(text, TABLE)
    weights = {tuple(s): math.exp(score_of(s, TABLE)) for s in segs}
    total = sum(weights.values())
    rng = random.Random(7)
    n = 4000
    seen = Counter(MODEL.sample(text, rng).pieces for _ in range(n))
    assert set(seen) <= set(weights)
    for seg, w in weights.items():
        assert seen[seg] / n == pytest.approx(w / total, abs=0.03)


def test_sampling_is_seeded():
    a = [MODEL.sample("unbelievable", random.Random(3)).pieces for _ in range(5)]
    b = [MODEL.sample("unbelievable", random.Random(3)).pieces for _ in range(5)]
    assert a == b


# --- encoding, unknown characters, round trip ----------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET + " ", max_size=40))
def test_round_trip_and_offsets_sentence_level(text):
    model = model_of({**TABLE, " ": 0.1})
    tokens = model.encode(text)
    assert model.decode([t.id for t in tokens]) == text
    assert [(a.end, b.start) for a, b in zip(tokens, tokens[1:])] == [
        (a.end, a.end) for a in tokens[:-1]
    ]
    for t in tokens:
        assert text[t.start : t.end].encode() == t.bytes == t.piece.encode()


def test_sentence_level_spaces_are_characters():
    model = model_of({**TABLE, " ": 0.1, "e ": 0.02})
    tokens = model.encode("able able")
    assert "".join(t.piece for t in tokens) == "able able"
    assert model.decode([t.id for t in tokens]) == "able able"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=8), max_size=6))
def test_word_level_marks_word_starts_and_round_trips(words):
    model = model_of({**TABLE, "▁": 0.05, "▁un": 0.04, "▁able": 0.01}, level="word")
    text = " ".join(words)
    tokens = model.encode(text)
    assert model.decode([t.id for t in tokens]) == text
    for t in tokens:
        assert text[t.start : t.end].encode() == t.bytes


def test_word_level_pieces_and_offsets():
    model = model_of({**TABLE, "▁": 0.05, "▁un": 0.04}, level="word")
    tokens = model.encode("  unable  able")
    assert [(t.piece, t.start, t.end) for t in tokens] == [
        ("▁un", 2, 4), ("able", 4, 8), ("▁", 10, 10), ("able", 10, 14),
    ]
    assert tokens[2].bytes == b""


def test_unseen_characters_fuse_into_one_unk():
    tokens = MODEL.encode("unxyzable")
    assert [t.piece for t in tokens] == ["un", UNK_TOKEN, "able"]
    unk = tokens[1]
    assert unk.unknown and unk.id == 0 and (unk.start, unk.end) == (2, 5) and unk.bytes == b"xyz"
    assert MODEL.decode([t.id for t in tokens]) == "un\u2047able"


def test_unk_only_where_no_single_character_piece_exists():
    # <unk> scores the lowest log probability minus 10, and only stands in where no
    # one-character piece does, so a known character is never read as <unk>.
    for arc in MODEL.lattice("unbelievable"):
        assert arc.piece != UNK_TOKEN
    unk_arcs = [a for a in MODEL.lattice("u?") if a.piece == UNK_TOKEN]
    assert [(a.start, a.end) for a in unk_arcs] == [(1, 2)]
    assert unk_arcs[0].log_prob == pytest.approx(min(math.log(q) for q in TABLE.values()) - 10)


def test_encode_refuses_a_lone_surrogate():
    with pytest.raises(ValueError, match="surrogate"):
        MODEL.encode("a\ud800")


def test_decode_refuses_unknown_ids():
    with pytest.raises(ValueError, match="not a token id"):
        MODEL.decode([MODEL.vocab_size])


# --- the model file ------------------------------------------------------------------------------


def test_model_file_round_trip():
    data = json.loads(json.dumps(MODEL.to_dict()))
    assert data["algorithm"] == "unigram" and data["pieces"][0][0] == UNK_TOKEN
    again = unigram_from_json(data)
    assert [t.id for t in again.encode("unbelievable")] == [t.id for t in MODEL.encode("unbelievable")]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"pieces": [["<unk>", -20.0], ["a", 0.5]]}, "log probability"),
        ({"pieces": [["<unk>", -20.0], ["a", -1.0], ["a", -2.0]]}, "twice"),
        ({"pieces": [["a", -1.0]]}, "<unk>"),
        ({"level": "byte"}, "level"),
        ({"vocab_size": 3}, "vocab_size"),
    ],
)
def test_model_file_errors(change, message):
    data = {**MODEL.to_dict(), **change}
    with pytest.raises(ValueError, match=message):
        unigram_from_json(data)


def test_constructor_errors():
    with pytest.raises(ValueError, match="empty"):
        UnigramModel([("", -1.0)])
    with pytest.raises(ValueError, match="<unk>"):
        UnigramModel([("<unk>", -1.0)])
