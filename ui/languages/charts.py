"""The Languages page's charts: pure functions from a DataFrame to a plotly Figure.

Each builder documents the columns it reads. Colours are fixed per tokenizer (COLORS), type is
sized for a laptop (ui/common/charts.show_chart scales every font for presentation mode; `big`
only makes room: taller plots, larger markers), and every bar carries its value, so a class
reads the numbers without hovering.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.common.i18n import _, number
from ui.languages.data import BYTES_LABEL, color, shown
from ui.languages.limits import MAX_PAIR_POINTS

FALLBACK_COLORS = ("#117733", "#AA4499", "#661100", "#6699CC")  # none of COLORS' own
NOT_A_TOKENIZER = "#222222"  # what is no tokenizer (the grow curve) is drawn in black
BODY_FONT_PX = 17  # tick labels and bar values; titles 5 px more


def _style(fig: go.Figure, title: str, big: bool, height: int = 470, subtitle: str = "") -> go.Figure:
    """Type and contrast. Pages draw with theme=None, so this is the whole look.

    The title (and the subtitle, where the title's detail goes: a long title is cut at the
    plot's edge on a 1280-pixel projector) sits at the top of the figure with automargin, so
    the plot starts below it; the legend sits at the bottom, where it cannot cover the title.
    """
    size = BODY_FONT_PX
    heading = {"text": title, "font": {"size": size + 4, "color": "#111"}, "x": 0,
               "xanchor": "left", "yref": "container", "y": 1, "yanchor": "top",
               "automargin": True, "pad": {"t": 10, "b": 14}}
    if subtitle:
        heading["subtitle"] = {"text": subtitle, "font": {"size": size - 1, "color": "#333"}}
    fig.update_layout(
        template="plotly_white",
        title=heading,
        font={"size": size, "color": "#111", "family": "system-ui, 'Noto Sans CJK SC', sans-serif"},
        height=height + (90 if big else 0),
        margin={"l": 10, "r": 10, "t": 20, "b": 10},
        legend={"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0,
                "xanchor": "left", "x": 0, "title": {"text": ""}},
        hoverlabel={"font": {"size": size - 2}},
    )  # fmt: skip
    fig.update_yaxes(gridcolor="#dcdcdc", zerolinecolor="#777", automargin=True,
                     title_font={"size": size}, tickfont={"size": size - 1})
    fig.update_xaxes(automargin=True, tickfont={"size": size}, linecolor="#777")
    return fig


def _color(name: str) -> str:
    """The tokenizer's one colour on this page. A name outside COLORS gets one chosen from its
    own letters (not its place in a chart), so it too keeps its colour from chart to chart."""
    return color(name) or FALLBACK_COLORS[zlib.crc32(name.encode()) % len(FALLBACK_COLORS)]


def _same_as_english(fig: go.Figure) -> None:
    """A dashed line at 1× across the chart, named in the legend (a label on it would sit on
    the bars)."""
    line = {"dash": "dash", "color": "#222", "width": 3}
    fig.add_hline(y=1, line=line, layer="below")  # behind the bars, so no label is crossed
    fig.add_scatter(x=[None], y=[None], mode="lines", line=line, name=_("1× = same as English"))


# Two bars per tokenizer, told apart by texture, not colour: colour is the tokenizer's, the same
# in every chart of the page (data.COLORS). The legend's swatches are grey, texture only.
SOLID = {"shape": ""}
LEGEND_GREY = "#b3b3b3"  # no tokenizer's grey (UTF-8 bytes is #8c8c8c)
HATCHED = {"shape": "/", "fgcolor": "#ffffff", "size": 9, "solidity": 0.45}


def _paired_bars(fig: go.Figure, tokenizers: pd.Series,
                 series: list[tuple[str, pd.Series, dict, str, str]]) -> None:
    """One bar per tokenizer for each (name, values, pattern, value format, hover unit)."""
    colors = [_color(str(n)) for n in tokenizers]
    for name, values, pattern, fmt, unit in series:
        fig.add_bar(
            x=tokenizers, y=values, name=name, marker={"color": colors, "pattern": pattern,
                                                       "line": {"color": "#333", "width": 1}},
            text=[fmt.format(v) for v in values], textposition="outside", cliponaxis=False,
            constraintext="none",  # plotly shrinks an outside label to its bar's width: unreadable
            textfont={"size": BODY_FONT_PX - 4},  # two labels side by side over narrow bars
            showlegend=False, hovertemplate="%{x}<br>" + name + ": %{y:.3f}" + unit
            + "<extra></extra>",  # name and unit: already in the session's language
        )  # fmt: skip
        fig.add_bar(x=[None], y=[None], name=name,
                    marker={"color": LEGEND_GREY, "pattern": pattern,
                            "line": {"color": "#333", "width": 1}})


def tokens_per_char_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Grouped bars, one group per tokenizer (its colour), English solid, Chinese hatched.

    Reads: tokenizer, language, tokens_per_char. The group named BYTES_LABEL is the 256-token
    start (every byte a token), so its bars are the languages' bytes per character.
    """
    fig = go.Figure()
    wide = frame.pivot(index="tokenizer", columns="language", values="tokens_per_char")
    wide = wide.loc[list(dict.fromkeys(frame["tokenizer"]))]
    textures = {_("English"): SOLID, _("Chinese"): HATCHED}
    _paired_bars(fig, pd.Series(wide.index), [
        (str(language), wide[language], textures.get(str(language), SOLID), "{:.2f}",
         _(" tokens per character")) for language in dict.fromkeys(frame["language"])
    ])  # fmt: skip
    fig.update_layout(barmode="group", bargap=0.25)
    fig.update_yaxes(title="", rangemode="tozero")  # the title says it
    fig.update_xaxes(title="")
    top = float(frame["tokens_per_char"].max()) if len(frame) else 1.0
    fig.update_yaxes(range=[0, top * 1.18])
    return _style(fig, _("Tokens per character"), big,
                  subtitle=_("{bytes}: bytes per character", bytes=shown(BYTES_LABEL)))


def premium_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """The token premium of Chinese over English, two ways, per tokenizer (its colour): the
    ratio of totals solid, the median of per-pair ratios hatched.

    Reads: tokenizer, ratio_of_totals, median_ratio. A dashed line marks 1× (same as English).
    """
    fig = go.Figure()
    _paired_bars(fig, frame["tokenizer"], [
        (_("ratio of totals"), frame["ratio_of_totals"], SOLID, "{:.2f}", "×"),
        (_("median of per-pair ratios"), frame["median_ratio"], HATCHED, "{:.2f}", "×"),
    ])  # fmt: skip
    _same_as_english(fig)
    top = float(frame[["ratio_of_totals", "median_ratio"]].max().max()) if len(frame) else 1.0
    fig.update_layout(barmode="group", bargap=0.25)
    fig.update_yaxes(title="", range=[0, max(top, 1.0) * 1.2])  # a long rotated title ran
    return _style(fig, _("Token premium of Chinese over English"), big,  # into the plot's title
                  subtitle=_("tokens(Chinese) / tokens(English)"))


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

    Reads: tokenizer (the English label), ratio, hover (already escaped text for the hover box),
    and line, en_tokens, zh_tokens where present (the hover's first line).
    """
    fig = go.Figure()
    frame = frame.assign(tokenizer=frame["tokenizer"].map(lambda n: shown(str(n))))
    counted = {"line", "en_tokens", "zh_tokens"} <= set(frame.columns)
    columns = ["hover", "line", "en_tokens", "zh_tokens"] if counted else ["hover"]
    first = _("line {line}: {en} → {zh} tokens", line="%{customdata[1]}", en="%{customdata[2]}",
              zh="%{customdata[3]}") + "<br>" if counted else ""
    hover = first + "%{customdata[0]}<br>" + _("ratio {ratio}", ratio="%{y:.2f}×") + \
        "<extra></extra>"
    for name, part in frame.groupby("tokenizer", sort=False):
        marker = {"color": _color(str(name)), "size": 9 if big else 7,
                  "line": {"width": 1, "color": "#333"}}
        look = {"name": str(name), "line": {"color": "#333"}, "fillcolor": "rgba(0,0,0,0.04)",
                "showlegend": False}
        if len(part) <= MAX_PAIR_POINTS:
            fig.add_box(
                x=part["tokenizer"], y=part["ratio"], jitter=0.45, boxpoints="all", pointpos=0,
                marker=marker, customdata=part[columns], hovertemplate=hover, **look,
            )  # fmt: skip
            continue
        stats = _box_stats(part["ratio"])
        fig.add_box(x=[name], **{k: [v] for k, v in stats.items()}, boxpoints=False, **look)
        dots = _outliers(part, stats)
        fig.add_scatter(
            x=dots["tokenizer"], y=dots["ratio"], mode="markers", marker=marker,
            customdata=dots[columns], hovertemplate=hover, name=f"{name}: outliers",
            showlegend=False,
        )  # fmt: skip
    _same_as_english(fig)
    fig.update_yaxes(title=_("tokens(zh) / tokens(en), per pair"), rangemode="tozero")
    return _style(fig, _("Every pair's own premium"), big,
                  subtitle=_("the box's middle line is the median"))


def emoji_chart(frame: pd.DataFrame, big: bool = False) -> go.Figure:
    """Mean cost of one emoji, by kind (columns) and by tokenizer (rows), numbers in the cells.

    Reads: category, series, value. A grid of numbers, not bars: seven kinds times six series
    would be 42 bars whose labels collide on a projector.
    """
    grid = frame.pivot(index="series", columns="category", values="value")
    grid = grid.loc[list(dict.fromkeys(frame["series"])), list(dict.fromkeys(frame["category"]))]
    size = BODY_FONT_PX
    fig = go.Figure(go.Heatmap(
        z=grid.to_numpy(), x=list(grid.columns), y=list(grid.index), colorscale="Blues",
        texttemplate="%{z:.1f}", textfont={"size": size + 1}, xgap=3, ygap=3,
        showscale=False,  # every cell carries its number; the columns need the width
        hovertemplate=_("{series}, {kind}: {value} per emoji on average", series="%{y}",
                        kind="%{x}", value="%{z:.2f}") + "<extra></extra>",
    ))  # fmt: skip
    fig.update_yaxes(autorange="reversed", title="", showgrid=False)
    # Column names on top, level and on two lines ("ZWJ<br>family"): turned 45°, they would
    # reach up into the title.
    fig.update_xaxes(side="top", title="", showgrid=False, tickangle=0,
                     tickvals=list(grid.columns),
                     ticktext=[_wrap(str(c)) for c in grid.columns])
    rows = len(grid.index)
    # subtle: _style's title sits in the container with automargin, which pushes the plot and
    # these top tick labels down below it; plotly's default title sits on the labels.
    return _style(fig, _("What one emoji costs, by kind"), big, height=140 + 62 * rows,
                  subtitle=_("mean tokens per emoji"))


def _wrap(name: str) -> str:
    """A column name on two lines at its first space ("ZWJ<br>family"); a Chinese name with no
    space is short enough for one."""
    return name.replace(" ", "<br>", 1)


def grow_chart(curve: pd.DataFrame, references: pd.DataFrame, n: int | None = None,
               big: bool = False) -> go.Figure:
    """Tokens for the held-out text as Chinese characters join the 256 byte tokens.

    Reads curve: added, tokens, vocab_size, character (already escaped); references: label,
    tokens (a horizontal line each). `n` marks the chosen point.
    """
    fig = go.Figure()
    fig.add_scatter(
        x=curve["added"], y=curve["tokens"], mode="lines", name=_("bytes + top-N characters"),
        line={"color": NOT_A_TOKENIZER, "width": 4}, customdata=curve[["vocab_size", "character"]],
        hovertemplate=_("N = {n} (vocabulary {size})<br>last added: {last}<br>{tokens} tokens",
                        n="%{x}", size="%{customdata[0]:,}", last="%{customdata[1]}",
                        tokens="%{y:,}") + "<extra></extra>",
    )  # fmt: skip
    for row in references.itertuples(index=False):
        color = "#333" if row.label == _("one token per character") else _color(str(row.label))
        fig.add_hline(
            y=row.tokens, line_dash="dot" if color == "#333" else "dash", line_color=color,
            line_width=3, annotation_text=f"{row.label}: {number(row.tokens)}",
            annotation_position="top right", annotation_font_color=color,
        )  # fmt: skip
    if n is not None and len(curve):
        point = curve.iloc[min(n, len(curve) - 1)]
        fig.add_scatter(
            x=[point["added"]], y=[point["tokens"]], mode="markers", name=f"N = {n}",
            marker={"size": 18 if big else 14, "color": "#ffffff",
                    "line": {"width": 3, "color": NOT_A_TOKENIZER}},
            hovertemplate=_("N = {n}: {tokens} tokens", n="%{x}", tokens="%{y:,}")
            + "<extra></extra>",
        )  # fmt: skip
    low = min([*curve["tokens"], *references["tokens"]]) if len(curve) else 0
    high = max([*curve["tokens"], *references["tokens"]]) if len(curve) else 1
    fig.update_yaxes(title=_("tokens for the held-out text"), range=[low * 0.85, high * 1.08])
    fig.update_xaxes(title=_("N: Chinese characters added to the 256 byte tokens"),
                     rangemode="tozero")
    return _style(fig, _("Grow a Chinese vocabulary"), big, height=520,
                  subtitle=_("one character at a time"))


def ranking_chart(frame: pd.DataFrame, column: str, title: str, axis: str, suffix: str = "",
                  big: bool = False, subtitle: str = "") -> go.Figure:
    """Horizontal bars, one per tokenizer, sorted so the costliest is on top.

    Reads: tokenizer, `column`. Each bar in its tokenizer's colour, with its value written on it.
    """
    ordered = frame.sort_values(column, kind="stable")  # plotly draws the first row lowest
    colors = [_color(str(n)) for n in ordered["tokenizer"]]
    fig = go.Figure(go.Bar(
        x=ordered[column], y=ordered["tokenizer"], orientation="h", marker_color=colors,
        text=[f"{v:.2f}{suffix}" for v in ordered[column]], textposition="outside",
        cliponaxis=False, hovertemplate="%{y}: %{x:.3f}" + suffix + "<extra></extra>",
    ))  # fmt: skip
    top = float(ordered[column].max()) if len(ordered) else 1.0
    fig.update_xaxes(title=axis, range=[0, top * 1.22], gridcolor="#dcdcdc")
    fig.update_yaxes(title="")
    fig.update_layout(showlegend=False, bargap=0.22)
    return _style(fig, title, big, height=120 + 38 * len(ordered), subtitle=subtitle)


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
    size = BODY_FONT_PX
    fig = go.Figure(go.Heatmap(
        z=logs, x=list(grid.columns), y=list(grid.index), customdata=values,
        colorscale="RdBu_r", zmin=-reach, zmax=reach, showscale=False, xgap=3, ygap=3,
        text=[[f"{v:.2f}×" for v in row] for row in values], texttemplate="%{text}",
        textfont={"size": size - 1},
        hovertemplate=_("{language} with {name}: {ratio} the base's tokens",
                        language="%{x}", name="%{y}", ratio="%{customdata:.3f}×")
        + "<extra></extra>",
    ))  # fmt: skip
    fig.update_yaxes(autorange="reversed", title="", showgrid=False)
    fig.update_xaxes(side="top", title="", showgrid=False, tickangle=0,
                     tickvals=list(grid.columns),
                     ticktext=[_wrap(str(c)) for c in grid.columns])
    return _style(fig, _("Tokens of each language over the base's"), big,
                  height=150 + 44 * len(grid.index))  # as emoji_chart: title above the labels
