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


def ensure_routed() -> None:
    """First line of every page: make sure app.py's router runs this page.

    subtle: because a `pages/` folder exists, Streamlit starts in its old multipage mode, in
    which opening a page's own URL on a fresh server runs pages/<page>.py by itself: no page
    config, no sidebar. The first `st.navigation` call ends that mode for the whole server; a
    page run before it switches the mode off and reruns, and the rerun goes through app.py,
    which routes to this same page from the URL.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


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
