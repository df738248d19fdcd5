"""A byte ruler: characters, their UTF-8 bytes and each tokenizer's tokens in aligned rows.

What it adds to render.py: a second honest picture of tokens, laid over the *bytes* instead of
the text. Every row is cut into the same byte columns, so a student sees that 你 is E4 BD A0
and that GPT-2's first token of 你好 stops after E4 BD, in the middle of the character.

- `ruler_rows`: the layout as data (one `Row` per line of the picture, `Cell`s with byte spans),
  which the tests check without parsing HTML;
- `render_ruler`: that layout as HTML. Every string from the user or a vocabulary (characters,
  token text, row headers, hover titles) goes through `render.escape`; numbers and class names
  are ours. Nothing goes into a `style`, an `href` or an event attribute: widths come from
  classes `s1`..`s32` defined in `RULER_CSS`.

Tokens are placed by their bytes when they are the text's own bytes (every byte-level
tokenizer), and otherwise by their character span (word-level BPE, WordPiece): bytes no token
covers are drawn as empty gaps, and zero-width tokens (a lone `</w>`) are not drawn.
Lines are cut between characters, never inside one; a token cut by a line end continues on the
next line (classes `cutr`/`cutl`).

The ruler's own words (row headers, hover titles) are English sentences marked with `N_`, said
through `say` (an English sentence with `{placeholders}` and its values -> the text shown): the
interface passes its catalog's `_`, everyone else gets the English filled in.

Leaves out: tokenizing (callers pass tokens), choosing tokenizers, and the page around it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Literal, Sequence

from ..messages import N_, Say, in_english
from ..render import PALETTE_SIZE, escape, palette_css, token_title
from ..tokens import ByteToChar, Token, char_label, display_bytes

RowKind = Literal["char", "codepoint", "byte", "token"]
MIN_BYTES_PER_LINE = 4  # the longest UTF-8 character must fit on one line
MAX_BYTES_PER_LINE = 32  # RULER_CSS defines span classes s1..s32
CONTINUED = "…"  # label of the later pieces of a fixed-label token (special, unknown)
@dataclass(frozen=True)
class Cell:
    """One box of the ruler over the byte columns [start, end) of the text's UTF-8.

    label: what the box shows, or None for "the text's bytes under it" (a token's own bytes,
           shown as text, partial UTF-8 as `<E4 BD>`); computed after lines are cut.
    """

    start: int
    end: int
    label: str | None
    title: str
    classes: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    kind: RowKind
    header: str
    cells: tuple[Cell, ...]
    header_title: str = ""


def byte_role(b: int) -> str:
    """What a byte is in UTF-8, for the hover: ASCII, the lead of an n-byte character, or a
    continuation byte."""
    if b < 0x80:
        return "ASCII, a whole character"
    if b < 0xC0:
        return "continuation byte (10xxxxxx)"
    for n, top in ((2, 0xE0), (3, 0xF0), (4, 0xF8)):
        if b < top:
            return f"lead byte of a {n}-byte character"
    return "never valid in UTF-8"


# byte_role's sentences as message ids (byte_role itself is quoted by a Practice exercise, so it
# stays as the exercise shows it): the hover says them through `say`.
ROLE_SENTENCES = {
    "ASCII, a whole character": N_("ASCII, a whole character"),
    "continuation byte (10xxxxxx)": N_("continuation byte (10xxxxxx)"),
    "never valid in UTF-8": N_("never valid in UTF-8"),
}
LEAD_SENTENCE = N_("lead byte of a {n}-byte character")


def _said_role(b: int, say: Say) -> str:
    role = byte_role(b)
    if role in ROLE_SENTENCES:
        return say(ROLE_SENTENCES[role])
    return say(LEAD_SENTENCE, n=str(2 if b < 0xE0 else 3 if b < 0xF0 else 4))


def _char_row(text: str, starts: list[int], say: Say = in_english) -> Row:
    cells = []
    for i, ch in enumerate(text):
        start, end = starts[i], starts[i + 1]
        name = unicodedata.name(ch, "unnamed")
        label = char_label(ch)
        n = end - start
        size = say(N_("{n} bytes"), n=n) if n > 1 else say(N_("{n} byte"), n=n)
        title = f"U+{ord(ch):04X} {name} · {size}"
        classes = ("ch",) if label == ch else ("ch", "named")
        cells.append(Cell(start, end, label, title, classes))
    return Row("char", say(N_("characters")), tuple(cells),
               say(N_("One box per character (Unicode code point)")))


def _code_point_row(text: str, starts: list[int], say: Say = in_english) -> Row:
    cells = tuple(
        Cell(starts[i], starts[i + 1], f"{ord(ch):04X}", f"U+{ord(ch):04X}", ("cp",))
        for i, ch in enumerate(text)
    )
    return Row("codepoint", say(N_("code point U+")), cells,
               say(N_("Each character's Unicode number, in hex")))


def _byte_row(data: bytes, say: Say = in_english) -> Row:
    cells = []
    for i, b in enumerate(data):
        kind = "ascii" if b < 0x80 else ("cont" if b < 0xC0 else "lead")
        title = say(N_("byte {i}: 0x{hex} = {bits}, {role}"), i=str(i), hex=f"{b:02X}",
                    bits=f"{b:08b}", role=_said_role(b, say))
        cells.append(Cell(i, i + 1, f"{b:02X}", title, ("by", kind)))
    about = say(N_("The bytes a byte-level tokenizer reads, in hex"))
    return Row("byte", say(N_("UTF-8 bytes")), tuple(cells), about)


def token_spans(text: str, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Each token's byte span [start, end) in `text.encode("utf-8")`.

    subtle: by bytes when the tokens are exactly the text's bytes (byte level: a token may end
    inside a character); otherwise by character span, mapped to whole characters' bytes.
    """
    data = text.encode("utf-8")
    if b"".join(t.bytes for t in tokens) == data:
        spans, offset = [], 0
        for token in tokens:
            spans.append((offset, offset + len(token.bytes)))
            offset += len(token.bytes)
        return spans
    starts = [*ByteToChar(text).char_byte_starts, len(data)]
    n = len(text)
    return [(starts[min(t.start, n)], starts[min(max(t.end, t.start), n)]) for t in tokens]


def _token_classes(i: int, token: Token) -> tuple[str, ...]:
    classes = ["tk", f"c{i % PALETTE_SIZE}"]
    if i % 2:
        classes.append("alt")
    for flag in ("partial", "special", "unknown"):
        if getattr(token, flag):
            classes.append(flag)
    return tuple(classes)


def _token_row(header: str, text: str, tokens: Sequence[Token], n_bytes: int,
               say: Say = in_english) -> Row:
    cells: list[Cell] = []
    covered = 0
    for i, (token, (start, end)) in enumerate(zip(tokens, token_spans(text, tokens))):
        start = max(start, covered)  # never overlap a neighbour (none of ours do)
        if start >= n_bytes:
            break  # past the drawn part of the text
        if end <= start:
            continue  # zero-width: a lone </w> covers no byte
        if start > covered:
            cells.append(Cell(covered, start, "", say(N_("no token covers these bytes")),
                              ("gap",)))
        fixed = (token.piece or token.display()) if (token.special or token.unknown) else None
        title = say(N_("token {i} · {about}"), i=str(i), about=token_title(token, say))
        cells.append(Cell(start, end, fixed, title, _token_classes(i, token)))
        covered = end
    if covered < n_bytes:
        cells.append(Cell(covered, n_bytes, "", say(N_("no token covers these bytes")), ("gap",)))
    about = say(N_("{header}: {count} tokens for the whole text"), header=header,
                count=len(tokens))
    return Row("token", header, tuple(cells), about)


def _clip(cell: Cell, lo: int, hi: int) -> Cell | None:
    """The part of a cell inside byte columns [lo, hi), marked where it was cut."""
    start, end = max(cell.start, lo), min(cell.end, hi)
    if start >= end:
        return None
    extra = (("cutl",) if cell.start < lo else ()) + (("cutr",) if cell.end > hi else ())
    label = CONTINUED if cell.label and cell.start < lo and "tk" in cell.classes else cell.label
    return replace(cell, start=start, end=end, label=label, classes=cell.classes + extra)


def line_breaks(starts: Sequence[int], bytes_per_line: int) -> list[tuple[int, int]]:
    """Byte ranges of the ruler's lines: at most `bytes_per_line` bytes, cut between characters.

    `starts` are the characters' first bytes plus the end of the text.
    """
    lines: list[tuple[int, int]] = []
    line_start = 0
    for previous, end in zip(starts, starts[1:]):
        if end - line_start > bytes_per_line:
            lines.append((line_start, previous))
            line_start = previous
    if starts[-1] > line_start:
        lines.append((line_start, starts[-1]))
    return lines


def ruler_rows(
    text: str,
    token_rows: Sequence[tuple[str, Sequence[Token]]],
    *,
    max_chars: int | None = None,
    bytes_per_line: int = 24,
    code_points: bool = False,
    say: Say = in_english,
) -> list[list[Row]]:
    """The ruler as data: one list of rows per line, each row's cells clipped to that line.

    `token_rows` are (header, tokens of the whole `text`); only the first `max_chars`
    characters are drawn, and a token that runs past them is cut (class `cutr`).
    """
    if not MIN_BYTES_PER_LINE <= bytes_per_line <= MAX_BYTES_PER_LINE:
        raise ValueError(
            f"bytes_per_line must be {MIN_BYTES_PER_LINE}..{MAX_BYTES_PER_LINE}, got "
            f"{bytes_per_line}; a line must hold the longest UTF-8 character (4 bytes)"
        )
    if max_chars is not None and max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, got {max_chars}")
    drawn = text if max_chars is None else text[:max_chars]
    data = drawn.encode("utf-8")
    starts = [*ByteToChar(drawn).char_byte_starts, len(data)]
    rows = [_char_row(drawn, starts, say)]
    if code_points:
        rows.append(_code_point_row(drawn, starts, say))
    rows.append(_byte_row(data, say))
    rows += [_token_row(header, text, tokens, len(data), say) for header, tokens in token_rows]
    lines = []
    for lo, hi in line_breaks(starts, bytes_per_line):
        clipped = [
            replace(row, cells=tuple(c for c in (_clip(x, lo, hi) for x in row.cells) if c))
            for row in rows
        ]
        lines.append(clipped)
    return lines


RULER_CSS = (
    """
.ruler { --rh: 7.2em; --n: 24; font-size: 1rem; color: #111; overflow-x: auto;
  font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; }
.ruler.big { font-size: 1.2rem; --rh: 7.6em; }
.ruler .rline { margin: 0 0 .9em 0; padding-bottom: .5em; border-bottom: 1px solid #ccc; }
.ruler .rrow { display: grid; margin: 2px 0; padding-right: 1px; /* the last box's -1px margin */
  grid-template-columns: var(--rh) repeat(var(--n), minmax(0, 1fr));
  min-width: calc(var(--rh) + var(--n) * 1.9em); }
.ruler .rh { font-family: system-ui, sans-serif; font-size: .78em; font-weight: 600;
  color: #333; align-self: center; padding-right: .5em; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; }
.ruler .rc { box-sizing: border-box; text-align: center; white-space: pre-wrap;
  overflow-wrap: anywhere; line-height: 1.25; padding: 2px 1px; min-height: 1.6em;
  border: 1px solid rgba(0,0,0,.28); margin-right: -1px; }
.ruler .ch { font-size: 1.25em; background: #fff; }
.ruler .ch.named, .ruler .cp { font-size: .68em; color: #333; align-content: center; }
.ruler .ch.named { background: #f1f1f1; }
.ruler .by { background: #f7f7f7; color: #222; }
.ruler .by.lead { font-weight: 700; background: #ececec; }
.ruler .by.cont { color: #555; }
.ruler .tk { border-bottom-width: 3px; border-radius: 3px; }
.ruler .tk.alt { border-bottom-style: dotted; }
"""
    + palette_css(".ruler")
    + """\
.ruler .tk.partial { border: 2px dashed #b00020; font-size: .72em; align-content: center;
  white-space: pre; overflow-wrap: normal; }
.ruler .tk.special { background: #222; color: #fff; font-weight: 600; }
.ruler .tk.unknown { background: #eee; color: #8a0000; font-weight: 600; }
.ruler .gap { border-style: dotted; background: transparent; }
.ruler .cutr { border-right: 3px double #555; }
.ruler .cutl { border-left: 3px double #555; }
.ruler .rc:hover { outline: 3px solid #0047b3; outline-offset: -1px; position: relative; }
.ruler.contrast .rc { border-color: #000; color: #000; }
.ruler.contrast .tk.partial { border-color: #b00020; }
"""
    + "".join(
        f".ruler .s{n} {{ grid-column: span {n}; }}\n.ruler.n{n} {{ --n: {n}; }}\n"
        for n in range(1, MAX_BYTES_PER_LINE + 1)
    )
)


def token_text(data: bytes) -> str:
    """A token's bytes as the ruler shows them (tokens.display_bytes with whitespace made visible
    and a run of only invisible characters named: a lone ZWJ shows `ZWJ`, not an empty box)."""
    return display_bytes(data, visible_whitespace=True, name_invisible=True)


def _cell_html(cell: Cell, data: bytes) -> str:
    label = cell.label
    if label is None:  # a token: its own bytes as text, partial UTF-8 as <E4 BD>
        label = token_text(data[cell.start : cell.end])
    classes = " ".join((*cell.classes, f"s{cell.end - cell.start}"))
    return (
        f'<div class="rc {classes}" data-s="{cell.start}" data-e="{cell.end}" '
        f'title="{escape(cell.title)}">{escape(label)}</div>'
    )


def render_ruler(
    text: str,
    token_rows: Sequence[tuple[str, Sequence[Token]]],
    *,
    max_chars: int | None = None,
    bytes_per_line: int = 24,
    code_points: bool = False,
    big: bool = False,
    contrast: bool = False,
    say: Say = in_english,
) -> str:
    """HTML for the ruler (see `ruler_rows`); every user or vocabulary string escaped."""
    lines = ruler_rows(
        text, token_rows, max_chars=max_chars, bytes_per_line=bytes_per_line,
        code_points=code_points, say=say,
    )  # fmt: skip
    drawn = text if max_chars is None else text[:max_chars]
    data = drawn.encode("utf-8")
    classes = ["ruler", f"n{bytes_per_line}"]
    classes += (["big"] if big else []) + (["contrast"] if contrast else [])
    out = [f'<div class="{" ".join(classes)}">']
    for rows in lines:
        out.append('<div class="rline">')
        for row in rows:
            out.append(f'<div class="rrow r{row.kind}">')
            title, header = escape(row.header_title), escape(row.header)
            out.append(f'<div class="rh" title="{title}">{header}</div>')
            out.extend(_cell_html(cell, data) for cell in row.cells)
            out.append("</div>")
        out.append("</div>")
    out.append("</div>")
    return "".join(out)
