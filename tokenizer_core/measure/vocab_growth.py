"""The "grow a Chinese vocabulary" experiment: bytes first, then whole characters as tokens.

Start from the 256 byte tokens, where a Chinese character costs its 3 UTF-8 bytes. Add the N
most frequent Chinese characters of a training text as single tokens (most frequent first;
ties go to the character met first, as BPE's `first` tie-break does). Measure how many tokens
a held-out Chinese text needs, for every N at once:

    tokens(N) = sum over the held-out characters c of (1 if c is among the first N added,
                                                       else len(c.encode("utf-8")))

Each added character saves (its byte length - 1) tokens per occurrence in the held-out text,
so the whole curve is one running sum. The curve flattens where the held-out text's remaining
characters are rare, and never reaches one token per character if the held-out text holds
characters that the training text never used (`GrowthCurve.unseen`).

`grow_tokens` encodes a text with the first N added, as Token records (ids: bytes 0..255, the
k-th added character 256 + k), so the app draws it with render.py like any tokenizer.

Leaves out: merges between bytes, tokens longer than one character, and pre-tokenization. This
is a thought experiment about characters, not a trainer (trainers/bpe.py is the trainer).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from ..messages import N_, Refusal
from ..tokens import Token, tokens_from_bytes

CharFilter = Callable[[str], bool]
BYTE_TOKENS = 256

# Han ideographs: the CJK Unified Ideographs blocks and extensions, and the compatibility block.
HAN_RANGES = (
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF),
    (0x2A700, 0x2EBEF), (0x2F800, 0x2FA1F), (0x30000, 0x323AF),
)  # fmt: skip
# Chinese punctuation: CJK Symbols and Punctuation, full-width forms, and curly quotes/ellipsis.
PUNCTUATION_RANGES = ((0x3000, 0x303F), (0xFF00, 0xFFEF), (0x2018, 0x201F), (0x2026, 0x2026))


def _in(ranges: Sequence[tuple[int, int]], ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_han(ch: str) -> bool:
    """A Chinese character (Han ideograph): 你 yes; ，, a, 🙂 no."""
    return _in(HAN_RANGES, ch)


def is_han_or_punctuation(ch: str) -> bool:
    """A Han ideograph or Chinese (full-width) punctuation such as ，。！“”…."""
    return is_han(ch) or _in(PUNCTUATION_RANGES, ch)


def rank_characters(text: str, keep: CharFilter = is_han) -> list[tuple[str, int]]:
    """(character, count) for the characters `keep` accepts, most frequent first; ties go to the
    one met first in the text (Counter keeps first-seen order and most_common is stable)."""
    return Counter(ch for ch in text if keep(ch)).most_common()


@dataclass(frozen=True)
class GrowthCurve:
    """tokens[n]: tokens the held-out text needs with the first n of `added` as tokens."""

    added: tuple[str, ...]
    train_counts: tuple[int, ...]
    tokens: tuple[int, ...]  # len(added) + 1 values, tokens[0] = the held-out text's bytes
    heldout_chars: int
    unseen: int  # held-out characters `keep` accepts that training never saw (stay bytes)

    def vocab_size(self, n: int) -> int:
        return BYTE_TOKENS + n

    @property
    def floor(self) -> int:
        """Tokens with every ranked character added: the curve's last value."""
        return self.tokens[-1]


def grow_curve(
    train_text: str, heldout_text: str, keep: CharFilter = is_han, max_added: int | None = None
) -> GrowthCurve:
    """The whole curve, N = 0 .. (distinct kept characters of the training text, or max_added)."""
    if not heldout_text:
        raise Refusal(N_("the held-out text is empty; give some Chinese text to measure on"))
    every = rank_characters(train_text, keep)
    ranked = every if max_added is None else every[: max(0, max_added)]
    held = Counter(heldout_text)
    tokens = [len(heldout_text.encode("utf-8"))]
    for ch, _ in ranked:
        saved = held.get(ch, 0) * (len(ch.encode("utf-8")) - 1)
        tokens.append(tokens[-1] - saved)
    seen = {ch for ch, _ in every}
    unseen = sum(n for ch, n in held.items() if keep(ch) and ch not in seen)
    return GrowthCurve(
        added=tuple(ch for ch, _ in ranked),
        train_counts=tuple(n for _, n in ranked),
        tokens=tuple(tokens),
        heldout_chars=len(heldout_text),
        unseen=unseen,
    )


def grow_tokens(text: str, added: Sequence[str]) -> list[Token]:
    """`text` encoded with the 256 bytes plus `added` (each one character) as single tokens."""
    ids = {ch: BYTE_TOKENS + k for k, ch in enumerate(added)}
    if len(ids) != len(added) or any(len(ch) != 1 for ch in added):
        raise Refusal(N_("added tokens must be distinct single characters, e.g. ['的', '我']"))
    pieces: list[tuple[int, bytes]] = []
    for ch in text:
        data = ch.encode("utf-8")
        if ch in ids:
            pieces.append((ids[ch], data))
        else:
            pieces.extend((b, bytes([b])) for b in data)
    return tokens_from_bytes(text, pieces)
