"""Numbers about tokenized text: counts, compression, round trip, usage entropy, unknown tokens.

Each number is defined here once, in the field's usual terms, so the Playground, the Compression
page and the Languages page report the same thing under the same name. The second half adds the
per-word numbers (fertility on unseen words, share of words kept whole), character coverage,
vocabulary use and Rényi efficiency.

Leaves out: tokenizing (the tokenizers do that) and charts (the app does that).
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, Iterable, Sequence

import regex

from ..interface import Tokenizer
from ..messages import N_, Kept, Refusal, Say, in_english
from ..pretokenize import Piece
from ..tokens import Token


@dataclass(frozen=True)
class TextStats:
    """How one tokenizer cut one text. Ratios are None when there are no tokens or words."""

    tokens: int
    characters: int
    utf8_bytes: int
    words: int

    def _ratio(self, a: int, b: int) -> float | None:
        return a / b if b else None

    @property
    def chars_per_token(self) -> float | None:
        return self._ratio(self.characters, self.tokens)

    @property
    def bytes_per_token(self) -> float | None:
        return self._ratio(self.utf8_bytes, self.tokens)

    @property
    def words_per_token(self) -> float | None:
        return self._ratio(self.words, self.tokens)

    @property
    def tokens_per_word(self) -> float | None:
        return self._ratio(self.tokens, self.words)

    def context_share(self, window: int) -> float:
        """Fraction of a context window of `window` tokens this text fills (may exceed 1)."""
        if window <= 0:
            raise ValueError(f"a context window holds at least one token, got {window}")
        return self.tokens / window


def text_stats(text: str, tokens: Sequence[Token]) -> TextStats:
    """Counts for text and its tokens; words are whitespace-separated, as `str.split` sees them."""
    return TextStats(
        tokens=len(tokens),
        characters=len(text),
        utf8_bytes=len(text.encode("utf-8")),
        words=len(text.split()),  # C speed: a third of the Playground's run went to word_pieces
    )


# --- words, per script (the Playground's count) ----------------------------------------------
# Chinese and Japanese put no spaces between words, so whitespace sees a whole paragraph as one
# "word" (words/token 0.02 on Chinese). Counting each of their characters as a word is the rule
# teachers and word counters use for them; Thai, Lao, Khmer, Myanmar and Tibetan have no such
# rule (their words need a dictionary), so text with them gets no count at all.
_CHARACTER_WORDS = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
_NO_WORD_RULE = regex.compile(r"[\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]")
_NOT_PUNCTUATION = regex.compile(r"[^\s\p{P}]")  # a lone "," or "—" is not a word


@dataclass(frozen=True)
class WordCount:
    """Words of a text counted per script. `words` is None when the text holds a script that
    has neither spaces between words nor a one-character rule."""

    spaced: int  # whitespace-separated words that are not only punctuation
    characters: int  # Chinese and Japanese characters, one word each
    unsegmented: bool  # letters of Thai, Lao, Khmer, Myanmar or Tibetan are present

    @property
    def words(self) -> int | None:
        return None if self.unsegmented else self.spaced + self.characters


def count_words(text: str) -> WordCount:
    """Whitespace words, with each Chinese or Japanese character a word of its own
    ("Hello 世界!" is 3 words: Hello, 世, 界)."""
    characters = len(_CHARACTER_WORDS.findall(text))
    rest = _CHARACTER_WORDS.sub(" ", text)
    spaced = sum(1 for chunk in rest.split() if _NOT_PUNCTUATION.search(chunk))
    return WordCount(spaced, characters, _NO_WORD_RULE.search(text) is not None)


@dataclass(frozen=True)
class RoundTrip:
    """Whether decode(encode(text)) gave the text back, and if not, what was lost."""

    ok: bool
    decoded: str
    lost: str | Kept  # "" when ok; what `say` made of the sentence (messages.keep: kept unsaid)


def round_trip(tokenizer: Tokenizer, text: str, tokens: Sequence[Token],
               say: Say = in_english) -> RoundTrip:
    """decode(encode(text)) against the text; `lost` is said through `say` (the interface passes
    one in the session's language)."""
    try:
        decoded = tokenizer.decode([t.id for t in tokens])
    except ValueError as error:  # e.g. an uploaded tokenizer.json whose decoder overran its limit
        reason = say(error.template, **error.values) if isinstance(error, Refusal) else str(error)
        return RoundTrip(False, "", say(N_("decoding failed: {error}"), error=reason))
    if decoded == text:
        return RoundTrip(True, decoded, "")
    form = getattr(tokenizer, "normalization", None)  # Qwen 2.5 cuts the NFC text
    if isinstance(form, str) and decoded == unicodedata.normalize(form, text):
        return RoundTrip(False, decoded, say(N_(
            "normalization to {form}: the model cuts the normalized text, and decoding gives it "
            "back"), form=form))
    normal_form = getattr(tokenizer, "normal_form", None)
    if normal_form is not None and decoded == normal_form(text):
        level = getattr(tokenizer, "level", "")
        if level == "sentence":
            return RoundTrip(False, decoded, say(N_("line breaks: this level does not keep them")))
        return RoundTrip(False, decoded, say(N_(
            "whitespace layout (spaces, tabs, newlines): this level does not keep them")))
    return RoundTrip(False, decoded, _first_difference(text, decoded, say))


def _first_difference(expected: str, got: str, say: Say = in_english) -> str:
    i = next((k for k, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    want, have = expected[i : i + 12], got[i : i + 12]
    return say(N_("differs from character {i}: the text has {want}, decoding gives {have}"),
               i=str(i), want=repr(want), have=repr(have))


def usage_entropy(ids: Iterable[int]) -> float:
    """Shannon entropy, in bits, of how often each token id is used."""
    counts = Counter(ids)
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def normalized_entropy(ids: Iterable[int], vocab_size: int) -> float:
    """Usage entropy divided by its maximum, log2(vocab size): 1 means every token used evenly."""
    if vocab_size < 2:
        return 0.0
    return usage_entropy(ids) / math.log2(vocab_size)


def unk_rate(tokens: Sequence[Token], unk_ids: frozenset[int]) -> float:
    """Share of tokens that are the unknown token (0 for byte-level tokenizers)."""
    return sum(t.id in unk_ids for t in tokens) / len(tokens) if tokens else 0.0


# =============================================================================================
# Per-word, coverage and vocabulary-use metrics (added for the Compression page).
#
# A *word* here is a run of letters, marks and digits (`[\p{L}\p{M}\p{N}]+`): punctuation and
# spaces do not belong to it, so "cat," and " cat" both hold the word "cat". A token *touches*
# a word when their character spans overlap; a zero-width token (a lone `</w>`) touches the word
# it ends. These are the per-word numbers of Rust et al. (2021), "How good is your tokenizer?":
# fertility (tokens per word) and the share of words kept whole (one minus their proportion of
# continued words).

_LETTER_RUN = regex.compile(r"[\p{L}\p{M}\p{N}]+")
# Scripts written without spaces between words: there a "word" is not a whitespace unit.
_UNSPACED = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]"
)
UNSPACED_SHARE = 0.25  # letters from unspaced scripts above this share: not space-separated
RENYI_ALPHA = 2.5  # Zouhar et al. (2023) found alpha = 2.5 tracks downstream quality best


def letter_words(text: str) -> list[Piece]:
    """Runs of letters, marks and digits, with character offsets."""
    return [Piece(m.group(), m.start(), m.end()) for m in _LETTER_RUN.finditer(text)]


def is_space_separated(text: str) -> bool:
    """Whether words are separated by spaces: under UNSPACED_SHARE of the letters are Han, kana,
    Thai, Lao, Khmer, Myanmar or Tibetan. Per-word numbers mean little for the others."""
    letters = sum(len(w.text) for w in letter_words(text))
    if not letters:
        return True
    return len(_UNSPACED.findall(text)) / letters < UNSPACED_SHARE


def tokens_touching_words(words: Sequence[Piece], tokens: Sequence[Token]) -> list[int]:
    """For each word (in text order), how many tokens touch it.

    Tokens must be in text order (every tokenizer here returns them so). One sweep: both lists
    are sorted by position, so each token looks only at the words from where the last one began.
    """
    counts = [0] * len(words)
    first = 0
    for token in tokens:
        start, end = token.start, token.end
        if start == end:  # zero-width: belongs to the word it ends
            while first < len(words) and words[first].end < start:
                first += 1
            if first < len(words) and words[first].start < start <= words[first].end:
                counts[first] += 1
            continue
        while first < len(words) and words[first].end <= start:
            first += 1
        w = first
        while w < len(words) and words[w].start < end:
            counts[w] += 1
            w += 1
    return counts


@dataclass(frozen=True)
class WordCuts:
    """Every word of a text (in order) and how many tokens touch it."""

    words: tuple[str, ...]
    tokens: tuple[int, ...]

    @property
    def single_token_share(self) -> float | None:
        """Share of words that one token covers whole (None when there are no words)."""
        return sum(c == 1 for c in self.tokens) / len(self.tokens) if self.tokens else None

    def unseen(self, seen: AbstractSet[str]) -> tuple[float | None, int]:
        """(average tokens touching a word not in `seen`, how many such word occurrences)."""
        counts = [c for w, c in zip(self.words, self.tokens) if w not in seen]
        return (sum(counts) / len(counts) if counts else None), len(counts)


def word_cuts(text: str, tokens: Sequence[Token]) -> WordCuts:
    words = letter_words(text)
    return WordCuts(tuple(w.text for w in words), tuple(tokens_touching_words(words, tokens)))


def single_token_word_share(text: str, tokens: Sequence[Token]) -> float | None:
    """Share of words that one token covers whole (None when the text has no words)."""
    return word_cuts(text, tokens).single_token_share


def tokens_per_unseen_word(
    text: str, tokens: Sequence[Token], seen: AbstractSet[str]
) -> tuple[float | None, int]:
    """(average tokens touching a word not in `seen`, how many such word occurrences).

    `seen` is the training text's words (`word_set`): this is how hard the tokenizer has to cut
    words it never met. The average is None when every word was seen.
    """
    return word_cuts(text, tokens).unseen(seen)


def word_set(text: str) -> frozenset[str]:
    """The distinct words of a text (case kept), e.g. of a training split."""
    return frozenset(m.group() for m in _LETTER_RUN.finditer(text))


def char_coverage(text: str, tokens: Sequence[Token]) -> float:
    """Share of the text's characters spelled by real tokens, not hidden in the unknown token
    (1 for byte-level tokenizers, which are never out of vocabulary)."""
    if not text:
        return 1.0
    lost = sum(t.end - t.start for t in tokens if t.unknown)
    return 1 - lost / len(text)


def vocab_used_share(ids: Iterable[int], vocab_size: int) -> float:
    """Share of the vocabulary that the text uses at least once."""
    if vocab_size < 1:
        raise ValueError(f"a vocabulary holds at least one token, got vocab_size={vocab_size}")
    return len(set(ids)) / vocab_size


def renyi_entropy(ids: Iterable[int], alpha: float = RENYI_ALPHA) -> float:
    """Rényi entropy of order alpha, in bits, of how often each token id is used.

    H_a = log2(sum p_i^a) / (1 - a); alpha -> 1 is Shannon's entropy (usage_entropy).
    """
    if alpha < 0 or alpha == 1:
        raise ValueError(f"alpha must be >= 0 and not 1 (use usage_entropy for 1), got {alpha}")
    counts = Counter(ids)
    total = sum(counts.values())
    if not total:
        return 0.0
    return math.log2(sum((c / total) ** alpha for c in counts.values())) / (1 - alpha)


def renyi_efficiency(ids: Iterable[int], vocab_size: int, alpha: float = RENYI_ALPHA) -> float:
    """Rényi entropy over its maximum log2(vocab size) (Zouhar et al., 2023, "Tokenization and
    the Noiseless Channel"): low when a few tokens carry most of the text."""
    if vocab_size < 2:
        return 0.0
    return renyi_entropy(ids, alpha) / math.log2(vocab_size)
