"""Every plotly figure reaches the screen through show_chart: in presentation mode its type grows.

Why here and not in each chart builder: a builder is a pure function from a DataFrame to a
figure and knows nothing of the session; presentation mode is the session's. The CSS of
presentation mode (ui/common/shell.py) cannot reach plotly's SVG text, whose sizes are written
into each element by plotly's own JS, so the figure itself must carry the larger sizes.

Leaves out: geometry. A builder that needs a taller plot for the larger type (more rows of
legend, longer tick labels) still asks presentation_mode() itself and sets its height.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from ui.common.shell import presentation_mode

# How much larger every font of a figure is drawn in presentation mode: plotly's 12 px default
# becomes 15.6 px, a builder's 17 px body 22 px, as the page's HTML grows from 16 px to 20 px.
PRESENT_FONT_SCALE = 1.3
PLOTLY_DEFAULT_FONT_PX = 12  # what plotly draws when a figure names no size


def _scale_fonts(node: Any, scale: float) -> None:
    """Multiply, in place, the size of every font in a figure's JSON: layout.font, titles,
    tick labels, legends, annotations, hover labels, trace text (any key ending in "font")."""
    if isinstance(node, list):
        for item in node:
            _scale_fonts(item, scale)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key.endswith("font") and isinstance(value, dict):
            size = value.get("size")
            if isinstance(size, (int, float)) and not isinstance(size, bool):
                value["size"] = round(size * scale, 1)
            elif isinstance(size, list):  # one size per point
                value["size"] = [round(s * scale, 1) for s in size]
        _scale_fonts(value, scale)


def scaled_figure(fig: go.Figure, scale: float) -> dict[str, Any]:
    """The figure as plotly JSON with every font `scale` times larger. The figure's default
    font (what every unsized text inherits) is given a size first, so unsized text grows too."""
    spec = fig.to_plotly_json()
    layout = spec.setdefault("layout", {})
    font = layout.setdefault("font", {})
    font.setdefault("size", PLOTLY_DEFAULT_FONT_PX)
    _scale_fonts(spec, scale)
    return spec


def show_chart(fig: go.Figure, where: Any = None, **kwargs: Any) -> None:
    """`where.plotly_chart(fig, **kwargs)` (st by default), with projector type in presentation
    mode. kwargs are st.plotly_chart's (key, theme, width, config, ...)."""
    target = st if where is None else where
    shown: go.Figure | dict[str, Any] = (
        scaled_figure(fig, PRESENT_FONT_SCALE) if presentation_mode() else fig
    )
    target.plotly_chart(shown, **kwargs)
