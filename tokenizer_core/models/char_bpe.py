"""Encoding and decoding with merges learned at the word or sentence level.

What it adds to merge.py: the vocabulary (special tokens first, then the alphabet, then each new
token in merge order, derived from the merges, never stored twice), pre-tokenization by level,
unknown characters, and Token records with character offsets.

- word:     whitespace-separated words, each ending in `</w>`; `</w>` covers no character, so
            `est</w>` covers `est` and a lone `</w>` is a zero-width token at the word's end.
- sentence: each line is one sequence and spaces are ordinary characters; the line break itself
            is not a token.

Round trip, by level (what `decode(encode(text))` gives back):
- word:     the words, joined by single spaces: whitespace layout is lost;
- sentence: each line exactly, but line breaks are not tokens, so they are lost.
Unknown characters raise a ValueError naming them, or become the model's unknown token.

Leaves out: byte-level models (byte_bpe.py) and training (trainers/bpe.py).
"""

from __future__ import annotations

from typing import Sequence

from ..interface import AllowedSpecial, DisallowedSpecial, encode_with_specials
from ..levels import Level, check_level
from ..messages import N_, Refusal
from ..pretokenize import WORD_END, Piece, line_pieces, word_pieces
from ..tokens import Token
from ..trace import EncodeStep
from .merge import merge_spans, merge_traced

Pair = tuple[str, str]


class CharLevelBPE:
    """BPE over characters, at the word level (`</w>`) or the sentence level."""

    def __init__(
        self,
        level: Level,
        merges: Sequence[Pair],
        alphabet: Sequence[str],
        special_tokens: Sequence[str] = (),
        unk_token: str | None = None,
        name: str = "bpe",
    ) -> None:
        check_level(level)
        if level == "byte":
            raise ValueError("byte-level merges are encoded by bytelevel.ByteLevelBPE")
        if unk_token is not None and unk_token not in special_tokens:
            special_tokens = (*special_tokens, unk_token)
        self.name = name
        self.level = level
        self.merges = tuple(tuple(m) for m in merges)
        self.alphabet = tuple(alphabet)
        self.unk_token = unk_token
        self._specials = tuple(special_tokens)
        vocab: list[str] = [*self._specials, *self.alphabet]
        self.id_of: dict[str, int] = {}
        for token in vocab:
            self.id_of.setdefault(token, len(self.id_of))
        self.pair_rank: dict[Pair, int] = {}
        for rank, (a, b) in enumerate(self.merges):
            if a not in self.id_of or b not in self.id_of:
                raise ValueError(
                    f"merge {rank} {(a, b)!r} joins a symbol that is neither in the alphabet nor "
                    "made by an earlier merge; the merges are not in training order"
                )
            self.pair_rank.setdefault((a, b), rank)
            self.id_of.setdefault(a + b, len(self.id_of))
        self.vocab: tuple[str, ...] = tuple(self.id_of)
        self._alphabet_set = frozenset(self.alphabet)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {token: self.id_of[token] for token in self._specials}

    def _rank_of(self, left: str, right: str) -> int | None:
        return self.pair_rank.get((left, right))

    def pre_tokenize(self, text: str) -> list[Piece]:
        return word_pieces(text) if self.level == "word" else line_pieces(text)

    def starting_symbols(self, piece: Piece) -> list[str]:
        """A piece's characters (plus `</w>` at word level); unknown ones become the unk token."""
        symbols = []
        for i, ch in enumerate(piece.text):
            if ch in self._alphabet_set:
                symbols.append(ch)
            elif self.unk_token is not None:
                symbols.append(self.unk_token)
            else:
                position = piece.start + i
                raise Refusal(
                    N_("character {char} ({code}) at position {position} is not in this model's "
                       "alphabet: it never occurred in the training corpus. Train on text that "
                       "contains it, use the byte level (never out of vocabulary), or give the "
                       "model an unknown token."),
                    char=repr(ch), code=f"U+{ord(ch):04X}", position=str(position),
                )
        if self.level == "word":
            symbols.append(WORD_END)
        return symbols

    def _encode_piece(self, piece: Piece) -> list[Token]:
        symbols = self.starting_symbols(piece)
        n_chars = len(piece.text)
        tokens = []
        for a, b in merge_spans(symbols, self._rank_of):
            start, end = piece.start + min(a, n_chars), piece.start + min(b, n_chars)
            token = "".join(symbols[a:b])
            covered = piece.text[start - piece.start : end - piece.start]
            unknown = token == self.unk_token
            tokens.append(
                Token(self.id_of[token], covered.encode("utf-8"), start, end, piece=token, unknown=unknown)
            )
        return tokens

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        return encode_with_specials(
            text, self.special_tokens, allowed_special, disallowed_special, self._encode_plain
        )

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        tokens: list[Token] = []
        for piece in self.pre_tokenize(text):
            shifted = Piece(piece.text, piece.start + offset, piece.end + offset)
            tokens.extend(self._encode_piece(shifted))
        return tokens

    def trace(self, piece_text: str) -> list[EncodeStep]:
        """Replay encoding one word (or line): one step per merge rule, all its occurrences."""
        return self.trace_symbols(self.starting_symbols(Piece(piece_text, 0, len(piece_text))))

    def trace_symbols(self, symbols: Sequence[str]) -> list[EncodeStep]:
        """`trace` from a piece's starting symbols (`starting_symbols`)."""
        _, joins = merge_traced(symbols, self._rank_of)
        steps: list[EncodeStep] = []
        for join in joins:  # joins of one rule come one after another: fold them into one step
            if steps and steps[-1].rank == join.rank:
                steps[-1] = EncodeStep(join.rank, join.pair, join.parts)
            else:
                steps.append(join)
        return steps

    def decode(self, ids: Sequence[int]) -> str:
        """Word level: words joined by one space. Sentence level: the tokens run together."""
        bad = [i for i in ids if not 0 <= i < len(self.vocab)]
        if bad:
            raise ValueError(f"id {bad[0]} is not in this model (ids run 0..{len(self.vocab) - 1})")
        text = "".join(self.vocab[i] for i in ids)
        if self.level == "word":
            text = " ".join(w for w in text.split(WORD_END) if w)
        return text

    def normal_form(self, text: str) -> str:
        """What decode(encode(text)) gives when nothing but the level's layout is lost."""
        if self.level == "word":
            return " ".join(p.text for p in word_pieces(text))
        return "".join(p.text for p in line_pieces(text))
