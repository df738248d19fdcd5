"""Where the Compression chart writes the reference tokenizers' names (ui/compression/labels.py):
never on another name nor on a marker, inside the plot. The crowded case is a chart Chromium drew
at 1280x720 with a models folder (tests/local_models_files.py: four found tokenizers, two of them
at the same places as the built-in Mistral 7B and Qwen 2.5): there `local:qwen`'s name covered
cl100k's, as the rings of places around a marker near the plot's right edge ran out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ui.compression.labels import Frame, Point, _label_box, _marker_box, place_labels

FONT_PX, MARKER_PX = 15, 17
FRAME = Frame(low_log=2.301, high_log=5.5052, y_max=4.743, height_px=618)
# (name, log10 vocab size, characters per token) as the page passed them; "" is a lower marker
# of the same tokenizer (on another corpus), which gets no name but must not be covered.
MODELS_FOLDER_CHART = [
    ("GPT-2", 4.7012, 3.082), ("cl100k", 5.0012, 4.475), ("o200k", 5.3011, 4.45),
    ("Llama 3", 5.1081, 4.475), ("Qwen 2.5", 5.1809, 4.458), ("Nemo", 5.1175, 4.361),
    ("Mistral 7B", 4.5051, 3.838), ("DeepSeek", 5.1115, 4.345), ("BERT", 4.4846, 3.436),
    ("local:lower", 2.6484, 1.31), ("local:mistral7b", 4.5051, 3.838),
    ("local:qwen", 5.1809, 4.458), ("local:trained", 3.0, 1.697),
    ("", 4.7012, 0.467), ("", 5.0012, 0.792), ("", 5.3011, 1.206), ("", 5.1081, 1.176),
    ("", 5.1809, 1.495), ("", 5.1175, 1.047), ("", 4.5051, 0.866), ("", 5.1115, 1.603),
    ("", 4.4846, 1.019), ("", 2.6484, 1.019), ("", 3.0, 0.659),
]


def _boxes(points: list[Point], frame: Frame = FRAME):
    offsets = place_labels(points, frame, FONT_PX, MARKER_PX)
    pixels = [frame.pixel(p.log_x, p.y) for p in points]
    labels = {i: _label_box(pixels[i][0] + dx, pixels[i][1] + dy, points[i].name, FONT_PX)
              for i, (dx, dy) in offsets.items()}
    markers = [_marker_box(x, y, MARKER_PX) for x, y in pixels]
    return labels, markers


def test_the_crowded_models_folder_chart_keeps_every_name_clear():
    points = [Point(*p) for p in MODELS_FOLDER_CHART]
    labels, markers = _boxes(points)
    assert sorted(labels) == [i for i, p in enumerate(points) if p.name]  # every name, once
    clashes = [(points[i].name, points[j].name) for i in labels for j in labels
               if i < j and labels[i].meets(labels[j])]
    assert clashes == []
    on_markers = [(points[i].name, j) for i in labels for j, m in enumerate(markers)
                  if labels[i].meets(m)]
    assert on_markers == []
    for box in labels.values():
        assert box.left >= 0 and box.right <= FRAME.width_px and box.top >= -FONT_PX


NAMES = st.sampled_from(["GPT-2", "cl100k", "o200k", "Llama 3", "Qwen 2.5", "local:mistral7b",
                         "hf:Qwen/Qwen3-0.6B", "BERT"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(NAMES, st.floats(2.4, 5.4), st.floats(0.2, 4.5)), min_size=1,
                max_size=8))
def test_a_few_names_anywhere_never_meet(raw):
    """Eight names or fewer, wherever their markers are: there is always room, so no two meet."""
    points = [Point(*p) for p in raw]
    labels, _ = _boxes(points)
    assert len(labels) == len(points)
    clashes = [(i, j) for i in labels for j in labels if i < j and labels[i].meets(labels[j])]
    assert clashes == []
