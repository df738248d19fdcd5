"""Chart builders for the Compression page: pure functions from a DataFrame to a plotly Figure.

Colour names the corpus, line style and marker shape name the tokenizer family, so a line reads
the same on a black-and-white projector; reference tokenizers are big markers at their vocab
sizes, in the legend of every corpus and named on the chart once. No two families share a shape.
Plotly reads a little HTML in names and hover text (`<a href>`, `<b>`), so a corpus name, which
may be an uploaded file's name, goes through render.escape first.
"""

from __future__ import annotations

import math
from typing import Mapping

import pandas as pd
import plotly.graph_objects as go

from tokenizer_core.render import escape
from ui.compression.frames import FAMILY_LABELS, METRICS, OURS, UNK_VISIBLE

DASH = {OURS: "solid", "bpe_bytes": "dash", "bpe": "longdash", "wordpiece": "dot",
        "unigram": "dashdot", "sp_unigram": "dashdot", "sp_bpe": "dash"}
HF_SYMBOL = {"bpe_bytes": "circle-open", "bpe": "triangle-up", "wordpiece": "square",
             "unigram": "diamond", "sp_unigram": "diamond-open", "sp_bpe": "triangle-down-open"}
# Shapes none of HF_SYMBOL uses (and not the [UNK] warning's x): the shape alone names the model.
# One per stored.REFERENCE_TOKENIZERS (a test checks that every one has its own).
REF_SYMBOL = {"gpt2": "pentagon", "cl100k_base": "hourglass", "o200k_base": "star",
              "llama3": "cross", "qwen2.5": "star-triangle-up", "mistral-nemo": "bowtie",
              "mistral-7b": "star-diamond", "deepseek-v4": "star-square",
              "bert-base-uncased": "hexagram"}
# The names drawn on the chart. Llama 3, DeepSeek, Mistral Nemo (128k to 131k) and Qwen (152k)
# sit between cl100k and o200k, closer than a name is wide: their shapes, the legend and the
# hover name them, and the chart names only the markers with room around them.
REF_SHORT = {"gpt2": "GPT-2", "cl100k_base": "cl100k", "o200k_base": "o200k",
             "mistral-7b": "Mistral 7B"}
# cl100k and o200k often compress alike, side by side: cl100k is named on its left and o200k
# above, so the names never collide, and o200k's never runs off the plot into the legend.
REF_TEXT_SIDE = {"gpt2": "middle left", "cl100k_base": "middle left", "o200k_base": "top center",
                 "mistral-7b": "middle left"}
TICKS = [256, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000]
FALLBACK_COLOR = "#444444"
FONT = "Inter, 'Source Sans Pro', 'DejaVu Sans', sans-serif"


def _tick_text(value: int) -> str:
    return f"{value // 1000}k" if value >= 1000 else str(value)


def _hover(metric: str, with_merges: bool) -> str:
    unit = METRICS[metric].lower()
    merges = "<br>%{customdata[1]:,} merges" if with_merges else ""
    return (
        "<b>%{customdata[0]}</b><br>vocab %{x:,}" + merges
        + f"<br>%{{y:.2f}} {unit}<br>%{{customdata[2]:,}} tokens<extra></extra>"
    )


def _custom(part: pd.DataFrame, name: str) -> list[list[object]]:
    merges = part["merges"].fillna(0).astype(int)
    return [[name, m, t] for m, t in zip(merges, part["tokens"])]


def curve_figure(
    frame: pd.DataFrame,
    metric: str,
    colors: Mapping[str, str],
    mark_vocab: int | None = None,
    big: bool = False,
) -> go.Figure:
    """`metric` against vocab size (log axis): one line per corpus and family, references as
    markers. `frame` has curve_frame's columns; rows whose metric is missing are left out."""
    if metric not in METRICS:
        raise ValueError(f"unknown measure {metric!r}; choose one of {', '.join(METRICS)}")
    data = frame.dropna(subset=[metric])
    labelled = _topmost_references(data, metric)
    fig = go.Figure()
    width = 5 if big else 4
    for corpus_key, corpus_part in data.groupby("corpus_key", sort=False):
        color = colors.get(str(corpus_key), FALLBACK_COLOR)
        corpus = escape(str(corpus_part["corpus"].iloc[0]))  # an upload's file name: user text
        for (family, kind), part in sorted(corpus_part.groupby(["family", "kind"], sort=False),
                                           key=_legend_order):
            part = part.sort_values("vocab_size")
            label = FAMILY_LABELS.get(str(family), str(family))
            common = dict(
                x=part["vocab_size"], y=part[metric], legendgroup=corpus,
                legendgrouptitle_text=corpus, customdata=_custom(part, f"{corpus} · {label}"),
            )
            if kind == "reference":
                short = REF_SHORT.get(str(family), "")  # "": named by legend and hover only
                text = [short if i in labelled else "" for i in part.index]
                fig.add_trace(go.Scatter(  # in the legend of its corpus, named once on the chart
                    **common, name=label, mode="markers+text", text=text,
                    textposition=REF_TEXT_SIDE.get(str(family), "middle left"), cliponaxis=False,
                    textfont=dict(size=20 if big else 15, color=color),
                    marker=dict(symbol=REF_SYMBOL.get(str(family), "x"), size=22 if big else 17,
                                color=color, line=dict(width=1.5, color="#222")),
                    hovertemplate=_hover(metric, False),
                ))
            elif kind == "train":
                fig.add_trace(go.Scatter(
                    **common, name="Ours, on its training part", mode="lines",
                    line=dict(color=color, width=2, dash="dot"), opacity=0.7,
                    hovertemplate=_hover(metric, True),
                ))
            elif family == OURS:
                fig.add_trace(go.Scatter(
                    **common, name=label, mode="lines", line=dict(color=color, width=width),
                    hovertemplate=_hover(metric, True),
                ))
            else:
                fig.add_trace(go.Scatter(
                    **common, name=label, mode="lines+markers",
                    line=dict(color=color, width=width - 1.5, dash=DASH.get(str(family), "dash")),
                    marker=dict(symbol=HF_SYMBOL.get(str(family), "circle"), size=12 if big else 10,
                                color=color, line=dict(width=1.5, color=color)),
                    hovertemplate=_hover(metric, False),
                ))
    _unk_marks(fig, data, metric, big)
    _layout(fig, data, metric, mark_vocab, big)
    return fig


def _legend_order(group: tuple[tuple, pd.DataFrame]) -> int:
    """Within a corpus: our lines first, then the HF lines, then the reference tokenizers."""
    (family, kind), _ = group
    return 0 if family == OURS else 2 if kind == "reference" else 1


def _topmost_references(data: pd.DataFrame, metric: str) -> set:
    """Row labels of the highest marker of each reference tokenizer: the only one named on the
    chart (the others sit right under it at the same vocab size, so one name serves them all)."""
    references = data[data["kind"] == "reference"]
    return set(references.groupby("family")[metric].idxmax()) if not references.empty else set()


def _unk_marks(fig: go.Figure, data: pd.DataFrame, metric: str, big: bool) -> None:
    """A cross over every point that hides text in [UNK]: its compression is not real."""
    flagged = data[data["hidden_in_unk"] >= UNK_VISIBLE]
    if flagged.empty:
        return
    names = [f"{escape(str(corpus))} · {FAMILY_LABELS.get(family, family)}"
             for corpus, family in zip(flagged["corpus"], flagged["family"])]
    fig.add_trace(go.Scatter(
        x=flagged["vocab_size"], y=flagged[metric], mode="markers", name="hides text in [UNK]",
        legendgroup="unk", legendgrouptitle_text="Warning",
        marker=dict(symbol="x-thin", size=26 if big else 20, line=dict(width=3, color="#8a0000")),
        customdata=[[n, h] for n, h in zip(names, flagged["hidden_in_unk"])],
        hovertemplate="<b>%{customdata[0]}</b><br>vocab %{x:,}<br>"
        "%{customdata[1]:.0%} of the characters hidden in [UNK]<extra></extra>",
    ))


def _layout(fig: go.Figure, data: pd.DataFrame, metric: str, mark: int | None, big: bool) -> None:
    base = 20 if big else 16
    top = max([*data["vocab_size"], mark or 0, 4_000])
    room = 1.35  # right of the last point: room for its marker
    if (data["kind"] == "reference").any():
        room = 1.8 if big else 1.6  # o200k's big star at 200k
    low_log, high_log = math.log10(200), math.log10(top * room)
    ticks = [t for t in TICKS if t <= top * room]
    # Tall enough that the legend (one group per corpus) never needs its own scroll bar.
    shown = [t for t in fig.data if t.showlegend is not False]
    rows = len(shown) + len({t.legendgroup for t in shown})
    fig.update_layout(
        template="plotly_white",
        height=max(680 if big else 560, rows * (base + 12) + 140),
        margin=dict(l=10, r=10, t=40, b=10),
        font=dict(family=FONT, size=base, color="#111"),
        hoverlabel=dict(font_size=base),
        legend=dict(font=dict(size=base - 2), groupclick="toggleitem", tracegroupgap=14,
                    itemwidth=40, grouptitlefont=dict(size=base, color="#111")),
        xaxis=dict(
            type="log", range=[low_log, high_log], title="Vocabulary size (log scale)",
            tickvals=ticks, ticktext=[_tick_text(t) for t in ticks], showgrid=True,
            gridcolor="#e3e3e3", zeroline=False, linecolor="#888", ticks="outside",
        ),
        yaxis=dict(
            title=METRICS[metric] + (" (lower is better)" if metric == "tokens_per_word" else ""),
            rangemode="tozero", gridcolor="#e3e3e3", zeroline=True, zerolinecolor="#888",
            linecolor="#888", ticks="outside",
        ),
    )
    if mark is not None:
        fig.add_vline(x=mark, line=dict(color="#555", width=2, dash="dot"))
        # subtle: on a log axis an annotation's x is log10 of the value (add_vline's own
        # annotation would land at 10^1000), so it is placed by hand.
        fig.add_annotation(
            x=math.log10(mark), y=1, yref="paper", yanchor="bottom", showarrow=False,
            text=f"compared at {mark:,}", font=dict(size=base - 2, color="#333"),
        )
