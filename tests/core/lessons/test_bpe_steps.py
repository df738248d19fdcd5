"""The lesson: every step told, checked against the textbook loop and the trainer's own trace."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text, textbook_train, train_bpe
from tokenizer_core.lessons.bpe_steps import (
    build_lesson,
    count_in,
    first_occurrences,
    joined_positions,
)
from tokenizer_core.samples import load_preset, presets, sample_text

from ..classroom import HUG_PUG, LOW_NEWEST, TEN_SENTENCES


def lesson_for(corpus, merges, tie_break="first", history=True):
    return build_lesson(train_bpe(corpus, merges, tie_break, top_k=8, record_history=history))


def all_corpora():
    for preset in presets():
        raw = load_preset(preset.id)
        for level in ("word", "sentence", "byte"):
            build = corpus_from_counts if isinstance(raw, dict) else corpus_from_text
            yield f"{preset.id}-{level}", build(raw, level), preset.merges
    for name in ("english", "chinese", "emoji"):
        yield f"{name}-byte", corpus_from_text(sample_text(name), "byte"), 40


CORPORA = list(all_corpora())


def test_step_one_of_low_newest_is_the_textbook_sentence():
    lesson = lesson_for(corpus_from_counts(LOW_NEWEST), 10)
    first = lesson.steps[0]
    assert first.step.pair == ("e", "s") and first.step.count == 9
    assert first.narration == "('e','s') appears in newest (6) and widest (3): 9 times"
    assert first.step.ties == 3 and first.tied == (("s", "t"), ("t", "</w>"))
    assert "('e','s') wins: in newest it comes before ('s','t')" in first.why
    assert [(o.entry, o.pairs, o.count) for o in first.where] == [(2, 1, 6), (3, 1, 3)]
    assert lesson.tokens_before == 95 and first.tokens_after == 86


def test_step_two_of_the_ten_sentences_is_a_tie_either_way():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    first = lesson_for(corpus, 10, "first").steps[1]
    assert first.step.pair == ("t", "h") and first.step.count == 10 and first.step.ties == 2
    assert first.tied == (("h", "e "),)
    assert first.first_met == (0, 0)  # 'the cat sat on the mat', at its very start
    lexical = lesson_for(corpus, 10, "lexical").steps[1]
    assert lexical.step.pair == ("h", "e ") and lexical.tied == (("t", "h"),)
    assert "alphabetically smallest" in lexical.why


def test_hug_pug_explains_a_five_way_tie():
    step = lesson_for(corpus_from_counts(HUG_PUG), 4).steps[0]
    assert step.step.ties == 5
    assert step.why.startswith("Tie: 5 pairs have 2 (also ('g','</w>'), ('p','u'), ('u','n') and 1 more).")


@pytest.mark.parametrize("name, corpus, merges", CORPORA, ids=[c[0] for c in CORPORA])
@pytest.mark.parametrize("tie_break", ["first", "lexical"])
def test_every_step_agrees_with_the_textbook_and_the_trace(name, corpus, merges, tie_break):
    lesson = lesson_for(corpus, merges, tie_break)
    training = lesson.training
    merges_oracle, counts_oracle = textbook_train(corpus, merges, tie_break)
    assert [s.step.pair for s in lesson.steps] == merges_oracle
    for k, told in enumerate(lesson.steps, start=1):
        before = training.segmentation_at(k - 1)
        after = training.segmentation_at(k)
        # where: exactly the entries holding the pair, with the textbook's own pair count
        holding = [e for e, seq in enumerate(before) if count_in(seq, told.step.pair)]
        assert [o.entry for o in told.where] == holding
        assert sum(o.total for o in told.where) == told.step.count == counts_oracle[k - 1]
        # joined: the rewritten entries, and the new token at each marked position
        for e, parts, positions in told.joined:
            assert parts == after[e]
            assert positions and all(parts[i] == told.step.new_token for i in positions)
        assert told.tokens_after == sum(len(s) * c for s, c in zip(after, corpus.counts))
        if told.step.ties and told.step.ties > 1 and tie_break == "first" and told.tied:
            met = first_occurrences(before, [told.step.pair, *told.tied])
            assert all(met[told.step.pair] < met[other] for other in told.tied)
            assert told.first_met == met[told.step.pair]


def test_without_history_the_story_is_the_same():
    corpus = corpus_from_text(TEN_SENTENCES, "sentence")
    fast = lesson_for(corpus, 12, history=True)
    slow = lesson_for(corpus, 12, history=False)
    assert [(s.narration, s.why, s.tokens_after, s.joined) for s in fast.steps] == [
        (s.narration, s.why, s.tokens_after, s.joined) for s in slow.steps
    ]


def test_joined_positions_follow_the_textbook_merge():
    assert joined_positions(("a", "a", "a"), ("a", "a")) == (0,)  # left to right, no overlap
    assert joined_positions(("a", "b", "c", "a", "b"), ("a", "b")) == (0, 2)
    assert count_in(("a", "a", "a"), ("a", "a")) == 2  # but counted like count_pairs does


words = st.text(alphabet="abcde", min_size=1, max_size=7)


@given(st.dictionaries(words, st.integers(1, 6), min_size=1, max_size=8), st.integers(0, 15),
       st.sampled_from(["first", "lexical"]))
def test_any_small_corpus_tells_a_consistent_story(table, merges, tie_break):
    corpus = corpus_from_counts(table)
    lesson = lesson_for(corpus, merges, tie_break)
    assert [s.step.pair for s in lesson.steps] == textbook_train(corpus, merges, tie_break)[0]
    for told in lesson.steps:
        assert sum(o.total for o in told.where) == told.step.count
        assert told.narration.endswith(f": {told.step.count:,} times") or told.narration.endswith(": once")
        assert told.why
