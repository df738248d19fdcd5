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

Long sequences (text with no spaces is one enormous chunk) are kept another way, `_Chain`: a
linked list of symbols with the positions where each pair occurs, so a merge costs the
occurrences it joins rather than the sequence's length, and a pair's first position in it is
part of its heap key, so ties inside one long sequence are ordered without any scan.

Leaves out: encoding (models/char_bpe.py) and special tokens inside the corpus (they never merge).
"""

from __future__ import annotations

import heapq
from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

from ..bounds import MAX_HISTORY_SYMBOLS
from ..levels import Symbol
from ..trace import Candidate, MergeStep
from .corpus import Corpus
from .textbook import merge_pair

TieBreak = Literal["first", "lexical"]
ENTRY_NOUNS = {"word": "word", "sentence": "line", "byte": "chunk"}  # what one sequence is
TIE_BREAKS: tuple[TieBreak, ...] = ("first", "lexical")
Pair = str  # two characters: the ids of the two symbols, as chr(id)
Progress = Callable[[int, int], None]
History = tuple[tuple[tuple[int, tuple[Symbol, ...]], ...], ...]  # per sequence: (step, after it)
LONG_SEQUENCE = 64  # symbols: a longer sequence is kept as a _Chain (tests set it lower)


def check_tie_break(tie_break: str) -> TieBreak:
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break {tie_break!r}; choose 'first' or 'lexical'")
    return tie_break  # type: ignore[return-value]


def history_symbols(corpus: Corpus, num_merges: int) -> int:
    """At most how many symbols `record_history` keeps: a sequence of n symbols is stored again
    at each merge that changes it, and it can change at most n - 1 times."""
    return sum(len(seq) * min(num_merges, len(seq) - 1) for seq in corpus.sequences)


def most_merges_recorded(corpus: Corpus, limit: int = MAX_HISTORY_SYMBOLS) -> int:
    """The most merges whose every step can be recorded within `limit` symbols."""
    low, high = 0, max(map(len, corpus.sequences), default=1)  # beyond: nothing changes
    while low < high:  # history_symbols grows with the merges: the last count that fits
        middle = (low + high + 1) // 2
        low, high = (middle, high) if history_symbols(corpus, middle) <= limit else (low, middle - 1)
    return low


def check_history_cost(corpus: Corpus, num_merges: int) -> None:
    """ValueError, saying what to do, when recording every step would keep too much."""
    cost = history_symbols(corpus, num_merges)
    if cost <= MAX_HISTORY_SYMBOLS:
        return
    noun = ENTRY_NOUNS[corpus.level]
    longest = max(map(len, corpus.sequences))
    most = most_merges_recorded(corpus)
    fewer = f"Ask for {most:,} merges or fewer, or use" if most else "Use"
    raise ValueError(
        f"keeping every step of {num_merges:,} merges could hold {cost:,} symbols, over the "
        f"bound of {MAX_HISTORY_SYMBOLS:,}: each {noun} is stored again at every merge that "
        f"changes it, and the longest has {longest:,} symbols. {fewer} text whose {noun}s "
        "are shorter (at byte level, text with no spaces is one chunk)"
    )


def check_num_merges(num_merges: object) -> int:
    if isinstance(num_merges, bool) or not isinstance(num_merges, int) or num_merges < 0:
        raise ValueError(f"number of merges must be a whole number >= 0, got {num_merges!r}")
    return num_merges


@dataclass(frozen=True)
class BPETraining:
    """What training learned, step by step.

    `segmentation_at(k)` gives every corpus sequence as it stood after the first k merges,
    without training again.
    """

    corpus: Corpus
    steps: tuple[MergeStep, ...]
    stop_reason: str
    tie_break: TieBreak
    special_tokens: tuple[str, ...]
    vocab: tuple[Symbol, ...]
    requested_merges: int
    history: History | None = field(default=None, repr=False)

    @property
    def merges(self) -> list[tuple[Symbol, Symbol]]:
        return [step.pair for step in self.steps]

    @property
    def counts(self) -> list[int]:
        return [step.count for step in self.steps]

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def segmentation_at(self, k: int) -> list[tuple[Symbol, ...]]:
        """Each distinct corpus sequence after the first `k` merges (0 <= k <= len(steps))."""
        return segmentation_from_history(
            self.corpus.sequences, self.history, len(self.steps), k,
            lambda n: _replay(self.corpus, self.merges[:n]),
        )


def segmentation_from_history(
    sequences: Sequence[tuple[Symbol, ...]],
    history: History | None,
    num_steps: int,
    k: int,
    replay: Callable[[int], list[tuple[Symbol, ...]]],
) -> list[tuple[Symbol, ...]]:
    """Each sequence after the first `k` of `num_steps` merges: a lookup in the recorded
    history, or `replay(k)` when training kept none (BPE's and WordPiece's segmentation_at)."""
    if not 0 <= k <= num_steps:
        raise ValueError(f"step must be between 0 and {num_steps}, got {k}")
    if history is None:
        return replay(k)
    result = []
    for seq, changes in zip(sequences, history):
        current = seq
        for step, symbols in changes:  # few changes per sequence: a scan is enough
            if step >= k:
                break
            current = symbols
        result.append(current)
    return result


def freeze_history(
    history: list[list[tuple[int, Any]]] | None,
    content: Sequence[Symbol],
    key: Callable[[Any], int] | None = None,
) -> History | None:
    """Each sequence's recorded (step, ids) changes as symbols, `content[key(id)]` per id
    (key=ord for BPE's chr-coded sequences; WordPiece's plain ids need none)."""
    if history is None:
        return None
    return tuple(
        tuple(
            (step, tuple(content[i] for i in (ids if key is None else map(key, ids))))
            for step, ids in changes
        )
        for changes in history
    )


def _replay(corpus: Corpus, merges: list[tuple[Symbol, Symbol]]) -> list[tuple[Symbol, ...]]:
    splits = [list(seq) for seq in corpus.sequences]
    for pair in merges:
        splits = [merge_pair(s, pair) if len(s) > 1 else s for s in splits]
    return [tuple(s) for s in splits]


class _Chain:
    """One long sequence as a linked list, so that a merge costs the places it joins.

    A symbol sits at the position where it starts (a joined symbol keeps its left part's), linked
    to its neighbours; `at[pair]` lists positions where the pair was made. Positions never move,
    so they order occurrences exactly as a left-to-right scan meets them, which is what the
    `first` tie-break needs. A position whose symbol was joined into its left neighbour holds "".

    Subtle: `at` is never pruned when a pair is lost (that would cost a search per join); each
    listed position is checked against the list when read (`holds`), and `first` drops the
    stale ones it meets. Positions are machine integers in arrays: a 1 MB sequence with a
    Python int per position and link would take several hundred MB.
    """

    __slots__ = ("sym", "nxt", "prv", "at")

    def __init__(self, word: str) -> None:
        n = len(word)
        self.sym = list(word)
        self.nxt = array("l", range(1, n + 1))  # n: no next symbol
        self.prv = array("l", range(-1, n - 1))  # -1: no previous symbol
        self.at: dict[Pair, array] = {}
        for i in range(n - 1):
            pair = word[i : i + 2]
            where = self.at.get(pair)
            if where is None:
                self.at[pair] = array("l", (i,))
            else:
                where.append(i)

    def text(self) -> str:
        """The sequence as it stands, as the trainer's string of symbol ids."""
        sym, nxt, n = self.sym, self.nxt, len(self.sym)
        out, i = [], 0
        while i < n:
            out.append(sym[i])
            i = nxt[i]
        return "".join(out)

    def holds(self, pair: Pair, i: int) -> bool:
        """Whether the pair starts at position i now."""
        j = self.nxt[i]
        return j < len(self.sym) and self.sym[i] + self.sym[j] == pair

    def first(self, pair: Pair) -> int | None:
        """Where the pair first occurs now (None: nowhere); forgets the places it lost."""
        where = self.at.get(pair)
        if where is None:
            return None
        live = array("l", sorted({i for i in where if self.holds(pair, i)}))
        if not live:
            del self.at[pair]
            return None
        self.at[pair] = live
        return live[0]


class _Trainer:
    """The mutable state of one training run. Used only through `train_bpe`.

    Subtle: a sequence is stored as a `str` whose characters are symbol ids (`chr(id)`), and a
    pair as the two-character string of its ids. Then "merge every occurrence, left to right"
    is exactly `str.replace`, "does this sequence hold the pair" is `in`, and both run in C.
    A sequence longer than LONG_SEQUENCE is a `_Chain` instead (`chains[w]`; `words[w]` is "").

    `pair_words[p]` may still list sequences that lost `p` (they are dropped when met):
    keeping it exact would cost a set difference per rewritten sequence.
    """

    def __init__(self, corpus: Corpus, special_tokens: tuple[str, ...], tie_break: TieBreak):
        self.tie_break = tie_break
        self.content: list[Symbol] = [*special_tokens, *corpus.alphabet]  # type: ignore[list-item]
        self.id_of: dict[Symbol, int] = {s: i for i, s in enumerate(self.content)}
        to_char = {s: chr(i) for s, i in self.id_of.items()}
        self.words = ["".join(map(to_char.__getitem__, seq)) for seq in corpus.sequences]
        self.chains = {w: _Chain(word) for w, word in enumerate(self.words)
                       if len(word) > LONG_SEQUENCE}
        for w in self.chains:
            self.words[w] = ""
        self.freqs = list(corpus.counts)
        self.pair_counts: dict[Pair, int] = {}
        self.pair_words: dict[Pair, set[int]] = {}
        self.first_word: dict[Pair, int] = {}  # lower bound on the first sequence holding it
        self.first_pos: dict[Pair, int] = {}  # and on its position there (0 in a short one)
        self.dirty: set[Pair] = set()  # pairs whose first_word / first_pos may be too low
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
                    where[pair].add(w)
                else:
                    counts[pair] = f
                    where[pair] = {w}
                    first_word[pair] = w
                    self.first_pos[pair] = 0
            return
        for pair, places in chain.at.items():  # exact and in order: nothing is stale yet
            if pair in counts:
                counts[pair] += f * len(places)
                where[pair].add(w)
            else:
                counts[pair] = f * len(places)
                where[pair] = {w}
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
        if pair in self.dirty:
            self.dirty.discard(pair)
            where = self.pair_words[pair]
            for w in sorted(where):
                position = self._first_in(w, pair)
                if position is not None:
                    self.first_word[pair], self.first_pos[pair] = w, position
                    break
                where.discard(w)
        return self.first_word[pair], self.first_pos[pair]

    def _is_current(self, entry: tuple) -> bool:
        pair = entry[-1]
        if self.pair_counts.get(pair, 0) != -entry[0]:
            return False
        return self.tie_break == "lexical" or entry[1:3] == self._true_first(pair)

    def best_pair(self) -> Pair | None:
        """Pop the pair the textbook loop would pick; None when no pair is left."""
        heap = self.heap
        while heap:
            entry = heap[0]
            if self._is_current(entry):
                break
            heapq.heappop(heap)
            count = self.pair_counts.get(entry[-1], 0)
            if count:
                self._true_first(entry[-1])
                heapq.heappush(heap, self._key(entry[-1], count))
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
        """Join `pair` everywhere; returns (new id, count the pair had)."""
        count = self.pair_counts[pair]
        joined = self.content[ord(pair[0])] + self.content[ord(pair[1])]  # type: ignore[operator]
        new = self.id_of.get(joined)
        if new is None:  # the same string can be made twice (ab+c, a+bc): it keeps one id
            new = len(self.content)
            self.content.append(joined)
            self.id_of[joined] = new
        symbol = chr(new)
        delta: dict[Pair, int] = {}
        made: list[tuple[Pair, int, int]] = []  # (pair, sequence, position) for every new pair
        for w in self.pair_words.pop(pair):
            if w in self.chains:
                joins = self._join_chain(self.chains[w], pair, symbol, w, delta, made)
                if joins and history is not None:
                    history[w].append((step, self.chains[w].text()))
                continue
            word = self.words[w]
            joins = word.count(pair)  # non-overlapping, left to right: the textbook's merge
            if not joins:
                continue  # a stale entry: this sequence lost the pair earlier
            f = self.freqs[w]
            if joins == 1:
                i = word.find(pair)
                merged = word[:i] + symbol + word[i + 2 :]
                self._one_join(word, i, pair, symbol, w, f, delta, made)
            else:
                merged = word.replace(pair, symbol)
                self._many_joins(word, merged, pair, w, f, delta, made)
            self.words[w] = merged
            if history is not None:
                history[w].append((step, merged))
        self._apply(delta, made)
        self.first_word.pop(pair, None)
        self.first_pos.pop(pair, None)
        self.dirty.discard(pair)
        return new, count

    def _one_join(self, old: str, i: int, pair: Pair, symbol: str, w: int, f: int,
                  delta: dict[Pair, int], made: list[tuple[Pair, int, int]]) -> None:
        """The common case, spelled out (and inlined: it runs for most rewritten sequences):
        x a b y becomes x new y, so (x a), (a b), (b y) lose f and (x new), (new y) gain f."""
        get, first_word = delta.get, self.first_word
        delta[pair] = get(pair, 0) - f
        if i > 0:
            x = old[i - 1]
            lost = x + pair[0]
            delta[lost] = get(lost, 0) - f
            if first_word.get(lost) == w:
                self.dirty.add(lost)  # w may have held its last copy: check before trusting it
            p = x + symbol
            delta[p] = get(p, 0) + f
            made.append((p, w, 0))
        if i + 2 < len(old):
            y = old[i + 2]
            lost = pair[1] + y
            delta[lost] = get(lost, 0) - f
            if first_word.get(lost) == w:
                self.dirty.add(lost)
            p = symbol + y
            delta[p] = get(p, 0) + f
            made.append((p, w, 0))

    def _many_joins(self, old: str, merged: str, pair: Pair, w: int, f: int,
                    delta: dict[Pair, int], made: list[tuple[Pair, int, int]]) -> None:
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
                self._lose(old[i : i + 2], w, f, delta)
        for i in fresh:
            if 0 <= i < len(merged) - 1:
                p = merged[i : i + 2]
                delta[p] = delta.get(p, 0) + f
                made.append((p, w, 0))

    def _lose(self, p: Pair, w: int, f: int, delta: dict[Pair, int]) -> None:
        delta[p] = delta.get(p, 0) - f
        if self.first_word.get(p) == w:
            self.dirty.add(p)  # w may have held its last copy: check before trusting it

    def _join_chain(self, chain: _Chain, pair: Pair, symbol: str, w: int,
                    delta: dict[Pair, int], made: list[tuple[Pair, int, int]]) -> int:
        """Join every occurrence of `pair` in a long sequence, left to right; returns how many.

        x a b y becomes x new y at a's position: (x a), (a b), (b y) lose an occurrence, (x new)
        and (new y) gain one. An occurrence whose `a` the join before it took (a a a) is
        skipped, as the textbook's scan skips it. Subtle: this runs once per occurrence, up to
        a million times in one merge, so the bookkeeping is inlined and counted per pair at the
        end rather than per join.
        """
        sym, nxt, prv, at = chain.sym, chain.nxt, chain.prv, chain.at
        a, b = pair
        n = len(sym)
        change: dict[Pair, int] = {}  # occurrences each neighbouring pair lost or gained
        gained: dict[Pair, int] = {}  # each new pair's first new place (joins go left to right)
        get, at_get = change.get, at.get
        joined = 0
        for i in sorted(at.pop(pair, ())):
            j = nxt[i]
            if sym[i] != a or j >= n or sym[j] != b:
                continue  # a place it lost, or the join before this one took its left symbol
            x, y = prv[i], nxt[j]
            if x >= 0:
                left = sym[x]
                p = left + a
                change[p] = get(p, 0) - 1
                p = left + symbol
                change[p] = get(p, 0) + 1
                where = at_get(p)
                if where is None:
                    at[p] = array("l", (x,))
                    gained[p] = x
                else:
                    where.append(x)
                    if p not in gained:
                        gained[p] = x
            if y < n:
                right = sym[y]
                p = b + right
                change[p] = get(p, 0) - 1
                p = symbol + right
                change[p] = get(p, 0) + 1
                where = at_get(p)
                if where is None:
                    at[p] = array("l", (i,))
                    gained[p] = i
                else:
                    where.append(i)
                    if p not in gained:
                        gained[p] = i
                prv[y] = i
            sym[i], sym[j], nxt[i] = symbol, "", y
            joined += 1
        if not joined:
            return 0
        f = self.freqs[w]
        change[pair] = change.get(pair, 0) - joined
        first_word, first_pos = self.first_word, self.first_pos
        for p, c in change.items():
            delta[p] = delta.get(p, 0) + c * f
            if c < 0 and first_word.get(p) == w and not chain.holds(p, first_pos[p]):
                self.dirty.add(p)  # its first place is gone: find the next before trusting it
        for p, position in gained.items():
            if not chain.holds(p, position):  # a later join took it: a lower bound, not a place
                self.dirty.add(p)
            made.append((p, w, position))
        return joined

    def _apply(self, delta: dict[Pair, int], made: list[tuple[Pair, int, int]]) -> None:
        counts, where = self.pair_counts, self.pair_words
        first_word, first_pos = self.first_word, self.first_pos
        push: set[Pair] = set()
        for p, w, position in made:
            if p in where:
                where[p].add(w)
            else:
                where[p] = {w}
            first = first_word.get(p)
            if first is None or w < first or (w == first and position < first_pos[p]):
                first_word[p], first_pos[p] = w, position
                push.add(p)
        for p, d in delta.items():
            if not d:
                continue
            c = counts.get(p, 0) + d
            if c:
                counts[p] = c
                if d > 0:
                    push.add(p)
            else:
                del counts[p]
                where.pop(p, None)
                first_word.pop(p, None)
                first_pos.pop(p, None)
                self.dirty.discard(p)
        for p in push:
            if p in counts:
                heapq.heappush(self.heap, self._key(p, counts[p]))

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
