"""The token view: one tokenizer's tokens drawn over the text, with its headline numbers."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from tokenizer_core import RenderOptions, Token, render_tokens
from ui.common.limits import MAX_RENDER_TOKENS
from ui.common.safe_text import literal


@dataclass(frozen=True)
class PanelData:
    name: str
    label: str
    tokens: list[Token]
    disagree: frozenset[int] = frozenset()
    error: str | None = None


def token_panel(text: str, panel: PanelData, options: RenderOptions, description: str = "") -> None:
    """The tokenizer's name beside its token count, and the coloured tokens (at most
    MAX_RENDER_TOKENS drawn). Side by side, not one over the other: the first tokens of three
    panels must fit a laptop's first screen."""
    if panel.error is not None:
        st.markdown(f"**{literal(panel.label)}**", help=description or None)
        st.error(literal(panel.error), icon="⚠️")
        return
    tokens = panel.tokens
    name, count = st.columns([3, 2], vertical_alignment="center")
    name.markdown(f"**{literal(panel.label)}**", help=description or None)
    count.metric("Tokens", f"{len(tokens):,}")
    shown = tokens[:MAX_RENDER_TOKENS]
    drawn_text = text if len(shown) == len(tokens) else text[: shown[-1].end]
    st.html(render_tokens(drawn_text, shown, options, panel.disagree))
    if len(tokens) > len(shown):
        st.caption(
            f"Showing the first {len(shown):,} of {len(tokens):,} tokens (the drawing bound); "
            "every number on this page counts all of them."
        )
