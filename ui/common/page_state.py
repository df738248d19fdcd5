"""A page's state kept for the whole session: visits to other pages and the browser's Back.

subtle: Streamlit forgets the value of a widget that was not drawn in a run, and a visit to
another page draws none of this page's widgets. So:
- every keyed widget of a page is drawn with `persist_state=KEEP`, which keeps its value while
  the user is elsewhere (widgets get no `value=`/`index=`/`default=`: each page initialises its
  keys in one place, and a widget given both logs a warning on the server);
- tabs take no `persist_state`: `kept_tabs` copies the chosen tab into a plain key when it
  changes and puts it back before the tabs are drawn again;
- a page reads its link once per session (`first_visit`), before its widgets exist; after that
  the session's own values win, and the page writes them back into the link on every run.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.common.query_params import LinkReader, keep_notes, read_link

KEEP = "session"  # every page widget's persist_state


def first_visit(page: str) -> LinkReader | None:
    """The link's reader the first time this session opens `page`, else None. Its notes are kept
    for the page to show (`ui.common.query_params.show_link_notes`)."""
    flag = f"{page}_link_read"
    if st.session_state.get(flag):
        return None
    st.session_state[flag] = True
    reader = read_link()
    keep_notes(page, reader)
    return reader


def kept_tabs(labels: Sequence[str], key: str, first: str | None = None) -> Sequence:
    """`st.tabs` (tracking which is open) whose choice survives a visit to another page.
    `first` is the tab to open on the session's first visit (from the link), else the first."""
    kept = f"{key}_kept"
    if st.session_state.get(kept) not in labels:
        st.session_state[kept] = first if first in labels else labels[0]
    if st.session_state.get(key) not in labels:  # gone with the page switch
        st.session_state[key] = st.session_state[kept]

    def remember() -> None:
        st.session_state[kept] = st.session_state[key]

    return st.tabs(labels, key=key, on_change=remember)
