"""The Languages page's charts: pure functions from a DataFrame to a plotly Figure.

Each builder documents the columns it reads. Colours are fixed per tokenizer (COLORS), type is
large enough for a projector (`big=True` for presentation mode), and every bar carries its
value, so a class reads the numbers without hovering.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.languages.data import BYTES_LABEL, COLORS
from ui.languages.limits import MAX_PAIR_POINTS

LANGUAGE_COLORS = {"English": "#0072B2", "Chinese": "#D55E00"}
MEASURE_COLORS = {"ratio of totals": "#0072B2", "median of per-pair ratios": "#56B4E9"}
FALLBACK_COLORS = ("#999933", "#882255", "#44AA99", "#332288")


def _style(fig: go.Figure, title: str, big: bool, height: int = 470) -> go.Figure:
    """Projector type and contrast. Pages draw with theme=None, so this is the whole look."""
    size = 22 if big else 17
    fig.update_layout(
        template="plotly_white",
        title={"text": title, "font": {"size": size + 5, "color": "#111"}, "x": 0,
               "xanchor": "left"},
        font={"size": size, "color": "#111", "family": "system-ui, 'Noto Sans CJK SC', sans-serif"},
        height=height + (90 if big else 0),
        margin={"l": 10, "r": 10, "t": 80, "b": 10},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1,
                "title": {"text": ""}},
        hoverlabel={"font": {"size": size - 2}},
    )  # fmt: skip
    fig.update_yaxes(gridcolor="#dcdcdc", zerolinecolor="#777", automargin=True,
                     title_font={"size": size}, tickfont={"size": size - 1})
    fig.update_xaxes(automargin=True, tickfont={"size": size}, linecolor="#777")
    return fig


def _color(name: str, i: int) -> str:
    return COLORS.get(name, FALLBACK_COLORS[i % len(FALLBACK_COLORS)])


def _same_as_english(fig: go.Figure) -> None:
    """A dashed line at 1× across the chart, named in the legend (a label on it would sit on
    the bars)."""
    line = {"dash": "dash", "color": "#222", "width": 3}
    fig.add_hline(y=1, line=line, layer="below")  # behind the bars, so no label is crossed
    fig.add_scatter(x=[None], y=[None], mode="lines", line=line, name="1× = same as English")


def tokens_per_char_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Grouped bars, one group per tokenizer, one bar per language.

    Reads: tokenizer, language, tokens_per_char. The group named BYTES_LABEL is the 256-token
    start (every byte a token), so its bars are the languages' bytes per character.
    """
    fig = go.Figure()
    for language, part in frame.groupby("language", sort=False):
        fig.add_bar(
            x=part["tokenizer"], y=part["tokens_per_char"], name=str(language),
            marker_color=LANGUAGE_COLORS.get(str(language), "#777"),
            text=[f"{v:.2f}" for v in part["tokens_per_char"]], textposition="outside",
            hovertemplate="%{x}<br>" + str(language)
            + ": %{y:.3f} tokens per character<extra></extra>",
        )  # fmt: skip
    fig.update_layout(barmode="group", bargap=0.25)
    fig.update_yaxes(title="tokens per character", rangemode="tozero")
    fig.update_xaxes(title="")
    top = float(frame["tokens_per_char"].max()) if len(frame) else 1.0
    fig.update_yaxes(range=[0, top * 1.18])
    title = f"Tokens per character ({BYTES_LABEL}: bytes per character)"
    return _style(fig, title, big)


def premium_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """The token premium of Chinese over English, two ways, per tokenizer.

    Reads: tokenizer, ratio_of_totals, median_ratio. A dashed line marks 1× (same as English).
    """
    fig = go.Figure()
    for column, name in zip(("ratio_of_totals", "median_ratio"), MEASURE_COLORS):
        fig.add_bar(
            x=frame["tokenizer"], y=frame[column], name=name, marker_color=MEASURE_COLORS[name],
            text=[f"{v:.2f}×" for v in frame[column]], textposition="inside",
            insidetextanchor="end", textfont={"color": "white"},
            hovertemplate="%{x}<br>" + name + ": %{y:.3f}×<extra></extra>",
        )  # fmt: skip
    _same_as_english(fig)
    top = float(frame[["ratio_of_totals", "median_ratio"]].max().max()) if len(frame) else 1.0
    fig.update_layout(barmode="group", bargap=0.25)
    fig.update_yaxes(title="tokens(Chinese) / tokens(English)", range=[0, max(top, 1.0) * 1.2])
    return _style(fig, "Token premium of Chinese over English", big)


def _box_stats(values: pd.Series) -> dict[str, float]:
    """What plotly draws for a box, computed here: quartiles (its default "linear" method, as
    pandas' quantile) and whiskers at the furthest values within 1.5 IQR of the box."""
    q1, median, q3 = (float(values.quantile(q)) for q in (0.25, 0.5, 0.75))
    reach = 1.5 * (q3 - q1)
    inside = values[(values >= q1 - reach) & (values <= q3 + reach)]
    return {"q1": q1, "median": median, "q3": q3, "lowerfence": float(inside.min()),
            "upperfence": float(inside.max())}


def _outliers(part: pd.DataFrame, stats: dict[str, float]) -> pd.DataFrame:
    """The pairs beyond the whiskers, at most MAX_PAIR_POINTS, the furthest from the median
    first (the ones a class asks about)."""
    ratio = part["ratio"]
    beyond = part[(ratio < stats["lowerfence"]) | (ratio > stats["upperfence"])]
    far = (beyond["ratio"] - stats["median"]).abs()
    return beyond.loc[far.sort_values(ascending=False, kind="stable").index[:MAX_PAIR_POINTS]]


def pair_ratio_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """One dot per pair and tokenizer: its own ratio tokens(zh)/tokens(en), with a box.

    Over MAX_PAIR_POINTS pairs the box is computed here and only the outliers are dots (at most
    MAX_PAIR_POINTS of them): 20,000 pairs of five tokenizers, each dot with its hover text,
    were an 18 MB figure sent on every run of the page.

    Reads: tokenizer, ratio, hover (already escaped text for the hover box).
    """
    fig = go.Figure()
    for i, (name, part) in enumerate(frame.groupby("tokenizer", sort=False)):
        marker = {"color": _color(str(name), i), "size": 9 if big else 7,
                  "line": {"width": 1, "color": "#333"}}
        look = {"name": str(name), "line": {"color": "#333"}, "fillcolor": "rgba(0,0,0,0.04)",
                "showlegend": False}
        hover = "%{customdata[0]}<br>ratio %{y:.2f}×<extra></extra>"
        if len(part) <= MAX_PAIR_POINTS:
            fig.add_box(
                x=part["tokenizer"], y=part["ratio"], jitter=0.45, boxpoints="all", pointpos=0,
                marker=marker, customdata=part[["hover"]], hovertemplate=hover, **look,
            )  # fmt: skip
            continue
        stats = _box_stats(part["ratio"])
        fig.add_box(x=[name], **{k: [v] for k, v in stats.items()}, boxpoints=False, **look)
        dots = _outliers(part, stats)
        fig.add_scatter(
            x=dots["tokenizer"], y=dots["ratio"], mode="markers", marker=marker,
            customdata=dots[["hover"]], hovertemplate=hover, name=f"{name}: outliers",
            showlegend=False,
        )  # fmt: skip
    _same_as_english(fig)
    fig.update_yaxes(title="tokens(zh) / tokens(en), per pair", rangemode="tozero")
    return _style(fig, "Every pair's own premium (the box's middle line is the median)", big)


def emoji_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Mean cost of one emoji, by kind (columns) and by tokenizer (rows), numbers in the cells.

    Reads: category, series, value. A grid of numbers, not bars: seven kinds times six series
    would be 42 bars whose labels collide on a projector.
    """
    grid = frame.pivot(index="series", columns="category", values="value")
    grid = grid.loc[list(dict.fromkeys(frame["series"])), list(dict.fromkeys(frame["category"]))]
    size = 22 if big else 17
    fig = go.Figure(go.Heatmap(
        z=grid.to_numpy(), x=list(grid.columns), y=list(grid.index), colorscale="Blues",
        texttemplate="%{z:.1f}", textfont={"size": size + 1}, xgap=3, ygap=3,
        showscale=False,  # every cell carries its number; the columns need the width
        hovertemplate="%{y}, %{x}: %{z:.2f} per emoji on average<extra></extra>",
    ))  # fmt: skip
    fig.update_yaxes(autorange="reversed", title="", showgrid=False)
    # Column names on top, level and on two lines ("ZWJ<br>family"): turned 45°, they would
    # reach up into the title.
    fig.update_xaxes(side="top", title="", showgrid=False, tickangle=0,
                     tickvals=list(grid.columns),
                     ticktext=[str(c).replace(" ", "<br>", 1) for c in grid.columns])
    rows = len(grid.index)
    title = "What one emoji costs, by kind (mean per emoji)"
    fig = _style(fig, title, big, height=140 + 62 * rows)
    # subtle: a title in the container with automargin pushes the plot down below it, tick
    # labels included; the default title sits in the middle of the top margin, on the labels.
    fig.update_layout(title={"yref": "container", "y": 1, "yanchor": "top", "automargin": True,
                             "pad": {"t": 10, "b": 14}})
    return fig


def grow_chart(curve: pd.DataFrame, references: pd.DataFrame, n: int | None = None,
               big: bool = False) -> go.Figure:
    """Tokens for the held-out text as Chinese characters join the 256 byte tokens.

    Reads curve: added, tokens, vocab_size, character (already escaped); references: label,
    tokens (a horizontal line each). `n` marks the chosen point.
    """
    fig = go.Figure()
    fig.add_scatter(
        x=curve["added"], y=curve["tokens"], mode="lines", name="bytes + top-N characters",
        line={"color": "#0072B2", "width": 4}, customdata=curve[["vocab_size", "character"]],
        hovertemplate="N = %{x} (vocabulary %{customdata[0]:,})<br>last added: %{customdata[1]}"
        "<br>%{y:,} tokens<extra></extra>",
    )  # fmt: skip
    for i, row in enumerate(references.itertuples(index=False)):
        color = "#333" if row.label == "one token per character" else _color(str(row.label), i)
        fig.add_hline(
            y=row.tokens, line_dash="dot" if color == "#333" else "dash", line_color=color,
            line_width=3, annotation_text=f"{row.label}: {row.tokens:,}",
            annotation_position="top right", annotation_font_color=color,
        )  # fmt: skip
    if n is not None and len(curve):
        point = curve.iloc[min(n, len(curve) - 1)]
        fig.add_scatter(
            x=[point["added"]], y=[point["tokens"]], mode="markers", name=f"N = {n}",
            marker={"size": 18 if big else 14, "color": "#D55E00",
                    "line": {"width": 2, "color": "#000"}},
            hovertemplate="N = %{x}: %{y:,} tokens<extra></extra>",
        )  # fmt: skip
    low = min([*curve["tokens"], *references["tokens"]]) if len(curve) else 0
    high = max([*curve["tokens"], *references["tokens"]]) if len(curve) else 1
    fig.update_yaxes(title="tokens for the held-out text", range=[low * 0.85, high * 1.08])
    fig.update_xaxes(title="N: Chinese characters added to the 256 byte tokens", rangemode="tozero")
    return _style(fig, "Grow a Chinese vocabulary, one character at a time", big, height=520)


def ranking_chart(frame: pd.DataFrame, column: str, title: str, axis: str, suffix: str = "",
                  big: bool = False) -> go.Figure:
    """Horizontal bars, one per tokenizer, sorted so the costliest is on top.

    Reads: tokenizer, `column`. Each bar in its tokenizer's colour, with its value written on it.
    """
    ordered = frame.sort_values(column, kind="stable")  # plotly draws the first row lowest
    colors = [_color(str(n), i) for i, n in enumerate(ordered["tokenizer"])]
    fig = go.Figure(go.Bar(
        x=ordered[column], y=ordered["tokenizer"], orientation="h", marker_color=colors,
        text=[f"{v:.2f}{suffix}" for v in ordered[column]], textposition="outside",
        cliponaxis=False, hovertemplate="%{y}: %{x:.3f}" + suffix + "<extra></extra>",
    ))  # fmt: skip
    top = float(ordered[column].max()) if len(ordered) else 1.0
    fig.update_xaxes(title=axis, range=[0, top * 1.22], gridcolor="#dcdcdc")
    fig.update_yaxes(title="")
    fig.update_layout(showlegend=False, bargap=0.22)
    return _style(fig, title, big, height=120 + 38 * len(ordered))


def language_heat_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Tokenizers (rows) x languages (columns), each cell a language's premium over the base.

    Reads: language, tokenizer, premium (long, in display order). Tokenizers are the rows: ten
    names fit down the side, not across 1280 pixels. Colour is centred on 1× (the base): blue
    cheaper, red costlier, on a log scale so 0.5× and 2× look equally far from 1×.
    """
    grid = frame.pivot(index="tokenizer", columns="language", values="premium")
    grid = grid.loc[list(dict.fromkeys(frame["tokenizer"])), list(dict.fromkeys(frame["language"]))]
    values = grid.to_numpy(dtype=float)
    logs = np.log2(values)
    reach = max(float(np.abs(logs).max()), 0.5) if values.size else 1.0
    size = 22 if big else 17
    fig = go.Figure(go.Heatmap(
        z=logs, x=list(grid.columns), y=list(grid.index), customdata=values,
        colorscale="RdBu_r", zmin=-reach, zmax=reach, showscale=False, xgap=3, ygap=3,
        text=[[f"{v:.2f}×" for v in row] for row in values], texttemplate="%{text}",
        textfont={"size": size - 1},
        hovertemplate="%{x} with %{y}: %{customdata:.3f}× the base's tokens<extra></extra>",
    ))  # fmt: skip
    fig.update_yaxes(autorange="reversed", title="", showgrid=False)
    fig.update_xaxes(side="top", title="", showgrid=False, tickangle=0,
                     tickvals=list(grid.columns),
                     ticktext=[str(c).replace(" ", "<br>", 1) for c in grid.columns])
    fig = _style(fig, "Tokens of each language over the base's", big,
                 height=150 + 44 * len(grid.index))
    fig.update_layout(title={"yref": "container", "y": 1, "yanchor": "top", "automargin": True,
                             "pad": {"t": 10, "b": 14}})  # as emoji_chart: above the labels
    return fig
