"""BPE vs WordPiece vs Unigram vs SentencePiece: the lesson's comparison table, probed.

The lessons compare the four in a table typed by hand: the merge or selection criterion, how
spaces are handled, the subword marker (`##`, `▁`, `</w>` or none) and whether decoding gives
the text back. Here every cell but the first is read off trained tokenizers:
- marker: which of `##` (a piece that continues a word), `▁` (a piece that starts one: the
  space before it) and `</w>` (a piece that ends one) the vocabulary's pieces carry, the most
  common one if at least MARKER_SHARE of the pieces carry it, else none;
- spaces: two known words encoded with one space, and again with a leading and a double space:
  is the space inside a piece, and which of the two does decode(encode(x)) give back exactly;
- an unseen character (UNSEEN): refused with an error, one unknown token, or UTF-8 bytes;
- reversibility: decode(encode(x)) == x on each example, checked on the spot.
The criterion is the one thing behaviour cannot show (a trained vocabulary does not say how it
was chosen), so it is read from what training made: the model's type and its recorded score.

Leaves out: training (the caller trains the four on one corpus) and drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..interface import Tokenizer
from ..messages import N_, Say, in_english
from ..models.byte_bpe import ByteLevelBPE
from ..models.char_bpe import CharLevelBPE
from ..models.unigram import UnigramModel
from ..models.wordpiece import CONTINUATION, WordPieceTokenizer
from ..pretokenize import WORD_END
from ..reference.sentencepiece_models import SentencePieceTokenizer

WORD_START = "\u2581"  # ▁
MARKERS = (CONTINUATION, WORD_START, WORD_END)
MARKER_SHARE = 0.05  # a marker counts when at least this share of the pieces carry it
UNSEEN = "\ua66e"  # ꙮ, CYRILLIC LETTER MULTIOCULAR O: in no built-in corpus
# The lesson's examples: a long English word, a short one, a Chinese sentence, an emoji, a URL
# (what each is: marked for the catalog, said where it is shown).
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("unbelievable", N_("a long word")),
    ("lowest", N_("a short word")),
    ("我喜欢自然语言处理。", N_("a Chinese sentence")),
    ("👍🏽", N_("an emoji with a skin tone")),
    ("https://example.com/a?q=1", N_("a URL")),
)


@dataclass(frozen=True, slots=True)
class Cut:
    """How one tokenizer cuts one text: its pieces as the model holds them, and the round trip
    (or the error, when it refuses the text)."""

    text: str
    pieces: tuple[str, ...]
    decoded: str | None
    unknown: int
    error: str | None = None

    @property
    def round_trip(self) -> bool:
        return self.decoded == self.text


@dataclass(frozen=True, slots=True)
class Spaces:
    """What happens to spaces: inside a piece or not, and which spacing decoding restores."""

    in_pieces: bool
    single_kept: bool
    layout_kept: bool
    probe: str

    def describe(self, say: Say = in_english) -> str:
        if self.in_pieces:
            if self.layout_kept:
                return say(N_("kept inside the pieces; decode restores every space exactly"))
            if self.single_kept:
                return say(N_("kept inside the pieces; decode puts back one space between words "
                              "(layout lost)"))
            return say(N_("kept inside the pieces; decode does not restore the spaces"))
        if self.layout_kept:
            return say(N_("cut away before the model; decode restores every space exactly"))
        if self.single_kept:
            return say(N_("cut away before the model; decode puts back one space between words "
                          "(layout lost)"))
        return say(N_("cut away before the model; decode does not restore the spaces"))


@dataclass(frozen=True, slots=True)
class Row:
    """One tokenizer's line of the comparison table, every cell derived."""

    name: str
    criterion: str
    marker: str  # "##", "▁", "</w>" or "none"
    marker_pieces: int  # how many pieces carry it
    spaces: Spaces
    unseen: str
    round_trips: int
    examples: int

    @property
    def marker_meaning(self) -> str:
        return self.said_marker_meaning()

    def said_marker_meaning(self, say: Say = in_english) -> str:
        return say({
            CONTINUATION: N_("## continues a word (no ## = a word's start)"),
            WORD_START: N_("▁ starts a word: it is the space before it"),
            WORD_END: N_("</w> ends a word"),
        }.get(self.marker, N_("none: pieces do not say where words start or end")))


def cut(tokenizer: Tokenizer, text: str) -> Cut:
    """Encode and decode `text`; a ValueError (say, an unseen character) becomes the cut's error."""
    try:
        tokens = tokenizer.encode(text)
    except ValueError as error:
        return Cut(text, (), None, 0, str(error))
    pieces = tuple(t.piece if t.piece is not None else t.display() for t in tokens)
    decoded = tokenizer.decode([t.id for t in tokens])
    return Cut(text, pieces, decoded, sum(t.unknown for t in tokens))


def vocabulary(tokenizer: Tokenizer) -> list[str]:
    """Every piece of the vocabulary by id (ids with no string left out). The interface has no
    id -> piece method, so each model's own: `id_to_token`, or a BPE model's `vocab` tuple."""
    id_to_token = getattr(tokenizer, "id_to_token", None)
    if callable(id_to_token):
        pieces = [id_to_token(i) for i in range(tokenizer.vocab_size)]
    else:
        pieces = list(getattr(tokenizer, "vocab", ()))
    return [p for p in pieces if isinstance(p, str) and p]


def subword_marker(pieces: Sequence[str]) -> tuple[str, int]:
    """The marker the pieces carry (see the module docstring) and how many carry it."""
    counts = {
        CONTINUATION: sum(p.startswith(CONTINUATION) and p != CONTINUATION for p in pieces),
        WORD_START: sum(p.startswith(WORD_START) for p in pieces),
        WORD_END: sum(p.endswith(WORD_END) for p in pieces),
    }
    marker = max(MARKERS, key=lambda m: counts[m])  # ties: the order of MARKERS
    if counts[marker] < MARKER_SHARE * max(len(pieces), 1):
        return "none", 0
    return marker, counts[marker]


def space_handling(tokenizer: Tokenizer, first: str, second: str) -> Spaces:
    """Probe with two words the tokenizer knows: `first second`, then ` first  second`."""
    single = f"{first} {second}"
    layout = f" {first}  {second}"
    once, spread = cut(tokenizer, single), cut(tokenizer, layout)
    in_pieces = any(" " in p or WORD_START in p for p in once.pieces)
    return Spaces(in_pieces, once.round_trip, spread.round_trip, single)


def unseen_character(tokenizer: Tokenizer, char: str = UNSEEN, say: Say = in_english) -> str:
    """What the tokenizer does with a character it never saw."""
    try:
        tokens = tokenizer.encode(char)
    except ValueError:
        return say(N_("refused: encoding raises an error"))
    if any(t.unknown for t in tokens):
        names = sorted({t.piece or "unknown" for t in tokens if t.unknown})
        return say(N_("becomes the unknown token {names}"), names=", ".join(names))
    if any(t.partial for t in tokens):
        return say(N_("falls back to its {n} UTF-8 bytes"), n=len(char.encode("utf-8")))
    return say(N_("is a piece of the vocabulary"))


def criterion(tokenizer: Tokenizer, say: Say = in_english) -> str:
    """How the vocabulary was chosen, read from what training made (the one underived cell)."""
    if isinstance(tokenizer, (CharLevelBPE, ByteLevelBPE)):
        return say(N_("merge the most frequent pair: count(ab)"))
    if isinstance(tokenizer, WordPieceTokenizer):
        if tokenizer.score == "ratio":
            return say(N_("merge the best count(ab) / (count(a)·count(b))"))
        if tokenizer.score == "likelihood":
            return say(N_("merge the pair that raises the likelihood most"))
        return say(N_("a vocabulary given by hand (no training)"))
    if isinstance(tokenizer, UnigramModel):
        return say(N_("start big, drop the pieces whose loss hurts the likelihood least"))
    if isinstance(tokenizer, SentencePieceTokenizer):
        if tokenizer.model_type == "bpe":
            return say(N_("merge the most frequent pair (SentencePiece's BPE)"))
        return say(N_("start big, drop the pieces whose loss hurts the likelihood least "
                      "(SentencePiece)"))
    return say(N_("unknown to this lesson"))


def compare_row(name: str, tokenizer: Tokenizer, examples: Sequence[str],
                known_words: tuple[str, str], say: Say = in_english) -> Row:
    """One line of the table, every probe run now; the cells in words are said through `say`
    (the marker's meaning and the spaces are said where shown: said_marker_meaning, describe)."""
    marker, carried = subword_marker(vocabulary(tokenizer))
    cuts = [cut(tokenizer, text) for text in examples]
    return Row(
        name=name, criterion=criterion(tokenizer, say), marker=marker, marker_pieces=carried,
        spaces=space_handling(tokenizer, *known_words), unseen=unseen_character(tokenizer, say=say),
        round_trips=sum(c.round_trip for c in cuts), examples=len(cuts),
    )
