"""The shared sidebar: what this app is, and presentation mode for projectors."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.render import TOKEN_CSS

PRESENTATION_CSS = """
html { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.1rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
.tokview { --tok-font: 1.55rem; }
.tokview .tok { border-color: #000; color: #000; }
"""


def presentation_mode() -> bool:
    return bool(st.session_state.get("presentation", False))


def sidebar() -> None:
    with st.sidebar:
        st.toggle(
            "Presentation mode",
            key="presentation",
            help="Large type and high contrast, for a projector at the back of a classroom.",
        )
        st.caption(
            "Tokenization Explorer shows how language models cut text into tokens. "
            "Everything runs on this machine: no text leaves it, nothing is downloaded."
        )
    css = TOKEN_CSS + (PRESENTATION_CSS if presentation_mode() else "")
    st.html(f"<style>{css}</style>")
