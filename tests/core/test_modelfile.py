"""Model files: what train writes, encode reads back, and malformed files are refused clearly."""

from __future__ import annotations

import json

import pytest

from tokenizer_core import corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.modelfile import bpe_from_json, bpe_model, training_to_json

from .classroom import LOW_NEWEST, TEN_SENTENCES


@pytest.mark.parametrize(
    "corpus",
    [corpus_from_counts(LOW_NEWEST), corpus_from_text(TEN_SENTENCES, "sentence"),
     corpus_from_text(TEN_SENTENCES + "\n你好 🙂", "byte")],
    ids=["word", "sentence", "byte"],
)
def test_model_file_round_trips_through_json(corpus):
    training = train_bpe(corpus, 25, special_tokens=("<|endoftext|>",))
    data = json.loads(json.dumps(training_to_json(training)))
    assert {"algorithm", "level", "merges", "counts", "vocab_size"} <= set(data)
    loaded = bpe_from_json(data)
    original = bpe_model(training)
    text = "the cat sat on the mat" if corpus.level != "word" else "lowest newer"
    assert [t.id for t in loaded.encode(text)] == [t.id for t in original.encode(text)]
    assert loaded.vocab_size == data["vocab_size"] == training.vocab_size


def test_byte_level_merges_are_written_as_hex():
    training = train_bpe(corpus_from_text("lo lo lo", "byte"), 1)
    assert training_to_json(training)["merges"][0] == ["6c", "6f"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("merges"), "no 'merges'"),
        (lambda d: d.update(algorithm="unigram"), "algorithm is 'unigram'"),
        (lambda d: d.update(level="char"), "unknown level 'char'"),
        (lambda d: d.update(merges=[["a"]]), "merge 0 should be a pair"),
        (lambda d: d.update(vocab_size=3), "says vocab_size 3"),
        (lambda d: d.update(merges=[["zz", "q"]]), "not in training order"),
        (lambda d: d.update(alphabet="abc"), "'alphabet' should be list"),
    ],
)
def test_malformed_model_files_say_what_is_wrong(change, message):
    data = training_to_json(train_bpe(corpus_from_counts(LOW_NEWEST), 5))
    change(data)
    with pytest.raises(ValueError, match=message):
        bpe_from_json(data)


def test_bad_hex_in_a_byte_level_file():
    data = training_to_json(train_bpe(corpus_from_text("lo lo", "byte"), 1))
    data["merges"] = [["6g", "6f"]]
    with pytest.raises(ValueError, match="not hex bytes"):
        bpe_from_json(data)
