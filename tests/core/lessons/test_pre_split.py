"""Pre-tokenization made visible: the named split cuts what each regex's own findall cuts, and the
alternative it names really is the first one that matches there; BERT's split is HF's."""

from __future__ import annotations

import pytest
import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tokenizers import pre_tokenizers

from tests.shared import tiktoken_encoding
from tokenizer_core.lessons.pre_split import (
    ALTERNATIVE_NAMES,
    PRE_SPLITTERS,
    QUIRKS,
    alternatives,
    compare_quirks,
    describe,
    split_named,
)
from tokenizer_core.reference.open_models import TEKKEN_FILE, read_checked

REGEX_SPLITTERS = [s for s in PRE_SPLITTERS.values() if not s.drops_whitespace and not s.metaspace]
# Letters, digits, marks, spaces of every kind, line breaks, apostrophes, CJK and emoji.
TEXTS = st.text(
    st.one_of(st.characters(codec="utf-8"), st.sampled_from(list("'’ \t\n\r0123456789aZ你😀\u0301"))),
    max_size=60,
)


def test_alternatives_cut_only_at_top_level() -> None:
    assert alternatives(r"a|(b|c)|[|]|\||x") == ["a", "(b|c)", "[|]", r"\|", "x"]
    assert alternatives(r"[]|]|[^]|]") == ["[]|]", "[^]|]"]
    assert alternatives(r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++") == [r"'(?:[sdmt]|ll|ve|re)", r" ?\p{L}++"]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_patterns_are_tiktokens_and_every_alternative_has_a_name(name: str) -> None:
    pat_str = PRE_SPLITTERS[name].pat_str
    assert pat_str == tiktoken_encoding(name)._pat_str
    assert "".join(f"{a}|" for a in alternatives(pat_str))[:-1] == pat_str
    assert all(a in ALTERNATIVE_NAMES for a in alternatives(pat_str))


def test_every_known_splitter_and_mistral_nemo_is_named() -> None:
    import json

    nemo = json.loads(read_checked(TEKKEN_FILE, "test"))["config"]["pattern"]
    for pat_str in [*(s.pat_str for s in PRE_SPLITTERS.values()), nemo]:
        assert [describe(a)[0] for a in alternatives(pat_str)].count("other") == 0, pat_str


def _first_matching(pat_str: str, text: str, pos: int) -> tuple[int, int]:
    """The slow way: try each alternative alone at pos, in order; (its index, where it ends)."""
    for k, alternative in enumerate(alternatives(pat_str)):
        found = regex.compile(alternative).match(text, pos)
        if found is not None:
            return k, found.end()
    raise AssertionError(f"no alternative matches at {pos}")


@settings(max_examples=150, deadline=None)
@given(TEXTS)
@example("I'm here, DON'T   indented\n\n  code 1234567 你好世界 don't!!\n")
def test_named_split_is_findall_and_names_the_first_alternative_that_matches(text: str) -> None:
    for splitter in REGEX_SPLITTERS:
        chunks = split_named(text, splitter.pat_str)
        assert [c.text for c in chunks] == regex.findall(splitter.pat_str, text)
        assert "".join(c.text for c in chunks) == text
        for chunk in chunks:
            assert text[chunk.start : chunk.end] == chunk.text
            assert _first_matching(splitter.pat_str, text, chunk.start) == (chunk.alternative,
                                                                             chunk.end)


@settings(max_examples=100, deadline=None)
@given(TEXTS)
@example("Hello, world! (a+b)=c $5 ½ don't")
def test_bert_split_is_hfs_bert_pre_tokenizer(text: str) -> None:
    ours = [(c.text, (c.start, c.end)) for c in split_named(text, PRE_SPLITTERS["bert"].pat_str)]
    assert ours == pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)


def test_quirks_across_regexes() -> None:
    """The lesson's examples, as tiktoken's own regexes cut them."""
    table = compare_quirks(list(PRE_SPLITTERS.values()), QUIRKS)
    assert table["I'm"]["gpt2"] == ["I", "'m", " here"]
    assert table["DON'T"]["gpt2"] == ["DON", "'", "T", " STOP"]  # GPT-2's contractions: lowercase
    assert table["DON'T"]["cl100k_base"] == ["DON", "'T", " STOP"]
    assert table["DON'T"]["o200k_base"] == ["DON'T", " STOP"]  # o200k keeps it on the word
    assert table["1234567"]["gpt2"] == ["cost", " 1234567"]
    assert table["1234567"]["cl100k_base"] == ["cost", " ", "123", "456", "7"]
    assert table["1234567"]["qwen2.5"] == ["cost", " ", *"1234567"]
    assert table["indented code"]["gpt2"] == ["  ", " indented", " code"]
    assert table["你好世界"]["gpt2"] == ["你好世界"]
    assert table["don't"]["bert"] == ["don", "'", "t", "stop"]
    assert table["indented code"]["sentencepiece"] == ["▁▁▁▁indented▁code"]


@pytest.mark.parametrize("name", sorted(PRE_SPLITTERS))
def test_alternatives_have_distinct_short_names(name: str) -> None:
    """The page counts chunks per alternative by short name: two alike read as one counted
    twice ("whitespace 1 · whitespace 1", #23 item 9)."""
    names = [describe(a)[0] for a in alternatives(PRE_SPLITTERS[name].pat_str)]
    assert len(names) == len(set(names)), names
