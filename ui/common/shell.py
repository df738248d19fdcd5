"""The shared sidebar: what this app is, presentation mode for projectors, lesson tools."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.render import TOKEN_CSS
from ui.common.i18n import LANG_PARAM, SOURCE_LANGUAGE, _, current_language, language_ui
from ui.common.lesson_plan import lesson_sidebar, open_pending
from ui.common.page_state import PRESENT_PARAM, PRESENTATION_KEY
from ui.common.unicode_guard import unicode_guard

DEFAULT_PAGE = "playground"  # the router's default page: its url_path is "" (app.py)
# Large type for the back of the room; and what large type would otherwise clip at 1280x720
# (tests/browser/test_presentation.py): rows of tabs and segmented controls wrap onto a second
# line instead of scrolling or ending in "…"; a button is as wide as its label, which never
# breaks ("Che/ck" reads as two words from the back of the room). High contrast: captions
# black, and fully opaque (Streamlit fades the caption's container to 60%, so a colour alone
# stays grey).
PRESENTATION_CSS = """
html { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.1rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] p { font-size: 2.6rem; }
[data-testid="stMetricLabel"] p { font-size: 1.1rem; }
[data-testid="stCaptionContainer"] { opacity: 1; }
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p { color: #222; }
[data-testid="stMainBlockContainer"] { padding-top: 3.2rem; }
[data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; row-gap: .3rem; }
[data-testid="stButtonGroup"] [role="radiogroup"] { flex-wrap: wrap; row-gap: .3rem; }
[data-testid="stButtonGroup"] [role="radiogroup"] button { flex-shrink: 0; }
button [data-testid="stMarkdownContainer"], button [data-testid="stMarkdownContainer"] p,
.stMarkdownEllipsis, .stMarkdownEllipsis p { white-space: normal; overflow: visible; text-overflow: clip; }
[data-testid="stMetricValue"] .stMarkdownEllipsis, [data-testid="stMetricValue"] p { white-space: nowrap; }
button [data-testid="stMarkdownContainer"] p { white-space: nowrap; word-break: keep-all; overflow-wrap: normal; }
[data-testid="stButton"] button, [data-testid="stFormSubmitButton"] button, [data-testid="stDownloadButton"] button { min-width: max-content; padding-left: .45rem; padding-right: .45rem; }
[data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] > [data-testid="stVerticalBlock"] > [data-testid="stElementContainer"]:only-child > [data-testid="stButton"]) { flex-wrap: wrap; row-gap: .4rem; }
[data-testid="stColumn"]:has(> [data-testid="stVerticalBlock"] > [data-testid="stElementContainer"]:only-child > [data-testid="stButton"]) { min-width: max-content; }
[data-testid="stSidebarNavLink"] { height: auto; min-height: 2rem; }
[data-testid="stSidebarNavLink"] span[label] { white-space: normal; overflow: visible; text-overflow: clip; }
.tokview { --tok-font: 1.55rem; }
.tokview .tok { border-color: #000; color: #000; }
"""
# The `p` key's button is there for its keyboard shortcut only; the toggle is what people see.
HIDDEN_SHORTCUT_CSS = ".st-key-presentation_shortcut { display: none; }"


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
    return bool(st.session_state.get(PRESENTATION_KEY, False))


def _flip_presentation() -> None:
    st.session_state[PRESENTATION_KEY] = not presentation_mode()


def _presentation_from_link() -> None:
    """Once per session, before the toggle exists: a link with ?present=1 opens in presentation
    mode (so a reload, or a link handed to the class, keeps it). Afterwards the toggle wins,
    and every link the pages write carries it (page_state.write_link)."""
    if st.session_state.get("presentation_link_read"):
        return
    st.session_state["presentation_link_read"] = True
    if st.query_params.get(PRESENT_PARAM) == "1":
        st.session_state[PRESENTATION_KEY] = True


def sidebar(page: str = DEFAULT_PAGE, title: str = "") -> None:
    """`page` is the page on screen (its url_path, "" for the default) and `title` its title."""
    page = page or DEFAULT_PAGE
    _presentation_from_link()
    open_pending(page)
    with st.sidebar:
        # Every page's text boxes, before any is used: a lone surrogate would otherwise close the
        # websocket and lose the box's new text (the guard is one listener for the whole tab).
        unicode_guard()
        language_ui()
        st.toggle(
            _("Presentation mode"),
            key=PRESENTATION_KEY,
            help=_("Large type and high contrast, for a projector at the back of a classroom. "
                   "Key: P (when no text box has the cursor)."),
        )
        with st.container(key="presentation_shortcut"):
            st.button(_("Projector type (P)"), key="presentation_key", shortcut="P",
                      on_click=_flip_presentation)
        lesson_sidebar(page, title or page)
        st.caption(_(
            "Tokenization Explorer shows how language models cut text into tokens. "
            "Everything runs on this machine: no text leaves it, nothing is downloaded."
        ))
    # The link says so too, on pages that write no link of their own.
    if presentation_mode():
        st.query_params[PRESENT_PARAM] = "1"
    elif PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]
    if current_language() != SOURCE_LANGUAGE:
        st.query_params[LANG_PARAM] = current_language()
    elif LANG_PARAM in st.query_params:
        del st.query_params[LANG_PARAM]
    css = TOKEN_CSS + HIDDEN_SHORTCUT_CSS + (PRESENTATION_CSS if presentation_mode() else "")
    st.html(f"<style>{css}</style>")
