"""The "Long text" tab: a long text cut into windows, drawn as bands over the text itself.

Widgets in, tokenizer_core.measure.sequences_windows cuts, bands.py draws.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.measure.sequences_windows import (
    boundary_windows,
    sliding_windows,
    summarize,
)
from tokenizer_core.samples import article_text, english_reference_corpus, sample_text
from ui.common import catalog
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.sequences.bands import band_html, cut_name
from ui.sequences.limits import MAX_WINDOW_CHARS, MAX_WINDOW_LENGTH, MAX_WINDOW_RENDER_CHARS

ARTICLE = "Article: Cutting text for machines"  # data/articles/cutting_text.txt, 26k characters
SOURCES = (ARTICLE, "English sample", "Chinese sample", "Python's documentation (long)",
           "Your own text")
DEFAULTS: dict[str, object] = {
    "sq_w_source": SOURCES[0], "sq_w_text": "", "sq_w_length": 128, "sq_w_stride": 16,
    "sq_w_mode": "sliding",
}
MODES = {"sliding": "Sliding (window k starts at k·(N−S))", "boundaries":
         "At boundaries (paragraph, then sentence, then word)"}


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
    source = st.radio("Text", SOURCES, key="sq_w_source", horizontal=True, persist_state=KEEP,
                      help="The article was written for this project: 26,000 characters of prose "
                      "in paragraphs, about the history of cutting text for machines.")
    if source != "Your own text":
        return built_in(source)
    text = st.text_area("Your text", key="sq_w_text", height=140, persist_state=KEEP,
                        help=f"Up to {MAX_WINDOW_CHARS:,} characters are cut into windows.")
    if len(text) > MAX_WINDOW_CHARS:
        st.warning(f"The box holds {len(text):,} characters; the page cuts the first "
                   f"{MAX_WINDOW_CHARS:,} into windows. Your whole text stays in the box.", icon="✂️")
    return text[:MAX_WINDOW_CHARS]


def windows_section(name: str) -> None:
    text = _text()
    a, b, c = st.columns([1, 1, 2])
    length = int(a.number_input("Max length N (tokens)", 1, MAX_WINDOW_LENGTH, key="sq_w_length",
                                persist_state=KEEP, help=f"1 to {MAX_WINDOW_LENGTH:,}."))
    stride = int(b.number_input("Stride S (tokens of overlap)", 0, MAX_WINDOW_LENGTH - 1,
                                key="sq_w_stride", persist_state=KEEP,
                                help="Tokens each window shares with the next; below N."))
    mode = c.radio("Windows", list(MODES), format_func=MODES.get, key="sq_w_mode",
                   persist_state=KEEP)
    if not text.strip():
        st.info("Type or pick a text to cut into windows.", icon="👆")
        return
    if stride >= length:
        st.error(f"The stride ({stride}) must be below the max length ({length}): it is the "
                 "overlap between one window and the next.", icon="⚠️")
        return
    try:
        tokens = catalog.tokenize(name, text, "plain")
        if mode == "sliding":
            windows = sliding_windows(tokens, length, stride)
        else:
            windows = boundary_windows(text, tokens, length, stride)
    except ValueError as error:
        st.error(literal(str(error)), icon="⚠️")
        return
    summary = summarize(windows, len(tokens))
    overlap = f", up to {stride} tokens overlap" if stride else ", no overlap"
    st.markdown(f"**{summary.windows:,} windows of at most {length:,} tokens{overlap}; "
                f"{summary.repeated:.1%} of the {summary.tokens:,} tokens are read twice.**")
    st.html(band_html(text, windows, MAX_WINDOW_RENDER_CHARS))
    if len(text) > MAX_WINDOW_RENDER_CHARS:
        st.caption(f"Bands drawn over the first {MAX_WINDOW_RENDER_CHARS:,} of {len(text):,} "
                   "characters; the counts cover the whole text.")
    st.caption("Each window is a band of colour, numbered where it starts; stretches in two "
               "colours, top and bottom, are read by two windows (the overlap). Hover a band for its tokens and characters.")
    with st.expander("The windows as a table"):
        st.dataframe(pd.DataFrame({
            "window": range(1, len(windows) + 1),
            "tokens": [w.first for w in windows], "to": [w.stop for w in windows],
            "characters": [w.start for w in windows], "to ": [w.end for w in windows],
            "ends at": [cut_name(w) for w in windows],
        }), hide_index=True)
