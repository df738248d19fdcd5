""""Show me the code": the core's real functions, read with inspect.getsource (never a copy)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Callable

import streamlit as st

from tokenizer_core.lessons import bpe_steps as lesson
from tokenizer_core.lessons import narration
from tokenizer_core.models import merge, wordpiece
from tokenizer_core.trainers import bpe as bpe_train
from tokenizer_core.trainers import textbook
from tokenizer_core.trainers import wordpiece as wordpiece_train
from ui.common.page_state import KEEP

REPO = Path(__file__).resolve().parents[2]

# label -> (what to say about it, the functions shown, in reading order)
LISTINGS: dict[str, tuple[str, tuple[Callable, ...]]] = {
    "BPE training: the textbook loop": (
        "Count every adjacent pair, merge the most frequent everywhere, repeat. `max` over a dict "
        "filled in reading order is what makes ties go to the pair met first.",
        (textbook.count_pairs, textbook.merge_pair, textbook.textbook_train),
    ),
    "BPE training: the fast trainer this page runs": (
        "Same merges, ties included (a test checks it merge for merge against the loop above); "
        "it only recounts the pairs a merge touched and keeps the best pair in a heap.",
        (bpe_train.train_bpe, bpe_train._Trainer.best_pair, bpe_train._Trainer.merge),
    ),
    "Encoding: lowest rank first": (
        "What the encode replay shows: join the adjacent pair with the lowest merge rank, the "
        "leftmost on ties, until no pair has a rank.",
        (merge.merge_traced,),
    ),
    "WordPiece training: the score": (
        "WordPiece picks the pair with the best score, not the most frequent one.",
        (wordpiece_train.pair_score, wordpiece_train.textbook_wordpiece),
    ),
    "WordPiece encoding: longest match first": (
        "At each position the longest piece in the vocabulary (## after the first); if none "
        "fits, the whole word is [UNK].",
        (wordpiece.WordPieceTokenizer._longest_match_first,),
    ),
    "This page's narration": (
        "The sentences above come from these functions, fed by the training trace.",
        (lesson.build_lesson, narration.narrate_merge, narration.why_winner),
    ),
}


def where(function: Callable) -> str:
    lines, first = inspect.getsourcelines(function)
    path = Path(inspect.getsourcefile(function) or "").resolve()
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path.name
    return f"{shown}, lines {first}–{first + len(lines) - 1}"


def code_ui() -> None:
    choice = st.selectbox("Show", list(LISTINGS), key="ms_code", persist_state=KEEP)
    about, functions = LISTINGS[choice]
    st.caption(about + " Read live from the code this app runs.")
    for function in functions:
        st.markdown(f"`{function.__qualname__}` · {where(function)}")
        st.code(inspect.getsource(function), language="python", line_numbers=True)
