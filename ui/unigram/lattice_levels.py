"""Where each arc of a short text's lattice peaks, so that no two labels overlap.

An arc's label (its piece over its log probability) sits on the arc's top. Heights by length
alone put `he` (two columns) and `e` (one column, beside it) at nearly one height, and their
labels on top of each other. Instead the arcs are laid on levels, like lines of text:
- an arc is above every arc inside its span (the lattice still reads as nested arcs);
- on one level no two arcs share a column, and no two labels come closer than a gap, measured
  with a label's width estimated from its characters at the figure's font size and the
  narrowest plot the page draws (`PLOT_MIN_PX`);
- levels are LEVEL_PX apart, more than a two-line label is tall, so labels on different
  levels cannot meet either.
Greedy, shortest arcs first, each on the lowest level that takes it: a handful of levels for a
word. The browser test measures the labels as drawn.

Leaves out: long texts (past LABELLED_ARCS_CHARS only the Viterbi path is labelled, and its
arcs never share a column, so heights by length serve).
"""

from __future__ import annotations

import unicodedata
from typing import Protocol

PLOT_MIN_PX = 560  # the lattice's plot width at 1280 px (about 760) with room to spare
EM_WIDTH = 0.62  # an average character's width, in font sizes (digits and Latin letters)
GAP_PX = 6  # the least room between two labels on one level


class Arc(Protocol):
    start: int
    end: int
    piece: str
    log_prob: float


def label_lines(arc: Arc) -> tuple[str, str]:
    """The two lines of an arc's label, as text (the figure escapes the piece)."""
    return arc.piece, f"{arc.log_prob:.1f}"


def text_width_px(text: str, font_px: float) -> float:
    """An estimate of the text's width: wide (CJK) characters count as one font size."""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else EM_WIDTH for ch in text)
    return ems * font_px


def _label_span(arc: Arc, column_px: float, font_px: float) -> tuple[float, float]:
    """The label's [left, right] in columns, with half the gap on each side."""
    width = max(text_width_px(line, font_px) for line in label_lines(arc)) + GAP_PX
    middle, half = (arc.start + arc.end) / 2, width / column_px / 2
    return middle - half, middle + half


def arc_levels(arcs: list[Arc], columns: int, font_px: float) -> dict[tuple[int, int], int]:
    """{(start, end): level} for every arc (level 0 lowest); see the module docstring.

    `columns` is how many position columns the plot's width holds (n + 1 for a text of n)."""
    column_px = PLOT_MIN_PX / max(columns, 1)
    levels: dict[tuple[int, int], int] = {}
    placed: list[list[tuple[int, int, float, float]]] = []  # per level: spans and labels
    for arc in sorted(arcs, key=lambda a: (a.end - a.start, a.start)):
        span = (arc.start, arc.end)
        if span in levels:
            continue
        inside = [lv for (s, e), lv in levels.items() if arc.start <= s and e <= arc.end]
        level = 1 + max(inside) if inside else 0
        left, right = _label_span(arc, column_px, font_px)
        while True:
            while len(placed) <= level:
                placed.append([])
            if not any(s < arc.end and arc.start < e or lo < right and left < hi
                       for s, e, lo, hi in placed[level]):
                break
            level += 1
        placed[level].append((arc.start, arc.end, left, right))
        levels[span] = level
    return levels
