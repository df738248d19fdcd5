"""Disagreement marks against a slow, obviously right oracle over boundary sets (issue 23, item 3).

The oracle says it the way a teacher would: a token agrees with the other tokenizer when the
other's boundaries that fall anywhere from the token's start to its end are exactly the token's
own two ends. Anything else (an end the other does not cut at, or a cut of the other inside the
token) is a disagreement, on both sides.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shared import tiktoken
from tokenizer_core.measure.boundaries import byte_spans, disagreements, unshared
from tokenizer_core.samples import sample_text


def oracle(spans: list[tuple[int, int]], other: list[tuple[int, int]]) -> set[int]:
    theirs = {offset for span in other for offset in span}
    return {i for i, (start, end) in enumerate(spans)
            if {b for b in theirs if start <= b <= end} != {start, end}}


@st.composite
def tilings(draw, length: int) -> list[tuple[int, int]]:
    """Spans over [0, length): contiguous cuts, some spans dropped (gaps, as word-level
    tokenizers leave between words)."""
    cuts = sorted(draw(st.sets(st.integers(1, length - 1), max_size=length - 1)))
    edges = [0, *cuts, length]
    spans = list(zip(edges, edges[1:]))
    keep = draw(st.lists(st.booleans(), min_size=len(spans), max_size=len(spans)))
    return [s for s, k in zip(spans, keep) if k] or spans


@given(st.integers(2, 40).flatmap(lambda n: st.tuples(tilings(n), tilings(n))))
def test_unshared_equals_the_oracle_on_random_tilings(pair):
    a, b = pair
    assert unshared(a, b) == oracle(a, b)
    assert unshared(b, a) == oracle(b, a)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab 你好世界,。🙂\n1234"), max_size=40))
def test_real_tokenizers_are_marked_like_the_oracle(text):
    a = tiktoken("gpt2").encode(text)
    b = tiktoken("o200k_base").encode(text)
    spans_a, spans_b = byte_spans(text, a), byte_spans(text, b)
    assert disagreements(text, a, b) == oracle(spans_a, spans_b)
    assert disagreements(text, b, a) == oracle(spans_b, spans_a)


def test_equal_tokenizations_mark_nothing():
    text = sample_text("chinese")
    tokens = tiktoken("o200k_base").encode(text)
    assert disagreements(text, tokens, tokens) == frozenset()


def test_o200k_is_marked_where_gpt2_cuts_inside_its_tokens():
    """The issue's case: o200k's long Chinese tokens start and end on GPT-2 cuts, but GPT-2 cuts
    inside them. The o200k panel must show that, not look as if o200k agreed."""
    text = sample_text("chinese")
    gpt2, o200k = tiktoken("gpt2").encode(text), tiktoken("o200k_base").encode(text)
    marked = disagreements(text, o200k, gpt2)
    expected = oracle(byte_spans(text, o200k), byte_spans(text, gpt2))
    assert marked == expected
    assert len(marked) > len(o200k) // 2  # far more than the handful that ends-only checks give
