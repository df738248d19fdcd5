"""Pieces of the Compression page that are words and tables rather than charts: the page's state
defaults, what each split trained on, notes on lines that end early, and the quality table."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve, HeldOutSplit
from ui.common import catalog
from ui.common.i18n import _, current_language, number, percent
from ui.common.safe_text import WORD_JOINER, literal
from ui.common.shell import presentation_mode
from ui.common.tables import csv_download
from ui.compression import compute as compute
from ui.compression import shared
from ui.compression.corpora import DEFAULT_CORPORA, CorpusChoice
from ui.compression.frames import (
    DOUBLING_STEP,
    PERCENT_COLUMNS,
    QUALITY_TABS,
    column_title,
    doubling_frame,
    family_label,
    has_spaces,
    percent_view,
    projector_view,
    quality_frame,
    quality_help,
)
from ui.compression.limits import DEFAULT_HELD_OUT_PCT, DEFAULT_VOCAB, HF_SIZES
from ui.compression.lines import Lines
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
    return _(
        "**{label}**: trained on the first {train_share}, {train_chars} characters (lines "
        "1–{last_train_line}); measured on the last {held_out_share}, {held_out_chars} characters "
        "from line {line} on. {merges} merges learned.",
        label=literal(corpus.label), train_share=percent(1 - share, 0),
        train_chars=number(len(parts.train)), last_train_line=number(last_train_line),
        held_out_share=percent(share, 0), held_out_chars=number(len(parts.held_out)),
        line=number(line), merges=number(curve.learned_merges))


def stop_notes(usable: Usable, metric: str) -> list[str]:
    """Notes (Markdown) on lines that end early, are noisy, or cannot be drawn."""
    notes = []
    for corpus, parts, curve in usable:
        label = literal(corpus.label)  # it may name the user's file
        if curve.learned_merges < curve.requested_merges:
            notes.append(_(
                "{label}'s line ends at {vocab}: after {merges} merges every chunk of its "
                "training part is one token, so there is nothing left to merge; a larger corpus "
                "goes further.", label=label, vocab=number(BYTE_VOCAB + curve.learned_merges),
                merges=number(curve.learned_merges)))
        if len(parts.held_out) < SMALL_HELD_OUT:
            notes.append(_(
                "{label}'s held-out part has only {count} characters: expect a noisy line.",
                label=label, count=number(len(parts.held_out))))
        if metric == "tokens_per_word" and not curve.space_separated:
            notes.append(_("{label} has no spaces between words: no tokens-per-word line.",
                           label=label))
    if any(corpus.key == "english" for corpus, _parts, _curve in usable):
        notes.append(_(
            "The real tokenizers (GPT-2 to o200k_base, and the open models) learned from "
            "web-scale text that probably included Python's documentation, so for them the "
            "English held-out part may not be unseen."))
    return notes


def _sized(name: str, vocab: int, asked: int | None = None) -> str:
    """A tokenizer's row label: its name and vocab size, and the size asked for when it differs."""
    if asked is None or vocab == asked:
        return _("{name}, {vocab}", name=name, vocab=number(vocab))
    return _("{name}, {vocab} (asked for {asked})", name=name, vocab=number(vocab),
             asked=number(asked))


# corpus, the row's name as plain values (family, vocab size, size asked for or None), spec, factory
Wanted = tuple[CorpusChoice, tuple[str, int, int | None], str, Callable[[], Tokenizer]]


def _wanted_rows(usable: Usable, lines: Lines, compare: int, held_out_pct: int) -> list[Wanted]:
    """(corpus, name, spec, factory) for every tokenizer of the table. Each tokenizer goes in as
    a factory: the cached measure builds it only when it is not cached yet (the real tokenizers'
    vocab sizes come with their points, so a cached table loads no vocabulary; an HF model's
    text is read from the store only then, compute.StoredHFModel). The name is said only when
    the table is built (_label): a shared table's key needs none of it in words."""
    hf, references = lines.hf, lines.references
    rows: list[Wanted] = []
    for corpus, _parts, curve in usable:
        vocab = compute.our_vocab(curve, compare)
        rows.append((corpus, ("ours", vocab, compare), f"ours:{vocab}",
                     partial(curve.tokenizer, vocab - BYTE_VOCAB)))
        for family, points in hf.get(corpus.key, {}).items():
            rows += [(corpus, (p.family, p.vocab_size, p.requested), f"hf:{family}:{compare}",
                      compute.StoredHFModel(p.family, compare, held_out_pct, corpus.text))
                     for p in points if p.requested == compare]
        for name, size, *_rest in references.get(corpus.key, []):
            # a found file's sha256 in the spec: a file changed under its name is measured anew
            spec = f"ref:{name}:{catalog.version(name)}" if catalog.version(name) else f"ref:{name}"
            rows.append((corpus, (name, size, None), spec, partial(catalog.get, name)))
    return rows


def _label(name: tuple[str, int, int | None]) -> str:
    family, vocab, asked = name
    return _sized(family_label(family), vocab, asked)


def _quality_rows(wanted: Sequence[Wanted], held_out_pct: int) -> list:
    """(corpus, tokenizer label, Quality) for every tokenizer of the table."""
    return [(corpus.label, _label(name),
             compute.quality(corpus.digest, held_out_pct, spec, make, corpus.text))
            for corpus, name, spec, make in wanted]


TEXT_COLUMNS = ("tokenizer", "corpus", "round trip", "what decoding loses")
CHAR_PX, CELL_PADDING_PX = 6.5, 20  # the grid's 14-pixel type: a generous average character


def _column_width(frame: pd.DataFrame, column: str) -> int:
    """Pixels for a text column, its title included. subtle: the grid sizes a column by its
    first rows only, so a long cell further down ("HF WordPiece, 3,036 (asked for 1,000)",
    "n/a: the line ends at 1,360") would be cut off."""
    longest = max(_text_units(str(text)) for text in [column_title(column), *frame[column]])
    return CELL_PADDING_PX + round(CHAR_PX * longest)


def _text_units(text: str) -> int:
    """Width in average characters: a wide (CJK) character counts two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _column_config(frame: pd.DataFrame) -> dict:
    config: dict = {
        "tokenizer": st.column_config.TextColumn(column_title("tokenizer"), pinned=True,
                                                 width=_column_width(frame, "tokenizer")),
        "corpus": st.column_config.TextColumn(column_title("corpus"),
                                              width=_column_width(frame, "corpus")),
    }
    for column in frame.columns:
        help_text = quality_help(column)
        if column in ("tokenizer", "corpus"):
            continue
        title = column_title(column)
        if column not in TEXT_COLUMNS and not pd.api.types.is_numeric_dtype(frame[column]):
            # numbers written as text by percent_view, beside cells that say why they are empty
            config[column] = st.column_config.TextColumn(
                title, help=help_text, width=_column_width(frame, column), alignment="right")
        elif column in PERCENT_COLUMNS:  # shown as 0-100 by percent_view
            config[column] = st.column_config.NumberColumn(title, help=help_text, format="%.1f%%")
        elif column in ("tokens", "vocab size", "unseen words"):
            config[column] = st.column_config.NumberColumn(title, help=help_text,
                                                           format="localized")
        elif frame[column].dtype.kind == "f":
            config[column] = st.column_config.NumberColumn(title, help=help_text, format="%.2f")
        else:
            config[column] = st.column_config.TextColumn(title, help=help_text)
    return config


def quality_section(usable: Usable, lines: Lines, compare: int, held_out_pct: int,
                    curve_points: pd.DataFrame) -> None:
    """The quality table at one vocab size, for every corpus, with CSV downloads."""
    st.subheader(_("Quality at {vocab} vocab, on the held-out text", vocab=number(compare)))
    big = presentation_mode()  # a static table takes the page's large type; the grid does not
    st.caption(
        _("Ours and the HF and SentencePiece models at the size chosen above (a model may stop "
          "short of it on a small corpus), and the real tokenizers at theirs.") if big else
        _("Ours and the HF and SentencePiece models at the size chosen above (a model may stop "
          "short of it on a small corpus), and the real tokenizers at theirs. Hover a column "
          "title for its meaning.")
    )
    wanted = _wanted_rows(usable, lines, compare, held_out_pct)
    # the table and its views, built once for every session (shared.py), keyed by plain values
    key = ("quality", current_language(), big,
           tuple((corpus.digest, held_out_pct, spec, corpus.label, name)
                 for corpus, name, spec, _make in wanted))
    table = shared.tables().get(key, lambda: _quality_table(wanted, held_out_pct, big))
    frame = table.frame
    missing = [note for sizes, note in lines.missing.values() if compare in sizes]
    if missing:  # where the rows would be: a trainer that refused this size has none
        st.caption("\n".join("- " + _("Not in the table: {note}", note=note) for note in missing))
    if big:
        st.table(table.projector)
        st.caption(_("Presentation mode shows the key columns; the CSV has every number."))
    else:
        tabs = st.tabs([_(name) for name in QUALITY_TABS])
        for tab, view in zip(tabs, table.tabs):
            with tab:
                _quality_tab(view)
    left, right = st.columns(2)
    csv_download(left, _("Download this table (CSV)"), frame, f"compression-quality-{compare}.csv",
                 key="cp_download_quality")
    csv_download(right, _("Download every curve point (CSV)"), curve_points,
                 "compression-curves.csv", key="cp_download_curves")


@dataclass(frozen=True)
class TabView:
    """One tab of the quality grid, ready to draw: the notes above it, its frame as the grid
    shows it, the note on what decoding loses under it (each None when there is none)."""

    notes: str | None
    view: pd.DataFrame | None
    lossy: str | None


@dataclass(frozen=True)
class QualityTable:
    """The quality table (every number, for the CSV) and what the page draws of it: the grid's
    tabs, or in presentation mode the static table of the key columns."""

    frame: pd.DataFrame
    tabs: tuple[TabView, ...] = ()
    projector: pd.DataFrame | None = None


def _quality_table(wanted: Sequence[Wanted], held_out_pct: int, big: bool) -> QualityTable:
    frame = quality_frame(_quality_rows(wanted, held_out_pct))
    if big:
        return QualityTable(frame, projector=_static_frame(projector_view(frame)))
    return QualityTable(frame, tabs=tuple(_tab_view(frame, columns)
                                          for columns in QUALITY_TABS.values()))


def _static_table(frame: pd.DataFrame) -> None:
    st.table(_static_frame(frame))


def _static_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as st.table shows it. st.table reads Markdown in every cell and header: corpus
    names and the reasons quoting them are user text, so all of it goes through literal()."""
    frame = frame.copy()
    if "corpus" in frame:  # a short Chinese name must not wrap a character a line ("英/文")
        frame["corpus"] = [_unbroken(str(name)) for name in frame["corpus"]]
    shown = frame.map(literal).rename(
        index=literal, columns=lambda c: literal(_unbroken(column_title(c)) if c == "corpus"
                                                 else column_title(c)))
    shown.index.name = literal(column_title(frame.index.name)) if frame.index.name else None
    return shown


SHORT_NAME = 8  # characters: a corpus name this short is kept on one line in a static table


def _unbroken(text: str) -> str:
    """`text` with word joiners between its characters when it is short and has wide (CJK)
    ones: a browser may break a line between any two Chinese characters, and squeezes a narrow
    column of a static table to one character a line."""
    if len(text) > SHORT_NAME or not any(_text_units(ch) == 2 for ch in text):
        return text
    return WORD_JOINER.join(text)


def _tab_view(frame: pd.DataFrame, columns: Sequence[str]) -> TabView:
    """One tab of the quality grid: tokenizer, corpus and `columns`. The per-word tab leaves out
    the corpora that have no words to count, and says so; the round-trip tab says in words what
    a lossy round trip loses (too long for a cell)."""
    notes = None
    rows = frame
    if "words kept whole" in columns:
        rows, notes = _word_rows(frame)
    view = None
    if not rows.empty:
        view = percent_view(rows.reset_index(drop=True)).loc[:, ["tokenizer", "corpus", *columns]]
    lossy = None
    if "round trip" in columns:
        lost = rows[rows["round trip"] != "OK"]
        lines = ["- " + _("{model} on {label}: {lost}", model=literal(t),
                          label=literal(c), lost=literal(what))
                 for t, c, what in zip(lost["tokenizer"], lost["corpus"],
                                       lost["what decoding loses"])]
        if lines:
            lossy = _("What decoding loses:") + "\n" + "\n".join(lines)
    return TabView(notes, view, lossy)


def _quality_tab(tab: TabView) -> None:
    if tab.notes is not None:
        st.caption(tab.notes)
    if tab.view is not None:
        view = tab.view
        st.dataframe(view, hide_index=True, width="stretch", height="content",
                     column_config=_column_config(view))
    if tab.lossy is not None:
        st.caption(tab.lossy)


def _word_rows(frame: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The rows with per-word numbers, and a note per corpus: how many of its held-out words its
    training part never has (the same for every tokenizer), or why it has no per-word numbers."""
    notes = []
    for corpus, part in frame.groupby("corpus", sort=False):
        name = literal(str(corpus))  # it may name the user's file
        if has_spaces(part.iloc[0]):
            unseen = int(part["unseen words"].iloc[0])
            notes.append(_("{label}: {count} words of its held-out part never occur in its "
                           "training part (the unseen words).", label=name,
                           count=number(unseen)))
        else:
            notes.append(_("{label} has no spaces between words: no per-word numbers.",
                           label=name))
    rows = frame[frame.apply(has_spaces, axis=1).to_numpy(dtype=bool)]
    return rows, "\n".join(f"- {note}" for note in notes)


def doubling_section(curves: Sequence[tuple[str, CompressionCurve]], vocab: int, big: bool) -> None:
    st.subheader(_("What each doubling buys"))
    st.caption(_("Share of held-out tokens saved by each (roughly) doubled vocabulary, on our "
                 "line: the returns shrink as the vocabulary grows."))
    frame = doubling_frame(curves, [s for s in (BYTE_VOCAB, *HF_SIZES) if s <= vocab])
    if big:  # a static table takes the page's large type
        _static_table(frame.set_index(DOUBLING_STEP))
    else:
        st.dataframe(frame, hide_index=True, width="content", column_config={
            DOUBLING_STEP: st.column_config.TextColumn(column_title(DOUBLING_STEP)),
            **{c: st.column_config.TextColumn(c, alignment="right", width=_column_width(frame, c))
               for c in frame.columns if c != DOUBLING_STEP}})


def draw_chart(slot, rows: list[dict], metric: str, compare: int, big: bool,
               key: str) -> pd.DataFrame:
    """Draw (or redraw, under another key) the curve chart into `slot`; returns its frame
    (read-only: it is shared, built once for every session, shared.py)."""
    frame, figure = shared.chart(rows, metric, compare, big)
    if figure is None:
        slot.info(_("Tokens per word needs text with spaces between words; pick English, code "
                    "or emoji."), icon="ℹ️")
    else:
        slot.plotly_chart(figure, width="stretch", config={"displaylogo": False}, key=key)
    return frame
