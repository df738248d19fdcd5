"""literal(): user text shown through Streamlit's Markdown keeps its characters and loses its powers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.common.safe_text import WORD_JOINER, literal

from .conftest import shown

unescape = shown  # what a CommonMark reader shows for backslash escapes (joiners removed)


# Text without U+2060 itself, so the joiners literal() adds can be told apart in the check.
_texts = st.text(alphabet=st.characters(blacklist_characters=WORD_JOINER), max_size=80)


@given(_texts)
def test_the_characters_survive(text):
    assert unescape(literal(text)) == text


@given(_texts)
def test_no_markdown_construct_survives(text):
    shown = literal(text)
    assert not re.search(r"(?<!\\)[\[\]()*_`<>!#|~]", shown)  # every such character escaped
    assert "://" not in shown and not re.search(r"www\.", shown, re.I)
    assert not re.search(r"[^\u2060]@", shown)


@pytest.mark.parametrize(
    "hostile",
    ["![x](http://198.51.100.7/x.png)", "[click](javascript:alert(1))", "**bold** _it_",
     "<img src=x onerror=alert(1)>", "www.example.com", "me@example.com", ":red[alarm]",
     "![x](http://e/x.png)", "a*b_c <b> `d` $e$ :smile:"],
)
def test_hostile_examples(hostile):
    shown = literal(hostile)
    assert unescape(shown) == hostile
    assert "](" not in shown.replace("\\]\\(", "")
