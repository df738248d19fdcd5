"""Chart builders for the Compression page: pure functions from a DataFrame to a plotly Figure.

Colour names the corpus, line style and marker shape name the tokenizer, so a line reads the same
on a black-and-white projector. The legend says each once: one entry per corpus (its colour) and
one per tokenizer (its shape and line, in grey), not one per corpus and tokenizer (with four
corpora that was 52 entries); a tokenizer's entry shows or hides it in every corpus. Reference
tokenizers are big markers at their vocab sizes, each named once on the chart, beside its highest
marker with an arrow, where the name meets no other name or marker (labels.py).
Plotly reads a little HTML in names and hover text (`<a href>`, `<b>`), so a corpus name, which
may be an uploaded file's name, goes through render.escape first.
"""

from __future__ import annotations

import math
from typing import Mapping

import pandas as pd
import plotly.graph_objects as go

from tokenizer_core.render import escape
from ui.common.i18n import _, number
from ui.compression.frames import (
    FAMILY_LABELS,
    FAMILY_NAMES,
    METRICS,
    OURS,
    UNK_VISIBLE,
    family_label,
    metric_name,
)
from ui.compression.labels import Frame, Point, place_labels

DASH = {OURS: "solid", "bpe_bytes": "dash", "bpe": "longdash", "wordpiece": "dot",
        "unigram": "dashdot", "sp_unigram": "dashdot", "sp_bpe": "dash"}
HF_SYMBOL = {"bpe_bytes": "circle-open", "bpe": "triangle-up", "wordpiece": "square",
             "unigram": "diamond", "sp_unigram": "diamond-open", "sp_bpe": "triangle-down-open"}
# Shapes none of HF_SYMBOL uses (and not the [UNK] warning's x): the shape alone names the model.
# One per stored.REFERENCE_TOKENIZERS (a test checks that every one has its own). BERT's is a
# crossed circle: a six-pointed star beside o200k's five-pointed one read as the same marker.
REF_SYMBOL = {"gpt2": "pentagon", "cl100k_base": "hourglass", "o200k_base": "star",
              "llama3": "cross", "qwen2.5": "star-triangle-up", "mistral-nemo": "bowtie",
              "mistral-7b": "star-diamond", "deepseek-v4": "star-square",
              "bert-base-uncased": "circle-x"}
# The folder's and the HF cache's tokenizers (local:/hf:), in the order of their names: shapes
# neither REF_SYMBOL nor HF_SYMBOL uses, so four found tokenizers are four markers, not four x's.
# Past eight they repeat; the legend and the name beside each marker still tell them apart.
FOUND_SYMBOLS = ("hexagon", "square-x", "triangle-left", "diamond-tall", "triangle-right",
                 "octagon", "diamond-x", "arrow-up")
# The names written on the chart, short enough to fit beside a marker.
REF_SHORT = {"gpt2": "GPT-2", "cl100k_base": "cl100k", "o200k_base": "o200k",
             "llama3": "Llama 3", "qwen2.5": "Qwen 2.5", "mistral-nemo": "Nemo",
             "mistral-7b": "Mistral 7B", "deepseek-v4": "DeepSeek", "bert-base-uncased": "BERT"}
KEY_COLOR = "#555555"  # the tokenizer entries of the legend: shape and line, no corpus colour
TRAIN = "ours, training part"  # the legend group of our dotted line on the training part
TICKS = [256, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000]
FALLBACK_COLOR = "#444444"
FONT = "Inter, 'Source Sans Pro', 'DejaVu Sans', sans-serif"


def _tick_text(value: int) -> str:
    return f"{value // 1000}k" if value >= 1000 else str(value)


def _hover(metric: str, with_merges: bool) -> str:
    """Plotly's hover template in the session's language: the sentences come from the catalog,
    plotly's own %{...} fields go in as their values (so a translation may move them)."""
    lines = ["<b>%{customdata[0]}</b>", _("vocab {vocab}", vocab="%{x:,}")]
    if with_merges:
        lines.append(_("{merges} merges", merges="%{customdata[1]:,}"))
    lines.append(_("{measure}: {value}", measure=metric_name(metric), value="%{y:.2f}"))
    lines.append(_("{count} tokens", count="%{customdata[2]:,}"))
    return "<br>".join(lines) + "<extra></extra>"


def _custom(part: pd.DataFrame, name: str) -> list[list[object]]:
    merges = part["merges"].fillna(0).astype(int)
    return [[name, m, t] for m, t in zip(merges, part["tokens"])]


def _group(family: str, kind: str) -> str:
    """The legend group of a series: its tokenizer (our training-part line apart)."""
    return TRAIN if kind == "train" else family


def _found_symbols(data: pd.DataFrame) -> dict[str, str]:
    """Each found tokenizer's shape on this chart (FOUND_SYMBOLS, by the order of the names)."""
    references = data[data["kind"] == "reference"]["family"].astype(str)
    found = sorted(set(references) - set(REF_SYMBOL))
    return {name: FOUND_SYMBOLS[n % len(FOUND_SYMBOLS)] for n, name in enumerate(found)}


def _series(family: str, kind: str, color: str, big: bool,
            found: Mapping[str, str] | None = None) -> dict:
    """How a series looks, in `color`: a reference's marker, a line, or an HF line of markers.
    `found`: the found tokenizers' shapes (_found_symbols)."""
    width = 5 if big else 4
    if kind == "reference":
        symbol = REF_SYMBOL.get(family) or (found or {}).get(family, FOUND_SYMBOLS[0])
        return dict(mode="markers", marker=dict(
            symbol=symbol, size=22 if big else 17, color=color,
            line=dict(width=1.5, color="#222")))
    if kind == "train":
        return dict(mode="lines", line=dict(color=color, width=2, dash="dot"))
    if family == OURS:
        return dict(mode="lines", line=dict(color=color, width=width))
    return dict(mode="lines+markers",
                line=dict(color=color, width=width - 1.5, dash=DASH.get(family, "dash")),
                marker=dict(symbol=HF_SYMBOL.get(family, "circle"), size=12 if big else 10,
                            color=color, line=dict(width=1.5, color=color)))


def _label(family: str, kind: str) -> str:
    return _("Ours, on its training part") if kind == "train" else _named(family)


def _named(family: str) -> str:
    """A family's label for plotly. subtle: only a found tokenizer's name (local:FILE, a file
    name: user text) is escaped; our own labels keep their `</w>`, which plotly shows as is."""
    label = family_label(family)
    return label if family in FAMILY_LABELS else escape(label)


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
    found = _found_symbols(data)
    fig = go.Figure()
    corpora: dict[str, tuple[str, str]] = {}  # key -> (escaped name, colour), in order
    series: dict[str, tuple[str, str]] = {}  # legend group -> (family, kind), in order
    for corpus_key, corpus_part in data.groupby("corpus_key", sort=False):
        color = colors.get(str(corpus_key), FALLBACK_COLOR)
        corpus = escape(str(corpus_part["corpus"].iloc[0]))  # an upload's file name: user text
        corpora[str(corpus_key)] = (corpus, color)
        groups = sorted(((str(f), str(k)), part) for (f, k), part
                        in corpus_part.groupby(["family", "kind"], sort=False))
        # drawn in the legend's order: lines first, so the reference markers sit on top
        for (family, kind), part in sorted(groups, key=lambda g: _legend_order(("", g[0]))):
            part = part.sort_values("vocab_size")
            label = _label(family, kind)
            series.setdefault(_group(family, kind), (family, kind))
            fig.add_trace(go.Scatter(  # named in the legend by the keys below, once
                x=part["vocab_size"], y=part[metric], name=label, showlegend=False,
                legendgroup=_group(family, kind), customdata=_custom(part, f"{corpus} · {label}"),
                hovertemplate=_hover(metric, kind != "reference" and family == OURS),
                opacity=0.7 if kind == "train" else None, cliponaxis=False,
                **_series(family, kind, color, big, found),
            ))
    _legend_keys(fig, corpora, series, big, found)
    _unk_marks(fig, data, metric, big)
    _layout(fig, data, metric, mark_vocab, big)
    return fig


def _legend_order(item: tuple[str, tuple[str, str]]) -> int:
    """Our lines first, then the HF lines, then the reference tokenizers (in the store's order)."""
    _group_name, (family, kind) = item
    if family == OURS:
        return 0 if kind != "train" else 1
    if kind == "reference":
        return 100 + list(REF_SYMBOL).index(family) if family in REF_SYMBOL else 200
    return 10 + list(FAMILY_NAMES).index(family) if family in FAMILY_NAMES else 50


def _legend_keys(fig: go.Figure, corpora: dict[str, tuple[str, str]],
                 series: dict[str, tuple[str, str]], big: bool,
                 found: Mapping[str, str]) -> None:
    """The legend: one entry per corpus (its colour), then one per tokenizer (its shape and line,
    in grey), each in its tokenizer's group, so a click shows or hides it in every corpus."""
    for n, (corpus, color) in enumerate(corpora.values()):
        fig.add_trace(go.Scatter(
            x=[None], y=[None], name=corpus, mode="lines", legendgroup=f"corpus {n}",
            line=dict(color=color, width=8), hoverinfo="skip",
            legendgrouptitle_text=_("Corpus (colour)") if n == 0 else None,
        ))
    for n, (group, (family, kind)) in enumerate(sorted(series.items(), key=_legend_order)):
        fig.add_trace(go.Scatter(
            x=[None], y=[None], name=_label(family, kind), legendgroup=group, hoverinfo="skip",
            legendgrouptitle_text=_("Tokenizer (shape, line)") if n == 0 else None,
            **_series(family, kind, KEY_COLOR, big, found),
        ))


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
    names = [f"{escape(str(corpus))} · {_named(family)}"
             for corpus, family in zip(flagged["corpus"], flagged["family"])]
    fig.add_trace(go.Scatter(
        x=flagged["vocab_size"], y=flagged[metric], mode="markers", name=_("hides text in [UNK]"),
        legendgroup="unk", legendgrouptitle_text=_("Warning"),
        marker=dict(symbol="x-thin", size=26 if big else 20, line=dict(width=3, color="#8a0000")),
        customdata=[[n, h] for n, h in zip(names, flagged["hidden_in_unk"])],
        hovertemplate="<br>".join([
            "<b>%{customdata[0]}</b>", _("vocab {vocab}", vocab="%{x:,}"),
            _("{share} of the characters hidden in [UNK]", share="%{customdata[1]:.0%}"),
        ]) + "<extra></extra>",
    ))


MARGIN = dict(l=10, r=10, t=40, b=10)
AXIS_PX = 70  # the x axis's ticks and title, under the plot area


def _reference_labels(fig: go.Figure, data: pd.DataFrame, metric: str, low_log: float,
                      high_log: float, height: int, big: bool) -> None:
    """Each reference tokenizer's name beside its highest marker, with an arrow, placed where it
    meets no other name and no marker (labels.py)."""
    references = data[data["kind"] == "reference"]
    if references.empty:
        return
    named = _topmost_references(data, metric)
    points = [Point(REF_SHORT.get(str(f), _named(str(f))) if i in named else "", math.log10(v), y)
              for i, f, v, y in zip(references.index, references["family"],
                                    references["vocab_size"], references[metric])]
    font_px, marker_px = (20, 22) if big else (15, 17)
    plot = Frame(low_log, high_log, y_max=float(data[metric].max()) * 1.06,
                 height_px=height - MARGIN["t"] - MARGIN["b"] - AXIS_PX)
    for i, (dx, dy) in place_labels(points, plot, font_px, marker_px).items():
        fig.add_annotation(
            x=points[i].log_x, y=points[i].y, text=points[i].name, ax=dx, ay=dy,
            showarrow=True, arrowhead=0, arrowwidth=1.2, arrowcolor="#444",
            standoff=marker_px / 2, font=dict(size=font_px, color="#111"),
            bgcolor="rgba(255, 255, 255, 0.85)", name="reference label",
        )


def _layout(fig: go.Figure, data: pd.DataFrame, metric: str, mark: int | None, big: bool) -> None:
    base = 20 if big else 16
    top = max([*data["vocab_size"], mark or 0, 4_000])
    room = 1.35  # right of the last point: room for its marker
    if (data["kind"] == "reference").any():
        room = 1.8 if big else 1.6  # o200k's big star at 200k
    low_log, high_log = math.log10(200), math.log10(top * room)
    ticks = [t for t in TICKS if t <= top * room]
    # Tall enough that the legend (a few entries and three titles) never needs a scroll bar.
    shown = [t for t in fig.data if t.showlegend is not False]
    rows = len(shown) + 3
    height = max(680 if big else 560, rows * (base + 10) + 140)
    fig.update_layout(
        template="plotly_white",
        height=height,
        margin=MARGIN,
        font=dict(family=FONT, size=base, color="#111"),
        hoverlabel=dict(font_size=base),
        legend=dict(font=dict(size=base - 2), groupclick="togglegroup", tracegroupgap=2,
                    itemwidth=40, grouptitlefont=dict(size=base, color="#111")),
        xaxis=dict(
            type="log", range=[low_log, high_log], title=_("Vocabulary size (log scale)"),
            tickvals=ticks, ticktext=[_tick_text(t) for t in ticks], showgrid=True,
            gridcolor="#e3e3e3", zeroline=False, linecolor="#888", ticks="outside",
        ),
        yaxis=dict(
            title=_("{measure} (lower is better)", measure=metric_name(metric))
            if metric == "tokens_per_word" else metric_name(metric),
            rangemode="tozero", gridcolor="#e3e3e3", zeroline=True, zerolinecolor="#888",
            linecolor="#888", ticks="outside",
        ),
    )
    _reference_labels(fig, data, metric, low_log, high_log, height, big)
    if mark is not None:
        fig.add_vline(x=mark, line=dict(color="#555", width=2, dash="dot"))
        # subtle: on a log axis an annotation's x is log10 of the value (add_vline's own
        # annotation would land at 10^1000), so it is placed by hand.
        fig.add_annotation(
            x=math.log10(mark), y=1, yref="paper", yanchor="bottom", showarrow=False,
            text=_("compared at {vocab}", vocab=number(mark)), font=dict(size=base - 2, color="#333"),
        )
