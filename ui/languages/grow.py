"""The "grow a Chinese vocabulary" section: the 256 byte tokens plus the N most frequent Chinese
characters of a training text, measured on a held-out Chinese text.

The built-in training text is the Chinese corpus the app ships (data/corpora/chinese.txt, about
21,500 characters), not the 1,169-character sample: on the sample, 121 of the parallel pairs'
characters were never seen and the curve stopped at 394 characters; on the corpus it runs to
1,662 and only 9 stay unseen. Its curve takes about 30 ms to make, and is cached."""

from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from tokenizer_core import render_tokens
from tokenizer_core.measure.vocab_growth import (
    GrowthCurve,
    grow_curve,
    grow_tokens,
    is_han,
    is_han_or_punctuation,
)
from tokenizer_core.samples import corpus_text
from ui.common.charts import show_chart
from ui.common.i18n import N_, _, number, percent
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.table_view import show_table
from ui.common.token_view import render_options
from ui.languages import data as data
from ui.languages.charts import grow_chart
from ui.languages.counting import counts_for
from ui.languages.limits import MAX_GROW_CHARS, MAX_GROW_RENDER_CHARS
from ui.languages.tables import added_frame, grow_frame

SETUPS = {
    "sample_pairs": N_("Train on the Chinese corpus, measure on the parallel pairs"),
    "sample_split": N_("Split the Chinese corpus"),
    "own_split": N_("Split your own text"),
}
SAMPLE = "data/corpora/chinese.txt"  # the built-in training text (_corpus)


@st.cache_data(max_entries=16, show_spinner=False)
def _curve(train: str, heldout: str, punctuation: bool) -> GrowthCurve:
    return grow_curve(train, heldout, is_han_or_punctuation if punctuation else is_han)


@st.cache_data(max_entries=1, show_spinner=False)
def _corpus() -> str:
    """The built-in training text, read from disk once per server, not on every rerun."""
    return corpus_text("chinese")


def _split(text: str, percent: int) -> tuple[str, str]:
    cut = round(len(text) * percent / 100)
    return text[:cut], text[cut:]


def _texts(
    setup: str, pair_source: str, zh_sentences: Sequence[str]
) -> tuple[str, str, str] | None:
    """(training text, held-out text, a sentence saying which), or None when there is no text."""
    if setup == "sample_pairs":
        return (_corpus(), "\n".join(zh_sentences),
                _("Training: {sample} (all of it). Held out: the Chinese side of {source}.",
                  sample=SAMPLE, source=literal(pair_source)))  # it may name the user's file
    share = st.slider(_("Train on the first … % (the rest is held out)"), 50, 90, 70, step=5,
                      key="lg_grow_split", format="%d%%", persist_state=KEEP)
    if setup == "sample_split":
        train, held = _split(_corpus(), share)
        return train, held, _("Training: the first {share} of {sample}. Held out: the rest.",
                              share=percent(share / 100, 0), sample=SAMPLE)
    # No max_chars: the browser would refuse a longer paste without a word; cut here, and say so.
    text = st.text_area(_("Your Chinese text"), key="lg_grow_text", height=140,
                        persist_state=KEEP,
                        help=_("Up to {count} characters are used.", count=number(MAX_GROW_CHARS)))
    if not text.strip():
        st.info(_("Paste some Chinese text above (a few hundred characters or more)."), icon="✍️")
        return None
    if len(text) > MAX_GROW_CHARS:
        st.warning(_("The box holds {count} characters; the experiment uses the first {used}. "
                     "Your whole text stays in the box.", count=number(len(text)),
                     used=number(MAX_GROW_CHARS)), icon="✂️")
        text = text[:MAX_GROW_CHARS]
    train, held = _split(text, share)
    return train, held, _("Training: the first {share} of your text. Held out: the rest.",
                          share=percent(share / 100, 0))


def grow_section(names: Sequence[str], pair_source: str, zh_sentences: Sequence[str]) -> None:
    st.markdown(_(
        "Start from the 256 byte tokens, where each Chinese character costs its 3 UTF-8 bytes. "
        "Add the N most frequent Chinese characters of a training text as single tokens, and "
        "count the tokens a **held-out** text needs. No merges, no multi-character tokens: "
        "just characters."
    ))
    setup = st.segmented_control(_("Texts"), list(SETUPS), format_func=lambda s: _(SETUPS[s]),
                                 key="lg_grow_setup", default="sample_pairs",
                                 persist_state=KEEP) or "sample_pairs"
    texts = _texts(setup, pair_source, zh_sentences)
    if texts is None:
        return
    train, heldout, which = texts
    punctuation = st.toggle(_("Also add Chinese punctuation (，。！？“”…) as tokens"),
                            key="lg_grow_punct", persist_state=KEEP)
    st.caption(_("{which} {train} training and {held} held-out characters.", which=which,
                 train=number(len(train)), held=number(len(heldout))))
    if not heldout:
        st.warning(_("The held-out part is empty: train on a smaller share."), icon="⚠️")
        return
    curve = _curve(train, heldout, punctuation)
    if not curve.added:
        st.warning(_("The training text has no Chinese characters, so there is nothing to add."),
                   icon="⚠️")
        return
    top = len(curve.added)
    st.session_state["lg_grow_n"] = min(st.session_state.get("lg_grow_n", min(100, top)), top)
    n = st.slider(_("N: characters added"), 0, top, key="lg_grow_n", persist_state=KEEP)
    counted = counts_for(names, [heldout], _("the {count} held-out characters",
                                             count=number(len(heldout))))
    references = pd.DataFrame({
        "label": [data.shown(data.label(x)) for x in names] + [_("one token per character")],
        "tokens": [counted[x][0] for x in names] + [len(heldout)],
    })  # fmt: skip
    big = presentation_mode()
    show_chart(grow_chart(grow_frame(curve), references, n, big), key="lg_chart_grow",
               theme=None)
    bytes_only = curve.tokens[0]
    cols = st.columns(4)
    cols[0].metric(_("Vocabulary"), number(curve.vocab_size(n)),
                   help=_("256 byte tokens + N characters"))
    cols[1].metric(_("Tokens at N = {n}", n=number(n)), number(curve.tokens[n]))
    cols[2].metric(_("Saved against bytes only"), percent(1 - curve.tokens[n] / bytes_only, 0),
                   help=_("{count} tokens with the 256 bytes alone", count=number(bytes_only)))
    cols[3].metric(_("Held-out characters never seen"), number(curve.unseen),
                   help=_("Chinese characters of the held-out text that the training text never "
                          "used: they stay 3 bytes each, whatever N is."))
    shown = heldout[:MAX_GROW_RENDER_CHARS]
    st.markdown(_("**The held-out text at N = {n}** (each added character is one token; the "
                  "others are their bytes, dashed)", n=number(n)))
    st.html(render_tokens(shown, grow_tokens(shown, curve.added[:n]),
                          render_options(visible_whitespace=True, big=big, contrast=big)))
    if len(heldout) > len(shown):
        st.caption(_("Drawing the first {shown} of {total} held-out characters.",
                     shown=number(len(shown)), total=number(len(heldout))))
    with st.expander(_("The {n} characters added, most frequent first", n=number(n))):
        show_table(added_frame(curve, n), hide_index=True, width="stretch", height=300)
