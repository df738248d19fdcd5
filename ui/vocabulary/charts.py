"""The Vocabulary page's charts: pure functions from counts to plotly figures."""

from __future__ import annotations

import plotly.graph_objects as go

from ui.common.i18n import _, number

FONT = {"size": 16, "color": "#111", "family": "system-ui, 'Noto Sans CJK SC', sans-serif"}


def _style(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    fig.update_layout(
        template="plotly_white", title={"text": title, "x": 0}, font=FONT, height=380,
        margin={"l": 10, "r": 10, "t": 50, "b": 10}, xaxis_title=x, yaxis_title=y,
        showlegend=False,
    )  # fmt: skip
    return fig


def length_chart(histogram: dict[int, int], name: str, longest_shown: int = 32) -> go.Figure:
    """How many tokens have each length in bytes; the long tail is one bar, `33+`."""
    shown = {str(n): c for n, c in histogram.items() if n <= longest_shown}
    tail = sum(c for n, c in histogram.items() if n > longest_shown)
    if tail:
        shown[f"{longest_shown + 1}+"] = tail
    fig = go.Figure(go.Bar(
        x=list(shown), y=list(shown.values()), marker_color="#3b6fb6",
        hovertemplate=_("%{x} bytes: %{y:,} tokens") + "<extra></extra>",
    ))  # fmt: skip
    fig.update_xaxes(type="category")
    return _style(fig, _("{name}: token length", name=name), _("bytes"), _("tokens"))


def script_chart(counts: dict[str, int], name: str) -> go.Figure:
    """Tokens per script class, largest first."""
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    fig = go.Figure(go.Bar(
        x=[c for _s, c in ordered], y=[_(s) for s, _c in ordered], orientation="h",
        marker_color="#e07b39", hovertemplate=_("%{y}: %{x:,} tokens") + "<extra></extra>",
        text=[number(c) for _s, c in ordered], textposition="outside", cliponaxis=False,
    ))  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    if ordered:  # room right of the longest bar for its count (`94,217` was cut at the edge)
        fig.update_xaxes(range=[0, ordered[0][1] * 1.32])
    return _style(fig, _("{name}: tokens per script", name=name), _("tokens"), "")
