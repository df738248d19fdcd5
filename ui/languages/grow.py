"""The "grow a Chinese vocabulary" section: the 256 byte tokens plus the N most frequent Chinese
characters of a training text, measured on a held-out Chinese text."""

from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from tokenizer_core import RenderOptions, render_tokens
from tokenizer_core.measure.vocab_growth import (
    GrowthCurve,
    grow_curve,
    grow_tokens,
    is_han,
    is_han_or_punctuation,
)
from tokenizer_core.samples import sample_text
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.unicode_guard import unicode_guard
from ui.languages import data as data
from ui.languages.charts import grow_chart
from ui.languages.counting import counts_for
from ui.languages.limits import MAX_GROW_CHARS, MAX_GROW_RENDER_CHARS
from ui.languages.tables import added_frame, grow_frame

SETUPS = {
    "sample_pairs": "Train on the Chinese sample, measure on the parallel pairs",
    "sample_split": "Split the Chinese sample",
    "own_split": "Split your own text",
}
SAMPLE = "data/samples/chinese.txt"


@st.cache_data(max_entries=16, show_spinner=False)
def _curve(train: str, heldout: str, punctuation: bool) -> GrowthCurve:
    return grow_curve(train, heldout, is_han_or_punctuation if punctuation else is_han)


def _split(text: str, percent: int) -> tuple[str, str]:
    cut = round(len(text) * percent / 100)
    return text[:cut], text[cut:]


def _texts(
    setup: str, pair_source: str, zh_sentences: Sequence[str]
) -> tuple[str, str, str] | None:
    """(training text, held-out text, a sentence saying which), or None when there is no text."""
    if setup == "sample_pairs":
        return (sample_text("chinese"), "\n".join(zh_sentences),
                f"Training: {SAMPLE} (all of it). Held out: the Chinese side of "
                f"{literal(pair_source)}.")  # it may name the user's file
    percent = st.slider("Train on the first … % (the rest is held out)", 50, 90, 70, step=5,
                        key="lg_grow_split", format="%d%%", persist_state=KEEP)
    if setup == "sample_split":
        train, held = _split(sample_text("chinese"), percent)
        return train, held, f"Training: the first {percent}% of {SAMPLE}. Held out: the rest."
    unicode_guard()  # before the box is used: a lone surrogate would lose the box's new text
    # No max_chars: the browser would refuse a longer paste without a word; cut here, and say so.
    text = st.text_area("Your Chinese text", key="lg_grow_text", height=140, persist_state=KEEP,
                        help=f"Up to {MAX_GROW_CHARS:,} characters are used.")
    if not text.strip():
        st.info("Paste some Chinese text above (a few hundred characters or more).", icon="✍️")
        return None
    if len(text) > MAX_GROW_CHARS:
        st.warning(f"The box holds {len(text):,} characters; the experiment uses the first "
                   f"{MAX_GROW_CHARS:,}. Your whole text stays in the box.", icon="✂️")
        text = text[:MAX_GROW_CHARS]
    train, held = _split(text, percent)
    return train, held, f"Training: the first {percent}% of your text. Held out: the rest."


def grow_section(names: Sequence[str], pair_source: str, zh_sentences: Sequence[str]) -> None:
    st.markdown(
        "Start from the 256 byte tokens, where each Chinese character costs its 3 UTF-8 bytes. "
        "Add the N most frequent Chinese characters of a training text as single tokens, and "
        "count the tokens a **held-out** text needs. No merges, no multi-character tokens: "
        "just characters."
    )
    setup = st.segmented_control("Texts", list(SETUPS), format_func=SETUPS.__getitem__,
                                 key="lg_grow_setup", default="sample_pairs",
                                 persist_state=KEEP) or "sample_pairs"
    texts = _texts(setup, pair_source, zh_sentences)
    if texts is None:
        return
    train, heldout, which = texts
    punctuation = st.toggle("Also add Chinese punctuation (，。！？“”…) as tokens",
                            key="lg_grow_punct", persist_state=KEEP)
    st.caption(f"{which} {len(train):,} training and {len(heldout):,} held-out characters.")
    if not heldout:
        st.warning("The held-out part is empty: train on a smaller share.", icon="⚠️")
        return
    curve = _curve(train, heldout, punctuation)
    if not curve.added:
        st.warning("The training text has no Chinese characters, so there is nothing to add.",
                   icon="⚠️")
        return
    top = len(curve.added)
    st.session_state["lg_grow_n"] = min(st.session_state.get("lg_grow_n", min(100, top)), top)
    n = st.slider("N: characters added", 0, top, key="lg_grow_n", persist_state=KEEP)
    counted = counts_for(names, [heldout], f"the {len(heldout):,} held-out characters")
    references = pd.DataFrame({
        "label": [data.label(x) for x in names] + ["one token per character"],
        "tokens": [counted[x][0] for x in names] + [len(heldout)],
    })  # fmt: skip
    big = presentation_mode()
    st.plotly_chart(grow_chart(grow_frame(curve), references, n, big), key="lg_chart_grow",
                    theme=None)
    bytes_only = curve.tokens[0]
    cols = st.columns(4)
    cols[0].metric("Vocabulary", f"{curve.vocab_size(n):,}", help="256 byte tokens + N characters")
    cols[1].metric(f"Tokens at N = {n:,}", f"{curve.tokens[n]:,}")
    cols[2].metric("Saved against bytes only", f"{1 - curve.tokens[n] / bytes_only:.0%}",
                   help=f"{bytes_only:,} tokens with the 256 bytes alone")
    cols[3].metric("Held-out characters never seen", f"{curve.unseen:,}",
                   help="Chinese characters of the held-out text that the training text never "
                   "used: they stay 3 bytes each, whatever N is.")
    shown = heldout[:MAX_GROW_RENDER_CHARS]
    st.markdown(f"**The held-out text at N = {n:,}** (each added character is one token; the "
                "others are their bytes, dashed)")
    st.html(render_tokens(shown, grow_tokens(shown, curve.added[:n]),
                          RenderOptions(visible_whitespace=True, big=big, contrast=big)))
    if len(heldout) > len(shown):
        st.caption(f"Drawing the first {len(shown):,} of {len(heldout):,} held-out characters.")
    with st.expander(f"The {n:,} characters added, most frequent first"):
        st.dataframe(added_frame(curve, n), hide_index=True, width="stretch", height=300)
