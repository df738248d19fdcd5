"""The Vocabulary page's pre-tokenization tab: text in, chunks out, for each chosen regex.

Each split is drawn over the text (render.py: the one escaping renderer) and listed chunk by
chunk with the alternative that cut it, named in plain words; the quirk presets are compared
side by side. Mistral Nemo's regex comes from its loaded Tekken file, not from a copy.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from tokenizer_core import Token, render_tokens
from tokenizer_core.lessons.pre_split import (
    PRE_SPLITTERS,
    QUIRKS,
    PreSplitter,
    alternatives,
    describe,
    shown,
    split_named,
)
from ui.common import catalog
from ui.common.i18n import N_, _, number, say
from ui.common.pills import fill_from_pills
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.token_view import render_options
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.vocabulary import found, regex_effect_view
from ui.vocabulary.limits import MAX_SPLIT_CHARS, MAX_SPLITTERS

NEMO = "mistral-nemo"
DEFAULT = ["gpt2", "cl100k_base", "o200k_base"]
REGEX_SHOWN = 90  # characters of an alternative shown (BERT's punctuation class is long)
START_TEXT = "I'm here: DON'T indent   1234567 你好世界"
# The frames' columns keep their English names (tests read them); st.dataframe shows these.
HEADERS = {"chunk": N_("chunk"), "start": N_("start"), "end": N_("end"),
           "alternative": N_("alternative"), "name": N_("name"),
           "what it takes": N_("what it takes"), "regex": N_("regex"), "text": N_("text")}


def headers(frame: pd.DataFrame) -> dict:
    """st.dataframe's column_config: the frame's headers in the session's language."""
    return {c: st.column_config.Column(_(HEADERS[c])) for c in frame.columns if c in HEADERS}


@st.cache_resource(show_spinner=False)
def _nemo_split() -> PreSplitter:
    return PreSplitter(NEMO, "Mistral Nemo (Tekken)", catalog.load(NEMO).spec.pat_str)


def _nemo() -> PreSplitter:
    with st.spinner(_("Reading Mistral Nemo's regex from its Tekken file…")):
        return _nemo_split()


def splitter(name: str) -> PreSplitter:
    return _nemo() if name == NEMO else PRE_SPLITTERS[name]


def _label(name: str) -> str:
    return "Mistral Nemo (Tekken)" if name == NEMO else _(PRE_SPLITTERS[name].label)


def chunk_tokens(text: str, split: PreSplitter) -> list[Token]:
    """Chunks as Token records, so render.py draws them; the id is the alternative's number."""
    return [
        Token(c.alternative, c.text.encode("utf-8"), c.start, c.end, piece=shown(c.text, split))
        for c in split_named(text, split.pat_str)
    ]


def chunk_frame(text: str, split: PreSplitter) -> pd.DataFrame:
    chunks = split_named(text, split.pat_str)
    names = [describe(a, say) for a in alternatives(split.pat_str)]
    return pd.DataFrame({
        "chunk": [shown(c.text, split).replace(" ", "·").replace("\n", "↵") for c in chunks],
        "start": [c.start for c in chunks],
        "end": [c.end for c in chunks],
        "alternative": [f"{c.alternative}: {names[c.alternative][0]}" for c in chunks],
    })  # fmt: skip


def alternative_counts(tokens: list[Token], split: PreSplitter) -> str:
    """`letters 5 · contraction 1 · ...`: which alternatives cut the chunks, in pattern order."""
    parts = alternatives(split.pat_str)
    used = Counter(t.id for t in tokens)
    return " · ".join(f"{describe(parts[k], say)[0]} {number(used[k])}" for k in sorted(used))


def legend(split: PreSplitter) -> pd.DataFrame:
    parts = alternatives(split.pat_str)
    said = [describe(p, say) for p in parts]
    return pd.DataFrame({
        "#": range(len(parts)),
        "name": [name for name, _words in said],
        "what it takes": [words for _name, words in said],
        "regex": [p if len(p) <= REGEX_SHOWN else p[: REGEX_SHOWN - 1] + "…" for p in parts],
    })  # fmt: skip


def show(chosen: str) -> None:
    """The tab; `chosen` is the page's tokenizer (only a found one changes what is said)."""
    st.caption(_(
        "Before BPE sees a text, a regex cuts it into chunks and no token ever crosses a chunk's "
        "edge. Each regex is one alternation `A|B|C…`: at each position the first alternative "
        "that matches cuts the chunk. Pick a quirk or type your own text."
    ))
    if found.is_found(chosen):  # its regex is the file's, untrusted: it runs only in its worker
        st.info(_("The pre-tokenizer of {name} is not drawn here: it is the file's own and runs "
                  "only in its own process. The Playground shows how {name} cuts a text.",
                  name=literal(chosen)), icon="ℹ️")
    quirk_names = {q: _(q) for q in QUIRKS}  # values stay English (the box's presets); said now
    st.pills(_("Quirks"), list(QUIRKS), key="vc_split_quirk", format_func=quirk_names.__getitem__,
             on_change=fill_from_pills, args=("vc_split_quirk", "vc_split_text", QUIRKS))
    st.session_state.setdefault("vc_split_text", START_TEXT)
    # The picker has the page's width: beside the text box its one row of chips ended inside
    # the default third one at 1280 px (Streamlit scrolls that row rather than wrapping it).
    names = st.multiselect(_("Pre-tokenizers"), [*PRE_SPLITTERS, NEMO], default=DEFAULT,
                           key="vc_splitters", format_func=_label, max_selections=MAX_SPLITTERS)
    text = st.text_area(_("Text to pre-tokenize"), key="vc_split_text", height=90)
    if REPLACEMENT in text:  # a lone surrogate the browser replaced (ui/common/unicode_guard.py)
        st.caption(REPLACEMENT_NOTE)
    if len(text) > MAX_SPLIT_CHARS:
        st.error(_("The text has {length} characters; this tab splits up to {bound}. Shorten "
                   "it (your text is kept in the box).", length=number(len(text)),
                   bound=number(MAX_SPLIT_CHARS)))
        return
    if not text:
        st.info(_("Type a text, or pick a quirk, to see it cut."))
        return
    for name in names:
        split = splitter(name)
        tokens = chunk_tokens(text, split)
        st.markdown(_("**{name}**: {count} chunks · {counts}", name=literal(_(split.label)),
                      count=number(len(tokens)),
                      counts=literal(alternative_counts(tokens, split))))
        st.html(render_tokens(text, tokens, render_options(visible_whitespace=True)))
        with st.expander(_("Which alternative cut each chunk ({name})", name=_(split.label))):
            shown_legend = legend(split)
            show_table(shown_legend, hide_index=True, width="stretch",
                         column_config=headers(shown_legend))
            chunks = chunk_frame(text, split)
            show_table(chunks, hide_index=True, width="stretch", column_config=headers(chunks))
    st.subheader(_("The quirks side by side"))
    quirks = quirk_frame([splitter(n) for n in names])
    show_table(quirks, hide_index=True, width="stretch", column_config=headers(quirks))
    regex_effect_view.show()


def quirk_frame(splits: list[PreSplitter]) -> pd.DataFrame:
    """One row per quirk, one column per pre-tokenizer: its chunks, ` | ` between them."""
    def cut(text: str, split: PreSplitter) -> str:
        chunks = [shown(c.text, split) for c in split_named(text, split.pat_str)]
        return " | ".join(c.replace(" ", "·").replace("\n", "↵") for c in chunks)

    rows = {"text": [t.replace(" ", "·").replace("\n", "↵") for t in QUIRKS.values()]}
    rows |= {_(s.label): [cut(t, s) for t in QUIRKS.values()] for s in splits}
    return pd.DataFrame(rows)
