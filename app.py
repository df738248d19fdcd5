"""Tokenization Explorer: the router. Page config, navigation and the shared sidebar only."""

import streamlit as st

st.set_page_config(page_title="Tokenization Explorer", page_icon="🔤", layout="wide")
st.title("Tokenization Explorer")
st.write("The tokenizer core is being built; the pages follow.")
