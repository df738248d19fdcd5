"""Tokenization Explorer: the router. Page config, navigation and the shared sidebar only."""

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import sidebar

st.set_page_config(page_title="Tokenization Explorer", page_icon="✂️", layout="wide")

pages = [
    st.Page("pages/playground.py", title=_("Playground"), icon="✂️", default=True),
    st.Page("pages/merge_steps.py", title=_("Merge steps"), icon="🧩"),
    st.Page("pages/unigram.py", title=_("Unigram & SentencePiece"), icon="🔻"),
    st.Page("pages/compression.py", title=_("Compression"), icon="📉"),
    st.Page("pages/languages.py", title=_("Languages"), icon="🌏"),
    st.Page("pages/sequences.py", title=_("Sequences"), icon="🧱"),
    st.Page("pages/vocabulary.py", title=_("Vocabulary"), icon="📖"),
    st.Page("pages/practice.py", title=_("Practice"), icon="🎓"),
]
navigation = st.navigation(pages)
sidebar(navigation.url_path, navigation.title)
navigation.run()
