"""The Playground's state in the link: text (up to a bound) and choices, so a link reopens a view.

Read once per session, before the widgets exist; written back after every run. Values from the
URL are checked against what the widgets accept and silently dropped when they do not fit.
"""

from __future__ import annotations

import streamlit as st

from ui.common.catalog import BUILT_IN
from ui.common.limits import MAX_PANELS
from ui.playground.limits import MAX_URL_TEXT_CHARS

VIEWS = ("text", "ids", "bytes")
WINDOWS = (1_024, 2_048, 4_096, 8_192, 32_768, 128_000, 200_000)


def restore(prefix: str, default_text: str) -> None:
    """Fill the page's widget state from the URL the first time this session opens the page."""
    flag = f"{prefix}_restored"
    if st.session_state.get(flag):
        return
    st.session_state[flag] = True
    params = st.query_params
    text = params.get("text")
    st.session_state[f"{prefix}_text"] = text[:MAX_URL_TEXT_CHARS] if text else default_text
    names = [n for n in params.get("tok", "").split(",") if n in BUILT_IN][:MAX_PANELS]
    st.session_state[f"{prefix}_tokenizers"] = names or ["gpt2"]
    if params.get("view") in VIEWS:
        st.session_state[f"{prefix}_view"] = params["view"]
    st.session_state[f"{prefix}_ws"] = params.get("ws") == "1"
    st.session_state[f"{prefix}_special"] = params.get("special") == "1"
    window = params.get("ctx", "")
    if window.isdigit() and int(window) in WINDOWS:
        st.session_state[f"{prefix}_window"] = int(window)


def save(text: str, names: list[str], view: str, ws: bool, special: bool, window: int) -> bool:
    """Write the view into the URL; returns False when the text was too long to keep."""
    params = {
        "tok": ",".join(n for n in names if n in BUILT_IN),
        "view": view,
        "ws": "1" if ws else "0",
        "special": "1" if special else "0",
        "ctx": str(window),
    }
    fits = len(text) <= MAX_URL_TEXT_CHARS
    if fits:
        params["text"] = text
    st.query_params.from_dict(params)
    return fits
