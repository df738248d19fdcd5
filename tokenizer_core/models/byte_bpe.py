"""Byte-level BPE encoding: tiktoken's ids from tiktoken's ranks, in pure Python.

Encoding: split out allowed special tokens, cut the rest with the pre-tokenization regex, and
turn each chunk's bytes into tokens lowest rank first (merge.py). A per-chunk cache does most of
the work on real text, where the same words come back again and again. Byte level never meets
an unknown character: every byte is a token.

A chunk the cache has not seen is cut where no token can join across (`segments`); a chunk of
3-byte characters, which is how Chinese arrives, is cut by a bytes regex in C
(`three_byte_segments`), and a piece of at most 3 bytes skips the merge loop (`merge_small`).

Two sources of ranks, one class:
- `from_ranks`: tiktoken's format, `mergeable_ranks` maps a token's bytes to its rank, which is
  also its id. Any adjacent pair whose *joined bytes* are a token may join, and a chunk that is
  itself a token is taken whole, exactly as tiktoken does (GPT-2, cl100k_base, o200k_base).
- `from_merges`: merges learned here. Only a learned *pair* joins (minbpe's and HF's rule), so
  encoding the training text gives back the training segmentation.

Leaves out: training (trainers/bpe.py) and loading rank files (reference/rankfiles.py).
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Callable, Iterable, Mapping, Sequence

import regex

from ..interface import AllowedSpecial, DisallowedSpecial, resolve_special, split_on_special
from ..levels import BYTE_SYMBOLS, byte_parts
from ..pretokenize import GPT2_PATTERN, Piece, compile_pattern, regex_pieces
from ..tokens import Token, tokens_from_bytes
from ..trace import EncodeStep
from .merge import byte_pair_boundaries, learned_rank_of, merge_spans, merge_traced

CACHE_LIMIT = 200_000  # chunks remembered before the cache starts over (bounds memory)
_MIN_SPLIT_BYTES = 4  # shorter chunks are merged whole: one character, or a few ASCII bytes


def joinable_pairs(tokens: Iterable[bytes]) -> bytearray:
    """flags[a << 8 | b] is 1 when some token holds byte a right before byte b.

    Only between such bytes can a join ever happen: any join across a boundary makes a token
    that holds the two bytes on either side of it.
    """
    flags = bytearray(65_536)
    for token in tokens:
        for a, b in zip(token, token[1:]):
            flags[a << 8 | b] = 1
    return flags


def _edges(ch: str) -> tuple[int, int]:
    """The first and last UTF-8 byte of one character."""
    data = ch.encode("utf-8")
    return data[0], data[-1]


def segments(chunk: str, flags: bytearray, edges: dict[str, tuple[int, int]]) -> list[str]:
    """The chunk cut between characters where no join can cross (see joinable_pairs).

    subtle: BPE on a sequence with such a boundary is BPE on each side alone: the lowest-rank
    rule picks joins inside each side by that side's pairs only, so the interleaving changes
    but neither side's result does. Chinese text cuts into single characters this way, which a
    cache then answers, instead of a merge loop over every new sentence. Cuts inside a
    character are left to the merge (a character is at most 4 bytes). `edges` remembers each
    character's first and last byte.
    """
    pieces: list[str] = []
    start = 0
    last = edges.get(chunk[0]) or edges.setdefault(chunk[0], _edges(chunk[0]))
    for i in range(1, len(chunk)):
        ch = chunk[i]
        edge = edges.get(ch) or edges.setdefault(ch, _edges(ch))
        if not flags[last[1] << 8 | edge[0]]:
            pieces.append(chunk[start:i])
            start = i
        last = edge
    pieces.append(chunk[start:])
    return pieces


# A run of characters that are 3 bytes each in UTF-8 (CJK, kana, Hangul, Thai, Devanagari...):
# between two of them the byte pair is always (continuation byte, lead byte E0..EF).
THREE_BYTE_RUN = regex.compile("[\u0800-\ud7ff\ue000-\uffff]+")


def joins_between_three_byte_characters(flags: bytearray) -> re.Pattern[bytes]:
    """A bytes regex matching, in UTF-8 text, a character's last byte followed by the next
    character's 3-byte lead where some token holds the two (see joinable_pairs).

    It lets `three_byte_segments` find the few places a join can cross in C, instead of a
    Python step per character. In valid UTF-8 a lead byte only ever starts a character, so a
    match is always at a character boundary.
    """
    alternatives = []
    for a in range(0x80, 0xC0):
        leads = [b for b in range(0xE0, 0xF0) if flags[a << 8 | b]]
        if leads:
            alternatives.append(b"\\x%02x[%s]" % (a, b"".join(b"\\x%02x" % b for b in leads)))
    return re.compile(b"|".join(alternatives) or b"(?!)")


def three_byte_segments(chunk: str, data: bytes, joins: re.Pattern[bytes]) -> list[str]:
    """`segments` for a chunk of 3-byte characters only (THREE_BYTE_RUN), `data` its UTF-8.

    Every character is its own segment except where `joins` finds a pair that can join: a
    match holds the last byte of character k - 1 and the lead byte of character k, so it ends
    at byte 3k + 1 and glues the two.
    """
    pieces = list(chunk)
    for match in reversed(list(joins.finditer(data))):  # right to left: indices stay valid
        k = match.end() // 3  # the character whose lead byte the match ends on
        pieces[k - 1] += pieces[k]
        del pieces[k]
    return pieces


def merge_small(data: bytes, ranks: Mapping[bytes, int]) -> list[int] | None:
    """tiktoken's rule on 1 to 3 bytes, spelled out without a loop; None for longer pieces.

    Most segments a cold cache meets are one CJK character (3 bytes), and the general loop
    costs several times this. With three bytes a b c: the lower-ranked of (a b) and (b c)
    joins first, then the result joins the last byte if the whole is a token. subtle: the
    whole may be a token that no join reaches (neither pair is one): then it stays 3 bytes.
    """
    n = len(data)
    if n == 1:
        return [ranks[data]]
    if n == 2:
        whole = ranks.get(data)
        return [whole] if whole is not None else [ranks[data[:1]], ranks[data[1:]]]
    if n != 3:
        return None
    left, right = ranks.get(data[:2]), ranks.get(data[1:])
    if left is None and right is None:
        return [ranks[data[:1]], ranks[data[1:2]], ranks[data[2:]]]
    whole = ranks.get(data)
    if whole is not None:
        return [whole]
    if right is None or (left is not None and left <= right):  # leftmost on a tie
        return [left, ranks[data[2:]]]  # type: ignore[list-item]
    return [ranks[data[:1]], right]


class ByteLevelBPE:
    """A byte-level BPE tokenizer: a vocabulary, a joining rule, a regex and special tokens."""

    def __init__(
        self,
        name: str,
        encoder: Mapping[bytes, int],
        rank_of: Callable[[bytes, bytes], int | None],
        pat_str: str,
        special_tokens: Mapping[str, int],
        whole_chunk_shortcut: bool,
    ) -> None:
        self.name = name
        self.pat_str = pat_str
        self.encoder = dict(encoder)  # token bytes -> id (tiktoken: mergeable_ranks)
        self._rank_of = rank_of
        self._whole_chunk_shortcut = whole_chunk_shortcut
        self._special_tokens = dict(special_tokens)
        self._special_ids = frozenset(self._special_tokens.values())
        missing = [b for b in range(256) if bytes([b]) not in self.encoder]
        if missing:
            raise ValueError(
                f"ranks for {name!r} lack {len(missing)} single bytes (first: {missing[0]:#04x}); "
                "a byte-level vocabulary must hold all 256 so that no input is unknown"
            )
        self.decoder: dict[int, bytes] = {i: tok for tok, i in self.encoder.items()}
        for token, token_id in self._special_tokens.items():
            self.decoder[token_id] = token.encode("utf-8")
        if len(self.decoder) != len(self.encoder) + len(self._special_tokens):
            raise ValueError(f"ranks for {name!r} give two tokens the same id")
        self._vocab_size = max(self.decoder) + 1
        self._regex = compile_pattern(pat_str)
        self._cache: dict[str, tuple[int, ...]] = {}
        self._segment_cache: dict[str, tuple[int, ...]] = {}
        self._edges: dict[str, tuple[int, int]] = {}
        self._joinable: bytearray | None = None  # built on the first chunk the cache misses
        self._joins_3: re.Pattern[bytes] | None = None  # and this from it

    @classmethod
    def from_ranks(
        cls,
        name: str,
        mergeable_ranks: Mapping[bytes, int],
        pat_str: str = GPT2_PATTERN,
        special_tokens: Mapping[str, int] | None = None,
        explicit_n_vocab: int | None = None,
    ) -> ByteLevelBPE:
        """tiktoken's rule over tiktoken's ranks: ids identical to tiktoken's."""
        ranks = dict(mergeable_ranks)
        model = cls(name, ranks, lambda a, b: ranks.get(a + b), pat_str, special_tokens or {}, True)
        if explicit_n_vocab is not None and explicit_n_vocab != model.vocab_size:
            raise ValueError(
                f"{name!r} should have {explicit_n_vocab} tokens but its ranks give {model.vocab_size}"
            )
        return model

    @classmethod
    def from_merges(
        cls,
        name: str,
        merges: Sequence[tuple[bytes, bytes]],
        pat_str: str = GPT2_PATTERN,
        special_tokens: Sequence[str] = (),
    ) -> ByteLevelBPE:
        """Learned merges: special tokens first, then the 256 bytes, then each new token."""
        encoder = {tok: len(special_tokens) + i for i, tok in enumerate(BYTE_SYMBOLS)}
        for a, b in merges:
            encoder.setdefault(a + b, len(special_tokens) + len(encoder))
        specials = {tok: i for i, tok in enumerate(special_tokens)}
        return cls(name, encoder, learned_rank_of(merges), pat_str, specials, False)

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._special_tokens)

    def encode_chunk(self, chunk: bytes) -> list[int]:
        """Ids of one pre-tokenized chunk's bytes (no cache)."""
        if self._whole_chunk_shortcut:
            whole = self.encoder.get(chunk)
            if whole is not None:  # tiktoken's rule: a chunk that is a token is taken whole
                return [whole]
        return self._merge(chunk)

    def _encode_new_chunk(self, chunk: str) -> tuple[int, ...]:
        """encode_chunk for a chunk the cache has not seen: cut where no join can cross, and
        answer each segment from the segment cache (same ids, far fewer merge loops)."""
        data = chunk.encode("utf-8")
        if len(chunk) < 2 or len(data) < _MIN_SPLIT_BYTES:
            return tuple(self.encode_chunk(data))
        if self._whole_chunk_shortcut and data in self.encoder:
            return (self.encoder[data],)
        if self._joinable is None:
            self._joinable = joinable_pairs(self.encoder)
            self._joins_3 = joins_between_three_byte_characters(self._joinable)
        if THREE_BYTE_RUN.fullmatch(chunk):  # Chinese prose: found in C, not char by char
            parts = three_byte_segments(chunk, data, self._joins_3)
        else:
            parts = segments(chunk, self._joinable, self._edges)
        if len(parts) == 1:
            return tuple(self._merge(data))
        cache = self._segment_cache
        found = list(map(cache.get, parts))
        if None in found:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            for k, part in enumerate(parts):
                if found[k] is None:
                    found[k] = cache[part] = tuple(self._merge(part.encode("utf-8")))
        return tuple(chain.from_iterable(found))  # type: ignore[arg-type]

    def clear_cache(self) -> None:
        """Forget every chunk and segment seen (for measuring cold encoding; memory is bounded
        by CACHE_LIMIT anyway)."""
        self._cache.clear()
        self._segment_cache.clear()

    def _merge(self, data: bytes) -> list[int]:
        """The joining rule on `data` alone (no whole-token shortcut: BPE proper)."""
        encoder = self.encoder
        if self._whole_chunk_shortcut:
            if len(data) <= 3:
                return merge_small(data, encoder)  # type: ignore[return-value]
            bounds = byte_pair_boundaries(data, encoder)  # the tiktoken rule's fast path
            if bounds is not None:
                return [encoder[data[a:b]] for a, b in zip(bounds, bounds[1:])]
        return [encoder[data[a:b]] for a, b in merge_spans(byte_parts(data), self._rank_of)]

    def encode_ordinary_ids(self, text: str) -> list[int]:
        """Ids for text, reading any special-token string as plain text."""
        cache = self._cache
        ids: list[int] = []
        for chunk in self._regex.findall(text):
            cached = cache.get(chunk)
            if cached is None:
                if len(cache) >= CACHE_LIMIT:
                    cache.clear()
                cached = cache[chunk] = self._encode_new_chunk(chunk)
            ids.extend(cached)
        return ids

    def encode_ids(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[int]:
        """Ids for text, with tiktoken's special-token rule (see interface.py)."""
        allowed = resolve_special(text, self._special_tokens, allowed_special, disallowed_special)
        ids: list[int] = []
        for segment, is_special, _ in split_on_special(text, allowed):
            if is_special:
                ids.append(self._special_tokens[segment])
            else:
                ids.extend(self.encode_ordinary_ids(segment))
        return ids

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        ids = self.encode_ids(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
        return tokens_from_bytes(text, ((i, self.decoder[i]) for i in ids), self._special_ids)

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        try:
            return b"".join(self.decoder[i] for i in ids)
        except KeyError as error:
            raise ValueError(
                f"id {error.args[0]} is not in {self.name!r} (ids run 0..{self._vocab_size - 1})"
            ) from None

    def decode(self, ids: Sequence[int]) -> str:
        """Exact for any ids that encode returned; bytes that are not UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def pieces(self, text: str) -> list[Piece]:
        """The pre-tokenized chunks of text, with character offsets."""
        return regex_pieces(text, self.pat_str)

    def trace_chunk(self, chunk: str | bytes) -> tuple[list[bytes], list[EncodeStep]]:
        """Every join that turns one chunk's bytes into tokens, lowest rank first.

        Replays the rule from single bytes even when the chunk is a token as a whole, so a class
        sees GPT-2 build ` tokenization` step by step (`encode_chunk` takes tiktoken's shortcut).
        """
        data = chunk.encode("utf-8") if isinstance(chunk, str) else chunk
        return self.trace_parts(byte_parts(data))

    def trace_parts(self, parts: Sequence[bytes]) -> tuple[list[bytes], list[EncodeStep]]:
        """`trace_chunk` from the chunk's parts, already split (`corpus.byte_parts`)."""
        return merge_traced(parts, self._rank_of)
