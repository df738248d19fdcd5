"""The shrinking-vocabulary tab: train with a progress bar (once per settings), then the rounds
chart and every removal in a table."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from tokenizer_core.trainers.unigram import UnigramTraining
from ui.unigram import data
from ui.unigram.limits import MAX_CORPUS_CHARS, MAX_VOCAB
from ui.unigram.shrink import removals_frame, rounds_frame, shrink_figure
from ui.unigram.source import CORPORA, Settings


def train_with_progress(settings: Settings) -> UnigramTraining:
    """The cached training (its bar moves the first time), then one line saying what it did."""
    training = data.training_of(settings.corpus, settings.vocab_size, settings.shrink_share)
    st.caption(f"✔ Our Unigram, trained on {CORPORA[settings.corpus]}: {training.seed_size:,} "
               f"seed pieces → {training.vocab_size:,} in {len(training.rounds)} rounds.")
    return training


@st.cache_resource(max_entries=12, show_spinner=False)
def figure_of(corpus: str, vocab_size: int, shrink_share: float, big: bool) -> go.Figure:
    return shrink_figure(data.training_of(corpus, vocab_size, shrink_share), big)


def shrink_ui(settings: Settings, training: UnigramTraining, big: bool) -> None:
    st.caption(
        "Each round re-estimates every piece's probability (EM), then prunes the share of "
        "pieces whose removal costs the corpus log-likelihood least: loss = Viterbi uses × "
        "(log p(piece) − log p(its best cut without it)). Single characters are never pruned. "
        "Press ▶ or drag the slider to step the rounds. "
        f"Bounded: corpora up to {MAX_CORPUS_CHARS:,} characters, up to {MAX_VOCAB:,} pieces."
    )
    st.plotly_chart(figure_of(settings.corpus, settings.vocab_size, settings.shrink_share, big),
                    key="ug_shrink")
    st.caption(f"Stopped: {training.stop_reason}. The last round only re-estimates.")
    left, right = st.columns([2, 3])
    with left:
        st.subheader("Round by round")
        st.dataframe(rounds_frame(training), hide_index=True, width="stretch")
    with right:
        st.subheader("Every piece pruned")
        st.dataframe(removals_frame(training), hide_index=True, height=300, width="stretch")
