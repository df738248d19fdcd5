"""The effect of the pre-tokenization regex, measured: the same corpus, the same number of merges,
one byte-level BPE per regex, and the held-out bytes per token each reaches at every vocab size.

The corpus is several texts (English prose, code, Chinese, emoji); each gives its last part to
the held-out text (`mixed_split`), so the held-out part holds every kind and not only the last
text. Then `compression_curve` (compression.py) trains once per regex and reads every k.

What to expect: the regexes agree on plain prose; they differ where they differ (digits in
groups of three or one at a time, a symbol joined to the word after it, contractions in any
case), so the lines part on code and numbers and barely on English.

Leaves out: regexes that drop text (BERT's split drops whitespace, so its bytes per token would
count fewer bytes) and SentencePiece's no-split (merges across words: a different trainer).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .compression import CompressionCurve, HeldOutSplit, compression_curve, split_held_out


def mixed_split(texts: Sequence[str], held_out_share: float = 0.2) -> HeldOutSplit:
    """Each text cut in two; the first parts joined are the training text, the last parts the
    held-out text (one line break between texts)."""
    parts = [split_held_out(text, held_out_share) for text in texts]
    train = "\n".join(p.train for p in parts)
    return HeldOutSplit(train, "\n".join(p.held_out for p in parts), len(train))


def regex_curves(split: HeldOutSplit, patterns: Mapping[str, str], merges: int
                 ) -> dict[str, CompressionCurve]:
    """name -> the compression curve of byte-level BPE trained with that regex."""
    return {name: compression_curve(split, merges, pat) for name, pat in patterns.items()}
