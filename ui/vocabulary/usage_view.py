"""The Vocabulary page's "Glitches & growth" tab: tokens a reference corpus never uses, and what
the first merges learned against the last ones."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.measure.vocabulary import Vocabulary, script_counts
from tokenizer_core.measure.vocabulary_usage import (
    BAND,
    Band,
    rank_bands,
    token_counts,
    unused_tokens,
)
from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.common import catalog
from ui.vocabulary import data
from ui.vocabulary.charts import FONT
from ui.vocabulary.limits import MAX_UNUSED_SHOWN

CORPORA = ("chinese", "code", "emoji")


@st.cache_resource(show_spinner=False)
def reference_corpus() -> str:
    """Python's documentation (English prose and code) and the built-in Chinese, code and emoji
    corpora: about 700 KB that every install has."""
    return "\n".join([english_reference_corpus(), *(corpus_text(n) for n in CORPORA)])


@st.cache_resource(max_entries=4, show_spinner="Encoding the reference corpus (about 700 KB)…")
def usage(name: str) -> Counter[int]:
    return token_counts(catalog.load(name), reference_corpus())


def band_chart(first: Band, last: Band) -> go.Figure:
    scripts = [s for s in {**first.scripts, **last.scripts}]
    fig = go.Figure([
        go.Bar(name=f"merges {b.first:,}-{b.last:,}", x=scripts, y=[b.scripts.get(s, 0) for s in scripts])
        for b in (first, last)
    ])  # fmt: skip
    fig.update_layout(template="plotly_white", barmode="group", font=FONT, height=340,
                      title={"text": "Tokens per script: first merges vs last", "x": 0},
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, yaxis_title="tokens")
    return fig


def show(name: str, vocab: Vocabulary) -> None:
    st.subheader("Glitch candidates: tokens the reference corpus never uses")
    counts = usage(name)
    unused = unused_tokens(vocab, counts)
    ordinary = sum(not r.special for r in vocab.rows)
    left, right = st.columns([1, 2])
    left.metric("Never used", f"{len(unused):,} of {ordinary:,}",
                help="Encoding Python's documentation and the built-in Chinese, code and emoji "
                "corpora (about 700 KB); special-token strings are read as plain text.")
    left.caption(
        "A token the training data made common but ordinary text never produces (GPT-2's "
        "` SolidGoldMagikarp`, a user name from Reddit) is one a model saw too rarely to "
        "learn: a candidate, not a proof; a bigger corpus uses more of the vocabulary."
    )
    right.dataframe(pd.DataFrame({"script": list(script_counts(unused)),
                                  "never used": list(script_counts(unused).values())}),
                    hide_index=True, width="stretch", height=220)
    scripts = ["all", *script_counts(unused)]
    script = st.selectbox("Script of the never-used tokens listed", scripts, key="vc_unused_script",
                          help="Latin keeps the word-like ones (GPT-2's user names and "
                          "product names), without the long runs of punctuation.")
    listed = unused if script == "all" else [r for r in unused if r.script == script]
    st.caption(f"The longest never-used tokens (first {MAX_UNUSED_SHOWN} of {len(listed):,})")
    st.dataframe(data.frame(listed[:MAX_UNUSED_SHOWN]), hide_index=True, width="stretch",
                 height=300)

    st.subheader("Growth by rank: the first merges against the last")
    bands = rank_bands(vocab, BAND)
    if bands is None:
        st.info(f"{catalog.label(name)} has no merge ranks (WordPiece, Unigram and HF files do "
                "not order their tokens by merges).")
        return
    first, last = bands
    columns = st.columns(2)
    for column, band in zip(columns, bands):
        column.markdown(f"**Merges {band.first:,} to {band.last:,}**")
        a, b = column.columns(2)
        a.metric("Mean length (bytes)", f"{band.mean_bytes:.2f}")
        b.metric("Start a word", f"{band.space_start:.0%}")
        column.dataframe(data.frame(list(band.examples)), hide_index=True, height=250)
    st.plotly_chart(band_chart(first, last), width="stretch")
