"""The Playground's numbers: one row per tokenizer, narrow enough for a laptop's width.

What every row shares (the text's characters, bytes and words) is said once above the table,
the context window is chosen beside it, and a round trip that lost something is explained under
it in words, not in a cell too wide to read.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from tokenizer_core import Token, Tokenizer
from tokenizer_core.measure.metrics import text_stats
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.tables import STATS_DETAIL, stats_frame
from ui.playground.url_state import WINDOWS


def numbers_ui(prefix: str, text: str, rows: Sequence[tuple[str, Tokenizer, Sequence[Token]]]) -> None:
    stats = text_stats(text, [])
    about, choose = st.columns([3, 1], vertical_alignment="bottom")
    window = choose.selectbox("Context window", WINDOWS, key=f"{prefix}_window", persist_state=KEEP,
                              format_func=lambda n: f"{n:,} tokens")
    about.caption(f"The text: {stats.characters:,} characters, {stats.utf8_bytes:,} UTF-8 bytes, "
                  f"{stats.words:,} words. *% of context*: how much of a {window:,}-token context "
                  "window it fills.")
    frame = stats_frame(text, rows, window)
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_order=[c for c in frame.columns if c != STATS_DETAIL])
    for label, lost in zip(frame["tokenizer"], frame[STATS_DETAIL]):
        if lost:
            st.caption(f"Round trip, {literal(label)}: {literal(lost)}")
