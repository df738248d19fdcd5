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
from ..tokens import Token, require_unicode, tokens_from_bytes

ModelType = Literal["unigram", "bpe"]
LESSON_PARAMETERS = {
    "character_coverage": 0.9995, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
}
EXACT_PARAMETERS = {
    "normalization_rule_name": "identity", "remove_extra_whitespaces": False,
    "byte_fallback": True, "user_defined_symbols": ["\n"],
}
_BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")


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

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        data = text.encode("utf-8")
        proto = self.processor.encode(text, return_type="proto")
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

    def decode(self, ids: Sequence[int]) -> str:
        ids = list(ids)
        if not all(isinstance(i, int) and 0 <= i < self.vocab_size for i in ids):
            raise unknown_id_error(ids, lambda i: isinstance(i, int) and 0 <= i < self.vocab_size)
        return self.processor.decode(ids)


def _model_type(tokenizer: SentencePieceTokenizer) -> str:
    """'unigram' or 'bpe', read from the model's own trainer spec."""
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    proto = model_pb2.ModelProto()
    proto.ParseFromString(tokenizer.model_proto)
    return model_pb2.TrainerSpec.ModelType.Name(proto.trainer_spec.model_type).lower()
