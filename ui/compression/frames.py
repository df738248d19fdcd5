"""The Compression page's tables: every plotted point as one row, the quality table, and what each
doubling of the vocabulary buys. Plain pandas; the charts read these frames and nothing else.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

import pandas as pd

from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve, log_spaced
from tokenizer_core.measure.metrics import TextStats
from tokenizer_core.measure.quality import HFPoint, Quality
from tokenizer_core.measure.stored import REFERENCE_TOKENIZERS
from tokenizer_core.messages import say_kept
from tokenizer_core.reference.open_models import OPEN_MODELS
from ui.common.i18n import N_, _, number, percent, say
from ui.common.safe_text import literal

OURS = "ours"
FAMILY_NAMES: dict[str, str] = {  # the lines the page can train beside ours (quality.py)
    "bpe_bytes": N_("HF BPE (byte-level)"),
    "bpe": N_("HF BPE (words, </w>)"),
    "wordpiece": "HF WordPiece",
    "unigram": "HF Unigram",
    "sp_unigram": "SentencePiece Unigram",
    "sp_bpe": "SentencePiece BPE",
}
# The real tokenizers' names, in stored.REFERENCE_TOKENIZERS's order: tiktoken's three, then the
# open models under their own labels.
REFERENCE_LABELS: dict[str, str] = {
    name: {"gpt2": "GPT-2", "cl100k_base": "cl100k_base (GPT-4)",
           "o200k_base": "o200k_base (GPT-4o)"}.get(name) or OPEN_MODELS[name].label
    for name in REFERENCE_TOKENIZERS
}
FAMILY_LABELS: dict[str, str] = {
    OURS: N_("Ours: byte-level BPE"),
    **FAMILY_NAMES,
    **REFERENCE_LABELS,
}
METRICS: dict[str, str] = {  # column -> axis title (English: the catalog's message id)
    "chars_per_token": N_("Characters per token"),
    "bytes_per_token": N_("UTF-8 bytes per token"),
    "tokens_per_word": N_("Tokens per word"),
}


def family_name(family: str) -> str:
    """A line beside ours, named in the session's language (model names stay as they are)."""
    return _(FAMILY_NAMES[family])


def family_label(family: str) -> str:
    """Any family's label in the session's language: ours, an HF line, or a real tokenizer."""
    label = FAMILY_LABELS.get(family, family)
    return _(label) if family in (OURS, *FAMILY_NAMES) else label


def metric_name(metric: str) -> str:
    return _(METRICS[metric])


CURVE_COLUMNS = [
    "corpus", "corpus_key", "family", "kind", "vocab_size", "merges", "tokens", "characters",
    "bytes", "words", *METRICS, "hidden_in_unk",
]
UNK_VISIBLE = 0.01  # a point hiding at least this share of characters in [UNK] is flagged


def _row(corpus: str, key: str, family: str, kind: str, vocab: int, merges: int | None,
         stats: TextStats, spaced: bool, hidden: float = 0.0) -> dict:
    return {
        "corpus": corpus, "corpus_key": key, "family": family, "kind": kind,
        "vocab_size": vocab, "merges": merges, "tokens": stats.tokens,
        "characters": stats.characters, "bytes": stats.utf8_bytes, "words": stats.words,
        "chars_per_token": stats.chars_per_token, "bytes_per_token": stats.bytes_per_token,
        "tokens_per_word": stats.tokens_per_word if spaced else None,
        "hidden_in_unk": hidden,
    }


def curve_rows(corpus: str, key: str, curve: CompressionCurve, points: int,
               include: Sequence[int] = (), train: bool = False) -> list[dict]:
    """Our line, sampled at log-spaced vocab sizes (every k is known; these are drawn).
    With `train`, the same line measured on the training part too (kind "train")."""
    top = BYTE_VOCAB + curve.learned_merges
    sizes = log_spaced(BYTE_VOCAB, top, points, include)
    rows = [
        _row(corpus, key, OURS, "held-out", v, v - BYTE_VOCAB, curve.at(v - BYTE_VOCAB),
             curve.space_separated)
        for v in sizes
    ]
    if train:
        rows += [
            _row(corpus, key, OURS, "train", v, v - BYTE_VOCAB, curve.at(v - BYTE_VOCAB, "train"),
                 curve.space_separated)
            for v in sizes
        ]
    return rows


def hf_rows(corpus: str, key: str, family: str, points: Sequence[HFPoint],
            spaced: bool) -> list[dict]:
    return [_row(corpus, key, family, "held-out", p.vocab_size, None, p.held_out, spaced,
                 p.hidden_in_unk) for p in points]


def reference_rows(corpus: str, key: str,
                   references: Sequence[tuple[str, int, TextStats, float]],
                   spaced: bool) -> list[dict]:
    return [_row(corpus, key, name, "reference", vocab, None, stats, spaced, hidden)
            for name, vocab, stats, hidden in references]


def curve_frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame.from_records(rows, columns=CURVE_COLUMNS)


DOUBLING_STEP = "vocab size"


def doubling_frame(
    curves: Sequence[tuple[str, CompressionCurve]], sizes: Sequence[int]
) -> pd.DataFrame:
    """One row per step between `sizes` ("256 → 500"), one column per corpus: the share of
    held-out tokens our line saves over that step, as text ("54.6%"). A step past the end of a
    line says so ("n/a: the line ends at 1,360"). Steps run down the rows so that the table keeps
    its width when the vocabulary grows; corpora are few."""
    frame = pd.DataFrame({DOUBLING_STEP: [f"{number(a)} → {number(b)}"
                                          for a, b in zip(sizes, sizes[1:])]})
    for corpus, curve in curves:
        top = BYTE_VOCAB + curve.learned_merges
        tokens = curve.held_out_tokens
        frame[corpus] = [
            percent(1 - tokens[high - BYTE_VOCAB] / tokens[low - BYTE_VOCAB]) if high <= top
            else _("n/a: the line ends at {size}", size=number(top))
            for low, high in zip(sizes, sizes[1:])
        ]  # fmt: skip
    return frame


QUALITY_HELP: dict[str, str] = {  # English: the catalog's message ids, said by _() where shown
    "tokens": N_("Tokens for the whole held-out text."),
    "chars / token": N_("Characters of held-out text per token: higher means fewer tokens."),
    "bytes / token": N_("UTF-8 bytes per token: compares languages fairly (a Chinese character "
                        "is 3 bytes)."),
    "tokens / word": N_("Tokens per whitespace-separated word (only for text with spaces between "
                        "words)."),
    "round trip": N_("Whether decoding the tokens gives back the exact text (see the last "
                     "column)."),
    "what decoding loses": N_("Where decoding first differs from the text, or what the level "
                              "drops."),
    "words kept whole": N_("Share of words (runs of letters and digits) that one token covers."),
    "tokens per unseen word": N_(
        "Average tokens on words that never occur in the training part: how hard the tokenizer "
        "cuts words it never met (for reference tokenizers, 'unseen' still means unseen by our "
        "training part)."),
    "unseen words": N_("Occurrences of words absent from the training part."),
    "entropy (bits)": N_("Shannon entropy of how often each token is used."),
    "normalized entropy": N_("Entropy over its maximum, log2(vocab size): 1 = every token used "
                             "evenly."),
    "Rényi efficiency": N_("Rényi entropy (alpha 2.5) over log2(vocab size), Zouhar et al. "
                           "2023: low when a few very frequent tokens carry most of the text."),
    "vocab used": N_("Share of the vocabulary the held-out text uses at least once."),
    "UNK rate": N_("Share of tokens that are the unknown token (text the model cannot spell)."),
    "char coverage": N_("Share of characters spelled by real tokens rather than hidden in an "
                        "UNK."),
}
# The quality table's columns: English keys (the CSV keeps them, tests read them), shown on
# screen in the session's language by column_title().
COLUMN_TITLES: dict[str, str] = {
    "tokenizer": N_("tokenizer"), "corpus": N_("corpus"), "vocab size": N_("vocab size"),
    "tokens": N_("tokens"), "chars / token": N_("chars / token"),
    "bytes / token": N_("bytes / token"), "tokens / word": N_("tokens / word"),
    "char coverage": N_("char coverage"), "UNK rate": N_("UNK rate"),
    "round trip": N_("round trip"), "words kept whole": N_("words kept whole"),
    "tokens per unseen word": N_("tokens per unseen word"), "unseen words": N_("unseen words"),
    "entropy (bits)": N_("entropy (bits)"), "normalized entropy": N_("normalized entropy"),
    "Rényi efficiency": N_("Rényi efficiency"), "vocab used": N_("vocab used"),
    "what decoding loses": N_("what decoding loses"),
}
ROUND_TRIP = {"OK": N_("OK"), "lossy": N_("lossy")}  # the cell's value -> what it shows


def column_title(column: str) -> str:
    """A table column's title in the session's language (a corpus's name stays as it is)."""
    return _(COLUMN_TITLES[column]) if column in COLUMN_TITLES else column


def quality_help(column: str) -> str | None:
    text = QUALITY_HELP.get(column)
    return _(text) if text else None


def quality_frame(rows: Sequence[tuple[str, str, Quality]]) -> pd.DataFrame:
    """One row per (corpus, tokenizer): every number of the quality table, unrounded (shares
    as fractions, as the CSV keeps them)."""
    records = []
    for corpus, tokenizer, q in rows:
        records.append({
            "tokenizer": tokenizer,
            "corpus": corpus,
            "vocab size": q.vocab_size,
            "tokens": q.stats.tokens,
            "chars / token": q.stats.chars_per_token,
            "bytes / token": q.stats.bytes_per_token,
            "tokens / word": q.stats.tokens_per_word if q.single_token_words is not None else None,
            "char coverage": q.char_coverage,
            "UNK rate": q.unk_rate,
            "round trip": "OK" if q.round_trip_ok else "lossy",
            "words kept whole": q.single_token_words,
            "tokens per unseen word": q.tokens_per_unseen_word,
            "unseen words": q.unseen_words if q.single_token_words is not None else None,
            "entropy (bits)": q.usage_entropy,
            "normalized entropy": q.normalized_entropy,
            "Rényi efficiency": q.renyi_efficiency,
            "vocab used": q.vocab_used,
            "what decoding loses": say_kept(q.round_trip_lost, say),
        })
    return pd.DataFrame.from_records(records)


PERCENT_COLUMNS = ("words kept whole", "vocab used", "UNK rate", "char coverage")
WHOLE_COLUMNS = ("vocab size", "tokens", "unseen words")
WORD_COLUMNS = ("tokens / word", "words kept whole", "tokens per unseen word", "unseen words")
# The grid's tabs, one question each: all of the table at once is twice a laptop's width.
# ("unseen words" is the same for every tokenizer of a corpus: the Words tab says it once.)
QUALITY_TABS: dict[str, tuple[str, ...]] = {  # tab name (a message id, shown by _()) -> columns
    N_("Compression"): ("vocab size", "tokens", "chars / token", "bytes / token"),
    N_("Words"): ("tokens / word", "words kept whole", "tokens per unseen word"),
    N_("Coverage and round trip"): ("char coverage", "UNK rate", "round trip"),
    N_("Vocabulary use"): ("vocab used", "entropy (bits)", "normalized entropy", "Rényi efficiency"),
}
Why = Callable[[pd.Series, str], str]


def has_spaces(row: pd.Series) -> bool:
    """Whether the row's corpus separates words by spaces (else it has no per-word numbers)."""
    return not pd.isna(row["words kept whole"])


def why_empty(row: pd.Series, column: str) -> str:
    """What an empty cell of the quality table means, in the words the cell shows."""
    if column in WORD_COLUMNS and not has_spaces(row):
        return _("n/a: no spaces in {label}", label=row["corpus"])
    if column == "tokens per unseen word":
        return _("n/a: no unseen words")
    return _("n/a")


def _format(column: str) -> str:
    """The grid's own format of a quality column (see the page's column_config)."""
    if column in PERCENT_COLUMNS:
        return "{:.1%}"
    return "{:,.0f}" if column in WHOLE_COLUMNS else "{:.2f}"


def _formatted(pattern: str, value: float) -> str:
    """`value` by one of _format's patterns, in the session's locale (Babel's separators)."""
    if pattern.endswith("%}"):
        return percent(value, int(pattern[3]) if pattern[3].isdigit() else 1)
    return number(value, 0 if pattern == "{:,.0f}" else int(pattern[3]))


def fill_empty(frame: pd.DataFrame, why: Why, formats: Mapping[str, str] | None = None,
               columns: Sequence[str] = ()) -> pd.DataFrame:
    """`frame` with every column that has an empty cell, and every one of `columns`, as text:
    each number in its format, each empty cell saying what it means. (Streamlit's grid draws an
    empty cell as the word "None", which says nothing.)"""
    shown = frame.copy()
    for column in frame.columns:
        values = frame[column]
        if column not in columns and not values.isna().any():
            continue
        pattern = (formats or {}).get(column) or _format(column)
        shown[column] = [
            why(row, column) if pd.isna(value) else value if isinstance(value, str)
            else _formatted(pattern, value)
            for (_index, row), value in zip(frame.iterrows(), values)
        ]  # fmt: skip
    return shown


def unk_notes(frame: pd.DataFrame) -> list[str]:
    """One sentence (Markdown) per (corpus, family) whose points hide text in [UNK]."""
    flagged = frame[frame["hidden_in_unk"] >= UNK_VISIBLE]
    notes = []
    for (corpus, family), part in flagged.groupby(["corpus", "family"], sort=False):
        worst = part["hidden_in_unk"].max()
        name = literal(str(corpus))  # it may name the user's file
        notes.append(_(
            "{model} hides up to {share} of {label}'s held-out characters in [UNK] (crossed "
            "points): its compression there is not real.",
            model=family_label(str(family)), share=percent(worst, 0), label=name))
    return notes


def percent_view(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as the grid shows it: shares as percentages (0-100), so one format fits every
    cell; a column with an empty cell is text, each empty cell saying why (why_empty)."""
    shown = fill_empty(frame, why_empty)
    if "round trip" in shown:
        shown["round trip"] = [_(ROUND_TRIP.get(v, v)) for v in shown["round trip"]]
    for column in PERCENT_COLUMNS:
        if shown[column].dtype.kind == "f":
            shown[column] = shown[column] * 100
    return shown


PROJECTOR_COLUMNS = ("tokenizer", "corpus", "chars / token", "bytes / token", "char coverage",
                     "words kept whole", "tokens per unseen word")


def projector_view(frame: pd.DataFrame) -> pd.DataFrame:
    """The key columns as short text, for a static table in large type; an empty cell says
    why (why_empty)."""
    numbers = [c for c in PROJECTOR_COLUMNS if c not in ("tokenizer", "corpus")]
    formats = {c: "{:.0%}" if c in PERCENT_COLUMNS else "{:.2f}" for c in numbers}
    shown = fill_empty(frame.loc[:, list(PROJECTOR_COLUMNS)], why_empty, formats, numbers)
    return shown.set_index("tokenizer")
