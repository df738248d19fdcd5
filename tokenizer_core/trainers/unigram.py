"""Unigram LM training: start big, re-estimate by EM, prune the pieces the corpus misses least.

BPE grows a vocabulary merge by merge; Unigram does the dual, as SentencePiece's trainer does:
1. Seed: every character of the corpus (always kept), then substrings of 2 to
   `max_piece_chars` characters that occur at least twice (counted inside each word or line,
   times its count), ranked by frequency x length (ties: the piece's code-point order), the
   best `seed_size` in all (by default 4x the target size).
2. EM, `em_iterations` times: the E-step runs forward-backward over each distinct sequence's
   lattice and adds up every piece's expected count (its posterior number of uses: true EM,
   not Viterbi-EM); the M-step sets p(x) = count(x) / total. The corpus log-likelihood
   sum over sequences of count * log sum over segmentations of p(segmentation) never falls
   from one E-step to the next (EM's guarantee; a test checks it).
3. Prune: the loss of removing piece x is how much the corpus log-likelihood would drop if its
   Viterbi uses were spelled by its own best segmentation without it:
   loss(x) = viterbi_count(x) * (log p(x) - sum of log p over that segmentation).
   Characters are never removed. The `shrink_share` of the vocabulary with the smallest loss
   goes (ties: the piece's code-point order), but never below the target size.
4. Repeat until the vocabulary has `vocab_size` pieces (`<unk>` included), then a last EM.

A piece expected to be used less than half a time counts as half a use, at the start of each
round and in the final model (never inside a round's EM, which stays plain maximum likelihood):
EM drives a character that only ever appears inside longer pieces toward probability 0 (a log
probability of -60 on a classroom table), and it must stay usable once those are pruned and on
new words. Every round is a `UnigramRound` trace record.

Speed, with the numbers unchanged to the last bit (a test checks the trainer against a slow
version that lists every segmentation): each distinct word is segmented once and weighted by its
count; its lattice is one list of arcs in (end, start) order, so forward, backward and Viterbi
are each one loop over the arcs; words run on scaled plain numbers, not logs; pruning filters
the lattices instead of building them again.

Leaves out: SentencePiece's suffix-array seeding, its Bayesian (digamma) M-step, character
coverage below 100% and normalization; byte fallback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Mapping, NamedTuple

from ..bounds import MAX_UNIGRAM_PIECE_CHARS, MAX_UNIGRAM_SEED, MAX_UNIGRAM_VOCAB
from ..models.unigram import WORD_START, UnigramModel
from .corpus import Corpus

Progress = Callable[[int, int], None]
_NEG_INF = -math.inf
_NORMAL_MIN, _NORMAL_MAX = 1e-250, 1e250
SEED_FACTOR = 4  # default seed_size = 4 x vocab_size
_LINEAR_MAX_CHARS = 48  # longest sequence whose forward-backward runs on plain numbers
ZERO_COUNT = 0.5  # a piece used less than half a time counts as half a use


@dataclass(frozen=True, slots=True)
class Removal:
    """A piece pruned, how often Viterbi used it, and the log-likelihood its removal costs."""

    piece: str
    count: int
    loss: float


@dataclass(frozen=True, slots=True)
class UnigramRound:
    """One round: EM on a vocabulary of `vocab_size` pieces (<unk> included), the corpus
    log-likelihood at each E-step, then the pieces pruned (cheapest first)."""

    round: int
    vocab_size: int
    log_likelihoods: tuple[float, ...]
    removed: tuple[Removal, ...]


@dataclass(frozen=True)
class UnigramTraining:
    level: str
    pieces: tuple[tuple[str, float], ...]  # without <unk>, most probable first
    rounds: tuple[UnigramRound, ...]
    seed_size: int
    requested_size: int
    stop_reason: str

    @property
    def vocab_size(self) -> int:
        return len(self.pieces) + 1

    def model(self, name: str = "unigram") -> UnigramModel:
        return UnigramModel(self.pieces, self.level, name=name)

    def to_dict(self) -> dict:
        """The model file, with a summary of how training went."""
        data = self.model().to_dict()
        data["training"] = {
            "seed_size": self.seed_size, "rounds": len(self.rounds),
            "log_likelihood": self.rounds[-1].log_likelihoods[-1], "stop_reason": self.stop_reason,
        }
        return data


def unigram_sequences(corpus: Corpus) -> dict[str, int]:
    """What the model segments: `▁word` per word (word level) or each line (sentence level)."""
    if corpus.level == "word":
        return {WORD_START + w: c for w, c in zip(corpus.labels, corpus.counts)}
    if corpus.level == "sentence":
        return dict(zip(corpus.labels, corpus.counts))
    raise ValueError("Unigram trains on words or lines: use level 'word' or 'sentence', not 'byte'")


def seed_pieces(
    sequences: Mapping[str, int], max_piece_chars: int, seed_size: int
) -> list[tuple[str, int]]:
    """(piece, frequency): every character (sorted), then the best frequent substrings."""
    # plain dicts and .get rather than Counters (a Counter's += calls a Python-level
    # __missing__ for every new key): the same integer counts, this loop a third faster
    chars: dict[str, int] = {}
    subs: dict[str, int] = {}
    char_count, sub_count = chars.get, subs.get
    for seq, count in sequences.items():
        for ch in seq:
            chars[ch] = char_count(ch, 0) + count
        n = len(seq)
        for i in range(n - 1):
            for j in range(i + 2, min(n, i + max_piece_chars) + 1):
                part = seq[i:j]
                subs[part] = sub_count(part, 0) + count
    # (key, piece) pairs made in one comprehension rather than by a key function (a Python call
    # and a lookup per piece); the order is the same: frequency x length descending, then the
    # piece's code-point order (pieces are distinct, so no two pairs tie)
    ranked = sorted((-c * len(p), p) for p, c in subs.items() if c >= 2)
    room = max(seed_size - len(chars), 0)
    return [(ch, chars[ch]) for ch in sorted(chars)] + [(p, subs[p]) for _, p in ranked[:room]]


Arc = tuple[int, int, int]  # (start, end, piece id): the piece spells seq[start:end]
_END = itemgetter(1)  # an arc's end, the sort key


class Lattice(NamedTuple):
    """One distinct sequence's lattice: every arc, sorted by end, then by start.

    In that order one pass over the list visits every arc after all the arcs that reach its
    start, so the forward sums (and Viterbi) are a single loop over the arcs, and the backward
    sums the same loop reversed. That matters twice: the passes pay no loop over positions,
    and Python's cyclic garbage collector, which visits every container still alive each time
    it runs a full collection, finds one list per sequence instead of one per position (the
    tuples of ints in it, it stops tracking the first time it sees them). On the benchmark,
    those visits had been a quarter of the training time.
    """

    count: int
    length: int  # characters of the sequence: positions run from 0 to length
    arcs: list[Arc]

    def by_end(self) -> list[list[tuple[int, int]]]:
        """(start, piece id) of the arcs ending at each position: the textbook's layout."""
        grouped: list[list[tuple[int, int]]] = [[] for _ in range(self.length + 1)]
        for j, i, p in self.arcs:
            grouped[i].append((j, p))
        return grouped


class _Lattices:
    """Every distinct sequence's lattice over one vocabulary.

    The arcs keep the seed's piece ids for the whole training, and `seed_ids[k]` is the seed
    id of current piece k. Pruning then only drops arcs, never rewrites them (no new tuples to
    allocate and for the garbage collector to track), and each pass translates between the two
    numberings once per piece, not once per arc.
    """

    def __init__(self, sequences: Mapping[str, int], pieces: list[str]) -> None:
        self.ids = {p: i for i, p in enumerate(pieces)}  # piece -> current id
        self.lengths = [len(p) for p in pieces]  # by current id
        self.seed_ids = list(range(len(pieces)))
        self.seed_size = len(pieces)
        prefixes = {p[:k] for p in pieces for k in range(1, len(p) + 1)}
        longest = max(len(p) for p in pieces)
        self.items: list[Lattice] = []
        for seq, count in sequences.items():
            n = len(seq)
            arcs: list[Arc] = []
            for i in range(n):
                for j in range(i + 1, min(n, i + longest) + 1):
                    part = seq[i:j]
                    if part not in prefixes:
                        break  # no piece starts this way, so no longer one does either
                    pid = self.ids.get(part)
                    if pid is not None:
                        arcs.append((i, j, pid))
            arcs.sort(key=_END)  # found by start; a stable sort by end: the (end, start) order
            self.items.append(Lattice(count, n, arcs))

    def keep(self, kept: list[int]) -> None:
        """Drop the arcs of pruned pieces; `kept` are the surviving old ids, in new id order.

        Filtering the lattices is cheaper than building them again from the text, and keeps
        the (end, start) order."""
        new_id = [-1] * len(self.lengths)
        for new, old in enumerate(kept):
            new_id[old] = new
        self.ids = {p: new_id[i] for p, i in self.ids.items() if new_id[i] >= 0}
        self.lengths = [self.lengths[old] for old in kept]
        self.seed_ids = [self.seed_ids[old] for old in kept]
        alive = [False] * self.seed_size
        for seed_id in self.seed_ids:
            alive[seed_id] = True
        for lattice in self.items:
            # in place: no new long-lived lists, which would count toward the garbage
            # collector's next full collection (one that visits every arc)
            lattice.arcs[:] = [arc for arc in lattice.arcs if alive[arc[2]]]

    def by_seed_id(self, values: list[float], pruned: float) -> list[float]:
        """Values given by current id, laid out by seed id (`pruned` where a piece is gone)."""
        laid_out = [pruned] * self.seed_size
        for value, seed_id in zip(values, self.seed_ids):
            laid_out[seed_id] = value
        return laid_out

    def expected(self, lp: list[float]) -> tuple[list[float], float]:
        """E-step: expected uses of each piece (forward-backward) and the log-likelihood.

        Sums of products of probabilities underflow in a long sequence, so they are taken in
        logs; but a word is short, and there the same sums run on plain numbers (several times
        faster) with each piece's probability times K ** its length: every segmentation of n
        characters is then scaled by the same K ** n, which leaves each piece's posterior
        unchanged (and the log-likelihood is log Z - n log K). Any sequence longer than 48
        characters, or whose scaled Z is not a normal positive number, takes the log path.
        """
        finite = [x / n for x, n in zip(lp, self.lengths) if x > _NEG_INF]
        log_k = -sum(finite) / len(finite)
        weights = self.by_seed_id([math.exp(x + n * log_k) if x > _NEG_INF else 0.0
                                   for x, n in zip(lp, self.lengths)], 0.0)
        seed_lp = self.by_seed_id(lp, _NEG_INF)
        counts = [0.0] * self.seed_size
        total = 0.0
        for lattice in self.items:
            n = lattice.length
            z = _linear(lattice, weights, counts) if n <= _LINEAR_MAX_CHARS else None
            if z is not None:
                total += lattice.count * (math.log(z) - n * log_k)
            else:
                total += _log_domain(lattice.count, lattice.by_end(), seed_lp, counts)
        return [counts[k] for k in self.seed_ids], total

    def viterbi_counts(self, lp: list[float]) -> list[int]:
        """How often each piece is on the best path (ties: the earliest start, as encoding)."""
        seed_lp = self.by_seed_id(lp, _NEG_INF)
        counts = [0] * self.seed_size
        for count, n, arcs in self.items:
            dp = [_NEG_INF] * (n + 1)
            dp[0] = 0.0
            back = [(0, 0, 0)] * (n + 1)  # the best arc ending at each position
            # arcs in (end, start) order: dp[j] is final before any arc leaves j, and strict >
            # keeps the first of equal scores, the earliest start, as the textbook's loop does
            for arc in arcs:
                j, i, p = arc
                s = dp[j] + seed_lp[p]
                if s > dp[i]:
                    dp[i], back[i] = s, arc
            i = n
            while i > 0:
                i, _, p = back[i]
                counts[p] += count
        return [counts[k] for k in self.seed_ids]


Ends = list[list[tuple[int, int]]]  # ends[i]: (start, piece id) of every arc ending at i


def _linear(lattice: Lattice, weights: list[float], counts: list[float]) -> float | None:
    """Forward-backward on scaled probabilities; adds the expected uses and returns the scaled
    Z, or None (adding nothing) when Z is not a normal positive number.

    The textbook writes each pass as a loop over positions, then over the arcs ending there.
    Here each pass is one loop over the arcs in (end, start) order, which adds the same terms in
    the same order: alpha[i] gets its arcs' terms by increasing start; the backward pass, the
    same loop reversed, gives each beta[j] its terms by decreasing end (arcs sharing an end
    touch different starts); the expected uses arrive by end, then start. A plain loop rather
    than sum(): from Python 3.12 sum() compensates rounding, and a loop's order is the one
    every version agrees on. A position whose beta is 0 needs no skipping: its arcs add a
    finite number times 0.0, which is 0.0.
    """
    count, n, arcs = lattice
    alpha = [1.0] + [0.0] * n
    for j, i, p in arcs:
        alpha[i] += alpha[j] * weights[p]
    z = alpha[n]
    if not _NORMAL_MIN < z < _NORMAL_MAX:
        return None
    beta = [0.0] * n + [1.0]
    for j, i, p in reversed(arcs):
        beta[j] += weights[p] * beta[i]
    # the share of Z through each end position, times the sequence's count: one division per
    # position, not per arc
    share = [b * count / z for b in beta]
    for j, i, p in arcs:
        counts[p] += alpha[j] * weights[p] * share[i]
    return z


def _log_domain(count: int, ends: Ends, lp: list[float], counts: list[float]) -> float:
    """Forward-backward in logs (any length); adds the expected uses, returns count * log Z."""
    n = len(ends) - 1
    exp = math.exp
    alpha = [0.0] * (n + 1)
    for i in range(1, n + 1):
        alpha[i] = _logsumexp([alpha[j] + lp[p] for j, p in ends[i]])
    beta = [_NEG_INF] * (n + 1)
    beta[n] = 0.0
    for i in range(n, 0, -1):  # push each arc's weight back to its start
        b = beta[i]
        if b == _NEG_INF:
            continue
        for j, p in ends[i]:
            beta[j] = _logaddexp(beta[j], lp[p] + b)
    z = alpha[n]
    if z == _NEG_INF:
        raise AssertionError("every character is a piece, so every sequence has a path")
    for i in range(1, n + 1):
        b = beta[i] - z
        for j, p in ends[i]:
            counts[p] += count * exp(alpha[j] + lp[p] + b)
    return count * z


def expected_counts(
    sequences: Mapping[str, int], log_probs: Mapping[str, float]
) -> tuple[dict[str, float], float]:
    """One E-step, by piece name: (expected uses of each piece, corpus log-likelihood)."""
    pieces = list(log_probs)
    counts, total = _Lattices(sequences, pieces).expected([log_probs[p] for p in pieces])
    return dict(zip(pieces, counts)), total


def _best_without(piece: str, pid: int, ids: dict[str, int], lp: list[float]) -> float:
    """Log probability of the best segmentation of `piece` that does not use the piece itself."""
    n = len(piece)
    dp = [_NEG_INF] * (n + 1)
    dp[0] = 0.0
    for i in range(1, n + 1):
        for j in range(i):
            q = ids.get(piece[j:i])
            if q is not None and q != pid:
                s = dp[j] + lp[q]
                if s > dp[i]:
                    dp[i] = s
    return dp[n]


def _probabilities(counts: list[float], floor: bool) -> list[float]:
    """M-step: log(count / total); with floor, a count under ZERO_COUNT reads as ZERO_COUNT."""
    if floor:
        counts = [max(c, ZERO_COUNT) for c in counts]
    total = sum(counts)
    return [math.log(c / total) if c > 0 else _NEG_INF for c in counts]


def check_unigram_args(vocab_size: int, shrink_share: float, em_iterations: int,
                       max_piece_chars: int) -> None:
    if type(vocab_size) is not int or not 2 <= vocab_size <= MAX_UNIGRAM_VOCAB:
        raise ValueError(f"vocab_size should be a whole number from 2 to {MAX_UNIGRAM_VOCAB:,}, "
                         f"got {vocab_size!r}")
    if not 0 < shrink_share < 1:
        raise ValueError(f"shrink_share is the share pruned per round, between 0 and 1 "
                         f"(e.g. 0.25), got {shrink_share!r}")
    if type(em_iterations) is not int or not 1 <= em_iterations <= 20:
        raise ValueError(f"em_iterations should be 1 to 20, got {em_iterations!r}")
    if type(max_piece_chars) is not int or not 1 <= max_piece_chars <= MAX_UNIGRAM_PIECE_CHARS:
        raise ValueError(f"max_piece_chars should be 1 to {MAX_UNIGRAM_PIECE_CHARS}, "
                         f"got {max_piece_chars!r}")


def train_unigram(
    corpus: Corpus,
    vocab_size: int,
    *,
    shrink_share: float = 0.25,
    em_iterations: int = 2,
    max_piece_chars: int = MAX_UNIGRAM_PIECE_CHARS,
    seed_size: int | None = None,
    progress: Progress | None = None,
) -> UnigramTraining:
    """Learn `vocab_size` pieces (`<unk>` included) from a word- or sentence-level corpus."""
    check_unigram_args(vocab_size, shrink_share, em_iterations, max_piece_chars)
    sequences = unigram_sequences(corpus)
    chars = {ch for seq in sequences for ch in seq}
    if not chars:
        raise ValueError("the corpus is empty; there is nothing to train on")
    if vocab_size < len(chars) + 1:
        raise ValueError(f"vocab_size {vocab_size} is too small: the corpus has {len(chars)} "
                         f"characters, all kept, so ask for at least {len(chars) + 1}")
    seed_size = min(seed_size or SEED_FACTOR * vocab_size, MAX_UNIGRAM_SEED)
    seeds = seed_pieces(sequences, max_piece_chars, max(seed_size, len(chars)))
    pieces = [p for p, _ in seeds]
    counts = [float(c) for _, c in seeds]
    target = vocab_size - 1
    rounds: list[UnigramRound] = []
    lattices = _Lattices(sequences, pieces)
    while True:
        lp = _probabilities(counts, floor=True)
        lls = []
        for _ in range(em_iterations):
            counts, ll = lattices.expected(lp)
            lls.append(ll)
            lp = _probabilities(counts, floor=False)
        if len(pieces) <= target:
            rounds.append(UnigramRound(len(rounds), len(pieces) + 1, tuple(lls), ()))
            break
        removed = _prune(pieces, lp, lattices, chars, target, shrink_share)
        rounds.append(UnigramRound(len(rounds), len(pieces) + 1, tuple(lls), removed))
        gone = {r.piece for r in removed}
        keep = [k for k, p in enumerate(pieces) if p not in gone]
        pieces, counts = [pieces[k] for k in keep], [counts[k] for k in keep]
        lattices.keep(keep)
        if progress is not None:
            progress(len(rounds), len(rounds) + _rounds_left(len(pieces), target, shrink_share))
    if progress is not None:
        progress(len(rounds), len(rounds))
    lp = _probabilities(counts, floor=True)
    order = sorted(range(len(pieces)), key=lambda k: (-lp[k], pieces[k]))
    if len(pieces) < target:
        stop = (f"the seed had only {len(pieces)} pieces (characters and substrings seen twice); "
                f"the vocabulary has {len(pieces) + 1}, not the {vocab_size} asked for")
    else:
        stop = f"reached the {vocab_size} pieces asked for in {len(rounds)} rounds"
    return UnigramTraining(
        level=corpus.level, pieces=tuple((pieces[k], lp[k]) for k in order),
        rounds=tuple(rounds), seed_size=len(seeds), requested_size=vocab_size, stop_reason=stop,
    )


def _rounds_left(size: int, target: int, shrink_share: float) -> int:
    """Rounds still to come (the last one only re-estimates), for a progress bar."""
    left = 1
    while size > target:
        size, left = max(target, math.ceil(size * (1 - shrink_share))), left + 1
    return left


def _prune(pieces: list[str], lp: list[float], lattices: _Lattices, chars: set[str],
           target: int, shrink_share: float) -> tuple[Removal, ...]:
    """The pieces to remove this round, cheapest first (see the module docstring, step 3)."""
    used = lattices.viterbi_counts(lp)
    ids = lattices.ids
    candidates = []
    for pid, piece in enumerate(pieces):
        if piece in chars:
            continue
        if used[pid] == 0:
            loss = 0.0
        else:
            loss = used[pid] * (lp[pid] - _best_without(piece, pid, ids, lp))
        candidates.append((loss, piece, used[pid]))
    keep = max(target, math.ceil(len(pieces) * (1 - shrink_share)))
    n_remove = min(len(pieces) - keep, len(candidates))
    candidates.sort(key=lambda c: (c[0], c[1]))
    return tuple(Removal(piece, count, loss) for loss, piece, count in candidates[:n_remove])


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == _NEG_INF:
        return _NEG_INF
    return top + math.log(sum(math.exp(v - top) for v in values))


def _logaddexp(a: float, b: float) -> float:
    if a < b:
        a, b = b, a
    if b == _NEG_INF:
        return a
    return a + math.log1p(math.exp(b - a))
