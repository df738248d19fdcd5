"""What the Compression page keeps in memory and shares between sessions (#22): an HF line's
cached points hold their numbers only (the model's text stays in the on-disk store and is read
back when a quality row needs the model), and a second session with the same choices trains,
counts and builds nothing: its chart and quality table are the ones the first session built
(ui/compression/shared.py), in its own language."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tokenizer_core import store
from tokenizer_core.measure import stored
from ui.compression import compute, shared
from ui.compression.corpora import builtin_text, digest_of
from ui.compression.limits import DEFAULT_HELD_OUT_PCT

from .conftest import REPO, TIMEOUT_S, open_page
from .test_compression import PAGE, open_compression, quality_rows, runs  # noqa: F401 (fixture)

CHOICES = {"corpora": ("code",), "hf": ("wordpiece",), "cp_vocab": 1_000}


def store_entries() -> set[str]:
    """Every entry the on-disk store holds: a training, a count or a measured row each."""
    folder = store.store_dir()
    return {path.name for path in folder.glob("*.json")} if folder and folder.is_dir() else set()


def another_session() -> AppTest:
    """A second browser tab: a new session of the same server process (its caches kept)."""
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)


def chart_spec(app: AppTest) -> dict:
    return json.loads(app.get("plotly_chart")[0].proto.spec)


def test_a_cached_hf_line_holds_numbers_and_its_row_reads_the_model_back(app, runs):  # noqa: F811
    open_compression(app, **CHOICES)
    assert runs == {"ours": 1, "hf": 2}  # WordPiece at 500 and 1,000
    text = builtin_text("code")
    # the page's own cached call, asked again with its arguments: a hit, nothing trained
    points = compute.hf_family(digest_of(text), DEFAULT_HELD_OUT_PCT, "wordpiece", (500, 1_000),
                               "Code", "en", text)
    assert runs == {"ours": 1, "hf": 2}
    assert [p.requested for p in points] == [500, 1_000]
    assert all(p.tokenizer_json == "" for p in points)
    # the store keeps the whole point, the model's text with it, and the cache its numbers
    whole = stored.hf_point("wordpiece", text, DEFAULT_HELD_OUT_PCT, 1_000)
    assert whole is not None and json.loads(whole.tokenizer_json)["model"]["type"] == "WordPiece"
    assert whole.numbers() == points[1]
    # the quality row was measured with that model, read back from the store: its count is the
    # one the worker made when it trained the model
    row = quality_rows(app)[("Code", "HF WordPiece")]
    assert row["tokens"] == whole.held_out.tokens
    assert row["vocab size"] == whole.vocab_size


def test_a_second_session_trains_counts_and_builds_nothing(app, runs):  # noqa: F811
    open_compression(app, **CHOICES)
    made, charts, tables = store_entries(), shared.charts().builds, shared.tables().builds
    assert made and charts >= 1 and tables == 1
    second = another_session()
    open_compression(second, **CHOICES)
    assert not second.exception
    assert store_entries() == made  # no training, no reference count, no quality row measured
    assert runs == {"ours": 1, "hf": 2}
    assert (shared.charts().builds, shared.tables().builds) == (charts, tables)
    assert chart_spec(second) == chart_spec(app)
    first_rows, second_rows = quality_rows(app), quality_rows(second)
    assert first_rows.keys() == second_rows.keys()
    assert all(first_rows[k].equals(second_rows[k]) for k in first_rows)


def test_a_session_in_another_language_builds_its_own_chart_and_trains_nothing(app, runs):  # noqa: F811
    open_compression(app, **CHOICES)
    made, charts, tables = store_entries(), shared.charts().builds, shared.tables().builds
    chinese = another_session()
    chinese.session_state["cp_corpora"] = list(CHOICES["corpora"])
    chinese.session_state["cp_hf"] = list(CHOICES["hf"])
    chinese.session_state["cp_vocab"] = CHOICES["cp_vocab"]
    open_page(chinese, PAGE, {"lang": "zh"})
    assert not chinese.exception
    assert store_entries() == made and runs == {"ours": 1, "hf": 2}
    assert shared.charts().builds > charts and shared.tables().builds == tables + 1
    english, words = chart_spec(app), chart_spec(chinese)
    assert english["layout"]["xaxis"]["title"]["text"] == "Vocabulary size (log scale)"
    assert words["layout"]["xaxis"]["title"]["text"] != english["layout"]["xaxis"]["title"]["text"]
    # the same numbers under other words
    assert [t.get("y") for t in words["data"]] == [t.get("y") for t in english["data"]]
