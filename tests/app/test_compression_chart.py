"""The Compression chart names every series: each tokenizer family has a marker shape no other
family uses (colour names the corpus, so the shape is what tells GPT-2 from HF Unigram), and
every series, the reference points of every corpus included, has its own legend entry."""

from __future__ import annotations

import pandas as pd

from ui.compression.charts import curve_figure
from ui.compression.frames import CURVE_COLUMNS, FAMILY_LABELS, FAMILY_NAMES

CORPORA = {"english": "English", "chinese": "Chinese", "code": "Code"}
REFERENCES = {"gpt2": 50_257, "cl100k_base": 100_277, "o200k_base": 200_019, "llama3": 128_256,
              "qwen2.5": 151_665, "mistral-nemo": 131_072, "mistral-7b": 32_000,
              "deepseek-v4": 129_280, "bert-base-uncased": 30_522}


def test_the_chart_knows_every_reference_tokenizer_the_store_measures():
    from tokenizer_core.measure.stored import REFERENCE_TOKENIZERS

    assert list(REFERENCES) == list(REFERENCE_TOKENIZERS)


def _row(key: str, family: str, kind: str, vocab: int, value: float) -> dict:
    return dict.fromkeys(CURVE_COLUMNS) | {
        "corpus": CORPORA[key], "corpus_key": key, "family": family, "kind": kind,
        "vocab_size": vocab, "tokens": 100, "chars_per_token": value, "bytes_per_token": value,
        "hidden_in_unk": 0.0,
    }  # fmt: skip


def every_series_frame() -> pd.DataFrame:
    """Three corpora, each with our line, the four HF lines and the three references."""
    rows = []
    for i, key in enumerate(CORPORA):
        for vocab in (256, 500, 1_000, 2_000):
            rows.append(_row(key, "ours", "held-out", vocab, 1 + i + vocab / 1_000))
        for family in FAMILY_NAMES:
            rows += [_row(key, family, "held-out", v, 1 + i + v / 2_000) for v in (500, 1_000)]
        rows += [_row(key, name, "reference", v, 3 + i) for name, v in REFERENCES.items()]
    return pd.DataFrame.from_records(rows, columns=CURVE_COLUMNS)


def test_every_family_has_a_marker_no_other_family_uses():
    fig = curve_figure(every_series_frame(), "chars_per_token", {})
    symbols: dict[str, set[str]] = {}
    for trace in fig.data:
        if "markers" in trace.mode:
            symbols.setdefault(trace.name, set()).add(trace.marker.symbol)
    expected = {FAMILY_LABELS[f] for f in [*FAMILY_NAMES, *REFERENCES]}
    assert set(symbols) == expected
    assert all(len(shapes) == 1 for shapes in symbols.values()), symbols  # same in every corpus
    shapes = [next(iter(s)) for s in symbols.values()]
    assert len(set(shapes)) == len(shapes), symbols


def test_every_series_has_a_legend_entry_in_its_corpus_group():
    fig = curve_figure(every_series_frame(), "chars_per_token", {})
    hidden = [(t.legendgroup, t.name) for t in fig.data if t.showlegend is False]
    assert hidden == []
    for corpus in CORPORA.values():
        names = [t.name for t in fig.data if t.legendgroup == corpus]
        for name in REFERENCES:
            assert names.count(FAMILY_LABELS[name]) == 1, (corpus, names)
