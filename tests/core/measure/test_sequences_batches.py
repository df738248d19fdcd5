"""Batching by length: the waste equals the pads HF-equivalent padding adds; buckets partition the lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.measure.sequences import NO_SPECIALS, Settings, prepare_batch
from tokenizer_core.measure.sequences_batches import (
    bucketed_batches,
    causal_mask,
    full_mask,
    naive_batches,
)

lengths_st = st.lists(st.integers(0, 60), min_size=0, max_size=60)


def padded_count(lengths, plan):
    """The plain way: pad each batch to its longest (prepare_batch, checked against HF) and count."""
    pads = total = 0
    for batch in plan.batches:
        rows = prepare_batch([([1] * lengths[i], None) for i in batch],
                             Settings(NO_SPECIALS, padding="longest"), {})
        pads += sum(r.padding for r in rows)
        total += sum(len(r) for r in rows)
    return pads, total


@settings(max_examples=200, deadline=None)
@given(lengths=lengths_st, batch_size=st.integers(1, 9), width=st.integers(1, 20),
       max_tokens=st.one_of(st.none(), st.integers(1, 200)))
def test_plans_partition_the_lines_and_count_padding_like_padding_does(lengths, batch_size, width, max_tokens):
    for plan in (naive_batches(lengths, batch_size), bucketed_batches(lengths, batch_size, width, max_tokens)):
        assert sorted(i for b in plan.batches for i in b) == list(range(len(lengths)))
        assert all(1 <= len(b) <= batch_size for b in plan.batches)
        assert (plan.padding, plan.computed) == padded_count(lengths, plan)
    bucketed = bucketed_batches(lengths, batch_size, width, max_tokens)
    for b in bucketed.batches:
        longest = max(lengths[i] for i in b)
        assert len({lengths[i] // width for i in b}) == 1
        assert max_tokens is None or len(b) == 1 or len(b) * longest <= max_tokens


def test_sorting_wastes_less_on_mixed_lengths():
    lengths = [3, 200, 5, 180, 4, 190, 6, 210]
    naive = naive_batches(lengths, 2)
    assert naive.padding == (200 - 3) + (180 - 5) + (190 - 4) + (210 - 6)
    bucketed = bucketed_batches(lengths, 2, bucket_width=1000)
    assert bucketed.batches == ((0, 4), (2, 6), (3, 5), (1, 7))
    assert bucketed.padding == 1 + 1 + 10 + 10
    assert bucketed.waste < naive.waste


def test_bad_batch_settings_are_refused():
    with pytest.raises(ValueError, match="batch size"):
        naive_batches([1], 0)
    with pytest.raises(ValueError, match="bucket width"):
        bucketed_batches([1], 2, 0)


def test_masks_full_and_causal_ignore_padding():
    attention = [1, 1, 1, 0]
    assert full_mask(attention) == [[1, 1, 1, 0]] * 3 + [[0, 0, 0, 0]]
    assert causal_mask(attention) == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0]]


@settings(max_examples=200, deadline=None)
@given(lengths=lengths_st, sizes=st.lists(st.integers(1, 9), min_size=1, max_size=4),
       widths=st.lists(st.integers(1, 20), min_size=1, max_size=4),
       max_tokens=st.one_of(st.none(), st.integers(1, 200)))
def test_padding_grid_equals_one_plan_per_cell(lengths, sizes, widths, max_tokens):
    # the fast grid (one sort for all cells) against the plain planner, cell by cell
    from tokenizer_core.measure.sequences_batches import padding_grid

    grid = padding_grid(lengths, sizes, widths, max_tokens)
    assert set(grid) == {(s, w) for s in sizes for w in widths}
    for (s, w), pads in grid.items():
        assert pads == bucketed_batches(lengths, s, w, max_tokens).padding


@settings(max_examples=200, deadline=None)
@given(lengths=lengths_st, batch_size=st.integers(1, 9))
def test_naive_padding_equals_the_naive_plan(lengths, batch_size):
    from tokenizer_core.measure.sequences_batches import naive_padding

    assert naive_padding(lengths, batch_size) == naive_batches(lengths, batch_size).padding
