"""The batching charts: padding waste against batch size (in order vs bucketed), and the pad
tokens of bucketed batches over batch size and bucket width as a heatmap."""

from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go


def waste_chart(rows: list[tuple[str, int, float]]) -> go.Figure:
    """One line per way of batching: (batching, batch size, padding waste) rows, in order."""
    figure = go.Figure()
    for name, colour in zip(dict.fromkeys(r[0] for r in rows), ("#d95f02", "#1b6ac9")):
        mine = [r for r in rows if r[0] == name]
        figure.add_trace(go.Scatter(
            x=[r[1] for r in mine], y=[r[2] for r in mine], name=name, mode="lines+markers",
            line=dict(color=colour), hovertemplate="batch size %{x}: %{y:.1%} padding<extra></extra>",
        ))
    figure.update_xaxes(type="log", tickvals=sorted({r[1] for r in rows}), title="batch size (rows)")
    figure.update_yaxes(tickformat=".0%", rangemode="tozero", title="padding waste")
    figure.update_layout(height=380, margin=dict(l=10, r=10, t=50, b=10),
                         title="Share of computed tokens that are padding",
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
        hovertemplate="batch size %{x}, bucket width %{y}<br>%{z:,} pad tokens computed"
        "<br>%{customdata:.1%} of all computed tokens<extra></extra>",
    ))
    figure.add_trace(go.Scatter(
        x=[str(chosen[0])], y=[str(chosen[1])], mode="markers", hoverinfo="skip",
        marker=dict(symbol="square-open", size=26, color="#1b6ac9", line=dict(width=3)),
        showlegend=False,
    ))
    figure.update_xaxes(type="category", title="batch size (rows)")
    figure.update_yaxes(type="category", title="bucket width (tokens)")
    figure.update_layout(height=380, margin=dict(l=10, r=10, t=50, b=10),
                         title="Tokens of compute wasted on padding, bucketed", plot_bgcolor="white")
    return figure
