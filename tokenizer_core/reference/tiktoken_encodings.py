"""tiktoken's encodings (`gpt2`, `cl100k_base`, `o200k_base`) behind the explorer's interface.

What it adds: `TiktokenTokenizer`, tiktoken's own Rust encoder over the offline rank files of
rankfiles.py. It never calls `tiktoken.get_encoding`, which downloads. It returns Token records
with honest bytes and character offsets and applies tiktoken's special-token rule
(interface.resolve_special), like every tokenizer here. A model whose own library normalizes
first (Qwen 2.5: NFC) passes `normalization`: text that is not in that form is normalized before
cutting, so ids are the library's, and offsets are mapped back onto the text as typed
(normalization.py).

Leaves out: loading anything from the network, caching (the app caches), our own pure-Python
encoder over the same ranks (models/byte_bpe.py) and rendering (render.py).
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

import tiktoken

from ..interface import (
    AllowedSpecial,
    DisallowedSpecial,
    encode_with_specials,
    resolve_special,
    unknown_id_error,
)
from ..normalization import Change, Form, change_by_form, normalize, tokens_as_typed
from ..tokens import Token, require_unicode, tokens_from_bytes
from .rankfiles import EncodingSpec, load_encoding_spec


class TiktokenTokenizer:
    """tiktoken's encoder over one EncodingSpec; `encoding` is the tiktoken.Encoding itself.

    Ids are tiktoken's, by construction: tokens come from `encoding.encode`, and their bytes from
    `encoding.decode_tokens_bytes`. `normalization`: the form the model's own library normalizes
    text to before encoding (None: it encodes text as typed, as tiktoken does).
    """

    def __init__(self, spec: EncodingSpec, normalization: Form | None = None) -> None:
        self.name = spec.name
        self.spec = spec
        self.normalization = normalization
        self.encoding = tiktoken.Encoding(
            name=spec.name,
            pat_str=spec.pat_str,
            mergeable_ranks=spec.mergeable_ranks,
            special_tokens=spec.special_tokens,
            explicit_n_vocab=spec.explicit_n_vocab,
        )
        self._special_ids = frozenset(spec.special_tokens.values())

    @property
    def vocab_size(self) -> int:
        """tiktoken's n_vocab: one more than the largest id (cl100k and o200k have gaps)."""
        return self.encoding.n_vocab

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self.spec.special_tokens)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        require_unicode(text)
        allowed = resolve_special(
            text, self.spec.special_tokens, allowed_special, disallowed_special
        )
        if not self.changes(text):
            # resolve_special has already refused disallowed text; the rest is plain text.
            ids = self.encoding.encode(text, allowed_special=allowed, disallowed_special=())
            pieces = zip(ids, self.encoding.decode_tokens_bytes(ids))
            return tokens_from_bytes(text, pieces, self._special_ids)
        # subtle: special strings are found in the text as typed and the runs between them are
        # normalized one by one, as HF does for added tokens that are not `normalized` (Qwen
        # 2.5's tokenizer.json); so normalization can neither make nor break a special token.
        return encode_with_specials(text, self.spec.special_tokens, allowed, (),
                                    self._encode_normalized)

    def changes(self, text: str) -> bool:
        """Whether this model's normalization changes the text before it is cut."""
        return self.normalization is not None and not unicodedata.is_normalized(
            self.normalization, text)

    def normalization_change(self, text: str) -> Change | None:
        """What this model's normalization changes in `text` before cutting (None: nothing)."""
        return None if self.normalization is None else change_by_form(text, self.normalization)

    def encode_ids(self, text: str, allowed_special: frozenset[str]) -> list[int]:
        """Ids only (no Token records), special strings in `allowed_special` honoured and any
        other read as plain text; normalized first, as `encode` does."""
        if not self.changes(text):
            return self.encoding.encode(text, allowed_special=allowed_special,
                                        disallowed_special=())
        return [t.id for t in self.encode(text, allowed_special=allowed_special,
                                          disallowed_special=())]

    def encode_ordinary_ids(self, text: str) -> list[int]:
        """Ids for text, reading any special-token string as plain text."""
        if self.normalization is not None:
            text = unicodedata.normalize(self.normalization, text)
        return self.encoding.encode_ordinary(text)

    def _encode_normalized(self, segment: str, offset: int) -> list[Token]:
        """A run with no special token to honour: normalized, cut, offsets mapped back."""
        assert self.normalization is not None  # only reached when the text changes
        normalized = normalize(segment, self.normalization)
        ids = self.encoding.encode_ordinary(normalized.text)
        pieces = zip(ids, self.encoding.decode_tokens_bytes(ids))
        return tokens_as_typed(tokens_from_bytes(normalized.text, pieces), normalized, offset)

    def decode(self, ids: Sequence[int]) -> str:
        """tiktoken's rule: join the ids' bytes, decode as UTF-8 with U+FFFD for broken bytes.

        So decode(encode(text)) == text, but ids that cut a character show U+FFFD; the token view
        uses Token.display instead, which shows such bytes as `<E4 BD>`.
        """
        ids = list(ids)
        try:
            return self.encoding.decode(ids)
        except (KeyError, OverflowError, TypeError):
            raise unknown_id_error(ids, self._is_id) from None

    def _is_id(self, token_id: int) -> bool:
        try:
            self.encoding.decode_single_token_bytes(token_id)
        except (KeyError, OverflowError, TypeError):
            return False
        return True


def tiktoken_tokenizer(name: str) -> TiktokenTokenizer:
    """`gpt2`, `cl100k_base` or `o200k_base`, built offline from packaged rank files."""
    return TiktokenTokenizer(load_encoding_spec(name))


