"""The Token record that every tokenizer returns, and how to show a token honestly.

A token is bytes first. Its `start`/`end` are character offsets into the input string; a token
that covers only part of a multi-byte character is mapped onto that whole character and marked
`partial`. Its display form never shows U+FFFD: bytes that are not whole UTF-8 characters are
shown as hex, e.g. `<E4 BD>`. `require_unicode` is the one check that a text has UTF-8 bytes
at all (no lone surrogates), shared by every encoder.

Leaves out: rendering to HTML (see render.py) and anything model-specific.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from .messages import N_, Refusal

# Visible whitespace, used when a view asks for it. Chosen to be distinct from ordinary text,
# and drawn by the fonts the app relies on (DejaVu, Noto CJK): the control picture U+240D (␍)
# is in neither, so a carriage return is `←`, back to the start of the line, as a tab is `→`.
VISIBLE_WHITESPACE = {" ": "·", "\t": "→", "\n": "↵", "\r": "←"}
# Control characters by their ASCII names (the control pictures U+2400.. are in no font here).
CONTROL_NAMES = (
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI "
    "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split()


# Names for characters that draw nothing (or draw on top of their neighbour) on their own.
INVISIBLE_NAMES = {
    0x00A0: "NBSP", 0x00AD: "SHY", 0x034F: "CGJ", 0x180E: "MVS", 0x200B: "ZWSP",
    0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM", 0x200F: "RLM", 0x2028: "LSEP",
    0x2029: "PSEP", 0x202F: "NNBSP", 0x2060: "WJ", 0x3000: "IDSP", 0xFE0E: "VS15",
    0xFE0F: "VS16", 0xFEFF: "BOM", 0xE007F: "END tag",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    """One token of one input string.

    id:      the tokenizer's id for this token.
    bytes:   the exact bytes of the input this token covers (a special token: its own string).
    start:   character offset of the first character the token touches.
    end:     character offset just past the last character the token touches.
    partial: True when the token begins or ends inside a multi-byte character.
    piece:   the token's own string as the model holds it (`est</w>`, `##ing`, ` cat`), or None
             when its bytes are not whole UTF-8 characters.
    special: True for special tokens such as `<|endoftext|>`.
    unknown: True for the unknown token (`[UNK]`, `<unk>`) standing in for text the model
             cannot spell; `bytes` are then the text it stands in for.
    """

    id: int
    bytes: bytes
    start: int
    end: int
    partial: bool = False
    piece: str | None = None
    special: bool = False
    unknown: bool = False

    def display(self, visible_whitespace: bool = False, name_invisible: bool = False) -> str:
        """The token's bytes as text, partial UTF-8 as `<E4 BD>`, never U+FFFD."""
        return display_bytes(self.bytes, visible_whitespace, name_invisible)

    @property
    def hex(self) -> str:
        return self.bytes.hex()


def _utf8_sequence_length(lead: int) -> int:
    """How many bytes a UTF-8 sequence starting with `lead` claims (0: not a lead byte)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def split_utf8(data: bytes) -> list[tuple[bool, bytes]]:
    """Cut bytes into runs of whole UTF-8 characters (True) and runs of stray bytes (False).

    Whole-character runs decode exactly; stray runs are the bytes a token holds of a character
    it shares with a neighbour, or bytes that are not UTF-8 at all.
    """
    runs: list[tuple[bool, bytes]] = []
    i, n = 0, len(data)
    while i < n:
        length = _utf8_sequence_length(data[i])
        whole = length > 0 and i + length <= n
        if whole:
            # subtle: the decoder also rejects overlongs and surrogates, which the lead byte
            # alone cannot see (E0 80.., ED A0..); let it be the judge.
            try:
                data[i : i + length].decode("utf-8")
            except UnicodeDecodeError:
                whole = False
        step = length if whole else 1
        if runs and runs[-1][0] == whole:
            runs[-1] = (whole, runs[-1][1] + data[i : i + step])
        else:
            runs.append((whole, data[i : i + step]))
        i += step
    return runs


def hex_bytes(data: bytes) -> str:
    """`b'\\xe4\\xbd'` -> `E4 BD`."""
    return " ".join(f"{b:02X}" for b in data)


def hex_group(data: bytes) -> str:
    """`b'\\xe4\\xbd'` -> `<E4 BD>`."""
    return "<" + hex_bytes(data) + ">"


def show_whitespace(text: str) -> str:
    return "".join(VISIBLE_WHITESPACE.get(ch, ch) for ch in text)


def char_label(ch: str) -> str:
    """How one character shows in the ruler: whitespace and invisible characters get a name."""
    cp = ord(ch)
    if ch in VISIBLE_WHITESPACE:
        return VISIBLE_WHITESPACE[ch]
    if cp in INVISIBLE_NAMES:
        return INVISIBLE_NAMES[cp]
    if 0xE0020 <= cp <= 0xE007E:  # tag characters spell a subdivision flag (England: g b e n g)
        return f"tag {chr(cp - 0xE0000)}"
    if 0xFE00 <= cp <= 0xFE0D:
        return f"VS{cp - 0xFE00 + 1}"
    category = unicodedata.category(ch)
    if category == "Cc":
        return CONTROL_NAMES[cp] if cp < 0x20 else ("DEL" if cp == 0x7F else f"U+{cp:04X}")
    if category in ("Mn", "Me"):  # combining: draw it on a dotted circle, as the charts do
        return "◌" + ch
    if category in ("Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"):
        return f"U+{cp:04X}"
    return ch


def display_bytes(data: bytes, visible_whitespace: bool = False, name_invisible: bool = False) -> str:
    """Bytes as readable text: whole characters as themselves, stray bytes as `<E4 BD>`.

    name_invisible: a run made only of characters that draw nothing (a lone ZWJ, VS16, a BOM)
    shows their names (`ZWJ`), so a token of them is not an empty box.
    """
    parts = []
    for whole, run in split_utf8(data):
        if not whole:
            parts.append(hex_group(run))
            continue
        text = run.decode("utf-8")
        labels = [char_label(ch) for ch in text] if name_invisible else []
        if labels and all(lb != ch and ch not in VISIBLE_WHITESPACE for ch, lb in zip(text, labels)):
            parts.append(" ".join(labels))
        else:
            parts.append(show_whitespace(text) if visible_whitespace else text)
    return "".join(parts)


def require_unicode(text: str) -> None:
    """Refuse text with lone surrogates: it has no UTF-8 bytes, so it has no tokens."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise Refusal(
            N_("the text holds a lone surrogate {char} at character {at}, which is not Unicode "
               "text and has no UTF-8 bytes; remove it, or decode the source with "
               "errors='replace'"), char=repr(text[error.start]), at=str(error.start),
        ) from None


def piece_of(data: bytes) -> str | None:
    """The bytes as a string when they are whole UTF-8 characters, else None."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class ByteToChar:
    """Maps byte offsets of `text.encode('utf-8')` to character offsets of `text`."""

    def __init__(self, text: str) -> None:
        starts: list[int] = []
        offset = 0
        for ch in text:
            starts.append(offset)
            offset += len(ch.encode("utf-8"))
        self.char_byte_starts = starts
        self.n_bytes = offset
        self.n_chars = len(text)

    def char_at(self, byte_offset: int) -> int:
        """Index of the character that holds this byte (n_chars at the very end)."""
        if byte_offset >= self.n_bytes:
            return self.n_chars
        return bisect.bisect_right(self.char_byte_starts, byte_offset) - 1

    def is_boundary(self, byte_offset: int) -> bool:
        if byte_offset >= self.n_bytes:
            return byte_offset == self.n_bytes
        return self.char_byte_starts[self.char_at(byte_offset)] == byte_offset

    def span(self, byte_start: int, byte_end: int) -> tuple[int, int, bool]:
        """Character span touched by bytes [byte_start, byte_end), and whether it is partial."""
        start = self.char_at(byte_start)
        end = start if byte_end <= byte_start else self.char_at(byte_end - 1) + 1
        partial = not (self.is_boundary(byte_start) and self.is_boundary(byte_end))
        return start, end, partial


def _split_span(text: str, n_bytes: int, char: int, inside: int) -> tuple[int, int, bool, int, int]:
    """A token of `n_bytes` bytes that starts at byte `inside` of character `char` and splits a
    character: (start, end, partial, and where the next token starts: char and inside).

    Walks the token's own characters only, so a text with a few split characters never pays
    for an index of all of them (the index took a third of encoding a long text).
    """
    start, remaining = char, n_bytes
    while remaining:
        if char >= len(text):
            break  # more bytes than the text has: tokens_from_bytes says so
        size = len(text[char].encode("utf-8"))
        taken = min(remaining, size - inside)
        remaining, inside = remaining - taken, inside + taken
        if inside == size:
            char, inside = char + 1, 0
    end = start if not n_bytes else char + (1 if inside else 0)
    # Partial, always: its bytes do not decode, or it starts inside a character.
    return start, end, True, char, inside


def tokens_from_bytes(
    text: str,
    pieces: Iterable[tuple[int, bytes]],
    special_ids: frozenset[int] = frozenset(),
) -> list[Token]:
    """Build Token records from (id, bytes) pairs whose bytes concatenate to the text's UTF-8.

    This is how every byte-level tokenizer (ours, tiktoken, HF byte-level) gets honest
    character offsets, including tokens that split one character between them.
    """
    tokens: list[Token] = []
    offset = 0  # bytes consumed
    char, inside = 0, 0  # `offset` is byte `inside` of character `char` (0: a boundary)
    for token_id, data in pieces:
        piece = piece_of(data)
        if piece is not None and not inside:
            # Whole characters from a boundary: the span is a count, no lookup. (The tail of a
            # split character never decodes, so a token that decodes starts on a boundary.)
            start, end, partial = char, char + len(piece), False
            char = end
        else:
            start, end, partial, char, inside = _split_span(text, len(data), char, inside)
        tokens.append(
            Token(
                id=token_id,
                bytes=data,
                start=start,
                end=end,
                partial=partial,
                piece=piece,
                special=token_id in special_ids,
            )
        )
        offset += len(data)
    n_bytes = len(text.encode("utf-8"))
    if offset != n_bytes:
        raise ValueError(
            f"token bytes cover {offset} bytes but the text has {n_bytes}; "
            "the tokenizer did not return the text's own bytes"
        )
    return tokens
