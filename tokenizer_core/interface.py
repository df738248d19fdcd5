"""What every tokenizer in the explorer offers, ours or a reference one, and the special-token rule.

The pages only ever talk to this interface, so GPT-2 via tiktoken, our own byte-level encoder,
a trained word-level BPE, a WordPiece model and an uploaded HF `tokenizer.json` sit side by side.

Special tokens follow tiktoken's rule: text that contains a special-token string is refused
unless the caller allows that token (`allowed_special`) or says to read it as plain text
(`disallowed_special=()`).

Leaves out: how each tokenizer encodes (its own module) and rendering (render.py).
"""

from __future__ import annotations

import re
from typing import (
    AbstractSet,
    Callable,
    Collection,
    Literal,
    Mapping,
    Protocol,
    Sequence,
    Union,
    runtime_checkable,
)

from .tokens import Token

AllowedSpecial = Union[Literal["all"], AbstractSet[str]]
DisallowedSpecial = Union[Literal["all"], Collection[str]]


@runtime_checkable
class Tokenizer(Protocol):
    """A tokenizer as the explorer sees it."""

    name: str

    @property
    def vocab_size(self) -> int: ...

    @property
    def special_tokens(self) -> dict[str, int]: ...

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        """Tokens with ids, bytes and character offsets; see the special-token rule above."""
        ...

    def decode(self, ids: Sequence[int]) -> str:
        """Text for ids, by the tokenizer's own documented round-trip rule."""
        ...


class DisallowedSpecialToken(ValueError):
    """Text holds a special-token string its caller did not allow; says how to allow it.

    The message names the Python arguments (tiktoken's wording); a front end that has its own
    switches (the command line's --special) words its own remedy from `token` and `position`.
    """

    def __init__(self, token: str, position: int) -> None:
        self.token, self.position = token, position
        super().__init__(
            f"Encountered text corresponding to disallowed special token {token!r} at "
            f"character {position}. If you want it encoded as a special token, pass it "
            f"in allowed_special (e.g. allowed_special={{{token!r}}}, or 'all'). If you want it "
            "encoded as ordinary text, pass disallowed_special=() to read it as plain text."
        )


def resolve_special(
    text: str,
    special_tokens: Collection[str],
    allowed_special: AllowedSpecial = frozenset(),
    disallowed_special: DisallowedSpecial = "all",
) -> frozenset[str]:
    """The special tokens to honour in `text`; raises if the text holds a disallowed one.

    Returns the set that may be matched as special tokens (everything else is plain text).
    """
    specials = frozenset(special_tokens)
    allowed = specials if allowed_special == "all" else frozenset(allowed_special)
    unknown = allowed - specials
    if unknown:
        raise ValueError(
            f"{sorted(unknown)} are not special tokens of this tokenizer; "
            f"its special tokens are {sorted(specials) or 'none'}"
        )
    disallowed = specials - allowed if disallowed_special == "all" else frozenset(disallowed_special)
    for token in sorted(disallowed, key=text.find):
        if token in text:
            raise DisallowedSpecialToken(token, text.find(token))
    return allowed


def encode_with_specials(
    text: str,
    special_tokens: Mapping[str, int],
    allowed_special: AllowedSpecial,
    disallowed_special: DisallowedSpecial,
    encode_plain: Callable[[str, int], list[Token]],
) -> list[Token]:
    """The special-token rule around any encoder of plain text.

    `encode_plain(segment, offset)` encodes text that holds no special token to honour, with
    offsets shifted by `offset`; each allowed special string becomes its own special Token.
    """
    allowed = resolve_special(text, special_tokens, allowed_special, disallowed_special)
    tokens: list[Token] = []
    for segment, is_special, offset in split_on_special(text, allowed):
        if is_special:
            tokens.append(
                Token(special_tokens[segment], segment.encode("utf-8"), offset,
                      offset + len(segment), piece=segment, special=True)
            )
        else:
            tokens.extend(encode_plain(segment, offset))
    return tokens


def split_on_special(text: str, allowed: frozenset[str]) -> list[tuple[str, bool, int]]:
    """Cut text into (segment, is_special, start offset) runs; the longest special string wins."""
    if not text:
        return []
    if not allowed:
        return [(text, False, 0)]
    finder = re.compile("|".join(re.escape(s) for s in sorted(allowed, key=len, reverse=True)))
    runs: list[tuple[str, bool, int]] = []
    plain_start = 0
    for match in finder.finditer(text):
        if plain_start < match.start():
            runs.append((text[plain_start : match.start()], False, plain_start))
        runs.append((match.group(), True, match.start()))
        plain_start = match.end()
    if plain_start < len(text):
        runs.append((text[plain_start:], False, plain_start))
    return runs


def unknown_id_error(ids: Sequence[int], known: Callable[[int], bool]) -> ValueError:
    """The error for the first id that `known(id)` rejects (every decoder words it the same)."""
    bad = next((i for i in ids if not known(i)), None)
    return ValueError(f"{bad!r} is not a token id of this tokenizer; nothing was decoded")
