"""Pills whose choice replaces the text in a box (presets, examples), shared by three pages.

The choice is written into the box in the pills' on_change callback, so the box shows it at
once, and the pills clear, so the same choice can be picked again after an edit.
"""

from __future__ import annotations

from typing import Mapping

import streamlit as st


def fill_from_pills(pills_key: str, text_key: str,
                    texts: Mapping[str, str] | None = None) -> str | None:
    """on_change of pills: the chosen text goes into `text_key`'s box. `texts` maps a choice to
    its text; without it the choice is the text. Returns the choice taken, or None."""
    chosen = st.session_state.get(pills_key)
    st.session_state[pills_key] = None
    if not chosen or (texts is not None and chosen not in texts):
        return None
    st.session_state[text_key] = chosen if texts is None else texts[chosen]
    return chosen
