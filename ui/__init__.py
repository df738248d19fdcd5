"""Streamlit widgets and chart builders shared by the pages. Arrows point down: ui imports
tokenizer_core, never the other way round."""
