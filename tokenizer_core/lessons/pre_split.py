"""Pre-tokenization made visible: which chunks a split regex cuts, and which alternative cut each.

A tiktoken-style regex is one alternation, `A|B|C|...`, run with `findall`: at each position the
engine tries A, then B, ... and the first alternative that matches there makes the chunk. So
"why is `'m` a chunk of its own?" has a one-word answer: alternative 0, the contractions.

- `alternatives(pat_str)` cuts a pattern at its top-level `|` (not inside a group or a
  character class, not an escaped `\\|`);
- `split_named(text, pat_str)` runs the same alternation with each alternative wrapped in a
  named group, which changes no match, and reads back which group matched each chunk;
- `ALTERNATIVE_NAMES` says each alternative of the known patterns in plain words.

Two pre-splitters that are not one regex over the whole text:
- BERT's (HF `BertPreTokenizer`): split on whitespace, which is dropped, and cut every
  punctuation mark out on its own. Written here as a two-alternative regex whose gaps are the
  dropped whitespace.
- SentencePiece's: no pre-split at all; the whole text is one piece in which each space is the
  ordinary character `▁` (and one `▁` goes before the first word, the "dummy prefix").

Leaves out: normalization (NFC, lowercasing) and special tokens, which run before the split in
real pipelines; BERT's Chinese-character splitting (its normalizer's job, not the pre-tokenizer's).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

from ..messages import N_, Say, in_english
from ..models.wordpiece import _BERT_PIECE
from ..pretokenize import PATTERNS
from ..reference.open_models import LLAMA3_PAT, QWEN_PAT

METASPACE = "▁"

# BERT's split as models/wordpiece.py runs it: one punctuation character (ASCII punctuation, or
# P* in the Unicode 8.0 tables HF is built with), or a run of neither punctuation nor whitespace.
# subtle: a private name of that module, read rather than copied, so the two never drift apart.
BERT_PATTERN = _BERT_PIECE.pattern
_BERT_PUNCT, _BERT_WORD = BERT_PATTERN.split("]|[", 1)
_BERT_PUNCT, _BERT_WORD = _BERT_PUNCT + "]", "[" + _BERT_WORD
SENTENCEPIECE_PATTERN = r"(?s).+"  # everything, in one piece

# Each alternative of the known patterns: (a short name for the legend, what it takes in words).
_CONTRACTION = (N_("contraction"), N_("a contraction: 's 't 'd 'm 'll 've 're"))
_CONTRACTION_ANY = (N_("contraction"), N_("a contraction in any case: 's 'S 't 'LL 've 're ..."))
_LETTERS_SPACE = (N_("letters"), N_("a run of letters, with the one space before it"))
_LETTERS_SYMBOL = (N_("letters"), N_("a run of letters, with one space or symbol before it (not a "
                                     "line break, not a digit)"))  # fmt: skip
_LOWER_WORD = (N_("word (lower/Title)"), N_("a word: capitals, then lowercase (`the`, `Hello`), "
                                            "with one space or symbol before it"))  # fmt: skip
_UPPER_WORD = (N_("word (CAPS)"), N_(
    "a word in capitals, then any lowercase (`DON`, `HTTPServer`), with one space or symbol "
    "before it"))
# The same two words with a contraction after them (o200k_base): whole sentences of their own.
_LOWER_WORD_TAIL = (_LOWER_WORD[0], N_(
    "a word: capitals, then lowercase (`the`, `Hello`), with one space or symbol before it and a "
    "contraction after it ('s 't 're 've 'm 'll 'd, any case)"))
_UPPER_WORD_TAIL = (_UPPER_WORD[0], N_(
    "a word in capitals, then any lowercase (`DON`, `HTTPServer`), with one space or symbol "
    "before it and a contraction after it ('s 't 're 've 'm 'll 'd, any case)"))
_DIGITS_3 = (N_("digits (1-3)"), N_("digits in groups of one to three, from the left (`1234567` "
                                    "-> 123 456 7)"))  # fmt: skip
_PUNCT_NEWLINES = (N_("punctuation"), N_("a run of punctuation or symbols, with the space before "
                                         "it and the line breaks after it"))  # fmt: skip
_PUNCT_SLASHES = (N_("punctuation"), N_("a run of punctuation or symbols, with the space before "
                                        "it and the line breaks or slashes after it"))  # fmt: skip
_SPACE_LAST = (N_("whitespace but its last"),
               N_("whitespace that leaves its last space to the word after it"))
_END_SPACE = (N_("end whitespace"), N_("whitespace at the very end of the text"))
_ONE_SPACE = (N_("one space"), N_("one whitespace character (what nothing else took)"))
_SPACE_RUN = (N_("whitespace"), N_("a run of whitespace (what nothing else took)"))
_LINE_BREAKS = (N_("line breaks"), N_("whitespace up to and including line breaks"))

ALTERNATIVE_NAMES: dict[str, tuple[str, str]] = {
    # GPT-2
    r"'(?:[sdmt]|ll|ve|re)": (N_("contraction"), N_("a contraction in lowercase only: 's 't 'd "
                                                    "'m 'll 've 're ('S is not one)")),  # fmt: skip
    r" ?\p{L}++": _LETTERS_SPACE,
    r" ?\p{N}++": (N_("digits"), N_("a run of digits of any length, with the one space before it")),
    r" ?[^\s\p{L}\p{N}]++": (N_("punctuation"), N_("a run of punctuation or symbols, with the one "
                                                   "space before it")),  # fmt: skip
    r"\s++$": _END_SPACE,
    r"\s+(?!\S)": _SPACE_LAST,
    r"\s": _ONE_SPACE,
    # cl100k_base
    r"'(?i:[sdmt]|ll|ve|re)": _CONTRACTION_ANY,
    r"[^\r\n\p{L}\p{N}]?+\p{L}++": _LETTERS_SYMBOL,
    r"\p{N}{1,3}+": _DIGITS_3,
    r" ?[^\s\p{L}\p{N}]++[\r\n]*+": _PUNCT_NEWLINES,
    r"\s*[\r\n]": (N_("line break"), N_("whitespace up to and including one line break")),
    # o200k_base and Mistral's Tekken
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?": _LOWER_WORD_TAIL,
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?": _UPPER_WORD_TAIL,
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+": _LOWER_WORD,
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*": _UPPER_WORD,
    r"\p{N}{1,3}": _DIGITS_3,
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*": _PUNCT_SLASHES,
    r"\s*[\r\n]+": _LINE_BREAKS,
    r"\s+": _SPACE_RUN,
    # Llama 3 and Qwen 2.5
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)": _CONTRACTION_ANY,
    r"[^\r\n\p{L}\p{N}]?\p{L}+": _LETTERS_SYMBOL,
    r" ?[^\s\p{L}\p{N}]+[\r\n]*": _PUNCT_NEWLINES,
    r"\p{N}": (N_("one digit"), N_("one digit: every digit is a chunk of its own")),
    # BERT
    _BERT_WORD: (N_("word"), N_("a run of anything but whitespace and punctuation")),
    _BERT_PUNCT: (N_("punctuation"), N_("one punctuation mark or ASCII symbol, always alone")),
    # SentencePiece
    SENTENCEPIECE_PATTERN: (N_("whole text"), N_("the whole text: no pre-split, each space becomes ▁")),
}


@dataclass(frozen=True, slots=True)
class PreSplitter:
    """A way to cut text before the model sees it.

    drops_whitespace: the chunks skip whitespace (BERT); else they cover the text exactly.
    metaspace: a space is shown, and modelled, as `▁` (SentencePiece).
    """

    name: str
    label: str
    pat_str: str
    drops_whitespace: bool = False
    metaspace: bool = False


PRE_SPLITTERS: dict[str, PreSplitter] = {
    s.name: s
    for s in (
        PreSplitter("gpt2", "GPT-2", PATTERNS["gpt2"]),
        PreSplitter("cl100k_base", "cl100k_base (GPT-4)", PATTERNS["cl100k_base"]),
        PreSplitter("o200k_base", "o200k_base (GPT-4o)", PATTERNS["o200k_base"]),
        PreSplitter("llama3", "Llama 3", LLAMA3_PAT),
        PreSplitter("qwen2.5", "Qwen 2.5", QWEN_PAT),
        PreSplitter("bert", N_("BERT (whitespace and punctuation)"), BERT_PATTERN,
                    drops_whitespace=True),
        PreSplitter("sentencepiece", N_("SentencePiece (no pre-split, ▁ for space)"),
                    SENTENCEPIECE_PATTERN, metaspace=True),
    )
}  # Mistral Nemo's regex lives in its Tekken file: the page adds it from the loaded tokenizer.

# The quirks the lesson asks about, each a short text that a regex treats in a surprising way.
QUIRKS: dict[str, str] = {
    "I'm": "I'm here",
    "don't": "don't stop",
    "DON'T": "DON'T STOP",
    N_("indented code"): "   indented code",  # the names in words: the page says them
    "1234567": "cost 1234567",
    "你好世界": "你好世界",
    N_("line breaks"): "end.\n\n  next",
}


def alternatives(pat_str: str) -> list[str]:
    """The top-level alternatives of a regex, in order: `a|(b|c)|[|]` -> ['a', '(b|c)', '[|]'].

    subtle: a `]` right after `[` or `[^` is a literal, not the class's end, and `\\` escapes the
    next character anywhere. Nested classes (regex's V1 sets) are counted as nesting.
    """
    parts: list[str] = []
    depth = in_class = start = i = 0
    while i < len(pat_str):
        ch = pat_str[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            in_class += 1
            i += 1
            if pat_str[i : i + 1] == "^":
                i += 1
            if pat_str[i : i + 1] == "]":  # a literal `]` first in the class
                i += 1
            continue
        if in_class:
            in_class -= ch == "]"
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pat_str[start:i])
            start = i + 1
        i += 1
    parts.append(pat_str[start:])
    return parts


def describe(alternative: str, say: Say = in_english) -> tuple[str, str]:
    """(short name, plain words) of an alternative, said through `say`; an unknown one is shown
    as itself."""
    if alternative not in ALTERNATIVE_NAMES:
        return say(N_("other")), say(N_("the regex alternative {regex}"), regex=alternative)
    name, words = ALTERNATIVE_NAMES[alternative]
    return say(name), say(words)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A chunk the split cut, where it sits (character offsets) and which alternative made it."""

    text: str
    start: int
    end: int
    alternative: int


@functools.lru_cache(maxsize=32)
def _named(pat_str: str) -> tuple[regex.Pattern[str], tuple[str, ...]]:
    parts = alternatives(pat_str)
    names = tuple(f"alt{k}" for k in range(len(parts)))
    joined = "|".join(f"(?P<{n}>{p})" for n, p in zip(names, parts))
    return regex.compile(joined), names


def split_named(text: str, pat_str: str) -> list[Chunk]:
    """The chunks `findall(pat_str, text)` cuts, each with the index of the alternative that
    matched it. Wrapping each alternative in a named group changes no match: the engine still
    tries them in order at each position, and the one whose group took part is the one that won.
    """
    compiled, names = _named(pat_str)
    chunks = []
    for match in compiled.finditer(text):
        which = next(k for k, n in enumerate(names) if match.group(n) is not None)
        chunks.append(Chunk(match.group(), match.start(), match.end(), which))
    return chunks


def shown(chunk_text: str, splitter: PreSplitter) -> str:
    """A chunk as the model sees it: SentencePiece's spaces are `▁`, with the dummy prefix."""
    if not splitter.metaspace:
        return chunk_text
    return METASPACE + chunk_text.replace(" ", METASPACE)


def compare_quirks(splitters: list[PreSplitter], texts: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """quirk name -> splitter name -> the chunks it cuts (as the model sees them)."""
    return {
        quirk: {s.name: [shown(c.text, s) for c in split_named(text, s.pat_str)] for s in splitters}
        for quirk, text in texts.items()
    }
