"""The effect of the regex, measured: one byte-level BPE per regex on the same corpus, held-out
bytes per token against vocabulary size, one line per regex (the Pre-tokenization tab's end)."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.lessons.pre_split import PRE_SPLITTERS
from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve, log_spaced
from tokenizer_core.measure.regex_effect import mixed_split, regex_curves
from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.vocabulary.charts import FONT
from ui.vocabulary.limits import EFFECT_ENGLISH_CHARS, EFFECT_MERGES

REGEXES = ("gpt2", "cl100k_base", "o200k_base", "llama3", "qwen2.5")


def _split():
    texts = [english_reference_corpus()[:EFFECT_ENGLISH_CHARS],
             *(corpus_text(n) for n in ("code", "chinese", "emoji"))]
    return mixed_split(texts)


def mixed_split_held_out() -> str:
    return _split().held_out


@st.cache_resource(show_spinner="Training one byte-level BPE per regex…")
def curves() -> dict[str, CompressionCurve]:
    patterns = {n: PRE_SPLITTERS[n].pat_str for n in REGEXES}
    return regex_curves(_split(), patterns, EFFECT_MERGES)


def effect_chart(found: dict[str, CompressionCurve]) -> go.Figure:
    fig = go.Figure()
    for name, curve in found.items():
        ks = log_spaced(1, curve.learned_merges, 40)
        fig.add_trace(go.Scatter(
            x=[BYTE_VOCAB + k for k in ks],
            y=[curve.held_out.utf8_bytes / curve.held_out_tokens[k] for k in ks],
            mode="lines", name=PRE_SPLITTERS[name].label,
            hovertemplate="vocab %{x:,}: %{y:.3f} bytes/token<extra>%{fullData.name}</extra>",
        ))  # fmt: skip
    fig.update_layout(
        template="plotly_white", font=FONT, height=400, xaxis_type="log",
        title={"text": "Held-out bytes per token, one line per regex", "x": 0},
        xaxis_title="vocabulary size (256 bytes + merges)", yaxis_title="bytes per token",
        margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.2},
    )  # fmt: skip
    return fig


def show() -> None:
    st.subheader("The effect measured")
    st.caption(
        f"The same corpus (Python's documentation, {EFFECT_ENGLISH_CHARS:,} characters, and the "
        f"built-in code, Chinese and emoji corpora; the last 20% of each held out), "
        f"{EFFECT_MERGES:,} merges of our byte-level BPE per regex."
    )
    if not st.toggle("Train one BPE per regex and draw the lines (a few seconds the first time)",
                     key="vc_regex_effect"):
        return
    found = curves()
    st.plotly_chart(effect_chart(found), width="stretch")
    held = next(iter(found.values())).held_out.utf8_bytes
    tokens = [c.held_out_tokens[-1] for c in found.values()]
    st.caption(f"At {EFFECT_MERGES:,} merges the best and the worst regex differ by "
               f"{(max(tokens) - min(tokens)) / min(tokens):.2%} of the held-out tokens: on this "
               "corpus the regex decides where tokens may end far more than how many there are.")
    st.dataframe({
        "regex": [PRE_SPLITTERS[n].label for n in found],
        f"held-out tokens at {EFFECT_MERGES:,} merges": [c.held_out_tokens[-1] for c in found.values()],
        "bytes per token": [round(held / c.held_out_tokens[-1], 3) for c in found.values()],
    }, hide_index=True, width="stretch")  # fmt: skip
