"""The "Long text" tab: a long text cut into windows, drawn as bands over the text itself.

Widgets in, tokenizer_core.measure.sequences_windows cuts, bands.py draws.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.measure.sequences_windows import (
    TooManyWindows,
    Window,
    boundary_windows,
    sliding_windows,
    summarize,
    window_count,
)
from tokenizer_core.samples import article_text, english_reference_corpus, sample_text
from tokenizer_core.tokens import Token
from ui.common import catalog
from ui.common.i18n import N_, _, explain, number, percent
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.sequences.bands import band_html, cut_name
from ui.sequences.limits import (
    MAX_WINDOW_CHARS,
    MAX_WINDOW_LENGTH,
    MAX_WINDOW_RENDER_CHARS,
    MAX_WINDOWS,
)

ARTICLE = N_("Article: Cutting text for machines")  # data/articles/cutting_text.txt, 26k characters
# The values (in links) stay English; the radio shows them in the session's language.
SOURCES = (ARTICLE, N_("English sample"), N_("Chinese sample"), N_("Python's documentation (long)"),
           N_("Your own text"))
DEFAULTS: dict[str, object] = {
    "sq_w_source": SOURCES[0], "sq_w_text": "", "sq_w_length": 128, "sq_w_stride": 16,
    "sq_w_mode": "sliding",
}
MODES = {"sliding": N_("Sliding (window k starts at k·(N−S))"), "boundaries":
         N_("At boundaries (paragraph, then sentence, then word)")}


def init_state() -> None:
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


@st.cache_data(max_entries=4, show_spinner=False)
def built_in(source: str) -> str:
    if source == ARTICLE:
        return article_text("cutting_text")
    if source == "English sample":
        return sample_text("english")
    if source == "Chinese sample":
        return sample_text("chinese")
    return english_reference_corpus()[:MAX_WINDOW_CHARS]


def _text() -> str:
    source = st.radio(_("Text"), SOURCES, key="sq_w_source", horizontal=True, persist_state=KEEP,
                      format_func=_,
                      help=_("The article was written for this project: 26,000 characters of "
                             "prose in paragraphs, about the history of cutting text for "
                             "machines."))
    if source != "Your own text":
        return built_in(source)
    text = st.text_area(_("Your text"), key="sq_w_text", height=140, persist_state=KEEP,
                        help=_("Up to {count} characters are cut into windows.",
                               count=number(MAX_WINDOW_CHARS)))
    if REPLACEMENT in text:
        st.caption(REPLACEMENT_NOTE)
    if len(text) > MAX_WINDOW_CHARS:
        st.warning(_("The box holds {count} characters; the page cuts the first {used} into "
                     "windows. Your whole text stays in the box.", count=number(len(text)),
                     used=number(MAX_WINDOW_CHARS)), icon="✂️")
    return text[:MAX_WINDOW_CHARS]


def windows_section(name: str) -> None:
    text = _text()
    a, b, c = st.columns([1, 1, 2])
    length = int(a.number_input(_("Max length N (tokens)"), 1, MAX_WINDOW_LENGTH,
                                key="sq_w_length", persist_state=KEEP,
                                help=_("1 to {max}.", max=number(MAX_WINDOW_LENGTH))))
    stride = int(b.number_input(_("Stride S (tokens of overlap)"), 0, MAX_WINDOW_LENGTH - 1,
                                key="sq_w_stride", persist_state=KEEP,
                                help=_("Tokens each window shares with the next; below N. The "
                                       "page cuts at most {max} windows: the step N−S must be "
                                       "long enough for that.", max=number(MAX_WINDOWS))))
    mode = c.radio(_("Windows"), list(MODES), format_func=lambda m: _(MODES[m]), key="sq_w_mode",
                   persist_state=KEEP)
    if not text.strip():
        st.info(_("Type or pick a text to cut into windows."), icon="👆")
        return
    if stride >= length:
        st.error(_("The stride ({stride}) must be below the max length ({length}): it is the "
                   "overlap between one window and the next.", stride=number(stride),
                   length=number(length)), icon="⚠️")
        return
    try:
        tokens = catalog.tokenize(name, text, "plain")
        windows = _windows(mode, text, tokens, length, stride)
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return
    if windows is None:
        return
    summary = summarize(windows, len(tokens))
    if stride:
        headline = _("**{windows} windows of at most {length} tokens, up to {stride} tokens "
                     "overlap; {repeated} of the {tokens} tokens are read twice or more.**",
                     stride=number(stride), windows=number(summary.windows),
                     length=number(length), repeated=percent(summary.repeated),
                     tokens=number(summary.tokens))
    else:
        headline = _("**{windows} windows of at most {length} tokens, no overlap; {repeated} of "
                     "the {tokens} tokens are read twice or more.**",
                     windows=number(summary.windows), length=number(length),
                     repeated=percent(summary.repeated), tokens=number(summary.tokens))
    st.markdown(headline)
    if stride:
        st.caption(_("In all the model reads {fed} tokens: {reads} times the text's tokens.",
                     fed=number(summary.fed), reads=number(summary.reads_per_token, 2)))
    st.html(band_html(text, windows, MAX_WINDOW_RENDER_CHARS))
    if len(text) > MAX_WINDOW_RENDER_CHARS:
        st.caption(_("Bands drawn over the first {shown} of {count} characters; the counts "
                     "cover the whole text.", shown=number(MAX_WINDOW_RENDER_CHARS),
                     count=number(len(text))))
    st.caption(_("Each window is a band of colour, numbered where it starts; stretches in two "
                 "colours, top and bottom, are read by two windows (the overlap). Hover a band "
                 "for its tokens and characters."))
    with st.expander(_("The windows as a table")):
        show_table(pd.DataFrame({
            _("window"): range(1, len(windows) + 1),
            _("tokens"): [w.first for w in windows], _("to"): [w.stop for w in windows],
            _("characters"): [w.start for w in windows], _("to") + " ": [w.end for w in windows],
            _("ends at"): [cut_name(w) for w in windows],
        }), hide_index=True)


def _windows(mode: str, text: str, tokens: list[Token], length: int, stride: int) -> list[Window] | None:
    """The windows, or None after saying why there would be more than MAX_WINDOWS of them.

    Sliding windows are counted by arithmetic before any is made; boundary windows stop being
    made at the bound. Either way a step of one token over 8,192-token windows costs nothing.
    """
    if mode == "sliding":
        count = window_count(len(tokens), length, stride)
        if count > MAX_WINDOWS:
            _too_many(len(tokens), length, stride, number(count))
            return None
        return sliding_windows(tokens, length, stride)
    try:
        return boundary_windows(text, tokens, length, stride, max_windows=MAX_WINDOWS)
    except TooManyWindows:
        _too_many(len(tokens), length, stride, _("more than {max}", max=number(MAX_WINDOWS)))
        return None


def _too_many(n: int, length: int, stride: int, count: str) -> None:
    # the smallest step N−S that keeps sliding windows within the bound: 1 + ceil((n−N)/step) ≤ M
    step = -(-(n - length) // (MAX_WINDOWS - 1))
    if step <= length:
        remedy = _("Make the step N−S at least {step} tokens (a stride of at most {stride} with "
                   "this max length), or cut a shorter text.", step=number(step),
                   stride=number(length - step))
    else:
        remedy = _("Even without overlap that many windows are needed: make the max length at "
                   "least {step} tokens, or cut a shorter text.", step=number(step))
    st.error(_("Windows of {length} tokens with {stride} of overlap cut these {n} tokens into "
               "{count} windows; the page cuts at most {max}. {remedy}", length=number(length),
               stride=number(stride), n=number(n), count=count, max=number(MAX_WINDOWS),
               remedy=remedy), icon="✂️")
