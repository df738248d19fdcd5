"""The Playground's numbers: one row per tokenizer, narrow enough for a laptop's width.

What every row shares (the text's characters, bytes and words) is said once above the table,
the context window is chosen beside it, and a round trip that lost something is explained under
it in words, not in a cell too wide to read.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from tokenizer_core import Token, Tokenizer
from tokenizer_core.measure.metrics import count_words, text_stats
from ui.common.i18n import _, ngettext, number
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.tables import STATS_DETAIL, shown_frame, stats_frame
from ui.playground.url_state import WINDOWS


def numbers_ui(prefix: str, text: str, rows: Sequence[tuple[str, Tokenizer, Sequence[Token]]]) -> None:
    stats = text_stats(text, [])
    about, choose = st.columns([3, 1], vertical_alignment="bottom")
    window = choose.selectbox(_("Context window"), WINDOWS, key=f"{prefix}_window",
                              persist_state=KEEP,
                              format_func=window_names().__getitem__)
    about.caption(_("The text: {characters} characters, {utf8_bytes} UTF-8 bytes, {words} *% of "
                    "context*: how much of a {window}-token context window it fills.",
                    characters=number(stats.characters), utf8_bytes=number(stats.utf8_bytes),
                    words=_words(text), window=number(window)))
    frame = stats_frame(text, rows, window)
    show_table(shown_frame(frame.drop(columns=[STATS_DETAIL])), light=True)
    for label, lost in zip(frame["tokenizer"], frame[STATS_DETAIL]):
        if lost:
            st.caption(_("Round trip, {name}: {lost}", name=literal(label),
                         lost=literal(lost)))


def window_names() -> dict[int, str]:
    """Each context window as the picker shows it, said now (a format_func that asked the
    session's language itself would be asked outside the run too, by AppTest)."""
    return {n: ngettext("{n} token", "{n} tokens", n) for n in WINDOWS}


def _words(text: str) -> str:
    """The text's words, counted per script, and the rule said (one sentence)."""
    count = count_words(text)
    if count.words is None:
        return _("no word count (words / token is n/a): Thai, Lao, Khmer, Myanmar and Tibetan "
                 "put no spaces between words, and counting their words needs a dictionary.")
    if count.characters:
        return ngettext("{n} word, counting each Chinese or Japanese character as a word (those "
                        "scripts put no spaces between words).",
                        "{n} words, counting each Chinese or Japanese character as a word (those "
                        "scripts put no spaces between words).", count.words)
    return ngettext("{n} word.", "{n} words.", count.words)
