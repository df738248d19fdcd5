"""The token view: one tokenizer's tokens drawn over the text, with its headline numbers."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from tokenizer_core import RenderOptions, Token, render_tokens
from ui.common.i18n import _, number, say
from ui.common.limits import MAX_RENDER_TOKENS
from ui.common.safe_text import literal


def render_options(**chosen: object) -> RenderOptions:
    """The core's RenderOptions with the session's language for hover titles and the readout
    line (every token view of the app is drawn with these)."""
    return RenderOptions(say=say, **chosen)  # type: ignore[arg-type]


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
    count.metric(_("Tokens"), number(len(tokens)))
    shown = tokens[:MAX_RENDER_TOKENS]
    drawn_text = text if len(shown) == len(tokens) else text[: shown[-1].end]
    st.html(render_tokens(drawn_text, shown, options, panel.disagree))
    if len(tokens) > len(shown):
        st.caption(_(
            "Showing the first {shown} of {total} tokens (the drawing bound); every number on "
            "this page counts all of them.", shown=number(len(shown)), total=number(len(tokens))))
