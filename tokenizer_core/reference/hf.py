"""HF `tokenizers` behind the explorer's interface: any `tokenizers.Tokenizer` as Token records.

What it adds: `HFTokenizer`, for a `tokenizer.json` loaded from disk or a model trained
in-process (hf_train.py). It applies tiktoken's special-token rule (interface.resolve_special),
so its errors read like every other tokenizer's.

How HF results become Tokens (the subtle part; HF's Python offsets are character offsets):
- byte-level models (a ByteLevel pre-tokenizer or decoder): each token string is mapped back
  through GPT-2's byte alphabet to its real bytes (`ä½` -> E4 BD). When those bytes concatenate
  to the text's UTF-8, offsets are recomputed from the bytes (tokens_from_bytes), so a token that
  splits a character is partial; otherwise (a normalizer or `add_prefix_space` changed the text)
  HF's own offsets are kept and tokens sharing a character with a neighbour are marked partial.
- other models: `bytes` is the UTF-8 of the text span the token covers and `piece` is the token
  as the vocabulary holds it (`##ing`, `▁the`, `est</w>`, `[UNK]`). Byte-fallback tokens
  (`<0xE4>`) carry that one byte. A Metaspace `▁` that HF prepends to the text covers no input:
  HF reports it on the first character (overlapping the next token); here it is zero-width.
- added tokens carry the text they matched; special ones are marked special, but not the
  unknown token standing in for text the model cannot spell (`[UNK]` covering `好`).
- a normalizer (BERT's lower-casing, NFC, ...) runs inside HF, whose offsets are into the text as
  typed; `normalization_change` says how much of a text it changed, for the page to say.
- encoding never adds a post-processor's BOS/EOS/[CLS] (add_special_tokens=False) and switches
  off truncation and padding, so the tokens are exactly the tokens of the text.

Leaves out: loading anything from the network (no hub downloads), training (hf_train.py),
caching (the app caches) and rendering (render.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import tokenizers

from ..interface import (
    AllowedSpecial,
    DisallowedSpecial,
    encode_with_specials,
    resolve_special,
    unknown_id_error,
)
from ..messages import N_, Refusal
from ..normalization import Change, change_by
from ..tokens import Token, piece_of, require_unicode, tokens_from_bytes
from .rankfiles import gpt2_token_bytes

_BYTE_FALLBACK = re.compile(r"<0x([0-9A-Fa-f]{2})>")
METASPACE = "▁"  # U+2581, sentencepiece's word-start mark


def _types_in(node: Any) -> set[str]:
    """Every `"type"` value in a tokenizer.json subtree (Sequences nest their parts)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):
            found.add(node["type"])
        for value in node.values():
            found |= _types_in(value)
    elif isinstance(node, list):
        for value in node:
            found |= _types_in(value)
    return found


def _normalizer_name(node: Any) -> str | None:
    """A tokenizer.json normalizer by its parts' types (`BertNormalizer`, `NFC + Lowercase`);
    None when there is none (DeepSeek's is an empty Sequence)."""
    if not isinstance(node, dict):
        return None
    if node.get("type") != "Sequence":
        return node.get("type") if isinstance(node.get("type"), str) else None
    names = [_normalizer_name(part) for part in node.get("normalizers") or []]
    return " + ".join(n for n in names if n) or None


def _is_byte_level(config: dict[str, Any]) -> bool:
    return "ByteLevel" in _types_in(config.get("pre_tokenizer")) | _types_in(config.get("decoder"))


def _unk_id(config: dict[str, Any], tokenizer: tokenizers.Tokenizer) -> int | None:
    """The id of the model's unknown token (BPE/WordPiece name it, Unigram numbers it)."""
    model = config.get("model") or {}
    if isinstance(model.get("unk_id"), int):
        return model["unk_id"]
    unk = model.get("unk_token")
    return tokenizer.token_to_id(unk) if isinstance(unk, str) else None


def _is_marker(piece: str, span: tuple[int, int], next_span: tuple[int, int] | None) -> bool:
    """A `▁` that the model put in front of the text, not one standing for a character of it.

    HF gives a prepended `▁` the offsets of the character it was put before, so the next token
    claims that character too; a `▁` standing for a space (or a typed `▁`) never overlaps the
    next token. (Looking at the covered text instead would fail for a typed `▁`, and for a
    normalizer that turns U+3000 into a space.)
    """
    if not piece or set(piece) != {METASPACE} or next_span is None:
        return False
    return next_span[0] < span[1]


def _shares_character(spans: list[tuple[int, int]], i: int) -> bool:
    """Whether span i shares a character with the span before or after it."""
    start, end = spans[i]
    if start >= end:
        return False
    before = i > 0 and spans[i - 1][0] < spans[i - 1][1] and spans[i - 1][1] > start
    after = i + 1 < len(spans) and spans[i + 1][0] < spans[i + 1][1] and spans[i + 1][0] < end
    return before or after


def _tokens_only(tokenizer: tokenizers.Tokenizer) -> None:
    """Switch off what would hide or move tokens: truncation, padding, the post-processor.

    subtle: with add_special_tokens=False a post-processor adds nothing, but ByteLevel's and
    RoBERTa's `trim_offsets` still cut the leading space out of `Ġthe`'s offsets.
    """
    tokenizer.no_truncation()
    tokenizer.no_padding()
    tokenizer.post_processor = None


# The one message for a tokenizer.json that cannot be used, one whole sentence per reason (it
# does not parse, it is not UTF-8, or it parses but cannot encode: isolated.py). HF's own words
# for what failed ({error}) stay as HF wrote them.
UNUSABLE = {
    "load": N_("this is not a tokenizer.json that HF tokenizers {version} can use (it does not "
               "load: {error}); use a file written by Tokenizer.save(path)"),
    "utf8": N_("this is not a tokenizer.json that HF tokenizers {version} can use (it is not "
               "UTF-8 text); use a file written by Tokenizer.save(path)"),
    "encode": N_("this is not a tokenizer.json that HF tokenizers {version} can use (it loads, "
                 "but cannot encode {probe}: {error}); use a file written by "
                 "Tokenizer.save(path)"),
}


def unusable(why: str, **values: str) -> Refusal:
    """The refusal for a tokenizer.json that cannot be used; `why` is a key of UNUSABLE."""
    return Refusal(UNUSABLE[why], version=tokenizers.__version__, **values)


# =============================================================================================
# HF tokenizers: the wrapper


class HFTokenizer:
    """An HF `tokenizers.Tokenizer` behind the explorer's interface; `tokenizer` is the HF object.

    Special tokens are the added tokens HF marks `special`. The special-token rule as HF allows:
    HF always matches its added tokens, with no per-token switch. So when every special string in
    the text is allowed, HF encodes the text as it is; when none may be special
    (`disallowed_special=()`), a twin with HF's `encode_special_tokens` on encodes it as plain text;
    when some are allowed and others are plain, the text is cut at the allowed ones and each run
    is encoded on its own (this can differ from HF at a run's start for models that treat the
    start of a text specially, e.g. a Metaspace `▁` prepended to each run).
    Non-special added tokens are always matched, as in HF. And HF's Unigram keeps special tokens
    among its ordinary pieces: read as plain text, `<sep>` can still come out as that special
    token's id (marked special, as the id is).
    """

    def __init__(
        self, tokenizer: tokenizers.Tokenizer, name: str = "hf", *, copy: bool = True,
        config_text: str | None = None,
    ) -> None:
        """Wrap `tokenizer`; settings that would hide tokens are switched off (see _tokens_only)
        on a copy, or on `tokenizer` itself when `copy` is False. `config_text` is the
        tokenizer.json it was loaded from, if at hand (writing a 6 MB one back out costs a
        quarter second)."""
        if config_text is None:
            config_text = tokenizer.to_str()
        if tokenizer.truncation or tokenizer.padding or tokenizer.post_processor is not None:
            if copy:
                tokenizer = tokenizers.Tokenizer.from_str(config_text)
            _tokens_only(tokenizer)
        self.name = name
        self.tokenizer = tokenizer
        config = json.loads(config_text)
        self._byte_level = _is_byte_level(config)
        self._byte_fallback = bool((config.get("model") or {}).get("byte_fallback"))
        self._added = dict(tokenizer.get_added_tokens_decoder())
        self._special = {t.content: i for i, t in self._added.items() if t.special}
        self._unk_id = _unk_id(config, tokenizer)
        # ids marked special in byte-level tokens; never the unknown token (it stands for text)
        self._special_ids = frozenset(self._special.values()) - {self._unk_id}
        self._plain: tokenizers.Tokenizer | None = None
        self._normalizer = _normalizer_name(config.get("normalizer"))

    @classmethod
    def from_str(cls, json_text: str, name: str = "hf") -> HFTokenizer:
        """From the text of a tokenizer.json."""
        try:
            tokenizer = tokenizers.Tokenizer.from_str(json_text)
        except Exception as error:  # tokenizers raises a bare Exception for every parse error
            raise unusable("load", error=str(error)) from None
        return cls(tokenizer, name, copy=False, config_text=json_text)

    @classmethod
    def from_file(cls, path: str | Path, name: str | None = None) -> HFTokenizer:
        """From a tokenizer.json on disk (or a directory holding one)."""
        path = Path(path)
        if path.is_dir() and (path / "tokenizer.json").is_file():
            path = path / "tokenizer.json"
        if not path.is_file():
            raise ValueError(
                f"no tokenizer file at {str(path)!r}; pass the path of a tokenizer.json "
                "written by HF tokenizers' Tokenizer.save(path)"
            )
        try:
            json_text = path.read_bytes().decode("utf-8")
            return cls.from_str(json_text, name or f"hf:{path.name}")
        except UnicodeDecodeError:
            reason = "it is not UTF-8 text"
        except ValueError as error:
            reason = str(error)
        raise ValueError(f"{str(path)!r} is not a usable tokenizer.json: {reason}")

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.get_vocab_size(with_added_tokens=True)

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._special)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        require_unicode(text)
        allowed = resolve_special(text, self._special, allowed_special, disallowed_special)
        present = {s for s in self._special if s in text}
        if present <= allowed:  # every special string in the text is allowed: HF as it is
            return self._tokens(text, self.tokenizer)
        # Cut at the allowed ones, read the rest with the plain twin. `allowed` is already
        # resolved (the text was checked), so nothing is left to refuse: disallowed_special=().
        return encode_with_specials(text, self._special, allowed, (), self._encode_plain)

    def normalization_change(self, text: str) -> Change | None:
        """What the tokenizer.json's normalizer changes in `text` before cutting (None: nothing,
        or no normalizer). HF maps offsets back through it: tokens point at the text as typed."""
        normalizer = self.tokenizer.normalizer
        if self._normalizer is None or normalizer is None:
            return None
        return change_by(text, self._normalizer, normalizer.normalize_str)

    def decode(self, ids: Sequence[int]) -> str:
        """HF's decoder with special tokens kept (`skip_special_tokens=False`).

        The round trip is the model's own: exact for byte-level BPE; WordPiece and a
        whitespace-split BPE lose the text's exact spacing. Unknown ids raise (HF skips them).
        """
        ids = list(ids)
        if not all(self._is_id(i) for i in ids):
            raise unknown_id_error(ids, self._is_id)
        return self.tokenizer.decode(ids, skip_special_tokens=False)

    def _is_id(self, token_id: int) -> bool:
        return isinstance(token_id, int) and token_id >= 0 and (
            self.tokenizer.id_to_token(token_id) is not None
        )

    # -- encoding helpers ----------------------------------------------------------------------

    def _plain_twin(self) -> tokenizers.Tokenizer:
        """A copy that reads special-token strings as plain text (HF's encode_special_tokens)."""
        if self._plain is None:
            twin = tokenizers.Tokenizer.from_str(self.tokenizer.to_str())
            twin.encode_special_tokens = True
            self._plain = twin
        return self._plain

    def _encode_plain(self, segment: str, offset: int) -> list[Token]:
        """A run holding no special token to honour, read as plain text; offsets shifted."""
        tokens = self._tokens(segment, self._plain_twin())
        return [replace(t, start=t.start + offset, end=t.end + offset) for t in tokens]

    def _tokens(self, text: str, hf: tokenizers.Tokenizer) -> list[Token]:
        encoding = hf.encode(text, add_special_tokens=False)
        items = list(zip(encoding.ids, encoding.tokens, encoding.offsets))
        if self._byte_level:
            pieces = [(i, self._byte_level_bytes(i, tok, text[s:e])) for i, tok, (s, e) in items]
            if b"".join(data for _, data in pieces) == text.encode("utf-8"):
                return tokens_from_bytes(text, pieces, self._special_ids)
        return self._tokens_from_offsets(text, items)

    def _byte_level_bytes(self, token_id: int, token: str, covered: str) -> bytes:
        """A byte-level token's real bytes; an added token's are the text it matched."""
        if token_id in self._added:
            return covered.encode("utf-8") if covered else self._added[token_id].content.encode()
        data = gpt2_token_bytes(token)
        return token.encode("utf-8") if data is None else data  # not in the alphabet: text

    def _tokens_from_offsets(
        self, text: str, items: list[tuple[int, str, tuple[int, int]]]
    ) -> list[Token]:
        """Tokens from HF's character offsets (every model that is not byte-level, and fallback)."""
        held = [self._piece(token_id, token) for token_id, token, _ in items]
        spans: list[tuple[int, int]] = []
        for n, (token_id, _, (s, e)) in enumerate(items):
            next_span = items[n + 1][2] if n + 1 < len(items) else None
            marker = token_id not in self._added and _is_marker(held[n], (s, e), next_span)
            spans.append((s, s) if marker else (s, e))
        tokens: list[Token] = []
        cursor = 0  # characters before the cursor belong to earlier tokens
        for n, (token_id, token, _) in enumerate(items):
            s, e = spans[n]
            data, piece = self._bytes_and_piece(token_id, token, held[n], text, (s, e), cursor)
            partial = _shares_character(spans, n) or (piece is None and bool(data))
            special = self._is_special_match(token_id, text[s:e])
            unknown = token_id == self._unk_id and not special
            tokens.append(Token(token_id, data, s, e, partial, piece, special, unknown))
            cursor = max(cursor, e)
        return tokens

    def _is_special_match(self, token_id: int, covered: str) -> bool:
        """A special token that matched its own string. The unknown token standing in for text
        the model cannot spell (`[UNK]` covering `好`) is not one."""
        added = self._added.get(token_id)
        if added is None or not added.special:
            return False
        return token_id != self._unk_id or covered == added.content

    def _bytes_and_piece(
        self, token_id: int, token: str, piece: str, text: str, span: tuple[int, int], cursor: int
    ) -> tuple[bytes, str | None]:
        """(bytes, piece) of one token; `piece` is as the vocabulary holds it (_piece), and text
        before `cursor` belongs to earlier tokens."""
        start, end = span
        covered = text[max(start, cursor) : end]
        fallback = _BYTE_FALLBACK.fullmatch(piece) if self._byte_fallback else None
        if fallback and covered != piece:  # the model spelled a byte, not matched `<0x78>` text
            data = bytes([int(fallback.group(1), 16)])
            return data, piece_of(data)
        if token_id in self._added:  # what it matched; its own string if it matched nothing
            return (covered if start < end else piece).encode("utf-8"), piece
        if self._byte_level:
            data = self._byte_level_bytes(token_id, token, covered)
            return data, piece_of(data)
        return covered.encode("utf-8"), piece

    def _piece(self, token_id: int, token: str) -> str:
        """The token as the vocabulary holds it (HF's Unigram shows an unknown's text instead)."""
        held = self.tokenizer.id_to_token(token_id)
        return token if held is None else held


