"""Vocabulary: open any tokenizer's vocabulary, search it, see its lengths and scripts, compare two;
see how text is pre-split; find unused tokens; design a vocabulary (prune, add domain words)."""

import streamlit as st

from ui.common import catalog
from ui.common.page_state import kept_tabs
from ui.common.shell import ensure_routed
from ui.vocabulary import (
    data,
    design_view,
    inspect_view,
    pre_split_view,
    sizes_view,
    usage_view,
)

ensure_routed()
st.title("Vocabulary")
st.caption(
    "A tokenizer is its vocabulary plus its pre-tokenizer. Every token here is bytes first: "
    "`<E4 BD>` is part of a character, `·` a space. Script classes follow Unicode's script "
    "and category properties (see tokenizer_core/measure/vocabulary.py)."
)
choose, size, held, gaps = st.columns([3, 1, 1, 1])
name = choose.selectbox("Vocabulary", data.NAMES, key="vc_tokenizer", format_func=catalog.label)
vocab = data.table(name)
size.metric("Size (largest id + 1)", f"{vocab.size:,}")  # tiktoken's n_vocab
held.metric("Tokens", f"{len(vocab.rows):,}")
gaps.metric("Ids no token holds", f"{len(vocab.gaps):,}")

TABS = ["Table", "Charts", "Compare", "Glitches & growth", "Real sizes", "Pre-tokenization",
        "Design"]
tabs = dict(zip(TABS, kept_tabs(TABS, "vc_tab")))  # only the open tab runs
sections = {
    "Table": lambda: inspect_view.table_section(name, vocab),
    "Charts": lambda: inspect_view.charts_section(name, vocab),
    "Compare": lambda: inspect_view.compare_section(name),
    "Glitches & growth": lambda: usage_view.show(name, vocab),
    "Real sizes": sizes_view.show,
    "Pre-tokenization": pre_split_view.show,
    "Design": design_view.show,
}
for label, tab in tabs.items():
    with tab:
        if tab.open:
            sections[label]()
