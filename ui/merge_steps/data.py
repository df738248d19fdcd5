"""What the Merge steps page computes, cached by plain values so a step change retrains nothing.

Keys are (corpus key, level, merges, tie-break) and text hashes, and the language for what
holds words (the player's trace, the overview); the corpus itself rides along
as an unhashed `_raw` argument, which the corpus key names uniquely (a preset or sample id, or
the sha256 of the user's text).

Subtle: these use `st.cache_resource`, not `st.cache_data`. The results are frozen dataclasses
that nobody mutates, and cache_data would unpickle a whole training (every step, every
candidate) on each rerun, which alone can cost more than the 0.1 s a step change may take.
"""

from __future__ import annotations

import json
from typing import Mapping

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from tokenizer_core import ByteLevelBPE, Corpus
from tokenizer_core.lessons.bpe_steps import Lesson
from tokenizer_core.lessons.wordpiece_replay import RaceView, race_steps
from tokenizer_core.levels import Level
from tokenizer_core.measure.merge_prefix import model_with_first, training_token_counts
from tokenizer_core.models.char_bpe import CharLevelBPE
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.trainers.wordpiece import bert_word_counts, train_wordpiece, wordpiece_corpus
from tokenizer_core.workers import Job
from ui.common import workers
from ui.common.i18n import _, current_language
from ui.merge_steps.charts import overview_figure
from ui.merge_steps.limits import TOP_CANDIDATES
from ui.merge_steps.player import player_payload, script_html
from ui.merge_steps.source import Source, build_corpus
from ui.merge_steps.tables import MERGES_HEADERS, headed, merges_frame, overview_frame

Raw = str | Mapping[str, int]
Model = CharLevelBPE | ByteLevelBPE


@st.cache_resource(max_entries=24, show_spinner=False)
def corpus_of(key: str, level: Level, _raw: Raw) -> Corpus:
    return build_corpus(_raw, level)


@st.cache_resource(max_entries=24, show_spinner=False)
def lesson_of(key: str, level: Level, merges: int, tie_break: str, _raw: Raw) -> Lesson:
    """Train with every step's candidates and history, and tell each step. The core refuses
    (ValueError) a history too big to keep; training stops if the tab closes or a rerun replaces
    the run meanwhile (its worker is killed)."""
    # In a worker process (ui/common/workers.py): the training's second of pure Python never
    # holds the server's interpreter lock; the corpus goes there and the lesson comes back.
    job = Job("tokenizer_core.jobs:bpe_lesson",
              (corpus_of(key, level, _raw), merges, tie_break, TOP_CANDIDATES))
    return workers.run(job)


def lesson(source: Source) -> Lesson:
    with st.spinner(_("Training…")):  # shown only if it takes a while: a cached lesson does not
        return lesson_of(*source.cache_key, source.raw)


@st.cache_resource(max_entries=64, show_spinner=False)
def model_at(key: str, level: Level, merges: int, tie_break: str, k: int, _raw: Raw) -> Model:
    """The model made of the first k merges only."""
    return model_with_first(lesson_of(key, level, merges, tie_break, _raw).training, k)


def model(source: Source) -> Model:
    """The model of the whole training: its first k merges with k = every merge it learned."""
    learned = len(lesson(source).training.steps)
    return model_at(*source.cache_key, learned, source.raw)


@st.cache_data(max_entries=64, show_spinner=False)
def prefix_counts(key: str, level: Level, merges: int, tie_break: str, text: str,
                  _raw: Raw) -> list[int]:
    """Token count of `text` with the first k merges, k = 0..all (ValueError: unseen character)."""
    return training_token_counts(lesson_of(key, level, merges, tie_break, _raw).training, text)


@st.cache_resource(max_entries=16, show_spinner=False)
def race_of(key: str, level: Level, merges: int, tie_break: str, score: str,
            _raw: Raw) -> RaceView:
    """BPE and WordPiece on the same `</w>` words (the word level of the same corpus)."""
    return race_steps(corpus_of(key, "word", _raw), merges, score, tie_break, TOP_CANDIDATES)


@st.cache_resource(max_entries=16, show_spinner=False)
def wordpiece_of(key: str, merges: int, _raw: Raw) -> WordPieceTokenizer:
    """WordPiece trained with its own `##` split on the corpus's words, cut as its encoding cuts
    them (punctuation apart), so every word of the corpus encodes without [UNK]."""
    words = _raw if isinstance(_raw, Mapping) else bert_word_counts(_raw)
    training = train_wordpiece(wordpiece_corpus(build_corpus(words, "word")), merges)
    return WordPieceTokenizer.from_training(training, name="WordPiece trained here")


@st.cache_resource(max_entries=24, show_spinner=False)
def trace_json_of(key: str, level: Level, merges: int, tie_break: str, lang: str,
                  _raw: Raw) -> str:
    """The player's trace for one training as a JSON string, built once.

    Subtle: a string, not a dict. Streamlit serializes the component's data twice per rerun
    (the message and the element's identity); one long string costs a fraction of a nested
    structure, and the browser parses the trace only when it changes.
    """
    payload = player_payload(lesson_of(key, level, merges, tie_break, _raw))
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def trace_json(source: Source) -> str:
    return trace_json_of(*source.cache_key, current_language(), source.raw)


def trace_id(source: Source) -> str:
    """Names one training's trace in one language: the player parses a trace again only when
    this changes."""
    return "|".join(map(str, (*source.cache_key, current_language())))


@st.cache_resource(max_entries=24, show_spinner=False)
def overview_of(
    key: str, level: Level, merges: int, tie_break: str, big: bool, lang: str, _raw: Raw
) -> tuple[go.Figure, pd.DataFrame, str]:
    """The overview chart, the merges table and the lesson script (HTML) of one training, built
    once and never mutated."""
    lesson = lesson_of(key, level, merges, tie_break, _raw)
    return (overview_figure(overview_frame(lesson), big),
            headed(merges_frame(lesson), MERGES_HEADERS), script_html(lesson))


def overview(source: Source, big: bool) -> tuple[go.Figure, pd.DataFrame, str]:
    return overview_of(*source.cache_key, big, current_language(), source.raw)
