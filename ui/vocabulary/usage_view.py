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
from ui.common.charts import show_chart
from ui.common.i18n import N_, _, explain, number, percent
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.vocabulary import data, found
from ui.vocabulary.charts import FONT
from ui.vocabulary.limits import MAX_UNUSED_SHOWN

CORPORA = ("chinese", "code", "emoji")
ALL = N_("all")  # the script filter's first choice


@st.cache_resource(show_spinner=False)
def reference_corpus() -> str:
    """Python's documentation (English prose and code) and the built-in Chinese, code and emoji
    corpora: about 700 KB that every install has."""
    return "\n".join([english_reference_corpus(), *(corpus_text(n) for n in CORPORA)])


@st.cache_resource(max_entries=4, show_spinner=False)
def _usage(name: str) -> Counter[int]:
    return token_counts(catalog.load(name), reference_corpus())


def usage(name: str) -> Counter[int]:
    """Each id's count on the reference corpus; a found tokenizer's comes from its worker, and
    may be a ValueError (a Refusal) saying why there is none."""
    with st.spinner(_("Encoding the reference corpus (about 700 KB)…")):
        if found.is_found(name):
            return found.usage(name, reference_corpus())
        return _usage(name)


def band_chart(first: Band, last: Band) -> go.Figure:
    scripts = [s for s in {**first.scripts, **last.scripts}]
    fig = go.Figure([
        go.Bar(name=_("merges {first}-{last}", first=number(b.first), last=number(b.last)),
               x=[_(s) for s in scripts], y=[b.scripts.get(s, 0) for s in scripts])
        for b in (first, last)
    ])  # fmt: skip
    fig.update_layout(template="plotly_white", barmode="group", font=FONT, height=340,
                      title={"text": _("Tokens per script: first merges vs last"), "x": 0},
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, yaxis_title=_("tokens"))
    return fig


def show(name: str, vocab: Vocabulary) -> None:
    st.subheader(_("Glitch candidates: tokens the reference corpus never uses"))
    try:
        counts = usage(name)
    except ValueError as error:  # a found file's worker could not encode it within its bounds
        st.error(literal(explain(error)), icon="⚠️")
    else:
        _unused(name, vocab, counts)
    _growth(name, vocab)


def _unused(name: str, vocab: Vocabulary, counts: Counter[int]) -> None:
    unused = unused_tokens(vocab, counts)
    ordinary = sum(not r.special for r in vocab.rows)
    left, right = st.columns([1, 2])
    left.metric(_("Never used"), _("{unused} of {ordinary}", unused=number(len(unused)),
                                   ordinary=number(ordinary)),
                help=_("Encoding Python's documentation and the built-in Chinese, code and emoji "
                       "corpora (about 700 KB); special-token strings are read as plain text."))
    left.caption(_(
        "A token the training data made common but ordinary text never produces (GPT-2's "
        "` SolidGoldMagikarp`, a user name from Reddit) is one a model saw too rarely to "
        "learn: a candidate, not a proof; a bigger corpus uses more of the vocabulary."
    ))
    right.dataframe(pd.DataFrame({_("script"): [_(s) for s in script_counts(unused)],
                                  _("never used"): list(script_counts(unused).values())}),
                    hide_index=True, width="stretch", height=220)
    scripts = [ALL, *script_counts(unused)]  # values stay English (session state), shown translated
    script = st.selectbox(_("Script of the never-used tokens listed"), scripts,
                          key="vc_unused_script",
                          format_func={s: _(s) for s in scripts}.get,
                          help=_("Latin keeps the word-like ones (GPT-2's user names and "
                                 "product names), without the long runs of punctuation."))
    listed = unused if script == ALL else [r for r in unused if r.script == script]
    st.caption(_("The longest never-used tokens (first {shown} of {total})",
                 shown=number(MAX_UNUSED_SHOWN), total=number(len(listed))))
    show_table(data.frame(listed[:MAX_UNUSED_SHOWN]), column_config=data.columns(), hide_index=True, width="stretch",
                 height=300)



def _growth(name: str, vocab: Vocabulary) -> None:
    st.subheader(_("Growth by rank: the first merges against the last"))
    bands = rank_bands(vocab, BAND)
    if bands is None:
        st.info(_("{name} has no merge ranks (WordPiece, Unigram and HF files do not order "
                  "their tokens by merges).", name=found.markdown_name(name)))
        return
    first, last = bands
    columns = st.columns(2)
    for column, band in zip(columns, bands):
        column.markdown("**" + _("Merges {first} to {last}", first=number(band.first),
                                 last=number(band.last)) + "**")
        a, b = column.columns(2)
        a.metric(_("Mean length (bytes)"), number(band.mean_bytes, 2))
        b.metric(_("Start a word"), percent(band.space_start, 0))
        column.dataframe(data.frame(list(band.examples)), column_config=data.columns(), hide_index=True, height=250)
    show_chart(band_chart(first, last), width="stretch")
