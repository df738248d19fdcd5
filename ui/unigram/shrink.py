"""The shrinking vocabulary: Unigram's training rounds as one plotly figure played in the browser.

Left: vocabulary size and corpus log-likelihood round by round (the dual of BPE's growing
vocabulary: it starts big and only falls). Right: the pieces pruned in the chosen round with
the loss each removal costs, the costliest SHOWN_REMOVALS of them (the cheapest cost nothing:
pieces Viterbi never used). One frame per round, so the slider and play button step the
rounds without a rerun. Every piece label goes through render.escape (plotly reads a little
HTML in its texts).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from tokenizer_core.render import escape
from tokenizer_core.trainers.unigram import UnigramRound, UnigramTraining
from ui.unigram.limits import SHOWN_REMOVALS

ACCENT, LIKELIHOOD, BAR, NOW = "#d33f49", "#2a5db0", "#c46a00", "#1b7f3b"
FONT = "'Source Sans Pro', 'DejaVu Sans', sans-serif"


def rounds_frame(training: UnigramTraining) -> pd.DataFrame:
    """One row per round: the vocabulary it re-estimated, its log-likelihood, what it pruned."""
    return pd.DataFrame({
        "round": [r.round for r in training.rounds],
        "vocab size": [r.vocab_size for r in training.rounds],
        "log-likelihood": [r.log_likelihoods[-1] for r in training.rounds],
        "pruned": [len(r.removed) for r in training.rounds],
        "left after": [r.vocab_size - len(r.removed) for r in training.rounds],
    })


def removals_frame(training: UnigramTraining) -> pd.DataFrame:
    """Every piece pruned, with its round, Viterbi count and the loss its removal cost."""
    rows = [(r.round, x.piece, x.count, x.loss) for r in training.rounds for x in r.removed]
    return pd.DataFrame(rows, columns=["round", "piece", "Viterbi uses", "loss"])


def _costliest(one: UnigramRound) -> tuple[list[str], list[float], list[int]]:
    """The costliest removals of a round, cheapest at the bottom of the bar chart."""
    top = sorted(one.removed, key=lambda x: (x.loss, x.piece))[-SHOWN_REMOVALS:]
    return [escape(x.piece) for x in top], [x.loss for x in top], [x.count for x in top]


def _round_traces(frame: pd.DataFrame, one: UnigramRound) -> list[go.BaseTraceType]:
    """The two traces a frame changes: the marker on the curves and the round's bars."""
    row = frame.iloc[one.round]
    pieces, losses, counts = _costliest(one)
    return [
        go.Scatter(x=[row["round"]], y=[row["vocab size"]], mode="markers",
                   marker=dict(size=16, color=NOW, symbol="diamond"), showlegend=False,
                   hovertemplate="round %{x}: %{y:,} pieces<extra></extra>"),
        go.Bar(x=losses, y=pieces, orientation="h", marker=dict(color=BAR), showlegend=False,
               text=[f"{loss:.2f} · used {count:,}×" for loss, count in zip(losses, counts)],
               textposition="outside", cliponaxis=False,
               customdata=counts, hovertemplate="%{y}: loss %{x:.2f} (used %{customdata} times "
               "by Viterbi)<extra></extra>"),
    ]


def _round_title(one: UnigramRound) -> str:
    """The right chart's title for one round: what it did, in words."""
    if not one.removed:
        return f"Round {one.round}: nothing pruned<br><sub>the last round only re-estimates</sub>"
    return (f"Round {one.round}: {len(one.removed):,} pruned, {one.vocab_size:,} → "
            f"{one.vocab_size - len(one.removed):,}<br><sub>the {SHOWN_REMOVALS} costliest, "
            "by the log-likelihood their removal loses</sub>")


def shrink_figure(training: UnigramTraining, big: bool = False) -> go.Figure:
    """The whole training as one figure with a frame per round (see the module docstring)."""
    frame = rounds_frame(training)
    fig = make_subplots(
        rows=1, cols=2, horizontal_spacing=0.2, specs=[[{"secondary_y": True}, {}]],
        subplot_titles=("Vocabulary size and corpus log-likelihood",
                        _round_title(training.rounds[0])),
    )
    fig.add_trace(go.Scatter(
        x=frame["round"], y=frame["vocab size"], name="vocabulary size", mode="lines+markers",
        line=dict(color=ACCENT, width=3),
        hovertemplate="round %{x}: %{y:,} pieces<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=frame["round"], y=frame["log-likelihood"], name="log-likelihood", mode="lines+markers",
        line=dict(color=LIKELIHOOD, width=2, dash="dot"),
        hovertemplate="round %{x}: log-likelihood %{y:,.0f}<extra></extra>"),
        row=1, col=1, secondary_y=True)
    marker, bars = _round_traces(frame, training.rounds[0])
    fig.add_trace(marker, row=1, col=1)
    fig.add_trace(bars, row=1, col=2)
    moving = [2, 3]  # the marker and the bars
    # a frame's annotations replace all of them, the subplot titles included
    left_title, right_title = (a.to_plotly_json() for a in fig.layout.annotations)

    def titles(one: UnigramRound) -> list[dict]:
        return [left_title, {**right_title, "text": _round_title(one)}]

    fig.frames = [
        go.Frame(name=str(r.round), data=_round_traces(frame, r), traces=moving,
                 layout=go.Layout(annotations=titles(r)))
        for r in training.rounds
    ]
    fig.update_layout(annotations=titles(training.rounds[0]))
    steps = [dict(method="animate", label=str(r.round),
                  args=[[str(r.round)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                             transition=dict(duration=0))])
             for r in training.rounds]
    fig.update_layout(
        height=600 if big else 520, font=dict(family=FONT, size=19 if big else 14),
        legend=dict(orientation="h", y=1.16, x=0), margin=dict(t=90, b=40, l=60, r=20),
        sliders=[dict(active=0, steps=steps, currentvalue=dict(prefix="round "),
                      pad=dict(t=70), x=0.2, len=0.8)],
        updatemenus=[dict(type="buttons", direction="left", x=0, y=-0.3, xanchor="left",
                          showactive=False, buttons=[
            dict(label="▶ Play", method="animate",
                 args=[None, dict(frame=dict(duration=900, redraw=True), fromcurrent=True,
                                  transition=dict(duration=0))]),
            dict(label="⏸", method="animate",
                 args=[[None], dict(mode="immediate", frame=dict(duration=0, redraw=False))]),
        ])],
    )
    fig.update_xaxes(title_text="round", dtick=1, row=1, col=1)
    fig.update_yaxes(title_text="pieces", row=1, col=1)
    fig.update_yaxes(title_text="log-likelihood", secondary_y=True, row=1, col=1)
    fig.update_xaxes(title_text="log-likelihood lost by removing it", row=1, col=2)
    # one range for every round (a frame does not rescale the axis); room for the bar labels
    top = max((x.loss for r in training.rounds for x in r.removed), default=0.0)
    fig.update_xaxes(range=[0, max(top, 1.0) * 1.6], row=1, col=2)
    fig.update_yaxes(type="category", automargin=True, dtick=1, tickfont=dict(size=11),
                     row=1, col=2)
    return fig
