"""An expander whose contents are drawn only while it is open.

A closed st.expander still sends the browser everything inside it, and the browser loads the
code of every element type it holds: the sidebar's lesson tools and the Playground's upload
boxes alone cost a first visit the uploader's, the download button's and the button's script
chunks (a dozen files, each fetched, parsed and run on a student's laptop, and each sent by the
server). A user opens one of them now and then; until then there is nothing to draw.

Every uploader inside one hands its file over in its on_change (the text, the tokenizer or the
lesson file is taken then), so closing the box loses nothing but the uploader's own list.
"""

from __future__ import annotations

import streamlit as st
from streamlit.elements.lib.mutable_expander_container import ExpanderContainer


def lazy_expander(label: str, key: str) -> ExpanderContainer:
    """st.expander(label) keyed `key` whose open state reaches Python: draw its contents only
    `if box.open`. Opening it reruns the script (about a tenth of a second) to draw them. To
    open it from Python, set `st.session_state[key] = True` before this call. By convention a
    box holding one uploader is keyed after it: `{uploader key}_box`.

    subtle: the label is part of the box's identity (and Streamlit adds the page), so after a
    switch of language or of page it is a new box, closed."""
    return st.expander(label, key=key, on_change="rerun")
