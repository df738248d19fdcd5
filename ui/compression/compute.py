"""The Compression page's work, cached by plain values so that a widget that only changes the view
(the measure shown, the vocab size compared, a sentence) never trains again.

Keys are (corpus digest, held-out percent, max merges / family / sizes / tokenizer spec); the text
itself rides along as an underscore argument, which st.cache_data does not hash.

subtle: a progress bar is created *inside* the cached function that trains, so that Streamlit's
replay of a cached call finds every element it recorded (an element created outside would not
be there to replay into). The bar is emptied at the end, so a replay leaves nothing visible.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.measure import compression
from tokenizer_core.measure.compression import (
    BYTE_VOCAB,
    CompressionCurve,
    HeldOutSplit,
    split_held_out,
)
from tokenizer_core.measure.metrics import TextStats, text_stats, word_set
from tokenizer_core.measure.quality import (
    HFFamily,
    HFPoint,
    Quality,
    hf_lines,
    hf_refusal,
    measure,
)
from tokenizer_core.registry import ENCODINGS
from ui.common import catalog
from ui.common.cancel import throttled
from ui.common.safe_text import literal
from ui.compression.frames import FAMILY_NAMES
from ui.compression.limits import CURVE_CACHE_ENTRIES, QUALITY_CACHE_ENTRIES


def split(text: str, held_out_pct: int) -> HeldOutSplit:
    return split_held_out(text, held_out_pct / 100)


def _bar(label: str):
    """A progress bar and a throttled train_bpe-style callback that moves it.

    subtle: the bar's text is Markdown and `label` may name the user's file, so callers pass it
    through literal() (a name like ![x](http://...) would otherwise be fetched as an image)."""
    bar = st.progress(0.0, text=label)

    def update(done: int, total: int, what: str = "") -> None:
        if total:
            bar.progress(min(1.0, done / total), text=f"{label} {what}".rstrip())

    return bar, update


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def our_curve(
    digest: str, held_out_pct: int, max_merges: int, label: str, _text: str
) -> CompressionCurve:
    """Byte-level BPE trained once up to max_merges; tokens on both parts for every k."""
    bar, update = _bar(f"Training byte-level BPE on {literal(label)}:")
    # every merge asks whether the tab is still open; the bar moves a few times a second,
    # which is also where Streamlit stops this run when a newer one replaced it
    progress = throttled(lambda done, total: update(done, total, f"merge {done:,} of {total:,}"))
    # via the module, so a test can count training runs by wrapping compression_curve
    curve = compression.compression_curve(split(_text, held_out_pct), max_merges, progress=progress)
    bar.empty()
    return curve


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def reference_points(
    digest: str, held_out_pct: int, _text: str
) -> list[tuple[str, int, TextStats]]:
    """(name, vocab size, held-out counts) for GPT-2, cl100k_base and o200k_base (tiktoken)."""
    held_out = split(_text, held_out_pct).held_out
    points = []
    for name in ENCODINGS:
        tokenizer = catalog.load_tiktoken(name)
        count = len(tokenizer.encode_ordinary_ids(held_out))
        points.append((name, tokenizer.vocab_size, replace(text_stats(held_out, []), tokens=count)))
    return points


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def hf_refused(digest: str, held_out_pct: int, _text: str) -> str | None:
    """Why the HF lines are not trained on this corpus (quality.hf_refusal), or None."""
    return hf_refusal(split(_text, held_out_pct).train)


@st.cache_data(max_entries=4 * CURVE_CACHE_ENTRIES, show_spinner=False)
def hf_family(
    digest: str, held_out_pct: int, family: HFFamily, sizes: tuple[int, ...], label: str, _text: str
) -> list[HFPoint]:
    """One HF family trained on the same training part at each size."""
    name = FAMILY_NAMES[family]
    bar, update = _bar(f"Training {name} on {literal(label)}:")

    def progress(done: int, total: int) -> None:
        if done < total:
            update(done, total, f"{sizes[done]:,} vocab (model {done + 1} of {total})")

    parts = split(_text, held_out_pct)
    points = hf_lines(family, parts.train, parts.held_out, sizes, progress=progress)
    bar.empty()
    return points


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def seen_words(digest: str, held_out_pct: int, _text: str) -> frozenset[str]:
    return word_set(split(_text, held_out_pct).train)


@st.cache_data(max_entries=QUALITY_CACHE_ENTRIES, show_spinner="Measuring on the held-out text…")
def quality(
    digest: str, held_out_pct: int, spec: str, _make: Callable[[], Tokenizer], _text: str
) -> Quality:
    """Every quality number of one tokenizer (named by `spec`, built by `_make`) on the held-out
    part. The tokenizer is built here, so a cache hit builds nothing."""
    held_out = split(_text, held_out_pct).held_out
    return measure(_make(), held_out, seen_words(digest, held_out_pct, _text), name=spec)


def our_vocab(curve: CompressionCurve, vocab_size: int) -> int:
    """The vocab size ours has when asked for `vocab_size`: smaller when training stopped early."""
    return BYTE_VOCAB + min(vocab_size - BYTE_VOCAB, curve.learned_merges)


def seen_in_session(keys: list[tuple]) -> bool:
    """Whether this session has already fetched every one of these results (so they are most
    likely cached and come back at once). Only decides whether to draw a first chart early."""
    seen = st.session_state.get("cp_fetched", set())
    return all(key in seen for key in keys)


def remember_in_session(keys: list[tuple]) -> None:
    st.session_state.setdefault("cp_fetched", set()).update(keys)
