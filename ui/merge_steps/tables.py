"""Pandas tables for the Merge steps page: the merges learned, BPE vs WordPiece, counts by k.

Pure functions from core records to DataFrames; symbols are written as the narration writes
them (bytes as `<E4 BD>`), so tables, charts and sentences agree.
"""

from __future__ import annotations

import pandas as pd

from tokenizer_core.lessons.bpe_steps import Lesson
from tokenizer_core.lessons.narration import pair_text
from tokenizer_core.lessons.wordpiece_replay import RaceView
from tokenizer_core.trace import Candidate
from ui.common.i18n import N_, _
from ui.merge_steps.player import shown

# The merges table's headers as the page shows them (the frame's own columns stay English)
MERGES_HEADERS = {
    "merge": N_("merge"), "pair": N_("pair"), "new token": N_("new token"), "count": N_("count"),
    "pairs tied": N_("pairs tied"), "vocab size": N_("vocab size"),
    "corpus tokens": N_("corpus tokens"),
}
RACE_HEADERS = {
    "step": N_("step"), "BPE merges": N_("BPE merges"), "count(ab)": "count(ab)",
    "WordPiece merges": N_("WordPiece merges"), "score": N_("score"), "same?": N_("same?"),
}
SAME = {"same": N_("same"), "differs": N_("differs")}


def headed(frame: pd.DataFrame, headers: dict[str, str]) -> pd.DataFrame:
    """The frame with its headers in the session's language, for the screen."""
    return frame.rename(columns={c: _(h) if h else c for c, h in headers.items()})


def merges_frame(lesson: Lesson) -> pd.DataFrame:
    """One row per merge: the merges table a class copies down. Where spaces are part of tokens
    (sentence and byte level) the new token shows them as the token views do (` a` as `·a`)."""
    visible = lesson.corpus.level != "word"
    return pd.DataFrame.from_records(
        [
            {
                "merge": told.step.rank + 1,
                "pair": pair_text(told.step.pair),
                "new token": shown(told.step.new_token, visible),
                "count": told.step.count,
                "pairs tied": told.step.ties,
                "vocab size": told.step.vocab_size,
                "corpus tokens": told.tokens_after,
            }
            for told in lesson.steps
        ],
        columns=["merge", "pair", "new token", "count", "pairs tied", "vocab size",
                 "corpus tokens"],
    )


def overview_frame(lesson: Lesson) -> pd.DataFrame:
    """Step 0..n: vocabulary size, corpus length, and the count of the pair merged."""
    training = lesson.training
    start = len(training.special_tokens) + len(lesson.corpus.alphabet)
    rows = [{"step": 0, "vocab size": start, "corpus tokens": lesson.tokens_before,
             "count": None, "ties": None, "pair": ""}]
    for told in lesson.steps:
        rows.append({"step": told.step.rank + 1, "vocab size": told.step.vocab_size,
                     "corpus tokens": told.tokens_after, "count": told.step.count,
                     "ties": told.step.ties, "pair": pair_text(told.step.pair)})
    return pd.DataFrame.from_records(rows)


def _choice(pair: tuple[str, str] | None) -> str:
    return pair_text(pair) if pair is not None else _("(stopped)")


def race_frame(view: RaceView) -> pd.DataFrame:
    """Both rules' merge at each step, and whether they agree."""
    rows = []
    for k, (b, w) in enumerate(view.choices):
        bpe_step = view.bpe.steps[k] if k < len(view.bpe.steps) else None
        wp_step = view.wordpiece.steps[k] if k < len(view.wordpiece.steps) else None
        rows.append({
            "step": k + 1,
            "BPE merges": _choice(b),
            "count(ab)": bpe_step.count if bpe_step else None,
            "WordPiece merges": _choice(w),
            "score": round(wp_step.score, 5) if wp_step else None,
            "same?": "same" if b == w else "differs",
        })
    return pd.DataFrame.from_records(
        rows, columns=["step", "BPE merges", "count(ab)", "WordPiece merges", "score", "same?"]
    )


def _flag(i: int, c: Candidate, top: Candidate) -> int:
    return 2 if i == 0 else 1 if c.score == top.score else 0


def race_candidates_frame(view: RaceView) -> pd.DataFrame:
    """Every step's top pairs under each rule, with count(ab), count(a), count(b), the score and
    N (`total`, WordPiece's symbols at that step, for the likelihood's formula)."""
    rows = []
    for step in view.steps:
        for rule, ranked in (("BPE", step.bpe), ("WordPiece", step.wordpiece)):
            for i, c in enumerate(ranked):
                rows.append({
                    "step": step.k + 1, "rule": rule, "position": i, "pair": pair_text(c.pair),
                    "score": float(c.score if c.score is not None else c.count), "count": c.count,
                    "count_a": c.count_a, "count_b": c.count_b, "flag": _flag(i, c, ranked[0]),
                    "total": step.wordpiece_total,
                })
    return pd.DataFrame.from_records(
        rows, columns=["step", "rule", "position", "pair", "score", "count", "count_a", "count_b",
                       "flag", "total"],
    )


def prefix_frame(counts: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"merges used": range(len(counts)), "tokens": counts})
