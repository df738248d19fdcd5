"""The Unigram trainer against a slow, obviously right one, on small random corpora.

The oracle follows the module docstring of trainers/unigram.py step by step with no speed
tricks: every segmentation of every word is listed (a word of n characters has 2 ** (n - 1)),
the E-step sums each one's probability, the Viterbi path is the best of the list, and the best
segmentation of a piece without itself is the best of the piece's own list. The fast trainer
(flat lattices, scaled plain numbers, one-pass loops) must learn the same pieces, prune the same
pieces each round and give the same scores to within 1e-9.

Two floating-point orders of summation can break a tie that is exact in arithmetic either way,
so an example where the oracle sees a near tie that decides something (two Viterbi paths within
1e-9, or the last piece pruned and the first piece kept within 1e-9 of each other) is set aside
with `assume`: there the two answers are both right.
"""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts
from tokenizer_core.models.unigram import WORD_START
from tokenizer_core.trainers.unigram import SEED_FACTOR, ZERO_COUNT, seed_pieces, train_unigram

from .test_unigram import brute_force_e_step as e_step
from .test_unigram import segmentations

TIE = 1e-9


class NearTie(Exception):
    """Rounding, not the algorithm, would decide this example."""


def probabilities(counts: dict[str, float], floor: bool) -> dict[str, float]:
    """M-step as the docstring says it: p(x) = count(x) / total, a floor of half a use."""
    if floor:
        counts = {p: max(c, ZERO_COUNT) for p, c in counts.items()}
    total = sum(counts.values())
    return {p: c / total for p, c in counts.items()}


def log_score(seg: list[str], prob: dict[str, float]) -> float:
    return sum(math.log(prob[p]) if prob[p] > 0 else -math.inf for p in seg)


def best(text: str, prob: dict[str, float], path_matters: bool = True) -> tuple[float, list[str]]:
    """The most probable segmentation; NearTie when a different one scores within TIE and
    which of them wins matters."""
    scored = sorted(((log_score(seg, prob), seg) for seg in segmentations(text, set(prob))),
                    key=lambda s: -s[0])
    if (path_matters and len(scored) > 1 and scored[1][0] > -math.inf
            and scored[0][0] - scored[1][0] <= TIE):
        raise NearTie(text)
    return scored[0]


def oracle(words: dict[str, int], vocab_size: int, shrink_share: float, em_iterations: int,
           max_piece_chars: int) -> tuple[dict[str, float], list[set[str]], list[list[float]]]:
    """(piece -> log prob), the pieces pruned each round, the log-likelihoods of each round."""
    seqs = {WORD_START + w: c for w, c in words.items()}
    chars = {ch for s in seqs for ch in s}
    seeds = seed_pieces(seqs, max_piece_chars, max(SEED_FACTOR * vocab_size, len(chars)))
    counts = {p: float(c) for p, c in seeds}
    target = vocab_size - 1
    pruned, lls = [], []
    while True:
        prob = probabilities(counts, floor=True)
        round_lls = []
        for _ in range(em_iterations):
            counts, ll = e_step(seqs, prob)
            round_lls.append(ll)
            prob = probabilities(counts, floor=False)
        lls.append(round_lls)
        if len(counts) <= target:
            break
        used = dict.fromkeys(prob, 0)
        for seq, c in seqs.items():
            for p in best(seq, prob)[1]:
                used[p] += c
        losses = []
        for p in prob:
            if p in chars:
                continue
            if used[p] == 0:
                losses.append((0.0, p))
                continue
            others = {q: x for q, x in prob.items() if q != p}
            without = best(p, others, path_matters=False)[0]
            losses.append((used[p] * (math.log(prob[p]) - without), p))
        losses.sort()
        keep = max(target, math.ceil(len(prob) * (1 - shrink_share)))
        n_remove = min(len(prob) - keep, len(losses))
        if n_remove < len(losses):
            (last_out, p_out), (first_in, p_in) = losses[n_remove - 1], losses[n_remove]
            unused_both = used[p_out] == 0 and used[p_in] == 0  # both exactly 0.0, by rule
            if not unused_both and first_in - last_out <= TIE * max(1.0, abs(first_in)):
                raise NearTie(f"{p_out} / {p_in}")
        gone = {p for _, p in losses[:n_remove]}
        pruned.append(gone)
        counts = {p: c for p, c in counts.items() if p not in gone}
    final = probabilities(counts, floor=True)
    return {p: math.log(x) for p, x in final.items()}, pruned, lls


words_tables = st.dictionaries(
    st.text(alphabet="abc", min_size=1, max_size=6), st.integers(1, 6), min_size=1, max_size=6
)


@settings(max_examples=150, deadline=None)
@given(words=words_tables, extra=st.integers(1, 12), share=st.sampled_from([0.25, 0.4, 0.6]),
       em=st.integers(1, 3), max_chars=st.integers(2, 7))
def test_trainer_learns_what_the_slow_oracle_learns(words, extra, share, em, max_chars):
    n_chars = len({ch for w in words for ch in WORD_START + w})
    vocab_size = n_chars + 1 + extra
    try:
        want, want_pruned, want_lls = oracle(words, vocab_size, share, em, max_chars)
    except NearTie:
        assume(False)
    got = train_unigram(corpus_from_counts(words, "word"), vocab_size, shrink_share=share,
                        em_iterations=em, max_piece_chars=max_chars)
    assert [{r.piece for r in rnd.removed} for rnd in got.rounds[:-1]] == want_pruned
    assert dict(got.pieces).keys() == want.keys()
    for piece, log_prob in got.pieces:
        assert math.isclose(log_prob, want[piece], rel_tol=1e-9, abs_tol=1e-9), piece
    assert len(got.rounds) == len(want_lls)
    for rnd, lls in zip(got.rounds, want_lls):
        assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
                   for a, b in zip(rnd.log_likelihoods, lls, strict=True))
