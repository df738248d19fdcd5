"""Pieces of the Compression page that are words and tables rather than charts: the page's state
defaults, what each split trained on, notes on lines that end early, and the quality table."""

from __future__ import annotations

from functools import partial
from typing import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve, HeldOutSplit
from tokenizer_core.measure.quality import HFPoint
from tokenizer_core.registry import ENCODINGS
from ui.common import catalog
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.tables import csv_download
from ui.compression import compute as compute
from ui.compression.charts import curve_figure
from ui.compression.corpora import COLORS, DEFAULT_CORPORA, CorpusChoice
from ui.compression.frames import (
    FAMILY_LABELS,
    FAMILY_NAMES,
    PERCENT_COLUMNS,
    QUALITY_HELP,
    curve_frame,
    doubling_frame,
    percent_view,
    projector_view,
    quality_frame,
)
from ui.compression.limits import DEFAULT_HELD_OUT_PCT, DEFAULT_VOCAB, HF_SIZES
from ui.compression.sentences import CLASSROOM_SENTENCE

Usable = Sequence[tuple[CorpusChoice, HeldOutSplit, CompressionCurve]]
SMALL_HELD_OUT = 2_000  # characters: below this a line is noisy, and the page says so

# The page's state, initialised in one place (widget keys are prefixed cp_).
DEFAULTS: dict[str, object] = {
    "cp_corpora": DEFAULT_CORPORA,
    "cp_vocab": DEFAULT_VOCAB,
    "cp_held_out": DEFAULT_HELD_OUT_PCT,
    "cp_hf": ["bpe_bytes", "wordpiece", "unigram"],
    "cp_metric": "chars_per_token",
    "cp_compare": 1_000,
    "cp_train": False,
    "cp_ws": True,
    "cp_class_level": "sentence",
    "cp_class_text": CLASSROOM_SENTENCE,
}


def init_state() -> None:
    """The page's state, initialised in one place. Every widget is drawn with
    persist_state="session", so a choice survives a visit to another page."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


def describe_split(corpus: CorpusChoice, parts: HeldOutSplit, curve: CompressionCurve) -> str:
    """Which part trained and which part measured, in characters and lines (Markdown)."""
    share = parts.held_out_share
    line = parts.held_out_first_line
    last_train_line = line - 1 if parts.train.endswith("\n") else line
    return (
        f"**{literal(corpus.label)}**: trained on the first {1 - share:.0%}, {len(parts.train):,} "
        f"characters (lines 1–{last_train_line:,}); "
        f"measured on the last {share:.0%}, {len(parts.held_out):,} characters from line "
        f"{line:,} on. {curve.learned_merges:,} merges learned."
    )


def stop_notes(usable: Usable, metric: str) -> list[str]:
    """Notes (Markdown) on lines that end early, are noisy, or cannot be drawn."""
    notes = []
    for corpus, parts, curve in usable:
        label = literal(corpus.label)  # it may name the user's file
        if curve.learned_merges < curve.requested_merges:
            notes.append(
                f"{label}'s line ends at {BYTE_VOCAB + curve.learned_merges:,}: after "
                f"{curve.learned_merges:,} merges every chunk of its training part is one token, "
                "so there is nothing left to merge; a larger corpus goes further."
            )
        if len(parts.held_out) < SMALL_HELD_OUT:
            notes.append(
                f"{label}'s held-out part has only {len(parts.held_out):,} characters: "
                "expect a noisy line."
            )
        if metric == "tokens_per_word" and not curve.space_separated:
            notes.append(f"{label} has no spaces between words: no tokens-per-word line.")
    if any(corpus.key == "english" for corpus, _, _ in usable):
        notes.append(
            "GPT-2, cl100k_base and o200k_base learned from web-scale text that probably "
            "included Python's documentation, so for them the English held-out part may not be "
            "unseen."
        )
    return notes


def _hf_label(point: HFPoint) -> str:
    label = f"{FAMILY_NAMES[point.family]}, {point.vocab_size:,}"
    if point.vocab_size != point.requested:
        label += f" (asked for {point.requested:,})"
    return label


def _quality_rows(usable: Usable, hf: Mapping[str, Mapping[str, Sequence[HFPoint]]],
                  compare: int, held_out_pct: int) -> list:
    """(corpus, tokenizer label, Quality) for every tokenizer of the table. Each tokenizer goes
    in as a factory: the cached measure builds it only when it is not cached yet."""
    rows = []
    for corpus, _, curve in usable:
        wanted: list[tuple[str, str, Callable[[], Tokenizer]]] = []
        vocab = compute.our_vocab(curve, compare)
        label = f"{FAMILY_LABELS['ours']}, {vocab:,}"
        if vocab != compare:
            label += f" (asked for {compare:,})"
        wanted.append((label, f"ours:{vocab}", partial(curve.tokenizer, vocab - BYTE_VOCAB)))
        for family, points in hf.get(corpus.key, {}).items():
            wanted += [(_hf_label(p), f"hf:{family}:{compare}", p.tokenizer)
                       for p in points if p.requested == compare]
        for name in ENCODINGS:
            size = catalog.load(name).vocab_size
            wanted.append((f"{FAMILY_LABELS[name]}, {size:,}", f"ref:{name}",
                           partial(catalog.load, name)))
        for label, spec, make in wanted:
            q = compute.quality(corpus.digest, held_out_pct, spec, make, corpus.text)
            rows.append((corpus.label, label, q))
    return rows


def _column_config(frame: pd.DataFrame) -> dict:
    config: dict = {"tokenizer": st.column_config.TextColumn("tokenizer", pinned=True)}
    for column in frame.columns:
        help_text = QUALITY_HELP.get(column)
        if column in PERCENT_COLUMNS:  # shown as 0-100 by percent_view
            config[column] = st.column_config.NumberColumn(column, help=help_text, format="%.1f%%")
        elif column in ("tokens", "vocab size", "unseen words"):
            config[column] = st.column_config.NumberColumn(column, help=help_text,
                                                           format="localized")
        elif frame[column].dtype.kind == "f":
            config[column] = st.column_config.NumberColumn(column, help=help_text, format="%.2f")
        elif help_text:
            config[column] = st.column_config.TextColumn(column, help=help_text)
    return config


def quality_section(usable: Usable, hf: Mapping[str, Mapping[str, Sequence[HFPoint]]],
                    compare: int, held_out_pct: int, curve_points: pd.DataFrame) -> None:
    """The quality table at one vocab size, for every corpus, with CSV downloads."""
    st.subheader(f"Quality at {compare:,} vocab, on the held-out text")
    st.caption(
        "Ours and the HF models at the size chosen above (a model may stop short of it on a small "
        "corpus), and the three real tokenizers at theirs. Hover a column title for its meaning."
    )
    frame = quality_frame(_quality_rows(usable, hf, compare, held_out_pct))
    if presentation_mode():  # a static table takes the page's large type; the grid does not
        view = projector_view(frame)
        st.table(view.assign(corpus=view["corpus"].map(literal)))  # st.table reads Markdown
        st.caption("Presentation mode shows the key columns; the CSV has every number.")
    else:
        st.dataframe(percent_view(frame), hide_index=True, width="stretch", height="content",
                     column_config=_column_config(frame))
    left, right = st.columns(2)
    csv_download(left, "Download this table (CSV)", frame, f"compression-quality-{compare}.csv",
                 key="cp_download_quality")
    csv_download(right, "Download every curve point (CSV)", curve_points,
                 "compression-curves.csv", key="cp_download_curves")


def doubling_section(curves: Sequence[tuple[str, CompressionCurve]], vocab: int, big: bool) -> None:
    st.subheader("What each doubling buys")
    st.caption("Share of held-out tokens saved by each (roughly) doubled vocabulary, on our line: "
               "the returns shrink as the vocabulary grows.")
    frame = doubling_frame(curves, [s for s in (BYTE_VOCAB, *HF_SIZES) if s <= vocab])
    if big:  # a static table takes the page's large type, and reads Markdown
        shares = frame.assign(corpus=frame["corpus"].map(literal)).set_index("corpus")
        st.table(shares.map(lambda v: "—" if pd.isna(v) else f"{v:.0%}"))
    else:
        st.dataframe(frame, hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(c, format="percent")
                                    for c in frame.columns if c != "corpus"})


def draw_chart(slot, rows: list[dict], metric: str, compare: int, big: bool,
               key: str) -> pd.DataFrame:
    """Draw (or redraw, under another key) the curve chart into `slot`; returns its frame."""
    frame = curve_frame(rows).drop_duplicates(["corpus_key", "family", "kind", "vocab_size"])
    if metric == "tokens_per_word" and frame["tokens_per_word"].isna().all():
        slot.info("Tokens per word needs text with spaces between words; pick English, code or "
                  "emoji.", icon="ℹ️")
    else:
        slot.plotly_chart(curve_figure(frame, metric, COLORS, compare, big), width="stretch",
                          config={"displaylogo": False}, key=key)
    return frame
