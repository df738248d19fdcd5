"""Compression against vocabulary size from ONE training run: the first k merges are a tokenizer.

What it adds:
- `split_held_out`: train on the first part of a text, measure on the rest, cut at a paragraph or
  line break;
- `compression_curve`: byte-level BPE trained once on the training part, and the tokens the
  first k merges need on the held-out part (and on the training part, to show over-fitting)
  for EVERY k, from one encoding pass (prefix.token_counts_by_merges explains why that is exact);
- `log_spaced`: vocabulary sizes spread evenly on a log axis, for sampling the curve.

Leaves out: other tokenizers' numbers (quality.py), charts and caching (the app).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from ..messages import N_, Refusal
from ..models.byte_bpe import ByteLevelBPE
from ..pretokenize import GPT2_PATTERN
from ..trainers.bpe import train_bpe
from ..trainers.corpus import corpus_from_text
from .merge_prefix import token_counts_by_merges
from .metrics import TextStats, is_space_separated, text_stats

Merge = tuple[bytes, bytes]
Progress = Callable[[int, int], None]
BYTE_VOCAB = 256  # byte-level BPE starts from the 256 single bytes
SPLIT_WINDOW = 40  # characters the held-out cut may move, at least, to find a break


# --- the held-out split ---------------------------------------------------------------------


@dataclass(frozen=True)
class HeldOutSplit:
    """`train` is text[:cut] and `held_out` is text[cut:]; the cut sits at a paragraph or line
    start when one is near, so no word is cut in two."""

    train: str
    held_out: str
    cut: int

    @property
    def held_out_share(self) -> float:
        return len(self.held_out) / (self.cut + len(self.held_out))

    @property
    def held_out_first_line(self) -> int:
        """1-based number of the line where the held-out part begins."""
        return self.train.count("\n") + 1


def _nearest(text: str, target: int, separator: str, window: int) -> int | None:
    """The offset just after the occurrence of `separator` whose end is nearest to target,
    among those ending within `window` characters of it."""
    best: int | None = None
    found = text.find(separator, max(0, target - window - len(separator)))
    while 0 <= found and found + len(separator) <= target + window:
        end = found + len(separator)
        if abs(end - target) <= window and (best is None or abs(end - target) < abs(best - target)):
            best = end
        found = text.find(separator, found + 1)
    return best


def split_held_out(text: str, held_out_share: float) -> HeldOutSplit:
    """Train on the first (1 - share) of the text, hold out the rest.

    The cut moves to the nearest paragraph break (a blank line) within 5% of the text's length
    (at least 40 characters), else the nearest line break, else the nearest space, else stays
    where the share puts it.
    Both parts must hold some non-space text.
    """
    if not 0 < held_out_share < 1:
        raise ValueError(f"held-out share must be between 0 and 1, got {held_out_share!r}")
    target = round(len(text) * (1 - held_out_share))
    window = max(SPLIT_WINDOW, len(text) // 20)
    cut = target
    for separator in ("\n\n", "\n", " "):
        found = _nearest(text, target, separator, window)
        if found is not None:
            cut = found
            break
    train, held_out = text[:cut], text[cut:]
    if not train.strip() or not held_out.strip():
        raise Refusal(
            N_("a text of {count} characters is too short to split into a training part and a "
               "held-out part of {percent}%; give a longer text"),
            count=len(text), percent=round(held_out_share * 100))
    return HeldOutSplit(train, held_out, cut)


# --- the curve ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompressionCurve:
    """One byte-level BPE training run, read at every k.

    `held_out_tokens[k]` and `train_tokens[k]` are the tokens the first k merges need for each
    part. The vocabulary after k merges has BYTE_VOCAB + k tokens (no special tokens).
    """

    merges: tuple[Merge, ...]
    held_out_tokens: tuple[int, ...]
    train_tokens: tuple[int, ...]
    held_out: TextStats  # characters, bytes, words of the held-out part (tokens: with all merges)
    train: TextStats
    space_separated: bool
    stop_reason: str
    requested_merges: int
    pat_str: str = GPT2_PATTERN

    @property
    def learned_merges(self) -> int:
        return len(self.merges)

    def at(self, k: int, part: str = "held_out") -> TextStats:
        """Counts for the first k merges on the held-out part (or part="train")."""
        if not 0 <= k <= len(self.merges):
            raise ValueError(f"k must be between 0 and {len(self.merges)} learned merges, got {k}")
        if part == "train":
            base, tokens = self.train, self.train_tokens
        else:
            base, tokens = self.held_out, self.held_out_tokens
        return replace(base, tokens=tokens[k])

    def tokenizer(self, k: int, name: str | None = None) -> ByteLevelBPE:
        """The tokenizer made of the first k merges."""
        if not 0 <= k <= len(self.merges):
            raise ValueError(f"k must be between 0 and {len(self.merges)} learned merges, got {k}")
        return ByteLevelBPE.from_merges(
            name or f"ours ({BYTE_VOCAB + k:,} vocab)", self.merges[:k], self.pat_str
        )


def compression_curve(
    split: HeldOutSplit,
    max_merges: int,
    pat_str: str = GPT2_PATTERN,
    progress: Progress | None = None,
) -> CompressionCurve:
    """Train byte-level BPE on split.train up to max_merges (it may stop earlier when no pair is
    left), then count tokens on both parts for every k. `progress(done, total)` is train_bpe's."""
    corpus = corpus_from_text(split.train, "byte", pat_str)
    training = train_bpe(corpus, max_merges, progress=progress)
    merges = tuple(training.merges)  # type: ignore[arg-type]
    held_out = token_counts_by_merges(merges, split.held_out, pat_str)
    train = token_counts_by_merges(merges, split.train, pat_str)
    return CompressionCurve(
        merges=merges,
        held_out_tokens=tuple(held_out),
        train_tokens=tuple(train),
        held_out=replace(text_stats(split.held_out, ()), tokens=held_out[-1]),
        train=replace(text_stats(split.train, ()), tokens=train[-1]),
        space_separated=is_space_separated(split.held_out),
        stop_reason=training.stop_reason,
        requested_merges=max_merges,
        pat_str=pat_str,
    )


def log_spaced(low: int, high: int, points: int, include: Iterable[int] = ()) -> list[int]:
    """About `points` whole numbers from low to high (both kept), evenly spaced on a log axis,
    plus every value of `include` inside [low, high]; sorted, no repeats."""
    if not 1 <= low <= high:
        raise ValueError(f"need 1 <= low <= high, got low={low}, high={high}")
    if points < 2:
        raise ValueError(f"need at least 2 points, got {points}")
    step = math.log(high / low) / (points - 1)
    values = {round(low * math.exp(step * i)) for i in range(points)}
    values |= {low, high} | {v for v in include if low <= v <= high}
    return sorted(values)
