"""The Compression page's numbers in the on-disk store: what comes back from disk equals what was
made, each is made once per store (a second read trains nothing), and `warm` fills the store with
everything the page's default view reads."""

from __future__ import annotations

import pytest

import tokenizer_core.measure.compression as compression
import tokenizer_core.measure.quality as quality
from tests.shared import count_trainings
from tokenizer_core import store
from tokenizer_core.measure import stored
from tokenizer_core.measure.compression import BYTE_VOCAB
from tokenizer_core.samples import corpus_text, sample_text

TEXT = sample_text("english")  # a few KB: every HF family trains on it in well under a second


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "store"))
    return tmp_path / "store"


@pytest.fixture
def trainings(monkeypatch) -> dict[str, int]:
    """How often our trainer (the whole curve) and HF's trainers ran."""
    return count_trainings(monkeypatch)


def test_a_curve_read_back_from_json_is_the_same_curve():
    made = compression.compression_curve(stored.split(TEXT, 20), 300)
    assert stored.curve_from_json(stored.curve_to_json(made)) == made


def test_the_curve_is_trained_once_then_read(folder, trainings):
    first = stored.curve(TEXT, 20, 300)
    assert trainings["ours"] == 1 and len(list(folder.glob("*.json"))) == 1
    again = stored.curve(TEXT, 20, 300)
    assert again == first and trainings["ours"] == 1
    stored.curve(TEXT, 25, 300)  # another split is another entry
    assert trainings["ours"] == 2
    # and equals a run made without the store
    assert again == compression.compression_curve(stored.split(TEXT, 20), 300)


def test_an_hf_model_is_trained_once_per_size_then_read(folder, trainings):
    first = stored.hf_point("unigram", TEXT, 20, 500)
    assert first is not None and trainings["hf"] == 1
    again = stored.hf_point("unigram", TEXT, 20, 500)
    assert again == first and trainings["hf"] == 1
    # the model read back encodes as the one trained
    held_out = stored.split(TEXT, 20).held_out
    ids = [t.id for t in again.tokenizer().encode(held_out)]
    assert len(ids) == first.held_out.tokens
    assert stored.hf_stored("unigram", TEXT, 20, (500,))
    assert not stored.hf_stored("unigram", TEXT, 20, (500, 1_000))  # 1,000 not made yet


def test_a_size_hf_refuses_is_kept_as_refused(folder, trainings, monkeypatch):
    def refuse(*args, **kwargs):
        trainings["hf"] += 1
        raise ValueError("vocab size too small")

    monkeypatch.setattr(quality, "train_family", refuse)
    assert stored.hf_point("wordpiece", TEXT, 20, 500) is None
    assert stored.hf_point("wordpiece", TEXT, 20, 500) is None
    assert trainings["hf"] == 1


def test_reference_points_are_each_libraries_counts_kept(folder):
    """tiktoken's three and the open models, each counted by its own library (tests.shared)."""
    from tests.shared import own_library_counter

    points = stored.reference_points(TEXT, 20)
    held_out = stored.split(TEXT, 20).held_out
    assert [name for name, *_ in points] == ["gpt2", "cl100k_base", "o200k_base", "llama3",
                                               "qwen2.5", "mistral-nemo", "mistral-7b", "deepseek-v4",
                                               "bert-base-uncased"]
    vocab = {"gpt2": 50_257, "cl100k_base": 100_277, "o200k_base": 200_019, "llama3": 128_256,
             "qwen2.5": 151_665, "mistral-nemo": 131_072, "mistral-7b": 32_000, "deepseek-v4": 129_280,
             "bert-base-uncased": 30_522}
    for name, size, stats, hidden in points:
        assert (size, stats.tokens) == (vocab[name], own_library_counter(name)(held_out)), name
        assert hidden == 0.0, name  # English: even BERT spells every word
    assert stored.reference_points(TEXT, 20) == points


def test_a_reference_that_hides_text_in_unk_says_how_much(folder):
    """BERT's [UNK] swallows 你 and 🙂 whole; the share is of the held-out characters, counted
    here from HF's own offsets for BERT's unknown id."""
    from tokenizer_core.reference.bert_uncased import bert_uncased_pipeline, recover_vocabulary
    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    text = "\n".join(["plain english words here"] * 8 + ["你好 🙂 and more words", "ok"])
    held_out = stored.split(text, 20).held_out
    hf = bert_uncased_pipeline(recover_vocabulary(packaged_path(OPEN_MODELS["bert-base-uncased"].file)))
    encoding = hf.encode(held_out, add_special_tokens=False)
    hidden_chars = sum(e - s for i, (s, e) in zip(encoding.ids, encoding.offsets) if i == 100)
    points = {name: hidden for name, _, _, hidden in stored.reference_points(text, 20)}
    assert hidden_chars > 0
    assert points["bert-base-uncased"] == pytest.approx(hidden_chars / len(held_out))
    assert points["gpt2"] == points["llama3"] == 0.0


def test_a_quality_row_is_measured_once(folder):
    ours = stored.curve(TEXT, 20, 300)
    made = []

    def make():
        made.append(1)
        return ours.tokenizer(244)

    first = stored.quality_row(TEXT, 20, "ours:500", make)
    assert stored.quality_row(TEXT, 20, "ours:500", make) == first
    assert len(made) == 1 and first.vocab_size == 500


def test_warm_fills_what_the_default_view_reads_and_a_second_warm_trains_nothing(
    folder, trainings, monkeypatch
):
    loaded: list[str] = []
    load = stored.reference_tokenizer
    monkeypatch.setattr(stored, "reference_tokenizer", lambda name: loaded.append(name) or load(name))
    text = corpus_text("emoji")
    stored.warm_corpus(text)
    # each real tokenizer loaded once, for its point and its quality row both
    assert sorted(loaded) == sorted(stored.REFERENCE_TOKENIZERS)
    pct, families, sizes = stored.WARM_HELD_OUT_PCT, stored.WARM_HF_FAMILIES, stored.WARM_HF_SIZES
    made = {"ours": len(stored.WARM_VOCABS), "hf": len(families) * len(sizes)}
    assert trainings == made
    recipes = [
        *(stored.curve_recipe(text, pct, vocab - BYTE_VOCAB) for vocab in stored.WARM_VOCABS),
        stored.references_recipe(text, pct),
        *(stored.hf_recipe(f, text, pct, s) for f in families for s in sizes),
        *(stored.quality_recipe(text, pct, f"hf:{f}:{stored.WARM_COMPARE}") for f in families),
        *(stored.quality_recipe(text, pct, f"ref:{n}") for n in stored.REFERENCE_TOKENIZERS),
    ]
    assert all(store.contains(r) for r in recipes)
    stamps = sorted((p.name, p.stat().st_mtime_ns) for p in folder.glob("*.json"))
    stored.warm_corpus(text)
    assert trainings == made  # read, not trained
    assert sorted((p.name, p.stat().st_mtime_ns) for p in folder.glob("*.json")) == stamps


def test_contains_is_false_with_the_store_off(monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, store.OFF)
    assert not store.contains("anything")
