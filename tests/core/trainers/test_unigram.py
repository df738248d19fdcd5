"""Unigram training: seeds, EM (checked against brute-force expected counts), pruning by loss to
the target size, characters kept, determinism, the trace, and the trained model's round trip."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts
from tokenizer_core.bounds import MAX_UNIGRAM_VOCAB
from tokenizer_core.models.unigram import WORD_START, UnigramModel, viterbi_textbook
from tokenizer_core.samples import english_reference_corpus
from tokenizer_core.trainers.corpus import corpus_from_text
from tokenizer_core.trainers.unigram import (
    _Lattices,
    _linear,
    _log_domain,
    expected_counts,
    seed_pieces,
    train_unigram,
    unigram_sequences,
)

from ..classroom import LOW_NEWEST, TEN_SENTENCES

TEXT = english_reference_corpus()[:20_000]


def segmentations(text: str, vocab: set[str]) -> list[list[str]]:
    found = []
    for cuts in itertools.product((False, True), repeat=max(len(text) - 1, 0)):
        bounds = [0] + [i + 1 for i, cut in enumerate(cuts) if cut] + [len(text)]
        parts = [text[a:b] for a, b in zip(bounds, bounds[1:])]
        if all(p in vocab for p in parts):
            found.append(parts)
    return found


def brute_force_e_step(
    seqs: dict[str, int], prob: dict[str, float]
) -> tuple[dict[str, float], float]:
    """Expected uses of each piece and the log-likelihood, over every segmentation listed."""
    counts = dict.fromkeys(prob, 0.0)
    loglik = 0.0
    for seq, c in seqs.items():
        segs = segmentations(seq, set(prob))
        weights = [math.prod(prob[p] for p in seg) for seg in segs]
        z = sum(weights)
        loglik += c * math.log(z)
        for seg, w in zip(segs, weights):
            for p in seg:
                counts[p] += c * w / z
    return counts, loglik


def test_sequences_mark_word_starts():
    seqs = unigram_sequences(corpus_from_counts(LOW_NEWEST, "word"))
    assert seqs == {WORD_START + w: c for w, c in LOW_NEWEST.items()}
    lines = unigram_sequences(corpus_from_text("a b\nc d\na b", "sentence"))
    assert lines == {"a b": 2, "c d": 1}
    with pytest.raises(ValueError, match="byte"):
        unigram_sequences(corpus_from_text("ab", "byte"))


def test_seed_is_every_character_then_frequent_substrings_by_freq_times_length():
    seqs = {"▁low": 5, "▁lower": 2, "▁newest": 6, "▁widest": 3}
    seeds = seed_pieces(seqs, max_piece_chars=4, seed_size=20)
    chars = sorted({ch for s in seqs for ch in s})
    assert [p for p, _ in seeds[: len(chars)]] == chars
    rest = seeds[len(chars):]
    assert len(seeds) == 20
    # brute force: substrings of 2..4 characters counted over the corpus, freq >= 2
    freq: dict[str, int] = {}
    for s, c in seqs.items():
        for i in range(len(s)):
            for j in range(i + 2, min(len(s), i + 4) + 1):
                freq[s[i:j]] = freq.get(s[i:j], 0) + c
    ranked = sorted((p for p in freq if freq[p] >= 2), key=lambda p: (-freq[p] * len(p), p))
    assert [p for p, _ in rest] == ranked[: 20 - len(chars)]
    assert all(count == freq[p] for p, count in rest)


def test_expected_counts_equal_brute_force():
    seqs = {"▁low": 5, "▁lower": 2, "▁lowest": 1}
    pieces = {"▁": 0.1, "l": 0.05, "o": 0.05, "w": 0.05, "e": 0.1, "r": 0.05, "s": 0.05,
              "t": 0.05, "▁l": 0.1, "low": 0.1, "▁low": 0.1, "er": 0.1, "est": 0.1}
    log_probs = {p: math.log(q) for p, q in pieces.items()}
    counts, loglik = expected_counts(seqs, log_probs)
    want, want_ll = brute_force_e_step(seqs, pieces)
    assert loglik == pytest.approx(want_ll, rel=1e-12)
    for p in pieces:
        assert counts[p] == pytest.approx(want[p], rel=1e-9, abs=1e-12)


def test_plain_number_and_log_forward_backward_agree():
    # words run on scaled plain numbers, long lines in logs: both give the same expected uses
    seq = "▁lowerlowestnewestlowwidest" * 2
    pieces = sorted({seq[i:j] for i in range(len(seq)) for j in range(i + 1, min(len(seq), i + 4) + 1)})
    lattices = _Lattices({seq: 3}, pieces)
    lp = [-1.0 - 0.7 * len(p) - 0.01 * k for k, p in enumerate(pieces)]
    (lattice,) = lattices.items
    log_k = 1.5
    weights = [math.exp(x + len(p) * log_k) for x, p in zip(lp, pieces)]
    linear, logs = [0.0] * len(lp), [0.0] * len(lp)
    z = _linear(lattice, weights, linear)
    assert z is not None
    total = _log_domain(3, lattice.by_end(), lp, logs)
    assert 3 * (math.log(z) - len(seq) * log_k) == pytest.approx(total, rel=1e-12)
    assert linear == pytest.approx(logs, rel=1e-9, abs=1e-12)


def test_lattice_holds_every_piece_occurrence_by_end_then_start():
    seq = "▁lowerlowest"
    pieces = ["▁", "l", "o", "w", "e", "r", "s", "t", "▁l", "lo", "low", "ow", "er", "est", "we"]
    (lattice,) = _Lattices({seq: 2}, pieces).items
    want = sorted(
        ((j, i, pieces.index(seq[j:i])) for j in range(len(seq))
         for i in range(j + 1, len(seq) + 1) if seq[j:i] in pieces),
        key=lambda arc: (arc[1], arc[0]),
    )
    assert (lattice.count, lattice.length) == (2, len(seq))
    assert lattice.arcs == want
    assert lattice.by_end() == [[(j, p) for j, e, p in want if e == i] for i in range(len(seq) + 1)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab", min_size=1, max_size=7), min_size=1, max_size=5),
       st.data())
def test_viterbi_counts_equal_the_textbook_viterbi_ties_included(words, data):
    # log probabilities from a tiny set of values, so that equal-scoring paths are common: the
    # flat loop must break ties as the lesson's dynamic programme does (earliest start)
    seqs = {WORD_START + w: k + 1 for k, w in enumerate(dict.fromkeys(words))}
    pieces = sorted({s[i:j] for s in seqs for i in range(len(s))
                     for j in range(i + 1, min(len(s), i + 3) + 1)})
    lp = [data.draw(st.sampled_from([-1.0, -2.0, -3.0])) for _ in pieces]
    got = _Lattices(seqs, pieces).viterbi_counts(lp)
    want = dict.fromkeys(pieces, 0)
    for seq, count in seqs.items():
        _, path = viterbi_textbook(seq, dict(zip(pieces, lp)))
        assert path is not None
        for piece in path:
            want[piece] += count
    assert dict(zip(pieces, got)) == want


def test_pruned_lattices_equal_lattices_built_again():
    seqs = unigram_sequences(corpus_from_text(TEXT[:3000], "word"))
    seeds = [p for p, _ in seed_pieces(seqs, 6, 400)]
    kept = [k for k in range(len(seeds)) if k % 3 or len(seeds[k]) == 1]
    filtered = _Lattices(seqs, seeds)
    filtered.keep(kept)
    again = _Lattices(seqs, [seeds[k] for k in kept])
    assert filtered.ids == again.ids and filtered.seed_ids == kept
    # the filtered arcs still carry seed ids: the same lattices once those read as current ids
    current = {seed_id: k for k, seed_id in enumerate(filtered.seed_ids)}
    renamed = [(count, n, [(j, i, current[p]) for j, i, p in arcs])
               for count, n, arcs in filtered.items]
    assert renamed == [tuple(lattice) for lattice in again.items]
    # and every pass gives the same numbers either way
    lp = [-0.5 - 0.3 * len(seeds[k]) - 0.001 * k for k in kept]
    assert filtered.expected(lp) == again.expected(lp)
    assert filtered.viterbi_counts(lp) == again.viterbi_counts(lp)


@pytest.fixture(scope="module")
def training():
    return train_unigram(corpus_from_text(TEXT, "word"), 300)


def test_reaches_the_target_size_and_keeps_every_character(training):
    assert training.vocab_size == 300
    model = training.model()
    assert model.vocab_size == 300
    chars = {ch for s in unigram_sequences(corpus_from_text(TEXT, "word")) for ch in s}
    kept = {p for p, _ in training.pieces}
    assert chars <= kept
    for r in training.rounds:
        assert all(len(x.piece) > 1 for x in r.removed)


def test_likelihood_never_falls_within_a_round(training):
    assert len(training.rounds) >= 3
    for r in training.rounds:
        lls = r.log_likelihoods
        assert len(lls) >= 2
        for a, b in zip(lls, lls[1:]):
            assert b >= a - 1e-9 * abs(a)


def test_trace_records_each_round(training):
    sizes = [r.vocab_size for r in training.rounds]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 300
    for r, nxt in zip(training.rounds, training.rounds[1:]):
        assert r.vocab_size - len(r.removed) == nxt.vocab_size
        losses = [x.loss for x in r.removed]
        assert losses == sorted(losses)
    assert training.rounds[-1].removed == ()
    final = {p for p, _ in training.pieces}
    assert not final & {x.piece for r in training.rounds for x in r.removed}


def test_probabilities_sum_to_one(training):
    total = sum(math.exp(lp) for _, lp in training.pieces)
    assert total == pytest.approx(1.0, abs=1e-9)


def test_rarely_used_characters_keep_half_a_use():
    # EM alone drives `l` toward 0 here (log prob about -60: `▁low` always covers it); the
    # final model counts it as half a use, so a new word with an `l` still reads sensibly.
    training = train_unigram(corpus_from_counts(LOW_NEWEST, "word"), 20)
    # uses are at most one per character (with ▁), plus half a use for each of the 19 pieces
    total = sum(c * (len(w) + 1) for w, c in LOW_NEWEST.items()) + 19 * 0.5
    floor = math.log(0.5 / total)
    assert min(lp for _, lp in training.pieces) >= floor
    assert training.model().viterbi("▁lo").score > 3 * floor


def test_deterministic_across_runs(training):
    again = train_unigram(corpus_from_text(TEXT, "word"), 300)
    assert again.pieces == training.pieces
    assert again.rounds == training.rounds


def test_trained_model_round_trips_and_compresses(training):
    model = training.model()
    assert isinstance(model, UnigramModel)
    text = " ".join(TEXT[:3000].split())
    tokens = model.encode(text)
    assert model.decode([t.id for t in tokens]) == text
    assert not any(t.unknown for t in tokens)
    assert len(tokens) < 0.6 * len(text)


ALPHABET = sorted(set("".join(TEXT.split())))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=12), max_size=8))
def test_round_trip_on_words_of_the_training_alphabet(training, words):
    model = training.model()
    text = " ".join(words)
    tokens = model.encode(text)
    assert model.decode([t.id for t in tokens]) == text
    assert not any(t.unknown for t in tokens)


def test_sentence_level_pieces_cross_spaces():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    training = train_unigram(corpus, 60)
    assert training.vocab_size == 60
    model = training.model()
    line = TEN_SENTENCES.split("\n")[0]
    assert model.decode([t.id for t in model.encode(line)]) == line
    assert any(" " in p and len(p) > 1 for p, _ in training.pieces)


def test_bounds_and_errors():
    corpus = corpus_from_counts(LOW_NEWEST, "word")
    with pytest.raises(ValueError, match="at least"):
        train_unigram(corpus, 5)
    with pytest.raises(ValueError, match=f"{MAX_UNIGRAM_VOCAB:,}"):
        train_unigram(corpus, MAX_UNIGRAM_VOCAB + 1)
    with pytest.raises(ValueError, match="shrink"):
        train_unigram(corpus, 20, shrink_share=1.0)


def test_small_seed_stops_and_says_why():
    training = train_unigram(corpus_from_counts(LOW_NEWEST, "word"), 500)
    assert training.vocab_size < 500
    assert "seed" in training.stop_reason
