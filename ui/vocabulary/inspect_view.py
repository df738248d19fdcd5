"""The Vocabulary page's inspect tabs: the table with its search, the charts, and a comparison."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from tokenizer_core.measure.vocabulary import (
    SCRIPTS,
    Vocabulary,
    length_histogram,
    longest,
    script_counts,
)
from ui.common import catalog
from ui.vocabulary import charts, data
from ui.vocabulary.limits import MAX_EXAMPLES, MAX_QUERY_CHARS, MAX_TABLE_ROWS


def table_section(name: str, vocab: Vocabulary) -> None:
    exported = data.hf_file(name)
    if exported is not None:
        st.download_button("Download as tokenizer.json (Hugging Face)", exported,
                           file_name=f"{name.replace(':', '-')}-tokenizer.json",
                           mime="application/json", key="vc_download",
                           help="tokenizers.Tokenizer.from_file reads it and gives the same ids "
                           "and offsets as this project's encoder.")
    how, what, where = st.columns([1, 3, 1])
    kind = how.selectbox("Search by", list(data.SEARCHES), key="vc_kind",
                         format_func=data.SEARCHES.get)
    query = what.text_input("Search", key="vc_query", placeholder="e.g. ing, 1000, e4 bd, ^ [A-Z]")
    rows = vocab.rows
    if len(query) > MAX_QUERY_CHARS:
        st.error(f"The search has {len(query):,} characters; the bound is {MAX_QUERY_CHARS}.")
        rows = ()
    elif query:
        try:
            rows = tuple(vocab.row(i) for i in data.search(vocab, kind, query))
            st.caption(f"{len(rows):,} tokens match")
        except ValueError as error:
            st.error(str(error))
            rows = ()
    pages = max(1, math.ceil(len(rows) / MAX_TABLE_ROWS))
    page = 1
    if pages > 1:
        page = int(where.number_input(f"Page of {pages:,}", min_value=1, max_value=pages, value=1,
                                      help=f"{MAX_TABLE_ROWS:,} rows a page"))
    first = (page - 1) * MAX_TABLE_ROWS
    st.dataframe(data.frame(list(rows[first : first + MAX_TABLE_ROWS])), hide_index=True,
                 width="stretch", height=420)


def charts_section(name: str, vocab: Vocabulary) -> None:
    left, right = st.columns(2)
    label = catalog.label(name)
    left.plotly_chart(charts.length_chart(length_histogram(vocab.rows), label),
                      width="stretch")
    right.plotly_chart(charts.script_chart(script_counts(vocab.rows), label),
                       width="stretch")
    st.subheader("Longest tokens")
    st.dataframe(data.frame(longest(vocab, MAX_EXAMPLES)), hide_index=True,
                 width="stretch")


def compare_section(name: str) -> None:
    others = [n for n in data.NAMES if n != name]
    default = "o200k_base" if name != "o200k_base" else "gpt2"
    other = st.selectbox("Compare with", others, index=others.index(default), key="vc_other",
                         format_func=catalog.label)
    result = data.comparison(name, other)
    shared, only_a, only_b = st.columns(3)
    shared.metric("Shared tokens (same bytes)", f"{result.shared:,}")
    only_a.metric(f"Only in {name}", f"{result.only_a:,}")
    only_b.metric(f"Only in {other}", f"{result.only_b:,}")
    scripts = [s for s in (*SCRIPTS, "special")
               if s in {**result.shared_scripts, **result.only_a_scripts, **result.only_b_scripts}]
    st.dataframe(pd.DataFrame({
        "script": scripts,
        "shared": [result.shared_scripts.get(s, 0) for s in scripts],
        f"only in {name}": [result.only_a_scripts.get(s, 0) for s in scripts],
        f"only in {other}": [result.only_b_scripts.get(s, 0) for s in scripts],
    }), hide_index=True, width="stretch")  # fmt: skip
    left, right = st.columns(2)
    left.caption(f"Only in {name} (first {MAX_EXAMPLES} by id)")
    left.dataframe(data.frame(list(result.only_a_examples)), hide_index=True)
    right.caption(f"Only in {other} (first {MAX_EXAMPLES} by id)")
    right.dataframe(data.frame(list(result.only_b_examples)), hide_index=True)
