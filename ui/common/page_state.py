"""A page's state kept for the whole session: visits to other pages and the browser's Back.

subtle: Streamlit forgets the value of a widget that was not drawn in a run, and a visit to
another page draws none of this page's widgets. So:
- every keyed widget of a page is drawn with `persist_state=KEEP`, which keeps its value while
  the user is elsewhere (widgets get no `value=`/`index=`/`default=`: each page initialises its
  keys in one place, and a widget given both logs a warning on the server);
- tabs take no `persist_state`: `kept_tabs` copies the chosen tab into a plain key when it
  changes and puts it back before the tabs are drawn again;
- a page reads its link once per session (`first_visit`), before its widgets exist; after that
  the session's own values win, and the page writes them back into the link on every run
  (`write_link`, which also keeps presentation mode in the link and the screen's whole state,
  long text included, for a lesson file);
- a lesson file or a step of a teacher's path (ui/common/lesson_plan.py) is read like a link:
  `first_visit` hands the page a reader over the step's values, once, even on a page the
  session has seen before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ui.common.i18n import LANG_PARAM, LANGUAGES, SOURCE_LANGUAGE, _, current_language, translations
from ui.common.lesson_file import Step
from ui.common.query_params import LinkReader, keep_notes, read_link

KEEP = "session"  # every page widget's persist_state
PRESENTATION_KEY = "presentation"  # session state: the sidebar's presentation mode toggle
PRESENT_PARAM = "present"  # in every link while presentation mode is on: ?present=1
PENDING_KEY = "lesson_pending"  # session state: the Step a lesson file or path opens next
SCREEN_KEY = "lesson_screen"  # session state: {"page", "params"} of the screen last drawn


def first_visit(page: str) -> LinkReader | None:
    """The link's reader the first time this session opens `page`, else None. Its notes are kept
    for the page to show (`ui.common.query_params.show_link_notes`)."""
    flag = f"{page}_link_read"
    pending = st.session_state.get(PENDING_KEY)
    if isinstance(pending, Step) and pending.page == page:
        del st.session_state[PENDING_KEY]
        st.session_state[flag] = True
        reader = LinkReader(dict(pending.params), whole_text=True)
        keep_notes(page, reader)
        return reader
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


def kept_tabs_translated(labels: Sequence[str], key: str,
                         first: str | None = None) -> tuple[Sequence, str]:
    """`kept_tabs` whose names are shown in the session's language, and the open tab's English
    name (what links, lesson files and the page's code read: the values stay English).

    subtle: a tab's value is its shown name, so after a switch of language the kept name is
    the other language's; it is carried over to this language's name before the tabs are drawn,
    and the open tab stays open."""
    english: dict[str, str] = {}
    for language in LANGUAGES:
        english |= {translations(language).gettext(label): label for label in labels}
    shown = [_(label) for label in labels]
    for state_key in (key, f"{key}_kept"):
        value = st.session_state.get(state_key)
        if value in english and value not in shown:
            st.session_state[state_key] = _(english[value])
    tabs = kept_tabs(shown, key, _(first) if first in labels else None)
    return tabs, english.get(st.session_state[key], labels[0])


def write_link(page: str, params: Mapping[str, object], *,
               whole: Mapping[str, str] | None = None) -> None:
    """Put this screen into the link: `params` (strings and whole numbers; None and anything
    else is left out), `?present=1` while presentation mode is on and `?lang=zh` while the
    interface is in Chinese. `whole` holds values too
    long for a link (a page's full text): they go only into the screen a lesson file saves.

    One write per run: each change of the link is an entry in the browser's history."""
    shown = {k: str(v) for k, v in params.items()
             if isinstance(v, (str, int)) and not isinstance(v, bool)}
    screen = st.session_state.setdefault(SCREEN_KEY, {})
    screen.clear()  # the same dict each run: a lesson file's download reads it when clicked
    screen.update(page=page, params={**shown, **(whole or {})})
    if st.session_state.get(PRESENTATION_KEY):
        shown[PRESENT_PARAM] = "1"
    if current_language() != SOURCE_LANGUAGE:
        shown[LANG_PARAM] = current_language()
    st.query_params.from_dict(shown)
