"""The Languages page's tokenizers and cached numbers.

All five come from ui/common/catalog.py, loaded once per server there: four it offers everywhere, and
a fifth it keeps off the Playground's list, our byte-level BPE trained on the built-in English
*and* Chinese samples. Tokens come from catalog.tokenize (shared, never pickled); token counts
are cached here by plain keys: (tokenizer name, texts).
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.registry import BILINGUAL_MERGES
from ui.common import catalog

BILINGUAL = catalog.BILINGUAL
NAMES = ("gpt2", "cl100k_base", "o200k_base", "ours:bpe", BILINGUAL)
DEFAULT_NAMES = ["gpt2", "cl100k_base", "o200k_base", "ours:bpe"]
SHORT: dict[str, str] = {  # row headers and chart legends: short enough for a projector
    "gpt2": "GPT-2",
    "cl100k_base": "cl100k_base",
    "o200k_base": "o200k_base",
    "ours:bpe": "ours (English)",
    BILINGUAL: "ours (EN+ZH)",
}
TRAINED_ON: dict[str, str] = {
    "gpt2": "OpenAI's WebText (English web pages)",
    "cl100k_base": "OpenAI, undisclosed (GPT-4)",
    "o200k_base": "OpenAI, undisclosed, more languages (GPT-4o)",
    "ours:bpe": f"{catalog.OUR_MERGES:,} merges on Python's own documentation "
    "(pydoc_data.topics, ~465 KB of English)",
    BILINGUAL: f"{BILINGUAL_MERGES:,} merges on the built-in samples data/samples/english.txt + "
    "chinese.txt (~7 KB, half Chinese)",
}
DESCRIPTIONS: dict[str, str] = {
    **{n: catalog.DESCRIPTIONS[n] for n in NAMES if n in catalog.DESCRIPTIONS},
    BILINGUAL: f"Trained here: byte-level BPE, GPT-2's regex, {BILINGUAL_MERGES:,} merges on the "
    "built-in English and Chinese samples (about 7 KB, none of it in the parallel pairs). Tiny "
    "and overfitted, but it shows that the training text, not the script, sets the premium.",
}
COLORS: dict[str, str] = {  # Okabe-Ito: tells apart for colour-blind viewers
    "UTF-8 bytes": "#8c8c8c",
    "GPT-2": "#E69F00",
    "cl100k_base": "#56B4E9",
    "o200k_base": "#009E73",
    "ours (English)": "#CC79A7",
    "ours (EN+ZH)": "#D55E00",
}
BYTES_LABEL = "UTF-8 bytes"  # the 256-token start: every byte a token


def label(name: str) -> str:
    return SHORT.get(name, name)


LONG: dict[str, str] = {
    "ours:bpe": f"Our byte-level BPE: {catalog.OUR_MERGES:,} merges on English (Python docs)",
    BILINGUAL: f"Our byte-level BPE: {BILINGUAL_MERGES:,} merges on English + Chinese samples",
}


def long_label(name: str) -> str:
    """The tokenizer picker's label: what it is and, for ours, what it was trained on."""
    return LONG.get(name) or catalog.BUILT_IN.get(name, name)


@st.cache_data(max_entries=64, show_spinner="Counting tokens…")
def counts(name: str, texts: tuple[str, ...]) -> tuple[int, ...]:
    """Tokens of each text on its own."""
    tokenizer = catalog.load(name)
    return tuple(len(tokenizer.encode(t, disallowed_special=())) for t in texts)
