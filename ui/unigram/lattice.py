"""The lattice of one text and its Viterbi path, with the dp table filled step by step.

Positions 0..n are the columns; between columns k and k+1 sits character k. Every piece that
matches text[a:b] is an arc from column a to column b, labelled with its log probability. While
the text is short every arc is labelled, and the arcs are laid on levels (lattice_levels.py)
so that no two labels overlap, the figure as tall as its levels need; past LABELLED_ARCS_CHARS
only the path is labelled and an arc is higher the longer it is (hover tells every arc). The
Viterbi path is drawn thick in ACCENT.

Below the characters, the dp row: dp[i] (the best score of text[:i]) and its back-pointer. One
frame per position i, so the slider and play button fill the row in the browser without a
rerun: at step i the arcs ending at i (the candidates for dp[i]) turn orange, the one chosen
green, and the dp cells past i are covered. Every piece and character goes through render.escape.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from tokenizer_core.models.unigram import LatticeArc, ViterbiTrace
from tokenizer_core.render import escape
from ui.common.i18n import _
from ui.unigram.lattice_levels import arc_levels
from ui.unigram.limits import LABELLED_ARCS_CHARS

ACCENT, GREY, CANDIDATE, CHOSEN = "#d33f49", "#9aa3b5", "#c46a00", "#1b7f3b"
FONT = "'Source Sans Pro', 'DejaVu Sans', sans-serif"
CURVE_POINTS = 13  # points per arc drawn once
STEP_CURVE_POINTS = 7  # per arc of a frame: two hundred frames, and plotly checks every point
DP_Y, CHAR_Y = -1.1, -0.35
SHOWN_COLUMNS = 16  # columns in view at first past LABELLED_ARCS_CHARS; drag to pan along
LEVEL_BASE, LEVEL_STEP = 0.9, 1.0  # a labelled arc's top: LEVEL_BASE + level * LEVEL_STEP
# one y unit in pixels: a level (one unit) is taller than a two-line label at the font size
UNIT_PX, BIG_UNIT_PX = 46, 60
FRAME_PX = 190  # what the figure spends outside its y range: margins, x axis, slider, buttons
FONT_PX, BIG_FONT_PX = 13, 18
BUTTONS_PX = 26  # from the plot's bottom edge down to the play buttons' top
ARC_SHAPE = 0.35
Heights = dict[tuple[int, int], float]  # (start, end) -> the arc's top


def _height(arc: LatticeArc) -> float:
    """Past LABELLED_ARCS_CHARS: higher the longer (only the path, whose arcs never share a
    column, is labelled)."""
    return 0.6 + 0.55 * (arc.end - arc.start) ** 0.8


def arc_heights(arcs: list[LatticeArc], n: int, big: bool) -> Heights:
    """Every arc's top: on its label level while the text is short, else by its length."""
    if n > LABELLED_ARCS_CHARS:
        return {(a.start, a.end): _height(a) for a in arcs}
    levels = arc_levels(arcs, n + 1, BIG_FONT_PX if big else FONT_PX)  # type: ignore[arg-type]
    return {span: LEVEL_BASE + level * LEVEL_STEP for span, level in levels.items()}


def _curve(arc: LatticeArc, points: int, heights: Heights) -> tuple[list[float], list[float]]:
    """A half-ellipse from column `start` to column `end`, as points (rounded: they go to JSON)."""
    xs, ys = [], []
    mid, half = (arc.start + arc.end) / 2, (arc.end - arc.start) / 2
    h = heights[(arc.start, arc.end)]
    for k in range(points):
        angle = math.pi * (1 - k / (points - 1))
        xs.append(round(mid + half * math.cos(angle), 3))
        # flatter than an ellipse (sin ** ARC_SHAPE): steep at the ends, level on top, so an
        # arc clears the labels of the arcs nested under it
        ys.append(round(h * math.sin(angle) ** ARC_SHAPE, 3))
    return xs, ys


def _curves(arcs: list[LatticeArc], heights: Heights,
            points: int = CURVE_POINTS) -> tuple[list[float | None], list[float | None]]:
    """All arcs as one line, None between them (a gap)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for arc in arcs:
        cx, cy = _curve(arc, points, heights)
        xs += [*cx, None]
        ys += [*cy, None]
    return xs, ys


def _label(arc: LatticeArc) -> str:
    return f"{escape(arc.piece)}<br>{arc.log_prob:.1f}"


def _arc_traces(arcs: list[LatticeArc], heights: Heights, color: str, width: float,
                labelled: bool, name: str) -> list[dict]:
    """The arcs as one line trace, and their tops as one marker trace (labels and hover)."""
    xs, ys = _curves(arcs, heights)
    line = dict(type="scatter", x=xs, y=ys, mode="lines", line=dict(color=color, width=width),
                name=name, hoverinfo="skip")
    tops = dict(
        type="scatter", x=[(a.start + a.end) / 2 for a in arcs],
        y=[round(heights[(a.start, a.end)], 3) for a in arcs], mode="markers+text" if labelled else "markers",
        text=[_label(a) for a in arcs], textposition="top center",
        marker=dict(size=6, color=color), showlegend=False, name=_("{name}: labels", name=name),
        customdata=[[escape(a.piece), a.start, a.end, round(a.log_prob, 3)] for a in arcs],
        hovertemplate="%{customdata[0]} = text[%{customdata[1]}:%{customdata[2]}]<br>"
        "log p = %{customdata[3]}<extra></extra>",
    )
    return [line, tops]


def _dp_text(value: float, back: int | None) -> str:
    if value == -math.inf:
        return "−∞"
    return f"{value:.1f}" + ("" if back is None else f"<br>←{back}")


def _cover(i: int, n: int) -> tuple[list[float], list[float]]:
    """A rectangle over the dp cells past i (nothing at the last step)."""
    if i >= n:
        return [], []
    left, right, low, high = i + 0.45, n + 1, DP_Y - 0.85, DP_Y + 0.3
    return [left, right, right, left, left], [low, low, high, high, low]


def _step(arcs_ending: list[LatticeArc], heights: Heights, trace: ViterbiTrace, i: int,
          n: int) -> dict:
    """Frame i: the candidate arcs for dp[i], the chosen one, and a white cover over the dp
    cells not filled yet. A trace, not a layout shape: a frame that changes the layout costs
    plotly a whole layout check, two hundred times; and the dp row itself is drawn once."""
    chosen = [a for a in arcs_ending if i and a.start == trace.back[i] and
              math.isclose(trace.dp[a.start] + a.log_prob, trace.dp[i])][:1]
    cx, cy = _curves(arcs_ending, heights, STEP_CURVE_POINTS)
    hx, hy = _curves(chosen, heights, STEP_CURVE_POINTS)
    wx, wy = _cover(i, n)
    return dict(name=str(i), data=[dict(type="scatter", x=cx, y=cy),
                                   dict(type="scatter", x=hx, y=hy),
                                   dict(type="scatter", x=wx, y=wy)])


def _moving(n: int) -> list[dict]:
    """The three traces the frames change, as drawn at the last step."""
    return [
        dict(type="scatter", mode="lines", line=dict(color=CANDIDATE, width=3), x=[], y=[],
             name=_("candidates for dp[i]"), hoverinfo="skip"),
        dict(type="scatter", mode="lines", line=dict(color=CHOSEN, width=5), x=[], y=[],
             name=_("chosen: max of dp[j] + log p"), hoverinfo="skip"),
        dict(type="scatter", mode="lines", x=[], y=[], fill="toself", fillcolor="white",
             line=dict(width=0), showlegend=False, hoverinfo="skip"),
    ]


def lattice_figure(sequence: str, arcs: list[LatticeArc], trace: ViterbiTrace,
                   big: bool = False) -> go.Figure:
    """The lattice, the path and the dp row, with a frame per position (module docstring).

    Built from plain dicts and wrapped without plotly's validation (`_validate=False`): checking
    a thousand arcs and two hundred frames cost more than everything else the view does."""
    n = len(sequence)
    on_path = {(a, b, pid) for (a, b), pid in zip(trace.path, trace.ids)}
    path = [a for a in arcs if (a.start, a.end, a.id) in on_path]
    others = [a for a in arcs if (a.start, a.end, a.id) not in on_path]
    labelled = n <= LABELLED_ARCS_CHARS
    heights = arc_heights(arcs, n, big)
    grey = _arc_traces(others, heights, GREY, 1.5, labelled, _("other pieces"))
    red = _arc_traces(path, heights, ACCENT, 5, True, _("Viterbi path"))
    data = [grey[0], red[0], grey[1], red[1]]  # the lines first: every label is drawn on top
    data.append(dict(type="scatter", x=[k + 0.5 for k in range(n)], y=[CHAR_Y] * n,
                     mode="text", showlegend=False, hoverinfo="skip",
                     text=[f"<b>{escape(ch)}</b>" for ch in sequence],
                     textfont=dict(size=22 if big else 17)))
    data.append(dict(type="scatter", x=list(range(n + 1)), y=[DP_Y] * (n + 1),
                     mode="markers+text", showlegend=False, textposition="bottom center",
                     textfont=dict(size=14 if big else 11),
                     text=[_dp_text(trace.dp[k], trace.back[k]) for k in range(n + 1)],
                     marker=dict(size=8, color=GREY), hovertemplate="dp[%{x}]<extra></extra>"))
    first = len(data)
    data += _moving(n)
    ending: list[list[LatticeArc]] = [[] for _ in range(n + 1)]
    for arc in arcs:
        ending[arc.end].append(arc)
    frames = [dict(_step(ending[i], heights, trace, i, n), traces=list(range(first, first + 3)))
              for i in range(n + 1)]
    steps = [dict(method="animate", label=str(i),
                  args=[[str(i)], dict(mode="immediate", frame=dict(duration=0, redraw=False),
                                       transition=dict(duration=0))])
             for i in range(n + 1)]
    top = max(heights.values(), default=1.0) + 0.9  # room for the top label's two lines
    bottom = DP_Y - 0.9
    height = 600 if big else 520  # past LABELLED_ARCS_CHARS
    if labelled:  # as tall as the levels need, a level (one y unit) taller than a label
        height = round(FRAME_PX + (top - bottom) * (BIG_UNIT_PX if big else UNIT_PX))
    # the buttons a fixed distance under the plot, below the position ticks, whatever its height
    buttons_y = -BUTTONS_PX / max(height - FRAME_PX, 100)
    layout = dict(
        height=height, font=dict(family=FONT, size=BIG_FONT_PX if big else FONT_PX),
        dragmode="pan", margin=dict(t=30, b=20, l=30, r=20), plot_bgcolor="white",
        legend=dict(orientation="h", y=1.06, x=0),
        xaxis=dict(range=[-0.5, (n if labelled else SHOWN_COLUMNS) + 0.5], tickmode="array",
                   tickvals=list(range(n + 1)), title=dict(text=_("position")), zeroline=False,
                   showgrid=True, gridcolor="#e6e8ee"),
        yaxis=dict(range=[bottom, top], visible=False, fixedrange=True),
        sliders=[dict(active=n, steps=steps, currentvalue=dict(prefix=_("filling dp[i], i = ")),
                      pad=dict(t=40), x=0.2, len=0.8)],
        updatemenus=[dict(type="buttons", direction="left", x=0, y=buttons_y, xanchor="left",
                          showactive=False, buttons=[
            dict(label=_("▶ Play"), method="animate",
                 args=[None, dict(frame=dict(duration=700, redraw=False), fromcurrent=False,
                                  transition=dict(duration=0))]),
            dict(label="⏸", method="animate",
                 args=[[None], dict(mode="immediate", frame=dict(duration=0, redraw=False))]),
        ])],
        annotations=[dict(x=-0.4, y=DP_Y, text="dp", showarrow=False, xanchor="right")],
    )
    return go.Figure(dict(data=data, layout=layout, frames=frames), _validate=False)


def dp_frame(trace: ViterbiTrace, lesson_dp: tuple[float, ...] | None = None) -> pd.DataFrame:
    """The dp table: position, the character ending there, dp[i], back[i], the piece chosen;
    with the lesson's shortcut dp beside it when it differs."""
    text = trace.text
    last = {end: piece for (start, end), piece in zip(trace.path, trace.pieces)}
    rows = {
        "i": list(range(len(text) + 1)),
        _("character"): [""] + list(text),
        "dp[i]": [None if v == -math.inf else round(v, 3) for v in trace.dp],
        "back[i]": [b for b in trace.back],
        _("path piece ending here"): [last.get(i, "") for i in range(len(text) + 1)],
    }
    if lesson_dp is not None:
        rows[_("lesson's dp[i] (0 = unset)")] = [round(v, 3) for v in lesson_dp]
    return pd.DataFrame(rows)
