"""The Compression chart names every series: each tokenizer family has a marker shape no other
family uses (colour names the corpus, so the shape is what tells GPT-2 from HF Unigram), and
the legend names each corpus and each tokenizer once (issue 23, item 9), and the reference
tokenizers' names on the chart keep apart."""

from __future__ import annotations

import pandas as pd
import pytest

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


def test_each_found_tokenizer_has_a_marker_no_other_tokenizer_uses():
    """Four tokenizers of the models folder were four identical x's in the legend (a browser
    screenshot with tests/local_models_files.py's folder): now each has a shape of its own, the
    same in every corpus, none a built-in tokenizer's or an HF line's."""
    found = {"local:lower": 1_000, "local:mistral7b": 32_000, "local:qwen": 151_643,
             "hf:org/model": 4_000}
    extra = [_row(key, name, "reference", v, 2 + i)
             for i, key in enumerate(CORPORA) for name, v in found.items()]
    frame = pd.concat([every_series_frame(), pd.DataFrame.from_records(extra, columns=CURVE_COLUMNS)])
    fig = curve_figure(frame, "chars_per_token", {})
    symbols: dict[str, set[str]] = {}
    for trace in fig.data:
        if "markers" in trace.mode:
            symbols.setdefault(trace.name, set()).add(trace.marker.symbol)
    assert set(found) <= set(symbols)
    assert all(len(shapes) == 1 for shapes in symbols.values()), symbols  # same in every corpus
    shapes = [next(iter(s)) for s in symbols.values()]
    assert len(set(shapes)) == len(shapes), symbols


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


COLORS = {"english": "#0072B2", "chinese": "#D55E00", "code": "#009E73"}


def legend_entries(fig) -> list[str]:
    return [t.name for t in fig.data if t.showlegend is not False]


def test_the_legend_has_one_entry_per_corpus_and_one_per_series_group():
    """Issue 23, item 9: with every corpus the legend had 52 entries (one per corpus and
    tokenizer); now one per corpus (its colour) and one per tokenizer (its shape), each
    tokenizer's entry the group of its series in every corpus."""
    frame = every_series_frame()
    fig = curve_figure(frame, "chars_per_token", COLORS)
    groups = {(f, k) for f, k in zip(frame["family"], frame["kind"])}
    entries = legend_entries(fig)
    assert len(entries) == len(CORPORA) + len(groups)  # 3 + 16, not 3 x 16
    assert entries[: len(CORPORA)] == list(CORPORA.values())
    series = [t for t in fig.data if t.showlegend is False]
    for key in (t for t in fig.data if t.showlegend is not False and t.x != (None,) or False):
        raise AssertionError(f"a legend key draws data: {key.name}")
    for trace in series:  # every series is in the group of its tokenizer's legend entry
        keyed = [t.name for t in fig.data if t.showlegend is not False
                 and t.legendgroup == trace.legendgroup]
        assert keyed == [trace.name], (trace.legendgroup, keyed)


def reference_markers(fig) -> list[tuple[str, str, str, float, float]]:
    """(name, symbol, colour, x, y) of every reference marker the chart draws."""
    names = {FAMILY_LABELS[r] for r in REFERENCES}
    return [(t.name, t.marker.symbol, t.marker.color, x, y) for t in fig.data
            if t.name in names and t.showlegend is False for x, y in zip(t.x, t.y)]


def test_every_reference_point_has_its_own_symbol_and_colour():
    fig = curve_figure(every_series_frame(), "chars_per_token", COLORS)
    markers = reference_markers(fig)
    assert len(markers) == len(CORPORA) * len(REFERENCES)
    pairs = [(symbol, color) for _, symbol, color, _, _ in markers]
    assert len(set(pairs)) == len(pairs)
    symbols = {name: symbol for name, symbol, *_ in markers}
    assert len(set(symbols.values())) == len(REFERENCES)  # o200k's star, BERT's not a star
    assert "star" not in symbols[FAMILY_LABELS["bert-base-uncased"]]


def _near_frame() -> pd.DataFrame:
    """Every reference at one value on one corpus: GPT-2 next to BERT, five between 128k and
    200k, as the chart with every corpus has them."""
    rows = [_row("english", "ours", "held-out", v, 2 + v / 4_000) for v in (256, 1_000, 4_000)]
    rows += [_row("english", name, "reference", v, 4.2 + 0.01 * i)
             for i, (name, v) in enumerate(REFERENCES.items())]
    return pd.DataFrame.from_records(rows, columns=CURVE_COLUMNS)


def label_boxes(fig) -> dict[str, tuple[float, float, float, float]]:
    """Each reference name's box (left, top, right, bottom) in pixels of a plot area 520 wide
    and as tall as the figure less 120: the names' real boxes are read in Chromium
    (tests/browser/test_compression.py); this is the same question without a browser."""
    low, high = fig.layout.xaxis.range
    values = [y for t in fig.data if t.showlegend is False for y in t.y if y is not None]
    top, height = max(values) * 1.06, fig.layout.height - 120
    boxes = {}
    for a in fig.layout.annotations:
        if a.name != "reference label":
            continue
        x = (a.x - low) / (high - low) * 520 + a.ax
        y = height * (1 - a.y / top) + a.ay
        half_w, half_h = len(a.text) * 0.55 * a.font.size / 2, a.font.size / 2
        boxes[a.text] = (x - half_w, y - half_h, x + half_w, y + half_h)
    return boxes


def _meet(a, b) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


@pytest.mark.parametrize("big", [False, True])
def test_reference_names_are_placed_apart_where_the_points_are_near(big):
    from ui.compression.charts import REF_SHORT

    fig = curve_figure(_near_frame(), "chars_per_token", COLORS, big=big)
    labels = [a for a in fig.layout.annotations if a.name == "reference label"]
    assert sorted(a.text for a in labels) == sorted(REF_SHORT[r] for r in REFERENCES)
    assert all(a.showarrow for a in labels)  # each name points at its marker
    boxes = label_boxes(fig)
    clashes = [(p, q) for p in boxes for q in boxes if p < q and _meet(boxes[p], boxes[q])]
    assert clashes == []
    # the five from 128k to 200k are too near for one row of names: their offsets differ
    crowd = [a for a in labels if a.text in ("Llama 3", "Nemo", "DeepSeek", "Qwen 2.5", "o200k")]
    assert len({(a.ax, a.ay) for a in crowd}) == len(crowd)
