"""Designing a vocabulary: learned merges read back, pruning keeps what spells the kept tokens and
never leaves a text unencodable, domain words join into one token, and both export to an HF
tokenizer.json that gives our ids and offsets."""

from __future__ import annotations

import functools
from collections import Counter

import pytest
import tokenizers
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tokenizer_core.measure.vocabulary_design import (
    cost,
    domain_words,
    extend,
    learned_merges,
    model_json,
    prune,
)
from tokenizer_core.measure.vocabulary_export import hf_tokenizer_json
from tokenizer_core.measure.vocabulary_usage import token_counts
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.registry import load_tokenizer
from tokenizer_core.samples import corpus_text, sample_text
from tokenizer_core.trainers.bpe import train_bpe
from tokenizer_core.trainers.corpus import corpus_from_text

CORPUS = "\n".join(sample_text(n) for n in ("english", "code", "chinese"))
TEXT = st.text(st.characters(codec="utf-8"), max_size=80)


@functools.cache
def trained():
    training = train_bpe(corpus_from_text(CORPUS, "byte"), 500, special_tokens=("<|endoftext|>",))
    return training, bpe_model(training, "small")


def test_learned_merges_are_the_trainings_merges():
    training, model = trained()
    assert learned_merges(model) == list(training.merges)


def test_tiktoken_ranks_are_refused():
    with pytest.raises(ValueError, match="tiktoken ranks"):
        learned_merges(load_tokenizer("core:gpt2"))


@pytest.mark.parametrize("min_count", [1, 5, 50])
def test_prune_keeps_every_token_used_enough_and_what_builds_it(min_count):
    _, model = trained()
    counts = token_counts(model, CORPUS)
    pruned = prune(model, counts, min_count)
    kept = set(pruned.model.encoder)
    used = {model.decoder[i] for i, c in counts.items() if c >= min_count}
    assert used <= kept
    for a, b in pruned.merges:  # every merge's parts are single bytes or kept tokens
        assert {a, b} <= kept
    assert pruned.model.vocab_size == 1 + 256 + len(pruned.merges)
    # On its own training text every token is used or builds one; higher bounds drop some.
    assert (pruned.model.vocab_size < model.vocab_size) == (min_count > 1)
    assert list(pruned.merges) == [m for m in learned_merges(model) if m in set(pruned.merges)]


def test_prune_above_every_count_leaves_the_bytes():
    _, model = trained()
    assert prune(model, Counter(), 1).model.vocab_size == 1 + 256


@settings(max_examples=150, deadline=None)
@given(TEXT, st.integers(1, 40))
@example("the 你好 👍🏽 def", 3)
def test_pruning_never_makes_a_text_unencodable(text, min_count):
    _, model = trained()
    pruned = prune(model, token_counts(model, CORPUS), min_count).model
    ids = pruned.encode_ordinary_ids(text)
    assert all(0 <= i < pruned.vocab_size for i in ids)
    assert pruned.decode(ids) == text


def test_domain_words_are_frequent_and_split_into_three_or_more():
    _, model = trained()
    code = corpus_text("code")
    words = domain_words(model, code, 20)
    assert len(words) == 20
    for word in words:
        assert len(model.encode_ordinary_ids(word)) >= 3
    chunk_counts = Counter(c for c in __import__("regex").findall(model.pat_str, code))
    assert [chunk_counts[w] for w in words] == sorted((chunk_counts[w] for w in words),
                                                      reverse=True)


def test_extend_joins_each_word_and_saves_tokens_on_domain_text():
    _, model = trained()
    code = corpus_text("code")
    held_in, held_out = code[: len(code) * 4 // 5], code[len(code) * 4 // 5 :]
    words = domain_words(model, held_in, 30)
    designed = extend(model, words)
    assert set(designed.joined) == {w.encode() for w in words}
    for word in words:
        assert len(designed.model.encode_ordinary_ids(word)) == 1
    assert designed.model.vocab_size == model.vocab_size + len(designed.added)
    assert cost(model, designed.model, held_out).saved > 0
    assert designed.model.decode(designed.model.encode_ordinary_ids(held_out)) == held_out


def _hf(designed):
    return tokenizers.Tokenizer.from_str(
        __import__("json").dumps(hf_tokenizer_json(model_json(designed.model, designed.merges))))


def _same(ours, hf, text):
    tokens = ours.encode(text, disallowed_special=())
    encoded = hf.encode(text, add_special_tokens=False)
    assert encoded.ids == [t.id for t in tokens]
    assert encoded.offsets == [(t.start, t.end) for t in tokens]


@pytest.fixture(scope="module")
def designs():
    _, model = trained()
    pruned = prune(model, token_counts(model, CORPUS), 5)
    extended = extend(model, domain_words(model, corpus_text("code"), 40))
    return [(d.model, _hf(d)) for d in (pruned, extended)]


def test_designed_vocabularies_export_to_hf_with_our_ids_on_the_samples(designs):
    for ours, hf in designs:
        assert hf.get_vocab_size(with_added_tokens=True) == ours.vocab_size
        for name in ("english", "chinese", "code", "emoji", "mixed_default"):
            _same(ours, hf, sample_text(name))


def test_designed_vocabularies_export_to_hf_with_our_ids_on_random_unicode(designs):
    @settings(max_examples=150, deadline=None)
    @given(TEXT)
    def check(text):
        for ours, hf in designs:
            _same(ours, hf, text.replace("<|endoftext|>", ""))

    check()
