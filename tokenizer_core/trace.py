"""Traces are data: one frozen record per training merge or encoding step.

minbpe prints `merge i/n: pair -> idx had N occurrences`; tiktoken's educational encoder prints
the parts after each merge. Here the same facts are records that the pages draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from .levels import Symbol

Pair = tuple[Symbol, Symbol]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A pair in the running at one training step.

    BPE ranks by `count`; WordPiece by `score`, and also records the parts' own counts.
    """

    pair: Pair
    count: int
    score: float | None = None
    count_a: int | None = None
    count_b: int | None = None


@dataclass(frozen=True, slots=True)
class MergeStep:
    """One BPE merge as training chose it.

    rank:        0 for the first merge learned; also its priority when encoding.
    pair:        the two symbols joined.
    new_token:   the joined symbol.
    new_id:      its id in the vocabulary (an existing id when the same string was made before).
    count:       how often the pair occurred when it was chosen (weighted by sequence counts).
    vocab_size:  size of the vocabulary after this merge.
    candidates:  on request, the top pairs at this step, best first (the winner is first).
    ties:        on request, how many pairs shared the winner's count.
    """

    rank: int
    pair: Pair
    new_token: Symbol
    new_id: int
    count: int
    vocab_size: int
    candidates: tuple[Candidate, ...] = ()
    ties: int | None = None


@dataclass(frozen=True, slots=True)
class EncodeStep:
    """One step of encoding one piece: which rule fired and the parts after it.

    rank is the merge's rank (BPE) and pair the two parts joined; parts is the whole piece
    after the step. For tiktoken-style byte-level encoding the rank is the rank of the joined
    bytes, which is also the new token's id before any special-token offset.
    """

    rank: int
    pair: Pair
    parts: tuple[Symbol, ...]
