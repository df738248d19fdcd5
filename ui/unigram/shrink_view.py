"""The shrinking-vocabulary tab: train with a progress bar (once per settings), then the rounds
chart and every removal in a table."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.trainers.unigram import UnigramTraining
from ui.common.i18n import N_, _, current_language, number
from ui.common.table_view import show_table
from ui.unigram import data
from ui.unigram.limits import MAX_CORPUS_CHARS, MAX_VOCAB
from ui.unigram.shrink import removals_frame, rounds_frame, shrink_figure
from ui.unigram.source import Settings, corpus_label
from ui.unigram.tables import table_height

# The tables' headers as shown (the frames' own columns stay English)
ROUND_HEADERS = {"round": N_("round"), "pieces": N_("pieces"),
                 "log-likelihood": N_("log-likelihood"), "pruned": N_("pruned"),
                 "left after": N_("left after")}
REMOVAL_HEADERS = {"round": N_("round"), "piece": N_("piece"), "Viterbi uses": N_("Viterbi uses"),
                   "loss": N_("loss")}


def _headed(frame, headers: dict[str, str]):
    return frame.rename(columns={c: _(h) for c, h in headers.items()})


def round_columns() -> dict:
    return {
        _("pieces"): st.column_config.NumberColumn(
            format="localized",
            help=_("Pieces re-estimated this round, <unk> included (round 0: the seed and "
                   "<unk>)")),
        _("log-likelihood"): st.column_config.NumberColumn(format="%.1f"),
        _("pruned"): st.column_config.NumberColumn(format="localized"),
        _("left after"): st.column_config.NumberColumn(format="localized"),
    }


def stop_reason(training: UnigramTraining) -> str:
    """Why the training stopped, in the session's language (what training.stop_reason says)."""
    if training.vocab_size < training.requested_size:
        return _("the seed had only {seed} pieces (characters and substrings seen twice); the "
                 "vocabulary has {size}, not the {asked} asked for",
                 seed=number(training.vocab_size - 1), size=number(training.vocab_size),
                 asked=number(training.requested_size))
    return _("reached the {asked} pieces asked for in {rounds} rounds",
             asked=number(training.requested_size), rounds=number(len(training.rounds)))


def train_with_progress(settings: Settings) -> UnigramTraining:
    """The cached training (its bar moves the first time), then one line saying what it did."""
    training = data.training_of(settings.corpus, settings.vocab_size, settings.shrink_share)
    # subtle: the seed does not hold <unk>, every vocabulary size shown does (the target too)
    st.caption(_("✔ Our Unigram, trained on {corpus}: {start} pieces to start ({seed} seed "
                 "pieces and <unk>) → {size} in {rounds} rounds, <unk> counted in every size.",
                 corpus=corpus_label(settings.corpus), start=number(training.seed_size + 1),
                 seed=number(training.seed_size), size=number(training.vocab_size),
                 rounds=number(len(training.rounds))))
    return training


@st.cache_resource(max_entries=12, show_spinner=False)
def figure_of(corpus: str, vocab_size: int, shrink_share: float, big: bool,
              lang: str) -> go.Figure:
    return shrink_figure(data.training_of(corpus, vocab_size, shrink_share), big)


def shrink_ui(settings: Settings, training: UnigramTraining, big: bool) -> None:
    st.caption(_(
        "Each round re-estimates every piece's probability (EM), then prunes the share of "
        "pieces whose removal costs the corpus log-likelihood least: loss = Viterbi uses × "
        "(log p(piece) − log p(its best cut without it)). Single characters are never pruned. "
        "Press ▶ or drag the slider to step the rounds. Bounded: corpora up to {chars} "
        "characters, up to {pieces} pieces.", chars=number(MAX_CORPUS_CHARS),
        pieces=number(MAX_VOCAB)))
    st.plotly_chart(figure_of(settings.corpus, settings.vocab_size, settings.shrink_share, big,
                              current_language()), key="ug_shrink")
    st.caption(_("Stopped: {reason}. The last round only re-estimates.",
                 reason=stop_reason(training)))
    # one above the other: side by side at 1280 px the round table lost its last column
    rounds = rounds_frame(training)
    st.subheader(_("Round by round"))
    show_table(_headed(rounds, ROUND_HEADERS), hide_index=True, width="stretch",
                 height=table_height(len(rounds)), column_config=round_columns())
    st.subheader(_("Every piece pruned"))
    show_table(_headed(removals_frame(training), REMOVAL_HEADERS), hide_index=True, height=300,
                 width="stretch")
