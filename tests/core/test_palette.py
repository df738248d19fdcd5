"""The token palette on a projector and for colour-blind readers.

Neighbouring tokens are told apart by colour alone, so every neighbouring pair of the palette
(the last next to the first, as tokens wrap round) must stay distinct under simulated protanopia
and deuteranopia, and black token text must stay readable on every colour.

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", severity 1.0 matrices, applied to linear sRGB; distance
is CIE76 (Euclidean CIELAB, D65). Contrast is WCAG 2's ratio.
"""

from __future__ import annotations

import math

import pytest

from tokenizer_core.render import PALETTE

Matrix = tuple[tuple[float, float, float], ...]
NORMAL: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
PROTANOPIA: Matrix = ((0.152286, 1.052583, -0.204868),
                      (0.114503, 0.786281, 0.099216),
                      (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA: Matrix = ((0.367322, 0.860646, -0.227968),
                        (0.280085, 0.672501, 0.047413),
                        (-0.011820, 0.042940, 0.968881))
MIN_NEIGHBOUR_DISTANCE = 20.0  # CIE76; about 2.3 is a just-noticeable difference
MIN_TEXT_CONTRAST = 7.0  # WCAG AAA for body text


def linear(hex_colour: str) -> list[float]:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def seen(hex_colour: str, vision: Matrix) -> list[float]:
    rgb = linear(hex_colour)
    return [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in vision]


def lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def luminance(hex_colour: str) -> float:
    r, g, b = linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_the_simulation_knows_red_from_green_only_with_normal_vision():
    """The oracle itself: pure red and green are far apart normally, close for both."""
    def apart(vision: Matrix) -> float:
        return math.dist(lab(seen("#d03030", vision)), lab(seen("#30a030", vision)))
    assert apart(NORMAL) > 80
    assert apart(PROTANOPIA) < 0.5 * apart(NORMAL)
    assert apart(DEUTERANOPIA) < 0.5 * apart(NORMAL)


@pytest.mark.parametrize("vision", [NORMAL, PROTANOPIA, DEUTERANOPIA],
                         ids=["normal", "protanopia", "deuteranopia"])
def test_neighbouring_tokens_stay_apart(vision):
    colours = [lab(seen(c, vision)) for c in PALETTE]
    for i, colour in enumerate(colours):
        after = colours[(i + 1) % len(colours)]
        assert math.dist(colour, after) >= MIN_NEIGHBOUR_DISTANCE, (PALETTE[i], vision)


def test_black_text_is_readable_on_every_colour():
    for colour in PALETTE:
        assert (luminance(colour) + 0.05) / 0.05 >= MIN_TEXT_CONTRAST, colour


def test_the_palette_has_distinct_colours():
    assert len(set(PALETTE)) == len(PALETTE) >= 4
