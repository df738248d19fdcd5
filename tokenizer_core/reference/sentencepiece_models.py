"""SentencePiece, the real library (`sentencepiece` from PyPI, C++), trained in-process.

What it adds: `train_sentencepiece(text, vocab_size, model_type)` trains `unigram` or `bpe` on
any text with the lesson's parameters (character_coverage 0.9995, pad/unk/bos/eos = 0/1/2/3),
writing the model to memory (io.BytesIO: no file is left behind), and `SentencePieceTokenizer`
wraps a trained model as an interface.Tokenizer with Token records.

Choices, so that decode(encode(text)) == text on any text (checked on the built-in samples):
- normalization `identity` and remove_extra_whitespaces off: SentencePiece's default NFKC would
  turn the Chinese full-width comma into `,` and squeeze runs of spaces;
- byte_fallback on: a character outside the vocabulary becomes its UTF-8 bytes (`<0xE4>`...),
  never `<unk>`;
- `\\n` is a user-defined piece: training reads one line per sentence, so a line break would
  otherwise never be seen.
The space is the ordinary character `▁` (U+2581), shown in `Token.piece` as SentencePiece holds
it (`▁Saturday`); a token's `bytes` are the input it covers (` Saturday`), taken from the
library's own byte offsets. The `▁` the library puts before the first word covers nothing.

A model that normalizes (the library's default `nmt_nfkc`, extra spaces removed: a `.model` from
the models folder) cuts other text than it was given; its pieces are then placed by the
library's own offsets, bytes of the input as typed (`▁w` covering three typed spaces and `w`), as
HF places a normalizer's tokens, and text it drops (leading spaces) is covered by no token.

Leaves out: sampling and n-best (the library has them; models/unigram.py shows ours). Special
tokens in user text are matched only when the caller names them (`special_tokens`); the models
trained here name none, so their bos/eos are ids only.
"""

from __future__ import annotations

import dataclasses
import io
import re
from typing import Literal, Sequence

import sentencepiece as spm

from ..interface import AllowedSpecial, DisallowedSpecial, encode_with_specials, unknown_id_error
from ..normalization import Change
from ..tokens import ByteToChar, Token, piece_of, require_unicode, tokens_from_bytes

ModelType = Literal["unigram", "bpe"]
LESSON_PARAMETERS = {
    "character_coverage": 0.9995, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
}
EXACT_PARAMETERS = {
    "normalization_rule_name": "identity", "remove_extra_whitespaces": False,
    "byte_fallback": True, "user_defined_symbols": ["\n"],
}
_BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")
METASPACE = "▁"  # U+2581, the library's word-start mark


def train_sentencepiece(
    text: str, vocab_size: int, model_type: ModelType = "unigram", name: str | None = None
) -> SentencePieceTokenizer:
    """Train with the real library on `text` (one sentence per line), in memory.

    vocab_size counts everything (pad/unk/bos/eos, `\\n`, the 256 byte pieces); a text with
    fewer distinct pieces gives a smaller vocabulary rather than an error (hard_vocab_limit off).
    """
    if model_type not in ("unigram", "bpe"):
        raise ValueError(f"model_type should be 'unigram' or 'bpe', got {model_type!r}")
    require_unicode(text)
    lines = [line for line in text.split("\n") if line]
    if not lines:
        raise ValueError("the corpus is empty; there is nothing to train on")
    writer = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(lines), model_writer=writer, model_type=model_type,
            vocab_size=vocab_size, hard_vocab_limit=False, minloglevel=2, num_threads=1,
            **LESSON_PARAMETERS, **EXACT_PARAMETERS,
        )
    except RuntimeError as error:  # e.g. "Vocabulary size is smaller than required_chars"
        raise ValueError(f"sentencepiece could not train: {error}") from None
    return SentencePieceTokenizer(writer.getvalue(), name or f"sentencepiece-{model_type}")


class SentencePieceTokenizer:
    """A SentencePiece model (its serialized model_proto) as an interface.Tokenizer."""

    def __init__(
        self, model_proto: bytes, name: str = "sentencepiece",
        special_tokens: dict[str, int] | None = None,
    ) -> None:
        """`special_tokens`: control pieces matched in text when allowed (Mistral 7B's `<s>`,
        `</s>`); the library itself never matches them, so without this they are ids only."""
        self.name = name
        self.model_proto = model_proto
        self.processor = spm.SentencePieceProcessor(model_proto=model_proto)
        self.model_type = _model_type(self)
        self._special_tokens = dict(special_tokens or {})
        self._normalizer, self._dummy_prefix = _normalizer(model_proto)

    @property
    def vocab_size(self) -> int:
        return self.processor.get_piece_size()

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._special_tokens)

    def id_to_token(self, token_id: int) -> str | None:
        return self.processor.id_to_piece(token_id) if 0 <= token_id < self.vocab_size else None

    def pieces(self) -> list[tuple[str, float]]:
        """(piece, score) by id: log probabilities for unigram, merge order for bpe."""
        p = self.processor
        return [(p.id_to_piece(i), p.get_score(i)) for i in range(p.get_piece_size())]

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        if not isinstance(text, str):
            raise ValueError(f"text to encode should be a str, got {type(text).__name__}")
        require_unicode(text)
        return encode_with_specials(text, self._special_tokens, allowed_special, disallowed_special,
                                    self._encode_plain)

    def normalization_change(self, text: str) -> Change | None:
        """Whether the model's normalizer changes `text` before cutting (None: it does not, or
        the model has none); not counted, as the library says only where pieces begin."""
        if self._normalizer is None or not text:
            return None
        as_typed = ("▁" if self._dummy_prefix else "") + text.replace(" ", "▁")
        if self.processor.normalize(text) == as_typed:
            return None
        return Change(self._normalizer, None, len(text))

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        data = text.encode("utf-8")
        proto = self.processor.encode(text, return_type="proto")
        if self._normalizer is not None:
            return [dataclasses.replace(t, start=t.start + offset, end=t.end + offset)
                    for t in self._placed_by_offsets(text, list(proto.pieces))]
        pairs: list[tuple[int, bytes]] = []
        names: list[str] = []
        for piece in proto.pieces:
            match = _BYTE_PIECE.fullmatch(piece.piece)
            # a byte-fallback piece is one byte of the text, whatever span the library gives it
            pairs.append((piece.id, bytes([int(match.group(1), 16)]) if match
                          else data[piece.begin : piece.end]))
            names.append(piece.piece)
        tokens = tokens_from_bytes(text, pairs)
        return [
            dataclasses.replace(
                t, start=t.start + offset, end=t.end + offset,
                piece=t.piece if _BYTE_PIECE.fullmatch(name) else name,
                unknown=t.id == self.processor.unk_id(),
            )
            for t, name in zip(tokens, names)
        ]

    def _placed_by_offsets(self, text: str, pieces: list) -> list[Token]:
        """Tokens of a normalizing model, placed by the library's byte offsets into `text`.

        subtle: the library gives every piece but the last of one typed character an empty
        span (`<0xC3>` `<0xA9>` for an `é` composed from `e` + U+0301; `f` `i` for `ﬁ`); each
        takes the span of the piece after it, so all of them sit on that character, partial.
        The dummy-prefix `▁`, which stands for no typed character, stays empty."""
        data, to_char = text.encode("utf-8"), ByteToChar(text)
        spans: list[tuple[int, int]] = []
        for piece in pieces:
            start, end, _ = to_char.span(piece.begin, piece.end)
            spans.append((start, end))
        for i in range(len(pieces) - 2, -1, -1):
            empty = pieces[i].begin == pieces[i].end == pieces[i + 1].begin
            if empty and pieces[i].piece != METASPACE:
                spans[i] = spans[i + 1]
        tokens = []
        for i, piece in enumerate(pieces):
            held = _BYTE_PIECE.fullmatch(piece.piece)
            own = bytes([int(held.group(1), 16)]) if held else data[piece.begin : piece.end]
            if not own and spans[i][0] < spans[i][1]:  # sharing a character: the piece's own
                own = piece.piece.replace(METASPACE, " ").encode("utf-8")
            shares = any(0 <= j < len(spans) and j != i and spans[j][0] < spans[j][1]
                         and spans[j][0] < spans[i][1] and spans[i][0] < spans[j][1]
                         for j in (i - 1, i + 1))
            tokens.append(Token(
                piece.id, own, *spans[i], partial=shares or (bool(held) and piece_of(own) is None),
                piece=piece_of(own) if held else piece.piece,
                unknown=piece.id == self.processor.unk_id(),
            ))
        return tokens

    def decode(self, ids: Sequence[int]) -> str:
        ids = list(ids)
        if not all(isinstance(i, int) and 0 <= i < self.vocab_size for i in ids):
            raise unknown_id_error(ids, lambda i: isinstance(i, int) and 0 <= i < self.vocab_size)
        return self.processor.decode(ids)


def _normalizer(model_proto: bytes) -> tuple[str | None, bool]:
    """The model's normalizer by its rule name (None: `identity` and spaces kept, so the pieces
    are the text's own bytes), and whether it puts a `▁` before the text."""
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    proto = model_pb2.ModelProto()
    proto.ParseFromString(model_proto)
    spec = proto.normalizer_spec
    exact = spec.name in ("identity", "") and not spec.remove_extra_whitespaces
    name = spec.name or "user_defined"
    return (None if exact else name), spec.add_dummy_prefix


def _model_type(tokenizer: SentencePieceTokenizer) -> str:
    """'unigram' or 'bpe', read from the model's own trainer spec."""
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    proto = model_pb2.ModelProto()
    proto.ParseFromString(tokenizer.model_proto)
    return model_pb2.TrainerSpec.ModelType.Name(proto.trainer_spec.model_type).lower()
