"""Tokenization Explorer: the router. Page config, navigation and the shared sidebar only."""

import streamlit as st

from ui.common.shell import sidebar

st.set_page_config(page_title="Tokenization Explorer", page_icon="✂️", layout="wide")

pages = [
    st.Page("pages/playground.py", title="Playground", icon="✂️", default=True),
    st.Page("pages/merge_steps.py", title="Merge steps", icon="🧩"),
    st.Page("pages/unigram.py", title="Unigram & SentencePiece", icon="🔻"),
    st.Page("pages/compression.py", title="Compression", icon="📉"),
    st.Page("pages/languages.py", title="Languages", icon="🌏"),
    st.Page("pages/sequences.py", title="Sequences", icon="🧱"),
    st.Page("pages/vocabulary.py", title="Vocabulary", icon="📖"),
    st.Page("pages/practice.py", title="Practice", icon="🎓"),
]
navigation = st.navigation(pages)
sidebar(navigation.url_path, navigation.title)
navigation.run()
