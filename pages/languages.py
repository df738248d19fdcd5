"""Languages: what English, Chinese and emoji cost in bytes and in tokens, and why."""

import streamlit as st

from tokenizer_core.measure.byte_ruler import RULER_CSS
from ui.common.shell import ensure_routed
from ui.languages import data as data
from ui.languages.emoji import emoji_section
from ui.languages.grow import grow_section
from ui.languages.limits import MAX_PAGE_TOKENIZERS
from ui.languages.parallel import current_pairs, parallel_section
from ui.languages.ruler import ruler_section

TABS = ["Byte ruler", "English vs Chinese", "Emoji", "Grow a vocabulary"]

ensure_routed()
st.html(f"<style>{RULER_CSS}</style>")
st.title("Languages")
st.caption(
    "Why does Chinese, or an emoji, cost more tokens than English? Bytes first: UTF-8 spends "
    "1 byte on a Latin letter, 3 on a Chinese character and 4 on most emoji. Then it depends on "
    "what the tokenizer learned from its training text."
)
st.session_state.setdefault("lg_tokenizers", data.DEFAULT_NAMES)
names = st.multiselect(
    "Tokenizers", data.NAMES, key="lg_tokenizers", format_func=data.long_label,
    max_selections=MAX_PAGE_TOKENIZERS,
    help="\n\n".join(f"**{data.label(n)}**: {data.DESCRIPTIONS[n]}" for n in data.NAMES),
)
if not names:
    st.info("Pick at least one tokenizer.", icon="👆")
    st.stop()

ruler_tab, parallel_tab, emoji_tab, grow_tab = st.tabs(
    TABS, key="lg_tab", on_change="rerun", bind="query-params"
)
with ruler_tab:
    if ruler_tab.open:
        ruler_section(names)
with parallel_tab:
    if parallel_tab.open:
        parallel_section(names)
with emoji_tab:
    if emoji_tab.open:
        emoji_section(names)
with grow_tab:
    if grow_tab.open:
        source, pairs = current_pairs()
        grow_section(names, source, [p.zh for p in pairs])
