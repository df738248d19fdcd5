"""A complete tokenizer on one screen: special tokens first, then bytes, then merges.

What it adds to the textbook loops (trainers/textbook.py): the whole round trip a model needs.
`encode` cuts the text at special-token strings *before* anything else (so `<|endoftext|>` is
one id, never the bytes `<`, `|`, ...), turns the rest into UTF-8 bytes and joins pairs by
merge rank; `decode` glues the tokens' bytes back together, so decode(encode(text)) == text for
every string. Ids follow minbpe's layout: 0..255 are the bytes, 256.. the merges in order, then
the special tokens.

The joining rule is tiktoken's: the adjacent pair whose joined bytes have the lowest rank,
leftmost on ties, until no joined pair is in the vocabulary. The Practice page quotes this
module as an exercise, and its tests check its ids against tiktoken's on the same ranks.

Leaves out: a pre-tokenizer regex (the whole text between specials is one piece), offsets,
caching and speed (models/byte_bpe.py has those), and a way to refuse special strings.
"""

from __future__ import annotations

import re
from typing import Sequence

Merge = tuple[bytes, bytes]


class TinyTokenizer:
    """Byte-level BPE with special tokens; `merges` as the byte-level trainer returns them."""

    def __init__(self, merges: Sequence[Merge], special_tokens: Sequence[str] = ()) -> None:
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
        self.ranks: dict[bytes, int] = {token: i for i, token in self.vocab.items()}
        for a, b in merges:
            if a not in self.ranks or b not in self.ranks:
                raise ValueError(f"merge {a!r} + {b!r} joins a token that is not made yet")
            if a + b in self.ranks:
                raise ValueError(f"merge {a!r} + {b!r} makes {a + b!r} a second time")
            self.ranks[a + b] = len(self.vocab)
            self.vocab[len(self.vocab)] = a + b
        self.special_ids: dict[str, int] = {}
        for special in special_tokens:
            if not special or special in self.special_ids:
                raise ValueError(f"special token {special!r} is empty or listed twice")
            self.special_ids[special] = len(self.vocab)
            self.vocab[len(self.vocab)] = special.encode("utf-8")

    def split_specials(self, text: str) -> list[str]:
        """The text cut around special-token strings, the longest first where two overlap."""
        if not self.special_ids:
            return [text] if text else []
        longest_first = sorted(self.special_ids, key=len, reverse=True)
        pattern = "(" + "|".join(re.escape(s) for s in longest_first) + ")"
        return [part for part in re.split(pattern, text) if part]

    def encode_bytes(self, data: bytes) -> list[int]:
        """Join the pair with the lowest rank, leftmost on ties, until no pair is known."""
        parts = [bytes([b]) for b in data]
        while len(parts) > 1:
            ranked = [
                (self.ranks[a + b], i)
                for i, (a, b) in enumerate(zip(parts, parts[1:]))
                if a + b in self.ranks
            ]
            if not ranked:
                break
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return [self.ranks[part] for part in parts]

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        for chunk in self.split_specials(text):
            if chunk in self.special_ids:
                ids.append(self.special_ids[chunk])
            else:
                ids.extend(self.encode_bytes(chunk.encode("utf-8")))
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        data = b"".join(self.vocab[i] for i in ids)
        return data.decode("utf-8", errors="replace")
