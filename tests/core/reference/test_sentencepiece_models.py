"""SentencePiece, the real library, trained in-process: exact round trip on the built-in samples
(English, Chinese, code, emoji) for unigram and bpe, Token offsets, ▁ shown, no files left."""

from __future__ import annotations

import os

import pytest

from tokenizer_core.interface import Tokenizer
from tokenizer_core.reference.sentencepiece_models import train_sentencepiece
from tokenizer_core.samples import sample_text

SAMPLES = {name: sample_text(name) for name in ("english", "chinese", "code", "emoji")}
CORPUS = "\n".join(SAMPLES.values())


@pytest.fixture(scope="module", params=["unigram", "bpe"])
def model(request):
    return train_sentencepiece(CORPUS, 1500, request.param)


def test_is_a_tokenizer_of_its_type(model):
    assert isinstance(model, Tokenizer)
    assert model.model_type == model.name.split("-")[1]
    assert model.id_to_token(0) == "<pad>" and model.id_to_token(1) == "<unk>"
    assert model.id_to_token(2) == "<s>" and model.id_to_token(3) == "</s>"


@pytest.mark.parametrize("name", list(SAMPLES))
def test_round_trip_and_offsets_on_the_samples(model, name):
    text = SAMPLES[name]
    tokens = model.encode(text)
    assert model.decode([t.id for t in tokens]) == text
    assert b"".join(t.bytes for t in tokens) == text.encode("utf-8")
    for t in tokens:
        if not t.partial:
            assert text[t.start : t.end].encode("utf-8") == t.bytes


def test_space_is_shown_as_the_lessons_mark(model):
    tokens = model.encode("the cat sat")
    assert [t.piece[0] for t in tokens if t.bytes.startswith(b" ")] == ["▁", "▁"]
    assert model.processor.encode("the cat sat") == [t.id for t in tokens]


def test_unseen_characters_fall_back_to_bytes(model):
    tokens = model.encode("ᚠ")  # a rune no sample has
    assert b"".join(t.bytes for t in tokens) == "ᚠ".encode()
    assert model.decode([t.id for t in tokens]) == "ᚠ"


def test_no_files_left_behind(tmp_path):
    before = set(os.listdir("."))
    train_sentencepiece(SAMPLES["english"], 400, "unigram")
    assert set(os.listdir(".")) == before


def test_errors():
    with pytest.raises(ValueError, match="model_type"):
        train_sentencepiece("abc", 100, "wordpiece")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        train_sentencepiece("\n\n", 100)
    with pytest.raises(ValueError, match="sentencepiece could not train"):
        train_sentencepiece(SAMPLES["chinese"], 50)
