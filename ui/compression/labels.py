"""Where the Compression chart writes the real tokenizers' names: beside each one's marker, with
an arrow, and never on top of another name or another tokenizer's marker.

With every corpus chosen, nine reference tokenizers sit at six vocab sizes, five of them within
a factor of two (Llama 3, Mistral Nemo, DeepSeek-V4 and Qwen at 128k-152k, o200k at 200k), and
GPT-2 (50k) and BERT (30k) side by side. A fixed text position per tokenizer put GPT-2's name
under BERT's marker. Here each name tries places around its marker, nearest first, and takes
the first whose box meets no name already placed and no marker: a greedy layout in estimated
pixels (plotly places annotations in pixels from their point, so an estimate of the plot's size
is enough; it errs wide, so a bigger chart only spreads them further).

Leaves out: which marker of a tokenizer gets the name (charts.py: its highest), drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

PLOT_WIDTH_PX = 520  # the plot area at 1280x720 beside the legend (525 px drawn in Chromium)
CHAR_PX = 0.58  # average character width, as a share of the font size
MARKER_PAD_PX = 4  # room kept around a marker
STEPS = (1, 2, 3, 4, 5, 6)  # rings of places around a marker, nearest first (plotly's ay grows down)
GRID_REACH_FONTS = 20  # then a grid of places up to 20 font sizes away (300 px at 15 px)


@dataclass(frozen=True)
class Point:
    """One reference marker: its name on the chart ("" for none), log10 vocab size, value."""

    name: str
    log_x: float
    y: float


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: "Box") -> bool:
        return not (self.right <= other.left or other.right <= self.left
                    or self.bottom <= other.top or other.bottom <= self.top)


@dataclass(frozen=True)
class Frame:
    """The plot area in estimated pixels: x from log10 vocab size, y from the value (0 at the
    bottom, as the axis starts at zero)."""

    low_log: float
    high_log: float
    y_max: float
    height_px: float
    width_px: float = PLOT_WIDTH_PX

    def pixel(self, log_x: float, y: float) -> tuple[float, float]:
        px = (log_x - self.low_log) / (self.high_log - self.low_log) * self.width_px
        py = self.height_px * (1 - y / self.y_max) if self.y_max > 0 else self.height_px
        return px, py


def _candidates(font_px: float, name: str) -> tuple[tuple[float, float], ...]:
    return _offsets(font_px, len(name))


@lru_cache(maxsize=256)
def _offsets(font_px: float, name_length: int) -> tuple[tuple[float, float], ...]:
    """Offsets (dx, dy) of a label's centre from its marker, in pixels, nearest first: above,
    below, left, right, then the corners, then the same further out; past those rings, every
    place of a grid around the marker, nearest first (a crowd of names near a corner of the
    plot used up the rings: issue 23's label overlap, with the models folder's four more)."""
    rise = 1.5 * font_px
    side = (name_length * CHAR_PX * font_px + 6) / 2 + 1.2 * font_px  # clear of the marker
    offsets = []
    for step in STEPS:
        up, across = rise * step, side + (step - 1) * font_px
        offsets += [(0.0, -up), (0.0, up), (-across, 0.0), (across, 0.0),
                    (-across, -up), (across, -up), (-across, up), (across, up)]
    reach = GRID_REACH_FONTS * font_px
    grid = [(dx * font_px, dy * font_px / 2)
            for dx in range(-GRID_REACH_FONTS, GRID_REACH_FONTS + 1)
            for dy in range(-2 * GRID_REACH_FONTS, 2 * GRID_REACH_FONTS + 1)
            if abs(dx * font_px) >= side or abs(dy * font_px / 2) >= rise]  # clear of the marker
    grid.sort(key=lambda o: (o[0] ** 2 + o[1] ** 2, o))
    return tuple(offsets + [o for o in grid if o[0] ** 2 + o[1] ** 2 <= reach ** 2])


def _label_box(cx: float, cy: float, name: str, font_px: float) -> Box:
    half_w = (len(name) * CHAR_PX * font_px + 6) / 2
    half_h = (font_px + 6) / 2
    return Box(cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def _marker_box(px: float, py: float, marker_px: float) -> Box:
    half = marker_px / 2 + MARKER_PAD_PX
    return Box(px - half, py - half, px + half, py + half)


def place_labels(points: Sequence[Point], frame: Frame, font_px: float,
                 marker_px: float) -> dict[int, tuple[float, float]]:
    """For each point with a name (by index), the offset (ax, ay) in pixels of its label from the
    marker: the nearest place whose box meets no label placed before and no marker, and stays
    inside the plot (with no such place, the nearest inside that meets no other label)."""
    pixels = [frame.pixel(p.log_x, p.y) for p in points]
    markers = [_marker_box(px, py, marker_px) for px, py in pixels]
    placed: list[Box] = []
    offsets: dict[int, tuple[float, float]] = {}
    order = sorted((i for i, p in enumerate(points) if p.name), key=lambda i: pixels[i])
    for i in order:
        dx, dy, box = _place(pixels[i], points[i].name, frame, font_px, placed, markers)
        placed.append(box)
        offsets[i] = (dx, dy)
    return offsets


def _place(pixel: tuple[float, float], name: str, frame: Frame, font_px: float,
           placed: Sequence[Box], markers: Sequence[Box]) -> tuple[float, float, Box]:
    """The first place, nearest first, free of names and markers and inside the plot; else the
    first inside that meets no name; else the first inside; else the nearest of all."""
    px, py = pixel
    clear = inside = nearest = None
    for dx, dy in _candidates(font_px, name):
        box = _label_box(px + dx, py + dy, name, font_px)
        nearest = nearest or (dx, dy, box)
        if not (box.top >= -font_px and box.bottom <= frame.height_px + font_px
                # not into the legend: the estimate errs, so keep two letters clear
                and box.left >= 0 and box.right <= frame.width_px - 2 * font_px):
            continue
        inside = inside or (dx, dy, box)
        if any(box.meets(b) for b in placed):
            continue
        clear = clear or (dx, dy, box)
        if not any(box.meets(b) for b in markers):
            return dx, dy, box
    found = clear or inside or nearest
    assert found is not None  # _candidates is never empty
    return found
