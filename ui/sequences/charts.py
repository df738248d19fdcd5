"""The batching chart: padding waste against batch size, in order vs bucketed."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go


def waste_chart(rows: list[tuple[str, int, float]]) -> go.Figure:
    frame = pd.DataFrame(rows, columns=["batching", "batch size", "padding waste"])
    figure = px.line(frame, x="batch size", y="padding waste", color="batching", markers=True,
                     log_x=True, title="Share of computed tokens that are padding",
                     color_discrete_sequence=["#d95f02", "#1b6ac9"])
    figure.update_xaxes(tickvals=sorted(frame["batch size"].unique()))
    figure.update_yaxes(tickformat=".0%", rangemode="tozero")
    figure.update_layout(height=360, margin=dict(l=10, r=10, t=50, b=10), legend_title_text="")
    return figure
