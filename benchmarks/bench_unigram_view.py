"""Server time of the Unigram page's lattice view for a 200-character text (goal: under 0.2 s).

    python benchmarks/bench_unigram_view.py [--repeats 9]

Each the median over `repeats` different 200-character texts (windows
of the built-in English sample, so no cache helps), the training already cached:
  build        ui/unigram/viterbi_view.build_view: Viterbi, the lattice, the lesson's shortcut
               beside it, n-best, the dp table and the plotly figure with one frame per position
  + json       the same and the figure serialized to JSON (what Streamlit then sends)
  page rerun   the whole page rerun with AppTest, a new text typed into the lattice tab
Models: the page's default (all four samples, 800 pieces) and its largest (the 60 KB English
reference, 4,000 pieces). Also the figure's JSON size. Prints a Markdown table; no thresholds.
Times are wall / CPU seconds: on a machine shared with other work the CPU time of this process
is the steadier number (AppTest runs the page in a thread of this same process).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from tokenizer_core import corpus_from_text  # noqa: E402
from tokenizer_core.samples import sample_text  # noqa: E402
from tokenizer_core.trainers.unigram import train_unigram  # noqa: E402
from ui.unigram.limits import MAX_LATTICE_CHARS  # noqa: E402
from ui.unigram.source import corpus_text  # noqa: E402
from ui.unigram.viterbi_view import build_view  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODELS = [("samples", 800), ("reference", 4_000)]
TARGET_S = 0.2


def texts(n: int) -> list[str]:
    """n different 200-character windows of the English sample, cut at word starts."""
    words = sample_text("english").split()
    found, start = [], 0
    while len(found) < n:
        text = " ".join(words[start:])[:MAX_LATTICE_CHARS]
        found.append(text)
        start += 7
    return found


Times = tuple[float, float]  # (wall, CPU of this process) seconds


def timed(fn) -> Times:
    """Wall time and this process's CPU time: on a shared machine the wall time also counts the
    other sessions' turns, the CPU time only this work."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_build(corpus: str, vocab: int, repeats: int) -> tuple[list[Times], list[Times], int]:
    model = train_unigram(corpus_from_text(corpus_text(corpus), "word"), vocab).model()
    build, with_json, size = [], [], [0]
    for text in texts(repeats):
        build.append(timed(lambda: build_view(model, text)))

        def serialized() -> None:
            size[0] = len(build_view(model, text).figure.to_json())

        with_json.append(timed(serialized))
    return build, with_json, size[0]


def bench_page(corpus: str, vocab: int, repeats: int) -> list[Times]:
    st.cache_data.clear()
    st.cache_resource.clear()
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=600)
    for key, value in {"ug_corpus": corpus, "ug_vocab": str(vocab),
                       "ug_tab": "🕸️ Lattice & Viterbi"}.items():
        app.query_params[key] = value
    app.switch_page("pages/unigram.py")
    app.run()  # trains once
    assert not app.exception, [e.value for e in app.exception]
    times = []
    for text in texts(repeats):
        box = app.text_input(key="ug_text").set_value(text)
        times.append(timed(box.run))
        assert not app.exception, [e.value for e in app.exception]
    return times


def cell(values: list[Times]) -> str:
    """Median wall time, then median CPU time."""
    wall = statistics.median(w for w, _ in values)
    cpu = statistics.median(c for _, c in values)
    return f"{wall:.3f} / {cpu:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; "
          f"{MAX_LATTICE_CHARS}-character texts, median of {args.repeats}, seconds as "
          f"wall / CPU; target under {TARGET_S} s; load average {os.getloadavg()[0]:.1f}")
    print()
    print("| model | build | build + figure JSON | page rerun (AppTest) | figure JSON |")
    print("|---|---|---|---|---|")
    for corpus, vocab in MODELS:
        build, with_json, size = bench_build(corpus, vocab, args.repeats)
        page = bench_page(corpus, vocab, args.repeats)
        print(f"| {corpus}, {vocab:,} pieces | {cell(build)} | {cell(with_json)} | "
              f"{cell(page)} | {size / 1e6:.2f} MB |")


if __name__ == "__main__":
    main()
