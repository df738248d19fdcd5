"""Narration: the sentences a teacher would say at each BPE or WordPiece training step.

What it adds: plain-English strings built from trace records, so the pages never assemble
wording themselves and the tests can check the exact sentence, e.g.

    ('e','s') appears in newest (6) and widest (3): 9 times

and one line on why the winner won (the tie-break rule in plain words).

How things are written:
- a symbol as Python would quote it (`'e'`, `'e '`, `'</w>'`); bytes that are not whole UTF-8
  characters as hex (`'<E4 BD>'`, never U+FFFD); a pair as `('e','s')`;
- a corpus entry by its text: bare at the word level, quoted at the sentence and byte levels
  (where spaces matter), shortened past LABEL_CHARS characters;
- an amount per entry as its total, or `2×5` when a pair occurs twice in an entry seen 5 times.

Leaves out: deciding what happened (bpe_steps.py finds where a pair occurs and which tied
pair was met first) and any markup: these are plain strings, escaped by whoever draws them.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

from ..levels import Level, Symbol
from ..tokens import display_bytes

LABEL_CHARS = 28  # a longer line or chunk is shortened in a sentence
PLACES_LISTED = 3  # entries named in a narration; the rest are counted ("and 4 more lines")
TIE_PAIRS_LISTED = 4  # tied pairs named in a "why" line

_ENTRY = {"word": "word", "sentence": "line", "byte": "chunk"}


_SILENT = {"Cf", "Cc", "Co", "Cn", "Zl", "Zp"}  # format, control, private, unassigned, separators
_MARKS = {"Mn", "Me"}  # combining marks: invisible with nothing before them to sit on


def reveal_invisible(text: str) -> str:
    """Characters that draw nothing, written as `<U+200D>`: format characters anywhere (ZWJ,
    BOM), controls, and a combining mark with no character before it (U+FE0F, U+20E3 at the
    start of a token). Whitespace is left alone (visible-whitespace views mark it)."""
    out = []
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        alone = kind in _MARKS and (i == 0 or text[i - 1].isspace())
        if (kind in _SILENT and not ch.isspace()) or alone:
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


def symbol_text(symbol: Symbol) -> str:
    """A symbol's text: a str as itself, bytes as characters where whole, else `<E4 BD>`;
    characters that draw nothing as `<U+FE0F>`."""
    return reveal_invisible(display_bytes(symbol) if isinstance(symbol, bytes) else symbol)


def quoted(symbol: Symbol) -> str:
    """`'e'`, `'e '`, `"don't"`: Python's quoting, so spaces and quotes stay visible."""
    return repr(symbol_text(symbol))


def pair_text(pair: tuple[Symbol, Symbol]) -> str:
    """`('e','s')`, the way the lessons write a pair."""
    return f"({quoted(pair[0])},{quoted(pair[1])})"


def entry_noun(level: Level, n: int) -> str:
    noun = _ENTRY[level]
    return noun if n == 1 else noun + "s"


def label_text(label: str, level: Level) -> str:
    """A corpus entry as a sentence names it: `newest`, or `'the cat sat on…'`."""
    short = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
    return short if level == "word" and short == label and label.isprintable() else repr(short)


def amount(pairs: int, count: int) -> str:
    """How much one entry contributes: `6`, or `2×5` (twice in an entry seen 5 times)."""
    if pairs == 1:
        return f"{count:,}"
    if count == 1:
        return f"{pairs:,}"
    return f"{pairs:,}×{count:,}"


def times(n: int) -> str:
    return "once" if n == 1 else f"{n:,} times"


def listing(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def narrate_merge(
    pair: tuple[Symbol, Symbol],
    count: int,
    places: Sequence[tuple[str, int, int]],
    level: Level,
) -> str:
    """One sentence: where the winning pair occurs and how often in all.

    `places` are (label, occurrences of the pair in that entry, the entry's count), in corpus
    order; `count` is the pair's total (the sum of occurrences × count).
    """
    listed = places if len(places) <= PLACES_LISTED + 1 else places[:PLACES_LISTED]
    shown = [f"{label_text(label, level)} ({amount(p, c)})" for label, p, c in listed]
    rest = len(places) - len(shown)
    if rest:
        shown.append(f"{rest:,} more {entry_noun(level, rest)}")
    return f"{pair_text(pair)} appears in {listing(shown)}: {times(count)}"


def narrate_start(level: Level, entries: int, occurrences: int, alphabet: int, tokens: int) -> str:
    """Step 0: what the corpus looks like before any merge."""
    how = {
        "word": "each word split into characters and ended with '</w>'",
        "sentence": "each line split into characters, spaces included",
        "byte": "each chunk split into its UTF-8 bytes",
    }[level]
    return (
        f"Before any merge: {entries:,} distinct {entry_noun(level, entries)} "
        f"({occurrences:,} in all), {how}: {tokens:,} tokens from an alphabet of {alphabet:,}."
    )


def why_winner(
    winner: tuple[Symbol, Symbol],
    count: int,
    tied: Sequence[tuple[Symbol, Symbol]],
    ties: int,
    tie_break: str,
    runner_up: tuple[tuple[Symbol, Symbol], int] | None,
    first_met: str | None = None,
) -> str:
    """Why this pair and not another: the highest count, or the tie-break rule in plain words.

    `tied` are the other pairs with the same count (as many as were recorded), `ties` how many
    pairs share the top count in all, `runner_up` the best pair with a lower count, and
    `first_met` a phrase saying where the winner is met first (the `first` rule's reason).
    """
    if ties <= 1:
        if runner_up is None:
            return f"{pair_text(winner)} is the only pair left, so it is merged."
        other, other_count = runner_up
        return (
            f"{pair_text(winner)} has the highest count, {count:,}; the next best, "
            f"{pair_text(other)}, has {other_count:,}."
        )
    named = [pair_text(p) for p in tied[: TIE_PAIRS_LISTED - 1]]
    if ties - 1 > len(named):
        named.append(f"{ties - 1 - len(named):,} more")
    head = f"Tie: {ties:,} pairs have {count:,} (also {listing(named)})."
    if tie_break == "lexical":
        return (
            f"{head} Ties go to the alphabetically smallest pair (compare the first symbols, "
            f"then the second, by code point): {pair_text(winner)} comes first."
        )
    where = f": {first_met}" if first_met else ""
    return (
        f"{head} Ties go to the pair met first when reading the corpus from the top, left to "
        f"right. {pair_text(winner)} wins{where}."
    )


def where_first_met(
    winner_at: tuple[int, int],
    other: tuple[Symbol, Symbol] | None,
    other_at: tuple[int, int] | None,
    labels: Sequence[str],
    level: Level,
) -> str:
    """Why the winner is the first met: `in hug it comes before ('g','</w>')`, or
    `it is met first, in hug; ('u','n') first appears in pun`.

    `*_at` are (entry index, symbol position) where a scan first meets each pair.
    """
    label = label_text(labels[winner_at[0]], level)
    if other is None or other_at is None:
        return f"it is met first, in {label}"
    if other_at[0] == winner_at[0]:
        return f"in {label} it comes before {pair_text(other)}"
    other_label = label_text(labels[other_at[0]], level)
    return f"it is met first, in {label}; {pair_text(other)} first appears in {other_label}"


def score_formula(
    kind: str, count: int, count_a: int, count_b: int, total: int, compact: bool = False
) -> str:
    """A WordPiece score's arithmetic, as the lessons write it (trainers/wordpiece.py pair_score):

        ratio       count(ab) / (count(a) × count(b))               `9 / (9 × 9)`
        likelihood  count(ab) × ln(count(ab) × N / (count(a) × count(b)))
                                                                    `9 × ln(9 × 95 / (9 × 9))`

    N (`total`) is the number of symbols in the corpus; `compact` writes `9·ln(9·95/(9·9))` for
    a chart label.
    """
    times, over = ("·", "/") if compact else (" × ", " / ")
    parts = f"({count_a:,}{times}{count_b:,})"
    if kind == "ratio":
        return f"{count:,}{over}{parts}"
    if kind == "likelihood":
        return f"{count:,}{times}ln({count:,}{times}{total:,}{over}{parts})"
    raise ValueError(f"unknown WordPiece score {kind!r}: use 'ratio' or 'likelihood'")


def why_wordpiece(
    pair: tuple[str, str], score: float, count: int, count_a: int, count_b: int,
    kind: str = "ratio", total: int = 0,
) -> str:
    """WordPiece's reason: the score worked out from the counts it comes from, by its own
    formula (`kind`; `total` is N, which only the likelihood uses)."""
    head = f"{pair_text(pair)} scores {score_formula(kind, count, count_a, count_b, total)}"
    if kind == "likelihood":
        return (
            f"{head} = {score:.4g}, with N = {total:,} symbols in the corpus: WordPiece multiplies "
            "the pair's count by the log of how much more often its parts meet than chance "
            "would have them."
        )
    return f"{head} = {score:.4g}: WordPiece divides the pair's count by how common its parts are."
