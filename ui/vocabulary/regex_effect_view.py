"""The effect of the regex, measured: one byte-level BPE per regex on the same corpus, held-out
bytes per token against vocabulary size, one line per regex (the Pre-tokenization tab's end)."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.lessons.pre_split import PRE_SPLITTERS
from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve, log_spaced
from tokenizer_core.measure.regex_effect import mixed_split, regex_curves
from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.common.charts import show_chart
from ui.common.i18n import _, number, percent
from ui.common.table_view import show_table
from ui.vocabulary.charts import FONT
from ui.vocabulary.limits import EFFECT_ENGLISH_CHARS, EFFECT_MERGES

REGEXES = ("gpt2", "cl100k_base", "o200k_base", "llama3", "qwen2.5")


def _split():
    texts = [english_reference_corpus()[:EFFECT_ENGLISH_CHARS],
             *(corpus_text(n) for n in ("code", "chinese", "emoji"))]
    return mixed_split(texts)


def mixed_split_held_out() -> str:
    return _split().held_out


@st.cache_resource(show_spinner=False)
def _curves() -> dict[str, CompressionCurve]:
    patterns = {n: PRE_SPLITTERS[n].pat_str for n in REGEXES}
    return regex_curves(_split(), patterns, EFFECT_MERGES)


def curves() -> dict[str, CompressionCurve]:
    with st.spinner(_("Training one byte-level BPE per regex…")):
        return _curves()


def effect_chart(found: dict[str, CompressionCurve]) -> go.Figure:
    fig = go.Figure()
    for name, curve in found.items():
        ks = log_spaced(1, curve.learned_merges, 40)
        fig.add_trace(go.Scatter(
            x=[BYTE_VOCAB + k for k in ks],
            y=[curve.held_out.utf8_bytes / curve.held_out_tokens[k] for k in ks],
            mode="lines", name=_(PRE_SPLITTERS[name].label),
            hovertemplate=_("vocab %{x:,}: %{y:.3f} bytes/token")
            + "<extra>%{fullData.name}</extra>",
        ))  # fmt: skip
    fig.update_layout(
        template="plotly_white", font=FONT, height=400, xaxis_type="log",
        title={"text": _("Held-out bytes per token, one line per regex"), "x": 0},
        xaxis_title=_("vocabulary size (256 bytes + merges)"), yaxis_title=_("bytes per token"),
        margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.2},
    )  # fmt: skip
    return fig


def show() -> None:
    st.subheader(_("The effect measured"))
    st.caption(_(
        "The same corpus (Python's documentation, {chars} characters, and the built-in code, "
        "Chinese and emoji corpora; the last 20% of each held out), {merges} merges of our "
        "byte-level BPE per regex.", chars=number(EFFECT_ENGLISH_CHARS),
        merges=number(EFFECT_MERGES)))
    if not st.toggle(_("Train one BPE per regex and draw the lines (a few seconds the first "
                       "time)"), key="vc_regex_effect"):
        return
    found = curves()
    show_chart(effect_chart(found), width="stretch")
    held = next(iter(found.values())).held_out.utf8_bytes
    tokens = [c.held_out_tokens[-1] for c in found.values()]
    st.caption(_("At {merges} merges the best and the worst regex differ by {share} of the "
                 "held-out tokens: on this corpus the regex decides where tokens may end far "
                 "more than how many there are.", merges=number(EFFECT_MERGES),
                 share=percent((max(tokens) - min(tokens)) / min(tokens), 2)))
    show_table({
        _("regex"): [_(PRE_SPLITTERS[n].label) for n in found],
        _("held-out tokens at {merges} merges", merges=number(EFFECT_MERGES)):
            [c.held_out_tokens[-1] for c in found.values()],
        _("bytes per token"): [round(held / c.held_out_tokens[-1], 3) for c in found.values()],
    }, hide_index=True, width="stretch")  # fmt: skip
