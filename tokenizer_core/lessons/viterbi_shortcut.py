"""The lesson's Viterbi with its "0 means unset" shortcut, run beside ours to show where it breaks.

The lesson's `viterbi_segment(text, token_probs)` starts `dp` as n+1 zeros and `back` as n+1
`None`, takes a score when `score > dp[i] or dp[i] == 0`, then walks `back` from n. Zero is
doing two jobs there: "nothing reached this position yet" and a real score (log 1). On a
trained vocabulary every score is below zero, so the two meet only where a position cannot be
reached at all: a character that is no piece. Then the unreachable position keeps dp = 0, reads
as probability 1, the path through it beats every real one, and the walk back meets a `None`
back-pointer (the lesson's code fails with a TypeError there).

Ours (models/unigram.py) says "unset" with -inf and gives an unseen character a `<unk>` arc, so
every position is reachable and the best path is a true maximum.

What it adds: `lesson_viterbi`, the shortcut as the lesson writes it but returning where the walk
breaks instead of failing, and `compare_shortcut`, which runs it on a model's own pieces (no
`<unk>`: the lesson has none) and says whether it agrees with our Viterbi.

Leaves out: drawing (the app draws the lattice and the dp table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping

from ..models.unigram import UnigramModel

Agreement = Literal["same", "breaks", "differs"]


@dataclass(frozen=True, slots=True)
class ShortcutRun:
    """The lesson's programme on one text: its dp and back tables, and the pieces it walks back,
    or the position whose back-pointer is `None` (`broken_at`) when the walk cannot finish."""

    dp: tuple[float, ...]
    back: tuple[int | None, ...]
    pieces: tuple[str, ...] | None
    broken_at: int | None

    @property
    def phantoms(self) -> tuple[int, ...]:
        """Positions nothing reaches that still hold dp = 0: read as "probability 1"."""
        return tuple(i for i in range(1, len(self.dp)) if self.back[i] is None)


@dataclass(frozen=True, slots=True)
class ShortcutNote:
    """How the lesson's shortcut fares on one sequence against our Viterbi."""

    agreement: Agreement
    lesson: ShortcutRun
    ours: tuple[str, ...]


def lesson_viterbi(text: str, log_probs: Mapping[str, float]) -> ShortcutRun:
    """The lesson's viterbi_segment, with log probabilities given (it takes log p itself)."""
    n = len(text)
    dp = [0.0] * (n + 1)
    back: list[int | None] = [None] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            piece = text[j:i]
            if piece in log_probs:
                score = dp[j] + log_probs[piece]
                if score > dp[i] or dp[i] == 0:  # subtle: 0 is "unset" here, and also log 1
                    dp[i], back[i] = score, j
    pieces: list[str] = []
    i = n
    while i > 0:
        j = back[i]
        if j is None:  # the lesson's code would fail here: text[None:i]
            return ShortcutRun(tuple(dp), tuple(back), None, i)
        pieces.append(text[j:i])
        i = j
    return ShortcutRun(tuple(dp), tuple(back), tuple(reversed(pieces)), None)


def compare_shortcut(model: UnigramModel, sequence: str) -> ShortcutNote:
    """The shortcut on the model's pieces (without `<unk>`) against our Viterbi on `sequence`
    (already as the model segments it, `▁` included at word level)."""
    table = {piece: lp for piece, lp in model.pieces[1:]}
    run = lesson_viterbi(sequence, table)
    ours = model.viterbi(sequence).pieces
    if run.pieces is None:
        agreement: Agreement = "breaks"
    elif run.pieces == ours:
        agreement = "same"
    else:
        agreement = "differs"
    return ShortcutNote(agreement, run, ours)
