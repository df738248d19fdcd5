"""A long sequence for the fast BPE trainer (bpe.py): a linked list that joins in place.

What it adds: text with no spaces is one enormous sequence (a megabyte of Chinese at byte
level is one chunk), and rewriting it whole at every merge that touches it costs its length
each time. `Chain` keeps its symbols linked, with the positions where each pair occurs, so a
merge costs the occurrences it joins, and the first position of a pair is known without a scan
(the `first` tie-break orders pairs inside one long sequence by it).

Leaves out: the counts across the corpus and the choice of the best pair (bpe.py's trainer
reads what `join` returns and keeps those), and short sequences, which stay plain strings.
"""

from __future__ import annotations

from array import array

Pair = str  # two characters: the ids of the two symbols, as chr(id)


class Chain:
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

    def join(self, pair: Pair, symbol: str) -> tuple[int, dict[Pair, int], dict[Pair, int]]:
        """Join every occurrence of `pair`, left to right, into `symbol` (one character).

        Returns how many joins were made, how many occurrences each pair lost or gained (the
        joined pair included), and each new pair's first new place. x a b y becomes x new y at
        a's position: (x a), (a b), (b y) lose an occurrence, (x new) and (new y) gain one. An
        occurrence whose `a` the join before it took (a a a) is skipped, as the textbook's scan
        skips it. Subtle: this runs once per occurrence, up to a million times in one merge, so
        the bookkeeping is inlined and counted per pair rather than per join.
        """
        sym, nxt, prv, at = self.sym, self.nxt, self.prv, self.at
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
        if joined:
            change[pair] = change.get(pair, 0) - joined
        return joined, change, gained
