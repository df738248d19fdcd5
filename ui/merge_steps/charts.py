"""Plotly charts for the Merge steps page: pure functions from a DataFrame to a Figure.

Plotly reads a subset of HTML in its texts (`<b>`, `<a href>`, entities), so every label that
comes from the corpus (a pair like `('<a','b>')`) goes through render.escape first.

The BPE vs WordPiece race carries one frame per step, so its slider and play button step both
rules together in the browser, without a rerun. Winner green, ties orange and striped, the
rest grey: the same marks as the player, and readable without colour (the winner's label says
so).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from tokenizer_core.lessons.narration import score_formula
from tokenizer_core.render import escape
from ui.common.i18n import _, number

WIN, TIE, OTHER = "#1b7f3b", "#c46a00", "#8a93a6"
ACCENT = "#d33f49"
FONT = "'Source Sans Pro', 'DejaVu Sans', sans-serif"


def _font(big: bool) -> dict:
    return dict(family=FONT, size=19 if big else 15)


def overview_figure(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Left: the count of the pair each merge took (ties striped). Right: vocabulary size and
    corpus length over the steps.

    No marker for the current step: the figure depends on the training only, so the page builds
    it once (building a plotly figure costs more than the rest of a step change).
    """
    titles = (_("Count of the pair merged") + "<br><sub>" + _("striped: it won a tie") + "</sub>",
              _("Vocabulary and corpus size"))
    # the gap holds the right chart's tick labels and axis title clear of the left chart
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.16, subplot_titles=titles,
                        specs=[[{}, {"secondary_y": True}]])
    merged = frame[frame["step"] > 0]
    tied = merged["ties"].fillna(1) > 1
    fig.add_trace(go.Bar(
        x=merged["step"], y=merged["count"], name=_("count"), showlegend=False,
        marker=dict(color=[TIE if t else WIN for t in tied],
                    pattern=dict(shape=["/" if t else "" for t in tied])),
        customdata=[[escape(p), t] for p, t in zip(merged["pair"], merged["ties"].fillna(1))],
        hovertemplate=_("merge {x}: {pair}<br>count {y}<br>{ties} tied", x="%{x}",
                        pair="%{customdata[0]}", y="%{y}", ties="%{customdata[1]}")
        + "<extra></extra>",
    ), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=frame["step"], y=frame["vocab size"], name=_("vocabulary size"), mode="lines+markers",
        line=dict(color=ACCENT, width=3),
        hovertemplate=_("step {x}: {y} in the vocabulary", x="%{x}", y="%{y:,}")
        + "<extra></extra>",
    ), row=1, col=2)
    fig.add_trace(go.Scatter(
        x=frame["step"], y=frame["corpus tokens"], name=_("corpus length (tokens)"), mode="lines",
        line=dict(color="#333", width=2, dash="dot"),
        hovertemplate=_("step {x}: {y} tokens", x="%{x}", y="%{y:,}") + "<extra></extra>",
    ), row=1, col=2, secondary_y=True)
    fig.update_xaxes(title_text=_("merge"), row=1, col=1)
    fig.update_xaxes(title_text=_("step"), row=1, col=2)
    fig.update_yaxes(title_text=_("vocabulary size"), row=1, col=2, secondary_y=False)
    fig.update_yaxes(title_text=_("corpus tokens"), row=1, col=2, secondary_y=True, showgrid=False,
                     tickformat=",d")
    fig.update_yaxes(tickformat=",d", row=1, col=1)
    fig.update_layout(height=360 if big else 310, margin=dict(l=10, r=10, t=50, b=10),
                      font=_font(big), legend=dict(orientation="h", y=-0.25, x=0.58),  # under its chart
                      bargap=0.15)
    return fig


def prefix_figure(frame: pd.DataFrame, k: int, big: bool = False) -> go.Figure:
    """Token count of the text against the number of merges used, `k` marked."""
    fig = go.Figure(go.Scatter(
        x=frame["merges used"], y=frame["tokens"], mode="lines", line=dict(color=ACCENT, width=3),
        hovertemplate=_("first {x} merges: {y} tokens", x="%{x}", y="%{y:,}") + "<extra></extra>",
        name="tokens",
    ))
    at = frame[frame["merges used"] == k]
    if len(at):
        fig.add_trace(go.Scatter(
            x=at["merges used"], y=at["tokens"], mode="markers+text", name="now",
            marker=dict(size=16, color="#111", line=dict(color="#ffd400", width=3)),
            text=[_("{n} tokens", n=number(int(at['tokens'].iloc[0])))],
            textposition="top left" if k > frame["merges used"].max() / 2 else "top right",
            hoverinfo="skip",
        ))
    fig.update_layout(
        height=320 if big else 280, margin=dict(l=10, r=10, t=30, b=10), font=_font(big),
        showlegend=False, xaxis_title=_("merges used (the first k)"), yaxis_title="tokens",
    )
    return fig


# Each WordPiece score's own formula, for the chart's subplot title (narration.score_formula
# writes the same formula with a pair's numbers in it).
SCORE_TITLES = {
    "ratio": "count(ab) / (count(a)·count(b))",
    "likelihood": "count(ab)·ln(count(ab)·N / (count(a)·count(b)))",
}


def _bars(part: pd.DataFrame, rule: str, score: str) -> go.Bar:
    colors = [WIN if f == 2 else TIE if f == 1 else OTHER for f in part["flag"]]
    star = ["  ★" if f == 2 else "" for f in part["flag"]]
    rows = zip(part["count"], part["count_a"], part["count_b"], part["score"], part["total"], star)
    if rule == "BPE":  # the count decides; the parts' counts are there to compare with WordPiece
        text = [f"{c:,}{w}   (a {a:,}, b {b:,})" for c, a, b, _s, _n, w in rows]
    else:
        text = [f"{score_formula(score, c, a, b, n, compact=True)} = {s:.3g}{w}"
                for c, a, b, s, n, w in rows]
    return go.Bar(
        x=part["score"], y=part["position"], orientation="h", marker_color=colors,
        marker_pattern_shape=["/" if f == 1 else "" for f in part["flag"]],
        text=text, textposition="outside", cliponaxis=False, showlegend=False,
        customdata=[[escape(p), c, a, b] for p, c, a, b in
                    zip(part["pair"], part["count"], part["count_a"], part["count_b"])],
        hovertemplate="%{customdata[0]}<br>count(ab) %{customdata[1]}<br>count(a) %{customdata[2]}"
        "<br>count(b) %{customdata[3]}<br>" + _("score {x}", x="%{x:.4g}") + "<extra>" + rule
        + "</extra>",
    )


# How far each side's x axis runs past its longest bar: room for the label beside the bar
# (the likelihood's arithmetic is the longest).
ROOM = {"BPE": 1.75, "ratio": 1.75, "likelihood": 2.4}


def _frame_layout(step_part: pd.DataFrame, step: int, first_difference: int | None,
                  rows: int, score: str) -> dict:
    layout: dict = {}
    titles = []
    for col, rule in enumerate(("BPE", "WordPiece"), start=1):
        part = step_part[step_part["rule"] == rule].sort_values("position")
        suffix = "" if col == 1 else "2"
        top = float(part["score"].max()) if len(part) else 1.0
        room = ROOM["BPE" if col == 1 else score]
        layout[f"xaxis{suffix}"] = dict(range=[0, top * room], showticklabels=False)
        layout[f"yaxis{suffix}"] = dict(
            tickvals=list(part["position"]), ticktext=[escape(p) for p in part["pair"]],
            range=[rows - 0.5, -0.5],
        )
        titles.append(escape(part["pair"].iloc[0]) if len(part) else _("(stopped)"))
    differs = titles[0] != titles[1]
    if first_difference is not None and step == first_difference + 1:
        mark = _("⚑ first difference")
    else:
        mark = _("(they differ)") if differs else _("(same pair)")
    text = _("Step {step}: BPE merges {bpe}, WordPiece merges {wordpiece}", step=step,
             bpe=titles[0], wordpiece=titles[1]) + "  " + mark
    layout["title"] = dict(text=text)
    return layout


def race_figure(frame: pd.DataFrame, first_difference: int | None, score: str = "ratio",
                big: bool = False) -> go.Figure:
    """Both rules' top pairs side by side, one frame per step, a slider to step both together;
    WordPiece's bars are labelled with the arithmetic of its `score` ("ratio" or "likelihood")."""
    steps = sorted(frame["step"].unique())
    rows = int(frame["position"].max()) + 1 if len(frame) else 1
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.16, column_widths=[0.42, 0.58],
                        subplot_titles=(
        _("BPE: highest count(ab)"),
        _("WordPiece: highest") + f"<br><sub>{SCORE_TITLES[score]}</sub>"))
    frames = []
    for step in steps:
        part = frame[frame["step"] == step]
        data = [_bars(part[part["rule"] == rule].sort_values("position"), rule, score)
                for rule in ("BPE", "WordPiece")]
        layout = _frame_layout(part, step, first_difference, rows, score)
        frames.append(go.Frame(data=data, name=str(step), traces=[0, 1], layout=layout))
    if frames:
        fig.add_trace(frames[0].data[0], row=1, col=1)
        fig.add_trace(frames[0].data[1], row=1, col=2)
        fig.update_layout(frames[0].layout)
    fig.frames = frames
    flagged = None if first_difference is None else first_difference + 1
    slider_steps = [
        dict(method="animate", label=f"⚑{s}" if s == flagged else str(s),
             args=[[str(s)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                  transition=dict(duration=0))])
        for s in steps
    ]
    fig.update_layout(
        height=(470 if big else 420) + 22 * max(0, rows - 6), font=_font(big),
        margin=dict(l=10, r=30, t=90, b=10),
        sliders=[dict(active=0, steps=slider_steps, currentvalue=dict(prefix=_("step") + " "),
                      pad=dict(t=40), x=0.12, len=0.88)],
        updatemenus=[dict(type="buttons", direction="left", x=0, y=-0.06, xanchor="left",
                          yanchor="top", pad=dict(t=40), showactive=False, buttons=[
                              dict(label="▶", method="animate", args=[None, dict(
                                  frame=dict(duration=1200, redraw=True), fromcurrent=True,
                                  transition=dict(duration=0))]),
                              dict(label="⏸", method="animate", args=[[None], dict(
                                  mode="immediate", frame=dict(duration=0, redraw=False))]),
                          ])],
    )
    return fig
