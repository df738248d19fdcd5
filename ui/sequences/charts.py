"""The batching charts: padding waste against batch size (in order vs bucketed), and the pad
tokens of bucketed batches over batch size and bucket width as a heatmap."""

from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go

from ui.common.i18n import N_, _

# The charts' titles, drawn by the page above each chart as HTML that wraps: a plotly title is
# one line of SVG, cut at the edge of a half-width column at 1280 px. Said with _() there.
WASTE_TITLE = N_("Share of computed tokens that are padding")
HEATMAP_TITLE = N_("Tokens of compute wasted on padding, bucketed")


def waste_chart(rows: list[tuple[str, int, float]]) -> go.Figure:
    """One line per way of batching: (batching, batch size, padding waste) rows, in order."""
    figure = go.Figure()
    for name, colour in zip(dict.fromkeys(r[0] for r in rows), ("#d95f02", "#1b6ac9")):
        mine = [r for r in rows if r[0] == name]
        figure.add_trace(go.Scatter(
            x=[r[1] for r in mine], y=[r[2] for r in mine], name=name, mode="lines+markers",
            line=dict(color=colour),
            hovertemplate=_("batch size {size}: {share} padding", size="%{x}", share="%{y:.1%}")
            + "<extra></extra>",
        ))
    figure.update_xaxes(type="log", tickvals=sorted({r[1] for r in rows}),
                        title=_("batch size (rows)"))
    figure.update_yaxes(tickformat=".0%", rangemode="tozero", title=_("padding waste"))
    figure.update_layout(height=380, margin=dict(l=10, r=10, t=20, b=10),
                         legend=dict(orientation="h", y=-0.25), plot_bgcolor="white")
    figure.update_xaxes(showgrid=True, gridcolor="#eee")
    figure.update_yaxes(showgrid=True, gridcolor="#eee")
    return figure


def _short(n: int) -> str:
    """12345 -> '12k': a count that fits in a heatmap cell."""
    if n >= 999_500:
        return f"{n / 1e6:.1f}M"
    if n >= 10_000:
        return f"{n / 1e3:.0f}k"
    return f"{n / 1e3:.1f}k" if n >= 1_000 else str(n)


def waste_heatmap(pads: dict[tuple[int, int], int], real: int, sizes: Sequence[int],
                  widths: Sequence[int], chosen: tuple[int, int]) -> go.Figure:
    """Pad tokens computed for each (batch size, bucket width); the chosen cell outlined.

    Axes are categories (the grid is doubling steps plus the chosen values), so every cell is
    the same size and labelled with its own number."""
    z = [[pads[s, w] for s in sizes] for w in widths]
    share = [[p / (p + real) if p + real else 0.0 for p in row] for row in z]
    figure = go.Figure(go.Heatmap(
        x=[str(s) for s in sizes], y=[str(w) for w in widths], z=z, customdata=share,
        text=[[_short(p) for p in row] for row in z], texttemplate="%{text}",
        textfont=dict(size=11), colorscale="Oranges", showscale=False, xgap=1, ygap=1,
        hovertemplate=_("batch size {size}, bucket width {width}<br>{pads} pad tokens computed"
                        "<br>{share} of all computed tokens", size="%{x}", width="%{y}",
                        pads="%{z:,}", share="%{customdata:.1%}") + "<extra></extra>",
    ))
    figure.add_trace(go.Scatter(
        x=[str(chosen[0])], y=[str(chosen[1])], mode="markers", hoverinfo="skip",
        marker=dict(symbol="square-open", size=26, color="#1b6ac9", line=dict(width=3)),
        showlegend=False,
    ))
    figure.update_xaxes(type="category", title=_("batch size (rows)"))
    figure.update_yaxes(type="category", title=_("bucket width (tokens)"))
    figure.update_layout(height=380, margin=dict(l=10, r=10, t=20, b=10), plot_bgcolor="white")
    return figure
