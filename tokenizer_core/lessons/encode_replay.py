"""Encode replay: how a BPE model turns each piece of a text into tokens, one rule at a time.

What it adds to `CharLevelBPE.trace` and `ByteLevelBPE.trace_chunk`: one call for a whole text
and either kind of model, giving per pre-tokenized piece its starting parts, every rule that
fired (rank, pair, the parts after it) and the final tokens with their ids, so a page can
draw the ladder `t o k e n` -> ... -> ` token` `ization` with real rank numbers. (It calls
their `trace_symbols` / `trace_parts` forms, so each piece's starting parts are built once.)

- Word and sentence levels (`CharLevelBPE`): a step is one merge rule applied to all its
  occurrences in the piece (the textbook's encode); an unseen character raises the model's
  ValueError, which names it.
- Byte level (`ByteLevelBPE`, ours or GPT-2's ranks through `registry.core_tokenizer`): a step
  is one join, lowest rank first, replayed from single bytes even when the chunk is a token as
  a whole. For GPT-2 the rank is the joined token's rank, which is also its id.

Leaves out: special tokens (replayed text is plain text) and drawing (parts are str or bytes;
`narration.symbol_text` shows bytes honestly).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..levels import Symbol, byte_parts
from ..models.byte_bpe import ByteLevelBPE
from ..models.char_bpe import CharLevelBPE
from ..pretokenize import Piece
from ..trace import EncodeStep

Model = CharLevelBPE | ByteLevelBPE
MAX_REPLAY_PIECES = 64  # pieces replayed from one text; the rest are counted, not traced


@dataclass(frozen=True, slots=True)
class PieceReplay:
    """One pre-tokenized piece and how it was encoded."""

    text: str
    start: int  # character offset of the piece in the text
    parts: tuple[Symbol, ...]  # where encoding starts: characters (+ </w>) or single bytes
    steps: tuple[EncodeStep, ...]
    ids: tuple[int, ...]  # ids of the final parts

    @property
    def tokens(self) -> tuple[Symbol, ...]:
        return self.steps[-1].parts if self.steps else self.parts


@dataclass(frozen=True, slots=True)
class Replay:
    pieces: tuple[PieceReplay, ...]
    total_pieces: int  # pieces in the text; only the first MAX_REPLAY_PIECES are replayed

    @property
    def ids(self) -> list[int]:
        return [i for piece in self.pieces for i in piece.ids]


def _char_piece(model: CharLevelBPE, piece: Piece) -> PieceReplay:
    parts = tuple(model.starting_symbols(piece))  # raises, naming the position, if unseen
    steps = model.trace_symbols(parts)
    final = steps[-1].parts if steps else parts
    ids = tuple(model.id_of[p] for p in final)  # type: ignore[index]
    return PieceReplay(piece.text, piece.start, parts, tuple(steps), ids)


def _byte_piece(model: ByteLevelBPE, piece: Piece) -> PieceReplay:
    parts = byte_parts(piece.text.encode("utf-8"))
    final, steps = model.trace_parts(parts)
    ids = tuple(model.encoder[p] for p in final)
    return PieceReplay(piece.text, piece.start, parts, tuple(steps), ids)


def replay(model: Model, text: str, max_pieces: int = MAX_REPLAY_PIECES) -> Replay:
    """Every piece of `text` (up to max_pieces) as the model encodes it, step by step."""
    if isinstance(model, ByteLevelBPE):
        pieces = model.pieces(text)
        done = [_byte_piece(model, p) for p in pieces[:max_pieces]]
    else:
        pieces = model.pre_tokenize(text)
        done = [_char_piece(model, p) for p in pieces[:max_pieces]]
    return Replay(tuple(done), len(pieces))
