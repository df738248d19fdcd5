"""Unicode normalization with an alignment, so tokens of normalized text point at the text as typed.

What it adds: `normalize(text, form)` returns the normalized text (exactly
`unicodedata.normalize(form, text)`) with, for each of its characters, the span of the original
text it came from, as HF's `NormalizedString` keeps alignments; `tokens_as_typed` moves the
offsets of tokens of the normalized text back onto the original; `Change` (`change_of`) says
what a tokenizer's normalization did to one text, for the page to tell the reader. A model whose own library
normalizes first (Qwen 2.5: NFC) encodes the normalized text, so its ids are the library's, and
its tokens still highlight the characters the user typed.

How the alignment is exact: the text is cut before every character at which normalization may
start afresh (Unicode's "boundary before": a starter that, like the first character it
decomposes into, never composes with what precedes it). Normalizing each piece
alone and joining them gives the normalization of the whole text. A piece that normalization
leaves alone maps character for character; a piece it changes (`e` + U+0301 -> `é`, Hangul jamo
-> a syllable) maps every character it became onto the whole piece.

Decided: a token that covers only part of a changed piece (rare: a normalized piece of several
characters cut between tokens) gets the whole piece's span, shared with its neighbour, and is
marked partial, as a token that splits a UTF-8 character is (tokens.py). A token's `bytes` stay
the bytes the model cut, i.e. of the normalized text: they are what its id stands for.

Leaves out: normalizers other than Unicode's NFC and NFKC (BERT's lower-casing and accent
stripping and a tokenizer.json's normalizer run inside HF tokenizers, which already gives offsets
into the text as typed; SentencePiece maps its own offsets back), and NFD/NFKD, which no built-in
model uses.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass, replace
from typing import Callable, Literal, Sequence

from .tokens import Token

Form = Literal["NFC", "NFKC"]
FORMS: tuple[Form, ...] = ("NFC", "NFKC")
Span = tuple[int, int]

# Hangul jamo that compose with what precedes them, by Unicode's algorithm rather than by a
# listed decomposition: the vowels (L + V -> LV) and the trailing consonants (LV + T -> LVT).
_HANGUL_SECONDS = (range(0x1161, 0x1176), range(0x11A8, 0x11C3))


@dataclass(frozen=True, slots=True)
class Normalized:
    """A text and its normalization, aligned.

    form:     the normalization form, e.g. "NFC".
    original: the text as typed.
    text:     unicodedata.normalize(form, original).
    spans:    for each character of `text`, the span of `original` it came from.
    changed:  how many characters of `original` normalization changed (0: text == original).
    """

    form: Form
    original: str
    text: str
    spans: tuple[Span, ...]
    changed: int

    def span(self, start: int, end: int) -> Span:
        """The span of `original` that characters [start, end) of `text` came from."""
        if start >= len(self.spans):
            return len(self.original), len(self.original)
        first = self.spans[start][0]
        return (first, first) if end <= start else (first, self.spans[end - 1][1])


@functools.cache
def _composition_seconds() -> frozenset[int]:
    """Code points that can be the second of a canonical composition (NFC_Quick_Check=Maybe):
    the last of a two-character canonical decomposition whose composite NFC keeps (~0.05 s)."""
    seconds = {cp for r in _HANGUL_SECONDS for cp in r}
    for cp in range(0x30000):  # no decomposition lies above the CJK compatibility supplement
        decomposition = unicodedata.decomposition(chr(cp))
        if not decomposition or decomposition.startswith("<"):
            continue  # none, or a compatibility one: it never composes
        parts = decomposition.split()
        if len(parts) == 2 and unicodedata.normalize("NFC", chr(cp)) == chr(cp):
            seconds.add(int(parts[1], 16))
    return frozenset(seconds)


_DECOMPOSED: dict[Form, Form | Literal["NFD", "NFKD"]] = {"NFC": "NFD", "NFKC": "NFKD"}


@functools.lru_cache(maxsize=65_536)
def starts_afresh(char: str, form: Form) -> bool:
    """Whether normalization of a text may be cut just before `char` (a "boundary before"):
    `char` is a starter, it never composes backwards, and neither does the first character it
    decomposes into (so `ज़` U+095B, which NFC splits into ज + ◌़, still starts afresh, while
    U+0F73, which decomposes into two marks, does not)."""
    first = unicodedata.normalize(_DECOMPOSED[form], char)[0]
    seconds = _composition_seconds()
    return (
        unicodedata.combining(char) == 0 and unicodedata.combining(first) == 0
        and ord(char) not in seconds and ord(first) not in seconds
    )


def pieces(text: str, form: Form) -> list[Span]:
    """The text cut before every character at which `form` starts afresh; each piece normalizes
    on its own to its part of the whole text's normalization."""
    cuts = [i for i in range(1, len(text)) if starts_afresh(text[i], form)]
    bounds = [0, *cuts, len(text)] if text else []
    return list(zip(bounds, bounds[1:]))


def normalize(text: str, form: Form = "NFC") -> Normalized:
    """`unicodedata.normalize(form, text)` with each of its characters' span in `text`."""
    if form not in FORMS:
        raise ValueError(f"normalization form {form!r} is not one of {', '.join(FORMS)}")
    if unicodedata.is_normalized(form, text):  # the common case: nothing to align
        return Normalized(form, text, text, tuple((i, i + 1) for i in range(len(text))), 0)
    parts: list[str] = []
    spans: list[Span] = []
    changed = 0
    for start, end in pieces(text, form):
        piece = text[start:end]
        done = unicodedata.normalize(form, piece)
        parts.append(done)
        if done == piece:
            spans.extend((i, i + 1) for i in range(start, end))
        else:
            spans.extend([(start, end)] * len(done))
            changed += end - start
    return Normalized(form, text, "".join(parts), tuple(spans), changed)


def changed_characters(text: str, form: Form) -> int:
    """How many characters of `text` normalization to `form` changes (0 when it is normalized)."""
    return 0 if unicodedata.is_normalized(form, text) else normalize(text, form).changed


def tokens_as_typed(tokens: Sequence[Token], normalized: Normalized, offset: int = 0) -> list[Token]:
    """Tokens of `normalized.text` with offsets into `normalized.original` (shifted by `offset`).

    A token that shares characters of the original with a neighbour (it covers part of a piece
    that normalization changed) is marked partial; its bytes stay the model's.
    """
    spans = [normalized.span(t.start, t.end) for t in tokens]
    moved: list[Token] = []
    for i, (token, (start, end)) in enumerate(zip(tokens, spans)):
        shares = (i > 0 and start < spans[i - 1][1] and start < end) or (
            i + 1 < len(spans) and spans[i + 1][0] < end and spans[i + 1][0] < spans[i + 1][1]
        )
        moved.append(replace(token, start=start + offset, end=end + offset,
                             partial=token.partial or shares))
    return moved


# -- what a tokenizer's normalization did to a text ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """What a tokenizer changed in a text before cutting it.

    by:      "NFC", "NFKC", or a tokenizer.json normalizer's type (`BertNormalizer`,
             `NFC + Lowercase`).
    changed: how many characters of the text as typed it changed, or None when they cannot be
             told apart one combining sequence at a time (a normalizer that looks further).
    total:   the text's length in characters.
    """

    by: str
    changed: int | None
    total: int


def change_by_form(text: str, form: Form) -> Change | None:
    """What normalizing to `form` changes in `text`; None when nothing."""
    changed = changed_characters(text, form)
    return Change(form, changed, len(text)) if changed else None


def change_by(text: str, by: str, normalize_str: Callable[[str], str]) -> Change | None:
    """What a normalizer we can only run (HF's `normalize_str`) changes in `text`; None when
    nothing. Counted one combining sequence (an NFC piece) at a time, each distinct one once:
    a lower-cased `H` is one character changed, `e` + U+0301 losing its accent two."""
    if normalize_str(text) == text:
        return None
    seen: dict[str, bool] = {}
    changed = 0
    for start, end in pieces(text, "NFC"):
        piece = text[start:end]
        if piece not in seen:
            seen[piece] = normalize_str(piece) != piece
        changed += (end - start) if seen[piece] else 0
    return Change(by, changed or None, len(text))


def change_of(tokenizer: object, text: str) -> Change | None:
    """What `tokenizer` changes in `text` before cutting it, if it says (`normalization_change`);
    None for a tokenizer that cuts text as typed."""
    describe = getattr(tokenizer, "normalization_change", None)
    return describe(text) if callable(describe) else None
