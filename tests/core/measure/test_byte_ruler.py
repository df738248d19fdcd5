"""The byte ruler: characters over their UTF-8 bytes over each tokenizer's tokens, aligned by
byte column; injection payloads stay text; lines cut between characters, never inside one."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.shared import PAYLOAD_LINES as PAYLOADS
from tests.shared import tiktoken
from tokenizer_core import corpus_from_text, train_bpe
from tokenizer_core.measure.byte_ruler import (
    MAX_BYTES_PER_LINE,
    Row,
    line_breaks,
    render_ruler,
    ruler_rows,
    token_spans,
    token_text,
)
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.tokens import ByteToChar, char_label

ALLOWED_ATTRS = {"class", "title", "data-s", "data-e"}


class Ruler(HTMLParser):
    """What a browser's parser sees: every tag and attribute, and each cell's text by row."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[tuple[str, list[tuple[str, dict[str, str | None]]]]] = []
        self.comments: list[str] = []
        self._cell: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        classes = (attrs.get("class") or "").split()
        if "rrow" in classes:
            self.rows.append((classes[1], []))
        elif "rh" in classes or "rc" in classes:
            self._cell, self._text = attrs, []

    def handle_endtag(self, tag):
        if self._cell is not None and tag == "div":
            if "rc" in (self._cell.get("class") or "").split():
                self.rows[-1][1].append(("".join(self._text), self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._text.append(data)

    def handle_comment(self, data):
        self.comments.append(data)

    def row(self, kind: str, n: int = 0) -> list[tuple[str, dict[str, str | None]]]:
        """The n-th row of this kind in every line, joined, cells in order."""
        lines: list[list[tuple[str, list]]] = []
        for row_kind, cells in self.rows:
            if row_kind == "rchar":
                lines.append([])
            lines[-1].append((row_kind, cells))
        picked = [[c for k, c in line if k == f"r{kind}"][n] for line in lines]
        return [cell for cells in picked for cell in cells]


def parse(markup: str) -> Ruler:
    parser = Ruler()
    parser.feed(markup)
    parser.close()
    return parser


def classes(attrs: dict[str, str | None]) -> list[str]:
    return (attrs.get("class") or "").split()


def test_ni_is_e4_bd_a0_and_gpt2_cuts_inside_it(gpt2):
    text = "你好"
    lines = ruler_rows(text, [("GPT-2", gpt2.encode(text))])
    assert len(lines) == 1
    chars, bytes_row, tokens = lines[0]
    assert [(c.label, c.start, c.end) for c in chars.cells] == [("你", 0, 3), ("好", 3, 6)]
    assert [c.label for c in bytes_row.cells] == ["E4", "BD", "A0", "E5", "A5", "BD"]
    first = tokens.cells[0]
    assert (first.start, first.end) == (0, 2) and "partial" in first.classes  # E4 BD: inside 你
    assert [(c.start, c.end) for c in tokens.cells] == [(0, 2), (2, 3), (3, 5), (5, 6)]


def test_html_draws_the_same_alignment(gpt2):
    structure = parse(render_ruler("你好", [("GPT-2", gpt2.encode("你好"))]))
    assert [t for t, _ in structure.row("byte")] == ["E4", "BD", "A0", "E5", "A5", "BD"]
    label, attrs = structure.row("token")[0]
    assert label == "<E4 BD>" and "partial" in classes(attrs) and "s2" in classes(attrs)
    assert (attrs["data-s"], attrs["data-e"]) == ("0", "2")
    char, char_attrs = structure.row("char")[0]
    assert char == "你" and "s3" in classes(char_attrs)
    assert "U+4F60 CJK UNIFIED IDEOGRAPH-4F60 · 3 bytes" == char_attrs["title"]


def test_every_row_covers_every_byte_column_once(gpt2):
    text = "Hello 你好，世界！👍🏽 café\n\tend"
    rows = [("GPT-2", gpt2.encode(text)), ("o200k", tiktoken("o200k_base").encode(text))]
    n_bytes = len(text.encode("utf-8"))
    for lines in [ruler_rows(text, rows, bytes_per_line=b) for b in (4, 7, 24, MAX_BYTES_PER_LINE)]:
        for row_index in range(len(lines[0])):
            columns = [(c.start, c.end) for line in lines for c in line[row_index].cells]
            covered = [i for s, e in columns for i in range(s, e)]
            assert covered == list(range(n_bytes)), row_index


def test_lines_break_between_characters_never_inside_one():
    text = "a你好👍🏽b"
    starts = [*ByteToChar(text).char_byte_starts, len(text.encode())]
    for width in range(4, 12):
        lines = line_breaks(starts, width)
        assert all(lo in starts and hi in starts and hi - lo <= width for lo, hi in lines)
        assert [lo for lo, _ in lines][1:] == [hi for _, hi in lines][:-1]


def test_a_token_cut_by_a_line_end_is_marked_on_both_sides(gpt2):
    text = "abc tokenization"  # GPT-2: "abc", " token", "ization"; a line holds 8 bytes
    lines = ruler_rows(text, [("GPT-2", gpt2.encode(text))], bytes_per_line=8)
    first_line_token = lines[0][2].cells[-1]
    second_line_token = lines[1][2].cells[0]
    assert "cutr" in first_line_token.classes and "cutl" in second_line_token.classes
    markup = render_ruler(text, [("GPT-2", gpt2.encode(text))], bytes_per_line=8)
    shown = [t for t, _ in parse(markup).row("token")]
    assert shown == ["abc", "·toke", "n", "ization"]  # " token" is cut after "·toke"


def test_drawing_bound_clips_text_and_tokens(gpt2):
    text = "你好" * 50
    lines = ruler_rows(text, [("GPT-2", gpt2.encode(text))], max_chars=3)
    chars = [c.label for line in lines for c in line[0].cells]
    tokens = [c for line in lines for c in line[2].cells]
    assert chars == ["你", "好", "你"] and tokens[-1].end == 9


def test_word_level_tokens_are_placed_by_characters_with_gaps():
    model = bpe_model(train_bpe(corpus_from_text("low lower lowest", "word"), 5))
    text = "low  lower"
    spans = token_spans(text, model.encode(text))
    assert spans[0] == (0, 3)  # "low</w>" covers l o w
    (line,) = ruler_rows(text, [("word BPE", model.encode(text))])
    gaps = [(c.start, c.end) for c in line[2].cells if "gap" in c.classes]
    assert gaps == [(3, 5)]  # the two spaces belong to no token


def test_invisible_characters_get_names():
    assert [char_label(c) for c in " \n\t\u200d\ufe0f\U000e0067\U000e007f\u00a0"] == [
        "·", "↵", "→", "ZWJ", "VS16", "tag g", "END tag", "NBSP"
    ]
    assert char_label("\u0301") == "◌\u0301" and char_label("\x07") == "BEL"
    assert token_text("\u200d".encode()) == "ZWJ"  # not an empty box
    assert token_text("\ufe0f\u20e3".encode()) == "VS16 ◌\u20e3"
    assert token_text(" cat".encode()) == "·cat"
    assert token_text(b"\xe4\xbd") == "<E4 BD>"
    assert token_text("👩\u200d💻".encode()) == "👩\u200d💻"  # a joined emoji shows as itself


@pytest.mark.parametrize("payload", PAYLOADS)
def test_injection_payloads_come_out_as_text_only(gpt2, payload):
    tokens = gpt2.encode(payload, disallowed_special=())
    markup = render_ruler(payload, [("GPT-2", tokens), (payload, tokens)], code_points=True)
    structure = parse(markup)
    for tag, attrs in structure.tags:
        assert tag == "div" and set(attrs) <= ALLOWED_ATTRS, (tag, attrs)
        assert all(c.isalnum() or c == "-" for c in (attrs.get("class") or "").replace(" ", ""))
    assert not structure.comments
    shown = "".join(t for t, _ in structure.row("char"))
    assert shown == "".join(char_label(c) for c in payload)


@given(text=st.text(max_size=40))
def test_any_text_renders_to_divs_only(gpt2, text):
    structure = parse(render_ruler(text, [("GPT-2", gpt2.encode(text, disallowed_special=()))],
                                   bytes_per_line=5))
    assert {tag for tag, _ in structure.tags} <= {"div"}
    assert [t for t, _ in structure.row("byte")] == [f"{b:02X}" for b in text.encode("utf-8")]


def test_bad_layout_requests_say_what_to_do():
    with pytest.raises(ValueError, match="longest UTF-8 character"):
        ruler_rows("abc", [], bytes_per_line=3)
    with pytest.raises(ValueError, match="max_chars must be at least 1"):
        ruler_rows("abc", [], max_chars=0)
    assert ruler_rows("", [("GPT-2", [])]) == []


def test_rows_are_plain_data():
    (line,) = ruler_rows("a", [], code_points=True)
    assert [r.kind for r in line] == ["char", "codepoint", "byte"]
    assert isinstance(line[0], Row) and line[1].cells[0].label == "0061"
