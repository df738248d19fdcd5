"""What the Compression page builds from its numbers (the curve chart, the quality table's views),
built once per server for each corpus and setting and shared by every session, in its language.

Why: with the numbers cached, what was left of a session's run was building the same things
again for every student: the plotly figure (a hundred traces and annotations, each checked by
plotly's validators), the quality frame and its four tabs, filled cell by cell (#22: 0.65 s of
server CPU a session against the Playground's 0.32). Built once, each is an object every session
reads and none changes: Streamlit copies a figure when it serialises it (`to_dict`) and writes a
frame out as Arrow or CSV.

Keys are plain values: a digest of the chart's rows (every number drawn), the measure, the size
marked, presentation mode and the session's language; for the table, every row's corpus digest,
held-out share, tokenizer spec and label. Bounded: the least recently used goes first.

Leaves out: the numbers themselves (compute.py) and drawing (view.py).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from ui.common.i18n import current_language
from ui.compression.charts import curve_figure
from ui.compression.corpora import COLORS
from ui.compression.frames import curve_frame
from ui.compression.limits import CHART_CACHE_ENTRIES, TABLE_CACHE_ENTRIES

T = TypeVar("T")
Chart = tuple[pd.DataFrame, go.Figure | None]  # None: the measure has no point to draw


class Shared(Generic[T]):
    """A bounded map kept by the server, which every session reads: `get` builds a missing value
    outside the lock (two sessions asking at once may both build it; one is kept)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self.builds = 0  # values built since it was made: what a test can count
        self._values: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = build()
        with self._lock:
            self.builds += 1
            self._values[key] = value
            while len(self._values) > self.entries:
                self._values.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._values)


@st.cache_resource
def charts() -> Shared[Chart]:
    return Shared(CHART_CACHE_ENTRIES)


@st.cache_resource
def tables() -> Shared:
    return Shared(TABLE_CACHE_ENTRIES)


def rows_digest(rows: list[dict]) -> str:
    """A digest of the chart's rows: equal rows, equal chart (repr keeps every float exactly)."""
    return hashlib.blake2b(repr(rows).encode("utf-8"), digest_size=16).hexdigest()


def chart(rows: list[dict], metric: str, compare: int, big: bool) -> Chart:
    """The chart's frame (every point, one row each; read-only) and its figure, None when
    `metric` has no value on any row (tokens per word on text without spaces)."""

    def build() -> Chart:
        frame = curve_frame(rows).drop_duplicates(["corpus_key", "family", "kind", "vocab_size"])
        if metric == "tokens_per_word" and frame["tokens_per_word"].isna().all():
            return frame, None
        return frame, curve_figure(frame, metric, COLORS, compare, big)

    key = (rows_digest(rows), metric, compare, big, current_language())
    return charts().get(key, build)
