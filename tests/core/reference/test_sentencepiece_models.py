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


# --- the app's two, trained once and kept in the on-disk store (registry.py) ---------------------


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_registry_sentencepiece_is_the_library_with_the_lesson_parameters_and_stored(
        kind, tmp_path, monkeypatch):
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as model_pb2

    from tokenizer_core import store
    from tokenizer_core.registry import SENTENCEPIECE_PIECES, trained_tokenizer
    from tokenizer_core.samples import english_reference_corpus

    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "store"))
    made = trained_tokenizer(f"sp:{kind}", "label")
    assert made.name == "label" and made.vocab_size == SENTENCEPIECE_PIECES
    proto = model_pb2.ModelProto()
    proto.ParseFromString(made.model_proto)
    spec = proto.trainer_spec
    assert model_pb2.TrainerSpec.ModelType.Name(spec.model_type).lower() == kind
    assert (spec.pad_id, spec.unk_id, spec.bos_id, spec.eos_id) == (0, 1, 2, 3)
    assert spec.character_coverage == pytest.approx(0.9995)
    assert [made.id_to_token(i) for i in range(4)] == ["<pad>", "<unk>", "<s>", "</s>"]
    # the stored model reads back byte for byte, and encodes as the library does
    assert len(list((tmp_path / "store").glob("*.json"))) == 1
    again = trained_tokenizer(f"sp:{kind}")
    assert again.model_proto == made.model_proto
    assert len(list((tmp_path / "store").glob("*.json"))) == 1
    own = spm.SentencePieceProcessor(model_proto=made.model_proto)
    text = english_reference_corpus()[:3_000]
    assert [t.id for t in again.encode(text)] == own.encode(text)
    assert again.decode(own.encode(text)) == text
