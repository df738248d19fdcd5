"""Fast BPE training that returns merge for merge what the textbook loop returns, ties included.

What it adds to textbook.py:
- symbols are small integers and each distinct sequence is stored once with its count;
- pair counts are updated incrementally: a merge only rewrites the sequences that hold the pair
  (an index from pair to sequences finds them), and only their pairs' counts change;
- the best pair comes from a lazy priority queue instead of a scan of every pair.

The tie-break is the textbook's. `first`: among the pairs with the top count, the one met first
when scanning the corpus in order (sequences in first-seen order, positions left to right),
which is what `max(pair_counts, key=pair_counts.get)` returns. `lexical`: the smallest pair.

Subtle: to know which pair is met first without rescanning, each pair keeps a lower bound on the
first sequence that holds it. Heap entries may be stale, but only ever optimistic (a count at
least the true one, a first sequence at most the true one), so the top entry is checked and, if
stale, corrected and pushed back. Two pairs first met in the same short sequence are told apart
by scanning that one sequence.

Long sequences (text with no spaces is one enormous chunk) are kept another way, `Chain`
(bpe_chain.py): a linked list of symbols with the positions where each pair occurs, so a merge costs the
occurrences it joins rather than the sequence's length, and a pair's first position in it is
part of its heap key, so ties inside one long sequence are ordered without any scan.

Leaves out: encoding (models/char_bpe.py), special tokens inside the corpus (they never merge),
and the record a run returns with the history of its steps (training.py).
"""

from __future__ import annotations

import heapq
from array import array
from collections import defaultdict
from typing import Callable

from ..levels import Symbol
from ..trace import Candidate, MergeStep
from .bpe_chain import Chain, Pair
from .corpus import Corpus

# What a run is asked and keeps lives in training.py; importable from here as before the split.
from .training import (  # noqa: F401
    ENTRY_NOUNS,
    TIE_BREAKS,
    BPETraining,
    History,
    TieBreak,
    check_history_cost,
    check_num_merges,
    check_tie_break,
    freeze_history,
    history_symbols,
    most_merges_recorded,
    segmentation_from_history,
)

Progress = Callable[[int, int], None]
LONG_SEQUENCE = 64  # symbols: a longer sequence is kept as a Chain (bpe_chain.py; tests set it lower)


class _Trainer:
    """The mutable state of one training run. Used only through `train_bpe`.

    Subtle: a sequence is stored as a `str` whose characters are symbol ids (`chr(id)`), and a
    pair as the two-character string of its ids. Then "merge every occurrence, left to right"
    is exactly `str.replace`, "does this sequence hold the pair" is `in`, and both run in C.
    A sequence longer than LONG_SEQUENCE is a `Chain` instead (`chains[w]`; `words[w]` is "").

    `pair_words[p]` may still list sequences that lost `p`, some twice (a merge meets them,
    finds nothing to join and moves on): keeping it exact would cost a search per lost pair.
    Subtle: it is an array of machine integers, not a set: sets are containers that Python's
    cycle collector walks, element by element, over and over while training allocates (on
    1 MB of Chinese that walk cost more than a quarter of the run); arrays it never visits.
    """

    def __init__(self, corpus: Corpus, special_tokens: tuple[str, ...], tie_break: TieBreak):
        self.tie_break = tie_break
        self.content: list[Symbol] = [*special_tokens, *corpus.alphabet]  # type: ignore[list-item]
        self.id_of: dict[Symbol, int] = {s: i for i, s in enumerate(self.content)}
        to_char = {s: chr(i) for s, i in self.id_of.items()}
        self.words = ["".join(map(to_char.__getitem__, seq)) for seq in corpus.sequences]
        self.chains = {w: Chain(word) for w, word in enumerate(self.words)
                       if len(word) > LONG_SEQUENCE}
        for w in self.chains:
            self.words[w] = ""
        self.freqs = list(corpus.counts)
        self.pair_counts: dict[Pair, int] = {}
        self.pair_words: dict[Pair, array[int]] = {}
        self.first_word: dict[Pair, int] = {}  # lower bound on the first sequence holding it
        self.first_pos: dict[Pair, int] = {}  # and on its position there (0 in a short one)
        # Pairs whose first_word / first_pos may be too low because a long sequence lost its
        # first place. A short first sequence is not marked: it is checked when its pair comes
        # up (_true_first), which is far rarer than the losses (two per rewritten sequence).
        self.dirty: set[Pair] = set()
        # A new pair with a count of at most `defer_up_to` (half the new pairs of Chinese have
        # 1) is only counted, its short sequences kept aside in `deferred`: no index, no heap
        # entry. Subtle: a pair gains copies only at the merge that makes it, then only loses,
        # so it cannot win while the top count is higher; when the top falls that low they
        # all join the heap (_activate_all) before any pair is picked. Deferred = counted but
        # not in pair_words (an entry of `deferred` for a pair dropped since is stale).
        self.defer_up_to = 2
        self.deferred: dict[Pair, list[int]] = {}
        for w, f in enumerate(self.freqs):
            self._count(w, f)
        self.heap = [self._key(p, c) for p, c in self.pair_counts.items()]
        heapq.heapify(self.heap)

    def _count(self, w: int, f: int) -> None:
        """Add sequence w's pairs (it occurs f times) to the counts."""
        counts, where, first_word = self.pair_counts, self.pair_words, self.first_word
        chain = self.chains.get(w)
        if chain is None:
            word = self.words[w]
            for i in range(len(word) - 1):
                pair = word[i : i + 2]
                if pair in counts:
                    counts[pair] += f
                    words_of = where[pair]
                    if words_of[-1] != w:  # sequences come in order: a repeat is the last one
                        words_of.append(w)
                else:
                    counts[pair] = f
                    where[pair] = array("l", (w,))
                    first_word[pair] = w
                    self.first_pos[pair] = 0
            return
        for pair, places in chain.at.items():  # exact and in order: nothing is stale yet
            if pair in counts:
                counts[pair] += f * len(places)
                where[pair].append(w)
            else:
                counts[pair] = f * len(places)
                where[pair] = array("l", (w,))
                first_word[pair] = w
                self.first_pos[pair] = places[0]

    def symbols(self, pair: Pair) -> tuple[Symbol, Symbol]:
        return self.content[ord(pair[0])], self.content[ord(pair[1])]

    def text(self, w: int) -> str:
        chain = self.chains.get(w)
        return self.words[w] if chain is None else chain.text()

    def _key(self, pair: Pair, count: int) -> tuple:
        if self.tie_break == "first":
            return (-count, self.first_word[pair], self.first_pos[pair], pair)
        return (-count, *self.symbols(pair), pair)

    def _first_in(self, w: int, pair: Pair) -> int | None:
        """Where sequence w first holds the pair (0 for any place in a short one), or None."""
        chain = self.chains.get(w)
        if chain is None:
            return 0 if pair in self.words[w] else None
        return chain.first(pair)

    def _true_first(self, pair: Pair) -> tuple[int, int]:
        word = self.words[self.first_word[pair]]  # "" for a long sequence: `dirty` tells
        if pair in self.dirty or (word and pair not in word):
            self.dirty.discard(pair)
            ordered = sorted(self.pair_words[pair])
            for k, w in enumerate(ordered):
                position = self._first_in(w, pair)
                if position is not None:
                    self.first_word[pair], self.first_pos[pair] = w, position
                    self.pair_words[pair] = array("l", ordered[k:])  # the ones below lost it
                    break
        return self.first_word[pair], self.first_pos[pair]

    def _is_current(self, entry: tuple) -> bool:
        pair = entry[-1]
        if self.pair_counts.get(pair, 0) != -entry[0]:
            return False
        return self.tie_break == "lexical" or entry[1:3] == self._true_first(pair)

    def best_pair(self) -> Pair | None:
        """Pop the pair the textbook loop would pick; None when no pair is left."""
        heap = self.heap
        while True:
            while heap:
                entry = heap[0]
                if self._is_current(entry):
                    break
                heapq.heappop(heap)
                count = self.pair_counts.get(entry[-1], 0)
                if count:
                    self._true_first(entry[-1])
                    heapq.heappush(heap, self._key(entry[-1], count))
            if not self.defer_up_to or (heap and -heap[0][0] > self.defer_up_to):
                break
            self._activate_all()  # the top may now tie with a deferred pair, or none is left
        if not heap:
            return None
        top = heapq.heappop(heap)
        if self.tie_break == "lexical":
            return top[-1]
        return self._first_among_ties(top)

    def _first_among_ties(self, top: tuple) -> Pair:
        """Among pairs with the same count first met in the same short sequence, the leftmost.
        (In a long one the key's position already orders them: no two pairs start at one place.)"""
        prefix = top[:3]
        group = [top[-1]]
        while self.heap and self.heap[0][:3] == prefix:
            entry = heapq.heappop(self.heap)
            pair = entry[-1]
            if pair in group or not self.pair_counts.get(pair):
                continue
            if self._is_current(entry):
                group.append(pair)
            else:  # its true key is strictly worse than the prefix: it sinks below
                heapq.heappush(self.heap, self._key(pair, self.pair_counts[pair]))
        if len(group) == 1:
            return group[0]
        assert prefix[1] not in self.chains, "two pairs cannot start at one place"
        word = self.words[prefix[1]]
        group.sort(key=word.find)  # where each is first met in that sequence
        for loser in group[1:]:
            heapq.heappush(self.heap, (*prefix, loser))
        return group[0]

    def merge(self, pair: Pair, step: int, history: list | None) -> tuple[int, int]:
        """Join `pair` everywhere; returns (new id, count the pair had).

        Subtle: this loop runs once per rewritten sequence (about 500,000 times for 4,000
        merges on 1 MB of Chinese), so the common case, one join in a short sequence, is
        spelled out here rather than called. Losses go straight into the counts (a lost pair
        was counted before this merge, so its count cannot go below zero); gains wait in
        `gained_in` until the end, where each new pair gets its sequences and first sequence once.
        The pair itself is not counted down per sequence: every copy of it is joined, so its
        count is deleted whole at the end.
        """
        counts, where, first_word, dirty = self.pair_counts, self.pair_words, self.first_word, self.dirty
        count = counts[pair]
        joined = self.content[ord(pair[0])] + self.content[ord(pair[1])]  # type: ignore[operator]
        new = self.id_of.get(joined)
        if new is None:  # the same string can be made twice (ab+c, a+bc): it keeps one id
            new = len(self.content)
            self.content.append(joined)
            self.id_of[joined] = new
        symbol = chr(new)
        words, freqs, drop = self.words, self.freqs, self._drop
        # Each new pair's short sequences, once per new copy (its gain is their counts' sum);
        # a long sequence's gains and first new places go in chain_gains instead.
        gained_in: defaultdict[Pair, list[int]] = defaultdict(list)
        chain_gains: dict[tuple[Pair, int], tuple[int, int]] = {}
        for w in where.pop(pair):
            word = words[w]
            if not word:  # only a long sequence's string is empty: it lives in self.chains
                chain = self.chains[w]
                if self._join_chain(chain, pair, symbol, w, chain_gains):
                    if history is not None:
                        history[w].append((step, chain.text()))
                continue
            i = word.find(pair)
            if i < 0:
                continue  # a stale entry: this sequence lost the pair earlier
            f = freqs[w]
            merged = word.replace(pair, symbol)  # non-overlapping, left to right: the textbook's
            n = len(word)
            if n - len(merged) > 1:  # each join shortens it by one: this took two or more
                self._many_joins(word, merged, pair, w, f, gained_in)
            else:  # x a b y becomes x new y: (x a), (b y) lose f, (x new), (new y) gain f
                if i:
                    p = word[i - 1 : i + 1]
                    c = counts[p] - f
                    if c:
                        counts[p] = c
                    else:
                        drop(p)
                    gained_in[merged[i - 1 : i + 1]].append(w)
                if i + 2 < n:
                    p = word[i + 1 : i + 3]
                    if p != pair:  # a a a: the second (a a) goes with the pair's own count
                        c = counts[p] - f
                        if c:
                            counts[p] = c
                        else:
                            drop(p)
                    gained_in[merged[i : i + 2]].append(w)
            words[w] = merged
            if history is not None:
                history[w].append((step, merged))
        del counts[pair]
        first_word.pop(pair, None)
        self.first_pos.pop(pair, None)
        dirty.discard(pair)
        self._gain(gained_in, chain_gains)
        return new, count

    def _lose(self, p: Pair, f: int) -> None:
        """A short sequence occurring f times lost one copy of pair p (if it was the pair's
        first sequence, _true_first finds that out when the pair comes up)."""
        c = self.pair_counts[p] - f
        if c:
            self.pair_counts[p] = c
        else:
            self._drop(p)

    def _drop(self, p: Pair) -> None:
        """Pair p occurs nowhere now (heap entries for it are dropped when met)."""
        del self.pair_counts[p]
        self.pair_words.pop(p, None)
        self.first_word.pop(p, None)
        self.first_pos.pop(p, None)
        self.dirty.discard(p)

    def _many_joins(self, old: str, merged: str, pair: Pair, w: int, f: int,
                    gained_in: defaultdict[Pair, list[int]]) -> None:
        """Only pairs touching a join change; the rest of the sequence is as it was."""
        gone: set[int] = set()
        fresh: set[int] = set()
        i, k = old.find(pair), 0
        while i >= 0:
            gone.update((i - 1, i, i + 1))
            fresh.update((i - k - 1, i - k))  # the k-th join lands k places further left
            i, k = old.find(pair, i + 2), k + 1
        for i in gone:
            if 0 <= i < len(old) - 1:
                p = old[i : i + 2]
                if p != pair:  # the pair's own count is deleted whole
                    self._lose(p, f)
        for i in fresh:
            if 0 <= i < len(merged) - 1:
                gained_in[merged[i : i + 2]].append(w)

    def _join_chain(self, chain: Chain, pair: Pair, symbol: str, w: int,
                    chain_gains: dict[tuple[Pair, int], tuple[int, int]]) -> int:
        """Join every occurrence of `pair` in a long sequence (Chain.join); returns how many.
        Its changes count once per occurrence of the sequence in the corpus (f times)."""
        joined, change, gained = chain.join(pair, symbol)
        if not joined:
            return 0
        f = self.freqs[w]
        counts, first_word, first_pos = self.pair_counts, self.first_word, self.first_pos
        for p, c in change.items():
            if c >= 0 or p == pair:  # gains wait for _gain; the pair's count is deleted whole
                continue
            left = counts[p] + c * f
            if not left:
                self._drop(p)
            else:
                counts[p] = left
                if first_word.get(p) == w and not chain.holds(p, first_pos[p]):
                    self.dirty.add(p)  # its first place is gone: find the next before trusting it
        for p, position in gained.items():
            # subtle: a pair may gain a place and lose as many (b N lost, x N made, N made
            # twice): its first place can still move left, so every gained place is recorded.
            chain_gains[p, w] = position, max(change.get(p, 0), 0) * f
        return joined

    def _gain(self, gained_in: defaultdict[Pair, list[int]],
              chain_gains: dict[tuple[Pair, int], tuple[int, int]]) -> None:
        """Add the merge's new pairs: counts, sequences, first sequence, and a heap entry."""
        counts, where = self.pair_counts, self.pair_words
        first_word, first_pos = self.first_word, self.first_pos
        heap, push, freq = self.heap, heapq.heappush, self.freqs.__getitem__
        first = self.tie_break == "first"
        deferred, up_to = self.deferred, self.defer_up_to
        for p, ws in gained_in.items():
            g = sum(map(freq, ws))
            c = counts.get(p)
            if c is not None and p not in where:  # deferred, and gaining again (made twice)
                ws += deferred.pop(p)
                g, c = g + c, None
            if c is None:
                counts[p] = c = g
                if g <= up_to:
                    deferred[p] = ws
                    continue
                w = min(ws)
                where[p] = array("l", ws)
                first_word[p] = w
                first_pos[p] = 0
            else:  # a pair of a string made twice (ab+c, a+bc) may already be counted
                w = min(ws)
                counts[p] = c = c + g
                where[p].extend(ws)
                if w < first_word[p]:  # w is short: its place is 0, a long one's is not lower
                    first_word[p], first_pos[p] = w, 0
                w = first_word[p]
            push(heap, (-c, w, first_pos[p], p) if first else self._key(p, c))
        for (p, w), (position, g) in chain_gains.items():
            c = counts.get(p)
            if c is not None and p not in where:
                self._activate(p)
            if c is None:
                if not g:
                    continue  # it lost every copy it had and the places it gained
                counts[p] = c = g
                where[p] = array("l", (w,))
                first_word[p], first_pos[p] = w, position
            else:
                counts[p] = c = c + g
                where[p].append(w)
                if (w, position) < (first_word[p], first_pos[p]):
                    first_word[p], first_pos[p] = w, position
            if not self.chains[w].holds(p, position):  # a later join took it: a lower bound
                self.dirty.add(p)
            push(heap, self._key(p, c))

    def _activate(self, p: Pair) -> None:
        """A deferred pair gets its sequences, first sequence and heap entry."""
        words_of = self.deferred.pop(p)
        self.pair_words[p] = array("l", words_of)
        self.first_word[p], self.first_pos[p] = min(words_of), 0  # all short: place 0
        heapq.heappush(self.heap, self._key(p, self.pair_counts[p]))

    def _activate_all(self) -> None:
        for p in list(self.deferred):
            if p in self.pair_counts and p not in self.pair_words:
                self._activate(p)
        self.deferred.clear()  # what is left is stale
        self.defer_up_to = 0  # from here on every pair is indexed when made

    def candidates(self, top_k: int) -> tuple[tuple[Candidate, ...], int]:
        """The top pairs in textbook order, and how many share the top count.

        Scans the whole corpus, like the textbook loop does: for classroom-sized corpora.
        """
        counts = self.pair_counts
        if not counts:
            return (), 0
        seen: dict[Pair, int] = {}  # scan order, exactly as the textbook fills its dict
        for w in range(len(self.words)):
            word = self.text(w)
            for i in range(len(word) - 1):
                seen.setdefault(word[i : i + 2], len(seen))
        if self.tie_break == "first":
            order = sorted(counts, key=lambda p: (-counts[p], seen[p]))
        else:
            order = sorted(counts, key=lambda p: (-counts[p], *self.symbols(p)))
        top = counts[order[0]]
        ties = sum(1 for c in counts.values() if c == top)
        chosen = tuple(Candidate(self.symbols(p), counts[p]) for p in order[:top_k])
        return chosen, ties


def train_bpe(
    corpus: Corpus,
    num_merges: int,
    tie_break: str = "first",
    special_tokens: tuple[str, ...] = (),
    top_k: int = 0,
    record_history: bool = False,
    progress: Progress | None = None,
) -> BPETraining:
    """Learn up to `num_merges` merges from a corpus.

    top_k > 0 records, at each step, the top pairs and the number tied at the top (for the race
    chart; costs a pass over all pairs per step, so keep it for classroom-sized corpora).
    record_history keeps each sequence's changes, so segmentation_at(k) is a lookup; it is
    refused (ValueError) when that could keep over MAX_HISTORY_SYMBOLS (check_history_cost).
    Training stops early, saying why, when no pair is left. `progress(done, total)` is called
    after every merge; an exception it raises stops training there (how a page cancels).
    """
    tie_break = check_tie_break(tie_break)
    num_merges = check_num_merges(num_merges)
    if record_history:
        check_history_cost(corpus, num_merges)
    trainer = _Trainer(corpus, tuple(special_tokens), tie_break)
    history: list[list] | None = [[] for _ in corpus.sequences] if record_history else None
    steps: list[MergeStep] = []
    stop_reason = f"learned the {num_merges} merges asked for"
    for rank in range(num_merges):
        candidates, ties = trainer.candidates(top_k) if top_k else ((), None)
        pair = trainer.best_pair()
        if pair is None:
            stop_reason = (
                f"stopped after {rank} of {num_merges} merges: no pair is left, "
                "every sequence is a single token"
            )
            break
        new_id, count = trainer.merge(pair, rank, history)
        symbols = trainer.symbols(pair)
        steps.append(
            MergeStep(rank, symbols, trainer.content[new_id], new_id, count,
                      len(trainer.content), candidates, ties)
        )
        if progress is not None:
            progress(rank + 1, num_merges)
    return BPETraining(
        corpus=corpus,
        steps=tuple(steps),
        stop_reason=stop_reason,
        tie_break=tie_break,
        special_tokens=tuple(special_tokens),
        vocab=tuple(trainer.content),
        requested_merges=num_merges,
        history=freeze_history(history, trainer.content, key=ord),
    )
