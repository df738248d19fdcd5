"""What the reference tokenizers' tests share: hard text, and what every token list must satisfy."""

from __future__ import annotations

from hypothesis import strategies as st

from tokenizer_core.tokens import Token

NIHAO = "你好，世界🙂"
ENDOFTEXT = "<|endoftext|>"


def ids(tokens: list[Token]) -> list[int]:
    return [t.id for t in tokens]


# Text that exercises the hard parts: multi-byte characters, emoji with modifiers and ZWJ,
# combining marks, control characters, whitespace runs. (U+FFFD is left out so that a U+FFFD in
# a display can only come from a bug.)
HARD_CHARS = [
    *"你好世界，。🙂👍🏽👩‍👩‍👧🇫🇷ǅß'",
    *"e\u0301\u0300\u20dd",  # combining marks
    *"\x00\x07\x1b\x7f\x1f\n\r\t  \u00a0\u2028",  # controls and whitespace
]
TEXT = st.text(
    st.one_of(
        st.characters(exclude_categories=("Cs",), exclude_characters="\ufffd"),
        st.sampled_from(HARD_CHARS),
    ),
    max_size=60,
)


def assert_tokens_cover(text: str, tokens: list[Token]) -> None:
    """Bytes concatenate to the text; spans are ordered and in bounds; no U+FFFD shown.

    The one token allowed to cover nothing is SentencePiece's dummy-prefix `▁` (Mistral 7B, the
    sp:* models): the library puts it before a text's first word, so it owns no byte of the input
    (tokenizer_core/reference/sentencepiece_models.py and hf.py make it zero-width)."""
    dummy = [t for t in tokens if not t.bytes]
    assert all(t.piece == "▁" and t.start == t.end for t in dummy), dummy
    tokens = [t for t in tokens if t.bytes]
    assert b"".join(t.bytes for t in tokens) == text.encode("utf-8")
    previous = Token(0, b"", 0, 0)
    for token in tokens:
        assert 0 <= token.start < token.end <= len(text)
        assert token.start >= previous.start and token.end >= previous.end
        assert "\ufffd" not in token.display() and "\ufffd" not in token.display(True)
        # a token's bytes are whole characters exactly when it does not cut a character
        assert token.partial == (token.piece is None)
        previous = token


def assert_offsets_as_typed(text: str, tokens: list[Token], model_text: str) -> None:
    """Bytes are the model's text (the normalized one); spans are on the text as typed: in order,
    in bounds, no gap, and together exactly the text; a span shared with a neighbour is partial."""
    assert b"".join(t.bytes for t in tokens) == model_text.encode("utf-8")
    covered, parts = 0, []
    for i, token in enumerate(tokens):
        assert 0 <= token.start < token.end <= len(text)
        assert token.start <= covered, f"gap before token {i}"
        if i:
            assert token.start >= tokens[i - 1].start and token.end >= tokens[i - 1].end
        if token.start < covered:
            assert token.partial and tokens[i - 1].partial
        parts.append(text[max(token.start, covered) : token.end])
        covered = max(covered, token.end)
        assert "\ufffd" not in token.display()
    assert "".join(parts) == text and covered == len(text)
