"""The "Batching" tab: padding waste of naive vs length-bucketed batches over a corpus's lines.

Widgets in, tokenizer_core.measure.sequences_batches plans, charts.py draws.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core import TiktokenTokenizer
from tokenizer_core.measure.sequences_batches import (
    bucketed_batches,
    naive_batches,
    naive_padding,
    padding_grid,
)
from tokenizer_core.render import escape
from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.common import catalog
from ui.common.charts import show_chart
from ui.common.i18n import N_, _, explain, number, percent
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.uploads import decode_text, text_upload_ui
from ui.sequences.charts import HEATMAP_TITLE, WASTE_TITLE, waste_chart, waste_heatmap
from ui.sequences.limits import (
    MAX_BATCH_CORPUS_CHARS,
    MAX_BATCH_LINES,
    MAX_BATCH_SIZE,
    MAX_BATCH_UPLOAD_BYTES,
    MAX_BUCKET_WIDTH,
    MAX_TOKENS_PER_BATCH,
)

CORPORA = (N_("Python's documentation"), N_("Code"), N_("Chinese"))  # values; shown translated
BATCH_SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
BUCKET_WIDTHS = (1, 2, 4, 8, 16, 32, 64, 128)  # the heatmap's rows, plus the chosen width
DEFAULTS: dict[str, object] = {"sq_b_corpus": CORPORA[0], "sq_b_size": 32, "sq_b_width": 8,
                               "sq_b_max_tokens": 0}


def init_state() -> None:
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


@st.cache_data(max_entries=4, show_spinner=False)
def built_in(corpus: str) -> str:
    if corpus == "Code":
        return corpus_text("code")
    if corpus == "Chinese":
        return corpus_text("chinese")
    return english_reference_corpus()[:MAX_BATCH_CORPUS_CHARS]


def _decode(data: bytes, filename: str) -> str:
    return decode_text(data, filename, max_bytes=MAX_BATCH_UPLOAD_BYTES, max_chars=MAX_BATCH_CORPUS_CHARS,
                       kept="the corpus is unchanged", takes="batching takes")


def _use(text: str, filename: str) -> None:
    st.session_state["sq_b_uploaded"] = (filename, text)


@st.cache_data(max_entries=8, show_spinner=False)  # the page's own spinner says it
def line_lengths(name: str, text: str) -> list[int]:
    """Tokens per non-empty line, each line encoded on its own (as a batch would hold it), for
    the first MAX_BATCH_LINES lines. tiktoken encodes them one call a line: its batch call's
    thread pool was 4x slower on a 2-CPU server (benchmarks/bench_sequences.py)."""
    lines = [line for line in text.split("\n") if line.strip()][:MAX_BATCH_LINES]
    tokenizer = catalog.get(name)
    if isinstance(tokenizer, TiktokenTokenizer):
        return [len(tokenizer.encode_ordinary_ids(line)) for line in lines]  # Qwen: NFC first
    return [len(tokenizer.encode(line, disallowed_special=())) for line in lines]


def batching_section(name: str) -> None:
    uploaded = st.session_state.get("sq_b_uploaded")
    options = [*CORPORA, *([f"Uploaded: {uploaded[0]}"] if uploaded else [])]  # values
    if st.session_state.get("sq_b_corpus") not in options:
        st.session_state["sq_b_corpus"] = CORPORA[0]
    # an upload's file name (or a lesson file's name for its corpus) is the user's text, and
    # radio labels are Markdown: escaped, or `![](http://...)` as a name makes the browser fetch
    corpus = st.radio(_("Corpus (each line is one sequence)"), options, key="sq_b_corpus",
                      horizontal=True, persist_state=KEEP, format_func=_corpus_name)
    text_upload_ui("sq_b", _decode, _use, title=_("Upload a corpus (.txt, one sequence per line)"))
    text = uploaded[1] if corpus.startswith("Uploaded") and uploaded else built_in(corpus)
    a, b, c = st.columns(3)
    size = int(a.number_input(_("Batch size (rows)"), 1, MAX_BATCH_SIZE, key="sq_b_size",
                              persist_state=KEEP))
    width = int(b.number_input(_("Bucket width (tokens)"), 1, MAX_BUCKET_WIDTH, key="sq_b_width",
                               persist_state=KEEP,
                               help=_("Lines whose lengths fall in the same bucket may share a "
                                      "batch.")))
    max_tokens = int(c.number_input(_("Max tokens per batch (0: no limit)"), 0,
                                    MAX_TOKENS_PER_BATCH, key="sq_b_max_tokens",
                                    persist_state=KEEP))
    try:
        with st.spinner(_("Counting tokens per line…")):
            lengths = line_lengths(name, text)
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return
    if not lengths:
        st.info(_("The corpus has no lines to batch."), icon="👆")
        return
    naive = naive_batches(lengths, size)
    bucketed = bucketed_batches(lengths, size, width, max_tokens or None)
    m1, m2, m3 = st.columns(3)
    m1.metric(_("Lines"), number(len(lengths)),
              help=_("The first {count} non-empty lines at most.", count=number(MAX_BATCH_LINES)))
    m2.metric(_("Padding, in order"), percent(naive.waste),
              help=_("{pads} pad tokens of {computed} computed", pads=number(naive.padding),
                     computed=number(naive.computed)))
    m3.metric(_("Padding, bucketed"), percent(bucketed.waste),
              delta=_("{count} tokens", count=number(bucketed.padding - naive.padding)),
              delta_color="inverse")
    st.markdown(_("In order, the model computes **{pads} tokens of padding** for {real} real "
                  "ones; sorted into buckets of {width} tokens, **{bucketed} pad tokens**.",
                  pads=number(naive.padding), real=number(naive.real), width=number(width),
                  bucketed=number(bucketed.padding)))
    # the grid: doubling steps, plus the chosen size and width so the outlined cell is the one above;
    # one sort serves every cell (padding_grid equals bucketed_batches cell by cell, tested)
    grid_sizes, widths = sorted({*BATCH_SIZES, size}), sorted({*BUCKET_WIDTHS, width})
    pads = padding_grid(lengths, grid_sizes, widths, max_tokens or None)
    rows = []
    for s in BATCH_SIZES:
        in_order = naive_padding(lengths, s)
        rows.append((_("in order"), s, in_order / (in_order + naive.real)))
        rows.append((_("bucketed (width {width})", width=number(width)), s,
                     pads[s, width] / (pads[s, width] + naive.real)))
    left, right = st.columns(2)
    left.html(f'<div class="sqtitle">{escape(_(WASTE_TITLE))}</div>')
    show_chart(waste_chart(rows), left, key="sq_b_chart")
    right.html(f'<div class="sqtitle">{escape(_(HEATMAP_TITLE))}</div>')
    show_chart(waste_heatmap(pads, naive.real, grid_sizes, widths, (size, width)), right,
               key="sq_b_heatmap")
    st.caption(_("Right: every cell plans the batches again (sorted by length, buckets of that "
                 "width, that many rows). Wide buckets and big batches put short lines next to "
                 "long ones; hover a cell for the share of compute that is padding."))


def _corpus_name(option: str) -> str:
    """A built-in corpus in the session's language; an upload's file name (or a lesson file's
    name for its corpus) is the user's text, and radio labels are Markdown: escaped, or
    `![](http://...)` as a name makes the browser fetch."""
    if option in CORPORA:
        return _(option)
    return _("Uploaded: {name}", name=literal(option.removeprefix("Uploaded: ")))
