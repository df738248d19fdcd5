"""The shrinking vocabulary: Unigram's training rounds as one plotly figure played in the browser.

Left: vocabulary size and corpus log-likelihood round by round, one above the other (the dual
of BPE's growing vocabulary: it starts big and only falls). Right: the pieces pruned in the
chosen round with the loss each removal costs, the costliest SHOWN_REMOVALS of them. The first
rounds often prune only pieces Viterbi never used, each costing 0: such a round says so in words
instead of drawing bars of 0.00, and the figure opens on the first round whose removals cost
something. One frame per round, so the slider and play button step the rounds without a
rerun. Every piece label goes through render.escape (plotly reads a little
HTML in its texts).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from tokenizer_core.render import escape
from tokenizer_core.trainers.unigram import UnigramRound, UnigramTraining
from ui.common.i18n import _, number
from ui.unigram.lattice_levels import PLOT_MIN_PX
from ui.unigram.limits import SHOWN_REMOVALS

ACCENT, LIKELIHOOD, BAR, NOW = "#d33f49", "#2a5db0", "#c46a00", "#1b7f3b"
FONT = "'Source Sans Pro', 'DejaVu Sans', sans-serif"


def rounds_frame(training: UnigramTraining) -> pd.DataFrame:
    """One row per round: the vocabulary it re-estimated (its pieces, <unk> included: round 0
    is the seed pieces and <unk>), its log-likelihood, what it pruned."""
    return pd.DataFrame({
        "round": [r.round for r in training.rounds],
        "pieces": [r.vocab_size for r in training.rounds],  # <unk> included, as the target
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
    """The traces a frame changes: the markers on the two curves and the round's bars."""
    row = frame.iloc[one.round]
    pieces, losses, counts = _costliest(one) if costed(one) else ([], [], [])
    return [
        go.Scatter(x=[row["round"]], y=[row["pieces"]], mode="markers",
                   marker=dict(size=16, color=NOW, symbol="diamond"), showlegend=False,
                   hovertemplate=_("round {x}: {y} pieces", x="%{x}", y="%{y:,}")
                   + "<extra></extra>"),
        go.Bar(x=losses, y=pieces, orientation="h", marker=dict(color=BAR), showlegend=False,
               text=[_("{loss} · used {count}×", loss=number(loss, 2), count=number(count))
                     for loss, count in zip(losses, counts)],
               textposition="outside", cliponaxis=False,
               customdata=counts, hovertemplate=_("{y}: loss {x} (used {n} times by Viterbi)",
                                                  y="%{y}", x="%{x:.2f}", n="%{customdata}")
               + "<extra></extra>"),
        go.Scatter(x=[row["round"]], y=[row["log-likelihood"]], mode="markers",
                   marker=dict(size=13, color=NOW, symbol="diamond"), showlegend=False,
                   hovertemplate=_("round {x}: log-likelihood {y}", x="%{x}", y="%{y:,.0f}")
                   + "<extra></extra>"),
    ]


def costed(one: UnigramRound) -> bool:
    """Did any removal of this round cost something? The first rounds of a training often
    prune only pieces Viterbi never used (loss 0 each): there is nothing to chart."""
    return any(x.loss > 0 for x in one.removed)


def opening_round(training: UnigramTraining) -> UnigramRound:
    """The round the figure opens on: the first whose removals cost something, else the first."""
    return next((r for r in training.rounds if costed(r)), training.rounds[0])


def _round_title(one: UnigramRound) -> str:
    """The right chart's title for one round: what it did, in words."""
    if not one.removed:
        return (_("Round {round}: nothing pruned", round=one.round) + "<br><sub>"
                + _("the last round only re-estimates") + "</sub>")
    head = _("Round {round}: {pruned} pruned, {before} → {after}", round=one.round,
             pruned=number(len(one.removed)), before=number(one.vocab_size),
             after=number(one.vocab_size - len(one.removed)))
    if not costed(one):
        sub = _("none of them ever used by Viterbi: each removal costs 0")
    else:
        sub = _("the {n} costliest, by the log-likelihood their removal loses",
                n=number(SHOWN_REMOVALS))
    return f"{head}<br><sub>{sub}</sub>"


def _round_note(one: UnigramRound, training: UnigramTraining) -> str:
    """What the empty bar chart of a round that cost nothing says instead."""
    if not one.removed or costed(one):
        return ""
    later = next((r.round for r in training.rounds if costed(r)), None)
    then = ("<br>" + _("Removals start to cost in round {round}.", round=later)
            if later is not None else "")
    return _("All {n} pieces pruned here were never<br>in a Viterbi path: removing one loses "
             "nothing.", n=number(len(one.removed))) + then


def _gap(training: UnigramTraining, tick_px: float) -> float:
    """The horizontal spacing between the panels, as a share of the plot width: room for the
    longest piece label the bar chart shows (on the narrowest plot the page draws)."""
    longest = max((len(x.piece) for r in training.rounds for x in r.removed), default=4)
    return min(0.4, max(0.12, (min(longest, 16) * tick_px * 0.62 + 24) / PLOT_MIN_PX))


def shrink_figure(training: UnigramTraining, big: bool = False) -> go.Figure:
    """The whole training as one figure with a frame per round (see the module docstring).

    Left, one above the other: the vocabulary size and the log-likelihood, each with its own
    axis on the left (no second axis on the right, whose title stood over the bar chart)."""
    frame = rounds_frame(training)
    opening = opening_round(training)
    tick_px = 14 if big else 11
    fig = make_subplots(
        rows=2, cols=2, horizontal_spacing=_gap(training, tick_px), vertical_spacing=0.14,
        shared_xaxes=True,
        specs=[[{}, {"rowspan": 2}], [{}, None]], column_widths=[0.45, 0.55],
        subplot_titles=(_("Vocabulary size"), _round_title(opening), _("Corpus log-likelihood")),
    )
    fig.add_trace(go.Scatter(
        x=frame["round"], y=frame["pieces"], name=_("vocabulary size"), mode="lines+markers",
        line=dict(color=ACCENT, width=3), showlegend=False,
        hovertemplate=_("round {x}: {y} pieces", x="%{x}", y="%{y:,}") + "<extra></extra>"),
        row=1, col=1)
    fig.add_trace(go.Scatter(
        x=frame["round"], y=frame["log-likelihood"], name=_("log-likelihood"),
        mode="lines+markers", line=dict(color=LIKELIHOOD, width=2, dash="dot"), showlegend=False,
        hovertemplate=_("round {x}: log-likelihood {y}", x="%{x}", y="%{y:,.0f}")
        + "<extra></extra>"), row=2, col=1)
    size_marker, bars, ll_marker = _round_traces(frame, opening)
    fig.add_trace(size_marker, row=1, col=1)
    fig.add_trace(bars, row=1, col=2)
    fig.add_trace(ll_marker, row=2, col=1)
    moving = [2, 3, 4]  # the two markers and the bars
    # a frame's annotations replace all of them: the subplot titles, and the note
    size_title, right_title, ll_title = (a.to_plotly_json() for a in fig.layout.annotations)
    note = dict(xref="x2 domain", yref="y2 domain", x=0.5, y=0.55, showarrow=False,
                font=dict(size=17 if big else 13, color="#555"), align="center")

    def titles(one: UnigramRound) -> list[dict]:
        return [size_title, {**right_title, "text": _round_title(one)}, ll_title,
                {**note, "text": _round_note(one, training)}]

    fig.frames = [
        go.Frame(name=str(r.round), data=_round_traces(frame, r), traces=moving,
                 layout=go.Layout(annotations=titles(r)))
        for r in training.rounds
    ]
    fig.update_layout(annotations=titles(opening))
    steps = [dict(method="animate", label=str(r.round),
                  args=[[str(r.round)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                             transition=dict(duration=0))])
             for r in training.rounds]
    fig.update_layout(
        height=620 if big else 540, font=dict(family=FONT, size=19 if big else 14),
        showlegend=False, margin=dict(t=70, b=40, l=70, r=20),
        sliders=[dict(active=opening.round, steps=steps, currentvalue=dict(prefix=_("round") + " "),
                      pad=dict(t=70), x=0.2, len=0.8)],
        updatemenus=[dict(type="buttons", direction="left", x=0, y=-0.3, xanchor="left",
                          showactive=False, buttons=[
            dict(label=_("▶ Play"), method="animate",
                 args=[None, dict(frame=dict(duration=900, redraw=True), fromcurrent=True,
                                  transition=dict(duration=0))]),
            dict(label="⏸", method="animate",
                 args=[[None], dict(mode="immediate", frame=dict(duration=0, redraw=False))]),
        ])],
    )
    fig.update_xaxes(dtick=1, showticklabels=False, row=1, col=1)  # the rounds are below
    fig.update_xaxes(title_text=_("round"), dtick=1, row=2, col=1)
    fig.update_yaxes(title_text=_("pieces"), row=1, col=1)
    fig.update_yaxes(title_text=_("log-likelihood"), row=2, col=1)
    fig.update_xaxes(title_text=_("log-likelihood lost by removing it"), row=1, col=2)
    # one range for every round (a frame does not rescale the axis); room for the bar labels
    top = max((x.loss for r in training.rounds for x in r.removed), default=0.0)
    fig.update_xaxes(range=[0, max(top, 1.0) * 1.6], row=1, col=2)
    fig.update_yaxes(type="category", automargin=True, dtick=1, tickfont=dict(size=tick_px),
                     row=1, col=2)
    return fig
