"""The parallel-pairs section: what the same meaning costs in English and in Chinese.

The pairs are the built-in 50 (data/parallel/en_zh.tsv) or the user's upload in the same format,
parsed by samples.parse_parallel; a bad upload says which line and why, and the page goes on
with the pairs it had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd
import streamlit as st

from tokenizer_core.measure.language_costs import Premium, premium, utf8_bytes
from tokenizer_core.samples import (
    MAX_FIELD_CHARS,
    MAX_PARALLEL_CHARS,
    MAX_PARALLEL_PAIRS,
    ParallelPair,
    parallel_pairs,
    parse_parallel,
)
from ui.common import catalog
from ui.common.charts import show_chart
from ui.common.i18n import _, number
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.table_view import show_table
from ui.common.tables import csv_download
from ui.common.uploads import apply_upload, decode_text
from ui.languages import data as data
from ui.languages.charts import pair_ratio_chart, premium_chart, tokens_per_char_chart
from ui.languages.counting import counts_for
from ui.languages.headline import headline_section
from ui.languages.limits import MAX_PARALLEL_UPLOAD_BYTES, PAIR_RESULT_CACHE_ENTRIES
from ui.languages.tables import (
    pair_ratio_frame,
    pair_table,
    premium_frame,
    premium_table,
    rates_frame,
    shown_pair_table,
)

BUILT_IN_SOURCE = "data/parallel/en_zh.tsv"


def read_parallel_upload(content: bytes, filename: str) -> list[ParallelPair]:
    """Pairs from an uploaded file, or ValueError naming the line and the fix."""
    text = decode_text(content, filename, max_bytes=MAX_PARALLEL_UPLOAD_BYTES,
                       kept="the pairs in use are unchanged")
    return parse_parallel(text, source=filename)


def _apply_upload() -> None:
    apply_upload("lg_parallel", read_parallel_upload)


def current_pairs() -> tuple[str, list[ParallelPair]]:
    """(where the pairs come from, the pairs): the user's good upload, else the built-in file."""
    custom = st.session_state.get("lg_parallel_custom")
    return custom if custom else (BUILT_IN_SOURCE, parallel_pairs())


@dataclass(frozen=True)
class PairResults:
    """What the section draws from one file and tokenizer choice, made once and only read:
    20,000 pairs take about a second to turn into premiums and frames, too long for every rerun."""

    premiums: dict[str, Premium]  # by short label, UTF-8 bytes first
    per_pair: pd.DataFrame  # pair_table: one row per pair (shown, and the CSV)
    dots: pd.DataFrame  # pair_ratio_frame: the per-pair chart's input


def pair_results(names: Sequence[str], pairs: Sequence[ParallelPair]) -> PairResults:
    """Count (with a status while counting, see counting.py), then the premiums and frames."""
    sentences = [s for p in pairs for s in (p.en, p.zh)]
    counts_for(names, sentences, _("{count} sentences", count=number(len(sentences))))
    key = data.digest([f"{p.line}\t{p.en}\t{p.zh}" for p in pairs])  # line numbers are shown
    return _pair_results(tuple(names), key, pairs)


@st.cache_resource(max_entries=PAIR_RESULT_CACHE_ENTRIES, show_spinner=False)
def _pair_results(
    names: tuple[str, ...], key: str, _pairs: Sequence[ParallelPair]
) -> PairResults:
    premiums = {data.BYTES_LABEL: premium(_pairs, utf8_bytes)}
    sentences = [s for p in _pairs for s in (p.en, p.zh)]
    for name in names:
        known = dict(zip(sentences, data.counts(name, sentences)))  # kept by counts_for
        premiums[data.label(name)] = premium(_pairs, known.__getitem__)
    shown = {k: v for k, v in premiums.items() if k != data.BYTES_LABEL}
    return PairResults(premiums, pair_table(premiums, _pairs), pair_ratio_frame(shown, _pairs))


def _upload_ui(source: str, n_pairs: int) -> None:
    with st.expander(_("Use your own parallel file (.tsv)")):
        st.markdown(_(
            "UTF-8 text, first line `en<TAB>zh`, then one pair per line: the English sentence, "
            "a tab, the Chinese sentence. Lines starting with `#` are comments. Bounds: "
            "{chars} characters, {pairs} pairs, {field} characters a sentence.",
            chars=number(MAX_PARALLEL_CHARS), pairs=number(MAX_PARALLEL_PAIRS),
            field=number(MAX_FIELD_CHARS)))
        st.file_uploader(_("Parallel file"), type=["tsv", "txt"], key="lg_parallel_upload",
                         on_change=_apply_upload)
    error = st.session_state.get("lg_parallel_error")
    if error:
        st.error(_("{error}  \nStill using {source}.", error=literal(error),
                   source=literal(source)), icon="⚠️")
    st.caption(_("Pairs: **{source}**, {count} pairs. Each sentence is tokenized on its own; "
                 "special-token strings count as plain text.", source=literal(source),
                 count=number(n_pairs)))


def parallel_section(names: Sequence[str]) -> None:
    headline_section()
    st.subheader(_("The picked tokenizers, pair by pair"))
    source, pairs = current_pairs()
    _upload_ui(source, len(pairs))
    big = presentation_mode()
    found = pair_results(names, pairs)
    results = found.premiums
    base = results[data.BYTES_LABEL]
    cols = st.columns(4)
    cols[0].metric(_("English characters"), number(base.en.characters))
    cols[1].metric(_("Chinese characters"), number(base.zh.characters))
    cols[2].metric(_("English bytes per character"), number(base.en.bytes_per_char, 2))
    cols[3].metric(_("Chinese bytes per character"), number(base.zh.bytes_per_char, 2))

    show_chart(premium_chart(premium_frame(results), big), key="lg_chart_premium",
               theme=None)
    st.caption(_(
        "**Ratio of totals**: all Chinese tokens / all English tokens (what the whole file "
        "costs). **Median per pair**: the middle of each pair's own ratio (a typical sentence). "
        "{bytes} is the start of every byte-level tokenizer: each byte one token.",
        bytes=data.shown(data.BYTES_LABEL)))
    show_chart(tokens_per_char_chart(rates_frame(results), big), key="lg_chart_rates",
               theme=None)
    trained_on = {data.label(n): data.trained_on(n) for n in names}
    trained_on[data.BYTES_LABEL] = _("nothing: the 256 byte tokens, no merges")
    vocab = {data.label(n): catalog.get(n).vocab_size for n in names} | {data.BYTES_LABEL: 256}
    table = premium_table(results, vocab, trained_on)
    hidden = {_(c) for c in ("EN characters", "ZH characters", "EN bytes", "ZH bytes")}
    show_table(
        table, hide_index=True, width="stretch",
        column_order=[c for c in table.columns if c not in hidden],
        column_config={c: st.column_config.NumberColumn(format="localized")
                       for c in (_("vocab size"), _("EN tokens"), _("ZH tokens"))},
    )  # fmt: skip
    left, right = st.columns(2)
    csv_download(left, _("Download this table (CSV)"), table, "premium.csv", key="lg_csv_premium")
    per_pair = shown_pair_table(found.per_pair)
    csv_download(right, _("Download every pair (CSV)"), per_pair, "premium_pairs.csv",
                 key="lg_csv_pairs")
    with st.expander(_("Every pair")):
        show_chart(pair_ratio_chart(found.dots, big), key="lg_chart_pairs", theme=None)
        show_table(per_pair, hide_index=True, width="stretch", height=360)
