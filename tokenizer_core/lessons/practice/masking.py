"""Random masking: hide a share of a function's tokens and ask for them back.

Blanks are whole tokens as Python's own `tokenize` cuts the code, of three kinds:
- identifiers (NAME tokens that are not keywords; `True`, `False`, `None` count as literals);
- literals: NUMBER and STRING tokens, always whole (never characters inside the quotes);
- operators: arithmetic, comparison and assignment operators (`+`, `<=`, `=`, `+=`, ...).
Never blanks: comments (not tokens of the code), keywords such as `def`, `for`, `return`
(hiding them makes a guessing game about syntax, not about the algorithm), brackets, commas,
dots and colons, docstrings, a function's whole signature (its name, parameters, annotations
and defaults: the student reads them to know what the body works with), type annotations
elsewhere (`pair_counts: dict[Pair, int] = {}` may hide `pair_counts` and `=`, never
`dict[Pair, int]`), and the name a `class` line introduces.

The mask is `round(share * possible)` blanks (halves round up), drawn by `random.Random(seed)`:
the same code, share and seed give the same mask on every machine, so a teacher can read one
seed out to a class. An answer is right when it is the hidden token's text (spaces around it
ignored); a number or string literal may also be written another way with the same value
(`128` for `0x80`, `'utf-8'` for `"utf-8"`), compared by parsing, never by running it.

Leaves out: choosing *meaningful* blanks (exercises.py does that by hand).
"""

from __future__ import annotations

import ast
import io
import keyword
import random
import token
import tokenize
from dataclasses import dataclass
from typing import Literal

from .exercises import MARKER

SlotKind = Literal["identifier", "literal", "operator"]
SHARES = (10, 15, 20, 30, 50)  # percent of the possible blanks that are hidden
MAX_SEED = 999_999  # six digits: short enough to read out to a class
LITERAL_NAMES = frozenset({"True", "False", "None"})
OPERATORS = frozenset({
    token.PLUS, token.MINUS, token.STAR, token.SLASH, token.DOUBLESLASH, token.PERCENT,
    token.DOUBLESTAR, token.LESS, token.GREATER, token.LESSEQUAL, token.GREATEREQUAL,
    token.EQEQUAL, token.NOTEQUAL, token.EQUAL, token.PLUSEQUAL, token.MINEQUAL,
    token.STAREQUAL, token.SLASHEQUAL, token.DOUBLESLASHEQUAL, token.PERCENTEQUAL,
    token.AMPER, token.VBAR, token.CIRCUMFLEX, token.TILDE, token.LEFTSHIFT, token.RIGHTSHIFT,
    token.COLONEQUAL,
})


@dataclass(frozen=True)
class Slot:
    """One token that may be hidden: its text, kind and [start, end) offsets in the code."""

    text: str
    kind: SlotKind
    start: int
    end: int


def _line_offsets(code: str) -> list[int]:
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def _offset(code_lines: list[str], offsets: list[int], line: int, byte_col: int) -> int:
    """A syntax-tree position (1-based line, UTF-8 byte column) as an offset into the code."""
    text = code_lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", errors="ignore")
    return offsets[line - 1] + len(text)


def _excluded_spans(code: str, offsets: list[int]) -> list[tuple[int, int]]:
    """[start, end) of what is never a blank: docstrings, function signatures, annotations."""
    lines = code.splitlines(keepends=True)

    def span(start: ast.AST, end: ast.AST, end_at_start: bool = False) -> tuple[int, int]:
        a = _offset(lines, offsets, start.lineno, start.col_offset)  # type: ignore[attr-defined]
        if end_at_start:  # up to where `end` starts (a signature: up to the body)
            return a, _offset(lines, offsets, end.lineno, end.col_offset)  # type: ignore
        return a, _offset(lines, offsets, end.end_lineno, end.end_col_offset)  # type: ignore

    spans = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                spans.append(span(first, first))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spans.append(span(node, node.body[0], end_at_start=True))
        elif isinstance(node, ast.AnnAssign):
            spans.append(span(node.annotation, node.annotation))
        elif isinstance(node, ast.arg) and node.annotation is not None:  # a lambda's, in a body
            spans.append(span(node.annotation, node.annotation))
    return spans


def _kind(tok: tokenize.TokenInfo) -> SlotKind | None:
    if tok.type == token.NAME:
        if tok.string in LITERAL_NAMES:
            return "literal"
        return None if keyword.iskeyword(tok.string) else "identifier"
    if tok.type in (token.NUMBER, token.STRING):
        return "literal"
    if tok.type == token.OP and tok.exact_type in OPERATORS:
        return "operator"
    return None


def mask_slots(code: str) -> list[Slot]:
    """Every token of `code` that random masking may hide, in reading order."""
    offsets = _line_offsets(code)
    excluded = _excluded_spans(code, offsets)
    slots: list[Slot] = []
    previous = ""
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        kind = _kind(tok)
        defined_here = previous in ("def", "class")
        if tok.type not in (token.NL, token.NEWLINE, token.INDENT, token.DEDENT, token.COMMENT):
            previous = tok.string
        start = offsets[tok.start[0] - 1] + tok.start[1]
        end = offsets[tok.end[0] - 1] + tok.end[1]
        if kind is None or defined_here or any(a <= start < b for a, b in excluded):
            continue
        slots.append(Slot(tok.string, kind, start, end))
    return slots


def hidden_count(possible: int, share: int) -> int:
    """round(share% of possible), halves up (integer arithmetic: no float surprises)."""
    if share not in SHARES:
        raise ValueError(f"hide {share}%? choose one of {', '.join(map(str, SHARES))}")
    return (possible * share * 2 + 100) // 200


def choose_hidden(possible: int, share: int, seed: int) -> list[int]:
    """Which slots (indices, ascending) to hide: the same for the same (possible, share, seed)."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED:,}, got {seed}")
    return sorted(random.Random(seed).sample(range(possible), hidden_count(possible, share)))


@dataclass(frozen=True)
class Mask:
    code: str  # the code with the hidden slots drawn as __1__, __2__, ...
    slots: tuple[Slot, ...]  # every slot that could have been hidden
    hidden: tuple[Slot, ...]  # the hidden ones, in reading order (blank 1 first)


def mask_code(code: str, share: int, seed: int) -> Mask:
    slots = mask_slots(code)
    hidden = [slots[i] for i in choose_hidden(len(slots), share, seed)]
    shown = code
    for n, slot in reversed(list(enumerate(hidden, start=1))):
        shown = shown[: slot.start] + MARKER.format(n=n) + shown[slot.end :]
    return Mask(shown, tuple(slots), tuple(hidden))


def _literal_form(text: str) -> str | None:
    try:
        return ast.dump(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def check_token(answer: str, slot: Slot) -> bool:
    """Is `answer` the hidden token? Its exact text, or for a literal the same literal."""
    answer = answer.strip()
    if answer == slot.text:
        return True
    if slot.kind != "literal" or not answer or len(answer) > 4 * len(slot.text) + 8:
        return False
    tree = _literal_form(answer)
    return tree is not None and tree.startswith("Constant(") and tree == _literal_form(slot.text)
