"""The Token record's honest display and character spans."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core.tokens import ByteToChar, Token, display_bytes, split_utf8, tokens_from_bytes


def test_partial_utf8_is_shown_as_hex_never_replacement_char():
    assert display_bytes("你".encode()[:2]) == "<E4 BD>"
    assert display_bytes(b" \xe4\xbd") == " <E4 BD>"
    assert display_bytes("你".encode()[2:] + "好".encode()) == "<A0>好"


def test_visible_whitespace():
    assert display_bytes(b" a\tb\n", visible_whitespace=True) == "·a→b↵"
    assert display_bytes(b" a\tb\n") == " a\tb\n"


def test_marks_for_unseen_characters_are_glyphs_every_font_has():
    """Issue 9, item 10: U+240D (and the other control pictures) is in no installed font, so it
    drew an empty box: a carriage return is `←` (back to the start, beside the tab's `→`) and a
    lone control character is named, as ZWJ is."""
    assert display_bytes(b"a\r\n", visible_whitespace=True) == "a←↵"
    assert display_bytes(b"\x07", name_invisible=True) == "BEL"
    assert display_bytes(b"\x00\x1b\x7f", name_invisible=True) == "NUL ESC DEL"


def test_token_display_and_hex():
    token = Token(id=19526, bytes=b"\xe4\xbd", start=0, end=1, partial=True)
    assert token.display() == "<E4 BD>"
    assert token.hex == "e4bd"


@given(st.binary(max_size=40))
def test_split_utf8_keeps_every_byte_and_decodes_what_is_whole(data):
    runs = split_utf8(data)
    assert b"".join(run for _, run in runs) == data
    whole_text = "".join(run.decode("utf-8") for whole, run in runs if whole)
    assert whole_text == data.decode("utf-8", errors="ignore")


@given(st.binary(max_size=40))
def test_display_never_shows_u_fffd_unless_the_bytes_hold_it(data):
    if "\ufffd".encode() not in data:
        assert "\ufffd" not in display_bytes(data)


def test_spans_of_tokens_that_split_a_character():
    text = "a你b"
    pieces = [(1, b"a"), (2, b"\xe4\xbd"), (3, b"\xa0b")]
    tokens = tokens_from_bytes(text, pieces)
    assert [(t.start, t.end, t.partial) for t in tokens] == [(0, 1, False), (1, 2, True), (1, 3, True)]
    assert [t.piece for t in tokens] == ["a", None, None]


def test_tokens_must_cover_the_text_exactly():
    import pytest

    with pytest.raises(ValueError, match="cover 1 bytes but the text has 2"):
        tokens_from_bytes("ab", [(1, b"a")])


@given(st.text(max_size=30), st.data())
def test_any_byte_cut_maps_to_characters_that_hold_those_bytes(text, data):
    encoded = text.encode()
    cuts = sorted(data.draw(st.sets(st.integers(0, len(encoded)), max_size=8)) | {0, len(encoded)})
    pieces = [(i, encoded[a:b]) for i, (a, b) in enumerate(zip(cuts, cuts[1:])) if b > a]
    tokens = tokens_from_bytes(text, pieces)
    for token in tokens:
        covered = text[token.start : token.end].encode()
        assert token.bytes in covered  # a token's bytes sit inside the characters it touches
        assert token.partial == (covered != token.bytes)
    index = ByteToChar(text)
    assert index.n_bytes == len(encoded)


def spans_by_index(text: str, pieces: list[tuple[int, bytes]]) -> list[tuple[int, int, bool]]:
    """The slow, obviously right spans: every token looked up in the byte -> character index."""
    index, offset, spans = ByteToChar(text), 0, []
    for _, data in pieces:
        spans.append(index.span(offset, offset + len(data)))
        offset += len(data)
    return spans


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40), st.data())
def test_spans_equal_the_index_lookup_for_any_cut(text, data):
    """tokens_from_bytes counts characters as it goes and looks up only split characters: the
    spans must equal a lookup of every token, wherever the cuts fall (empty tokens included)."""
    encoded = text.encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(encoded)), max_size=10)) + [0, len(encoded)])
    pieces = [(i, encoded[a:b]) for i, (a, b) in enumerate(zip(cuts, cuts[1:]))]
    tokens = tokens_from_bytes(text, pieces)
    assert [(t.start, t.end, t.partial) for t in tokens] == spans_by_index(text, pieces)
