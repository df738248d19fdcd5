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
from ui.common.charts import show_chart
from ui.common.i18n import _, explain, ngettext, number
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.vocabulary import charts, data, found
from ui.vocabulary.limits import MAX_EXAMPLES, MAX_QUERY_CHARS, MAX_TABLE_ROWS


def table_section(name: str, vocab: Vocabulary) -> None:
    exported = data.hf_file(name)
    if exported is not None:
        st.download_button(_("Download as tokenizer.json (Hugging Face)"), exported,
                           file_name=f"{name.replace(':', '-')}-tokenizer.json",
                           mime="application/json", key="vc_download",
                           help=_("tokenizers.Tokenizer.from_file reads it and gives the same "
                                  "ids and offsets as this project's encoder."))
    how, what, where = st.columns([1, 3, 1])
    kind = how.selectbox(_("Search by"), list(data.SEARCHES), key="vc_kind",
                         format_func={k: _(t) for k, t in data.SEARCHES.items()}.get)
    query = what.text_input(_("Search"), key="vc_query",
                            placeholder=_("e.g. ing, 1000, e4 bd, ^ [A-Z]"))
    if REPLACEMENT in query:  # a lone surrogate the browser replaced (ui/common/unicode_guard.py)
        st.caption(REPLACEMENT_NOTE)
    rows = vocab.rows
    if len(query) > MAX_QUERY_CHARS:
        st.error(_("The search has {length} characters; the bound is {bound}.",
                   length=number(len(query)), bound=number(MAX_QUERY_CHARS)))
        rows = ()
    elif query:
        try:
            rows = tuple(vocab.row(i) for i in data.search(vocab, kind, query))
            st.caption(match_count(len(rows)))
        except ValueError as error:  # the message quotes the query: user text, kept inert
            message = explain(error)
            st.error(literal(message[:1].upper() + message[1:]))
            rows = ()
    pages = max(1, math.ceil(len(rows) / MAX_TABLE_ROWS))
    page = 1
    if pages > 1:
        page = int(where.number_input(_("Page (1 to {pages})", pages=number(pages)),
                                      min_value=1, max_value=pages, value=1,
                                      help=_("{rows} rows a page", rows=number(MAX_TABLE_ROWS))))
    first = (page - 1) * MAX_TABLE_ROWS
    shown = rows[first : first + MAX_TABLE_ROWS]
    show_table(data.frame(list(shown)), column_config=data.columns(), hide_index=True,
                 width="stretch", height=420)
    if pages > 1:
        st.caption(_("Rows {first} to {last} of {total}: page {page} of {pages}.",
                     first=number(first + 1), last=number(first + len(shown)),
                     total=number(len(rows)), page=number(page), pages=number(pages)))


def match_count(n: int) -> str:
    """The search's result as a sentence, in the right number."""
    if n == 0:
        return _("No token matches.")
    return ngettext("{n} token matches.", "{n} tokens match.", n)


def charts_section(name: str, vocab: Vocabulary) -> None:
    left, right = st.columns(2)
    label = found.chart_name(name)  # a plotly title reads HTML: a file's name is escaped
    show_chart(charts.length_chart(length_histogram(vocab.rows), label), left,
               width="stretch")
    show_chart(charts.script_chart(script_counts(vocab.rows), label), right,
               width="stretch")
    st.subheader(_("Longest tokens"))
    show_table(data.frame(longest(vocab, MAX_EXAMPLES)), column_config=data.columns(), hide_index=True,
                 width="stretch")


def compare_section(name: str, names: list[str]) -> None:
    """`name` against another of `names` (the page's picker list, found tokenizers included)."""
    others = [n for n in names if n != name]
    default = "o200k_base" if name != "o200k_base" else "gpt2"
    other = st.selectbox(_("Compare with"), others, index=others.index(default), key="vc_other",
                         format_func=catalog.label_of())
    try:
        result = data.comparison(name, other)
    except ValueError as error:  # the other one is a found file whose table could not be read
        st.error(literal(explain(error)), icon="⚠️")
        return
    shared, only_a, only_b = st.columns(3)
    shared.metric(_("Shared tokens (same bytes)"), number(result.shared))
    only_a.metric(_("Only in {name}", name=found.inert(name)), number(result.only_a))
    only_b.metric(_("Only in {name}", name=found.inert(other)), number(result.only_b))
    scripts = [s for s in (*SCRIPTS, "special")
               if s in {**result.shared_scripts, **result.only_a_scripts, **result.only_b_scripts}]
    show_table(pd.DataFrame({
        _("script"): [_(s) for s in scripts],
        _("shared"): [result.shared_scripts.get(s, 0) for s in scripts],
        _("only in {name}", name=name): [result.only_a_scripts.get(s, 0) for s in scripts],
        _("only in {name}", name=other): [result.only_b_scripts.get(s, 0) for s in scripts],
    }), hide_index=True, width="stretch")  # fmt: skip
    left, right = st.columns(2)
    left.caption(_("Only in {name} (first {count} by id)", name=found.inert(name),
                   count=number(MAX_EXAMPLES)))
    left.dataframe(data.frame(list(result.only_a_examples)), column_config=data.columns(), hide_index=True)
    right.caption(_("Only in {name} (first {count} by id)", name=found.inert(other),
                    count=number(MAX_EXAMPLES)))
    right.dataframe(data.frame(list(result.only_b_examples)), column_config=data.columns(), hide_index=True)
