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

Every sentence is a `Phrase`: a str (the English sentence, what tests and the command line
read) that also keeps its English template and its values, nested phrases included, so the
interface can say it in the reader's language (ui/merge_steps/words.py: `say`). The templates
are marked for `pybabel extract` (`N_`, and `ngettext` for a sentence with a plural).

Leaves out: deciding what happened (bpe_steps.py finds where a pair occurs and which tied
pair was met first) and any markup: these are plain strings, escaped by whoever draws them.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

from ..levels import Level, Symbol
from ..messages import N_, english
from ..tokens import display_bytes

LABEL_CHARS = 28  # a longer line or chunk is shortened in a sentence
PLACES_LISTED = 3  # entries named in a narration; the rest are counted ("and 4 more lines")
TIE_PAIRS_LISTED = 4  # tied pairs named in a "why" line

_ENTRY = {"word": "word", "sentence": "line", "byte": "chunk"}


class Phrase(str):
    """An English sentence that keeps what it is made of: `template` (the gettext message id),
    `plural` and `n` when it has a plural form, and its `values` (numbers, token text, or
    phrases of their own). As a str it is the English sentence filled in."""

    template: str
    plural: str | None
    n: int | None
    values: dict[str, object]

    def __new__(cls, template: str, plural: str | None = None, n: int | None = None,
                /, **values: object) -> "Phrase":
        form = plural if plural is not None and n != 1 else template
        filled = {k: english(v) for k, v in values.items()}
        if n is not None:
            filled.setdefault("n", english(n))
        text = super().__new__(cls, form.format_map(filled))
        text.template, text.plural, text.n, text.values = template, plural, n, values
        return text

    def __reduce__(self):  # a str subclass with attributes: rebuilt from its parts when pickled
        return _rebuild, (self.template, self.plural, self.n, self.values)


def _rebuild(template: str, plural: str | None, n: int | None, values: dict) -> Phrase:
    return Phrase(template, plural, n, **values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> Phrase:
    """A sentence with a plural (`{n}` is the number): gettext's name, so pybabel extracts both
    forms; the interface picks the form by its language's rule."""
    return Phrase(singular, plural, n, **values)


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


def times(n: int) -> Phrase:
    return ngettext("once", "{n} times", n)


def listing(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c` (a Phrase from two items on, each joint translatable)."""
    if len(items) <= 1:
        return "".join(items)
    head: str = items[0]
    for item in items[1:-1]:
        head = Phrase(N_("{head}, {next}"), head=head, next=item)
    return Phrase(N_("{head} and {last}"), head=head, last=items[-1])


def _more(level: Level, n: int) -> Phrase:
    if level == "word":
        return ngettext("{n} more word", "{n} more words", n)
    if level == "sentence":
        return ngettext("{n} more line", "{n} more lines", n)
    return ngettext("{n} more chunk", "{n} more chunks", n)


def narrate_merge(
    pair: tuple[Symbol, Symbol],
    count: int,
    places: Sequence[tuple[str, int, int]],
    level: Level,
) -> Phrase:
    """One sentence: where the winning pair occurs and how often in all.

    `places` are (label, occurrences of the pair in that entry, the entry's count), in corpus
    order; `count` is the pair's total (the sum of occurrences × count).
    """
    listed = places if len(places) <= PLACES_LISTED + 1 else places[:PLACES_LISTED]
    shown: list[str] = [Phrase(N_("{label} ({amount})"), label=label_text(label, level),
                               amount=amount(p, c)) for label, p, c in listed]
    rest = len(places) - len(shown)
    if rest:
        shown.append(_more(level, rest))
    return Phrase(N_("{pair} appears in {places}: {times}"), pair=pair_text(pair),
                  places=listing(shown), times=times(count))


def narrate_start(level: Level, entries: int, occurrences: int, alphabet: int, tokens: int) -> Phrase:
    """Step 0: what the corpus looks like before any merge."""
    values = dict(occurrences=occurrences, tokens=tokens, alphabet=alphabet)
    if level == "word":
        return ngettext(
            "Before any merge: {n} distinct word ({occurrences} in all), each word split into "
            "characters and ended with '</w>': {tokens} tokens from an alphabet of {alphabet}.",
            "Before any merge: {n} distinct words ({occurrences} in all), each word split into "
            "characters and ended with '</w>': {tokens} tokens from an alphabet of {alphabet}.",
            entries, **values)
    if level == "sentence":
        return ngettext(
            "Before any merge: {n} distinct line ({occurrences} in all), each line split into "
            "characters, spaces included: {tokens} tokens from an alphabet of {alphabet}.",
            "Before any merge: {n} distinct lines ({occurrences} in all), each line split into "
            "characters, spaces included: {tokens} tokens from an alphabet of {alphabet}.",
            entries, **values)
    return ngettext(
        "Before any merge: {n} distinct chunk ({occurrences} in all), each chunk split into its "
        "UTF-8 bytes: {tokens} tokens from an alphabet of {alphabet}.",
        "Before any merge: {n} distinct chunks ({occurrences} in all), each chunk split into its "
        "UTF-8 bytes: {tokens} tokens from an alphabet of {alphabet}.",
        entries, **values)


def why_winner(
    winner: tuple[Symbol, Symbol],
    count: int,
    tied: Sequence[tuple[Symbol, Symbol]],
    ties: int,
    tie_break: str,
    runner_up: tuple[tuple[Symbol, Symbol], int] | None,
    first_met: str | None = None,
) -> Phrase:
    """Why this pair and not another: the highest count, or the tie-break rule in plain words.

    `tied` are the other pairs with the same count (as many as were recorded), `ties` how many
    pairs share the top count in all, `runner_up` the best pair with a lower count, and
    `first_met` a phrase saying where the winner is met first (the `first` rule's reason).
    """
    if ties <= 1:
        if runner_up is None:
            return Phrase(N_("{winner} is the only pair left, so it is merged."),
                          winner=pair_text(winner))
        other, other_count = runner_up
        return Phrase(
            N_("{winner} has the highest count, {count}; the next best, {other}, has "
               "{other_count}."),
            winner=pair_text(winner), count=count, other=pair_text(other), other_count=other_count)
    named: list[str] = [pair_text(p) for p in tied[: TIE_PAIRS_LISTED - 1]]
    if ties - 1 > len(named):
        named.append(Phrase(N_("{n} more"), n=ties - 1 - len(named)))
    head = Phrase(N_("Tie: {ties} pairs have {count} (also {named})."), ties=ties, count=count,
                  named=listing(named))
    if tie_break == "lexical":
        return Phrase(
            N_("{head} Ties go to the alphabetically smallest pair (compare the first symbols, "
               "then the second, by code point): {winner} comes first."),
            head=head, winner=pair_text(winner))
    if first_met:
        return Phrase(
            N_("{head} Ties go to the pair met first when reading the corpus from the top, left "
               "to right. {winner} wins: {first_met}."),
            head=head, winner=pair_text(winner), first_met=first_met)
    return Phrase(
        N_("{head} Ties go to the pair met first when reading the corpus from the top, left to "
           "right. {winner} wins."),
        head=head, winner=pair_text(winner))


def where_first_met(
    winner_at: tuple[int, int],
    other: tuple[Symbol, Symbol] | None,
    other_at: tuple[int, int] | None,
    labels: Sequence[str],
    level: Level,
) -> Phrase:
    """Why the winner is the first met: `in hug it comes before ('g','</w>')`, or
    `it is met first, in hug; ('u','n') first appears in pun`.

    `*_at` are (entry index, symbol position) where a scan first meets each pair.
    """
    label = label_text(labels[winner_at[0]], level)
    if other is None or other_at is None:
        return Phrase(N_("it is met first, in {label}"), label=label)
    if other_at[0] == winner_at[0]:
        return Phrase(N_("in {label} it comes before {other}"), label=label,
                      other=pair_text(other))
    other_label = label_text(labels[other_at[0]], level)
    return Phrase(N_("it is met first, in {label}; {other} first appears in {other_label}"),
                  label=label, other=pair_text(other), other_label=other_label)


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
) -> Phrase:
    """WordPiece's reason: the score worked out from the counts it comes from, by its own
    formula (`kind`; `total` is N, which only the likelihood uses)."""
    values = dict(pair=pair_text(pair), formula=score_formula(kind, count, count_a, count_b, total),
                  score=f"{score:.4g}")
    if kind == "likelihood":
        return Phrase(
            N_("{pair} scores {formula} = {score}, with N = {total} symbols in the corpus: "
               "WordPiece multiplies the pair's count by the log of how much more often its parts "
               "meet than chance would have them."),
            total=total, **values)
    return Phrase(N_("{pair} scores {formula} = {score}: WordPiece divides the pair's count by how "
                     "common its parts are."), **values)
