"""WordPiece training: merge the pair with the best *score*, not the most frequent pair.

What it adds to BPE training (bpe.py):
- words start as their first character plus `##`-prefixed continuation characters
  (`hug` -> h ##u ##g), and a merge glues the continuation on: `h` + `##u` -> `hu`,
  `##u` + `##g` -> `##ug`;
- pairs are ranked by a score that divides by how common the parts already are. With counts
  weighted by word frequency and taken on the current segmentation:
    ratio       count(ab) / (count(a) * count(b))                     (the default)
    likelihood  count(ab) * ln(P(ab) / (P(a) * P(b))), P(x) = count(x) / N,
                N = the number of symbols in the corpus now (it falls by one per join);
- a trace record per merge (`WordPieceStep`) with the score and the three counts behind it.

Tie-break, as for BPE: `first` (default) is the pair met first scanning the corpus (words in
first-seen order, positions left to right), which is what the textbook loop
`for pair, score in scores.items(): if best is None or score > best_score` returns over a dict
filled in scan order; `lexical` is the smallest pair among the top scores. Scores are floats
computed by one function (`pair_score`), so the fast trainer and the textbook loop compare the
very same numbers and agree on every tie. `rank_by_score` lists every pair in that order; its
BPE twin `rank_by_count` (count(ab) alone) is here too, so lessons/bpe_vs_wordpiece.py ranks both rules alike.

Subtle (why this is not BPE's lazy heap): a merge lowers count(a) and count(b), which *raises*
the score of every other pair holding a or b, and under `likelihood` every merge lowers N,
which moves every score. So pairs live in one heap per pair count, ordered by
count(a) * count(b): for a fixed count(ab) both scores fall as that product grows, whatever N
is. A merge re-files only the pairs whose count changed or that hold a, b or the new symbol;
each step scores just the top of each heap and takes the best.

Cost and bounds: building is linear in the corpus; a merge costs the words that hold the pair
(each rewritten in full) plus the pairs that share a symbol with it; a step costs one score per
distinct pair count. A few thousand distinct words and a few hundred merges take a fraction of a
second. Recording candidates (`top_k`) rescans the whole corpus per step: classroom corpora
only. `check_training_bounds` refuses corpora and requests past its limits.

Leaves out: the corpus, its `##` split and the bounds of a run (wordpiece_words.py), the step
and run records (wordpiece_steps.py), encoding (models/wordpiece.py), and HF's
`WordPieceTrainer`, which trains BPE and only renames the pieces; it is not this algorithm.
"""

from __future__ import annotations

import heapq
import math
from typing import Callable, cast

from ..models.wordpiece import (
    CONTINUATION,
    DEFAULT_SPECIAL_TOKENS,
    ScoreKind,
    check_score,
    join_pieces,
)
from ..trace import Candidate
from .corpus import Corpus
from .training import TieBreak, check_num_merges, check_tie_break, freeze_history

# The corpus and the records live in their own modules; importable from here as before the split.
from .wordpiece_steps import (  # noqa: F401
    History,
    WordPieceStep,
    WordPieceTraining,
    merge_ids,
    merge_wordpiece,
    string_splits,
)
from .wordpiece_words import (  # noqa: F401
    MAX_DISTINCT_WORDS,
    MAX_MERGES,
    MAX_TOP_K,
    MAX_WORD_CHARS,
    bert_word_counts,
    check_split,
    check_training_bounds,
    wordpiece_corpus,
)

Pair = tuple[str, str]
IdPair = tuple[int, int]
Progress = Callable[[int, int], None]
Changes = list[list[tuple[int, list[int]]]]  # per word: (step, ids after it), while training


def pair_score(score: ScoreKind, count_ab: int, count_a: int, count_b: int, total: int) -> float:
    """The score of pair (a, b); `total` is N, the number of symbols in the corpus now.

    Subtle: integer products first, then one true division (correctly rounded), so equal
    fractions give equal floats and a larger count(a) * count(b) never gives a larger score.
    """
    if score == "ratio":
        return count_ab / (count_a * count_b)
    return count_ab * math.log(count_ab * total / (count_a * count_b))


# --- The textbook loop: the oracle, the baseline, and the code a class reads ------------------


def count_symbols_and_pairs(
    splits: list[list[str]], counts: tuple[int, ...]
) -> tuple[dict[str, int], dict[Pair, int]]:
    """Symbol counts and pair counts, weighted by word count; pairs in scan order."""
    symbol_counts: dict[str, int] = {}
    pair_counts: dict[Pair, int] = {}
    for split, count in zip(splits, counts):
        for symbol in split:
            symbol_counts[symbol] = symbol_counts.get(symbol, 0) + count
        for pair in zip(split, split[1:]):
            pair_counts[pair] = pair_counts.get(pair, 0) + count
    return symbol_counts, pair_counts


def textbook_wordpiece(
    corpus: Corpus,
    num_merges: int,
    score: str = "ratio",
    tie_break: str = "first",
    continuation: str = CONTINUATION,
) -> tuple[list[Pair], list[float]]:
    """Learn up to `num_merges` merges; returns (merges, the score of each when it was picked)."""
    score_kind, tie = check_score(score), check_tie_break(tie_break)
    splits = string_splits(corpus)
    merges: list[Pair] = []
    merge_scores: list[float] = []
    for _ in range(num_merges):
        symbol_counts, pair_counts = count_symbols_and_pairs(splits, corpus.counts)
        if not pair_counts:
            break  # every word is one piece: nothing left to merge
        total = sum(symbol_counts.values())
        scores = {
            pair: pair_score(score_kind, n, symbol_counts[pair[0]], symbol_counts[pair[1]], total)
            for pair, n in pair_counts.items()
        }
        best: Pair | None = None
        if tie == "first":  # a later pair must score strictly more: the first met keeps a tie
            best_score = 0.0
            for pair, pair_s in scores.items():
                if best is None or pair_s > best_score:
                    best, best_score = pair, pair_s
        else:  # lexical: the top score, then the smallest pair
            best = min(scores, key=lambda p: (-scores[p], p))
        assert best is not None  # pair_counts is not empty
        splits = [merge_wordpiece(split, best, continuation) for split in splits]
        merges.append(best)
        merge_scores.append(scores[best])
    return merges, merge_scores


def rank_by_count(
    splits: list[list[str]],
    counts: tuple[int, ...],
    tie_break: TieBreak = "first",
    top_k: int | None = None,
) -> tuple[list[Candidate], int]:
    """BPE's ranking: every pair (or the top_k) by count(ab), best first (ties in scan order, or
    lexical), and how many share the top count. The score is count(ab) itself."""
    symbol_counts, pair_counts = count_symbols_and_pairs(splits, counts)
    if tie_break == "first":  # subtle: a stable sort keeps scan order among equal counts
        order = sorted(pair_counts, key=lambda p: -pair_counts[p])
    else:
        order = sorted(pair_counts, key=lambda p: (-pair_counts[p], p))
    ranked = [
        Candidate(
            p, pair_counts[p], float(pair_counts[p]), symbol_counts[p[0]], symbol_counts[p[1]]
        )
        for p in order[:top_k]
    ]
    ties = sum(1 for n in pair_counts.values() if n == pair_counts[order[0]]) if order else 0
    return ranked, ties


def rank_by_score(
    splits: list[list[str]],
    counts: tuple[int, ...],
    score: ScoreKind,
    tie_break: TieBreak = "first",
) -> tuple[list[Candidate], int]:
    """Every pair, best first (ties in scan order, or lexical), and how many share the top score."""
    symbol_counts, pair_counts = count_symbols_and_pairs(splits, counts)
    if not pair_counts:
        return [], 0
    total = sum(symbol_counts.values())
    ranked = [
        Candidate(
            pair, n, pair_score(score, n, symbol_counts[pair[0]], symbol_counts[pair[1]], total),
            symbol_counts[pair[0]], symbol_counts[pair[1]],
        )
        for pair, n in pair_counts.items()
    ]
    if tie_break == "first":  # subtle: a stable sort keeps scan order among equal scores
        ranked.sort(key=lambda c: -c.score)  # type: ignore[operator]
    else:
        ranked.sort(key=lambda c: (-c.score, c.pair))  # type: ignore[operator]
    ties = sum(1 for c in ranked if c.score == ranked[0].score)
    return ranked, ties


# --- The fast trainer ---------------------------------------------------------------------------


class _Trainer:
    """The mutable state of one run; used only through `train_wordpiece`.

    `classes[n]` is a heap of (count(a) * count(b), pair) for pairs with count n. Entries go
    stale when a pair's count or a part's count changes; a fresh entry is pushed at that
    moment, so every live pair always has one entry that is current, and stale ones are dropped
    when they surface.
    """

    def __init__(self, corpus: Corpus, special_tokens: tuple[str, ...], score: ScoreKind,
                 tie_break: TieBreak, continuation: str) -> None:
        self.score, self.tie_break, self.continuation = score, tie_break, continuation
        alphabet = cast("tuple[str, ...]", corpus.alphabet)
        self.content: list[str] = list(dict.fromkeys([*special_tokens, *alphabet]))
        self.id_of: dict[str, int] = {s: i for i, s in enumerate(self.content)}
        self.words = [[self.id_of[s] for s in split] for split in string_splits(corpus)]
        self.freqs = list(corpus.counts)
        self.symbol_counts = [0] * len(self.content)
        self.pair_counts: dict[IdPair, int] = {}
        self.pair_words: dict[IdPair, set[int]] = {}  # exactly the words holding the pair
        self.symbol_pairs: dict[int, set[IdPair]] = {}  # live pairs holding the symbol
        for w, (word, f) in enumerate(zip(self.words, self.freqs)):
            for s in word:
                self.symbol_counts[s] += f
            for pair in zip(word, word[1:]):
                self.pair_counts[pair] = self.pair_counts.get(pair, 0) + f
                self.pair_words.setdefault(pair, set()).add(w)
        self.total = sum(self.symbol_counts)
        for pair in self.pair_counts:
            self._index(pair)
        self.classes: dict[int, list[tuple[int, IdPair]]] = {}
        for pair in self.pair_counts:
            self._file(pair)

    def _index(self, pair: IdPair) -> None:
        self.symbol_pairs.setdefault(pair[0], set()).add(pair)
        self.symbol_pairs.setdefault(pair[1], set()).add(pair)

    def _product(self, pair: IdPair) -> int:
        return self.symbol_counts[pair[0]] * self.symbol_counts[pair[1]]

    def _file(self, pair: IdPair) -> None:
        heap = self.classes.setdefault(self.pair_counts[pair], [])
        heapq.heappush(heap, (self._product(pair), pair))

    def _is_current(self, n: int, entry: tuple[int, IdPair]) -> bool:
        product, pair = entry
        return self.pair_counts.get(pair) == n and self._product(pair) == product

    def _score(self, n: int, pair: IdPair) -> float:
        a, b = pair
        return pair_score(self.score, n, self.symbol_counts[a], self.symbol_counts[b], self.total)

    def _class_top(self, n: int) -> IdPair | None:
        heap = self.classes[n]
        while heap and not self._is_current(n, heap[0]):
            heapq.heappop(heap)
        return heap[0][1] if heap else None

    def best_pair(self) -> tuple[IdPair, float] | None:
        """The pair the textbook loop would pick and its score; None when no pair is left."""
        best: float | None = None
        top_classes: list[int] = []
        for n in list(self.classes):
            pair = self._class_top(n)
            if pair is None:
                del self.classes[n]
                continue
            s = self._score(n, pair)
            if best is None or s > best:
                best, top_classes = s, [n]
            elif s == best:
                top_classes.append(n)
        if best is None:
            return None
        group = self._pop_ties(top_classes, best)
        winner = self._break_tie(group)
        for pair in group:
            if pair != winner:
                self._file(pair)
        return winner, best

    def _pop_ties(self, top_classes: list[int], best: float) -> list[IdPair]:
        """Take every current pair scoring exactly `best` out of the heaps."""
        group: dict[IdPair, None] = {}
        for n in top_classes:
            heap = self.classes[n]
            while heap:
                entry = heap[0]
                if self._is_current(n, entry) and self._score(n, entry[1]) != best:
                    break  # the heap is ordered by product: every later score is lower
                heapq.heappop(heap)
                if self._is_current(n, entry):
                    group[entry[1]] = None
        return list(group)

    def _break_tie(self, group: list[IdPair]) -> IdPair:
        if len(group) == 1:
            return group[0]
        if self.tie_break == "lexical":
            return min(group, key=lambda p: (self.content[p[0]], self.content[p[1]]))
        return min(group, key=self._first_seen)

    def _first_seen(self, pair: IdPair) -> tuple[int, int]:
        """(word, position) where a scan of the corpus first meets the pair."""
        w = min(self.pair_words[pair])
        word = self.words[w]
        return w, next(i for i, p in enumerate(zip(word, word[1:])) if p == pair)

    def merge(self, pair: IdPair, step: int, history: Changes | None) -> tuple[int, int, int, int]:
        """Join `pair` everywhere; returns (new id, count(ab), count(a), count(b)) before it."""
        a, b = pair
        before = (self.pair_counts[pair], self.symbol_counts[a], self.symbol_counts[b])
        new = self._symbol(join_pieces(self.content[a], self.content[b], self.continuation))
        delta: dict[IdPair, int] = {}
        joined = 0
        for w in sorted(self.pair_words[pair]):
            joined += self._rewrite(w, a, b, new, delta)
            if history is not None:
                history[w].append((step, self.words[w]))
        self.symbol_counts[a] -= joined
        self.symbol_counts[b] -= joined
        self.symbol_counts[new] += joined
        self.total -= joined
        changed = self._apply(delta)
        for s in (a, b, new):
            changed.update(self.symbol_pairs.get(s, ()))
        for p in changed:
            self._file(p)
        assert pair not in self.pair_counts, "a merge leaves no occurrence of its pair"
        return (new, *before)

    def _symbol(self, piece: str) -> int:
        """The id of a piece, new or made before (the same piece can be joined two ways)."""
        if piece not in self.id_of:
            self.id_of[piece] = len(self.content)
            self.content.append(piece)
            self.symbol_counts.append(0)
        return self.id_of[piece]

    def _rewrite(self, w: int, a: int, b: int, new: int, delta: dict[IdPair, int]) -> int:
        """Rewrite word w; record its pair-count changes; returns the joins times its count."""
        old = self.words[w]
        merged, joins = merge_ids(old, a, b, new)
        self.words[w] = merged
        f = self.freqs[w]
        old_pairs, new_pairs = list(zip(old, old[1:])), list(zip(merged, merged[1:]))
        for p in old_pairs:
            delta[p] = delta.get(p, 0) - f
        for p in new_pairs:
            delta[p] = delta.get(p, 0) + f
        for p in set(old_pairs).difference(new_pairs):
            self.pair_words[p].discard(w)
        for p in set(new_pairs).difference(old_pairs):
            self.pair_words.setdefault(p, set()).add(w)
        return joins * f

    def _apply(self, delta: dict[IdPair, int]) -> set[IdPair]:
        """Apply pair-count changes; returns the live pairs whose count changed."""
        changed: set[IdPair] = set()
        for p, d in delta.items():
            if not d:
                continue
            c = self.pair_counts.get(p, 0) + d
            if c:
                if p not in self.pair_counts:
                    self._index(p)
                self.pair_counts[p] = c
                changed.add(p)
            else:
                del self.pair_counts[p]
                self.pair_words.pop(p, None)
                self.symbol_pairs[p[0]].discard(p)
                self.symbol_pairs[p[1]].discard(p)
        return changed

    def candidates(self, top_k: int) -> tuple[tuple[Candidate, ...], int]:
        """The top pairs in textbook order and how many share the top score (a full rescan)."""
        splits = [[self.content[s] for s in word] for word in self.words]
        ranked, ties = rank_by_score(splits, tuple(self.freqs), self.score, self.tie_break)
        return tuple(ranked[:top_k]), ties


def train_wordpiece(
    corpus: Corpus,
    num_merges: int,
    score: str = "ratio",
    tie_break: str = "first",
    special_tokens: tuple[str, ...] = DEFAULT_SPECIAL_TOKENS,
    continuation: str = CONTINUATION,
    top_k: int = 0,
    record_history: bool = False,
    progress: Progress | None = None,
) -> WordPieceTraining:
    """Learn up to `num_merges` merges from a `##`-split corpus (see `wordpiece_corpus`).

    continuation='' trains on the corpus's symbols as they are and joins pieces plainly (the
    `</w>` split that lessons/bpe_vs_wordpiece.py puts side by side with BPE).
    top_k > 0 records, at each step, the top pairs and the number tied at the top score.
    record_history keeps each word's changes, so segmentation_at(k) is a lookup.
    Training stops early, saying why, when no pair is left.
    """
    score_kind = check_score(score)
    tie = check_tie_break(tie_break)
    num_merges = check_num_merges(num_merges)
    check_split(corpus, continuation)
    check_training_bounds(corpus, num_merges, top_k)
    if len(set(special_tokens)) != len(special_tokens) or not all(special_tokens):
        raise ValueError(
            f"special tokens must be distinct non-empty strings, got {special_tokens!r}"
        )
    trainer = _Trainer(corpus, tuple(special_tokens), score_kind, tie, continuation)
    history: Changes | None = [[] for _ in corpus.sequences] if record_history else None
    steps: list[WordPieceStep] = []
    stop_reason = f"learned the {num_merges} merges asked for"
    for rank in range(num_merges):
        candidates, ties = trainer.candidates(top_k) if top_k else ((), None)
        total = trainer.total
        chosen = trainer.best_pair()
        if chosen is None:
            stop_reason = (
                f"stopped after {rank} of {num_merges} merges: no pair is left, "
                "every word is a single piece"
            )
            break
        pair, pair_s = chosen
        new_id, count, count_a, count_b = trainer.merge(pair, rank, history)
        steps.append(WordPieceStep(
            rank, (trainer.content[pair[0]], trainer.content[pair[1]]), trainer.content[new_id],
            new_id, pair_s, count, count_a, count_b, total, len(trainer.content), candidates, ties,
        ))
        if progress is not None:
            progress(rank + 1, num_merges)
    return WordPieceTraining(
        corpus=corpus, steps=tuple(steps), stop_reason=stop_reason, score=score_kind,
        tie_break=tie, special_tokens=tuple(special_tokens), vocab=tuple(trainer.content),
        requested_merges=num_merges, continuation=continuation,
        history=freeze_history(history, trainer.content),  # type: ignore[arg-type]
    )
