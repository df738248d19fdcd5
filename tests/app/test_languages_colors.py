"""One colour per tokenizer on the Languages page: every chart the page draws, on every tab,
gives a tokenizer the same colour, no two tokenizers share one, and nothing that is not a
tokenizer (a language, a measure, the grow curve) is drawn in a tokenizer's colour.

The figures are the page's own, as AppTest receives them (plotly's JSON), for every tab.
"""

from __future__ import annotations

import json
from collections import defaultdict

from ui.languages import data

from .conftest import open_page

PAGE = "pages/languages.py"
TABS = ["Byte ruler", "English vs Chinese", "Many languages", "Emoji", "Grow a vocabulary"]
# The picker takes at most five; with the defaults (four) plus an open model, every kind of
# tokenizer the page knows is drawn: OpenAI's, an open model's, ours.
PICKED = [*data.DEFAULT_NAMES, "llama3"]
LABELS = {data.label(n) for n in data.NAMES} | {data.BYTES_LABEL}


def _colors(value) -> list:
    return value if isinstance(value, list) else [value]


def _marks(spec: dict) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(tokenizer label, colour) of every mark that stands for a tokenizer, and (name, colour)
    of every one-colour mark that does not."""
    mine, others = [], []
    for trace in spec.get("data", []):
        marker = trace.get("marker", {})
        color = marker.get("color")
        name = str(trace.get("name", ""))
        if trace.get("type") == "bar" and isinstance(color, list):  # one bar per category
            categories = trace["y"] if trace.get("orientation") == "h" else trace["x"]
            mine += [(str(c), k) for c, k in zip(categories, color) if str(c) in LABELS]
        elif name in LABELS and color is not None:
            mine.append((name, color))
        elif trace.get("type") in ("bar", "scatter", "box"):
            others += [(name, k) for k in (color, trace.get("line", {}).get("color")) if k]
    for note in spec.get("layout", {}).get("annotations", []):  # a line per tokenizer: "GPT-2: 812"
        label = str(note.get("text", "")).split(":")[0]
        if label in LABELS and "font" in note:
            mine.append((label, note["font"]["color"]))
    return mine, others


def test_every_languages_chart_gives_each_tokenizer_its_one_colour(app):
    open_page(app, PAGE)
    app.multiselect(key="lg_tokenizers").set_value(PICKED).run()
    colors: dict[str, set[str]] = defaultdict(set)
    others: list[tuple[str, str, str]] = []
    charts_seen = 0
    for tab in TABS:
        app.session_state["lg_tab"] = tab
        app.run()
        assert not app.exception, [e.value for e in app.exception]
        for chart in app.get("plotly_chart"):
            spec = json.loads(chart.proto.spec)
            title = str(spec.get("layout", {}).get("title", {}).get("text", ""))
            mine, theirs = _marks(spec)
            charts_seen += 1
            for label, color in mine:
                colors[label].add(str(color).lower())
            others += [(title, name, str(c).lower()) for name, c in theirs]
    assert charts_seen >= 8, charts_seen  # every tab's charts were drawn
    assert {data.label(n) for n in PICKED} <= set(colors), sorted(colors)
    assert {k: v for k, v in colors.items() if len(v) != 1} == {}, "a tokenizer, two colours"
    owners = defaultdict(set)
    for label, found in colors.items():
        owners[next(iter(found))].add(label)
    assert {c: n for c, n in owners.items() if len(n) > 1} == {}, "two tokenizers, one colour"
    taken = {c for found in colors.values() for c in found}
    assert [o for o in others if o[2] in taken] == [], "a non-tokenizer in a tokenizer's colour"
