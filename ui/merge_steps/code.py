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
from ui.common.i18n import N_, _
from ui.common.page_state import KEEP

REPO = Path(__file__).resolve().parents[2]

# label (English, the widget's value) -> (what to say about it, the functions shown); both
# translated where shown
LISTINGS: dict[str, tuple[str, tuple[Callable, ...]]] = {
    N_("BPE training: the textbook loop"): (
        N_("Count every adjacent pair, merge the most frequent everywhere, repeat. `max` over a dict "
        "filled in reading order is what makes ties go to the pair met first."),
        (textbook.count_pairs, textbook.merge_pair, textbook.textbook_train),
    ),
    N_("BPE training: the fast trainer this page runs"): (
        N_("Same merges, ties included (a test checks it merge for merge against the loop above); "
        "it only recounts the pairs a merge touched and keeps the best pair in a heap."),
        (bpe_train.train_bpe, bpe_train._Trainer.best_pair, bpe_train._Trainer.merge),
    ),
    N_("Encoding: lowest rank first"): (
        N_("What the encode replay shows: join the adjacent pair with the lowest merge rank, the "
        "leftmost on ties, until no pair has a rank."),
        (merge.merge_traced,),
    ),
    N_("WordPiece training: the score"): (
        N_("WordPiece picks the pair with the best score, not the most frequent one."),
        (wordpiece_train.pair_score, wordpiece_train.textbook_wordpiece),
    ),
    N_("WordPiece encoding: longest match first"): (
        N_("At each position the longest piece in the vocabulary (## after the first); if none "
        "fits, the whole word is [UNK]."),
        (wordpiece.WordPieceTokenizer._longest_match_first,),
    ),
    N_("This page's narration"): (
        N_("The sentences above come from these functions, fed by the training trace."),
        (lesson.build_lesson, narration.narrate_merge, narration.why_winner),
    ),
}


def where(function: Callable) -> str:
    lines, first = inspect.getsourcelines(function)
    path = Path(inspect.getsourcefile(function) or "").resolve()
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path.name
    return _("{path}, lines {first}–{last}", path=str(shown), first=first,
             last=first + len(lines) - 1)


def code_ui() -> None:
    choice = st.selectbox(_("Show"), list(LISTINGS), key="ms_code", persist_state=KEEP,
                          format_func=lambda v: _(v))
    about, functions = LISTINGS[choice]
    st.caption(_("{about} Read live from the code this app runs.", about=_(about)))
    for function in functions:
        st.markdown(f"`{function.__qualname__}` · {where(function)}")
        st.code(inspect.getsource(function), language="python", line_numbers=True)
