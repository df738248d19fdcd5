"""The tokens of a reference tokenizer's vocabulary, read from its own library's tables.

What it adds: `reference_tokens(tokenizer)`, every token of a tiktoken encoding (its
`mergeable_ranks` and special tokens), an HF tokenizer (`get_vocab`, byte-level tokens mapped
back through GPT-2's byte alphabet) or a SentencePiece model (`id_to_piece`; a byte-fallback
piece `<0xE4>` is its one byte), as plain tuples `(id, bytes, text or None, special, rank)`.
measure/vocabulary.py builds its table from them; the isolated worker (isolated.py) reads them
for a file of the models folder, where the file's library runs, and sends them to the server.

Leaves out: our own models (measure/vocabulary.py reads those), the script classes and every
other column of the table (derived from the bytes, in measure/vocabulary.py).
"""

from __future__ import annotations

from typing import Mapping

import regex

from .hf import HFTokenizer
from .rankfiles import gpt2_token_bytes
from .sentencepiece_models import SentencePieceTokenizer
from .tiktoken_encodings import TiktokenTokenizer

# A token as read from a tokenizer: (id, bytes, text or None to derive it from the bytes,
# special, merge rank or None).
VocabToken = tuple[int, bytes, "str | None", bool, "int | None"]


def ranked_tokens(ranks: Mapping[bytes, int], specials: Mapping[str, int]) -> list[VocabToken]:
    """tiktoken's format: an id is a rank; multi-byte tokens are numbered in rank order.

    Our learned merges fit the same rule: each new token's id follows the last one's, in the
    order the merges were learned, so its position among multi-byte tokens is its merge number.
    """
    merged = sorted(i for b, i in ranks.items() if len(b) > 1)
    merge_number = {i: k for k, i in enumerate(merged)}
    rows: list[VocabToken] = [(i, b, None, False, merge_number.get(i)) for b, i in ranks.items()]
    rows += [(i, s.encode("utf-8"), s, True, None) for s, i in specials.items()]
    return rows


def hf_tokens(model: HFTokenizer) -> list[VocabToken]:
    """HF's vocabulary; a byte-level model writes its tokens in GPT-2's byte alphabet (`Ġthe`),
    added tokens are written as their text."""
    # subtle: hf.py read the file's pre-tokenizer and decoder once, when it loaded; writing the
    # file back out to read them again costs DeepSeek's 129,280 tokens 0.7 s, most of the read.
    byte_level = model._byte_level
    added = model.tokenizer.get_added_tokens_decoder()
    rows: list[VocabToken] = []
    for piece, i in model.tokenizer.get_vocab(with_added_tokens=True).items():
        data = gpt2_token_bytes(piece) if byte_level and i not in added else None
        if data is None:
            data = piece.encode("utf-8")
        special = i in added and added[i].special
        rows.append((i, data, None, special, None))
    return rows


_SP_BYTE = regex.compile(r"<0x([0-9A-F]{2})>")


def sentencepiece_tokens(model: SentencePieceTokenizer) -> list[VocabToken]:
    """The library's pieces by id: a byte-fallback piece `<0xE4>` is that one byte; control and
    unknown pieces (`<s>`, `<unk>`) are special; a piece keeps its `▁`, as HF's Metaspace does."""
    p = model.processor
    rows: list[VocabToken] = []
    for i in range(p.get_piece_size()):
        piece = p.id_to_piece(i)
        byte = _SP_BYTE.fullmatch(piece) if p.is_byte(i) else None
        data = bytes([int(byte.group(1), 16)]) if byte else piece.encode("utf-8")
        rows.append((i, data, None, bool(p.is_control(i) or p.is_unknown(i)), None))
    return rows


def reference_tokens(tokenizer: object) -> tuple[str, list[VocabToken]] | None:
    """(kind, tokens) of a tiktoken, HF or SentencePiece tokenizer; None for any other."""
    if isinstance(tokenizer, TiktokenTokenizer):
        spec = tokenizer.spec
        return "byte-level BPE", ranked_tokens(dict(spec.mergeable_ranks), spec.special_tokens)
    if isinstance(tokenizer, HFTokenizer):
        return "HF", hf_tokens(tokenizer)
    if isinstance(tokenizer, SentencePieceTokenizer):
        return f"SentencePiece {tokenizer.model_type}", sentencepiece_tokens(tokenizer)
    return None
