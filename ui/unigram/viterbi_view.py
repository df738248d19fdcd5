"""The lattice tab: a word or short text you type, its lattice and Viterbi path, the dp table,
where the lesson's "0 means unset" shortcut breaks, the n-best list and a sampled segmentation.

At the word level the model segments `▁word` per word; the text is drawn as one sequence,
`▁` before every word (SentencePiece's way), which gives exactly the per-word Viterbi paths:
no piece holds a `▁` past its first character, so no arc crosses a word's start.
"""

from __future__ import annotations

import inspect
import math
import random
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.lessons.viterbi_shortcut import ShortcutNote, compare_shortcut, lesson_viterbi
from tokenizer_core.models.unigram import (
    WORD_START,
    Segmentation,
    UnigramModel,
    ViterbiTrace,
    viterbi_textbook,
)
from ui.common.i18n import _, current_language, ngettext, number
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.unigram import data
from ui.unigram.lattice import dp_frame, lattice_figure
from ui.unigram.limits import ALPHAS, MAX_LATTICE_CHARS, MAX_SEED, NBEST
from ui.unigram.source import Settings
from ui.unigram.tables import table_height


def nbest_columns() -> dict:
    return {
        _("rank"): st.column_config.NumberColumn(width="small"),
        _("segmentation"): st.column_config.TextColumn(width="large"),
        "log p": st.column_config.NumberColumn(width="small", format="%.3f"),
        "p": st.column_config.TextColumn(width="small"),
        "tokens": st.column_config.NumberColumn(width="small"),
    }


@dataclass(frozen=True)
class LatticeView:
    sequence: str
    trace: ViterbiTrace
    figure: go.Figure
    table: pd.DataFrame
    nbest: list[Segmentation]
    shortcut: ShortcutNote


def as_sequence(model: UnigramModel, text: str) -> str:
    """What the model segments: `▁` before every word at the word level, else the line."""
    if model.level == "word":
        return "".join(WORD_START + word for word in text.split())
    return text.replace("\n", " ")


def build_view(model: UnigramModel, text: str, big: bool = False) -> LatticeView:
    """Everything the tab draws for one text (uncached: the benchmark times this)."""
    sequence = as_sequence(model, text)
    trace = model.viterbi(sequence)
    shortcut = compare_shortcut(model, sequence)
    lesson_dp = shortcut.lesson.dp if shortcut.agreement != "same" else None
    return LatticeView(
        sequence, trace, lattice_figure(sequence, model.lattice(sequence), trace, big),
        dp_frame(trace, lesson_dp), model.nbest(sequence, NBEST), shortcut,
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def view_of(corpus: str, vocab_size: int, shrink_share: float, text: str, big: bool,
            lang: str) -> LatticeView:
    return build_view(data.model_of(corpus, vocab_size, shrink_share), text, big)


def check_text(text: str) -> tuple[str, str] | None:
    """(kind, message) when the text cannot be drawn: empty, or over the bound."""
    if not text.split():
        return "info", _("Type a word or a short text above to see its lattice.")
    if len(text) > MAX_LATTICE_CHARS:
        return "error", _("Your text has {chars} characters; the lattice draws up to {bound} "
                          "(every position is a column). Shorten it: your text is kept.",
                          chars=number(len(text)), bound=number(MAX_LATTICE_CHARS))
    return None


def _cut(pieces: tuple[str, ...]) -> str:
    return " · ".join(pieces)


def _shortcut_note(note: ShortcutNote) -> None:
    """The lesson's shortcut, where it really differs on this text."""
    lesson = note.lesson
    if note.agreement == "same":
        st.caption(_("The lesson's `viterbi_segment` (dp starts at 0, \"0 means unset\") finds "
                     "the same path here: every position is reachable and every score is below "
                     "0."))
        return
    if note.agreement == "breaks":
        phantoms = ", ".join(str(i) for i in lesson.phantoms[:8])
        st.warning(_(
            "**The lesson's \"0 means unset\" shortcut breaks on this text.** No piece of the "
            "vocabulary reaches position(s) {phantoms}: a character it never saw. The lesson "
            "leaves dp = 0 there, which reads as probability 1, so the path through it looks "
            "best; walking back it meets back[{broken}] = None and fails. Ours starts unset "
            "positions at −∞ and spells an unseen character with `<unk>`: {ours}. Compare the "
            "two dp columns in the table.", phantoms=phantoms, broken=lesson.broken_at,
            ours=literal(_cut(note.ours))), icon="⚠️")
        return
    st.warning(_("**The lesson's shortcut finds a different path here:** {theirs} instead of "
                 "{ours}: a score of exactly 0 (probability 1) was taken for \"unset\" and "
                 "overwritten.", theirs=literal(_cut(lesson.pieces or ())),
                 ours=literal(_cut(note.ours))), icon="⚠️")


def _nbest_frame(nbest: list[Segmentation]) -> pd.DataFrame:
    return pd.DataFrame({
        _("rank"): range(1, len(nbest) + 1),
        _("segmentation"): [_cut(s.pieces) for s in nbest],
        "log p": [round(s.score, 3) for s in nbest],
        "p": [f"{math.exp(s.score):.3g}" for s in nbest],
        "tokens": [len(s.pieces) for s in nbest],
    })


def _next_seed() -> None:
    st.session_state["ug_seed"] = (int(st.session_state.get("ug_seed", 0)) + 1) % (MAX_SEED + 1)


def _sample_ui(model: UnigramModel, sequence: str) -> None:
    st.subheader(_("Sample a segmentation (subword regularization)"))
    st.caption(_("Training with sampled cuts instead of the best one shows a model many ways to "
                 "spell the same word. A segmentation is drawn with probability ∝ "
                 "p(segmentation)^alpha: small alpha spreads the choice, large alpha sticks to "
                 "Viterbi."))
    left, right = st.columns([1, 3])
    alpha = left.select_slider("alpha", ALPHAS, key="ug_alpha", persist_state=KEEP)
    left.button(_("🎲 Sample a segmentation"), key="ug_sample", on_click=_next_seed)
    seed = int(st.session_state.get("ug_seed", 0))
    drawn = model.sample(sequence, random.Random(seed), float(alpha))
    right.markdown(_("**seed {seed}, alpha {alpha}:** {pieces}", seed=seed, alpha=alpha,
                     pieces=literal(_cut(drawn.pieces))) + "  \n"
                   + _("log p = {score} · {tokens}", score=number(drawn.score, 3),
                       tokens=ngettext("{n} token", "{n} tokens", len(drawn.pieces))))
    best = model.viterbi(sequence)
    right.caption(_("Viterbi (the best): {pieces} · log p = {score}",
                    pieces=literal(_cut(best.pieces)), score=number(best.score, 3)))


def lattice_ui(settings: Settings, big: bool) -> None:
    st.text_input(_("A word or short text"), key="ug_text", persist_state=KEEP,
                  help=_("Up to {n} characters. Try a word with a character the corpus never "
                         "saw (ꙮ) to see the lesson's shortcut break.",
                         n=number(MAX_LATTICE_CHARS)))
    text = str(st.session_state.get("ug_text", ""))
    problem = check_text(text)
    if problem:
        kind, message = problem
        (st.info if kind == "info" else st.error)(message, icon="✍️" if kind == "info" else "⚠️")
        return
    view = view_of(settings.corpus, settings.vocab_size, settings.shrink_share, text, big,
                   current_language())
    st.markdown(_("**Viterbi path:** {pieces} · log p = {score}",
                  pieces=literal(_cut(view.trace.pieces)), score=number(view.trace.score, 3)))
    st.caption(_("Columns are positions; each arc is a piece that matches between two positions, "
                 "labelled with its log probability; the Viterbi path in red. Press ▶ or drag "
                 "the slider to fill the dp row: at step i the arcs ending at i turn orange (the "
                 "candidates), the best one green: dp[i] = max over arcs j→i of dp[j] + "
                 "log p(text[j:i]), and the back-pointer ←j says where that last piece starts. "
                 "Drag the chart sideways along a long text."))
    st.plotly_chart(view.figure, key="ug_lattice", config={"scrollZoom": False})
    _shortcut_note(view.shortcut)
    with st.expander(_("Show me the code: the textbook programme, and the lesson's shortcut")):
        st.caption(_("The real functions (inspect.getsource), not copies: the page's Viterbi "
                     "(UnigramModel.viterbi) reaches the same best score, tested on random "
                     "text."))
        st.code(inspect.getsource(viterbi_textbook), language="python")
        st.code(inspect.getsource(lesson_viterbi), language="python")
    # one above the other, full width: side by side at 1280 px the segmentations and their
    # log p were cut; and the n-best table as tall as its rows, every one shown
    found = len(view.nbest)
    st.subheader(_("The {n} best segmentations", n=number(NBEST)) if found == NBEST
                 else _("All {n} segmentations", n=number(found)) if found > 1
                 else _("The only segmentation"))
    show_table(_nbest_frame(view.nbest), hide_index=True, width="stretch",
                 height=table_height(found), column_config=nbest_columns())
    st.subheader(_("The dp table"))
    show_table(view.table, hide_index=True, height=min(table_height(len(view.table)), 320),
                 width="stretch")
    _sample_ui(data.model_of(settings.corpus, settings.vocab_size, settings.shrink_share),
               view.sequence)
